"""Graph metadata: NodeId, Requirement, ComputingProperty, Node.

A Node is shared by every handle of one tensor. Its `step` is the backward recipe registered for
it; the step holds the parent Nodes, so the graph is exactly what user-held tensors can reach,
and Python's reference counts free a graph the moment its last tensor is dropped (burn's `rc`).
"""

import itertools
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

try:
    from burnpy.runtime.autodiff._new_node import slots_constructor
except ImportError:  # built without a C compiler (runtime/autodiff/new_node.c): Python builds it
    slots_constructor = None

_COUNTER = itertools.count()  # process-wide; `next` on it is atomic under the GIL


next_id = _COUNTER.__next__  # a Node's id is this plain int (docs/semantics.md#node-ids)


class NodeId:
    """burn's `NodeId { value }`, as the user sees a node's id (`Tensor.node_id()`); nodes keep
    the plain int, so that the hot path allocates nothing for it."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, NodeId) and other.value == self.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return f"NodeId {{ value: {self.value} }}"


class Requirement(Enum):
    Grad = "Grad"  # a require_grad() leaf: keeps its gradient after backward
    GradInBackward = "GradInBackward"  # an op output on a tracked path: gradient used, then freed
    None_ = "None"  # a constant: not part of any graph

    def __str__(self):
        return self.value


NONE = Requirement.None_  # read on every step's path: an Enum member from its class costs 0.2 us


class ComputingProperty(Enum):
    """For checkpointing: keep the output (ComputeBound) or recompute it (MemoryBound)."""

    ComputeBound = "ComputeBound"
    MemoryBound = "MemoryBound"
    Ambiguous = "Ambiguous"  # leaves; treated as ComputeBound


# A Node's fields, in one place: its slots, and the parameters of `new_node`, the one way to
# build it (a test holds the two equal).
FIELDS = (
    "parents",  # the tracked inputs' ids (ints)
    "order",  # depth: leaves 0, an op output max(parent orders) + 1
    "id",  # an int from `next_id`: unique and increasing in the process
    "requirement",
    "properties",
    "step",  # None for an unregistered leaf; CONSUMED once a backward used it
    # The step's state, per float input (a tuple of them for a list input): its Node if
    # tracked, else None; its shape, to undo broadcasting (None: a one-argument op).
    "inputs",
    "shapes",
    "saved",  # per name of rule.saved: primitive | Node (recompute) | SELF | None
    # A MemoryBound output's recipe: the op's call arguments, each float input a primitive
    # (kept: burn's Backup action) or a Node (itself recomputed); None when it is kept.
    "recipe",
    # A Grad leaf replicated across processes: its ParamId (burn's DistributedParams), so that
    # its gradient is reduced over them in backward; None otherwise.
    "distributed_params",
)


class Node:
    """{parents, order, id, requirement, properties} and the step registered for it.

    burn registers, per op, an OpsStep that holds the op's parents and saved state beside its
    Node. Here a recorded op's Node carries that state in its own slots and `step` is the op's
    shared Backward (runtime/autodiff/steps.py): one allocation per op instead of two, on the
    path every tracked op takes. Leaves and untracked ops have a marker step and no state; a
    backward marks each step it ran Consumed and drops its state. Built by `new_node` only.
    """

    __slots__ = (*FIELDS, "__weakref__")

    def release(self) -> None:
        """Drop the step's state (a backward ran it): its saved tensors and its inputs."""
        self.inputs, self.shapes, self.saved, self.recipe = (), None, (), None

    def __repr__(self):
        return (
            f"Node {{ id: {NodeId(self.id)!r}, order: {self.order}, requirement: {self.requirement}, "
            f"parents: {list(self.parents)} }}"
        )


_new = object.__new__

Function = TypeVar("Function", bound=Callable[..., Any])


def slots_in_c(cls: type) -> Callable[[Function], Function]:
    """The decorator of a function whose parameters are `cls`'s slots, which it sets on a new
    instance: where the install built runtime/autodiff/new_node.c, a C callable that does the
    same with no Python frame, and hands any call it cannot take (an argument missing, unknown
    or given twice) to the function, which raises its own TypeError."""

    def wrap(function: Function) -> Function:
        return function if slots_constructor is None else slots_constructor(cls, function)

    return wrap


@slots_in_c(Node)
def new_node(
    *, parents, order, id, requirement, properties, step=None, inputs=(), shapes=None, saved=(),
    recipe=None, distributed_params=None,
) -> Node:  # fmt: skip
    """A Node with every field set (FIELDS). A plain function taking keywords: the recorders
    name each field, and calling the class with keywords would build a dict of them on every
    recorded op, the hot path of a tracked step. One statement per field: a tuple assignment
    would build and unpack a tuple of them."""
    node = _new(Node)
    node.parents = parents
    node.order = order
    node.id = id
    node.requirement = requirement
    node.properties = properties
    node.step = step
    node.inputs = inputs
    node.shapes = shapes
    node.saved = saved
    node.recipe = recipe
    node.distributed_params = distributed_params
    return node
