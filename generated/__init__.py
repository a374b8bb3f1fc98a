# @generated from ops.yaml by `python -m codegen`; do not edit. render=02327d508ae93008 body=801ae7b3acf9c027
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
    "no_grad",
    "module",
    "optim",
    "loss",
]
