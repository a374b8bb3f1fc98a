# @generated from ops.yaml by `python -m codegen`; do not edit. render=e01877a6e1eb1487 body=e8f102489d56dc8c
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
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
    "loss",
]
