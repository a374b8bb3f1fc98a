"""Translations of ONNX's signal operators (DFT, STFT, MelWeightMatrix) to the compositions of
burnpy/onnx/spectral.py: sizes, steps and axes given as inputs are read when the model runs
unless known at import."""

from __future__ import annotations

from burnpy.onnx.emit import OPS as ops, Site
from burnpy.onnx.expr import Lit
from burnpy.onnx.ir import ELEMENT_TYPES, FLOATS, storage


def _float_signal(n: Site) -> None:
    if n.dtype(0) not in FLOATS:
        n.refuse(f"{n.op} of {n.dtype(0)} is not supported (float signals only)")


def dft(n: Site):
    """DFT at opset 17 (the axis an attribute, 1 by default) and from opset 20 (an input,
    -2 by default)."""
    _float_signal(n)
    if n.opset >= 20:
        axis = n.number_code(2) if n.has(2) else Lit(-2)
    else:
        axis = Lit(n.attr("axis", 1))
    length = n.number_code(1) if n.has(1) else Lit(None)
    inverse, onesided = bool(n.attr("inverse", 0)), bool(n.attr("onesided", 0))
    return ops.dft(n.x(0), length, axis, inverse=inverse, onesided=onesided)


def stft(n: Site):
    _float_signal(n)
    window = n.x(2) if n.has(2) else Lit(None)
    length = n.number_code(3) if n.has(3) else Lit(None)
    onesided = bool(n.attr("onesided", 1))
    return ops.stft(n.x(0), n.number_code(1), window, length, onesided=onesided)


def mel_weight_matrix(n: Site):
    dtype = ELEMENT_TYPES.get(n.attr("output_datatype", 1))
    if dtype not in FLOATS:
        n.refuse(f"MelWeightMatrix to {dtype} is not supported (float outputs only)")
    numbers = [n.number_code(i) for i in range(5)]
    return ops.mel_weight_matrix(*numbers, storage(dtype), n.device())
