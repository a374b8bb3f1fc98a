# @generated from ops.yaml by `python -m codegen`; do not edit. render=34501548b3f6626a body=822fe274facc5807
"""The bool ops of the dispatch layer, one routing function per ops.yaml entry.

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
    "bool_from_data",
    "bool_empty",
    "bool_zeros",
    "bool_ones",
    "bool_any",
    "bool_any_dim",
    "bool_all",
    "bool_all_dim",
    "bool_reshape",
    "bool_swap_dims",
    "bool_transpose",
    "bool_permute",
    "bool_flip",
    "bool_expand",
    "bool_repeat_dim",
    "bool_slice",
    "bool_slice_assign",
    "bool_cat",
    "bool_unfold",
    "bool_gather",
    "bool_scatter_or",
    "bool_select",
    "bool_select_or",
    "bool_mask_where",
    "bool_mask_fill",
    "bool_mask_select",
    "bool_argwhere",
    "bool_not",
    "bool_and",
    "bool_or",
    "bool_equal",
    "bool_xor",
    "bool_not_equal",
    "bool_equal_elem",
    "bool_not_equal_elem",
    "bool_into_int",
    "bool_into_float",
    "bool_to_device",
]


def bool_from_data(data: object, device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A bool tensor holding a copy of `data`."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Bool, B.inner.bool_from_data(data, device.inner, dtype), context_of(device))


def bool_empty(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An uninitialised bool tensor."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Bool, B.inner.bool_empty(shape, device.inner, dtype), context_of(device))


def bool_zeros(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A bool tensor of false."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Bool, B.inner.bool_zeros(shape, device.inner, dtype), context_of(device))


def bool_ones(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """A bool tensor of true."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Bool, B.inner.bool_ones(shape, device.inner, dtype), context_of(device))


