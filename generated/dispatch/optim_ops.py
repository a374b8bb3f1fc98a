# @generated from ops.yaml by `python -m codegen`; do not edit. render=9ad2160027afcb82 body=a60c733af98527e9
"""The optim ops of the dispatch layer, one routing function per ops.yaml entry.

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

from burnpy.generated.backends import BACKENDS
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

    from burnpy.generated.autodiff import Autodiff
    from burnpy.generated.backends import Inner
    from burnpy.runtime.device import DispatchDevice
    from burnpy.runtime.distribution import Distribution
    from burnpy.runtime.indexing import IndexingUpdateOp
    from burnpy.runtime.routing import DispatchBackend

    Backend = DispatchBackend[Inner, Autodiff]

BALANCED = GradientCheckpointingStrategy.Balanced

__all__ = [
    "adam_step",
    "clip_by_norm",
    "sgd_step",
    "rmsprop_step",
]


def adam_step(
    param: Tensor,
    grad: Tensor,
    moment_1: Tensor | None,
    moment_2: Tensor | None,
    max_moment_2: Tensor | None,
    lr: float,
    beta_1: float,
    beta_2: float,
    epsilon: float,
    weight_decay: float,
    bias_correction_1: float,
    bias_correction_2: float,
    decoupled: bool,
    cautious: bool,
    amsgrad: bool,
    in_place: bool,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """One step of burn's Adam (L2 weight decay) or AdamW (`decoupled`): (param, moment_1, moment_2, max_moment_2); moments left out are zeros; bias_correction_k is 1 - beta_k^t; `in_place` updates param and the moments in their buffers."""
    try:
        ctx = (
            param.context.merge(grad.context)
            .merge(DISABLED if moment_1 is None else moment_1.context)
            .merge(DISABLED if moment_2 is None else moment_2.context)
            .merge(DISABLED if max_moment_2 is None else max_moment_2.context)
        )
        B: Backend = param.kind.routing or getattr(BACKENDS, param.kind.variant)
        if ctx is DISABLED:
            param_ = param.primitive if param.kind is B.Float else param.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(param)
            moment_1_ = (
                None
                if moment_1 is None
                else (moment_1.primitive if moment_1.kind is B.Float else moment_1.as_float(param))
            )
            moment_2_ = (
                None
                if moment_2 is None
                else (moment_2.primitive if moment_2.kind is B.Float else moment_2.as_float(param))
            )
            max_moment_2_ = (
                None
                if max_moment_2 is None
                else (
                    max_moment_2.primitive
                    if max_moment_2.kind is B.Float
                    else max_moment_2.as_float(param)
                )
            )
            if param_.dtype is not grad_.dtype:
                check_dtypes("adam_step", B.inner, param_, grad_)
            if moment_1_ is not None and param_.dtype is not moment_1_.dtype:
                check_dtypes("adam_step", B.inner, param_, moment_1_)
            if moment_2_ is not None and param_.dtype is not moment_2_.dtype:
                check_dtypes("adam_step", B.inner, param_, moment_2_)
            if max_moment_2_ is not None and param_.dtype is not max_moment_2_.dtype:
                check_dtypes("adam_step", B.inner, param_, max_moment_2_)
            out0, out1, out2, out3 = B.inner.adam_step(
                param_,
                grad_,
                moment_1_,
                moment_2_,
                max_moment_2_,
                lr,
                beta_1,
                beta_2,
                epsilon,
                weight_decay,
                bias_correction_1,
                bias_correction_2,
                decoupled,
                cautious,
                amsgrad,
                in_place,
            )
            return (
                Tensor(B.Float, out0, ctx),
                Tensor(B.Float, out1, ctx),
                Tensor(B.Float, out2, ctx),
                Tensor(B.Float, out3, ctx),
            )
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        param_ = param.primitive if param.kind is B.Autodiff else param.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, param)
        moment_1_ = (
            None
            if moment_1 is None
            else (moment_1.primitive if moment_1.kind is B.Autodiff else moment_1.lift(AD, param))
        )
        moment_2_ = (
            None
            if moment_2 is None
            else (moment_2.primitive if moment_2.kind is B.Autodiff else moment_2.lift(AD, param))
        )
        max_moment_2_ = (
            None
            if max_moment_2 is None
            else (
                max_moment_2.primitive
                if max_moment_2.kind is B.Autodiff
                else max_moment_2.lift(AD, param)
            )
        )
        if param_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("adam_step", B.inner, param_.primitive, grad_.primitive)
        if moment_1_ is not None and param_.primitive.dtype is not moment_1_.primitive.dtype:
            check_dtypes("adam_step", B.inner, param_.primitive, moment_1_.primitive)
        if moment_2_ is not None and param_.primitive.dtype is not moment_2_.primitive.dtype:
            check_dtypes("adam_step", B.inner, param_.primitive, moment_2_.primitive)
        if (
            max_moment_2_ is not None
            and param_.primitive.dtype is not max_moment_2_.primitive.dtype
        ):
            check_dtypes("adam_step", B.inner, param_.primitive, max_moment_2_.primitive)
        out0, out1, out2, out3 = AD.adam_step(
            param_,
            grad_,
            moment_1_,
            moment_2_,
            max_moment_2_,
            lr,
            beta_1,
            beta_2,
            epsilon,
            weight_decay,
            bias_correction_1,
            bias_correction_2,
            decoupled,
            cautious,
            amsgrad,
            in_place,
        )
        return (
            Tensor(B.Autodiff, out0, ctx),
            Tensor(B.Autodiff, out1, ctx),
            Tensor(B.Autodiff, out2, ctx),
            Tensor(B.Autodiff, out3, ctx),
        )
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "adam_step",
            "same_shape",
            error,
            param=param,
            grad=grad,
            moment_1=moment_1,
            moment_2=moment_2,
            max_moment_2=max_moment_2,
            lr=lr,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
            weight_decay=weight_decay,
            bias_correction_1=bias_correction_1,
            bias_correction_2=bias_correction_2,
            decoupled=decoupled,
            cautious=cautious,
            amsgrad=amsgrad,
            in_place=in_place,
        )
        raise


