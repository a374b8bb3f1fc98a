"""backward(): walk the steps reachable from the root, run them deepest first, free as we go.

There is no global graph: each Node holds its step and each step its parent Nodes, so a graph
lives exactly as long as the user holds one of its tensors. Backward consumes the non-leaf
steps it runs (their saved tensors are released right after), and keeps leaves' RootSteps, so
parameters serve any number of backward passes.
"""

import gc

from runtime.autodiff.checkpoint import Checkpointer
from runtime.autodiff.gradients import Gradients
from runtime.autodiff.node import Node, Requirement
from runtime.autodiff.steps import CONSUMED, ROOT_STEP, UNTRACKED_STEP, OpsStep
from runtime.errors import BACKWARD_NEEDS_TRACKED, BurnPanic, GraphConsumed


def backward(root, backend) -> Gradients:
    """Gradients of every Grad leaf that `root` depends on, seeded with ones of root's shape."""
    node = root.node
    if node.requirement is Requirement.None_:
        raise BurnPanic(
            BACKWARD_NEEDS_TRACKED,
            "nothing this value was computed from requires a gradient",
        )
    tape = _tape(node)
    gradients = Gradients()
    gradients.register(node.id, backend.float_ones_like(root.primitive))
    recomputes = any(isinstance(n.step, OpsStep) and n.step.retro_forward for n in tape)
    checkpointer = Checkpointer(tape) if recomputes else None
    for node in tape:
        step = node.step
        if step is ROOT_STEP:
            continue  # a Grad leaf: its gradient stays in `gradients` for the user
        grad = gradients.consume(node)
        if grad is not None:
            step.run(node, grad, gradients, checkpointer)
        node.step = CONSUMED  # frees the step's saved tensors now, not at the end
    return gradients


def _tape(root: Node) -> list[Node]:
    """Every node reachable through steps, deepest first (order strictly grows along edges).
    Raises before anything changes if a step was consumed by an earlier backward."""
    seen = {root.id.value}
    stack, tape = [root], []
    while stack:
        node = stack.pop()
        step = node.step
        if step is CONSUMED:
            raise GraphConsumed(node.id)
        tape.append(node)
        if type(step) is OpsStep:
            for parent in step.parent_nodes():
                if parent.id.value not in seen:
                    seen.add(parent.id.value)
                    stack.append(parent)
    tape.sort(key=_order, reverse=True)
    return tape


def _order(node: Node) -> int:
    return node.order


# -- introspection: what the graph machinery holds right now ---------------------------------


def live_nodes() -> list[Node]:
    """Nodes still alive (held by a tensor, or reachable from one through steps)."""
    gc.collect()
    return [obj for obj in gc.get_objects() if type(obj) is Node]


def live_steps() -> list[OpsStep]:
    """Registered op steps still alive (not yet consumed, graph not yet dropped)."""
    return [n.step for n in live_nodes() if type(n.step) is OpsStep or n.step is UNTRACKED_STEP]


def saved_bytes() -> int:
    """Bytes of the tensors that live steps keep for backward (each buffer counted once)."""
    seen, total = set(), 0
    for step in (n.step for n in live_nodes() if type(n.step) is OpsStep):
        values = list(step.saved.values())
        if step.retro_forward is not None:
            values += step.retro_forward.inputs()
        for value in values:
            nbytes = getattr(value, "nbytes", None)
            if nbytes is not None and id(value) not in seen:
                seen.add(id(value))
                total += nbytes
    return total


__all__ = ["backward", "live_nodes", "live_steps", "saved_bytes"]
