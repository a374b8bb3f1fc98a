"""What the generated recorders (generated/recorders.py) build with: Nodes, their steps and the
constants they compare against, bound once as module globals of the generated file."""

from runtime.autodiff.backend import Recorders
from runtime.autodiff.grad_mode import GRAD_MODE
from runtime.autodiff.node import NONE, ComputingProperty, Node, Requirement, next_id
from runtime.autodiff.steps import SELF, UNTRACKED_STEP, output_step
from runtime.autodiff.tensor import AutodiffTensor

TRACKED = Requirement.GradInBackward
COMPUTE_BOUND = ComputingProperty.ComputeBound
MEMORY_BOUND = ComputingProperty.MemoryBound


# The three Nodes a recorder makes. Each takes its fields by keyword, so that generated code
# names them, and is a plain function: calling the Node class with keywords would build a dict
# of them on every recorded op, the hot path of a tracked step.
_new = object.__new__


def recorded_node(*, parents, order, properties, step, inputs, shapes=None, saved=(), recipe=None):
    """The Node of a recorded op: the next id, a gradient wanted in backward (its inputs are
    tracked), and the state its step reads (Node's fields, stored as Node() stores them)."""
    node = _new(Node)
    node.parents, node.order, node.id, node.requirement = parents, order, next_id(), TRACKED
    node.properties, node.step, node.inputs = properties, step, inputs
    node.shapes, node.saved, node.recipe = shapes, saved, recipe
    return node


def untracked_node(order: int) -> Node:
    """The Node of an op none of whose inputs is tracked: in no graph, with nothing to run."""
    return Node([], order + 1, next_id(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)


def output_node(hub: Node, slot: int, count: int) -> Node:
    """The Node of float output `slot` of `count`: a child of the op's node (the hub, whose step
    runs the rule), whose step puts its gradient in its slot of the hub's."""
    return Node(
        [hub.id], hub.order + 1, next_id(), TRACKED, COMPUTE_BOUND, output_step(slot, count), [hub]
    )


__all__ = [
    "COMPUTE_BOUND",
    "GRAD_MODE",
    "MEMORY_BOUND",
    "NONE",
    "SELF",
    "AutodiffTensor",
    "Recorders",
    "output_node",
    "recorded_node",
    "untracked_node",
]