def clip_by_norm(grad: Tensor, threshold: float) -> Tensor:
    """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest normal)): burn's per-parameter clipping, one pass when it clips."""
    try:
        ctx = grad.context
        B: Backend = grad.kind.routing or getattr(BACKENDS, grad.kind.variant)
        if ctx is DISABLED:
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.clip_by_norm(grad_, threshold),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.clip_by_norm(grad_, threshold), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("clip_by_norm", None, error, grad=grad, threshold=threshold)
        raise


def sgd_step(
    param: Tensor,
    grad: Tensor,
    velocity: Tensor | None,
    lr: float,
    momentum: float,
    dampening: float,
    weight_decay: float,
    nesterov: bool,
    in_place: bool,
) -> tuple[Tensor, Tensor]:
    """One step of burn's SGD: (param, velocity); g = grad + weight_decay param, the velocity g at first (velocity left out) and momentum velocity + (1 - dampening) g after; without momentum the velocity returned is g, not state; `in_place` updates param and velocity in their buffers."""
    try:
        ctx = param.context.merge(grad.context).merge(
            DISABLED if velocity is None else velocity.context
        )
        B: Backend = param.kind.routing or getattr(BACKENDS, param.kind.variant)
        if ctx is DISABLED:
            param_ = param.primitive if param.kind is B.Float else param.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(param)
            velocity_ = (
                None
                if velocity is None
                else (velocity.primitive if velocity.kind is B.Float else velocity.as_float(param))
            )
            if param_.dtype is not grad_.dtype:
                check_dtypes("sgd_step", B.inner, param_, grad_)
            if velocity_ is not None and param_.dtype is not velocity_.dtype:
                check_dtypes("sgd_step", B.inner, param_, velocity_)
            out0, out1 = B.inner.sgd_step(
                param_, grad_, velocity_, lr, momentum, dampening, weight_decay, nesterov, in_place
            )
            return (Tensor(B.Float, out0, ctx), Tensor(B.Float, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        param_ = param.primitive if param.kind is B.Autodiff else param.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, param)
        velocity_ = (
            None
            if velocity is None
            else (velocity.primitive if velocity.kind is B.Autodiff else velocity.lift(AD, param))
        )
        if param_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("sgd_step", B.inner, param_.primitive, grad_.primitive)
        if velocity_ is not None and param_.primitive.dtype is not velocity_.primitive.dtype:
            check_dtypes("sgd_step", B.inner, param_.primitive, velocity_.primitive)
        out0, out1 = AD.sgd_step(
            param_, grad_, velocity_, lr, momentum, dampening, weight_decay, nesterov, in_place
        )
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Autodiff, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "sgd_step",
            "same_shape",
            error,
            param=param,
            grad=grad,
            velocity=velocity,
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            in_place=in_place,
        )
        raise


