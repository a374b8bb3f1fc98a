"""The ONNX operators that have no single Tensor method, composed of Tensor methods and
`burnpy.generated.module` functions, so that they run on every backend and differentiate through the
catalogue's rules. Imported model code calls them as `ops.<name>`; nothing here imports onnx."""

from __future__ import annotations

import math

import numpy as np

from burnpy.onnx.ir import FLOATS as FLOAT_DTYPES, ML_DTYPES
from burnpy.generated import Tensor, module
from burnpy.onnx.draws import (  # noqa: F401
    bernoulli,
    dropout,
    dropout_if,
    multinomial,
    normal,
    uniform,
)
from burnpy.onnx.exporter.trace import data_values, note_dims, note_range

# compositions of their own modules, which model code calls as `ops.<name>` too
from burnpy.onnx.arrays import (
    feature_columns,
    gather_nd_batched,
    scatter_elements,
    tensor_scatter,
    unsigned_div,
)  # noqa: F401
from burnpy.onnx.pooling import col2im, max_unpool, pool, pool_indices  # noqa: F401
from burnpy.onnx.training import adagrad, adam, batch_norm_training, momentum, updates  # noqa: F401
from burnpy.onnx.spectral import dft, mel_weight_matrix, stft  # noqa: F401
from burnpy.onnx.sampling import affine_grid, grid_sample, roi_align  # noqa: F401

# The narrow ints held as int64, by width (uint64 needs no wrap: int64's bits are its bits).
WIDTHS = {"int8": 8, "int16": 16, "uint8": 8, "uint16": 16, "uint32": 32, "int4": 4, "uint4": 4, "int2": 2, "uint2": 2}  # fmt: skip


def device_of(model):
    """Where a model's tensors are: its first parameter's or buffer's device (so a model moved
    by `to_device`, or copied by `valid()`, makes its inputs there), else the device it was
    built for."""
    for value in vars(model).values():
        if isinstance(value, Tensor):
            return value.device()
    return model.device


def float_dtype(model, dtype: str) -> str:
    """The dtype of a model's floats: its first float parameter's or buffer's (so a model
    `cast` to another dtype takes its inputs in that one), else `dtype`, the file's."""
    for value in vars(model).values():
        if isinstance(value, Tensor) and value.dtype in FLOAT_DTYPES and not value.is_quantized():
            return str(value.dtype)
    return dtype


def tensor(value, dtype: str, device, name: str, shape) -> Tensor:
    """A model input as a Tensor of `dtype` on `device`: an array is converted to it, a float
    Tensor cast to it; its shape must have the declared rank and static dims (`shape`, None
    where a dim is dynamic or the rank unknown), as onnxruntime checks them."""
    if isinstance(value, Tensor):
        if value.dtype != dtype and value.dtype in FLOAT_DTYPES and dtype in FLOAT_DTYPES:
            value = value.cast(dtype)
    else:
        array = np.asarray(value)
        if dtype == "int64" and array.dtype == np.uint64:
            array = array.view(np.int64)  # uint64 is held as int64's bits
        value = Tensor.from_data(array.astype(dtype, copy=False), device=device, dtype=dtype)
    given = list(value.shape)
    if shape is not None and (
        len(given) != len(shape) or any(d is not None and d != g for d, g in zip(shape, given))
    ):
        declared = "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"
        raise ValueError(
            f"input {name!r} has shape {given}, but the model declares {declared} (a '?' dim "
            "is free; the others are fixed by the model, as onnxruntime checks them)"
        )
    return value


def gather_nd(x: Tensor, indices: Tensor) -> Tensor:
    """GatherND: the catalogue's gather_nd, and on a bool tensor (a transformer's attention
    mask) through its ints, since gather_nd only moves values."""
    if x.kind.tensor_kind.value == "Bool":
        return x.int().gather_nd(indices).bool()
    return x.gather_nd(indices)


def cast_narrow(x: Tensor, dtype: str, saturate: bool) -> Tensor:
    """x rounded to an 8- or 4-bit float of ml_dtypes (`saturate`: out-of-range values,
    infinities included, become the type's largest), held as float32 (round_to)."""
    return x.float("float32").round_to(dtype, saturate=saturate)


def constant(array, device) -> Tensor:
    """A constant of the graph, made on the device where it is used."""
    array = np.asarray(array)
    return Tensor.from_data(array, device=device, dtype=array.dtype)


def cast_e8m0(x: Tensor, saturate: bool, round_mode: str) -> Tensor:
    """x rounded to ONNX's float8e8m0, a power of two from 2^-127 to 2^127 (the sign
    dropped; NaN and the infinities become its NaN), as ONNX rounds: `round_mode` "up" (any
    fraction raises the exponent), "down" or "nearest"; with `saturate`, a value rounding past
    2^127 stays there (else it is NaN). Held as float32; on the host, not differentiable."""
    import ml_dtypes

    bits = data_values(x).astype(np.float32, copy=False).view(np.uint32)
    exponent = ((bits >> 23) & 0xFF).astype(np.uint16)
    special = exponent == 0xFF
    if round_mode == "up":
        up = (bits & 0x7FFFFF) > 0
    elif round_mode == "nearest":  # the guard bit, and a rest or an odd exponent (ties to even)
        up = ((bits & 0x400000) > 0) & (((bits & 0x3FFFFF) > 0) | (exponent > 0))
    else:
        up = np.zeros(bits.shape, dtype=bool)
    up &= ~special
    if saturate:
        up &= exponent != 0xFE
    held = np.where(special, 0xFF, exponent + up).astype(np.uint8)
    values = held.view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
    return Tensor.from_data(values, device=x.device().inner(), dtype="float32")


def wrap(x: Tensor, dtype: str) -> Tensor:
    """An int64 tensor holding an ONNX narrow int: wrapped to its width, as the narrow type's
    arithmetic would have (uint64 needs nothing: int64's bits are its bits)."""
    bits = WIDTHS.get(dtype)
    if bits is None:
        return x
    mask = (1 << bits) - 1
    if dtype.startswith("u"):
        return x.bitwise_and(mask)
    half = 1 << (bits - 1)
    return x.add(half).bitwise_and(mask).sub(half)


def shape(x: Tensor, start: int = 0, end: int | None = None) -> Tensor:
    """x's dims start..end as an int64 tensor."""
    dims = Tensor.from_data(np.array(x.shape[start:end], np.int64), device=x.device().inner())
    note_dims(dims, x, start, end)
    return dims


def unsqueeze(x: Tensor, axes) -> Tensor:
    """x with a dim of size 1 inserted at each of `axes` (counted in the result's rank)."""
    rank = x.ndim + len(axes)
    axes = sorted(a % rank for a in axes)
    dims = list(x.shape)
    for a in axes:
        dims.insert(a, 1)
    return x.reshape(dims)


def squeeze(x: Tensor, axes=None) -> Tensor:
    """x without the dims of size 1 at `axes` (every dim of size 1 when None)."""
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    drop = {a % x.ndim for a in axes}
    return x.reshape([d for i, d in enumerate(x.shape) if i not in drop])


def ints(x: Tensor) -> list:
    """An int tensor's values as Python ints (a shape, axes, pads given at run time)."""
    return [int(v) for v in np.asarray(x.to_numpy()).reshape(-1)]


def floats(x: Tensor) -> list:
    """A tensor's values as Python floats (scales, a region given at run time)."""
    return [float(v) for v in np.asarray(x.to_numpy()).reshape(-1)]


def reshape(x: Tensor, dims, allowzero: bool = False) -> Tensor:
    """ONNX Reshape: a 0 copies x's dim there (unless allowzero), one -1 is solved."""
    target = [x.shape[i] if (d == 0 and not allowzero) else d for i, d in enumerate(dims)]
    return x.reshape(target)


def tile(x: Tensor, repeats) -> Tensor:
    """x repeated `repeats[d]` times along each dim d."""
    for dim, times in enumerate(repeats):
        if times != 1:
            x = x.repeat_dim(dim, times)
    return x


def slice_(x: Tensor, starts, ends, axes=None, steps=None) -> Tensor:
    """ONNX Slice with its bounds read when the model runs (Python's clamping is ONNX's)."""
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis %= x.ndim
        if step < 0 and end < 0 and end + x.shape[axis] < 0:
            end = None
        index[axis] = slice(start, end, step)
    return x[tuple(index)]


def flatten(x: Tensor, axis: int) -> Tensor:
    """x as a matrix: the dims before `axis` as rows, the rest as columns."""
    axis = axis + x.ndim if axis < 0 else axis
    return x.reshape([math.prod(x.shape[:axis]), math.prod(x.shape[axis:])])


def expand(x: Tensor, dims) -> Tensor:
    """x broadcast with `dims` (ONNX Expand broadcasts both ways)."""
    target = np.broadcast_shapes(tuple(x.shape), tuple(int(d) for d in dims))
    return x if tuple(target) == tuple(x.shape) else x.expand(list(target))


def where(condition: Tensor, x: Tensor, y: Tensor) -> Tensor:
    """x where condition holds, else y (the three broadcast together)."""
    target = list(np.broadcast_shapes(condition.shape, x.shape, y.shape))
    return expand(y, target).mask_where(expand(condition, target), expand(x, target))


