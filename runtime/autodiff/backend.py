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
from runtime.autodiff.ops import MOVE_ACROSS, AutodiffOp, AutodiffRole, rule_for
from runtime.autodiff.steps import Backward, JointBackward
from runtime.autodiff.tensor import AutodiffTensor
from runtime.device import GradientCheckpointingStrategy


@dataclass(frozen=True)
class Recorders:
    """An op's generated recorder factory, and the order of the values its steps save (the
    rule's, when it was generated: a rule changed since means generated/ is stale)."""

    factory: object  # (forward, backward, inner, balanced) -> the recorder
    saved: tuple[str, ...]


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
        if op.role is AutodiffRole.LEAF:
            return lambda *args: AutodiffTensor.new(forward(*args))
        positions = op.positions
        if op.role is not AutodiffRole.RECORD:

            def forward_only(*args):
                args = list(args)
                for i in positions:
                    if args[i] is not None:  # an optional input left out
                        args[i] = args[i].primitive
                return forward(*args)

            if op.role is AutodiffRole.FORWARD:
                return forward_only
            if op.outputs == 1:
                return lambda *args: AutodiffTensor.new(forward_only(*args))
            return lambda *args: tuple(map(AutodiffTensor.new, forward_only(*args)))
        rule = rule_for(op)
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