def bool_any(tensor: Tensor) -> Tensor:
    """Whether any element is true, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_any(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_any", None, error, tensor=tensor)
        raise


def bool_any_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether any element is true along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_any_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_any_dim", None, error, tensor=tensor, dim=dim)
        raise


def bool_all(tensor: Tensor) -> Tensor:
    """Whether every element is true, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_all(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_all", None, error, tensor=tensor)
        raise


def bool_all_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether every element is true along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_all_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_all_dim", None, error, tensor=tensor, dim=dim)
        raise


def bool_reshape(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """The same elements in a new shape (-1 infers one dim)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_reshape(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_reshape", "reshape", error, tensor=tensor, shape=shape)
        raise


def bool_swap_dims(tensor: Tensor, dim1: int, dim2: int) -> Tensor:
    """Swaps two dims."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_swap_dims(tensor_, dim1, dim2),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_swap_dims", None, error, tensor=tensor, dim1=dim1, dim2=dim2)
        raise


def bool_transpose(tensor: Tensor) -> Tensor:
    """Swaps the last two dims."""
    return bool_swap_dims(tensor, -2, -1)


def bool_permute(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reorders the dims; dim i of the result is dim axes[i] of the tensor."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_permute(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_permute", None, error, tensor=tensor, axes=axes)
        raise


def bool_flip(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reverses the order of the elements along each of `axes`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_flip(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_flip", None, error, tensor=tensor, axes=axes)
        raise


def bool_expand(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Broadcasts to `shape` (size-1 dims stretch; new dims go in front)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_expand(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_expand", None, error, tensor=tensor, shape=shape)
        raise


def bool_repeat_dim(tensor: Tensor, dim: int, times: int) -> Tensor:
    """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b])."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_repeat_dim(tensor_, dim, times),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_repeat_dim", None, error, tensor=tensor, dim=dim, times=times)
        raise


def bool_slice(tensor: Tensor, slices: tuple[tuple[int, int, int], ...]) -> Tensor:
    """The elements in `slices`, one per leading dim (ints keep their dim with size 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_slice(tensor_, slices), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_slice", "sliced", error, tensor=tensor, slices=slices)
        raise


def bool_slice_assign(
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
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        value_ = value.primitive if value.kind is B.Bool else value.as_bool(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("bool_slice_assign", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_slice_assign(tensor_, slices, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "bool_slice_assign", "sliced", error, tensor=tensor, slices=slices, value=value
        )
        raise


def bool_cat(tensors: list[Tensor], dim: int) -> Tensor:
    """The tensors joined along dim (every other dim must match)."""
    try:
        ctx = merge_contexts(DISABLED, tensors)
        B: Backend = tensors[0].kind.routing or getattr(BACKENDS, tensors[0].kind.variant)
        tensors_ = [t.as_bool(tensors[0]) for t in tensors]
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_cat(tensors_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_cat", "cat", error, tensors=tensors, dim=dim)
        raise


def bool_unfold(tensor: Tensor, dim: int, size: int, step: int) -> Tensor:
    """Windows of `size` every `step` along dim, as [pre, windows, post, size]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_unfold(tensor_, dim, size, step),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_unfold", None, error, tensor=tensor, dim=dim, size=size, step=step)
        raise


def bool_gather(dim: int, tensor: Tensor, indices: Tensor) -> Tensor:
    """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_gather(dim, tensor_, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_gather", "indexed", error, dim=dim, tensor=tensor, indices=indices)
        raise


def bool_scatter_or(dim: int, tensor: Tensor, indices: Tensor, value: Tensor) -> Tensor:
    """scatter with logical or (burn's update add on bools)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Bool else value.as_bool(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("bool_scatter_or", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_scatter_or(dim, tensor_, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "bool_scatter_or",
            "indexed",
            error,
            dim=dim,
            tensor=tensor,
            indices=indices,
            value=value,
        )
        raise


def bool_select(tensor: Tensor, dim: int, indices: Tensor) -> Tensor:
    """The slices of dim at the 1-D `indices`, in their order (repeats allowed)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_select(tensor_, dim, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_select", "selected", error, tensor=tensor, dim=dim, indices=indices)
        raise


def bool_select_or(tensor: Tensor, dim: int, indices: Tensor, value: Tensor) -> Tensor:
    """select_assign with logical or (burn's update add on bools)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Bool else value.as_bool(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("bool_select_or", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_select_or(tensor_, dim, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "bool_select_or",
            "selected",
            error,
            tensor=tensor,
            dim=dim,
            indices=indices,
            value=value,
        )
        raise


def bool_mask_where(tensor: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    """value where mask is true, else tensor (all three broadcast)."""
    try:
        ctx = tensor.context.merge(mask.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        value_ = value.primitive if value.kind is B.Bool else value.as_bool(tensor)
        if tensor_.dtype is not mask_.dtype:
            check_dtypes("bool_mask_where", B.inner, tensor_, mask_)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("bool_mask_where", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_mask_where(tensor_, mask_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_mask_where", "broadcast", error, tensor=tensor, mask=mask, value=value)
        raise


def bool_mask_fill(tensor: Tensor, mask: Tensor, value: float) -> Tensor:
    """value where mask is true, else tensor (the mask broadcasts)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        if tensor_.dtype is not mask_.dtype:
            check_dtypes("bool_mask_fill", B.inner, tensor_, mask_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.bool_mask_fill(tensor_, mask_, value),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_mask_fill", "broadcast", error, tensor=tensor, mask=mask, value=value)
        raise


def bool_mask_select(tensor: Tensor, mask: Tensor) -> Tensor:
    """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        if tensor_.dtype is not mask_.dtype:
            check_dtypes("bool_mask_select", B.inner, tensor_, mask_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_mask_select(tensor_, mask_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_mask_select", None, error, tensor=tensor, mask=mask)
        raise


def bool_argwhere(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """The indices of the true elements, one row each, shape [count, rank]."""
    ctx = tensor.context
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
    out = new_tensor(Tensor)
    out.kind, out.primitive, out.context = B.Int, B.inner.bool_argwhere(tensor_, dtype), ctx
    return out


def bool_not(tensor: Tensor) -> Tensor:
    """Element-wise logical not."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_not(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_not", None, error, tensor=tensor)
        raise


def bool_and(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise logical and."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        rhs_ = rhs.primitive if rhs.kind is B.Bool else rhs.as_bool(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bool_and", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_and(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_and", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bool_or(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise logical or."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        rhs_ = rhs.primitive if rhs.kind is B.Bool else rhs.as_bool(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bool_or", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_or(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_or", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bool_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs == rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        rhs_ = rhs.primitive if rhs.kind is B.Bool else rhs.as_bool(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bool_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bool_xor(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise logical exclusive or."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        rhs_ = rhs.primitive if rhs.kind is B.Bool else rhs.as_bool(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bool_xor", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_xor(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_xor", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bool_not_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs != rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        rhs_ = rhs.primitive if rhs.kind is B.Bool else rhs.as_bool(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bool_not_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_not_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_not_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bool_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs == a bool."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def bool_not_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs != a bool."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Bool else lhs.as_bool()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.bool_not_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bool_not_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def bool_into_int(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """true -> 1, false -> 0."""
    ctx = tensor.context
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
    out = new_tensor(Tensor)
    out.kind, out.primitive, out.context = B.Int, B.inner.bool_into_int(tensor_, dtype), ctx
    return out


def bool_into_float(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """true -> 1.0, false -> 0.0 (an untracked leaf on an autodiff device)."""
    ctx = tensor.context
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if ctx is DISABLED:
        tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
        return Tensor(B.Float, B.inner.bool_into_float(tensor_, dtype), ctx)
    AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
    tensor_ = tensor.primitive if tensor.kind is B.Bool else tensor.as_bool()
    return Tensor(B.Autodiff, AD.bool_into_float(tensor_, dtype), ctx)


def bool_to_device(tensor: Tensor, device: DispatchDevice) -> Tensor:
    """The tensor on `device`."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    T: Backend = getattr(BACKENDS, device.variant)
    data = tensor.as_bool()
    if T is B:
        moved = B.inner.bool_to_device(data, device.inner)
    else:  # between backends
        moved = B.inner.move_across(data, T.inner, device.inner)
    return Tensor(T.Bool, moved, context_of(device))
