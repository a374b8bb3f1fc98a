# @generated from ops.yaml by `python -m codegen`; do not edit. render=5abfebdc23deb7a6 body=b5c32181a2eeee2c
"""The module ops of the dispatch layer, one routing function per ops.yaml entry.

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
    "embedding",
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "unfold4d",
    "fold4d",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool2d_with_indices",
    "avg_pool1d",
    "avg_pool2d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "interpolate",
    "attention",
    "batch_norm",
    "batch_norm_training",
    "layer_norm",
    "rms_norm",
    "ctc_loss",
    "cross_entropy_class_targets",
    "rfft",
    "irfft",
    "fft",
    "deform_conv2d",
]


def embedding(weights: Tensor, indices: Tensor) -> Tensor:
    """The rows of weights [n, d] that indices [b, s] select: [b, s, d]."""
    try:
        ctx = (
            weights.context
            if indices.context is weights.context
            else weights.context.merge(indices.context)
        )
        B: Backend = weights.kind.routing or getattr(BACKENDS, weights.kind.variant)
        if ctx is DISABLED:
            weights_ = weights.primitive if weights.kind is B.Float else weights.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(weights)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.embedding(weights_, indices_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        weights_ = weights.primitive if weights.kind is B.Autodiff else weights.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(weights)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.embedding(weights_, indices_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("embedding", None, error, weights=weights, indices=indices)
        raise


def linear(input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    """input [..., d_in] @ weight [d_in, d_out] (+ bias [d_out]): burn's layout, not torch's transposed one."""
    try:
        ctx = input.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = input.kind.routing or getattr(BACKENDS, input.kind.variant)
        if ctx is DISABLED:
            input_ = input.primitive if input.kind is B.Float else input.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(input)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(input))
            )
            if input_.dtype is not weight_.dtype:
                check_dtypes("linear", B.inner, input_, weight_)
            if bias_ is not None and input_.dtype is not bias_.dtype:
                check_dtypes("linear", B.inner, input_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.linear(input_, weight_, bias_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        input_ = input.primitive if input.kind is B.Autodiff else input.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, input)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, input))
        )
        if input_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("linear", B.inner, input_.primitive, weight_.primitive)
        if bias_ is not None and input_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("linear", B.inner, input_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.linear(input_, weight_, bias_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("linear", "linear", error, input=input, weight=weight, bias=bias)
        raise


def conv1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int],
    padding: tuple[int],
    dilation: tuple[int],
    groups: int,
    padding_end: tuple[int] | None,
) -> Tensor:
    """A 1-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv1d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv1d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv1d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv1d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv1d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv1d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv1d",
            "spatial1d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            padding_end=padding_end,
        )
        raise


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
    groups: int,
    padding_end: tuple[int, int] | None,
) -> Tensor:
    """A 2-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv2d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv2d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv2d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv2d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv2d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv2d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv2d",
            "spatial2d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            padding_end=padding_end,
        )
        raise


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int, int, int],
    padding: tuple[int, int, int],
    dilation: tuple[int, int, int],
    groups: int,
    padding_end: tuple[int, int, int] | None,
) -> Tensor:
    """A 3-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv3d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv3d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv3d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv3d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv3d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv3d(x_, weight_, bias_, stride, padding, dilation, groups, padding_end),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv3d",
            "spatial3d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            dilation=dilation,
            groups=groups,
            padding_end=padding_end,
        )
        raise


def conv_transpose1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int],
    padding: tuple[int],
    padding_out: tuple[int],
    dilation: tuple[int],
    groups: int,
) -> Tensor:
    """A 1-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv_transpose1d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv_transpose1d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv_transpose1d(
                    x_, weight_, bias_, stride, padding, padding_out, dilation, groups
                ),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv_transpose1d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv_transpose1d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv_transpose1d(x_, weight_, bias_, stride, padding, padding_out, dilation, groups),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv_transpose1d",
            "spatial1d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            padding_out=padding_out,
            dilation=dilation,
            groups=groups,
        )
        raise


def conv_transpose2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int, int],
    padding: tuple[int, int],
    padding_out: tuple[int, int],
    dilation: tuple[int, int],
    groups: int,
) -> Tensor:
    """A 2-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv_transpose2d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv_transpose2d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv_transpose2d(
                    x_, weight_, bias_, stride, padding, padding_out, dilation, groups
                ),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv_transpose2d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv_transpose2d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv_transpose2d(x_, weight_, bias_, stride, padding, padding_out, dilation, groups),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv_transpose2d",
            "spatial2d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            padding_out=padding_out,
            dilation=dilation,
            groups=groups,
        )
        raise


