"""ONNX's operators beyond a single Tensor method on arrays and their indices, composed of Tensor
methods: GatherND over batch dims, ScatterElements with a multiplying, min or max reduction,
TensorScatter (a cache's rows written at each batch's position), ai.onnx.ml's
ArrayFeatureExtractor, and the division of uint64 values held as int64's bits. Model code calls them as `ops.<name>`
(burnpy/onnx/ops.py imports them)."""

from __future__ import annotations

import math

import numpy as np

from burnpy.generated import Tensor


def _grid(shape, axis: int, device) -> Tensor:
    """Each position's coordinate along `axis` of a tensor of `shape`, shape [*shape, 1]."""
    return Tensor.from_data(np.indices(shape, dtype=np.int64)[axis][..., None], device=device)


def gather_nd_batched(x: Tensor, indices: Tensor, batch_dims: int) -> Tensor:
    """ONNX GatherND with `batch_dims`: the leading batch dims of x and indices pair up, and
    each index tuple reads within its own batch entry (flattened into one batch dim, whose
    position joins the tuple)."""
    batch = list(x.shape[:batch_dims])
    depth = indices.shape[-1]
    count = math.prod(batch)
    tuples = indices.reshape([count, -1, depth])
    where = _grid([count, tuples.shape[1]], 0, x.device().inner())
    picked = x.reshape([count] + list(x.shape[batch_dims:])).gather_nd(Tensor.cat([where, tuples], 2))  # fmt: skip
    return picked.reshape(list(indices.shape[:-1]) + list(x.shape[batch_dims + depth :]))


def scatter_elements(x: Tensor, indices: Tensor, updates: Tensor, axis: int, reduction: str) -> Tensor:  # fmt: skip
    """ONNX ScatterElements with any reduction, as scatter_nd: each update's full coordinate
    is its own position with `axis` replaced by its index (negative ones from the end)."""
    axis %= x.ndim
    indices = indices.add(indices.lower_elem(0).int().mul_scalar(x.shape[axis]))
    device = x.device().inner()
    parts = [
        indices.unsqueeze_dim(x.ndim) if j == axis else _grid(indices.shape, j, device)
        for j in range(x.ndim)
    ]
    return x.scatter_nd(Tensor.cat(parts, x.ndim), updates, reduction)


def tensor_scatter(cache: Tensor, update: Tensor, positions, axis: int, circular: bool) -> Tensor:
    """ONNX TensorScatter: for each batch entry b, update[b]'s rows written into cache[b] along
    `axis` from positions[b] (0 when absent) on, wrapping around the axis when `circular`.
    The positions stay on the device (data, not a shape): one scatter along `axis` whose index
    is positions[b] + 0, 1, ... A linear write past the end (undefined in ONNX) is refused by
    the scatter's index check, as onnxruntime's ScatterElements refuses it."""
    axis %= cache.ndim
    rows = steps_along(update, axis)
    if positions is not None:
        rows = rows.add(along(positions.cast("int64"), cache.ndim, 0))
    if circular:
        rows = rows.remainder(cache.shape[axis])
    at = rows.expand(list(update.shape))
    return cache.scatter(axis, at, update, "assign")


def steps_along(x: Tensor, axis: int) -> Tensor:
    """0, 1, ... along x's `axis` (int64), shaped to broadcast against x."""
    return along(Tensor.arange(0, x.shape[axis], device=x.device().inner()), x.ndim, axis)


def along(v: Tensor, rank: int, axis: int) -> Tensor:
    """The vector v laid along `axis` of a rank-`rank` tensor (size 1 in the other dims)."""
    dims = [1] * rank
    dims[axis] = -1
    return v.reshape(dims)


def feature_columns(x: Tensor, indices: Tensor) -> Tensor:
    """ai.onnx.ml ArrayFeatureExtractor: x's entries at `indices` along its last axis (a 1-d
    x gives one row)."""
    picked = x.select(x.ndim - 1, indices.reshape([-1]))
    return picked.reshape([1, -1]) if x.ndim == 1 else picked


def unsigned_div(a: Tensor, b: Tensor) -> Tensor:
    """a // b of uint64 values held as int64's bits, in int64 arithmetic: a divisor of 2^63 or
    more goes into a at most once; any other divides a halved (a logical shift, so the
    dividend fits), the doubled quotient then short by at most one."""
    top = -(2**63)  # xor with it orders unsigned values as signed ones
    half = a.bitwise_right_shift_scalar(1).bitwise_and_scalar(2**63 - 1)
    quotient = half.div(b).mul_scalar(2)
    rest = a.sub(quotient.mul(b))
    short = rest.bitwise_xor_scalar(top).greater_equal(b.bitwise_xor_scalar(top))
    quotient = quotient.add(short.int())
    once = a.bitwise_xor_scalar(top).greater_equal(b.bitwise_xor_scalar(top)).int()
    return once.mask_where(b.lower_elem(0).bool_not(), quotient)
