# @generated from ops.yaml by `python -m codegen`; do not edit. render=2f024eeb6cddb292 body=67818a66c65647bf
"""The int ops of the dispatch layer, one routing function per ops.yaml entry.

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
    "int_from_data",
    "int_zeros",
    "int_ones",
    "int_full",
    "int_arange",
    "int_arange_step",
    "int_empty",
    "int_random",
    "int_sum_dim",
    "int_prod",
    "int_prod_dim",
    "int_mean",
    "int_mean_dim",
    "int_max",
    "int_max_dim",
    "int_max_dim_with_indices",
    "int_min",
    "int_min_dim",
    "int_min_dim_with_indices",
    "int_max_abs",
    "int_max_abs_dim",
    "int_argmax",
    "int_argmin",
    "int_any",
    "int_any_dim",
    "int_all",
    "int_all_dim",
    "int_cumsum",
    "int_cumprod",
    "int_cummin",
    "int_cummax",
    "int_sort",
    "int_sort_with_indices",
    "int_argsort",
    "int_topk",
    "int_topk_with_indices",
    "int_argtopk",
    "int_reshape",
    "int_swap_dims",
    "int_transpose",
    "int_permute",
    "int_flip",
    "int_expand",
    "int_repeat_dim",
    "int_slice",
    "int_slice_assign",
    "int_cat",
    "int_unfold",
    "int_cast",
    "int_gather",
    "int_scatter",
    "int_scatter_add",
    "int_select",
    "int_select_assign",
    "int_select_add",
    "int_mask_where",
    "int_mask_fill",
    "int_mask_select",
    "int_gather_nd",
    "int_scatter_nd",
    "int_add",
    "int_add_scalar",
    "int_mul",
    "int_mul_scalar",
    "int_sum",
    "int_equal",
    "int_not_equal_elem",
    "int_greater_elem",
    "int_sub",
    "int_sub_scalar",
    "int_div",
    "int_div_scalar",
    "int_remainder",
    "int_remainder_scalar",
    "int_neg",
    "int_abs",
    "int_sign",
    "int_square",
    "int_powi",
    "int_powi_scalar",
    "int_powi_scalar_impl",
    "int_clamp",
    "int_clamp_min",
    "int_clamp_max",
    "int_matmul",
    "bitwise_and",
    "bitwise_and_scalar",
    "bitwise_or",
    "bitwise_or_scalar",
    "bitwise_xor",
    "bitwise_xor_scalar",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_left_shift_scalar",
    "bitwise_right_shift",
    "bitwise_right_shift_scalar",
    "int_equal_elem",
    "int_not_equal",
    "int_greater",
    "int_greater_equal",
    "int_greater_equal_elem",
    "int_lower",
    "int_lower_elem",
    "int_lower_equal",
    "int_lower_equal_elem",
    "int_into_float",
    "int_bitcast",
    "int_to_device",
]


def int_from_data(data: object, device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An int tensor holding a copy of `data`."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Int, B.inner.int_from_data(data, device.inner, dtype), context_of(device))


def int_zeros(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An int tensor of zeros."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Int, B.inner.int_zeros(shape, device.inner, dtype), context_of(device))


def int_ones(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An int tensor of ones."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Int, B.inner.int_ones(shape, device.inner, dtype), context_of(device))


def int_full(
    shape: tuple[int, ...], fill_value: int, device: DispatchDevice, dtype: np.dtype
) -> Tensor:
    """An int tensor filled with `fill_value`."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(
        B.Int, B.inner.int_full(shape, fill_value, device.inner, dtype), context_of(device)
    )


def int_arange(start: int, end: int, device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """The ints start, start + 1, ... below end (Tensor.arange with its default step)."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Int, B.inner.int_arange(start, end, device.inner, dtype), context_of(device))


def int_arange_step(
    start: int, end: int, step: int, device: DispatchDevice, dtype: np.dtype
) -> Tensor:
    """The ints start, start + step, ... below end; `step` is positive (burn's usize)."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(
        B.Int, B.inner.int_arange_step(start, end, step, device.inner, dtype), context_of(device)
    )


def int_empty(shape: tuple[int, ...], device: DispatchDevice, dtype: np.dtype) -> Tensor:
    """An uninitialised int tensor."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(B.Int, B.inner.int_empty(shape, device.inner, dtype), context_of(device))


def int_random(
    shape: tuple[int, ...], distribution: Distribution, device: DispatchDevice, dtype: np.dtype
) -> Tensor:
    """An int tensor sampled from `distribution` (uniform(lo, hi) gives ints in [lo, hi); normal samples are truncated)."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(
        B.Int, B.inner.int_random(shape, distribution, device.inner, dtype), context_of(device)
    )