def conv_transpose3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: tuple[int, int, int],
    padding: tuple[int, int, int],
    padding_out: tuple[int, int, int],
    dilation: tuple[int, int, int],
    groups: int,
) -> Tensor:
    """A 3-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    try:
        ctx = x.context.merge(weight.context).merge(DISABLED if bias is None else bias.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not weight_.dtype:
                check_dtypes("conv_transpose3d", B.inner, x_, weight_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("conv_transpose3d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.conv_transpose3d(
                    x_, weight_, bias_, stride, padding, padding_out, dilation, groups
                ),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("conv_transpose3d", B.inner, x_.primitive, weight_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("conv_transpose3d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.conv_transpose3d(x_, weight_, bias_, stride, padding, padding_out, dilation, groups),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "conv_transpose3d",
            "spatial3d",
            error,
            x=x,
            weight=weight,
            bias=bias,
            stride=stride,
            padding=padding,
            padding_out=padding_out,
            dilation=dilation,
            groups=groups,
        )
        raise


def unfold4d(
    x: Tensor,
    kernel_size: tuple[int, int],
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
) -> Tensor:
    """The sliding blocks of x [b, c, h, w] as columns: [b, c * kh * kw, blocks]."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.unfold4d(x_, kernel_size, stride, padding, dilation),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.unfold4d(x_, kernel_size, stride, padding, dilation),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "unfold4d",
            "spatial2d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
        )
        raise


def fold4d(
    x: Tensor,
    output_size: tuple[int, int],
    kernel_size: tuple[int, int],
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
) -> Tensor:
    """The inverse of unfold4d: columns [b, c * kh * kw, blocks] summed back into [b, c, h, w]."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.fold4d(x_, output_size, kernel_size, stride, padding, dilation),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.fold4d(x_, output_size, kernel_size, stride, padding, dilation),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "fold4d",
            "fold",
            error,
            x=x,
            output_size=output_size,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
        )
        raise


def max_pool1d(
    x: Tensor,
    kernel_size: tuple[int],
    stride: tuple[int] | None,
    padding: tuple[int],
    dilation: tuple[int],
    ceil_mode: bool,
) -> Tensor:
    """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.max_pool1d(x_, kernel_size, stride, padding, dilation, ceil_mode),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.max_pool1d(x_, kernel_size, stride, padding, dilation, ceil_mode),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "max_pool1d",
            "spatial1d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
            ceil_mode=ceil_mode,
        )
        raise


def max_pool1d_with_indices(
    x: Tensor,
    kernel_size: tuple[int],
    stride: tuple[int] | None,
    padding: tuple[int],
    dilation: tuple[int],
    ceil_mode: bool,
) -> tuple[Tensor, Tensor]:
    """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out0, out1 = B.inner.max_pool1d_with_indices(
                x_, kernel_size, stride, padding, dilation, ceil_mode
            )
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out0, out1 = AD.max_pool1d_with_indices(
            x_, kernel_size, stride, padding, dilation, ceil_mode
        )
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "max_pool1d_with_indices",
            "spatial1d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
            ceil_mode=ceil_mode,
        )
        raise


def max_pool2d(
    x: Tensor,
    kernel_size: tuple[int, int],
    stride: tuple[int, int] | None,
    padding: tuple[int, int],
    dilation: tuple[int, int],
    ceil_mode: bool,
) -> Tensor:
    """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.max_pool2d(x_, kernel_size, stride, padding, dilation, ceil_mode),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.max_pool2d(x_, kernel_size, stride, padding, dilation, ceil_mode),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "max_pool2d",
            "spatial2d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
            ceil_mode=ceil_mode,
        )
        raise


