# @generated from ops.yaml by `python -m codegen`; do not edit. render=be91723a85e3bd53 body=4b567b188fb7e20b
"""The generated package: `from generated import Device, Tensor`."""

from generated.tensor import Tensor
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
]
