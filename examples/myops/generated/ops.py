# @generated from ops.yaml by `python -m codegen`; do not edit. render=2c9d3120c33c31c2 body=a9a0f8f726383d8b
"""The myops ops of the dispatch layer, one routing function per ops.yaml entry.

Each function is the routing burn's `#[backend_dispatch]` expands to: merge the inputs'
DispatchAutodiffContext; find the backend of the first tensor (`B`, looked up at call time, so
every backend takes the same path); under Disabled call the inner backend; under
Enabled(strategy) call the Autodiff specialization for that strategy (`AD`), a plain float input
entering as a constant; wrap the outputs with the merged context. `B`'s annotation, read only by
editors and type checkers, leads from `B.inner.<op>` to generated/inner.py and from `AD.<op>` to
generated/autodiff.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from myops.generated.backends import BACKENDS
from burnpy.generated.dispatch import float_mul_scalar
from burnpy.generated.tensor import Tensor
from burnpy.runtime.contracts import check_contract
from burnpy.runtime.device import AutodiffDevice, GradientCheckpointingStrategy
from burnpy.runtime.dispatch import (
    DISABLED,
    DispatchAutodiffContext,
    check_dtypes,
    context_of,
    merge_contexts,
    new_tensor,
)

if TYPE_CHECKING:
    import numpy as np

    from myops.generated.autodiff import Autodiff
    from myops.generated.backends import Inner
    from burnpy.runtime.device import DispatchDevice
    from burnpy.runtime.distribution import Distribution
    from burnpy.runtime.indexing import IndexingUpdateOp
    from burnpy.runtime.routing import DispatchBackend

    Backend = DispatchBackend[Inner, Autodiff]

BALANCED = GradientCheckpointingStrategy.Balanced

__all__ = [
    "logaddexp",
    "softplus",
    "linear_gelu",
]


def logaddexp(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise log(e^lhs + e^rhs), computed without overflow."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("logaddexp", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.logaddexp(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("logaddexp", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.logaddexp(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("logaddexp", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def softplus(x: Tensor) -> Tensor:
    """Element-wise log(1 + e^x), as logaddexp(x, 0)."""
    return logaddexp(x, float_mul_scalar(x, 0.0))


def linear_gelu(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    """GELU (tanh form) of x @ weight + bias, in one kernel; weight is [in, out]."""
    try:
        ctx = x.context.merge(weight.context).merge(bias.context)
        B: Backend = getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = bias.primitive if bias.kind is B.Float else bias.as_float(x)
            if x_.dtype is not weight_.dtype:
                check_dtypes("linear_gelu", B.inner, x_, weight_)
            if x_.dtype is not bias_.dtype:
                check_dtypes("linear_gelu", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.linear_gelu(x_, weight_, bias_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x)
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("linear_gelu", B.inner, x_.primitive, weight_.primitive)
        if x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("linear_gelu", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.linear_gelu(x_, weight_, bias_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("linear_gelu", None, error, x=x, weight=weight, bias=bias)
        raise
