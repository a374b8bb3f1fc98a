# @generated from ops.yaml by `python -m codegen`; do not edit. render=1bb86804b9e97706 body=a9244774e49be322
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
from generated import module  # after Tensor: it imports the dispatch layer
from runtime import loss
from runtime.autodiff import introspect
from runtime.autodiff.gradients import Gradients
from runtime.autodiff.node import NodeId, Requirement
from runtime.device import Device, GradientCheckpointingStrategy
from runtime.distribution import Distribution
from runtime.indexing import IndexingUpdateOp

__all__ = [
    "Device",
    "Distribution",
    "GradientCheckpointingStrategy",
    "Gradients",
    "IndexingUpdateOp",
    "NodeId",
    "Requirement",
    "Tensor",
    "introspect",
    "module",
    "loss",
]
