"""Translations beside the table's own (burnpy/onnx/table.py lists them): TensorScatter and
BatchNormalization in training mode."""

from __future__ import annotations

from burnpy.onnx.emit import OPS, Outputs, Site
from burnpy.onnx.expr import Lit

ops = OPS


def tensor_scatter(n: Site):
    mode = n.attr("mode", "linear")
    if mode not in ("linear", "circular"):
        n.refuse(f"TensorScatter's mode {mode!r} is not one of 'linear', 'circular'")
    positions = n.ints_code(2, "the write positions") if n.has(2) else Lit(None)
    return ops.tensor_scatter(n.x(0), n.x(1), positions, n.attr("axis", -2), mode == "circular")


def batch_norm_training(n: Site):
    """BatchNormalization with training_mode (from opset 14): the output and the running
    mean and variance updated by the batch's."""
    if n.opset < 14:
        n.refuse("BatchNormalization in training mode before opset 14 (saved statistics) is not supported")  # fmt: skip
    epsilon, momentum = float(n.attr("epsilon", 1e-5)), float(n.attr("momentum", 0.9))
    args = [n.x(i) for i in range(5)]
    return Outputs(ops.batch_norm_training(*args, Lit(epsilon), Lit(momentum)), 3)
