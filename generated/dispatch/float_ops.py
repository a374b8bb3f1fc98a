# @generated from ops.yaml by `python -m codegen`; do not edit. render=db6e6e018b92334d body=e9ccc9e46da85130
"""The float ops of the dispatch layer, one routing function per ops.yaml entry.

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
from burnpy.generated.dispatch import quantized_ops
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
    "float_from_data",
    "float_zeros",
    "float_ones",
    "float_full",
    "float_empty",
    "float_random",
    "float_add",
    "float_add_scalar",
    "float_sub",
    "float_sub_scalar",
    "float_mul",
    "float_mul_scalar",
    "float_div",
    "float_div_scalar",
    "float_neg",
    "float_matmul",
    "float_det",
    "float_remainder",
    "float_remainder_scalar",
    "float_cross",
    "float_powf",
    "float_powf_scalar",
    "float_powf_scalar_impl",
    "float_powi",
    "float_powi_scalar",
    "float_powi_scalar_impl",
    "float_clamp",
    "float_clamp_min",
    "float_clamp_max",
    "float_exp",
    "float_square",
    "float_log",
    "float_sqrt",
    "float_abs",
    "float_sign",
    "float_tanh",
    "float_log1p",
    "float_recip",
    "float_sin",
    "float_cos",
    "float_tan",
    "float_sinh",
    "float_cosh",
    "float_asin",
    "float_acos",
    "float_atan",
    "float_asinh",
    "float_acosh",
    "float_atanh",
    "float_atan2",
    "float_hypot",
    "float_erf",
    "float_round",
    "float_floor",
    "float_ceil",
    "float_trunc",
    "float_round_to",
    "relu",
    "relu_backward",
    "leaky_relu",
    "prelu",
    "gelu",
    "gelu_backward",
    "gelu_approximate",
    "gelu_approximate_backward",
    "sigmoid",
    "sigmoid_backward",
    "hard_sigmoid",
    "log_sigmoid",
    "log_sigmoid_backward",
    "silu",
    "softmax",
    "log_softmax",
    "softmin",
    "float_sum",
    "float_sum_dim",
    "float_mean",
    "float_mean_dim",
    "float_prod",
    "float_prod_dim",
    "float_max",
    "float_max_dim",
    "float_max_dim_with_indices",
    "float_min",
    "float_min_dim",
    "float_min_dim_with_indices",
    "float_max_abs",
    "float_max_abs_dim",
    "float_argmax",
    "float_argmin",
    "float_any",
    "float_any_dim",
    "float_all",
    "float_all_dim",
    "float_cumsum",
    "float_cumprod",
    "float_cummin",
    "float_cummax",
    "float_sort",
    "float_sort_with_indices",
    "float_argsort",
    "float_topk",
    "float_topk_with_indices",
    "float_argtopk",
    "float_reshape",
    "float_swap_dims",
    "float_transpose",
    "float_permute",
    "float_flip",
    "float_expand",
    "float_repeat_dim",
    "float_slice",
    "float_slice_assign",
    "float_cat",
    "float_unfold",
    "float_cast",
    "float_gather",
    "float_scatter",
    "float_scatter_add",
    "float_select",
    "float_select_assign",
    "float_select_add",
    "float_mask_where",
    "float_mask_fill",
    "float_mask_select",
    "float_gather_nd",
    "float_scatter_nd",
    "float_grid_sample_2d",
    "float_equal",
    "float_equal_elem",
    "float_not_equal_elem",
    "float_greater",
    "float_greater_elem",
    "float_lower",
    "float_lower_elem",
    "float_not_equal",
    "float_greater_equal",
    "float_greater_equal_elem",
    "float_lower_equal",
    "float_lower_equal_elem",
    "float_is_nan",
    "float_is_inf",
    "float_into_int",
    "float_bitcast",
    "float_to_device",
]


def float_from_data(data: object, device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A float tensor holding a copy of `data`."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(B.Float, B.inner.float_from_data(data, device.inner, dtype), DISABLED)
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_from_data(data, device.inner, dtype), ctx)


def float_zeros(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A float tensor of zeros."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(B.Float, B.inner.float_zeros(shape, device.inner, dtype), DISABLED)
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_zeros(shape, device.inner, dtype), ctx)


def float_ones(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A float tensor of ones."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(B.Float, B.inner.float_ones(shape, device.inner, dtype), DISABLED)
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_ones(shape, device.inner, dtype), ctx)


def float_full(
    shape: tuple[int, ...], fill_value: float, device: DispatchDevice, dtype: np.dtype
) -> Tensor:
    """A float tensor filled with `fill_value`."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(B.Float, B.inner.float_full(shape, fill_value, device.inner, dtype), DISABLED)
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_full(shape, fill_value, device.inner, dtype), ctx)


def float_empty(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An uninitialised float tensor."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(B.Float, B.inner.float_empty(shape, device.inner, dtype), DISABLED)
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_empty(shape, device.inner, dtype), ctx)


def float_random(
    shape: tuple[int, ...], distribution: Distribution, device: DispatchDevice, dtype: np.dtype
) -> Tensor:
    """A float tensor sampled from `distribution` (seed it with `device.seed(n)`)."""
    B: Backend = getattr(BACKENDS, device.variant)
    if type(device) is not AutodiffDevice:
        return Tensor(
            B.Float, B.inner.float_random(shape, distribution, device.inner, dtype), DISABLED
        )
    ctx = DispatchAutodiffContext.enabled(device.checkpointing)
    AD = B.Balanced if device.checkpointing is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.float_random(shape, distribution, device.inner, dtype), ctx)


