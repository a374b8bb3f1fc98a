"""Constant folding: a node whose inputs are all known before the model runs is evaluated
once, by its own translation on the NumPy backend, and becomes a constant (the values' types
and shapes come from onnx's strict shape inference, burnpy/onnx/checks.py#inferred)."""

from __future__ import annotations

from burnpy.onnx import expr, ml, ops
from burnpy.onnx.expr import Expr
from burnpy.generated import Device, Tensor, module


def evaluate(tree: Expr, constants: dict):
    """The value of a translation's expression over constant inputs, on the NumPy backend: the
    tree walked (burnpy/onnx/expr.py#evaluate), no text parsed. Its names are the generated
    code's: the modules, the builtins translations call, the device and the constants."""
    device = Device.numpy()
    scope = {"ops": ops, "ml": ml, "Tensor": Tensor, "module": module, "int": int, "list": list}
    scope["_device"] = device
    for name, array in constants.items():
        scope[name] = Tensor.from_data(array, device=device, dtype=array.dtype)
    return expr.evaluate(tree, scope)
