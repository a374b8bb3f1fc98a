"""Names, signatures, argument lists and statements, computed from the model for the templates.

All the decisions live here; the templates only lay the pieces out (torchgen's rule). One module
per product:

- types: what they share: the kinds' names, the annotation tables (USER_TYPES, DISPATCH_TYPES),
  annotated parameters, return annotations, tuple literals;
- dispatch: the dispatch functions of generated/<group>_ops.py, one routing for every backend;
- tensor: the Tensor class's methods and operators (generated/tensor.py);
- module_functions: the public functions of a function module (generated/module.py);
- inner: the inner backend's kernels as a typing Protocol (generated/inner.py);
- metadata: the backends' registrations, the Autodiff specialization's table of ops and the
  recorders of the differentiable ones;
- onnx: each exportable op's ONNX lowering (generated/onnx.py, the op reference);
- report: the counts `python -m codegen stats` prints.
"""

from burnpy.codegen.api.dispatch import dispatch_function, dispatch_functions, dispatch_groups
from burnpy.codegen.api.inner import data_dependent, inner_kernels
from burnpy.codegen.api.metadata import (
    autodiff_bindings,
    backend_classes,
    backend_registrations,
    described_ops,
    recorders,
)
from burnpy.codegen.api.module_functions import functions
from burnpy.codegen.api.onnx import lowerings
from burnpy.codegen.api.quantized import quantized_functions, quantized_methods, selections
from burnpy.codegen.api.report import stats
from burnpy.codegen.api.tensor import tensor_methods
from burnpy.codegen.api.types import call_parameters

__all__ = [
    "autodiff_bindings",
    "described_ops",
    "backend_classes",
    "backend_registrations",
    "call_parameters",
    "dispatch_function",
    "dispatch_functions",
    "dispatch_groups",
    "functions",
    "inner_kernels",
    "data_dependent",
    "lowerings",
    "quantized_functions",
    "quantized_methods",
    "selections",
    "recorders",
    "stats",
    "tensor_methods",
]