def float_add(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise sum, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_add(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_add", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_add(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_add(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_add", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_add(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_add", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_add_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Adds a scalar to every element."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_add_scalar(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_add_scalar(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_add_scalar(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_add_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_add_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def float_sub(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise difference, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_sub(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_sub", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sub(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_sub(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_sub", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sub(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sub", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_sub_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Subtracts a scalar from every element."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_sub_scalar(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sub_scalar(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_sub_scalar(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sub_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sub_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def float_mul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise product, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_mul(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_mul", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_mul(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_mul(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_mul", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_mul(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mul", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_mul_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Multiplies every element by a scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_mul_scalar(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_mul_scalar(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_mul_scalar(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_mul_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mul_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def float_div(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise quotient, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_div(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_div", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_div(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_div(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_div", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_div(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_div", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_div_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Divides every element by a scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_div_scalar(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_div_scalar(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_div_scalar(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_div_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_div_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def float_neg(tensor: Tensor) -> Tensor:
    """Element-wise negation."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_neg(tensor)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_neg(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_neg(tensor)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_neg(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_neg", None, error, tensor=tensor)
        raise


def float_matmul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Matrix product over the last two dims, broadcasting the batch dims."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if lhs.kind is B.QFloat or rhs.kind is B.QFloat:
            return quantized_ops.q_matmul(lhs, rhs)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_matmul", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_matmul(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_matmul", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_matmul(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_matmul", "matmul", error, lhs=lhs, rhs=rhs)
        raise


def float_det(tensor: Tensor) -> Tensor:
    """The determinant of each square matrix of the last two dims: [..., n, n] -> [...] (LU with partial pivoting, one pass; its gradient is the cofactors, infinite at a singular matrix)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_det(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_det(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_det", "square", error, tensor=tensor)
        raise


def float_remainder(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise remainder with the divisor's sign (Python's %), broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_remainder", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_remainder(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_remainder", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_remainder(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_remainder", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_remainder_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Remainder of every element by a scalar, with the scalar's sign."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_remainder_scalar(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_remainder_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_remainder_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def float_cross(lhs: Tensor, rhs: Tensor, dim: int) -> Tensor:
    """Cross product of 3-vectors along `dim` (of size 3), broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_cross", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_cross(lhs_, rhs_, dim),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_cross", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cross(lhs_, rhs_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cross", "cross", error, lhs=lhs, rhs=rhs, dim=dim)
        raise


def float_powf(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs ** rhs, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_powf(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_powf", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_powf(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat and rhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_powf(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_powf", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_powf(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_powf", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_powf_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Raises every element to a float power (burn's entry point; the generic case does the work)."""
    B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
    if lhs.kind is B.QFloat:
        return quantized_ops.q_powf_scalar(lhs, rhs)
    return float_powf_scalar_impl(lhs, rhs)


def float_powf_scalar_impl(lhs: Tensor, rhs: float) -> Tensor:
    """The generic case of float_powf_scalar, where burn-autodiff puts the backward."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_powf_scalar_impl(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_powf_scalar_impl(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_powf_scalar_impl", None, error, lhs=lhs, rhs=rhs)
        raise


def float_powi(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Raises every element to an int tensor's power, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            if lhs.kind is B.Float:
                lhs_ = lhs.primitive
            elif lhs.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_powi(lhs, rhs)
            else:
                lhs_ = lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_powi(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if lhs.kind is B.Autodiff:
            lhs_ = lhs.primitive
        elif lhs.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_powi(lhs, rhs)
        else:
            lhs_ = lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_powi(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_powi", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_powi_scalar(lhs: Tensor, rhs: int) -> Tensor:
    """Raises every element to an integer power."""
    B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
    if lhs.kind is B.QFloat:
        return quantized_ops.q_powi_scalar(lhs, rhs)
    return float_powi_scalar_impl(lhs, rhs)


def float_powi_scalar_impl(lhs: Tensor, rhs: int) -> Tensor:
    """The generic case of float_powi_scalar; burn's default defers to float_powf_scalar_impl."""
    return float_powf_scalar_impl(lhs, rhs)


def float_clamp(tensor: Tensor, min: float, max: float) -> Tensor:
    """Clamps every element into [min, max] (the gradient is 0 where an element was clamped)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_clamp(tensor, min, max)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_clamp(tensor_, min, max),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_clamp(tensor, min, max)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_clamp(tensor_, min, max), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_clamp", None, error, tensor=tensor, min=min, max=max)
        raise


def float_clamp_min(tensor: Tensor, min: float) -> Tensor:
    """Raises every element below `min` to `min`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_clamp_min(tensor, min)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_clamp_min(tensor_, min),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_clamp_min(tensor, min)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_clamp_min(tensor_, min), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_clamp_min", None, error, tensor=tensor, min=min)
        raise


def float_clamp_max(tensor: Tensor, max: float) -> Tensor:
    """Lowers every element above `max` to `max`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_clamp_max(tensor, max)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_clamp_max(tensor_, max),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_clamp_max(tensor, max)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_clamp_max(tensor_, max), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_clamp_max", None, error, tensor=tensor, max=max)
        raise


def float_exp(tensor: Tensor) -> Tensor:
    """Element-wise e^x."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_exp(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_exp(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_exp", None, error, tensor=tensor)
        raise


def float_square(tensor: Tensor) -> Tensor:
    """Element-wise x * x."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_square(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_square(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_square", None, error, tensor=tensor)
        raise


def float_log(tensor: Tensor) -> Tensor:
    """Element-wise natural logarithm."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_log(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_log(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_log", None, error, tensor=tensor)
        raise


def float_sqrt(tensor: Tensor) -> Tensor:
    """Element-wise square root."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sqrt(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sqrt(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sqrt", None, error, tensor=tensor)
        raise


def float_abs(tensor: Tensor) -> Tensor:
    """Element-wise absolute value."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_abs(tensor)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_abs(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_abs(tensor)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_abs(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_abs", None, error, tensor=tensor)
        raise


def float_sign(tensor: Tensor) -> Tensor:
    """Element-wise sign (-1, 0 or 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sign(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sign(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sign", None, error, tensor=tensor)
        raise


def float_tanh(tensor: Tensor) -> Tensor:
    """Element-wise hyperbolic tangent."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_tanh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_tanh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_tanh", None, error, tensor=tensor)
        raise


def float_log1p(tensor: Tensor) -> Tensor:
    """Element-wise log(1 + x), accurate near 0."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_log1p(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_log1p(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_log1p", None, error, tensor=tensor)
        raise


def float_recip(tensor: Tensor) -> Tensor:
    """Element-wise 1 / x."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_recip(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_recip(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_recip", None, error, tensor=tensor)
        raise


def float_sin(tensor: Tensor) -> Tensor:
    """Element-wise sine."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sin(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sin(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sin", None, error, tensor=tensor)
        raise


def float_cos(tensor: Tensor) -> Tensor:
    """Element-wise cosine."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cos(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cos(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cos", None, error, tensor=tensor)
        raise


def float_tan(tensor: Tensor) -> Tensor:
    """Element-wise tangent."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_tan(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_tan(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_tan", None, error, tensor=tensor)
        raise


def float_sinh(tensor: Tensor) -> Tensor:
    """Element-wise hyperbolic sine."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sinh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sinh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sinh", None, error, tensor=tensor)
        raise


def float_cosh(tensor: Tensor) -> Tensor:
    """Element-wise hyperbolic cosine."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cosh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cosh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cosh", None, error, tensor=tensor)
        raise


def float_asin(tensor: Tensor) -> Tensor:
    """Element-wise arcsine (x in [-1, 1])."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_asin(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_asin(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_asin", None, error, tensor=tensor)
        raise


def float_acos(tensor: Tensor) -> Tensor:
    """Element-wise arccosine (x in [-1, 1])."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_acos(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_acos(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_acos", None, error, tensor=tensor)
        raise


def float_atan(tensor: Tensor) -> Tensor:
    """Element-wise arctangent."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_atan(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_atan(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_atan", None, error, tensor=tensor)
        raise


def float_asinh(tensor: Tensor) -> Tensor:
    """Element-wise inverse hyperbolic sine."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_asinh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_asinh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_asinh", None, error, tensor=tensor)
        raise


def float_acosh(tensor: Tensor) -> Tensor:
    """Element-wise inverse hyperbolic cosine (x >= 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_acosh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_acosh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_acosh", None, error, tensor=tensor)
        raise


def float_atanh(tensor: Tensor) -> Tensor:
    """Element-wise inverse hyperbolic tangent (x in (-1, 1))."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_atanh(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_atanh(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_atanh", None, error, tensor=tensor)
        raise


def float_atan2(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise angle of the point (x=rhs, y=lhs), in (-pi, pi], broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_atan2", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_atan2(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_atan2", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_atan2(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_atan2", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_hypot(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise sqrt(lhs^2 + rhs^2) without overflow, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_hypot", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_hypot(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_hypot", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_hypot(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_hypot", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_erf(tensor: Tensor) -> Tensor:
    """Element-wise Gauss error function."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_erf(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_erf(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_erf", None, error, tensor=tensor)
        raise


def float_round(tensor: Tensor) -> Tensor:
    """Element-wise rounding to the nearest integer, halves to even (the gradient is 0)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_round(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_round(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_round", None, error, tensor=tensor)
        raise


def float_floor(tensor: Tensor) -> Tensor:
    """Element-wise largest integer <= x (the gradient is 0)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_floor(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_floor(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_floor", None, error, tensor=tensor)
        raise


def float_ceil(tensor: Tensor) -> Tensor:
    """Element-wise smallest integer >= x (the gradient is 0)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_ceil(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_ceil(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_ceil", None, error, tensor=tensor)
        raise


def float_trunc(tensor: Tensor) -> Tensor:
    """Element-wise rounding toward zero (the gradient is 0)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_trunc(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_trunc(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_trunc", None, error, tensor=tensor)
        raise


def float_round_to(tensor: Tensor, format: str, saturate: bool) -> Tensor:
    """Each value rounded to the nearest of an 8- or 4-bit float format (ml_dtypes' names), ties to even, from its float32 value, and kept in the tensor's dtype; saturate: beyond the format's range (infinities too) its largest value, else NaN (inf in float8_e5m2) as ml_dtypes casts. The gradient is 0."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_round_to(tensor_, format, saturate),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_round_to(tensor_, format, saturate),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_round_to", None, error, tensor=tensor, format=format, saturate=saturate
        )
        raise


def relu(tensor: Tensor) -> Tensor:
    """Element-wise max(x, 0)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.relu(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.relu(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("relu", None, error, tensor=tensor)
        raise


def relu_backward(output: Tensor, grad: Tensor) -> Tensor:
    """relu's backward from its output, grad where output > 0 (0 where output <= 0)."""
    try:
        ctx = (
            output.context if grad.context is output.context else output.context.merge(grad.context)
        )
        B: Backend = output.kind.routing or getattr(BACKENDS, output.kind.variant)
        if ctx is DISABLED:
            output_ = output.primitive if output.kind is B.Float else output.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(output)
            if output_.dtype is not grad_.dtype:
                check_dtypes("relu_backward", B.inner, output_, grad_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.relu_backward(output_, grad_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        output_ = output.primitive if output.kind is B.Autodiff else output.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, output)
        if output_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("relu_backward", B.inner, output_.primitive, grad_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.relu_backward(output_, grad_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("relu_backward", "broadcast", error, output=output, grad=grad)
        raise


def leaky_relu(tensor: Tensor, negative_slope: float) -> Tensor:
    """Element-wise x, or x * negative_slope where x < 0."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.leaky_relu(tensor_, negative_slope),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.leaky_relu(tensor_, negative_slope),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("leaky_relu", None, error, tensor=tensor, negative_slope=negative_slope)
        raise


def prelu(tensor: Tensor, alpha: Tensor) -> Tensor:
    """Element-wise x, or x * alpha where x < 0; alpha (learned) broadcasts against x."""
    try:
        ctx = (
            tensor.context
            if alpha.context is tensor.context
            else tensor.context.merge(alpha.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            alpha_ = alpha.primitive if alpha.kind is B.Float else alpha.as_float(tensor)
            if tensor_.dtype is not alpha_.dtype:
                check_dtypes("prelu", B.inner, tensor_, alpha_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.prelu(tensor_, alpha_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        alpha_ = alpha.primitive if alpha.kind is B.Autodiff else alpha.lift(AD, tensor)
        if tensor_.primitive.dtype is not alpha_.primitive.dtype:
            check_dtypes("prelu", B.inner, tensor_.primitive, alpha_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.prelu(tensor_, alpha_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("prelu", "broadcast", error, tensor=tensor, alpha=alpha)
        raise


def gelu(tensor: Tensor) -> Tensor:
    """Element-wise x * Φ(x) (the exact erf form, and its exact gradient)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.gelu(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.gelu(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("gelu", None, error, tensor=tensor)
        raise


def gelu_backward(x: Tensor, grad: Tensor) -> Tensor:
    """gelu's backward, grad * (Φ(x) + x φ(x)), the exact form's derivative (not burn's tanh one)."""
    try:
        ctx = x.context if grad.context is x.context else x.context.merge(grad.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(x)
            if x_.dtype is not grad_.dtype:
                check_dtypes("gelu_backward", B.inner, x_, grad_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.gelu_backward(x_, grad_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, x)
        if x_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("gelu_backward", B.inner, x_.primitive, grad_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.gelu_backward(x_, grad_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("gelu_backward", "broadcast", error, x=x, grad=grad)
        raise


def gelu_approximate(tensor: Tensor) -> Tensor:
    """Element-wise GELU's tanh approximation, 0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³))), and its own gradient."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.gelu_approximate(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.gelu_approximate(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("gelu_approximate", None, error, tensor=tensor)
        raise


def gelu_approximate_backward(x: Tensor, grad: Tensor) -> Tensor:
    """gelu_approximate's backward, grad * (0.5 (1 + t) + 0.5 x (1 - t²) sqrt(2/π) (1 + 3 · 0.044715 x²)), t its tanh."""
    try:
        ctx = x.context if grad.context is x.context else x.context.merge(grad.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(x)
            if x_.dtype is not grad_.dtype:
                check_dtypes("gelu_approximate_backward", B.inner, x_, grad_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.gelu_approximate_backward(x_, grad_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, x)
        if x_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("gelu_approximate_backward", B.inner, x_.primitive, grad_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.gelu_approximate_backward(x_, grad_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("gelu_approximate_backward", "broadcast", error, x=x, grad=grad)
        raise


def sigmoid(tensor: Tensor) -> Tensor:
    """Element-wise logistic function 1 / (1 + e^-x)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.sigmoid(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.sigmoid(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("sigmoid", None, error, tensor=tensor)
        raise


def sigmoid_backward(output: Tensor, grad: Tensor) -> Tensor:
    """sigmoid's backward from its output, grad * output * (1 - output)."""
    try:
        ctx = (
            output.context if grad.context is output.context else output.context.merge(grad.context)
        )
        B: Backend = output.kind.routing or getattr(BACKENDS, output.kind.variant)
        if ctx is DISABLED:
            output_ = output.primitive if output.kind is B.Float else output.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(output)
            if output_.dtype is not grad_.dtype:
                check_dtypes("sigmoid_backward", B.inner, output_, grad_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.sigmoid_backward(output_, grad_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        output_ = output.primitive if output.kind is B.Autodiff else output.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, output)
        if output_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("sigmoid_backward", B.inner, output_.primitive, grad_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.sigmoid_backward(output_, grad_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("sigmoid_backward", "broadcast", error, output=output, grad=grad)
        raise


def hard_sigmoid(tensor: Tensor, alpha: float, beta: float) -> Tensor:
    """Element-wise clamp(alpha * x + beta, 0, 1)."""
    return float_clamp(float_add_scalar(float_mul_scalar(tensor, alpha), beta), 0.0, 1.0)


def log_sigmoid(tensor: Tensor) -> Tensor:
    """Element-wise log(sigmoid(x)), stable for large |x|."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.log_sigmoid(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.log_sigmoid(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("log_sigmoid", None, error, tensor=tensor)
        raise


def log_sigmoid_backward(x: Tensor, grad: Tensor) -> Tensor:
    """log_sigmoid's backward, grad * sigmoid(-x) (1 - sigmoid(x) without the cancellation)."""
    try:
        ctx = x.context if grad.context is x.context else x.context.merge(grad.context)
        B: Backend = x.kind.routing or getattr(BACKENDS, x.kind.variant)
        if ctx is DISABLED:
            x_ = x.primitive if x.kind is B.Float else x.as_float()
            grad_ = grad.primitive if grad.kind is B.Float else grad.as_float(x)
            if x_.dtype is not grad_.dtype:
                check_dtypes("log_sigmoid_backward", B.inner, x_, grad_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.log_sigmoid_backward(x_, grad_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        x_ = x.primitive if x.kind is B.Autodiff else x.lift(AD)
        grad_ = grad.primitive if grad.kind is B.Autodiff else grad.lift(AD, x)
        if x_.primitive.dtype is not grad_.primitive.dtype:
            check_dtypes("log_sigmoid_backward", B.inner, x_.primitive, grad_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.log_sigmoid_backward(x_, grad_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("log_sigmoid_backward", "broadcast", error, x=x, grad=grad)
        raise


def silu(tensor: Tensor) -> Tensor:
    """Element-wise x * sigmoid(x) (burn-tensor's silu)."""
    return float_mul(tensor, sigmoid(tensor))


def softmax(tensor: Tensor, dim: int) -> Tensor:
    """e^x / sum(e^x) along `dim`, shifted by the row max (stable for large inputs)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.softmax(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.softmax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("softmax", None, error, tensor=tensor, dim=dim)
        raise


def log_softmax(tensor: Tensor, dim: int) -> Tensor:
    """log(softmax(x)) along `dim`, as x - max - log(sum(e^(x - max))) (stable)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.log_softmax(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.log_softmax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("log_softmax", None, error, tensor=tensor, dim=dim)
        raise


def softmin(tensor: Tensor, dim: int) -> Tensor:
    """softmax(-x) along `dim`."""
    return softmax(float_neg(tensor), dim)


def float_sum(tensor: Tensor) -> Tensor:
    """Sum of all elements, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_sum(tensor)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sum(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_sum(tensor)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sum(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sum", None, error, tensor=tensor)
        raise


def float_sum_dim(tensor: Tensor, dim: int) -> Tensor:
    """Sum along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_sum_dim(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_sum_dim(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_sum_dim(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_sum_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_sum_dim", None, error, tensor=tensor, dim=dim)
        raise


def float_mean(tensor: Tensor) -> Tensor:
    """Mean of all elements, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_mean(tensor)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_mean(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_mean(tensor)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_mean(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mean", None, error, tensor=tensor)
        raise


def float_mean_dim(tensor: Tensor, dim: int) -> Tensor:
    """Mean along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_mean_dim(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_mean_dim(tensor_, dim),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_mean_dim(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_mean_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mean_dim", None, error, tensor=tensor, dim=dim)
        raise


def float_prod(tensor: Tensor) -> Tensor:
    """Product of all elements, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_prod(tensor)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_prod(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_prod(tensor)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_prod(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_prod", None, error, tensor=tensor)
        raise


def float_prod_dim(tensor: Tensor, dim: int) -> Tensor:
    """Product along `dim`, keeping it with size 1 (its gradient is exact at zeros)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_prod_dim(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_prod_dim(tensor_, dim),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_prod_dim(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_prod_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_prod_dim", None, error, tensor=tensor, dim=dim)
        raise


def float_max(tensor: Tensor) -> Tensor:
    """Largest element, shape [1] (NaN if any is NaN)."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_max(tensor)
    return float_max_dim(float_reshape(tensor, (-1,)), 0)


def float_max_dim(tensor: Tensor, dim: int) -> Tensor:
    """Largest element along `dim`, keeping it with size 1."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_max_dim(tensor, dim)
    return float_max_dim_with_indices(tensor, dim)[0]


def float_max_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(largest element, its index) along `dim`, keeping it; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_max_dim_with_indices(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out0, out1 = B.inner.float_max_dim_with_indices(tensor_, dim)
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_max_dim_with_indices(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out0, out1 = AD.float_max_dim_with_indices(tensor_, dim)
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_max_dim_with_indices", "nonempty", error, tensor=tensor, dim=dim)
        raise


def float_min(tensor: Tensor) -> Tensor:
    """Smallest element, shape [1] (NaN if any is NaN)."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_min(tensor)
    return float_min_dim(float_reshape(tensor, (-1,)), 0)


def float_min_dim(tensor: Tensor, dim: int) -> Tensor:
    """Smallest element along `dim`, keeping it with size 1."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_min_dim(tensor, dim)
    return float_min_dim_with_indices(tensor, dim)[0]


def float_min_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(smallest element, its index) along `dim`, keeping it; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_min_dim_with_indices(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out0, out1 = B.inner.float_min_dim_with_indices(tensor_, dim)
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_min_dim_with_indices(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out0, out1 = AD.float_min_dim_with_indices(tensor_, dim)
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_min_dim_with_indices", "nonempty", error, tensor=tensor, dim=dim)
        raise


def float_max_abs(tensor: Tensor) -> Tensor:
    """Largest absolute value, shape [1]."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_max_abs(tensor)
    return float_max(float_abs(tensor))


def float_max_abs_dim(tensor: Tensor, dim: int) -> Tensor:
    """Largest absolute value along `dim`, keeping it with size 1."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_max_abs_dim(tensor, dim)
    return float_max_dim(float_abs(tensor), dim)


def float_argmax(tensor: Tensor, dim: int) -> Tensor:
    """Index (int64) of the largest element along `dim`, kept; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_argmax(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Int, B.inner.float_argmax(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_argmax(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, AD.float_argmax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_argmax", "nonempty", error, tensor=tensor, dim=dim)
        raise


def float_argmin(tensor: Tensor, dim: int) -> Tensor:
    """Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_argmin(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Int, B.inner.float_argmin(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_argmin(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, AD.float_argmin(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_argmin", "nonempty", error, tensor=tensor, dim=dim)
        raise


def float_any(tensor: Tensor) -> Tensor:
    """Whether any element is non-zero, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_any(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_any(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_any", None, error, tensor=tensor)
        raise


def float_any_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether any element is non-zero along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_any_dim(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_any_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_any_dim", None, error, tensor=tensor, dim=dim)
        raise


def float_all(tensor: Tensor) -> Tensor:
    """Whether every element is non-zero, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_all(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_all(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_all", None, error, tensor=tensor)
        raise


def float_all_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether every element is non-zero along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_all_dim(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_all_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_all_dim", None, error, tensor=tensor, dim=dim)
        raise


def float_cumsum(tensor: Tensor, dim: int) -> Tensor:
    """Running sum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_cumsum(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cumsum(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_cumsum(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cumsum(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cumsum", None, error, tensor=tensor, dim=dim)
        raise


def float_cumprod(tensor: Tensor, dim: int) -> Tensor:
    """Running product along `dim` (its gradient is exact at zeros)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_cumprod(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cumprod(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_cumprod(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cumprod(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cumprod", None, error, tensor=tensor, dim=dim)
        raise


def float_cummin(tensor: Tensor, dim: int) -> Tensor:
    """Running minimum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_cummin(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cummin(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_cummin(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cummin(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cummin", None, error, tensor=tensor, dim=dim)
        raise


def float_cummax(tensor: Tensor, dim: int) -> Tensor:
    """Running maximum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_cummax(tensor, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cummax(tensor_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_cummax(tensor, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cummax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cummax", None, error, tensor=tensor, dim=dim)
        raise


def float_sort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """The elements sorted along `dim` (stable; NaN last, or first when descending)."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_sort(tensor, dim, descending)
    return float_sort_with_indices(tensor, dim, descending)[0]


def float_sort_with_indices(tensor: Tensor, dim: int, descending: bool) -> tuple[Tensor, Tensor]:
    """(sorted elements, their indices) along `dim`; equal elements keep their order."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_sort_with_indices(tensor, dim, descending)
            else:
                tensor_ = tensor.as_float()
            out0, out1 = B.inner.float_sort_with_indices(tensor_, dim, descending)
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_sort_with_indices(tensor, dim, descending)
        else:
            tensor_ = tensor.lift(AD)
        out0, out1 = AD.float_sort_with_indices(tensor_, dim, descending)
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_sort_with_indices", None, error, tensor=tensor, dim=dim, descending=descending
        )
        raise


def float_argsort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """The indices (int64) that sort along `dim`; equal elements keep their order."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_argsort(tensor, dim, descending)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Int,
                B.inner.float_argsort(tensor_, dim, descending),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_argsort(tensor, dim, descending)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            AD.float_argsort(tensor_, dim, descending),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_argsort", None, error, tensor=tensor, dim=dim, descending=descending)
        raise


def float_topk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The k largest elements along `dim`, largest first (burn-tensor's argument order)."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_topk(tensor, k, dim)
    return float_topk_with_indices(tensor, k, dim)[0]


def float_topk_with_indices(tensor: Tensor, k: int, dim: int) -> tuple[Tensor, Tensor]:
    """(the k largest elements, their indices) along `dim`; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_topk_with_indices(tensor, k, dim)
            else:
                tensor_ = tensor.as_float()
            out0, out1 = B.inner.float_topk_with_indices(tensor_, k, dim)
            return (Tensor(B.Float, out0, ctx), Tensor(B.Int, out1, ctx))
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_topk_with_indices(tensor, k, dim)
        else:
            tensor_ = tensor.lift(AD)
        out0, out1 = AD.float_topk_with_indices(tensor_, k, dim)
        return (Tensor(B.Autodiff, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_topk_with_indices", None, error, tensor=tensor, k=k, dim=dim)
        raise


def float_argtopk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The indices (int64) of the k largest elements along `dim`; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_argtopk(tensor, k, dim)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Int,
                B.inner.float_argtopk(tensor_, k, dim),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_argtopk(tensor, k, dim)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, AD.float_argtopk(tensor_, k, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_argtopk", None, error, tensor=tensor, k=k, dim=dim)
        raise


def float_reshape(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """The same elements in a new shape (-1 infers one dim)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_reshape(tensor, shape)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_reshape(tensor_, shape),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_reshape(tensor, shape)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_reshape(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_reshape", "reshape", error, tensor=tensor, shape=shape)
        raise


def float_swap_dims(tensor: Tensor, dim1: int, dim2: int) -> Tensor:
    """Swaps two dims."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_swap_dims(tensor, dim1, dim2)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_swap_dims(tensor_, dim1, dim2),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_swap_dims(tensor, dim1, dim2)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_swap_dims(tensor_, dim1, dim2),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_swap_dims", None, error, tensor=tensor, dim1=dim1, dim2=dim2)
        raise


def float_transpose(tensor: Tensor) -> Tensor:
    """Swaps the last two dims."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_transpose(tensor)
    return float_swap_dims(tensor, -2, -1)


def float_permute(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reorders the dims; dim i of the result is dim axes[i] of the tensor."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_permute(tensor, axes)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_permute(tensor_, axes),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_permute(tensor, axes)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_permute(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_permute", None, error, tensor=tensor, axes=axes)
        raise


def float_flip(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reverses the order of the elements along each of `axes`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_flip(tensor, axes)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_flip(tensor_, axes), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_flip(tensor, axes)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_flip(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_flip", None, error, tensor=tensor, axes=axes)
        raise


def float_expand(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Broadcasts to `shape` (size-1 dims stretch; new dims go in front)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_expand(tensor_, shape),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_expand(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_expand", None, error, tensor=tensor, shape=shape)
        raise


def float_repeat_dim(tensor: Tensor, dim: int, times: int) -> Tensor:
    """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b])."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_repeat_dim(tensor, dim, times)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_repeat_dim(tensor_, dim, times),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_repeat_dim(tensor, dim, times)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_repeat_dim(tensor_, dim, times),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_repeat_dim", None, error, tensor=tensor, dim=dim, times=times)
        raise


def float_slice(tensor: Tensor, slices: tuple[tuple[int, int, int], ...]) -> Tensor:
    """The elements in `slices`, one per leading dim (ints keep their dim with size 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_slice(tensor, slices)
            else:
                tensor_ = tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_slice(tensor_, slices),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_slice(tensor, slices)
        else:
            tensor_ = tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_slice(tensor_, slices), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_slice", "sliced", error, tensor=tensor, slices=slices)
        raise


def float_slice_assign(
    tensor: Tensor, slices: tuple[tuple[int, int, int], ...], value: Tensor
) -> Tensor:
    """A copy of the tensor with the elements in `slices` replaced by `value`."""
    try:
        ctx = (
            tensor.context
            if value.context is tensor.context
            else tensor.context.merge(value.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_slice_assign", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_slice_assign(tensor_, slices, value_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_slice_assign", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_slice_assign(tensor_, slices, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_slice_assign", "sliced", error, tensor=tensor, slices=slices, value=value
        )
        raise


def float_cat(tensors: list[Tensor], dim: int) -> Tensor:
    """The tensors joined along dim (every other dim must match)."""
    try:
        ctx = merge_contexts(DISABLED, tensors)
        B: Backend = tensors[0].kind.routing or getattr(BACKENDS, tensors[0].kind.variant)
        if tensors[0].kind is B.QFloat:
            return quantized_ops.q_cat(tensors, dim)
        if ctx is DISABLED:
            tensors_ = [t.as_float(tensors[0]) for t in tensors]
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cat(tensors_, dim), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensors_ = [t.lift(AD, tensors[0]) for t in tensors]
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cat(tensors_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cat", "cat", error, tensors=tensors, dim=dim)
        raise


def float_unfold(tensor: Tensor, dim: int, size: int, step: int) -> Tensor:
    """Windows of `size` every `step` along dim, as [pre, windows, post, size]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_unfold(tensor_, dim, size, step),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_unfold(tensor_, dim, size, step),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_unfold", None, error, tensor=tensor, dim=dim, size=size, step=step)
        raise


def float_cast(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """The tensor in another float dtype (the gradient is cast back)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Float, B.inner.float_cast(tensor_, dtype), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_cast(tensor_, dtype), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_cast", None, error, tensor=tensor, dtype=dtype)
        raise


def float_gather(dim: int, tensor: Tensor, indices: Tensor) -> Tensor:
    """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_gather(dim, tensor, indices)
            else:
                tensor_ = tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_gather(dim, tensor_, indices_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_gather(dim, tensor, indices)
        else:
            tensor_ = tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_gather(dim, tensor_, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_gather", "indexed", error, dim=dim, tensor=tensor, indices=indices)
        raise


def float_scatter(
    dim: int, tensor: Tensor, indices: Tensor, value: Tensor, update: IndexingUpdateOp
) -> Tensor:
    """A copy with tensor at `indices` along dim (update)= value (update assign or add)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_scatter", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_scatter(dim, tensor_, indices_, value_, update),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_scatter", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_scatter(dim, tensor_, indices_, value_, update),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_scatter",
            "indexed",
            error,
            dim=dim,
            tensor=tensor,
            indices=indices,
            value=value,
            update=update,
        )
        raise


def float_scatter_add(dim: int, tensor: Tensor, indices: Tensor, value: Tensor) -> Tensor:
    """scatter with update add (repeated indices accumulate)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_scatter_add", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_scatter_add(dim, tensor_, indices_, value_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_scatter_add", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_scatter_add(dim, tensor_, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_scatter_add",
            "indexed",
            error,
            dim=dim,
            tensor=tensor,
            indices=indices,
            value=value,
        )
        raise


def float_select(tensor: Tensor, dim: int, indices: Tensor) -> Tensor:
    """The slices of dim at the 1-D `indices`, in their order (repeats allowed)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_select(tensor, dim, indices)
            else:
                tensor_ = tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_select(tensor_, dim, indices_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_select(tensor, dim, indices)
        else:
            tensor_ = tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_select(tensor_, dim, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_select", "selected", error, tensor=tensor, dim=dim, indices=indices)
        raise


def float_select_assign(
    tensor: Tensor, dim: int, indices: Tensor, value: Tensor, update: IndexingUpdateOp
) -> Tensor:
    """A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_select_assign", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_select_assign(tensor_, dim, indices_, value_, update),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_select_assign", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_select_assign(tensor_, dim, indices_, value_, update),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_select_assign",
            "selected",
            error,
            tensor=tensor,
            dim=dim,
            indices=indices,
            value=value,
            update=update,
        )
        raise


def float_select_add(tensor: Tensor, dim: int, indices: Tensor, value: Tensor) -> Tensor:
    """select_assign with update add (repeated indices accumulate)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_select_add", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_select_add(tensor_, dim, indices_, value_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_select_add", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_select_add(tensor_, dim, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_select_add",
            "selected",
            error,
            tensor=tensor,
            dim=dim,
            indices=indices,
            value=value,
        )
        raise


def float_mask_where(tensor: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    """value where mask is true, else tensor (all three broadcast)."""
    try:
        ctx = tensor.context.merge(mask.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
            value_ = value.primitive if value.kind is B.Float else value.as_float(tensor)
            if tensor_.dtype is not value_.dtype:
                check_dtypes("float_mask_where", B.inner, tensor_, value_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_mask_where(tensor_, mask_, value_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        value_ = value.primitive if value.kind is B.Autodiff else value.lift(AD, tensor)
        if tensor_.primitive.dtype is not value_.primitive.dtype:
            check_dtypes("float_mask_where", B.inner, tensor_.primitive, value_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_mask_where(tensor_, mask_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_mask_where", "broadcast", error, tensor=tensor, mask=mask, value=value
        )
        raise


def float_mask_fill(tensor: Tensor, mask: Tensor, value: float) -> Tensor:
    """value where mask is true, else tensor (the mask broadcasts)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_mask_fill(tensor_, mask_, value),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_mask_fill(tensor_, mask_, value),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mask_fill", "broadcast", error, tensor=tensor, mask=mask, value=value)
        raise


def float_mask_select(tensor: Tensor, mask: Tensor) -> Tensor:
    """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            if tensor.kind is B.Float:
                tensor_ = tensor.primitive
            elif tensor.kind is B.QFloat:  # quantized operands: the q-op
                return quantized_ops.q_mask_select(tensor, mask)
            else:
                tensor_ = tensor.as_float()
            mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_mask_select(tensor_, mask_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if tensor.kind is B.Autodiff:
            tensor_ = tensor.primitive
        elif tensor.kind is B.QFloat:  # quantized operands: the q-op
            return quantized_ops.q_mask_select(tensor, mask)
        else:
            tensor_ = tensor.lift(AD)
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_mask_select(tensor_, mask_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_mask_select", None, error, tensor=tensor, mask=mask)
        raise


def float_gather_nd(data: Tensor, indices: Tensor) -> Tensor:
    """The slices of data at n-d indices (the last dim of indices indexes data's first dims)."""
    try:
        ctx = (
            data.context if indices.context is data.context else data.context.merge(indices.context)
        )
        B: Backend = data.kind.routing or getattr(BACKENDS, data.kind.variant)
        if ctx is DISABLED:
            data_ = data.primitive if data.kind is B.Float else data.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_gather_nd(data_, indices_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        data_ = data.primitive if data.kind is B.Autodiff else data.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Autodiff, AD.float_gather_nd(data_, indices_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_gather_nd", None, error, data=data, indices=indices)
        raise


def float_scatter_nd(
    data: Tensor, indices: Tensor, values: Tensor, reduction: IndexingUpdateOp
) -> Tensor:
    """A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add)."""
    try:
        ctx = data.context.merge(indices.context).merge(values.context)
        B: Backend = data.kind.routing or getattr(BACKENDS, data.kind.variant)
        if ctx is DISABLED:
            data_ = data.primitive if data.kind is B.Float else data.as_float()
            indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
            values_ = values.primitive if values.kind is B.Float else values.as_float(data)
            if data_.dtype is not values_.dtype:
                check_dtypes("float_scatter_nd", B.inner, data_, values_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_scatter_nd(data_, indices_, values_, reduction),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        data_ = data.primitive if data.kind is B.Autodiff else data.lift(AD)
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
        values_ = values.primitive if values.kind is B.Autodiff else values.lift(AD, data)
        if data_.primitive.dtype is not values_.primitive.dtype:
            check_dtypes("float_scatter_nd", B.inner, data_.primitive, values_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_scatter_nd(data_, indices_, values_, reduction),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_scatter_nd",
            None,
            error,
            data=data,
            indices=indices,
            values=values,
            reduction=reduction,
        )
        raise


def float_grid_sample_2d(
    tensor: Tensor, grid: Tensor, mode: str, padding_mode: str, align_corners: bool
) -> Tensor:
    """Samples [n, c, h, w] at grid [n, h', w', 2] (x, y in [-1, 1]) by mode, outside points by padding_mode (bicubic: not supported, as burn's backends)."""
    try:
        ctx = (
            tensor.context if grid.context is tensor.context else tensor.context.merge(grid.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            grid_ = grid.primitive if grid.kind is B.Float else grid.as_float(tensor)
            if tensor_.dtype is not grid_.dtype:
                check_dtypes("float_grid_sample_2d", B.inner, tensor_, grid_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Float,
                B.inner.float_grid_sample_2d(tensor_, grid_, mode, padding_mode, align_corners),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        grid_ = grid.primitive if grid.kind is B.Autodiff else grid.lift(AD, tensor)
        if tensor_.primitive.dtype is not grid_.primitive.dtype:
            check_dtypes("float_grid_sample_2d", B.inner, tensor_.primitive, grid_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Autodiff,
            AD.float_grid_sample_2d(tensor_, grid_, mode, padding_mode, align_corners),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "float_grid_sample_2d",
            "broadcast",
            error,
            tensor=tensor,
            grid=grid,
            mode=mode,
            padding_mode=padding_mode,
            align_corners=align_corners,
        )
        raise


def float_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs == rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_equal", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_equal(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_equal", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs == scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_equal_elem(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_not_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs != scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_not_equal_elem(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_not_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_not_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_greater(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs > rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_greater", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_greater(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_greater", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_greater(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_greater", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_greater_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs > scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_greater_elem(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_greater_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_greater_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_lower(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs < rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_lower", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_lower(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_lower", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_lower(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_lower", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_lower_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs < scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_lower_elem(lhs_, rhs), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_lower_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_lower_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_not_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs != rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_not_equal", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_not_equal(lhs_, rhs_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_not_equal", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_not_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_not_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_greater_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs >= rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_greater_equal", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_greater_equal(lhs_, rhs_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_greater_equal", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_greater_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_greater_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_greater_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs >= scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_greater_equal_elem(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_greater_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_greater_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_lower_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs <= rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            rhs_ = rhs.primitive if rhs.kind is B.Float else rhs.as_float(lhs)
            if lhs_.dtype is not rhs_.dtype:
                check_dtypes("float_lower_equal", B.inner, lhs_, rhs_)
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_lower_equal(lhs_, rhs_),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        rhs_ = rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)
        if lhs_.primitive.dtype is not rhs_.primitive.dtype:
            check_dtypes("float_lower_equal", B.inner, lhs_.primitive, rhs_.primitive)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_lower_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_lower_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def float_lower_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs <= scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        if ctx is DISABLED:
            lhs_ = lhs.primitive if lhs.kind is B.Float else lhs.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = (
                B.Bool,
                B.inner.float_lower_equal_elem(lhs_, rhs),
                ctx,
            )
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        lhs_ = lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_lower_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_lower_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def float_is_nan(tensor: Tensor) -> Tensor:
    """Element-wise x is NaN."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_is_nan(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_is_nan(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_is_nan", None, error, tensor=tensor)
        raise


def float_is_inf(tensor: Tensor) -> Tensor:
    """Element-wise x is +inf or -inf."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Bool, B.inner.float_is_inf(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, AD.float_is_inf(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_is_inf", None, error, tensor=tensor)
        raise


def float_into_int(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """Truncates toward zero into an int tensor."""
    ctx = tensor.context
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if ctx is DISABLED:
        tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.float_into_int(tensor_, dtype), ctx
        return out
    AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
    tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
    out = new_tensor(Tensor)
    out.kind, out.primitive, out.context = B.Int, AD.float_into_int(tensor_, dtype), ctx
    return out


def float_bitcast(tensor: Tensor) -> Tensor:
    """The bits of each value read as an int of the same width (float32 -> int32, float64 -> int64), as ONNX's BitCast and numpy's view."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        if ctx is DISABLED:
            tensor_ = tensor.primitive if tensor.kind is B.Float else tensor.as_float()
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = B.Int, B.inner.float_bitcast(tensor_), ctx
            return out
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        tensor_ = tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, AD.float_bitcast(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("float_bitcast", None, error, tensor=tensor)
        raise


def float_to_device(tensor: Tensor, device: DispatchDevice) -> Tensor:
    """The tensor on `device` (plain -> autodiff makes an untracked leaf; autodiff -> plain detaches)."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is B.QFloat:
        return quantized_ops.q_to_device(tensor, device)
    T: Backend = getattr(BACKENDS, device.variant)
    if tensor.kind.is_autodiff and type(device) is AutodiffDevice:
        # a recorded op: the gradient moves back; the tensor keeps its strategy
        ctx = tensor.context
        AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
        if T is B:
            return Tensor(T.Autodiff, AD.float_to_device(tensor.primitive, device.inner), ctx)
        return Tensor(T.Autodiff, AD.move_across(tensor.primitive, T.inner, device.inner), ctx)
    data = tensor.float_data()
    if T is B:
        data = B.inner.float_to_device(data, device.inner)
    else:  # between backends
        data = B.inner.move_across(data, T.inner, device.inner)
    if type(device) is not AutodiffDevice:
        return Tensor(T.Float, data, DISABLED)  # autodiff -> plain detaches
    # plain -> autodiff: an untracked leaf
    AD = T.Balanced if device.checkpointing is BALANCED else T.NoCheckpointing
    return Tensor(
        T.Autodiff, AD.from_inner(data), DispatchAutodiffContext.enabled(device.checkpointing)
    )
