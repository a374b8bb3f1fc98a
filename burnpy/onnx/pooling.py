"""Pooling of any number of spatial dims, composed of Tensor methods, for what the catalogue's
1-d and 2-d pools do not take: 3-d windows, dilated averages, integer maxima, pads of each
side and the divisor of ONNX's `count_include_pad`; MaxPool's Indices, MaxUnpool and Col2Im
of n-d images. Model code calls them as `ops.<name>` (burnpy/onnx/ops.py imports them).

A window's maximum or sum is separable, so `pool` reduces one spatial dim at a time: `unfold`
gives that dim's windows (their whole span, dilation included), a strided slice keeps the
kernel's taps, and one reduction folds them. Gradients come from the rules of unfold, slice
and the reductions."""

from __future__ import annotations

import math

import numpy as np

from burnpy.generated import Tensor


def _extent(size: int, k: int, s: int, dil: int, begin: int, end: int, ceil: bool) -> int:
    """ONNX's output size along one dim (ceil_mode drops a last window that would start in
    the end padding)."""
    span = size + begin + end - ((k - 1) * dil + 1)
    if not ceil:
        return span // s + 1
    out = -(-span // s) + 1
    return out - 1 if (out - 1) * s >= size + begin else out


def _padded(x: Tensor, begins, ends, value) -> Tensor:
    """x with `begins` / `ends` entries of `value` before / after each spatial dim."""
    for axis, (before, after) in enumerate(zip(begins, ends), start=2):
        parts = []
        for count in (before, after):
            dims = list(x.shape)
            dims[axis] = count
            parts.append(Tensor.full(dims, value, device=x.device(), dtype=x.dtype) if count else None)  # fmt: skip
        if parts[0] is not None or parts[1] is not None:
            x = Tensor.cat([p for p in (parts[0], x, parts[1]) if p is not None], axis)
    return x


def _lowest(x: Tensor):
    """The fill of a max pool's padding: -inf, or the least value of an int dtype."""
    if x.kind.tensor_kind.value == "Float":
        return -math.inf
    return int(np.iinfo(x.dtype).min)


def _geometry(x: Tensor, kernel, strides, dilations, begins, ends, ceil_mode: bool):
    """The output size of each spatial dim and the end padding it needs (ceil_mode's last
    window may reach past the declared padding)."""
    outs, ends_needed = [], []
    for i, size in enumerate(x.shape[2:]):
        k, s, dil, b, e = kernel[i], strides[i], dilations[i], begins[i], ends[i]
        out = _extent(size, k, s, dil, b, e, ceil_mode)
        if out < 1:
            raise ValueError(
                f"a pooling window of {k} (dilation {dil}) does not fit dim {i + 2} of size "
                f"{size} padded by {b} and {e}; the input must be at least as large as the window"
            )
        outs.append(out)
        ends_needed.append(max(e, (out - 1) * s + (k - 1) * dil + 1 - size - b))
    return outs, ends_needed


def pool(x: Tensor, how: str, kernel, *, strides, dilations, begins, ends, ceil_mode=False, count_include_pad=False, p=2) -> Tensor:  # fmt: skip
    """ONNX's MaxPool (`how` "max"), AveragePool ("avg") and LpPool ("lp", the p-norm of each
    window) over the spatial dims of x [n, c, *spatial], with the padding of each side
    (`begins`, `ends`) and dilations; the average divides by the taps inside the input (or,
    with count_include_pad, inside the padded input)."""
    d = x.ndim - 2
    outs, padded_ends = _geometry(x, kernel, strides, dilations, begins, ends, ceil_mode)
    if how == "lp":
        x = x.abs().powf(float(p)) if p != 1 else x.abs()
    y = _padded(x, begins, padded_ends, _lowest(x) if how == "max" else 0)
    for i in range(d):
        axis, span = 2 + i, (kernel[i] - 1) * dilations[i] + 1
        windows = y.unfold(axis, span, strides[i])  # [.., windows at axis, .., span]
        windows = windows[(Ellipsis, slice(None, None, dilations[i]))]
        reduced = windows.max_dim(y.ndim) if how == "max" else windows.sum_dim(y.ndim)
        y = reduced.squeeze_dim(y.ndim)[tuple([slice(None)] * axis + [slice(0, outs[i])])]
    if how == "lp":
        return y.powf(1.0 / p) if p != 1 else y
    if how == "avg":
        counts = _counts(x.shape[2:], kernel, strides, dilations, begins, ends, outs, count_include_pad)  # fmt: skip
        y = y.div(Tensor.from_data(counts.astype(y.dtype), device=x.device().inner()))
    return y


def _counts(dims, kernel, strides, dilations, begins, ends, outs, include_pad: bool):
    """The divisor of each output position of an average pool: how many of its window's taps
    lie inside the input (or inside the padded input), a product over the dims."""
    counts = np.ones([], np.float64)
    for size, k, s, dil, b, e, out in zip(dims, kernel, strides, dilations, begins, ends, outs):
        taps = np.arange(out)[:, None] * s + np.arange(k)[None, :] * dil  # in padded coordinates
        low, high = (0, size + b + e) if include_pad else (b, b + size)
        counts = np.multiply.outer(counts, ((taps >= low) & (taps < high)).sum(1))
    return counts


def pool_indices(x: Tensor, kernel, *, strides, dilations, begins, ends, ceil_mode=False, column_major=False) -> tuple:  # fmt: skip
    """ONNX MaxPool with its Indices: each window's maximum (the first, in the window's
    row-major order, where several are equal) and its position in the flattened input
    (n, c and the spatial dims in row-major order, or with `column_major` the spatial dims
    reversed)."""
    d = x.ndim - 2
    outs, padded_ends = _geometry(x, kernel, strides, dilations, begins, ends, ceil_mode)
    n, c, *dims = x.shape
    spatial = np.arange(math.prod(dims), dtype=np.int64).reshape(dims[::-1] if column_major else dims)  # fmt: skip
    if column_major:
        spatial = spatial.transpose()
    planes = np.arange(n * c, dtype=np.int64).reshape(n, c, *[1] * d) * math.prod(dims)
    positions = Tensor.from_data(planes + spatial, device=x.device().inner())
    values = _windows(_padded(x, begins, padded_ends, _lowest(x)), kernel, strides, dilations, outs)
    where = _windows(_padded(positions, begins, padded_ends, -1), kernel, strides, dilations, outs)
    best = values.argmax(values.ndim - 1)
    picked = values.gather(values.ndim - 1, best).squeeze_dim(values.ndim - 1)
    return picked, where.gather(where.ndim - 1, best).squeeze_dim(where.ndim - 1)


def _windows(y: Tensor, kernel, strides, dilations, outs) -> Tensor:
    """Every window of the padded y, its taps flattened: [n, c, *outs, prod(kernel)]."""
    d = len(kernel)
    for i in range(d):
        span = (kernel[i] - 1) * dilations[i] + 1
        y = y.unfold(2 + i, span, strides[i])[(Ellipsis, slice(None, None, dilations[i]))]
    crop = [slice(None), slice(None)] + [slice(0, out) for out in outs]
    return y[tuple(crop)].reshape(list(y.shape[: 2 + d]) + [-1])


def max_unpool(x: Tensor, indices: Tensor, kernel, strides, begins, ends, dims=None) -> Tensor:
    """ONNX MaxUnpool: zeros of the shape MaxPool read (each spatial dim `(size - 1) * stride
    - pads + kernel`) with x's values at their flattened positions `indices` (MaxPool's
    Indices); a larger output shape `dims` adds zeros after each spatial dim, as ONNX's
    reference places them."""
    n, c, *sizes = x.shape
    spatial = [(size - 1) * s - b - e + k for size, k, s, b, e in zip(sizes, kernel, strides, begins, ends)]  # fmt: skip
    flat = Tensor.zeros([n * c * math.prod(spatial)], device=x.device(), dtype=x.dtype)
    out = flat.scatter(0, indices.reshape([-1]), x.reshape([-1]), "assign")
    out = out.reshape([n, c] + spatial)
    if dims is None:
        return out
    extra = [int(want) - have for want, have in zip(list(dims)[2:], spatial)]
    if any(e < 0 for e in extra):
        raise ValueError(
            f"MaxUnpool: the output shape {list(dims)} is smaller than the shape {[n, c] + spatial} "
            "that the pooling read"
        )
    return _padded(out, [0] * len(extra), extra, 0)


def col2im(x: Tensor, image, block, *, strides, dilations, begins, ends) -> Tensor:
    """ONNX Col2Im of an n-d image: the columns x [n, c * prod(block), blocks] summed back
    onto the image [n, c, *image] (one scatter-add at positions computed from the shapes)."""
    n, rows, count = x.shape
    d = len(image)
    padded = [size + b + e for size, b, e in zip(image, begins, ends)]
    outs = [(p - ((k - 1) * dil + 1)) // s + 1 for p, k, s, dil in zip(padded, block, strides, dilations)]  # fmt: skip
    if math.prod(outs) != count:
        raise ValueError(
            f"Col2Im: the input holds {count} blocks, but blocks {list(block)} over the image "
            f"{list(image)} (pads {list(begins)} and {list(ends)}) give {math.prod(outs)}"
        )
    channels = rows // math.prod(block)
    # the flat position in the padded image of each (kernel tap, block) pair, the taps of
    # every dim first (x's rows), then the blocks (its columns)
    taps = np.zeros([1] * (2 * d), np.int64)
    for i in range(d):
        coordinate = np.arange(block[i])[:, None] * dilations[i] + np.arange(outs[i])[None, :] * strides[i]  # fmt: skip
        shape = [1] * (2 * d)
        shape[i], shape[d + i] = block[i], outs[i]
        taps = taps * padded[i] + coordinate.reshape(shape)
    planes = np.arange(channels, dtype=np.int64)[:, None] * math.prod(padded)
    index = (planes + taps.reshape(1, -1)).reshape(1, -1)
    index = Tensor.from_data(np.broadcast_to(index, (n, index.shape[1])).copy(), device=x.device().inner())  # fmt: skip
    total = Tensor.zeros([n, channels * math.prod(padded)], device=x.device(), dtype=x.dtype)
    image_full = total.scatter(1, index, x.reshape([n, -1]), "add").reshape([n, channels] + padded)
    crop = [slice(None), slice(None)] + [slice(b, b + size) for b, size in zip(begins, image)]
    return image_full[tuple(crop)]
