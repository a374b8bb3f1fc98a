# @generated from ops.yaml by `python -m codegen`; do not edit. render=06b6f21140253218 body=5f3f5ebf86e29839
"""The generated package: `from burnpy import Device, Tensor` (or `from burnpy.generated import ...`)."""

if (
    __name__ != "burnpy.generated"
):  # a checkout's root on sys.path: one copy of every class, or none
    raise ImportError(
        f"import the generated package as burnpy.generated, not {__name__}: write "
        "`from burnpy import Device, Tensor` or `from burnpy.generated import ...`"
    )

from burnpy.generated.tensor import Tensor
from burnpy.generated import module  # after Tensor: it imports the dispatch layer
from burnpy.generated import optim  # after Tensor: it imports the dispatch layer
from burnpy.generated import loss
from burnpy.runtime.autodiff import introspect
from burnpy.runtime.autodiff.grad_mode import no_grad
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import NodeId, Requirement
from burnpy.runtime.device import Device, GradientCheckpointingStrategy
from burnpy.runtime.distribution import Distribution
from burnpy.runtime.indexing import IndexingUpdateOp
from burnpy.runtime.quantization.scheme import (
    Calibration,
    QuantLevel,
    QuantMode,
    QuantParam,
    QuantPropagation,
    QuantScheme,
    QuantStore,
    QuantValue,
)

__all__ = [
    "Calibration",
    "Device",
    "Distribution",
    "GradientCheckpointingStrategy",
    "Gradients",
    "IndexingUpdateOp",
    "NodeId",
    "QuantLevel",
    "QuantMode",
    "QuantParam",
    "QuantPropagation",
    "QuantScheme",
    "QuantStore",
    "QuantValue",
    "Requirement",
    "Tensor",
    "introspect",
    "no_grad",
    "module",
    "optim",
    "loss",
]
