"""Steps: what backward runs for a node (burn's `Step` trait objects).

RootStep and UntrackedOpsStep do nothing and carry nothing, so each is one shared object.
A recorded op's step is its Backward, shared by every node of that op, with the node's state
(burn's OpsStep { ops: { parents, node, state }, backward }, laid out as node + Backward: see
Node). It runs the op's rule: one VJP per tracked float input, with the values the rule asked
for (saved at forward time, or recomputed by the Checkpointer), and undoes broadcasting once,
here, for every rule. A `tensors` input (cat) is a list: its VJP returns one gradient per
element, and each tracked element is a parent of its own.
"""

from burnpy.runtime.autodiff.node import Node


class _MarkerStep:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


ROOT_STEP = _MarkerStep("RootStep")  # a require_grad() leaf: its gradient stays for the user
UNTRACKED_STEP = _MarkerStep("UntrackedOpsStep")  # an op on untracked inputs (seed: `a*a`)
CONSUMED = _MarkerStep("Consumed")  # a non-leaf step that a backward already ran and freed


class Self:
    """A saved value that is the step's own output, recomputed under BalancedCheckpointing."""

    def __repr__(self):
        return "Self"


SELF = Self()


class OutputStep:
    """The step of one float output of an op that has several (rfft's real and imaginary
    parts). Each output has its own Node, a child of the op's node (whose step is the op's
    Backward); this step puts the output's gradient into its slot of that node's gradient, so
    the rule runs once, with a gradient per output (None for one that got none)."""

    __slots__ = ("slot", "count")
    origin = None  # it only sums a gradient into its slot; the op's step runs the rule

    def __init__(self, slot: int, count: int):
        self.slot = slot
        self.count = count

    def __repr__(self):
        return f"OutputStep({self.slot} of {self.count})"

    def run(self, node, grad, gradients, checkpointer) -> None:
        gradients.register_slot(node.inputs[0].id, self.slot, self.count, grad)


_OUTPUT_STEPS: dict = {}


def output_step(slot: int, count: int) -> OutputStep:
    """The shared OutputStep of output `slot` of `count`."""
    key = (slot, count)
    step = _OUTPUT_STEPS.get(key)
    if step is None:
        step = _OUTPUT_STEPS[key] = OutputStep(slot, count)
    return step


class Backward:
    """One op's backward as one Autodiff specialization runs it (burn's `Backward` impl of the
    op), shared by every step of that op: its rule, the inner backend (backward math is never
    recorded), and its forward, to recompute a MemoryBound output (burn's RetroForward)."""

    __slots__ = (
        "rule",
        "vjps",
        "backend",
        "forward",
        "float_positions",
        "origin",
        "recompute_origin",
    )

    def __init__(self, rule, backend, forward, float_positions):
        self.rule = rule
        self.origin = f"{rule.name} backward"  # of the kernels `run` calls
        self.recompute_origin = f"{rule.name} recomputed"
        self.vjps = rule.vjps  # (read once per step: one attribute, not two)
        self.backend = backend
        self.forward = forward
        self.float_positions = float_positions

    def recipe_inputs(self, recipe) -> list:
        return [recipe[i] for i in self.float_positions]

    def run(self, node, grad, gradients, checkpointer) -> None:
        """One VJP per tracked float input, from the values the node saved; the gradients go
        to its inputs, broadcasting undone."""
        values = node.saved
        if type(grad) is list:  # the gradients of an op's several float outputs
            grad = tuple(grad)
        if checkpointer is not None:
            values = [checkpointer.resolve(value, node) for value in values]
        backend = self.backend
        register = gradients.register
        for vjp, parent, shape in zip(self.vjps, node.inputs, node.shapes or (None,)):
            if parent is None:
                continue
            if type(parent) is tuple:
                if any(p is not None for p in parent):
                    for p, s, input_grad in zip(parent, shape, vjp(backend, grad, values)):
                        if p is not None:
                            _register(backend, gradients, p, s, input_grad)
            else:  # (the common case, written out: it runs for every input)
                input_grad = vjp(backend, grad, values)
                if shape is not None and input_grad.shape != shape:
                    input_grad = backend.unbroadcast(input_grad, shape)
                register(parent.id, input_grad)

    def recompute(self, recipe, retrieve):
        """The output again, from a step's recipe; `retrieve(node)` gives a recomputed input."""
        args = list(recipe)
        for i in self.float_positions:
            if type(args[i]) is Node:
                args[i] = retrieve(args[i])
        return self.forward(*args)


class JointBackward(Backward):
    """The Backward of an op with a Joint rule: its backward kernel gives every input's
    gradient at once, so the rule runs once per step (not once per input), told which inputs
    are tracked so that it can skip the others."""

    __slots__ = ()

    def run(self, node, grad, gradients, checkpointer) -> None:
        values = node.saved
        if type(grad) is list:
            grad = tuple(grad)
        if checkpointer is not None:
            values = [checkpointer.resolve(value, node) for value in values]
        parents = node.inputs
        tracked = tuple(parent is not None for parent in parents)
        input_grads = self.rule.joint(self.backend, grad, values, tracked)
        shapes = node.shapes or (None,) * len(parents)
        for parent, shape, input_grad in zip(parents, shapes, input_grads):
            if parent is not None:
                _register(self.backend, gradients, parent, shape, input_grad)


def _register(backend, gradients, parent, shape, input_grad) -> None:
    if shape is not None and input_grad.shape != shape:
        input_grad = backend.unbroadcast(input_grad, shape)
    gradients.register(parent.id, input_grad)
