"""The Autodiff decorator: `Autodiff[inner backend, strategy]`, one specialization per pair.

Only float tensors change: their primitive becomes an AutodiffTensor. Int and bool tensors, the
device and every non-float op pass through to the inner backend. Each float op of the
catalogue becomes a method of the specialization: a differentiable op's is its recorder,
generated from its ops.yaml entry and backward rule (generated/recorders.py), bound here to the
inner backend's forward and the op's shared Backward.
"""

from dataclasses import dataclass

from runtime.autodiff import graph
from runtime.autodiff.checkpoint import BalancedCheckpointing, CheckpointStrategy, NoCheckpointing
from runtime.autodiff.rules import Rule
from runtime.autodiff.steps import Backward, JointBackward
from runtime.autodiff.tensor import AutodiffTensor
from runtime.device import GradientCheckpointingStrategy


@dataclass(frozen=True)
class AutodiffOp:
    """What the decorator needs to know of a float op; generated from its ops.yaml entry.

    role: "record" (differentiable: a node and a step), "leaf" (the float result is a new
    untracked leaf: creation, int/bool -> float), "forward" (no float result: runs on the
    inner primitives, no graph edge), "untracked" (float results no gradient flows through, an
    optimiser's update: runs on the inner primitives, each result a new untracked leaf).
    """

    name: str
    args: tuple[str, ...]
    float_inputs: tuple[int, ...]
    role: str
    memory_bound: bool = False  # its checkpoint class (ops.yaml's `autodiff`)
    outputs: int = 1  # how many results the op returns
    keeps: str | None = None  # what its forward keeps for the backward (`<name>_keeping`)


@dataclass(frozen=True)
class Recorders:
    """An op's generated recorder factory, and the order of the values its steps save (the
    rule's, when it was generated: a rule changed since means generated/ is stale)."""

    factory: object  # (forward, backward, inner, balanced) -> the recorder
    saved: tuple[str, ...]


# to_device to another backend: no catalogue op of its own (float_to_device routes here), but a
# recorded, compute-bound op like it. Its output lives on the target backend; its step runs on
# the source backend, whose primitive the gradient must become again (the rule moves it back).
MOVE_ACROSS = AutodiffOp("move_across", ("tensor", "target", "device"), (0,), "record")

_SPECIALIZATIONS: dict = {}


def autodiff_backend(inner, strategy: GradientCheckpointingStrategy, ops, recorders) -> "Autodiff":
    """`Autodiff<inner, C>` for a runtime strategy: made once per pair, then shared."""
    key = (inner.variant, strategy)
    backend = _SPECIALIZATIONS.get(key)
    if backend is None:
        backend = _SPECIALIZATIONS[key] = new_autodiff_backend(inner, strategy, ops, recorders)
    return backend


def new_autodiff_backend(inner, strategy: GradientCheckpointingStrategy, ops, recorders):
    """A specialization of its own, not shared: over a stand-in for an inner backend (a
    recording one), whose kernels must not reach the shared specializations."""
    checkpointing = (
        BalancedCheckpointing()
        if strategy is GradientCheckpointingStrategy.Balanced
        else NoCheckpointing()
    )
    return Autodiff(inner, checkpointing, ops, recorders)


class Autodiff:
    def __init__(self, inner, strategy: CheckpointStrategy, ops, recorders):
        self.inner = inner
        self.variant = inner.variant
        self.strategy = strategy
        self.name = f"autodiff<{inner.name}>"
        for op in (*ops, MOVE_ACROSS):
            setattr(self, op.name, self._method(op, recorders))

    def __repr__(self):
        return f"Autodiff<{self.inner.variant}, {self.strategy}>"

    # -- AutodiffBackend ----------------------------------------------------------------------
    @staticmethod
    def from_inner(primitive) -> AutodiffTensor:
        return AutodiffTensor.new(primitive)

    @staticmethod
    def inner_primitive(tensor: AutodiffTensor):
        return tensor.primitive

    def backward(self, tensor: AutodiffTensor):
        return graph.backward(tensor, self.inner)

    # -- building the float ops ---------------------------------------------------------------
    def _method(self, op: AutodiffOp, recorders):
        forward = getattr(self.inner, op.name)
        if op.role == "leaf":
            return lambda *args: AutodiffTensor.new(forward(*args))
        positions = op.float_inputs
        if op.role in ("forward", "untracked"):

            def forward_only(*args):
                args = list(args)
                for i in positions:
                    if args[i] is not None:  # an optional input left out
                        args[i] = args[i].primitive
                return forward(*args)

            if op.role == "forward":
                return forward_only
            if op.outputs == 1:
                return lambda *args: AutodiffTensor.new(forward_only(*args))
            return lambda *args: tuple(map(AutodiffTensor.new, forward_only(*args)))
        names = tuple(op.args[i] for i in positions)
        rule = Rule(op.name, op.args, names, op.outputs > 1, kept=op.keeps)
        recorder = recorders[op.name]
        if recorder.saved != rule.saved:
            raise RuntimeError(
                f"the recorder of {op.name} in generated/recorders.py saves {recorder.saved} but "
                f"its rule needs {rule.saved}: generated/ is stale; run `python -m codegen`"
            )
        backward = (Backward if rule.joint is None else JointBackward)(
            rule, self.inner, forward, positions
        )
        return recorder.factory(forward, backward, self.inner, self.strategy.recomputes)
