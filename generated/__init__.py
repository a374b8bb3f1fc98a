# @generated from ops.yaml by `python -m codegen`; do not edit. render=5f354ee807379612 body=4cfefc16b16fbe07
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
from generated import module  # after Tensor: it imports the dispatch layer
from generated import optim  # after Tensor: it imports the dispatch layer
from generated import loss
from runtime.autodiff import introspect
from runtime.autodiff.grad_mode import no_grad
from runtime.autodiff.gradients import Gradients
from runtime.autodiff.node import NodeId, Requirement
from runtime.device import Device, GradientCheckpointingStrategy
from runtime.distribution import Distribution
from runtime.indexing import IndexingUpdateOp
from runtime.quantization.scheme import (
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
