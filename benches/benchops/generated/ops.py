# @generated from ops.yaml by `python -m codegen`; do not edit. render=d3efbef291d256dd body=4626a4627df251b6
"""The benches.benchops ops of the dispatch layer, one routing function per ops.yaml entry.

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

from benches.benchops.generated.backends import BACKENDS
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

    from benches.benchops.generated.autodiff import Autodiff
    from benches.benchops.generated.backends import Inner
    from burnpy.runtime.device import DispatchDevice
    from burnpy.runtime.distribution import Distribution
    from burnpy.runtime.indexing import IndexingUpdateOp
    from burnpy.runtime.routing import DispatchBackend

    Backend = DispatchBackend[Inner, Autodiff]

BALANCED = GradientCheckpointingStrategy.Balanced

__all__ = [
    "times",
]


def times(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs * rhs, as float_mul is."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("times", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.times(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("times", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.times(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("times", "broadcast", error, lhs=lhs, rhs=rhs)
        raise