def maximum(x: Tensor, y: Tensor) -> Tensor:
    """The element-wise larger of x and y, broadcast; NaN wins."""
    return where(x.greater(y).bool_or(_nan(x)), x, y)


def minimum(x: Tensor, y: Tensor) -> Tensor:
    """The element-wise smaller of x and y, broadcast; NaN wins."""
    return where(x.lower(y).bool_or(_nan(x)), x, y)


def _nan(x: Tensor) -> Tensor:
    return x.is_nan() if x.kind.tensor_kind.value == "Float" else x.not_equal(x)


def fmod(x: Tensor, y: Tensor) -> Tensor:
    """C's fmod: the remainder with the dividend's sign."""
    if x.kind.tensor_kind.value == "Float":
        return x.sub(x.div(y).trunc().mul(y))
    return x.sub(x.div(y).mul(y))  # int division truncates toward zero


def matmul(x: Tensor, y: Tensor) -> Tensor:
    """numpy's matmul: a 1-d operand gains a dim for the product and loses it after."""
    if x.ndim == 1 and y.ndim == 1:
        return x.mul(y).sum().reshape([])
    if x.ndim == 1:
        return squeeze(x.reshape([1, -1]).matmul(y), [-2])
    if y.ndim == 1:
        return squeeze(x.matmul(y.reshape([-1, 1])), [-1])
    return x.matmul(y)


def gather(x: Tensor, indices: Tensor, axis: int) -> Tensor:
    """ONNX Gather: x's entries along `axis` at `indices` (any shape; negative counts from
    the end)."""
    axis %= x.ndim
    size = x.shape[axis]
    flat = indices.reshape([-1])
    flat = where(flat.lower_elem(0), flat.add(size), flat)
    picked = x.select(axis, flat)
    return picked.reshape(list(x.shape[:axis]) + list(indices.shape) + list(x.shape[axis + 1 :]))


def gather_elements(x: Tensor, indices: Tensor, axis: int) -> Tensor:
    """ONNX GatherElements (negative indices count from the end)."""
    axis %= x.ndim
    indices = where(indices.lower_elem(0), indices.add(x.shape[axis]), indices)
    return x.gather(axis, indices)


def gather_indices(x: Tensor, indices: Tensor, axis: int) -> Tensor:
    """Indices along `axis` with the negative ones counted from the end."""
    return where(indices.lower_elem(0), indices.add(x.shape[axis]), indices)


def max_pool_indices(x: Tensor, kernel_size, **options) -> tuple:
    """2-d max pooling and ONNX's Indices: each maximum's position in the flattened input."""
    values, indices = module.max_pool2d_with_indices(x, kernel_size, **options)
    n, c, h, w = x.shape
    planes = Tensor.arange(0, n * c, device=x.device().inner()).reshape([n, c, 1, 1])
    return values, indices.add(planes.mul(h * w))


def size(x: Tensor) -> Tensor:
    """The number of x's entries, as an int64 scalar tensor."""
    return Tensor.from_data(np.array(math.prod(x.shape), np.int64), device=x.device().inner())


def reduce(x: Tensor, how: str, axes, keepdims: bool, noop: bool = False) -> Tensor:
    """x reduced over `axes` (every dim when None or empty, unless `noop`) by `how`: sum,
    mean, max, min or prod; over an empty dim, the reduction's identity."""
    if not axes:
        if noop:
            return x
        axes = None
    axes = list(range(x.ndim)) if axes is None else sorted(a % x.ndim for a in axes)
    if x.kind.tensor_kind.value == "Bool":  # max: any, min: all
        if any(x.shape[a] == 0 for a in axes):  # any() of nothing is false, all() true
            return reduce_empty(x.int(), "prod" if how == "min" else "sum", axes, keepdims).bool()
        return reduce(x.int(), how, axes, keepdims).bool()
    if any(x.shape[a] == 0 for a in axes):
        return reduce_empty(x, how, axes, keepdims)
    if len(axes) > 1 and how != "prod" and axes == list(range(axes[0], axes[-1] + 1)):
        # a run of dims (a global pool's planes) as one: one reduction over contiguous rows,
        # not one per dim over strided ones
        shape = list(x.shape)
        run = math.prod(shape[a] for a in axes)
        x = x.reshape(shape[: axes[0]] + [run] + shape[axes[-1] + 1 :])
        out = getattr(x, f"{how}_dim")(axes[0])
        out = out.reshape([1 if i in axes else d for i, d in enumerate(shape)])
        return out if keepdims else squeeze(out, axes)
    out = x
    for a in axes:
        out = getattr(out, f"{how}_dim")(a)
    return out if keepdims else squeeze(out, axes)


def reduce_log_sum_exp(x: Tensor, axes, keepdims: bool, noop: bool = False) -> Tensor:
    """log(sum(exp(x))) over `axes`, computed from the maximum so that it does not overflow."""
    if not axes and noop:
        return x
    axes = list(range(x.ndim)) if not axes else sorted(a % x.ndim for a in axes)
    if any(x.shape[a] == 0 for a in axes):
        return reduce_empty(x, "sum", axes, keepdims).log()
    peak = reduce(x, "max", axes, True)
    out = reduce(x.sub(peak).exp(), "sum", axes, True).log().add(peak)
    return out if keepdims else squeeze(out, axes)


def reduce_empty(x: Tensor, how: str, axes, keepdims: bool) -> Tensor:
    """A reduction over a dim of size 0: ONNX's identity of the reduction."""
    dims = [1 if i in axes else d for i, d in enumerate(x.shape)]
    if not keepdims:
        dims = [d for i, d in enumerate(x.shape) if i not in axes]
    fill = {"sum": 0, "mean": math.nan, "prod": 1, "max": -math.inf, "min": math.inf}[how]
    if x.kind.tensor_kind.value != "Float" and how in ("max", "min"):
        info = np.iinfo(x.dtype)
        fill = info.min if how == "max" else info.max
    return Tensor.full(dims, fill, device=x.device(), dtype=x.dtype)


def arg(x: Tensor, how: str, axis: int, keepdims: bool, last: bool) -> Tensor:
    """ONNX ArgMax / ArgMin: the first (or, with `last`, the last) position of the extreme."""
    axis %= x.ndim
    if last:
        picked = getattr(x.flip([axis]), how)(axis)
        picked = picked.neg().add(x.shape[axis] - 1)
    else:
        picked = getattr(x, how)(axis)
    return picked if keepdims else squeeze(picked, [axis])


def split(x: Tensor, sizes, axis: int) -> tuple:
    """x cut along `axis` into pieces of `sizes`."""
    axis %= x.ndim
    pieces, start = [], 0
    for size in sizes:
        index = [slice(None)] * axis + [slice(start, start + size)]
        pieces.append(x[tuple(index)])
        start += size
    return tuple(pieces)


