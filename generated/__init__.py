# @generated from ops.yaml by `python -m codegen`; do not edit. render=7bdaf6c8f9b7a681 body=a7450aafce790b8a
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
from runtime.autodiff import introspect
from runtime.autodiff.gradients import Gradients
from runtime.autodiff.node import NodeId, Requirement
from runtime.device import Device, GradientCheckpointingStrategy
from runtime.distribution import Distribution

__all__ = [
    "Device",
    "Distribution",
    "GradientCheckpointingStrategy",
    "Gradients",
    "NodeId",
    "Requirement",
    "Tensor",
    "introspect",
]
