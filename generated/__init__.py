# @generated from ops.yaml by `python -m codegen`; do not edit. render=1f595abfe60abd03 body=7ebdb3aa865c7bca
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
from generated import module  # after Tensor: it imports the dispatch layer
from generated import loss
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
