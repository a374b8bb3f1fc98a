"""What the generated recorders (generated/recorders.py) build with: Nodes, their steps and the
constants they compare against, bound once as module globals of the generated file."""

from runtime.autodiff.backend import Recorders
from runtime.autodiff.grad_mode import GRAD_MODE
from runtime.autodiff.node import ComputingProperty, Node, Requirement, next_id
from runtime.autodiff.steps import SELF, UNTRACKED_STEP, output_step
from runtime.autodiff.tensor import AutodiffTensor

NONE = Requirement.None_
TRACKED = Requirement.GradInBackward
COMPUTE_BOUND = ComputingProperty.ComputeBound
MEMORY_BOUND = ComputingProperty.MemoryBound

__all__ = [
    "COMPUTE_BOUND",
    "GRAD_MODE",
    "MEMORY_BOUND",
    "NONE",
    "SELF",
    "TRACKED",
    "UNTRACKED_STEP",
    "AutodiffTensor",
    "Node",
    "Recorders",
    "next_id",
    "output_step",
]
