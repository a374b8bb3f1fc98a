"""What the autodiff machinery holds right now: for tests, and for users chasing a leak.

A graph is plain Python objects (tensor -> Node -> step -> parent Nodes), so the live ones are
found by asking the garbage collector which Nodes exist; nothing is registered on the hot path.
No collection is forced: a graph is freed by reference counting the moment its last tensor goes,
so anything listed here is really held (by a tensor, a step, or a reference cycle elsewhere).
These walk every object of the process: call them to look, not in a loop. to_dot, to_mermaid and
render draw the graph one tensor reaches (runtime/autodiff/picture.py).
"""

import gc
from dataclasses import dataclass

from burnpy.runtime.autodiff.node import Node
from burnpy.runtime.autodiff.picture import render, to_dot, to_mermaid
from burnpy.runtime.autodiff.steps import CONSUMED, ROOT_STEP


def live_nodes() -> list[Node]:
    """Every Node alive, in id order: held by a tensor, or reachable from one through steps."""
    nodes = [obj for obj in gc.get_objects() if type(obj) is Node]
    nodes.sort(key=lambda node: node.id)
    return nodes


def live_steps() -> list[Node]:
    """The nodes whose op step is still registered: neither consumed by a backward nor dropped
    with its graph. (A leaf's RootStep, which serves every backward, is not counted.)"""
    return [n for n in live_nodes() if n.step is not None and n.step not in (ROOT_STEP, CONSUMED)]


def saved_bytes() -> int:
    """Bytes of the tensors that live steps keep for backward (each buffer counted once):
    values saved for their rules, and the inputs kept by MemoryBound ops' recipes."""
    seen, total = set(), 0
    for node in live_steps():
        values = list(node.saved)
        if node.recipe is not None:
            values += node.step.recipe_inputs(node.recipe)
        for value in values:
            nbytes = getattr(value, "nbytes", None)
            if nbytes is not None and id(value) not in seen:
                seen.add(id(value))
                total += nbytes
    return total


@dataclass(frozen=True)
class GraphMemory:
    nodes: int
    steps: int
    saved_bytes: int


def snapshot() -> GraphMemory:
    """Live nodes, live steps and saved bytes in one look, e.g. `print(introspect.snapshot())`."""
    return GraphMemory(len(live_nodes()), len(live_steps()), saved_bytes())


__all__ = [
    "GraphMemory",
    "live_nodes",
    "live_steps",
    "render",
    "saved_bytes",
    "snapshot",
    "to_dot",
    "to_mermaid",
]
