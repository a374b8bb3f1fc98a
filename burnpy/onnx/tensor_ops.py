"""Translations beside the table's own (burnpy/onnx/table.py lists them): TensorScatter,
BatchNormalization in training mode, BitCast, Det, the optimisers of ai.onnx.preview.training
(Momentum, Adagrad, Adam) and ai.onnx.ml's Binarizer and ArrayFeatureExtractor."""

from __future__ import annotations

import math

from burnpy.onnx.emit import OPS, Outputs, Site
from burnpy.onnx.expr import Attr, ListOf, Lit
from burnpy.onnx.ir import ELEMENT_TYPES, FLOATS, storage

ops = OPS


def tensor_scatter(n: Site):
    mode = n.attr("mode", "linear")
    if mode not in ("linear", "circular"):
        n.refuse(f"TensorScatter's mode {mode!r} is not one of 'linear', 'circular'")
    positions = n.opt(2)
    return ops.tensor_scatter(n.x(0), n.x(1), positions, n.attr("axis", -2), mode == "circular")


def batch_norm_training(n: Site):
    """BatchNormalization with training_mode (from opset 14): the output and the running
    mean and variance updated by the batch's."""
    if n.opset < 14:
        n.refuse("BatchNormalization in training mode before opset 14 (saved statistics) is not supported")  # fmt: skip
    epsilon, momentum = float(n.attr("epsilon", 1e-5)), float(n.attr("momentum", 0.9))
    args = [n.x(i) for i in range(5)]
    return Outputs(ops.batch_norm_training(*args, Lit(epsilon), Lit(momentum)), 3)


# The bits of a float32 / float64 read as the int of the same width, and back (the catalogue's
# bitcast); each narrow int reaches its width through the int it is held in.
WIDE = {"float32": "int32", "float64": "int64"}
WIDTH = {"bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16, "bfloat16": 16, "int32": 32, "uint32": 32, "float32": 32, "int64": 64, "uint64": 64, "float64": 64}  # fmt: skip
SIGNED = {8: "int8", 16: "int16", 32: "int32", 64: "int64"}


def bitcast(n: Site):
    source, target = n.dtype(0), ELEMENT_TYPES.get(n.attr("to"))
    if target is None or WIDTH.get(source) != WIDTH.get(target) or WIDTH.get(source) is None:
        n.refuse(f"a BitCast from {source} to {target} is not supported (between ints, bool, float32 and float64 of one width)")  # fmt: skip
    if source in ("float16", "bfloat16") or target in ("float16", "bfloat16"):
        n.refuse(f"a BitCast from {source} to {target} is not supported (16-bit floats)")
    x = n.x(0)
    if source == target:
        return x
    if source == "bool":
        return x.int()
    if target == "bool":
        return x.not_equal_elem(0)
    if source in WIDE:
        x = x.bitcast()  # the signed int of its width
        source = WIDE[source]
    if target in WIDE:
        signed = SIGNED[WIDTH[source]]
        x = x if storage(source) == signed else x.cast(signed)  # wraps to the signed width
        return x.bitcast()
    held = storage(target)
    return x if storage(source) == held else x.cast(held)  # the node's wrap reads the bits


def _optimiser(n: Site, rule: str, states: int, *options):
    """Momentum, Adagrad, Adam over n tensors: inputs R, T, then n of each of X, G and the
    `states`; outputs n new Xs, then n of each new state."""
    count = (n.count() - 2) // (2 + states)
    groups = [ListOf(tuple(n.x(2 + k * count + i) for i in range(count))) for k in range(2 + states)]  # fmt: skip
    rule = Attr(ops, rule)
    return Outputs(ops.updates(rule, n.x(0), n.x(1), ListOf(tuple(groups)), *(Lit(o) for o in options)), count * (1 + states))  # fmt: skip


def momentum(n: Site):
    mode = n.attr("mode")
    if mode not in ("standard", "nesterov"):
        n.refuse(f"Momentum's mode {mode!r} is not one of 'standard', 'nesterov'")
    options = [float(n.attr("alpha")), float(n.attr("beta")), float(n.attr("norm_coefficient")), mode == "nesterov"]  # fmt: skip
    return _optimiser(n, "momentum", 1, *options)


def adagrad(n: Site):
    options = [float(n.attr("decay_factor", 0.0)), float(n.attr("epsilon", 0.0)), float(n.attr("norm_coefficient", 0.0))]  # fmt: skip
    return _optimiser(n, "adagrad", 1, *options)


def adam(n: Site):
    names = {"alpha": 0.9, "beta": 0.999, "epsilon": 0.0, "norm_coefficient": 0.0, "norm_coefficient_post": 0.0}  # fmt: skip
    return _optimiser(n, "adam", 2, *(float(n.attr(k, v)) for k, v in names.items()))


def binarizer(n: Site):
    """ai.onnx.ml Binarizer: 1 where x > threshold, else 0, in x's type."""
    x, threshold = n.x(0), float(n.attr("threshold", 0.0))
    if n.dtype(0) in FLOATS:
        return x.greater_elem(threshold).float(n.dtype(0))
    return x.greater_elem(math.floor(threshold)).int(n.dtype(0))  # x > t: x > floor(t)


def array_feature_extractor(n: Site):
    """ai.onnx.ml ArrayFeatureExtractor: the entries of x's last axis at the given indices."""
    return ops.feature_columns(n.x(0), n.x(1))


def det(n: Site):
    if n.dtype(0) not in ("float32", "float64"):
        n.refuse(f"Det of {n.dtype(0)} is not supported (float32, float64)")
    return n.x(0).det()