def rmsprop_step(
    param: Tensor,
    grad: Tensor,
    square_avg: Tensor | None,
    grad_avg: Tensor | None,
    buffer: Tensor | None,
    lr: float,
    alpha: float,
    epsilon: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
    in_place: bool,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """One step of burn's RMSProp: (param, square_avg, grad_avg, buffer), averages left out are zeros; grad_avg is state only when `centered`, buffer only with momentum > 0; `in_place` updates param and the averages in their buffers."""
    try:
        ctx = (
            param.context.merge(grad.context)
            .merge(DISABLED if square_avg is None else square_avg.context)
            .merge(DISABLED if grad_avg is None else grad_avg.context)
            .merge(DISABLED if buffer is None else buffer.context)
        )
        B: Backend = param.kind.routing or getattr(BACKENDS, param.kind.variant)
        if ctx is DISABLED:
            param_ = param.primitive if param.kind is B.Float else param.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(param)
            square_avg_ = (
                None
                if square_avg is None
                else (
                    square_avg.primitive
                    if square_avg.kind is B.Float
                    else square_avg.as_float(param)
                )
            )
            grad_avg_ = (
                None
                if grad_avg is None
                else (grad_avg.primitive if grad_avg.kind is B.Float else grad_avg.as_float(param))
            )
            buffer_ = (
                None
                if buffer is None
                else (buffer.primitive if buffer.kind is B.Float else buffer.as_float(param))
            )
            if param_.dtype is not grad_.dtype:
                check_dtypes("rmsprop_step", B.inner, param_, grad_)
            if square_avg_ is not None and param_.dtype is not square_avg_.dtype:
                check_dtypes("rmsprop_step", B.inner, param_, square_avg_)
            if grad_avg_ is not None and param_.dtype is not grad_avg_.dtype:
                check_dtypes("rmsprop_step", B.inner, param_, grad_avg_)
            if buffer_ is not None and param_.dtype is not buffer_.dtype:
                check_dtypes("rmsprop_step", B.inner, param_, buffer_)
            out0, out1, out2, out3 = B.inner.rmsprop_step(
                param_,
                grad_,
                square_avg_,
                grad_avg_,
                buffer_,
                lr,
                alpha,
                epsilon,
                weight_decay,
                momentum,
                centered,
                in_place,
            )
            return (
                Tensor(B.Float, out0, ctx),
                Tensor(B.Float, out1, ctx),
                Tensor(B.Float, out2, ctx),
                Tensor(B.Float, out3, ctx),
            )
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        param_ = param.primitive if param.kind is B.Autodiff else param.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, param)
        square_avg_ = (
            None
            if square_avg is None
            else (
                square_avg.primitive
                if square_avg.kind is B.Autodiff
                else square_avg.lift(AD, param)
            )
        )
        grad_avg_ = (
            None
            if grad_avg is None
            else (grad_avg.primitive if grad_avg.kind is B.Autodiff else grad_avg.lift(AD, param))
        )
        buffer_ = (
            None
            if buffer is None
            else (buffer.primitive if buffer.kind is B.Autodiff else buffer.lift(AD, param))
        )
        if param_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("rmsprop_step", B.inner, param_.primitive, grad_.primitive)
        if square_avg_ is not None and param_.primitive.dtype is not square_avg_.primitive.dtype:
            check_dtypes("rmsprop_step", B.inner, param_.primitive, square_avg_.primitive)
        if grad_avg_ is not None and param_.primitive.dtype is not grad_avg_.primitive.dtype:
            check_dtypes("rmsprop_step", B.inner, param_.primitive, grad_avg_.primitive)
        if buffer_ is not None and param_.primitive.dtype is not buffer_.primitive.dtype:
            check_dtypes("rmsprop_step", B.inner, param_.primitive, buffer_.primitive)
        out0, out1, out2, out3 = AD.rmsprop_step(
            param_,
            grad_,
            square_avg_,
            grad_avg_,
            buffer_,
            lr,
            alpha,
            epsilon,
            weight_decay,
            momentum,
            centered,
            in_place,
        )
        return (
            Tensor(B.Autodiff, out0, ctx),
            Tensor(B.Autodiff, out1, ctx),
            Tensor(B.Autodiff, out2, ctx),
            Tensor(B.Autodiff, out3, ctx),
        )
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "rmsprop_step",
            "same_shape",
            error,
            param=param,
            grad=grad,
            square_avg=square_avg,
            grad_avg=grad_avg,
            buffer=buffer,
            lr=lr,
            alpha=alpha,
            epsilon=epsilon,
            weight_decay=weight_decay,
            momentum=momentum,
            centered=centered,
            in_place=in_place,
        )
        raise
