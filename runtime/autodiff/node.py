"""Graph metadata: NodeId, Requirement, ComputingProperty, Node.

A Node is shared by every handle of one tensor. Its `step` is the backward recipe registered for
it; the step holds the parent Nodes, so the graph is exactly what user-held tensors can reach,
and Python's reference counts free a graph the moment its last tensor is dropped (burn's `rc`).
"""

import itertools
from enum import Enum

_COUNTER = itertools.count()  # process-wide; `next` on it is atomic under the GIL


next_id = _COUNTER.__next__  # a Node's id is this plain int (burn-semantics §1.1)


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

    @staticmethod
    def from_nodes(nodes) -> "Requirement":
        """burn's infer rule: None iff every input is None, else GradInBackward (never Grad)."""
        for node in nodes:
            if node.requirement is not Requirement.None_:
                return Requirement.GradInBackward
        return Requirement.None_


class ComputingProperty(Enum):
    """For checkpointing: keep the output (ComputeBound) or recompute it (MemoryBound)."""

    ComputeBound = "ComputeBound"
    MemoryBound = "MemoryBound"
    Ambiguous = "Ambiguous"  # leaves; treated as ComputeBound


class Node:
    """{parents, order, id, requirement, properties} plus the registered step."""

    __slots__ = ("parents", "order", "id", "requirement", "properties", "step", "__weakref__")

    def __init__(self, parents, order, id, requirement, properties, step=None):
        self.parents = parents  # the tracked inputs' ids (ints)
        self.order = order  # depth: leaves 0, an op output max(parent orders) + 1
        self.id = id  # an int from `next_id`: unique and increasing in the process
        self.requirement = requirement
        self.properties = properties
        self.step = step  # None for an unregistered leaf; CONSUMED once a backward used it

    def __repr__(self):
        return (
            f"Node {{ id: {NodeId(self.id)!r}, order: {self.order}, requirement: {self.requirement}, "
            f"parents: {list(self.parents)} }}"
        )