def split_sizes(length: int, parts: int) -> list:
    """ONNX's equal split: ceil(length / parts) each, the last one smaller."""
    size = -(-length // parts)
    return [min(size, length - i * size) for i in range(parts)]


def pad(x: Tensor, pads, mode: str = "constant", value=0.0, axes=None) -> Tensor:
    """x padded by pads (begins of each dim, then ends; a negative pad crops); with `axes`,
    pads covers those dims only."""
    rank = x.ndim
    if axes is not None:
        full = [0] * (2 * rank)
        for i, a in enumerate(axes):
            full[a % rank], full[rank + a % rank] = pads[i], pads[len(axes) + i]
        pads = full
    begins, ends = list(pads[:rank]), list(pads[rank:])
    crop = tuple(slice(max(-b, 0), d - max(-e, 0)) for b, e, d in zip(begins, ends, x.shape))
    if any(b < 0 or e < 0 for b, e in zip(begins, ends)):
        x = x[crop]
    for dim in range(rank):
        before, after = max(begins[dim], 0), max(ends[dim], 0)
        if before == 0 and after == 0:
            continue
        size = x.shape[dim]
        if mode == "constant":
            parts = []
            for count in (before, after):
                dims = list(x.shape)
                dims[dim] = count
                parts.append(Tensor.full(dims, value, device=x.device(), dtype=x.dtype))
            x = Tensor.cat([parts[0], x, parts[1]], dim)
            continue
        positions = np.arange(-before, size + after)
        if mode == "reflect":
            period = 2 * (size - 1) if size > 1 else 1
            positions = np.abs((positions + period) % period) if size > 1 else positions * 0
            positions = np.where(positions >= size, period - positions, positions)
        elif mode == "edge":
            positions = np.clip(positions, 0, size - 1)
        else:  # wrap
            positions = positions % size
        index = Tensor.from_data(positions.astype(np.int64), device=x.device().inner())
        x = x.select(dim, index)
    return x


def cumsum(x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    """ONNX CumSum: the running sum along `axis`, optionally exclusive and from the end."""
    axis %= x.ndim
    if reverse:
        x = x.flip([axis])
    out = x.cumsum(axis)
    if exclusive:
        out = out.sub(x)
    return out.flip([axis]) if reverse else out


def cumprod(x: Tensor, axis: int, exclusive: bool, reverse: bool) -> Tensor:
    """ONNX CumProd: the running product along `axis`, optionally exclusive and reversed."""
    axis %= x.ndim
    if reverse:
        x = x.flip([axis])
    if exclusive:
        ones = [1 if i == axis else d for i, d in enumerate(x.shape)]
        head = Tensor.full(ones, 1, device=x.device(), dtype=x.dtype)
        x = Tensor.cat([head, x[(slice(None),) * axis + (slice(0, x.shape[axis] - 1),)]], axis)
    out = x.cumprod(axis)
    return out.flip([axis]) if reverse else out


def full(dims, value, dtype: str, device) -> Tensor:
    """A tensor of `dims` filled with `value`."""
    dims = [int(d) for d in dims]
    if dtype == "bool":
        zeros = Tensor.zeros(dims, device=device, dtype="bool")
        return zeros.bool_not() if value else zeros
    return Tensor.full(dims, value, device=device, dtype=dtype)


def eye(rows: int, columns: int, k: int, dtype: str, device) -> Tensor:
    """ONNX EyeLike: ones on the k-th diagonal of a rows x columns matrix."""
    return Tensor.from_data(np.eye(rows, columns, k, dtype=dtype), device=device, dtype=dtype)


def layer_norm(x: Tensor, scale: Tensor, bias, axis: int, epsilon: float) -> tuple:
    """ONNX LayerNormalization over the dims from `axis` on: (y, mean, inverse std dev)."""
    axis %= x.ndim
    axes = list(range(axis, x.ndim))
    mean = reduce(x, "mean", axes, True)
    centred = x.sub(mean)
    variance = reduce(centred.square(), "mean", axes, True)
    inv = variance.add(epsilon).sqrt().recip()
    y = centred.mul(inv).mul(scale)
    return (y if bias is None else y.add(bias)), mean, inv


def rms_norm(x: Tensor, scale: Tensor, axis: int, epsilon: float) -> Tensor:
    """ONNX RMSNormalization over the dims from `axis` on: the catalogue's `rms_norm` (one
    kernel, and one fused kernel in a compiled capture) over the last dim with a [d] scale of
    x's float32 or float64, else composed."""
    last = axis % x.ndim == x.ndim - 1 and list(scale.shape) == [x.shape[-1]]
    if last and x.dtype == scale.dtype and x.dtype in (np.float32, np.float64):
        return module.rms_norm(x, scale, epsilon)
    axes = list(range(axis % x.ndim, x.ndim))
    return x.mul(reduce(x.square(), "mean", axes, True).add(epsilon).sqrt().recip()).mul(scale)


def instance_norm(x: Tensor, scale: Tensor, bias: Tensor, epsilon: float) -> Tensor:
    """ONNX InstanceNormalization: each sample's each channel normalised over its spatial dims."""
    axes = list(range(2, x.ndim))
    mean = reduce(x, "mean", axes, True)
    centred = x.sub(mean)
    variance = reduce(centred.square(), "mean", axes, True)
    per_channel = [-1] + [1] * (x.ndim - 2)
    y = centred.div(variance.add(epsilon).sqrt())
    return y.mul(scale.reshape(per_channel)).add(bias.reshape(per_channel))


def group_norm(x: Tensor, scale: Tensor, bias: Tensor, groups: int, epsilon: float) -> Tensor:
    """ONNX GroupNormalization (opset 21: scale and bias per channel)."""
    n, c = x.shape[0], x.shape[1]
    grouped = x.reshape([n, groups, -1])
    mean = grouped.mean_dim(2)
    centred = grouped.sub(mean)
    variance = centred.square().mean_dim(2)
    y = centred.div(variance.add(epsilon).sqrt()).reshape(list(x.shape))
    per_channel = [c] + [1] * (x.ndim - 2)
    return y.mul(scale.reshape(per_channel)).add(bias.reshape(per_channel))


def group_norm_per_group(x: Tensor, scale: Tensor, bias: Tensor, groups: int, epsilon: float):
    """ONNX GroupNormalization before opset 21: scale and bias per group, each for the channels
    of its group."""
    width = x.shape[1] // groups

    def spread(v: Tensor) -> Tensor:
        return v.reshape([groups, 1]).expand([groups, width]).reshape([groups * width])

    return group_norm(x, spread(scale), spread(bias), groups, epsilon)


def lp_norm(x: Tensor, axis: int, p: int) -> Tensor:
    """ONNX LpNormalization: x over its L1 or L2 norm along `axis` (a zero norm gives 0)."""
    norm = x.abs().sum_dim(axis) if p == 1 else x.square().sum_dim(axis).sqrt()
    return where(norm.equal_elem(0), norm, x.div(where(norm.equal_elem(0), norm.add(1), norm)))


def mean_variance_norm(x: Tensor, axes) -> Tensor:
    """ONNX MeanVarianceNormalization: (x - mean) / sqrt(variance) over `axes`."""
    mean = reduce(x, "mean", axes, True)
    variance = reduce(x.square(), "mean", axes, True).sub(mean.square())
    return x.sub(mean).div(variance.sqrt().add(1e-9))


def trilu(x: Tensor, k: int, upper: bool) -> Tensor:
    """The upper (or lower) triangle of the last two dims from diagonal k; zeros elsewhere."""
    rows, cols = x.shape[-2], x.shape[-1]
    keep = (
        np.triu(np.ones((rows, cols), bool), k)
        if upper
        else np.tril(np.ones((rows, cols), bool), k)
    )
    mask = Tensor.from_data(~keep, device=x.device().inner())
    return x.mask_fill(mask, 0)


def topk(x: Tensor, k: int, axis: int, largest: bool) -> tuple:
    """The k largest (or smallest) entries along `axis` and their positions, the lower
    position first among equals."""
    axis %= x.ndim
    if k == 0:
        dims = [0 if i == axis else d for i, d in enumerate(x.shape)]
        return Tensor.zeros(dims, device=x.device(), dtype=x.dtype), Tensor.zeros(
            dims, device=x.device().inner(), dtype="int64"
        )
    if largest:
        values, indices = x.sort_with_indices(axis, descending=True)
    else:
        values, indices = x.sort_with_indices(axis)
    index = (slice(None),) * axis + (slice(0, k),)
    return values[index], indices[index]


def hardmax(x: Tensor, axis: int) -> Tensor:
    """1 at the first largest entry along `axis`, 0 elsewhere."""
    axis %= x.ndim
    positions = Tensor.arange(0, x.shape[axis], device=x.device().inner())
    dims = [1] * x.ndim
    dims[axis] = x.shape[axis]
    hit = positions.reshape(dims).equal(x.argmax(axis))
    return Tensor.zeros(list(x.shape), device=x.device(), dtype=x.dtype).mask_fill(hit, 1)


def one_hot(indices: Tensor, depth: int, values: Tensor, axis: int) -> Tensor:
    """ONNX OneHot: values[1] where the position along `axis` equals the index, else values[0]."""
    rank = indices.ndim + 1
    axis %= rank
    indices = where(indices.lower_elem(0), indices.add(depth), indices)
    positions = Tensor.arange(0, depth, device=indices.device().inner())
    dims = [1] * rank
    dims[axis] = depth
    hit = positions.reshape(dims).equal(unsqueeze(indices, [axis]))
    off, on = values[0], values[1]
    return where(hit, on, off)


def depth_to_space(x: Tensor, block: int, mode: str) -> Tensor:
    """ONNX DepthToSpace (DCR or CRD order)."""
    n, c, h, w = x.shape
    if mode == "DCR":
        y = x.reshape([n, block, block, c // block**2, h, w]).permute([0, 3, 4, 1, 5, 2])
    else:
        y = x.reshape([n, c // block**2, block, block, h, w]).permute([0, 1, 4, 2, 5, 3])
    return y.reshape([n, c // block**2, h * block, w * block])


def space_to_depth(x: Tensor, block: int, mode: str = "DCR") -> Tensor:
    """ONNX SpaceToDepth (DCR or CRD order)."""
    n, c, h, w = x.shape
    y = x.reshape([n, c, h // block, block, w // block, block])
    y = y.permute([0, 3, 5, 1, 2, 4] if mode == "DCR" else [0, 1, 3, 5, 2, 4])
    return y.reshape([n, c * block * block, h // block, w // block])


def nll_loss(x: Tensor, target: Tensor, weight, reduction: str, ignore_index) -> Tensor:
    """ONNX NegativeLogLikelihoodLoss: -x[n, target[n, ...], ...] weighted, then reduced."""
    picked = x.gather(
        1, unsqueeze(where(_ignored(target, ignore_index), target.mul(0), target), [1])
    )
    loss = squeeze(picked, [1]).neg()
    if weight is None:
        weights = Tensor.ones(list(target.shape), device=x.device(), dtype=x.dtype)
    else:
        weights = gather(weight, where(_ignored(target, ignore_index), target.mul(0), target), 0)
    if ignore_index is not None:
        weights = weights.mask_fill(target.equal_elem(ignore_index), 0)
    loss = loss.mul(weights)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum().reshape([])
    return loss.sum().div(weights.sum()).reshape([])


def _ignored(target: Tensor, ignore_index) -> Tensor:
    if ignore_index is None:
        return target.not_equal(target)
    return target.equal_elem(ignore_index)


def softmax_cross_entropy(x: Tensor, target: Tensor, weight, reduction: str, ignore_index) -> tuple:
    """ONNX SoftmaxCrossEntropyLoss: (loss, log-probabilities)."""
    log_prob = x.log_softmax(1)
    return nll_loss(log_prob, target, weight, reduction, ignore_index), log_prob


def attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask=None,
    past_key=None,
    past_value=None,
    nonpad_kv_seqlen=None,
    *,
    q_heads=None,
    kv_heads=None,
    scale=None,
    softcap=0.0,
    is_causal=False,
    left_window=-1,
    right_window=-1,
    qk_mode=0,
) -> tuple:
    """ONNX Attention: (output, present key, present value, the qk scores of `qk_mode`).
    3-d inputs are split into heads; grouped key/value heads repeat; the causal and window
    masks align bottom-right after a cache; a row with no key to attend gives 0."""
    three = q.ndim == 3
    if three:
        b = q.shape[0]
        q = q.reshape([b, q.shape[1], q_heads, -1]).permute([0, 2, 1, 3])
        k = k.reshape([b, k.shape[1], kv_heads, -1]).permute([0, 2, 1, 3])
        v = v.reshape([b, v.shape[1], kv_heads, -1]).permute([0, 2, 1, 3])
    if past_key is not None:
        k, v = Tensor.cat([past_key, k], 2), Tensor.cat([past_value, v], 2)
    present_key, present_value = k, v
    heads, groups = q.shape[1], k.shape[1]
    if heads != groups:
        k, v = _repeat_heads(k, heads // groups), _repeat_heads(v, heads // groups)
    rows, cols = q.shape[2], k.shape[2]
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    root = float(np.asarray(math.sqrt(scale), dtype=q.dtype))
    scores = q.mul(root).matmul(k.mul(root).swap_dims(-1, -2))
    if softcap:
        scores = scores.div(softcap).tanh().mul(softcap)
    if nonpad_kv_seqlen is not None:
        offset = np.array(ints(nonpad_kv_seqlen)).reshape(-1, 1, 1, 1) - rows
    else:
        offset = np.array(past_key.shape[2] if past_key is not None else 0).reshape(1, 1, 1, 1)
    step = offset + np.arange(rows).reshape(-1, 1) - np.arange(cols)  # query pos - key pos
    allowed = np.ones(step.shape, bool)
    if is_causal:
        allowed &= step >= 0
    if left_window >= 0:
        allowed &= step <= left_window
    if right_window >= 0:
        allowed &= -step <= right_window
    if nonpad_kv_seqlen is not None:
        allowed = allowed & (
            np.arange(cols) < np.array(ints(nonpad_kv_seqlen)).reshape(-1, 1, 1, 1)
        )
    bias = np.where(allowed, 0.0, -np.inf).astype(q.dtype)
    bias = Tensor.from_data(bias, device=q.device().inner(), dtype=q.dtype)
    if mask is not None:
        if mask.kind.tensor_kind.value == "Bool":
            mask = where(mask, mask.float(q.dtype).mul(0), mask.float(q.dtype).mul(0).sub(math.inf))
        if mask.shape[-1] < cols:
            mask = pad(
                mask, [0] * (2 * mask.ndim - 1) + [cols - mask.shape[-1]], "constant", -math.inf
            )
        bias = bias.add(mask)
    biased = scores.add(bias)
    probs = biased.softmax(-1)
    no_key = bias.max_dim(bias.ndim - 1).is_inf()
    probs = where(no_key, _zeros_like(probs), probs)
    out = probs.matmul(v)
    if three:
        out = out.permute([0, 2, 1, 3])
        out = out.reshape([out.shape[0], out.shape[1], -1])
    qk = {0: scores, 1: scores, 2: biased, 3: probs}[qk_mode]
    return out, present_key, present_value, qk


def _zeros_like(x: Tensor) -> Tensor:
    return Tensor.zeros(list(x.shape), device=x.device(), dtype=x.dtype)


def _repeat_heads(x: Tensor, times: int) -> Tensor:
    b, h, s, d = x.shape
    return unsqueeze(x, [2]).expand([b, h, times, s, d]).reshape([b, h * times, s, d])


def _compute_dtype(dtype: str) -> str:
    """The float the recurrent and fused attention ops accumulate in: float64 stays, the
    16-bit floats and float32 compute in float32, as ONNX's reference does."""
    return "float64" if dtype == "float64" else "float32"


def _as(x: Tensor, dtype) -> Tensor:
    """x in float `dtype` (x itself when it is already)."""
    return x if x.dtype == dtype else x.float(dtype)


def _heads(x: Tensor, heads: int) -> Tensor:
    """(B, T, H * D) -> (B, H, T, D)."""
    b, t, packed = x.shape
    if packed % heads:
        raise ValueError(f"a last dim of {packed} does not split into {heads} heads")
    return x.reshape([b, t, heads, packed // heads]).permute([0, 2, 1, 3])


def linear_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    past_state=None,
    decay=None,
    beta=None,
    *,
    q_heads: int,
    kv_heads: int,
    scale: float = 0.0,
) -> tuple:
    """ONNX LinearAttention: (output, present state). The state S (B, H_kv, d_k, d_v) runs
    over the tokens: decayed by exp(decay) when a decay is given, corrected towards the value
    by beta times the error S^T k when a beta is given, then S += k v^T; each output is
    scale q^T S, a group of query heads reading its key/value head's state. Computed in
    float32 (float64 stays), one step per token as the recurrence is defined."""
    dtype, compute = query.dtype, _compute_dtype(query.dtype)
    state_dtype = past_state.dtype if past_state is not None else dtype
    b, t = query.shape[0], query.shape[1]
    q = _heads(_as(query, compute), q_heads)
    k = _heads(_as(key, compute), kv_heads)
    v = _heads(_as(value, compute), kv_heads)
    dk, dv, group = k.shape[3], v.shape[3], q_heads // kv_heads
    if q.shape[3] != dk:
        raise ValueError(f"query heads of {q.shape[3]} features and key heads of {dk} differ")
    q = q.mul(float(scale) if scale else 1.0 / math.sqrt(dk))
    if decay is not None:
        width = decay.shape[2]
        if width not in (kv_heads, kv_heads * dk):
            raise ValueError(
                f"decay's last dim is {width}; it must be kv_num_heads ({kv_heads}) or "
                f"kv_num_heads * d_k ({kv_heads * dk})"
            )
        # (B, H_kv, d_k or 1, T): a token's gate is a column that scales the state's rows.
        decay = _heads(_as(decay, compute), kv_heads).exp().permute([0, 1, 3, 2])
    if beta is not None:
        if beta.shape[2] not in (kv_heads, 1):
            raise ValueError(
                f"beta's last dim is {beta.shape[2]}; it must be kv_num_heads ({kv_heads}) or 1"
            )
        beta = _heads(_as(beta, compute), beta.shape[2])
    if past_state is not None:
        if list(past_state.shape) != [b, kv_heads, dk, dv]:
            raise ValueError(
                f"past_state has shape {list(past_state.shape)}; it must be "
                f"{[b, kv_heads, dk, dv]} (batch, kv heads, d_k, d_v)"
            )
        state = _as(past_state, compute)
    else:
        state = Tensor.zeros([b, kv_heads, dk, dv], device=query.device(), dtype=compute)
    outputs = []
    for i in range(t):
        k_i, v_i = k[:, :, i : i + 1], v[:, :, i : i + 1]
        if decay is not None:
            state = state.mul(decay[:, :, :, i : i + 1])
        if beta is not None:
            v_i = beta[:, :, i : i + 1].mul(v_i.sub(k_i.matmul(state)))
        state = state.add(k_i.swap_dims(2, 3).mul(v_i))
        read = q[:, :, i : i + 1].reshape([b, kv_heads, group, dk]).matmul(state)
        outputs.append(read.reshape([b, q_heads, 1, dv]))
    if outputs:
        out = Tensor.cat(outputs, 2).permute([0, 2, 1, 3]).reshape([b, t, q_heads * dv])
    else:
        out = Tensor.zeros([b, 0, q_heads * dv], device=query.device(), dtype=compute)
    return _as(out, dtype), _as(state, state_dtype)


def causal_conv_with_state(x: Tensor, weight: Tensor, bias=None, past_state=None, *, silu=False) -> tuple:  # fmt: skip
    """ONNX CausalConvWithState: (output, present state). Each channel convolved with its own
    kernel over the carried state (zeros without one) followed by x, so output t sees x up to
    t; the present state is the last k - 1 positions of that sequence. The 16-bit floats
    convolve in float32, rounded once (the activation on the rounded value, as ONNX's
    reference computes it)."""
    dtype = x.dtype
    b, channels, length = x.shape
    carry = weight.shape[2] - 1
    if past_state is None:
        past_state = Tensor.zeros([b, channels, carry], device=x.device(), dtype=dtype)
    elif list(past_state.shape) != [b, channels, carry]:
        raise ValueError(
            f"past_state has shape {list(past_state.shape)}; it must be {[b, channels, carry]} "
            f"(batch, channels, kernel size - 1)"
        )
    padded = Tensor.cat([past_state, x], 2)
    compute = _compute_dtype(dtype)
    if bias is not None:
        bias = _as(bias, compute)
    out = module.conv1d(_as(padded, compute), _as(weight, compute), bias, groups=channels)
    out = _as(out, dtype)
    if silu:
        wide = _as(out, compute)
        out = _as(wide.mul(wide.sigmoid()), dtype)
    return out, padded[:, :, length:]


def flex_scores(q: Tensor, k: Tensor, scale, dtype: str) -> Tensor:
    """FlexAttention's scores (B, H_q, L, S) in the softmax's float `dtype`: q and k each
    scaled by sqrt(scale) (1 / sqrt(head size) when None) in their own float, grouped key
    heads repeated."""
    heads, groups = q.shape[1], k.shape[1]
    if heads % groups:
        raise ValueError(f"{heads} query heads do not group over {groups} key heads")
    if heads != groups:
        k = _repeat_heads(k, heads // groups)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    root = float(np.asarray(np.sqrt(np.float32(scale)), dtype=q.dtype))
    return _as(q.mul(root).matmul(k.mul(root).swap_dims(-1, -2)), dtype)


def flex_output(probs: Tensor, v: Tensor) -> Tensor:
    """FlexAttention's output: probs @ v in the softmax's float, in v's float."""
    heads, groups = probs.shape[1], v.shape[1]
    if heads != groups:
        v = _repeat_heads(v, heads // groups)
    return _as(probs.matmul(_as(v, probs.dtype)), v.dtype)


def flex_attention(q: Tensor, k: Tensor, v: Tensor, scale, dtype: str) -> Tensor:
    """FlexAttention without modifiers: softmax(q k^T scale) v, the softmax in `dtype`."""
    return flex_output(flex_scores(q, k, scale, dtype).softmax(-1), v)


def range_(start: Tensor, limit: Tensor, delta: Tensor, dtype: str, device) -> Tensor:
    """ONNX Range: start, start + delta, ... before limit (scalar tensors, read)."""
    first, last, step = start.item(), limit.item(), delta.item()
    count = max(int(math.ceil((float(last) - float(first)) / float(step))), 0)
    values = np.asarray(first, dtype) + np.arange(count).astype(dtype) * np.asarray(step, dtype)
    values = Tensor.from_data(values.astype(dtype), device=device, dtype=dtype)
    note_range(values, start, limit, delta)
    return values


def resize(
    x: Tensor,
    *,
    scales=None,
    sizes=None,
    roi=None,
    axes=None,
    mode: str = "nearest",
    coordinate: str = "half_pixel",
    nearest: str = "round_prefer_floor",
    cubic: float = -0.75,
    exclude_outside: bool = False,
    antialias: bool = False,
    extrapolation: float = 0.0,
    policy: str = "stretch",
) -> Tensor:
    """ONNX Resize: each resized axis in turn is multiplied by an interpolation matrix
    [out, in] computed from the sizes (so every mode differentiates as a matmul)."""
    rank = x.ndim
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    lengths = [x.shape[a] for a in axes]
    if sizes is not None:
        sizes = list(sizes)[-len(axes) :]
        ratios = [size / length for size, length in zip(sizes, lengths)]
        if policy != "stretch":
            ratio = min(ratios) if policy == "not_larger" else max(ratios)
            ratios = [ratio] * len(axes)
            sizes = [int(math.floor(ratio * length + 0.5)) for length in lengths]
    else:
        ratios = [float(s) for s in list(scales)[-len(axes) :]]
        sizes = [int(math.floor(length * r)) for length, r in zip(lengths, ratios)]
    for i, axis in enumerate(axes):
        box = None if roi is None else (roi[i], roi[len(axes) + i])
        if sizes[i] == lengths[i] and ratios[i] == 1 and coordinate != "tf_crop_and_resize":
            continue
        weights, outside = _resize_weights(
            lengths[i], sizes[i], ratios[i], box, mode, coordinate, nearest, cubic,
            exclude_outside, antialias,
        )  # fmt: skip
        matrix = Tensor.from_data(weights.T.astype(x.dtype), device=x.device(), dtype=x.dtype)
        moved = x.swap_dims(axis, rank - 1) if axis != rank - 1 else x
        moved = moved.matmul(matrix)
        if outside.any():
            fill = Tensor.from_data(outside * extrapolation, device=x.device(), dtype=x.dtype)
            moved = moved.add(fill.reshape([1] * (rank - 1) + [-1]))
        x = moved.swap_dims(axis, rank - 1) if axis != rank - 1 else moved
    return x


def _source_positions(length, size, ratio, box, coordinate) -> np.ndarray:
    """Where each output position samples the input (ONNX's coordinate transformations)."""
    i = np.arange(size, dtype=np.float64)
    if coordinate == "align_corners":
        return i * (length - 1) / (length * ratio - 1) if size > 1 else np.zeros(size)
    if coordinate == "asymmetric":
        return i / ratio
    if coordinate == "pytorch_half_pixel":
        return (i + 0.5) / ratio - 0.5 if size > 1 else np.zeros(size)
    if coordinate == "half_pixel_symmetric":
        adjustment = size / (ratio * length)
        offset = length / 2 * (1 - adjustment)
        return offset + (i + 0.5) / ratio - 0.5
    if coordinate == "tf_crop_and_resize":
        start, end = box
        if size == 1:
            return np.full(size, 0.5 * (start + end) * (length - 1))
        return start * (length - 1) + i * (end - start) * (length - 1) / (size - 1)
    return (i + 0.5) / ratio - 0.5  # half_pixel


def _resize_weights(length, size, ratio, box, mode, coordinate, nearest, cubic, exclude, antialias):
    """The [size, length] interpolation matrix, and which outputs fall outside the input (a
    crop's extrapolation)."""
    positions = _source_positions(length, size, ratio, box, coordinate)
    weights = np.zeros((size, length))
    outside = np.zeros(size, bool)
    if coordinate == "tf_crop_and_resize":
        outside = (positions < 0) | (positions > length - 1)
    for row, x in enumerate(positions):
        if outside[row]:
            continue
        if mode == "nearest":
            if nearest == "floor":
                j = math.floor(x)
            elif nearest == "ceil":
                j = math.ceil(x)
            elif nearest == "round_prefer_ceil":
                j = math.floor(x + 0.5)
            else:
                j = math.ceil(x - 0.5)
            weights[row, min(max(j, 0), length - 1)] = 1.0
            continue
        support = 1.0 if mode == "linear" else 2.0
        scale = min(ratio, 1.0) if antialias else 1.0
        base = math.floor(x)
        first = int(math.floor(-support / scale) + 1)
        taps = base + np.arange(first, 2 - first if mode == "linear" else 4 - first - 2)
        distances = np.abs((taps - x) * scale)
        if mode == "linear":
            values = np.maximum(0.0, 1.0 - distances)
        else:
            a = cubic
            values = np.where(
                distances <= 1,
                ((a + 2) * distances - (a + 3)) * distances**2 + 1,
                np.where(
                    distances < 2,
                    ((a * distances - 5 * a) * distances + 8 * a) * distances - 4 * a,
                    0.0,
                ),
            )
        if exclude:
            values = np.where((taps < 0) | (taps > length - 1), 0.0, values)
        total = values.sum()
        if antialias or exclude:
            values = values / total if total else values
        for tap, value in zip(np.clip(taps, 0, length - 1), values):
            weights[row, tap] += value
    return weights, outside


def einsum(equation: str, *operands: Tensor) -> Tensor:
    """numpy's einsum, composed: each operand's repeated labels become its diagonal, every
    operand is laid out over all the labels, multiplied, and the labels not kept are summed."""
    inputs, arrow, output = equation.replace(" ", "").partition("->")
    terms = inputs.split(",")
    spare = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    ellipsis = ""
    labelled = []
    for term, x in zip(terms, operands):
        if "..." in term:
            count = x.ndim - (len(term) - 3)
            while len(ellipsis) < count:
                ellipsis += next(spare)
            term = term.replace("...", ellipsis[len(ellipsis) - count :])
        labelled.append(term)
    if not arrow:
        once = sorted(c for c in set("".join(labelled)) if "".join(labelled).count(c) == 1)
        output = ellipsis + "".join(c for c in once if c not in ellipsis)
    output = output.replace("...", ellipsis)
    order = []
    for c in "".join(labelled):
        if c not in order:
            order.append(c)
    laid_out = []
    for term, x in zip(labelled, operands):
        term, x = _diagonals(term, x)
        dims = [1] * len(order)
        for c, size in zip(term, x.shape):
            dims[order.index(c)] = size
        permuted = sorted(range(len(term)), key=lambda i: order.index(term[i]))
        x = x.permute(permuted) if permuted != list(range(len(term))) else x
        laid_out.append(x.reshape(dims))
    product = laid_out[0]
    for x in laid_out[1:]:
        product = product.mul(x)
    summed = [i for i, c in enumerate(order) if c not in output]
    for i in summed:
        product = product.sum_dim(i)
    kept = [c for c in order if c in output]
    product = product.reshape([d for i, d in enumerate(product.shape) if i not in summed])
    permutation = [kept.index(c) for c in output]
    return product.permute(permutation) if permutation != list(range(len(kept))) else product


def _diagonals(term: str, x: Tensor):
    """A term whose label repeats (`ii`) as its diagonal, the repeated dim summed away."""
    while len(set(term)) < len(term):
        label = next(c for c in term if term.count(c) > 1)
        first = term.index(label)
        second = term.index(label, first + 1)
        size = x.shape[first]
        dims = [1] * x.ndim
        dims[first], dims[second] = size, size
        eye = Tensor.from_data(
            np.eye(size).reshape(dims).astype(x.dtype), device=x.device(), dtype=x.dtype
        )
        x = squeeze(x.mul(eye).sum_dim(second), [second])
        term = term[:second] + term[second + 1 :]
    return term, x


def lp_pool(x: Tensor, kernel, p: int, *, stride, begins, ends) -> Tensor:
    """ONNX LpPool: the p-norm of each window, from the mean of |x|^p over it (the padding
    counts as zeros, which add nothing to the norm)."""
    d = x.ndim - 2
    powered = x.abs().powf(float(p))
    if list(begins) != list(ends):
        powered = pad(powered, [0, 0] + list(begins) + [0, 0] + list(ends))
        begins = [0] * d
    pool = module.avg_pool1d if d == 1 else module.avg_pool2d
    mean = pool(powered, kernel, stride=stride, padding=list(begins), count_include_pad=True)
    return mean.mul(float(math.prod(kernel))).powf(1.0 / p)


def rotary_embedding(x: Tensor, cos: Tensor, sin: Tensor, positions=None, *, interleaved=False, heads=0, dim=0) -> Tensor:  # fmt: skip
    """ONNX RotaryEmbedding: pairs of each head's first `dim` features rotated by the angles
    of their positions (halves, or interleaved pairs)."""
    shape = x.shape
    if x.ndim == 4:
        x = x.permute([0, 2, 1, 3])
    else:
        x = x.reshape([shape[0], shape[1], heads, -1])
    head = x.shape[3]
    dim = dim or head
    rotate, keep = x[:, :, :, :dim], x[:, :, :, dim:]
    if positions is not None:
        cos, sin = gather(cos, positions, 0), gather(sin, positions, 0)
    cos, sin = unsqueeze(cos, [2]), unsqueeze(sin, [2])
    if interleaved:
        x1, x2 = rotate[:, :, :, 0::2], rotate[:, :, :, 1::2]
    else:
        x1, x2 = rotate[:, :, :, : dim // 2], rotate[:, :, :, dim // 2 :]
    real = cos.mul(x1).sub(sin.mul(x2))
    imag = sin.mul(x1).add(cos.mul(x2))
    if interleaved:
        rotated = Tensor.cat([unsqueeze(real, [-1]), unsqueeze(imag, [-1])], 4).reshape(
            list(rotate.shape)
        )
    else:
        rotated = Tensor.cat([real, imag], 3)
    out = Tensor.cat([rotated, keep], 3) if keep.shape[3] else rotated
    return out.reshape(list(shape)) if len(shape) == 3 else out.permute([0, 2, 1, 3])


def center_crop_pad(x: Tensor, sizes, axes) -> Tensor:
    """ONNX CenterCropPad: each of `axes` cropped or zero-padded, centred, to its size."""
    pads = [0] * (2 * x.ndim)
    for size, axis in zip(sizes, axes):
        axis %= x.ndim
        diff = size - x.shape[axis]
        if diff >= 0:
            pads[axis], pads[x.ndim + axis] = diff // 2, diff - diff // 2
        else:
            crop = -diff
            pads[axis], pads[x.ndim + axis] = -(crop // 2), -(crop - crop // 2)
    return pad(x, pads)


def swiglu(a: Tensor, b: Tensor, alpha: float) -> Tensor:
    """ONNX SwiGLU: swish(a) (with slope alpha) times b."""
    return a.mul(a.mul(alpha).sigmoid()).mul(b)


def window(kind: str, size: int, periodic: bool, dtype: str, device) -> Tensor:
    """ONNX's Hann, Hamming and Blackman windows."""
    n = np.arange(size)
    length = size if periodic else size - 1
    angle = 2 * np.pi * n / max(length, 1)
    if kind == "hann":
        values = 0.5 - 0.5 * np.cos(angle)
    elif kind == "hamming":
        values = 25 / 46 - 21 / 46 * np.cos(angle)
    else:
        values = 0.42 - 0.5 * np.cos(angle) + 0.08 * np.cos(2 * angle)
    return Tensor.from_data(values.astype(dtype), device=device, dtype=dtype)


def reverse_sequence(x: Tensor, lengths, batch_axis: int, time_axis: int) -> Tensor:
    """ONNX ReverseSequence: each batch entry's first `lengths[b]` steps reversed."""
    rows = []
    for b, length in enumerate(lengths):
        index = [slice(None)] * x.ndim
        index[batch_axis] = slice(b, b + 1)
        row = x[tuple(index)]
        order = np.concatenate([np.arange(length)[::-1], np.arange(length, x.shape[time_axis])])
        rows.append(
            row.select(
                time_axis, Tensor.from_data(order.astype(np.int64), device=x.device().inner())
            )
        )
    return Tensor.cat(rows, batch_axis)


def compress(x: Tensor, condition: Tensor, axis=None) -> Tensor:
    """ONNX Compress: the entries along `axis` (of the flattened x when None) where the
    condition holds (its shape follows the data)."""
    if axis is None:
        x, axis = x.reshape([-1]), 0
    kept = np.nonzero(data_values(condition).astype(bool))[0]
    kept = kept[kept < x.shape[axis]].astype(np.int64)
    return x.select(axis, Tensor.from_data(kept, device=x.device().inner()))


def nonzero(x: Tensor) -> Tensor:
    """ONNX NonZero: the positions of the non-zero entries, one row per dim."""
    found = np.stack(np.nonzero(data_values(x))).astype(np.int64)
    return Tensor.from_data(found.reshape(x.ndim, -1), device=x.device().inner())


def non_max_suppression(
    boxes: Tensor, scores: Tensor, most: int, iou: float, least_score, center: bool
) -> Tensor:
    """ONNX NonMaxSuppression: per batch and class, the boxes taken greedily by score (the
    lower box index first among equals), each dropped when its IoU with one already taken
    exceeds `iou`, at most `most`; only scores above `least_score` (None: all) take part.
    [batch, class, box] rows, int64 (their number follows the data)."""
    corners, table = data_values(boxes), data_values(scores)
    rows = []
    for batch in range(corners.shape[0]):
        overlaps = _suppresses(corners[batch], center, iou)
        for klass in range(table.shape[1]):
            row = table[batch, klass]
            order = np.lexsort((np.arange(row.size), -row.astype(np.float64)))
            if least_score is not None:
                order = order[row[order] > least_score]
            taken = []
            for box in order:
                if len(taken) >= most:
                    break
                if not overlaps[box, taken].any():
                    taken.append(box)
            rows += [(batch, klass, box) for box in taken]
    found = np.array(rows, dtype=np.int64).reshape(-1, 3)
    return Tensor.from_data(found, device=boxes.device().inner())


def _suppresses(boxes: np.ndarray, center: bool, iou: float) -> np.ndarray:
    """[i, j]: whether boxes i and j overlap by an IoU above `iou` (computed in the boxes'
    dtype, as ONNX's reference does: no overlap for an empty intersection or box)."""
    if center:
        half_w, half_h = boxes[:, 2] / 2, boxes[:, 3] / 2
        x_min, x_max = boxes[:, 0] - half_w, boxes[:, 0] + half_w
        y_min, y_max = boxes[:, 1] - half_h, boxes[:, 1] + half_h
    else:  # any two opposite corners: [y1, x1, y2, x2]
        x_min, x_max = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
        y_min, y_max = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    width = np.minimum(x_max[:, None], x_max[None]) - np.maximum(x_min[:, None], x_min[None])
    height = np.minimum(y_max[:, None], y_max[None]) - np.maximum(y_min[:, None], y_min[None])
    area = (x_max - x_min) * (y_max - y_min)
    with np.errstate(all="ignore"):
        inter = width * height
        union = area[:, None] + area[None] - inter
        ratio = inter / union
    valid = (width > 0) & (height > 0) & (inter > 0) & (area[:, None] > 0) & (area[None] > 0)
    return valid & (union > 0) & (ratio > iou)


def unique(x: Tensor, axis, ordered: bool) -> tuple:
    """ONNX Unique: the distinct entries of the flattened x (or slices along `axis`), sorted
    or in the order they first occur, the position of each one's first occurrence, where each
    entry's value is among them, and how often each occurs (their number follows the data)."""
    values = data_values(x).astype(np.float64 if x.dtype in FLOAT_DTYPES else np.int64)
    if axis is None:
        x, values, axis = x.reshape([-1]), values.reshape(-1), 0
    axis %= x.ndim
    _, first, inverse, counts = np.unique(values, True, True, True, axis=axis)
    inverse = inverse.reshape(-1)
    if not ordered:  # in the order of their first occurrence
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        first, counts, inverse = first[order], counts[order], rank[inverse]
    device = x.device().inner()
    first, inverse, counts = (
        Tensor.from_data(a.astype(np.int64), device=device) for a in (first, inverse, counts)
    )
    return x.select(axis, first), first, inverse, counts


def lrn(x: Tensor, size: int, alpha: float, beta: float, bias: float) -> Tensor:
    """ONNX LRN: x over (bias + alpha / size * the sum of squares of its neighbouring
    channels) ** beta."""
    squares = x.square()
    before, after = (size - 1) // 2, size - 1 - (size - 1) // 2
    padded = pad(squares, [0, before] + [0] * (x.ndim - 2) + [0, after] + [0] * (x.ndim - 2))
    channels = x.shape[1]
    total = padded[:, 0:channels]
    for shift in range(1, size):
        total = total.add(padded[:, shift : shift + channels])
    return x.div(total.mul(alpha / size).add(bias).powf(beta))


def recurrent(
    kind: str,
    x: Tensor,
    w: Tensor,
    r: Tensor,
    b=None,
    lengths=None,
    h0=None,
    c0=None,
    peepholes=None,
    *,
    hidden: int,
    direction: str = "forward",
    layout: int = 0,
    linear_before_reset: bool = False,
    clip=None,
) -> tuple:
    """ONNX RNN, GRU and LSTM with their default activations, unrolled over the sequence:
    (Y, Y_h, Y_c). A batch entry past its length keeps its state and outputs zeros."""
    if layout:
        x = x.swap_dims(0, 1)
        h0 = None if h0 is None else h0.swap_dims(0, 1)
        c0 = None if c0 is None else c0.swap_dims(0, 1)
    steps, batch = x.shape[0], x.shape[1]
    directions = 2 if direction == "bidirectional" else 1
    gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[kind]
    live = None
    if lengths is not None:
        counts = np.array(ints(lengths))
        live = [
            Tensor.from_data((t < counts).reshape(batch, 1), device=x.device().inner())
            for t in range(steps)
        ]
    outputs, finals, cells = [], [], []
    for d in range(directions):
        wt, rt = w[d].transpose(), r[d].transpose()
        wb = rb = None
        if b is not None:
            wb, rb = b[d][: gates * hidden], b[d][gates * hidden :]
        h = h0[d] if h0 is not None else _zeros(x, [batch, hidden])
        c = c0[d] if c0 is not None else _zeros(x, [batch, hidden])
        order = range(steps - 1, -1, -1) if direction == "reverse" or d == 1 else range(steps)
        ys = [None] * steps
        for t in order:
            xg = x[t].matmul(wt)
            xg = xg if wb is None else xg.add(wb)
            new_h, new_c = _cell(kind, xg, h, c, r[d], rt, rb, peepholes, d, hidden, linear_before_reset, clip)  # fmt: skip
            if live is not None:
                new_h = where(live[t], new_h, h)
                new_c = where(live[t], new_c, c)
                ys[t] = where(live[t], new_h, new_h.mul(0))
            else:
                ys[t] = new_h
            h, c = new_h, new_c
        outputs.append(Tensor.cat([unsqueeze(y, [0]) for y in ys], 0))
        finals.append(unsqueeze(h, [0]))
        cells.append(unsqueeze(c, [0]))
    y = Tensor.cat([unsqueeze(o, [1]) for o in outputs], 1)  # [steps, directions, batch, hidden]
    y_h, y_c = Tensor.cat(finals, 0), Tensor.cat(cells, 0)
    if layout:
        y = y.permute([2, 0, 1, 3])
        y_h, y_c = y_h.swap_dims(0, 1), y_c.swap_dims(0, 1)
    return y, y_h, y_c


def _zeros(like: Tensor, dims) -> Tensor:
    return Tensor.zeros(dims, device=like.device(), dtype=like.dtype)


def _clipped(x: Tensor, clip) -> Tensor:
    return x if clip is None else x.clamp(-clip, clip)


def _cell(kind, xg, h, c, r, rt, rb, peepholes, d, hidden, linear_before_reset, clip):
    """One step of a cell: the new hidden state and cell state."""
    if kind == "RNN":
        hg = h.matmul(rt)
        hg = hg if rb is None else hg.add(rb)
        return _clipped(xg.add(hg), clip).tanh(), c
    if kind == "GRU":
        xz, xr, xn = (xg[:, i * hidden : (i + 1) * hidden] for i in range(3))
        rz, rr, rn = (r[i * hidden : (i + 1) * hidden].transpose() for i in range(3))
        bz, br, bn = (None, None, None) if rb is None else (rb[i * hidden : (i + 1) * hidden] for i in range(3))  # fmt: skip
        z = _clipped(_biased(xz.add(h.matmul(rz)), bz), clip).sigmoid()
        reset = _clipped(_biased(xr.add(h.matmul(rr)), br), clip).sigmoid()
        if linear_before_reset:
            candidate = xn.add(reset.mul(_biased(h.matmul(rn), bn)))
        else:
            candidate = xn.add(_biased(reset.mul(h).matmul(rn), bn))
        n = _clipped(candidate, clip).tanh()
        return n.sub(z.mul(n)).add(z.mul(h)), c
    hg = h.matmul(rt)
    g = xg.add(hg if rb is None else hg.add(rb))
    gi, go, gf, gc = (g[:, k * hidden : (k + 1) * hidden] for k in range(4))
    if peepholes is not None:
        pi, po, pf = (peepholes[d][k * hidden : (k + 1) * hidden] for k in range(3))
        gi, gf = gi.add(pi.mul(c)), gf.add(pf.mul(c))
    i, f = _clipped(gi, clip).sigmoid(), _clipped(gf, clip).sigmoid()
    new_c = f.mul(c).add(i.mul(_clipped(gc, clip).tanh()))
    if peepholes is not None:
        go = go.add(po.mul(new_c))
    o = _clipped(go, clip).sigmoid()
    return o.mul(new_c.tanh()), new_c


def _biased(x: Tensor, bias) -> Tensor:
    return x if bias is None else x.add(bias)


# -- quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear --------------------------

# The integer types ONNX quantizes to, and their ranges (a result saturates to them).
QUANT_RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767), "uint4": (0, 15), "int4": (-8, 7), "uint2": (0, 3), "int2": (-2, 1)}  # fmt: skip


def quant_param(p: Tensor, shape, axis: int, block_size: int = 0) -> Tensor:
    """A scale or zero point laid out to broadcast over a tensor of `shape`: one value for the
    whole tensor, a vector along `axis`, or (with `block_size`) one value per block of
    `block_size` along `axis`, the last block possibly shorter."""
    rank = len(shape)
    if p.numel() == 1:
        return p.reshape([1] * rank)
    if not block_size:
        dims = [1] * rank
        dims[axis] = p.numel()
        return p.reshape(dims)
    dims = list(p.shape)
    repeated = p.unsqueeze_dim(axis + 1).expand(dims[: axis + 1] + [block_size] + dims[axis + 1 :])
    merged = repeated.reshape(dims[:axis] + [dims[axis] * block_size] + dims[axis + 1 :])
    return merged.narrow(axis, 0, shape[axis])


def quantize_linear(
    x: Tensor,
    scale: Tensor,
    zero_point,
    dtype: str,
    axis: int = 1,
    block_size: int = 0,
    saturate: bool = True,
    precision: str | None = None,
) -> Tensor:
    """ONNX's QuantizeLinear: round(x / scale) (half to even) + zero_point, saturated to
    `dtype`'s range (an int type, held as int64), or x / scale rounded to an 8- or 4-bit float
    (held as float32, saturated unless `saturate` is False; of those only float4e2m1 adds its
    zero point). The division is in `precision`, else in x's dtype (float32 when x and the
    scale differ)."""
    axis = axis % x.ndim if x.ndim else 0
    if precision is not None or scale.dtype != x.dtype:  # numpy's promotion, or as told
        x, scale = x.float(precision or "float32"), scale.float(precision or "float32")
    q = x.div(quant_param(scale, x.shape, axis, block_size))
    if zero_point is not None:
        zero_point = quant_param(zero_point, x.shape, axis, block_size).float(x.dtype)
    if dtype in QUANT_RANGES:
        q = q.round()
        q = q.add(zero_point) if zero_point is not None else q
        low, high = QUANT_RANGES[dtype]
        return q.clamp(low, high).int("int64")
    if dtype == "float4e2m1" and zero_point is not None:
        q = q.add(zero_point)
    return cast_narrow(q, ML_DTYPES[dtype], saturate or dtype == "float4e2m1")


def dequantize_linear(
    x: Tensor, scale: Tensor, zero_point, axis: int = 1, block_size: int = 0, dtype=None
) -> Tensor:
    """ONNX's DequantizeLinear: (x - zero_point) * scale in float32, given as `dtype` (the
    scale's by default). An 8- or 4-bit float x (held as float32) has no zero point."""
    axis = axis % x.ndim if x.ndim else 0
    values = x.float("float32") if x.tensor_kind().value == "Int" else x
    if zero_point is not None and x.tensor_kind().value == "Int":
        values = values.sub(quant_param(zero_point, x.shape, axis, block_size).float("float32"))
    scale32 = quant_param(scale, x.shape, axis, block_size).float("float32")
    y = values.mul(scale32)
    dtype = dtype or scale.dtype
    return y if dtype == "float32" else y.float(dtype)


def dynamic_quantize_linear(x: Tensor) -> tuple:
    """ONNX's DynamicQuantizeLinear: uint8 values, their scale and zero point, from the range
    of x stretched to hold 0 (the scale is 1 when x is all zeros)."""
    high = x.max().clamp_min(0.0)
    low = x.min().clamp_max(0.0)
    spread = high.sub(low)
    scale = spread.mask_fill(spread.equal_elem(0.0), 1.0).div_scalar(255.0)
    zero_point = low.neg().div(scale).clamp(0.0, 255.0).round()
    y = x.div(scale).round().add(zero_point).clamp(0.0, 255.0).int("int64")
    return y, scale.reshape([]), zero_point.int("int64").reshape([])


def integer_operand(x: Tensor, zero_point=None, axis: int | None = None) -> Tensor:
    """x - zero_point in float64, which holds the products and sums of the integer ops that
    follow exactly; a vector zero point applies along `axis` (a matrix's rows, a convolution
    weight's output channels)."""
    x = x.float("float64")
    if zero_point is None:
        return x
    zero_point = zero_point.float("float64")
    if axis is not None and zero_point.ndim == 1 and zero_point.numel() > 1:
        zero_point = quant_param(zero_point, x.shape, axis)
    return x.sub(zero_point)


def requantize(accumulated: Tensor, scale: Tensor, zero_point, dtype: str) -> Tensor:
    """An integer result (float64) times `scale`, plus `zero_point`, rounded half to even and
    saturated to `dtype` (held as int64)."""
    y = accumulated.mul(scale.float("float64"))
    if zero_point is not None:
        y = y.add(zero_point.float("float64"))
    low, high = QUANT_RANGES[dtype]
    return y.round().clamp(low, high).int("int64")


def matmul_integer(a: Tensor, b: Tensor, a_zero_point=None, b_zero_point=None) -> Tensor:
    """ONNX's MatMulInteger: (a - a_zero_point) @ (b - b_zero_point), exact, as int32; a's
    zero point per tensor or per row, b's per tensor or per column."""
    product = matmul(integer_operand(a, a_zero_point, a.ndim - 2), integer_operand(b, b_zero_point))
    return product.round().int("int32")


def qlinear_matmul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point, dtype: str) -> Tensor:  # fmt: skip
    """ONNX's QLinearMatMul: the integer product rescaled by a_scale * b_scale / y_scale
    (computed in the scales' dtype), plus y_zero_point, saturated to `dtype`."""
    product = matmul(integer_operand(a, a_zero_point, a.ndim - 2), integer_operand(b, b_zero_point))
    return requantize(product, a_scale.mul(b_scale).div(y_scale), y_zero_point, dtype)


def qlinear_conv_scale(x_scale: Tensor, w_scale: Tensor, y_scale: Tensor, rank: int) -> Tensor:
    """QLinearConv's x_scale * w_scale / y_scale, w_scale per tensor or per output channel."""
    w_scale = quant_param(w_scale, [0] * rank, 1)
    return x_scale.reshape([1] * rank).mul(w_scale).div(y_scale.reshape([1] * rank))


# -- control flow (burnpy/onnx/flow.py) ---------------------------------------------------------


def truth(condition: Tensor) -> bool:
    """An If's or a Loop's condition (a bool tensor of one element) as a Python bool."""
    values = np.asarray(condition.to_numpy()).reshape(-1)
    if values.size != 1:
        raise ValueError(f"a condition holds one value; this one has shape {list(condition.shape)}")  # fmt: skip
    return bool(values[0])


def iteration(step: int, device) -> Tensor:
    """A Loop body's iteration number: an int64 scalar."""
    return Tensor.from_data(np.array(step, dtype=np.int64), device=device, dtype="int64")


def condition(going: bool, device) -> Tensor:
    """A Loop body's condition input: a bool scalar."""
    return Tensor.from_data(np.array(going), device=device, dtype="bool")


def length(x: Tensor, axis: int) -> int:
    """How many slices a Scan takes of `x` along `axis`."""
    return int(x.shape[axis])


def step_slice(x: Tensor, step: int, axis: int, reverse: bool) -> Tensor:
    """A Scan input's slice number `step` along `axis` (counted from the end when `reverse`),
    without that axis."""
    index = x.shape[axis] - 1 - step if reverse else step
    return squeeze(slice_(x, [index], [index + 1], [axis]), [axis])


def stacked(steps: list, axis: int, reverse: bool, dtype: str, shape, device) -> Tensor:
    """A loop's per-iteration outputs stacked along a new `axis` (in reverse order when
    `reverse`); no iteration gives an empty tensor of the declared per-iteration `shape`."""
    if not steps:
        if shape is None or None in shape:
            raise ValueError(
                "a loop that ran no iteration gives a scan output whose shape the model does "
                "not declare"
            )
        dims = list(shape)
        dims.insert(axis, 0)
        return full(dims, 0, dtype, device)
    parts = [unsqueeze(s, [axis]) for s in (steps[::-1] if reverse else steps)]
    return Tensor.cat(parts, axis)


# -- sequences (burnpy/onnx/sequences.py) --------------------------------------------------------


def sequence(values, dtype: str, device, name: str) -> list:
    """A model input that is a sequence: a list of Tensors of `dtype` on `device`."""
    if not isinstance(values, list | tuple):
        raise ValueError(f"input {name!r} is a sequence: give a list of tensors")
    return [tensor(v, dtype, device, name, None) for v in values]


def position(items: list, at: Tensor, insert: bool = False) -> int:
    """A sequence position (negative from the end) as a list index, checked as ONNX does:
    -n..n-1 (-n..n for an insert)."""
    index, count = ints(at)[0], len(items) + (1 if insert else 0)
    if not -count <= index < count:
        raise IndexError(f"position {index} is outside a sequence of {len(items)} tensors")
    return index + count if index < 0 else index


def sequence_insert(items: list, value: Tensor, at) -> list:
    """ONNX SequenceInsert: a new list with `value` at `at` (the end when None)."""
    index = len(items) if at is None else position(items, at, insert=True)
    return items[:index] + [value] + items[index:]


def sequence_erase(items: list, at) -> list:
    """ONNX SequenceErase: a new list without the tensor at `at` (the last when None)."""
    index = len(items) - 1 if at is None else position(items, at)
    if index < 0:
        raise IndexError("SequenceErase of an empty sequence")
    return items[:index] + items[index + 1 :]


def sequence_length(items: list, device) -> Tensor:
    return Tensor.from_data(np.array(len(items), dtype=np.int64), device=device, dtype="int64")


def split_to_sequence(x: Tensor, sizes, axis: int, keepdims: bool) -> list:
    """ONNX SplitToSequence: pieces of `sizes` (a tensor; one size: pieces of it, the last
    shorter; None: pieces of one, without the axis unless `keepdims`)."""
    axis %= x.ndim
    length = x.shape[axis]
    if sizes is None:
        pieces = list(split(x, [1] * length, axis))
        return pieces if keepdims else [squeeze(p, [axis]) for p in pieces]
    given = ints(sizes)
    if np.asarray(sizes.to_numpy()).ndim == 0:
        size = given[0]
        given = [size] * (length // size) + ([length % size] if length % size else [])
    if sum(given) != length or any(s < 0 for s in given):
        raise ValueError(f"split sizes {given} do not add up to axis {axis}'s length {length}")
    return list(split(x, given, axis))


def concat_from_sequence(items: list, axis: int, new_axis: bool) -> Tensor:
    """ONNX ConcatFromSequence: the tensors joined along `axis`, a new one when `new_axis`."""
    if not items:
        raise ValueError("ConcatFromSequence of an empty sequence")
    if new_axis:
        axis = axis + items[0].ndim + 1 if axis < 0 else axis
        return Tensor.cat([unsqueeze(t, [axis]) for t in items], axis)
    return Tensor.cat(list(items), axis)


# -- optionals (burnpy/onnx/sequences.py) --------------------------------------------------------


def optional(value, dtype: str, device, name: str, is_sequence: bool):
    """A model input that is optional: None, or a sequence or tensor read as one."""
    if value is None:
        return None
    return sequence(value, dtype, device, name) if is_sequence else tensor(value, dtype, device, name, None)  # fmt: skip


def has_element(value, device) -> Tensor:
    """ONNX OptionalHasElement: whether an optional holds a value, a bool scalar."""
    return Tensor.from_data(np.array(value is not None), device=device, dtype="bool")


def get_element(value):
    """ONNX OptionalGetElement: the value an optional holds."""
    if value is None:
        raise ValueError("OptionalGetElement of an empty optional")
    return value
