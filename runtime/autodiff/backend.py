"""The Autodiff decorator: `Autodiff[inner backend, strategy]`, one specialization per pair.

Only float tensors change: their primitive becomes an AutodiffTensor. Int and bool tensors, the
device and every non-float op pass through to the inner backend. Each float op of the
catalogue is an attribute of the specialization, bound by name in the generated subclass
(generated/autodiff.py's `Autodiff.__init__`, one line per op) with the builders below: a
differentiable op's is its recorder (generated/recorders.py), bound to the inner backend's
forward and the op's shared Backward over `rule_for(op)`.
"""

from collections.abc import Callable
from typing import Any, cast

from burnpy.runtime.autodiff import graph
from burnpy.runtime.autodiff.checkpoint import (
    BalancedCheckpointing,
    CheckpointStrategy,
    NoCheckpointing,
)
from burnpy.runtime.autodiff.ops import AutodiffOp, F, rule_for
from burnpy.runtime.autodiff.steps import Backward, JointBackward
from burnpy.runtime.autodiff.tensor import AutodiffTensor
from burnpy.runtime.device import GradientCheckpointingStrategy

_SPECIALIZATIONS: dict = {}


def autodiff_backend(inner, strategy: GradientCheckpointingStrategy, autodiff: type):
    """`Autodiff<inner, C>` for a runtime strategy: made once per pair, then shared.
    `autodiff`: the generated specialization class."""
    key = (inner.variant, strategy)
    backend = _SPECIALIZATIONS.get(key)
    if backend is None:
        backend = _SPECIALIZATIONS[key] = new_autodiff_backend(inner, strategy, autodiff)
    return backend


def new_autodiff_backend(inner, strategy: GradientCheckpointingStrategy, autodiff: type):
    """A specialization of its own, not shared: over a stand-in for an inner backend (a
    recording one), whose kernels must not reach the shared specializations."""
    checkpointing = (
        BalancedCheckpointing()
        if strategy is GradientCheckpointingStrategy.Balanced
        else NoCheckpointing()
    )
    return autodiff(inner, checkpointing)


class AutodiffDecorator:
    """What every specialization has; the generated `Autodiff` adds one attribute per op."""

    def __init__(self, inner, strategy: CheckpointStrategy):
        self.inner = inner
        self.variant = inner.variant
        self.strategy = strategy
        self.name = f"autodiff<{inner.name}>"

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

    # -- the builders of the float ops' attributes ---------------------------------------------
    # Each returns a callable of the signature its op's description declares (`AutodiffOp[F]`,
    # generated/catalogue.py), so that a type checker sees `AD.float_mul` as that signature;
    # the cast states it, as nothing in the builder's own code can show it.

    def leaf(self, op: AutodiffOp[F]) -> F:
        """A creation or conversion: its float result is a new untracked leaf."""
        forward = getattr(self.inner, op.name)
        return cast(F, lambda *args: AutodiffTensor.new(forward(*args)))

    def forward_only(self, op: AutodiffOp[F]) -> F:
        """An op with no float result: the inner kernel on the inner primitives."""
        forward, positions = getattr(self.inner, op.name), op.positions

        def forward_only(*args):
            args = list(args)
            for i in positions:
                if args[i] is not None:  # an optional input left out
                    args[i] = args[i].primitive
            return forward(*args)

        return cast(F, forward_only)

    def untracked(self, op: AutodiffOp[F]) -> F:
        """Float results no gradient flows through (an optimiser's update): each a new leaf."""
        forward = self.forward_only(op)
        if op.outputs == 1:
            return cast(F, lambda *args: AutodiffTensor.new(forward(*args)))
        return cast(F, lambda *args: tuple(map(AutodiffTensor.new, forward(*args))))

    def recorded(self, op: AutodiffOp[F], factory: Callable[..., Any], saved: tuple[str, ...]) -> F:
        """A differentiable op: its generated recorder `factory`, which saves `saved` (the
        rule's order when it was generated: a rule changed since means generated/ is stale),
        bound to the inner forward and the op's shared Backward."""
        forward = getattr(self.inner, op.name)
        rule = rule_for(op)
        if saved != rule.saved:
            raise RuntimeError(
                f"the recorder of {op.name} in generated/recorders.py saves {saved} but its "
                f"rule needs {rule.saved}: generated/ is stale; run `python -m codegen`"
            )
        backward = (Backward if rule.joint is None else JointBackward)(
            rule, self.inner, forward, op.positions
        )
        return cast(F, factory(forward, backward, self.inner, self.strategy.recomputes))