def int_sum_dim(tensor: Tensor, dim: int) -> Tensor:
    """Sum along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_sum_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sum_dim", None, error, tensor=tensor, dim=dim)
        raise


def int_prod(tensor: Tensor) -> Tensor:
    """Product of all elements, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_prod(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_prod", None, error, tensor=tensor)
        raise


def int_prod_dim(tensor: Tensor, dim: int) -> Tensor:
    """Product along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_prod_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_prod_dim", None, error, tensor=tensor, dim=dim)
        raise


def int_mean(tensor: Tensor) -> Tensor:
    """Mean of all elements, truncated toward zero, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_mean(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mean", None, error, tensor=tensor)
        raise


def int_mean_dim(tensor: Tensor, dim: int) -> Tensor:
    """Mean along `dim`, truncated toward zero, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_mean_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mean_dim", None, error, tensor=tensor, dim=dim)
        raise


def int_max(tensor: Tensor) -> Tensor:
    """Largest element, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_max(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_max", "nonempty", error, tensor=tensor)
        raise


def int_max_dim(tensor: Tensor, dim: int) -> Tensor:
    """Largest element along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_max_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_max_dim", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_max_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(largest element, its index) along `dim`, keeping it; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out0, out1 = B.inner.int_max_dim_with_indices(tensor_, dim)
        return (Tensor(B.Int, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_max_dim_with_indices", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_min(tensor: Tensor) -> Tensor:
    """Smallest element, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_min(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_min", "nonempty", error, tensor=tensor)
        raise


def int_min_dim(tensor: Tensor, dim: int) -> Tensor:
    """Smallest element along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_min_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_min_dim", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_min_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """(smallest element, its index) along `dim`, keeping it; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out0, out1 = B.inner.int_min_dim_with_indices(tensor_, dim)
        return (Tensor(B.Int, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_min_dim_with_indices", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_max_abs(tensor: Tensor) -> Tensor:
    """Largest absolute value, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_max_abs(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_max_abs", "nonempty", error, tensor=tensor)
        raise


def int_max_abs_dim(tensor: Tensor, dim: int) -> Tensor:
    """Largest absolute value along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_max_abs_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_max_abs_dim", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_argmax(tensor: Tensor, dim: int) -> Tensor:
    """Index (int64) of the largest element along `dim`, kept; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_argmax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_argmax", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_argmin(tensor: Tensor, dim: int) -> Tensor:
    """Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_argmin(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_argmin", "nonempty", error, tensor=tensor, dim=dim)
        raise


def int_any(tensor: Tensor) -> Tensor:
    """Whether any element is non-zero, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_any(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_any", None, error, tensor=tensor)
        raise


def int_any_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether any element is non-zero along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_any_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_any_dim", None, error, tensor=tensor, dim=dim)
        raise


def int_all(tensor: Tensor) -> Tensor:
    """Whether every element is non-zero, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_all(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_all", None, error, tensor=tensor)
        raise


def int_all_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether every element is non-zero along `dim`, keeping it with size 1."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_all_dim(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_all_dim", None, error, tensor=tensor, dim=dim)
        raise


def int_cumsum(tensor: Tensor, dim: int) -> Tensor:
    """Running sum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cumsum(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cumsum", None, error, tensor=tensor, dim=dim)
        raise


def int_cumprod(tensor: Tensor, dim: int) -> Tensor:
    """Running product along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cumprod(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cumprod", None, error, tensor=tensor, dim=dim)
        raise


def int_cummin(tensor: Tensor, dim: int) -> Tensor:
    """Running minimum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cummin(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cummin", None, error, tensor=tensor, dim=dim)
        raise


def int_cummax(tensor: Tensor, dim: int) -> Tensor:
    """Running maximum along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cummax(tensor_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cummax", None, error, tensor=tensor, dim=dim)
        raise


def int_sort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """The elements sorted along `dim`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_sort(tensor_, dim, descending),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sort", None, error, tensor=tensor, dim=dim, descending=descending)
        raise


def int_sort_with_indices(tensor: Tensor, dim: int, descending: bool) -> tuple[Tensor, Tensor]:
    """(sorted elements, their indices) along `dim`; equal elements keep their order."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out0, out1 = B.inner.int_sort_with_indices(tensor_, dim, descending)
        return (Tensor(B.Int, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_sort_with_indices", None, error, tensor=tensor, dim=dim, descending=descending
        )
        raise


def int_argsort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """The indices (int64) that sort along `dim`; equal elements keep their order."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_argsort(tensor_, dim, descending),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_argsort", None, error, tensor=tensor, dim=dim, descending=descending)
        raise


def int_topk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The k largest elements along `dim`, largest first (burn-tensor's argument order)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_topk(tensor_, k, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_topk", None, error, tensor=tensor, k=k, dim=dim)
        raise


def int_topk_with_indices(tensor: Tensor, k: int, dim: int) -> tuple[Tensor, Tensor]:
    """(the k largest elements, their indices) along `dim`; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out0, out1 = B.inner.int_topk_with_indices(tensor_, k, dim)
        return (Tensor(B.Int, out0, ctx), Tensor(B.Int, out1, ctx))
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_topk_with_indices", None, error, tensor=tensor, k=k, dim=dim)
        raise


def int_argtopk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The indices (int64) of the k largest elements along `dim`; ties go to the lowest index."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_argtopk(tensor_, k, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_argtopk", None, error, tensor=tensor, k=k, dim=dim)
        raise


def int_reshape(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """The same elements in a new shape (-1 infers one dim)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_reshape(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_reshape", "reshape", error, tensor=tensor, shape=shape)
        raise


def int_swap_dims(tensor: Tensor, dim1: int, dim2: int) -> Tensor:
    """Swaps two dims."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_swap_dims(tensor_, dim1, dim2),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_swap_dims", None, error, tensor=tensor, dim1=dim1, dim2=dim2)
        raise


def int_transpose(tensor: Tensor) -> Tensor:
    """Swaps the last two dims."""
    return int_swap_dims(tensor, -2, -1)


def int_permute(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reorders the dims; dim i of the result is dim axes[i] of the tensor."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_permute(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_permute", None, error, tensor=tensor, axes=axes)
        raise


def int_flip(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Reverses the order of the elements along each of `axes`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_flip(tensor_, axes), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_flip", None, error, tensor=tensor, axes=axes)
        raise


def int_expand(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Broadcasts to `shape` (size-1 dims stretch; new dims go in front)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_expand(tensor_, shape), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_expand", None, error, tensor=tensor, shape=shape)
        raise


def int_repeat_dim(tensor: Tensor, dim: int, times: int) -> Tensor:
    """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b])."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_repeat_dim(tensor_, dim, times),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_repeat_dim", None, error, tensor=tensor, dim=dim, times=times)
        raise


def int_slice(tensor: Tensor, slices: tuple[tuple[int, int, int], ...]) -> Tensor:
    """The elements in `slices`, one per leading dim (ints keep their dim with size 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_slice(tensor_, slices), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_slice", "sliced", error, tensor=tensor, slices=slices)
        raise


def int_slice_assign(
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
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_slice_assign", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_slice_assign(tensor_, slices, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_slice_assign", "sliced", error, tensor=tensor, slices=slices, value=value
        )
        raise


def int_cat(tensors: list[Tensor], dim: int) -> Tensor:
    """The tensors joined along dim (every other dim must match)."""
    try:
        ctx = merge_contexts(DISABLED, tensors)
        B: Backend = tensors[0].kind.routing or getattr(BACKENDS, tensors[0].kind.variant)
        tensors_ = [t.as_int(tensors[0]) for t in tensors]
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cat(tensors_, dim), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cat", "cat", error, tensors=tensors, dim=dim)
        raise


def int_unfold(tensor: Tensor, dim: int, size: int, step: int) -> Tensor:
    """Windows of `size` every `step` along dim, as [pre, windows, post, size]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_unfold(tensor_, dim, size, step),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_unfold", None, error, tensor=tensor, dim=dim, size=size, step=step)
        raise


def int_cast(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """The tensor in another int dtype."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_cast(tensor_, dtype), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_cast", None, error, tensor=tensor, dtype=dtype)
        raise


def int_gather(dim: int, tensor: Tensor, indices: Tensor) -> Tensor:
    """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_gather(dim, tensor_, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_gather", "indexed", error, dim=dim, tensor=tensor, indices=indices)
        raise


def int_scatter(
    dim: int, tensor: Tensor, indices: Tensor, value: Tensor, update: IndexingUpdateOp
) -> Tensor:
    """A copy with tensor at `indices` along dim (update)= value (update assign or add)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_scatter", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_scatter(dim, tensor_, indices_, value_, update),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_scatter",
            "indexed",
            error,
            dim=dim,
            tensor=tensor,
            indices=indices,
            value=value,
            update=update,
        )
        raise


def int_scatter_add(dim: int, tensor: Tensor, indices: Tensor, value: Tensor) -> Tensor:
    """scatter with update add (repeated indices accumulate)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_scatter_add", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_scatter_add(dim, tensor_, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_scatter_add",
            "indexed",
            error,
            dim=dim,
            tensor=tensor,
            indices=indices,
            value=value,
        )
        raise


def int_select(tensor: Tensor, dim: int, indices: Tensor) -> Tensor:
    """The slices of dim at the 1-D `indices`, in their order (repeats allowed)."""
    try:
        ctx = (
            tensor.context
            if indices.context is tensor.context
            else tensor.context.merge(indices.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_select(tensor_, dim, indices_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_select", "selected", error, tensor=tensor, dim=dim, indices=indices)
        raise


def int_select_assign(
    tensor: Tensor, dim: int, indices: Tensor, value: Tensor, update: IndexingUpdateOp
) -> Tensor:
    """A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_select_assign", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_select_assign(tensor_, dim, indices_, value_, update),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_select_assign",
            "selected",
            error,
            tensor=tensor,
            dim=dim,
            indices=indices,
            value=value,
            update=update,
        )
        raise


def int_select_add(tensor: Tensor, dim: int, indices: Tensor, value: Tensor) -> Tensor:
    """select_assign with update add (repeated indices accumulate)."""
    try:
        ctx = tensor.context.merge(indices.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(tensor)
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_select_add", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_select_add(tensor_, dim, indices_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_select_add",
            "selected",
            error,
            tensor=tensor,
            dim=dim,
            indices=indices,
            value=value,
        )
        raise


def int_mask_where(tensor: Tensor, mask: Tensor, value: Tensor) -> Tensor:
    """value where mask is true, else tensor (all three broadcast)."""
    try:
        ctx = tensor.context.merge(mask.context).merge(value.context)
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        value_ = value.primitive if value.kind is B.Int else value.as_int(tensor)
        if tensor_.dtype is not value_.dtype:
            check_dtypes("int_mask_where", B.inner, tensor_, value_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_mask_where(tensor_, mask_, value_),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mask_where", "broadcast", error, tensor=tensor, mask=mask, value=value)
        raise


def int_mask_fill(tensor: Tensor, mask: Tensor, value: float) -> Tensor:
    """value where mask is true, else tensor (the mask broadcasts)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_mask_fill(tensor_, mask_, value),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mask_fill", "broadcast", error, tensor=tensor, mask=mask, value=value)
        raise


def int_mask_select(tensor: Tensor, mask: Tensor) -> Tensor:
    """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length)."""
    try:
        ctx = (
            tensor.context if mask.context is tensor.context else tensor.context.merge(mask.context)
        )
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        mask_ = mask.primitive if mask.kind is B.Bool else mask.as_bool(tensor)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_mask_select(tensor_, mask_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mask_select", None, error, tensor=tensor, mask=mask)
        raise


def int_gather_nd(data: Tensor, indices: Tensor) -> Tensor:
    """The slices of data at n-d indices (the last dim of indices indexes data's first dims)."""
    try:
        ctx = (
            data.context if indices.context is data.context else data.context.merge(indices.context)
        )
        B: Backend = data.kind.routing or getattr(BACKENDS, data.kind.variant)
        data_ = data.primitive if data.kind is B.Int else data.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_gather_nd(data_, indices_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_gather_nd", None, error, data=data, indices=indices)
        raise


def int_scatter_nd(
    data: Tensor, indices: Tensor, values: Tensor, reduction: IndexingUpdateOp
) -> Tensor:
    """A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add)."""
    try:
        ctx = data.context.merge(indices.context).merge(values.context)
        B: Backend = data.kind.routing or getattr(BACKENDS, data.kind.variant)
        data_ = data.primitive if data.kind is B.Int else data.as_int()
        indices_ = indices.primitive if indices.kind is B.Int else indices.as_int(data)
        values_ = values.primitive if values.kind is B.Int else values.as_int(data)
        if data_.dtype is not values_.dtype:
            check_dtypes("int_scatter_nd", B.inner, data_, values_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.int_scatter_nd(data_, indices_, values_, reduction),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract(
            "int_scatter_nd",
            None,
            error,
            data=data,
            indices=indices,
            values=values,
            reduction=reduction,
        )
        raise


def int_add(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise sum of ints, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_add", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_add(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_add", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_add_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Adds an int to every element."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_add_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_add_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_mul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise product of ints, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_mul", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_mul(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mul", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_mul_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Multiplies every element by an int."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_mul_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_mul_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_sum(tensor: Tensor) -> Tensor:
    """Sum of all elements, shape [1]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_sum(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sum", None, error, tensor=tensor)
        raise


def int_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs == rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_not_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs != scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_not_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_not_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_greater_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs > scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_greater_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_greater_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_sub(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise difference of ints, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_sub", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_sub(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sub", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_sub_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Subtracts an int from every element."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_sub_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sub_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_div(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise quotient of ints, truncated toward zero (as burn, not Python's //)."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_div", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_div(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_div", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_div_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Divides every element by an int, truncating toward zero."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_div_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_div_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_remainder(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise remainder with the divisor's sign (Python's %), broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_remainder", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_remainder(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_remainder", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_remainder_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Remainder of every element by an int, with the int's sign."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_remainder_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_remainder_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_neg(tensor: Tensor) -> Tensor:
    """Element-wise negation."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_neg(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_neg", None, error, tensor=tensor)
        raise


def int_abs(tensor: Tensor) -> Tensor:
    """Element-wise absolute value."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_abs(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_abs", None, error, tensor=tensor)
        raise


def int_sign(tensor: Tensor) -> Tensor:
    """Element-wise sign (-1, 0 or 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_sign(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_sign", None, error, tensor=tensor)
        raise


def int_square(tensor: Tensor) -> Tensor:
    """Element-wise x * x."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_square(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_square", None, error, tensor=tensor)
        raise


def int_powi(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs ** rhs; a negative exponent truncates as burn's float route (2 ** -1 == 0)."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_powi", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_powi(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_powi", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_powi_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Raises every element to an int power (burn's entry point; the generic case does the work)."""
    return int_powi_scalar_impl(lhs, rhs)


def int_powi_scalar_impl(lhs: Tensor, rhs: float) -> Tensor:
    """The generic case of int_powi_scalar; a negative exponent truncates as burn's float route."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_powi_scalar_impl(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_powi_scalar_impl", None, error, lhs=lhs, rhs=rhs)
        raise


def int_clamp(tensor: Tensor, min: float, max: float) -> Tensor:
    """Clamps every element into [min, max]."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_clamp(tensor_, min, max), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_clamp", None, error, tensor=tensor, min=min, max=max)
        raise


def int_clamp_min(tensor: Tensor, min: float) -> Tensor:
    """Raises every element below `min` to `min`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_clamp_min(tensor_, min), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_clamp_min", None, error, tensor=tensor, min=min)
        raise


def int_clamp_max(tensor: Tensor, max: float) -> Tensor:
    """Lowers every element above `max` to `max`."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_clamp_max(tensor_, max), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_clamp_max", None, error, tensor=tensor, max=max)
        raise


def int_matmul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Matrix product of ints over the last two dims, broadcasting the batch dims."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_matmul", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.int_matmul(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_matmul", "matmul", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_and(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise bitwise and, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bitwise_and", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_and(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_and", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_and_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Bitwise and of every element with an int."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_and_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_and_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def bitwise_or(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise bitwise or, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bitwise_or", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_or(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_or", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_or_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Bitwise or of every element with an int."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_or_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_or_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def bitwise_xor(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise bitwise exclusive or, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bitwise_xor", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_xor(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_xor", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_xor_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Bitwise exclusive or of every element with an int."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_xor_scalar(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_xor_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def bitwise_not(tensor: Tensor) -> Tensor:
    """Element-wise bitwise not (~x == -x - 1)."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_not(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_not", None, error, tensor=tensor)
        raise


def bitwise_left_shift(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs << rhs, broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bitwise_left_shift", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_left_shift(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_left_shift", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_left_shift_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Shifts every element left by an int."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.bitwise_left_shift_scalar(lhs_, rhs),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_left_shift_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def bitwise_right_shift(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs >> rhs (arithmetic, keeping the sign), broadcasting."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("bitwise_right_shift", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Int, B.inner.bitwise_right_shift(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_right_shift", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def bitwise_right_shift_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Shifts every element right by an int (arithmetic)."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Int,
            B.inner.bitwise_right_shift_scalar(lhs_, rhs),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("bitwise_right_shift_scalar", None, error, lhs=lhs, rhs=rhs)
        raise


def int_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs == scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_not_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs != rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_not_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_not_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_not_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_greater(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs > rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_greater", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_greater(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_greater", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_greater_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs >= rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_greater_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_greater_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_greater_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_greater_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs >= scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = (
            B.Bool,
            B.inner.int_greater_equal_elem(lhs_, rhs),
            ctx,
        )
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_greater_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_lower(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs < rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_lower", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_lower(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_lower", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_lower_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs < scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_lower_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_lower_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_lower_equal(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise lhs <= rhs."""
    try:
        ctx = lhs.context if rhs.context is lhs.context else lhs.context.merge(rhs.context)
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        rhs_ = rhs.primitive if rhs.kind is B.Int else rhs.as_int(lhs)
        if lhs_.dtype is not rhs_.dtype:
            check_dtypes("int_lower_equal", B.inner, lhs_, rhs_)
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_lower_equal(lhs_, rhs_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_lower_equal", "broadcast", error, lhs=lhs, rhs=rhs)
        raise


def int_lower_equal_elem(lhs: Tensor, rhs: float) -> Tensor:
    """Element-wise lhs <= scalar."""
    try:
        ctx = lhs.context
        B: Backend = lhs.kind.routing or getattr(BACKENDS, lhs.kind.variant)
        lhs_ = lhs.primitive if lhs.kind is B.Int else lhs.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Bool, B.inner.int_lower_equal_elem(lhs_, rhs), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_lower_equal_elem", None, error, lhs=lhs, rhs=rhs)
        raise


def int_into_float(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """Converts into a float tensor (an untracked leaf on an autodiff device)."""
    ctx = tensor.context
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    if ctx is DISABLED:
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        return Tensor(B.Float, B.inner.int_into_float(tensor_, dtype), ctx)
    AD = B.Balanced if ctx.strategy is BALANCED else B.NoCheckpointing
    tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
    return Tensor(B.Autodiff, AD.int_into_float(tensor_, dtype), ctx)


def int_bitcast(tensor: Tensor) -> Tensor:
    """The bits of each value read as a float of the same width (int32 -> float32, int64 -> float64), as ONNX's BitCast and numpy's view."""
    try:
        ctx = tensor.context
        B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
        tensor_ = tensor.primitive if tensor.kind is B.Int else tensor.as_int()
        out = new_tensor(Tensor)
        out.kind, out.primitive, out.context = B.Float, B.inner.int_bitcast(tensor_), ctx
        return out
    except (ValueError, RuntimeError, IndexError, MemoryError) as error:  # refused: say why
        check_contract("int_bitcast", None, error, tensor=tensor)
        raise


def int_to_device(tensor: Tensor, device: DispatchDevice) -> Tensor:
    """The tensor on `device`."""
    B: Backend = tensor.kind.routing or getattr(BACKENDS, tensor.kind.variant)
    T: Backend = getattr(BACKENDS, device.variant)
    data = tensor.as_int()
    if T is B:
        moved = B.inner.int_to_device(data, device.inner)
    else:  # between backends
        moved = B.inner.move_across(data, T.inner, device.inner)
    return Tensor(T.Int, moved, context_of(device))
