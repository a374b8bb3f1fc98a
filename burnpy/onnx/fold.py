"""What the importer knows before a model runs: onnx's shape inference gives every value its
element type and shape (dynamic dims stay named), and a node whose inputs are all known is
evaluated once, by its own translation on the NumPy backend, and becomes a constant."""

from __future__ import annotations

from burnpy.onnx import expr, ops
from burnpy.onnx.expr import Expr
from burnpy.generated import Device, Tensor, module


def infer_shapes(model):
    """The model with the value types onnx's shape inference finds (the model unchanged when
    inference fails: translations then see unknown shapes and refuse what needs them)."""
    from onnx import shape_inference

    try:
        return shape_inference.infer_shapes(model, strict_mode=False, data_prop=True)
    except Exception:
        return model


def evaluate(tree: Expr, constants: dict):
    """The value of a translation's expression over constant inputs, on the NumPy backend: the
    tree walked (burnpy/onnx/expr.py#evaluate), no text parsed. Its names are the generated
    code's: the modules, the builtins translations call, the device and the constants."""
    device = Device.numpy()
    scope = {"ops": ops, "Tensor": Tensor, "module": module, "int": int, "list": list}
    scope["_device"] = device
    for name, array in constants.items():
        scope[name] = Tensor.from_data(array, device=device, dtype=array.dtype)
    return expr.evaluate(tree, scope)