def max_pool2d_with_indices(
    x: Tensor,
    kernel_size: tuple[int, int],
    stride: tuple[int, int] | None,
    padding: tuple[int, int],
    dilation: tuple[int, int],
    ceil_mode: bool,
) -> tuple[Tensor, Tensor]:
    """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out0, out1 = B.inner.max_pool2d_with_indices(
                x_, kernel_size, stride, padding, dilation, ceil_mode
            )
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out0, out1 = AD.max_pool2d_with_indices(
            x_, kernel_size, stride, padding, dilation, ceil_mode
        )
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "max_pool2d_with_indices",
            "spatial2d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            dilation=dilation,
            ceil_mode=ceil_mode,
        )
        raise


def avg_pool1d(
    x: Tensor,
    kernel_size: tuple[int],
    stride: tuple[int] | None,
    padding: tuple[int],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor:
    """The mean of each 1-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.avg_pool1d(x_, kernel_size, stride, padding, count_include_pad, ceil_mode),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.avg_pool1d(x_, kernel_size, stride, padding, count_include_pad, ceil_mode),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "avg_pool1d",
            "spatial1d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            count_include_pad=count_include_pad,
            ceil_mode=ceil_mode,
        )
        raise


def avg_pool2d(
    x: Tensor,
    kernel_size: tuple[int, int],
    stride: tuple[int, int] | None,
    padding: tuple[int, int],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor:
    """The mean of each 2-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.avg_pool2d(x_, kernel_size, stride, padding, count_include_pad, ceil_mode),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.avg_pool2d(x_, kernel_size, stride, padding, count_include_pad, ceil_mode),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "avg_pool2d",
            "spatial2d",
            error,
            x=x,
            kernel_size=kernel_size,
            stride=stride,
            padding=padding,
            count_include_pad=count_include_pad,
            ceil_mode=ceil_mode,
        )
        raise


def adaptive_avg_pool1d(x: Tensor, output_size: tuple[int]) -> Tensor:
    """The mean of each of output_size 1-d windows spanning x (burn's start/end index formulas)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.adaptive_avg_pool1d(x_, output_size),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.adaptive_avg_pool1d(x_, output_size),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("adaptive_avg_pool1d", "spatial1d", error, x=x, output_size=output_size)
        raise


def adaptive_avg_pool2d(x: Tensor, output_size: tuple[int, int]) -> Tensor:
    """The mean of each of output_size 2-d windows spanning x (burn's start/end index formulas)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.adaptive_avg_pool2d(x_, output_size),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.adaptive_avg_pool2d(x_, output_size),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("adaptive_avg_pool2d", "spatial2d", error, x=x, output_size=output_size)
        raise


def adaptive_avg_pool3d(x: Tensor, output_size: tuple[int, int, int]) -> Tensor:
    """The mean of each of output_size 3-d windows spanning x (burn's start/end index formulas)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.adaptive_avg_pool3d(x_, output_size),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.adaptive_avg_pool3d(x_, output_size),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("adaptive_avg_pool3d", "spatial3d", error, x=x, output_size=output_size)
        raise


def interpolate(x: Tensor, output_size: tuple[int, int], mode: str, align_corners: bool) -> Tensor:
    """Resizes [b, c, h, w] to output_size (h', w') by the mode's kernel (burn's InterpolateOptions)."""
    try:
        ctx = x.context
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.interpolate(x_, output_size, mode, align_corners),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.interpolate(x_, output_size, mode, align_corners),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "interpolate",
            "spatial2d",
            error,
            x=x,
            output_size=output_size,
            mode=mode,
            align_corners=align_corners,
        )
        raise


def attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None,
    attn_bias: Tensor | None,
    scale: float | None,
    softcap: float | None,
    is_causal: bool,
) -> Tensor:
    """Scaled dot-product attention: softmax(q k^T * scale (softcapped, biased, masked)) v; a fully masked row gives 0."""
    try:
        ctx = (
            query.context.merge(key.context)
            .merge(value.context)
            .merge(DISABLED if mask is None else mask.context)
            .merge(DISABLED if attn_bias is None else attn_bias.context)
        )
        B: Backend = query.kind.routing or getattr(BACKENDS, query.kind.variant)
        if ctx is DISABLED:
            query_ = query.primitive if query.kind is B.Float else query.as_float()
            key_ = key.primitive if key.kind is B.Float else key.as_float(query)
            value_ = value.primitive if value.kind is B.Float else value.as_float(query)
            mask_ = (
                None
                if mask is None
                else (mask.primitive if mask.kind is B.Bool else mask.as_bool(query))
            )
            attn_bias_ = (
                None
                if attn_bias is None
                else (
                    attn_bias.primitive if attn_bias.kind is B.Float else attn_bias.as_float(query)
                )
            )
            if query_.dtype is not key_.dtype:
                check_dtypes("attention", B.inner, query_, key_)
            if query_.dtype is not value_.dtype:
                check_dtypes("attention", B.inner, query_, value_)
            if attn_bias_ is not None and query_.dtype is not attn_bias_.dtype:
                check_dtypes("attention", B.inner, query_, attn_bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.attention(
                    query_, key_, value_, mask_, attn_bias_, scale, softcap, is_causal
                ),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        query_ = query.primitive if query.kind is B.Autodiff else query.lift(AD)
        key_ = key.primitive if key.kind is B.Autodiff else key.lift(AD, query)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, query)
        mask_ = (
            None
            if mask is None
            else (mask.primitive if mask.kind is B.Bool else mask.as_bool(query))
        )
        attn_bias_ = (
            None
            if attn_bias is None
            else (
                attn_bias.primitive if attn_bias.kind is B.Autodiff else attn_bias.lift(AD, query)
            )
        )
        if query_.primitive.dtype is not key_.primitive.dtype:
            check_dtypes("attention", B.inner, query_.primitive, key_.primitive)
        if query_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("attention", B.inner, query_.primitive, value_.primitive)
        if attn_bias_ is not None and query_.primitive.dtype is not attn_bias_.primitive.dtype:
            check_dtypes("attention", B.inner, query_.primitive, attn_bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.attention(query_, key_, value_, mask_, attn_bias_, scale, softcap, is_causal),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "attention",
            "attention",
            error,
            query=query,
            key=key,
            value=value,
            mask=mask,
            attn_bias=attn_bias,
            scale=scale,
            softcap=softcap,
            is_causal=is_causal,
        )
        raise


def batch_norm(
    input: Tensor, gamma: Tensor, beta: Tensor, mean: Tensor, variance: Tensor, epsilon: float
) -> Tensor:
    """Normalises each channel (dim 1) with the given statistics, then scales by gamma and shifts by beta."""
    try:
        ctx = (
            input.context.merge(gamma.context)
            .merge(beta.context)
            .merge(mean.context)
            .merge(variance.context)
        )
        B: Backend = input.kind.routing or getattr(BACKENDS, input.kind.variant)
        if ctx is DISABLED:
            input_ = input.primitive if input.kind is B.Float else input.as_float()
            gamma_ = gamma.primitive if gamma.kind is B.Float else gamma.as_float(input)
            beta_ = beta.primitive if beta.kind is B.Float else beta.as_float(input)
            mean_ = mean.primitive if mean.kind is B.Float else mean.as_float(input)
            variance_ = variance.primitive if variance.kind is B.Float else variance.as_float(input)
            if input_.dtype is not gamma_.dtype:
                check_dtypes("batch_norm", B.inner, input_, gamma_)
            if input_.dtype is not beta_.dtype:
                check_dtypes("batch_norm", B.inner, input_, beta_)
            if input_.dtype is not mean_.dtype:
                check_dtypes("batch_norm", B.inner, input_, mean_)
            if input_.dtype is not variance_.dtype:
                check_dtypes("batch_norm", B.inner, input_, variance_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.batch_norm(input_, gamma_, beta_, mean_, variance_, epsilon),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        input_ = input.primitive if input.kind is B.Autodiff else input.lift(AD)
        gamma_ = gamma.primitive if gamma.kind is B.Autodiff else gamma.lift(AD, input)
        beta_ = beta.primitive if beta.kind is B.Autodiff else beta.lift(AD, input)
        mean_ = mean.primitive if mean.kind is B.Autodiff else mean.lift(AD, input)
        variance_ = variance.primitive if variance.kind is B.Autodiff else variance.lift(AD, input)
        if input_.primitive.dtype is not gamma_.primitive.dtype:
            check_dtypes("batch_norm", B.inner, input_.primitive, gamma_.primitive)
        if input_.primitive.dtype is not beta_.primitive.dtype:
            check_dtypes("batch_norm", B.inner, input_.primitive, beta_.primitive)
        if input_.primitive.dtype is not mean_.primitive.dtype:
            check_dtypes("batch_norm", B.inner, input_.primitive, mean_.primitive)
        if input_.primitive.dtype is not variance_.primitive.dtype:
            check_dtypes("batch_norm", B.inner, input_.primitive, variance_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.batch_norm(input_, gamma_, beta_, mean_, variance_, epsilon),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "batch_norm",
            "per_channel",
            error,
            input=input,
            gamma=gamma,
            beta=beta,
            mean=mean,
            variance=variance,
            epsilon=epsilon,
        )
        raise


def batch_norm_training(
    input: Tensor, gamma: Tensor, beta: Tensor, epsilon: float
) -> tuple[Tensor, Tensor, Tensor]:
    """Batch norm with the batch's own statistics (training): (output, mean, variance), each channel (dim 1) normalised by its mean and biased variance over every other dim, then scaled by gamma and shifted by beta; one pass per statistic, and a backward of three."""
    try:
        ctx = input.context.merge(gamma.context).merge(beta.context)
        B: Backend = input.kind.routing or getattr(BACKENDS, input.kind.variant)
        if ctx is DISABLED:
            input_ = input.primitive if input.kind is B.Float else input.as_float()
            gamma_ = gamma.primitive if gamma.kind is B.Float else gamma.as_float(input)
            beta_ = beta.primitive if beta.kind is B.Float else beta.as_float(input)
            if input_.dtype is not gamma_.dtype:
                check_dtypes("batch_norm_training", B.inner, input_, gamma_)
            if input_.dtype is not beta_.dtype:
                check_dtypes("batch_norm_training", B.inner, input_, beta_)
            out0, out1, out2 = B.inner.batch_norm_training(input_, gamma_, beta_, epsilon)
            return (
                Tensor(B.Float, out0, ctx),
                Tensor(B.Float, out1, ctx),
                Tensor(B.Float, out2, ctx),
            )
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        input_ = input.primitive if input.kind is B.Autodiff else input.lift(AD)
        gamma_ = gamma.primitive if gamma.kind is B.Autodiff else gamma.lift(AD, input)
        beta_ = beta.primitive if beta.kind is B.Autodiff else beta.lift(AD, input)
        if input_.primitive.dtype is not gamma_.primitive.dtype:
            check_dtypes("batch_norm_training", B.inner, input_.primitive, gamma_.primitive)
        if input_.primitive.dtype is not beta_.primitive.dtype:
            check_dtypes("batch_norm_training", B.inner, input_.primitive, beta_.primitive)
        out0, out1, out2 = AD.batch_norm_training(input_, gamma_, beta_, epsilon)
        return (
            Tensor(B.Autodiff, out0, ctx),
            Tensor(B.Autodiff, out1, ctx),
            Tensor(B.Autodiff, out2, ctx),
        )
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "batch_norm_training",
            "per_channel",
            error,
            input=input,
            gamma=gamma,
            beta=beta,
            epsilon=epsilon,
        )
        raise


def layer_norm(input: Tensor, gamma: Tensor, beta: Tensor | None, epsilon: float) -> Tensor:
    """Normalises over the last dim (biased variance), then scales by gamma and shifts by beta."""
    try:
        ctx = input.context.merge(gamma.context).merge(DISABLED if beta is None else beta.context)
        B: Backend = input.kind.routing or getattr(BACKENDS, input.kind.variant)
        if ctx is DISABLED:
            input_ = input.primitive if input.kind is B.Float else input.as_float()
            gamma_ = gamma.primitive if gamma.kind is B.Float else gamma.as_float(input)
            beta_ = (
                None
                if beta is None
                else (beta.primitive if beta.kind is B.Float else beta.as_float(input))
            )
            if input_.dtype is not gamma_.dtype:
                check_dtypes("layer_norm", B.inner, input_, gamma_)
            if beta_ is not None and input_.dtype is not beta_.dtype:
                check_dtypes("layer_norm", B.inner, input_, beta_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.layer_norm(input_, gamma_, beta_, epsilon),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        input_ = input.primitive if input.kind is B.Autodiff else input.lift(AD)
        gamma_ = gamma.primitive if gamma.kind is B.Autodiff else gamma.lift(AD, input)
        beta_ = (
            None
            if beta is None
            else (beta.primitive if beta.kind is B.Autodiff else beta.lift(AD, input))
        )
        if input_.primitive.dtype is not gamma_.primitive.dtype:
            check_dtypes("layer_norm", B.inner, input_.primitive, gamma_.primitive)
        if beta_ is not None and input_.primitive.dtype is not beta_.primitive.dtype:
            check_dtypes("layer_norm", B.inner, input_.primitive, beta_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.layer_norm(input_, gamma_, beta_, epsilon),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "layer_norm", "last_dim", error, input=input, gamma=gamma, beta=beta, epsilon=epsilon
        )
        raise


def rms_norm(input: Tensor, gamma: Tensor, epsilon: float) -> Tensor:
    """Root-mean-square norm over the last dim: input / sqrt(mean(input²) + epsilon), scaled by gamma (burn's RmsNorm)."""
    try:
        ctx = (
            input.context if gamma.context is input.context else input.context.merge(gamma.context)
        )
        B: Backend = input.kind.routing or getattr(BACKENDS, input.kind.variant)
        if ctx is DISABLED:
            input_ = input.primitive if input.kind is B.Float else input.as_float()
            gamma_ = gamma.primitive if gamma.kind is B.Float else gamma.as_float(input)
            if input_.dtype is not gamma_.dtype:
                check_dtypes("rms_norm", B.inner, input_, gamma_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.rms_norm(input_, gamma_, epsilon),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        input_ = input.primitive if input.kind is B.Autodiff else input.lift(AD)
        gamma_ = gamma.primitive if gamma.kind is B.Autodiff else gamma.lift(AD, input)
        if input_.primitive.dtype is not gamma_.primitive.dtype:
            check_dtypes("rms_norm", B.inner, input_.primitive, gamma_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.rms_norm(input_, gamma_, epsilon), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("rms_norm", "last_dim", error, input=input, gamma=gamma, epsilon=epsilon)
        raise


def ctc_loss(
    log_probs: Tensor, targets: Tensor, input_lengths: Tensor, target_lengths: Tensor, blank: int
) -> Tensor:
    """The CTC loss of each sample [N] from log-probabilities [T, N, C]; an unreachable target costs +inf (gradient 0)."""
    try:
        ctx = (
            log_probs.context.merge(targets.context)
            .merge(input_lengths.context)
            .merge(target_lengths.context)
        )
        B: Backend = log_probs.kind.routing or getattr(BACKENDS, log_probs.kind.variant)
        if ctx is DISABLED:
            log_probs_ = log_probs.primitive if log_probs.kind is B.Float else log_probs.as_float()
            targets_ = targets.primitive if targets.kind is B.Int else targets.as_int(log_probs)
            input_lengths_ = (
                input_lengths.primitive
                if input_lengths.kind is B.Int
                else input_lengths.as_int(log_probs)
            )
            target_lengths_ = (
                target_lengths.primitive
                if target_lengths.kind is B.Int
                else target_lengths.as_int(log_probs)
            )
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.ctc_loss(log_probs_, targets_, input_lengths_, target_lengths_, blank),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        log_probs_ = log_probs.primitive if log_probs.kind is B.Autodiff else log_probs.lift(AD)
        targets_ = targets.primitive if targets.kind is B.Int else targets.as_int(log_probs)
        input_lengths_ = (
            input_lengths.primitive
            if input_lengths.kind is B.Int
            else input_lengths.as_int(log_probs)
        )
        target_lengths_ = (
            target_lengths.primitive
            if target_lengths.kind is B.Int
            else target_lengths.as_int(log_probs)
        )
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.ctc_loss(log_probs_, targets_, input_lengths_, target_lengths_, blank),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "ctc_loss",
            "ctc",
            error,
            log_probs=log_probs,
            targets=targets,
            input_lengths=input_lengths,
            target_lengths=target_lengths,
            blank=blank,
        )
        raise


def cross_entropy_class_targets(logits: Tensor, targets: Tensor) -> Tensor:
    """The mean over the batch of -log_softmax(logits)[i, targets[i]], a [1] tensor, from logits [batch, classes] and class indices [batch]; its gradient is (softmax - one-hot) / batch."""
    try:
        ctx = (
            logits.context
            if targets.context is logits.context
            else logits.context.merge(targets.context)
        )
        B: Backend = logits.kind.routing or getattr(BACKENDS, logits.kind.variant)
        if ctx is DISABLED:
            logits_ = logits.primitive if logits.kind is B.Float else logits.as_float()
            targets_ = targets.primitive if targets.kind is B.Int else targets.as_int(logits)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.cross_entropy_class_targets(logits_, targets_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        logits_ = logits.primitive if logits.kind is B.Autodiff else logits.lift(AD)
        targets_ = targets.primitive if targets.kind is B.Int else targets.as_int(logits)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.cross_entropy_class_targets(logits_, targets_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "cross_entropy_class_targets", "class_targets", error, logits=logits, targets=targets
        )
        raise


def rfft(signal: Tensor, dim: int, n: int | None) -> tuple[Tensor, Tensor]:
    """The real FFT along dim (length, or n, a power of two) as (real part, imaginary part)."""
    try:
        ctx = signal.context
        B: Backend = signal.kind.routing or getattr(BACKENDS, signal.kind.variant)
        if ctx is DISABLED:
            signal_ = signal.primitive if signal.kind is B.Float else signal.as_float()
            out0, out1 = B.inner.rfft(signal_, dim, n)
            return (Tensor(B.Float, out0, ctx), Tensor(B.Float, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        signal_ = signal.primitive if signal.kind is B.Autodiff else signal.lift(AD)
        out0, out1 = AD.rfft(signal_, dim, n)
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Autodiff, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("rfft", None, error, signal=signal, dim=dim, n=n)
        raise


def irfft(spectrum_re: Tensor, spectrum_im: Tensor, dim: int, n: int | None) -> Tensor:
    """The inverse of rfft along dim, a real signal of length n (default 2 * (bins - 1))."""
    try:
        ctx = (
            spectrum_re.context
            if spectrum_im.context is spectrum_re.context
            else spectrum_re.context.merge(spectrum_im.context)
        )
        B: Backend = spectrum_re.kind.routing or getattr(BACKENDS, spectrum_re.kind.variant)
        if ctx is DISABLED:
            spectrum_re_ = (
                spectrum_re.primitive if spectrum_re.kind is B.Float else spectrum_re.as_float()
            )
            spectrum_im_ = (
                spectrum_im.primitive
                if spectrum_im.kind is B.Float
                else spectrum_im.as_float(spectrum_re)
            )
            if spectrum_re_.dtype is not spectrum_im_.dtype:
                check_dtypes("irfft", B.inner, spectrum_re_, spectrum_im_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.irfft(spectrum_re_, spectrum_im_, dim, n),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        spectrum_re_ = (
            spectrum_re.primitive if spectrum_re.kind is B.Autodiff else spectrum_re.lift(AD)
        )
        spectrum_im_ = (
            spectrum_im.primitive
            if spectrum_im.kind is B.Autodiff
            else spectrum_im.lift(AD, spectrum_re)
        )
        if spectrum_re_.primitive.dtype is not spectrum_im_.primitive.dtype:
            check_dtypes("irfft", B.inner, spectrum_re_.primitive, spectrum_im_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.irfft(spectrum_re_, spectrum_im_, dim, n),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "irfft",
            "same_shape",
            error,
            spectrum_re=spectrum_re,
            spectrum_im=spectrum_im,
            dim=dim,
            n=n,
        )
        raise


def fft(signal: Tensor, dim: int, inverse: bool) -> Tensor:
    """The complex DFT along dim (any length) of a signal [..., 2] of real and imaginary parts, as numpy.fft.fft (inverse: ifft), in the signal's dtype."""
    try:
        ctx = signal.context
        B: Backend = signal.kind.routing or getattr(BACKENDS, signal.kind.variant)
        if ctx is DISABLED:
            signal_ = signal.primitive if signal.kind is B.Float else signal.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.fft(signal_, dim, inverse), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        signal_ = signal.primitive if signal.kind is B.Autodiff else signal.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.fft(signal_, dim, inverse), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("fft", None, error, signal=signal, dim=dim, inverse=inverse)
        raise


def deform_conv2d(
    x: Tensor,
    offset: Tensor,
    weight: Tensor,
    mask: Tensor | None,
    bias: Tensor | None,
    stride: tuple[int, int],
    padding: tuple[int, int],
    dilation: tuple[int, int],
    weight_groups: int,
    offset_groups: int,
) -> Tensor:
    """A 2-D convolution whose taps are displaced by learned offsets (bilinear sampling) and scaled by an optional mask."""
    try:
        ctx = (
            x.context.merge(offset.context)
            .merge(weight.context)
            .merge(DISABLED if mask is None else mask.context)
            .merge(DISABLED if bias is None else bias.context)
        )
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            offset_ = offset.primitive if offset.kind is B.Float else offset.as_float(x)
            weight_ = weight.primitive if weight.kind is B.Float else weight.as_float(x)
            mask_ = (
                None
                if mask is None
                else (mask.primitive if mask.kind is B.Float else mask.as_float(x))
            )
            bias_ = (
                None
                if bias is None
                else (bias.primitive if bias.kind is B.Float else bias.as_float(x))
            )
            if x_.dtype is not offset_.dtype:
                check_dtypes("deform_conv2d", B.inner, x_, offset_)
            if x_.dtype is not weight_.dtype:
                check_dtypes("deform_conv2d", B.inner, x_, weight_)
            if mask_ is not None and x_.dtype is not mask_.dtype:
                check_dtypes("deform_conv2d", B.inner, x_, mask_)
            if bias_ is not None and x_.dtype is not bias_.dtype:
                check_dtypes("deform_conv2d", B.inner, x_, bias_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.deform_conv2d(
                    x_,
                    offset_,
                    weight_,
                    mask_,
                    bias_,
                    stride,
                    padding,
                    dilation,
                    weight_groups,
                    offset_groups,
                ),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        offset_ = offset.primitive if offset.kind is B.Autodiff else offset.lift(AD, x)
        weight_ = weight.primitive if weight.kind is B.Autodiff else weight.lift(AD, x)
        mask_ = (
            None
            if mask is None
            else (mask.primitive if mask.kind is B.Autodiff else mask.lift(AD, x))
        )
        bias_ = (
            None
            if bias is None
            else (bias.primitive if bias.kind is B.Autodiff else bias.lift(AD, x))
        )
        if x_.primitive.dtype is not offset_.primitive.dtype:
            check_dtypes("deform_conv2d", B.inner, x_.primitive, offset_.primitive)
        if x_.primitive.dtype is not weight_.primitive.dtype:
            check_dtypes("deform_conv2d", B.inner, x_.primitive, weight_.primitive)
        if mask_ is not None and x_.primitive.dtype is not mask_.primitive.dtype:
            check_dtypes("deform_conv2d", B.inner, x_.primitive, mask_.primitive)
        if bias_ is not None and x_.primitive.dtype is not bias_.primitive.dtype:
            check_dtypes("deform_conv2d", B.inner, x_.primitive, bias_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.deform_conv2d(
                x_,
                offset_,
                weight_,
                mask_,
                bias_,
                stride,
                padding,
                dilation,
                weight_groups,
                offset_groups,
            ),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "deform_conv2d",
            "deform",
            error,
            x=x,
            offset=offset,
            weight=weight,
            mask=mask,
            bias=bias,
            stride=stride,
            padding=padding,
            dilation=dilation,
            weight_groups=weight_groups,
            offset_groups=offset_groups,
        )
        raise
