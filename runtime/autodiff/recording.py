"""What the generated recorders (generated/recorders.py) build with: Nodes (`new_node`, the one
way to build one), their steps and the constants they compare against, bound once as module
globals of the generated file."""

from burnpy.runtime.autodiff.grad_mode import GRAD_MODE
from burnpy.runtime.autodiff.node import (
    NONE,
    ComputingProperty,
    Node,
    Requirement,
    new_node,
    next_id,
)
from burnpy.runtime.autodiff.steps import SELF, UNTRACKED_STEP, output_step
from burnpy.runtime.autodiff.tensor import AutodiffTensor, autodiff_tensor

TRACKED = Requirement.GradInBackward
COMPUTE_BOUND = ComputingProperty.ComputeBound
MEMORY_BOUND = ComputingProperty.MemoryBound


def untracked_node(order: int) -> Node:
    """The Node of an op none of whose inputs is tracked: in no graph, with nothing to run."""
    return new_node(
        parents=(), order=order + 1, id=next_id(), requirement=NONE, properties=COMPUTE_BOUND,
        step=UNTRACKED_STEP,
    )  # fmt: skip


def output_node(hub: Node, slot: int, count: int) -> Node:
    """The Node of float output `slot` of `count`: a child of the op's node (the hub, whose step
    runs the rule), whose step puts its gradient in its slot of the hub's."""
    return new_node(
        parents=(hub.id,), order=hub.order + 1, id=next_id(), requirement=TRACKED,
        properties=COMPUTE_BOUND, step=output_step(slot, count), inputs=(hub,),
    )  # fmt: skip


__all__ = [
    "COMPUTE_BOUND",
    "GRAD_MODE",
    "MEMORY_BOUND",
    "NONE",
    "SELF",
    "AutodiffTensor",
    "TRACKED",
    "autodiff_tensor",
    "new_node",
    "next_id",
    "output_node",
    "untracked_node",
]
