"""Steps: what backward runs for a node (burn's `Step` trait objects).

RootStep and UntrackedOpsStep do nothing and carry nothing, so each is one shared object.
OpsStep runs an op's backward rule: one VJP per tracked float input, with the values the rule
asked for (saved at forward time, or recomputed by the Checkpointer), and undoes broadcasting
once, here, for every rule. A `tensors` input (cat) is a list: its VJP returns one gradient per
element, and each tracked element is a parent of its own.
"""

from runtime.autodiff.node import Node


class _MarkerStep:
    __slots__ = ("name",)
    retro_forward = None

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


class OpsStep:
    __slots__ = ("rule", "backend", "parents", "shapes", "saved", "retro_forward")

    def __init__(self, rule, backend, parents, shapes, saved, retro_forward):
        self.rule = rule
        self.backend = backend  # the inner backend: backward math is never recorded
        # per float input (a tuple of them for a list input):
        self.parents = parents  # its Node if tracked, else None
        self.shapes = shapes  # its shape, to undo broadcasting (None: a one-input op)
        self.saved = saved  # name -> primitive | Node (recompute) | SELF
        self.retro_forward = retro_forward  # how to recompute the output (MemoryBound only)

    def run(self, node, grad, gradients, checkpointer) -> None:
        values = self.saved
        if checkpointer is not None:
            values = {name: checkpointer.resolve(value, node) for name, value in values.items()}
        backend = self.backend
        shapes = self.shapes or (None,)
        for vjp, parent, shape in zip(self.rule.vjps, self.parents, shapes):
            if type(parent) is tuple:
                if any(p is not None for p in parent):
                    for p, s, input_grad in zip(parent, shape, vjp(backend, grad, values)):
                        if p is not None:
                            _register(backend, gradients, p, s, input_grad)
            elif parent is not None:  # (the common case, written out: it runs for every input)
                input_grad = vjp(backend, grad, values)
                if shape is not None and input_grad.shape != shape:
                    input_grad = backend.unbroadcast(input_grad, shape)
                gradients.register(parent.id, input_grad)


def _register(backend, gradients, parent, shape, input_grad) -> None:
    if shape is not None and input_grad.shape != shape:
        input_grad = backend.unbroadcast(input_grad, shape)
    gradients.register(parent.id, input_grad)


class RetroForward:
    """The recipe of a MemoryBound output: the op's forward and its call arguments, where each
    float input is a primitive (kept: burn's Backup action) or a Node (itself recomputed)."""

    __slots__ = ("forward", "args", "float_positions")

    def __init__(self, forward, args, float_positions):
        self.forward = forward
        self.args = args
        self.float_positions = float_positions

    def inputs(self):
        return [self.args[i] for i in self.float_positions]

    def run(self, retrieve):
        """Recompute the output; `retrieve(node)` gives the value of a recomputed input."""
        args = list(self.args)
        for i in self.float_positions:
            if isinstance(args[i], Node):
                args[i] = retrieve(args[i])
        return self.forward(*args)
