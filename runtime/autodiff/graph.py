"""backward(): walk the steps reachable from the root, run them deepest first, free as we go.

There is no global graph: each Node holds its step and each step its parent Nodes, so a graph
lives exactly as long as the user holds one of its tensors (Python's reference counts play
burn's `rc`), and dropping the last one frees its steps and saved tensors at once, backwarded
or not. Backward consumes the non-leaf steps it runs, each released as soon as it has run, and
keeps leaves' RootSteps, so parameters serve any number of backward passes.

With a backward hook registered (runtime/autodiff/hooks.py), each leaf a hook wants is handed to
it right after the last step that consumes it has run, and backward returns once every hook has
finished.
"""

from operator import attrgetter

from burnpy.runtime.activity import ACTIVITY, Phase, from_origin, in_phase
from burnpy.runtime.autodiff import hooks
from burnpy.runtime.autodiff.checkpoint import Checkpointer
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import NONE, Node
from burnpy.runtime.autodiff.steps import CONSUMED, ROOT_STEP
from burnpy.runtime.errors import BACKWARD_NEEDS_TRACKED, BurnPanic, GraphConsumed


def backward(root, backend) -> Gradients:
    """Gradients of every Grad leaf that `root` depends on, seeded with ones of root's shape."""
    with in_phase(Phase.BACKWARD):
        return _backward(root, backend)


def _backward(root, backend) -> Gradients:
    node = root.node
    if node.requirement is NONE:
        raise BurnPanic(
            BACKWARD_NEEDS_TRACKED,
            "nothing this value was computed from requires a gradient",
        )
    tape, leaves, recomputes = _tape(node)
    gradients = Gradients()
    gradients.register(node.id, _ones(backend, root.primitive))
    checkpointer = Checkpointer(tape) if recomputes else None
    watched = _Watched(tape, leaves, backend, gradients) if hooks.HOOKS else None
    if watched is not None and not watched.passes:
        watched = None
    completed_by = watched.completed_by if watched is not None else None
    consume = gradients.consume
    outer = ACTIVITY.origin
    try:
        for node in tape:
            step = node.step
            # Consumed before it runs, and its state (saved tensors, inputs) dropped right after,
            # before the next step runs.
            node.step = CONSUMED
            ACTIVITY.origin = step.origin
            step.run(node, consume(node), gradients, checkpointer)
            ACTIVITY.origin = outer
            node.release()
            if completed_by is not None and node in completed_by:
                watched.complete(completed_by.pop(node))
    except BaseException:
        ACTIVITY.origin = outer
        # A pass that fails part-way has still consumed its graph (the steps that ran, the
        # recipes the checkpointer took): say so to a retry instead of failing obscurely.
        for node in tape:
            node.step = CONSUMED
            node.release()
        if watched is not None:
            watched.finish(failed=True)
        raise
    if watched is not None:
        watched.finish(failed=False)
    return gradients


class _Watched:
    """The Grad leaves of one pass that registered hooks want, keyed by the step after which
    each one's gradient is complete: the last step in tape order that consumes its id (two
    handles of one leaf share an id and a gradient), since the tape runs each step once."""

    def __init__(self, tape, leaves, backend, gradients):
        self.gradients = gradients
        wanted = {}  # leaf id -> (leaf, the hooks that want it)
        for node in dict.fromkeys(leaves):  # each leaf asked about once
            owners = [hook for hook in hooks.HOOKS if hook.wants(node)]
            if owners:
                wanted[node.id] = (node, owners)
        used = {hook for _, owners in wanted.values() for hook in owners}
        self.passes = {hook: hook.begin(backend) for hook in hooks.HOOKS if hook in used}
        self.completed_by: dict = {}
        if not wanted:
            return
        last = {}
        for node in tape:
            for parent in _parents(node):
                if parent.id in wanted:
                    last[parent.id] = node
        for leaf_id, entry in wanted.items():
            consumer = last.get(leaf_id)
            if consumer is None:  # the root itself: its gradient is the seed, complete now
                self.complete([entry])
            else:
                self.completed_by.setdefault(consumer, []).append(entry)

    def complete(self, leaves) -> None:
        for leaf, owners in leaves:
            for hook in owners:
                grad = self.gradients.get(leaf)
                self.gradients.replace(leaf, self.passes[hook].complete(leaf, grad))

    def finish(self, failed: bool) -> None:
        errors = []
        for hook_pass in self.passes.values():
            try:
                hook_pass.finish()
            except Exception as error:  # every pass finishes, whichever fails
                errors.append(error)
        if errors and not failed:
            raise errors[0]


def _parents(node: Node):
    for parent in node.inputs:
        if type(parent) is tuple:
            yield from (element for element in parent if element is not None)
        elif parent is not None:
            yield parent


def _ones(backend, primitive):
    """The seed: ones of the root's shape, as a broadcast view of a single one, so a non-scalar
    root costs no buffer (a rule never writes into the gradient it is given); a root of one
    element (a loss) gets that one itself."""
    shape = primitive.shape
    device, dtype = backend.device_of(primitive), backend.dtype(primitive)
    single = (1,) * len(shape)
    with from_origin("backward seed: ones"):
        one = backend.float_ones(single, device, dtype)
        return one if shape == single else backend.float_expand(one, shape)


def _tape(root: Node) -> tuple[list[Node], list[Node], bool]:
    """The steps to run, every node reachable through steps but the Grad leaves, deepest first
    (order strictly grows along edges); the leaves they reach, once per edge; whether a step
    has a recipe (to recompute). Raises before anything changes if a step was consumed by an
    earlier backward."""
    if root.step is ROOT_STEP:
        return [], [root], False
    seen = {root}
    stack, tape, leaves = [root], [], []
    recomputes = False
    push, see, leaf = stack.append, seen.add, leaves.append
    while stack:
        node = stack.pop()
        if node.step is CONSUMED:
            raise GraphConsumed(node.id)
        tape.append(node)
        if node.recipe is not None:
            recomputes = True
        # a recorded op's inputs (a tuple of them for a list input, cat), or an output's op
        # node (OutputStep)
        for parent in node.inputs:
            if parent is None:
                continue
            if type(parent) is tuple:
                for element in parent:
                    if element is not None and element.step is ROOT_STEP:
                        leaf(element)
                    elif element is not None and element not in seen:
                        see(element)
                        push(element)
            elif parent.step is ROOT_STEP:
                leaf(parent)  # its gradient stays in `gradients` for the user
            elif parent not in seen:
                see(parent)
                push(parent)
    tape.sort(key=ORDER, reverse=True)
    return tape, leaves, recomputes


ORDER = attrgetter("order")
