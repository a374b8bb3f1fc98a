"""What the generated recorders (generated/recorders.py) build with: Nodes, their steps and the
constants they compare against, bound once as module globals of the generated file."""

from runtime.autodiff.backend import Recorders
from runtime.autodiff.node import ComputingProperty, Node, Requirement, next_id
from runtime.autodiff.steps import SELF, UNTRACKED_STEP, output_step
from runtime.autodiff.tensor import AutodiffTensor

NONE = Requirement.None_
TRACKED = Requirement.GradInBackward
COMPUTE_BOUND = ComputingProperty.ComputeBound
MEMORY_BOUND = ComputingProperty.MemoryBound


def untracked_node(order: int) -> Node:
    """The Node of an op none of whose inputs is tracked: in no graph, with nothing to run."""
    return Node(
        parents=[],
        order=order + 1,
        id=next_id(),
        requirement=NONE,
        properties=COMPUTE_BOUND,
        step=UNTRACKED_STEP,
    )


__all__ = [
    "COMPUTE_BOUND",
    "MEMORY_BOUND",
    "NONE",
    "SELF",
    "TRACKED",
    "AutodiffTensor",
    "Node",
    "Recorders",
    "next_id",
    "output_step",
    "untracked_node",
]
