# @generated from ops.yaml by `python -m codegen`; do not edit. render=10c1aec2b3ea34a8 body=8f8a79e52840361d
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
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
]
