"""ONNX's sampling operators (GridSample beyond 2-d bilinear, AffineGrid, RoiAlign), composed of
Tensor methods. A sample is a weighted sum of taps: the taps' flat indices into the input's
spatial plane and their weights are computed, then every tap of every sample is read by one
gather and the weighted taps summed, so the output differentiates with respect to the input
(through the gather) and, where the weights depend on it, the grid. Imported model code calls
them as `ops.<name>`."""

from __future__ import annotations

import math

import numpy as np

from burnpy.generated import Tensor
from burnpy.onnx.exporter.trace import data_values

# Keys' cubic convolution coefficient, as onnxruntime and PyTorch take it.
CUBIC_A = -0.75


def grid_sample(
    x: Tensor, grid: Tensor, mode: str = "linear", padding: str = "zeros", align_corners=False
) -> Tensor:
    """ONNX GridSample: x [n, c, *spatial] (any number of spatial axes) sampled at grid
    [n, *out, len(spatial)] (coordinates in [-1, 1], the last spatial axis first) by `mode`
    (nearest: the nearest pixel, halves to even; linear; cubic), points outside read by
    `padding` (zeros, border, reflection): [n, c, *out]."""
    n, c, *spatial = x.shape
    rank = len(spatial)
    if grid.ndim != rank + 2 or grid.shape[0] != n or grid.shape[-1] != rank:
        raise ValueError(
            f"GridSample: a grid for an input of shape {list(x.shape)} must be "
            f"[{n}, ..., {rank}] with {rank} axes of points; it is {list(grid.shape)}"
        )
    out = list(grid.shape[1:-1])
    points = math.prod(out)
    flat_grid = grid.reshape([n, points, rank])
    index = weight = None
    for axis, size in enumerate(spatial):
        coordinate = flat_grid.narrow(2, rank - 1 - axis, 1).reshape([n, 1, points])
        taps, weights = _axis_taps(coordinate, size, mode, padding, bool(align_corners))
        if index is None:
            index, weight = taps, weights
            continue
        t, k = index.shape[1], taps.shape[1]
        index = index.reshape([n, t, 1, points]).mul_scalar(size)
        index = index.add(taps.reshape([n, 1, k, points])).reshape([n, t * k, points])
        weight = weight.reshape([n, t, 1, points]).mul(weights.reshape([n, 1, k, points]))
        weight = weight.reshape([n, t * k, points])
    summed = _weighted_taps(x.reshape([n, c, -1]), index, weight).sum_dim(2)
    return summed.reshape([n, c] + out)


def _weighted_taps(planes: Tensor, index: Tensor, weight: Tensor) -> Tensor:
    """planes[b, :, index[b, t, p]] * weight[b, t, p], every tap read by one gather:
    [b, c, t, p]."""
    b, c, _ = planes.shape
    _, taps, points = index.shape
    read = index.reshape([b, 1, taps * points]).expand([b, c, taps * points])
    values = planes.gather(2, read).reshape([b, c, taps, points])
    return values.mul(weight.reshape([b, 1, taps, points]))


def _axis_taps(coordinate: Tensor, size: int, mode: str, padding: str, align_corners: bool):
    """Along one spatial axis of `size` pixels: each point's taps (int pixel indices, [n, k, p])
    and their weights ([n, k, p]; 0 for a tap outside under zeros padding)."""
    if align_corners:
        pixel = coordinate.add_scalar(1).mul_scalar((size - 1) / 2)
        low, high = 0.0, size - 1.0
    else:
        pixel = coordinate.add_scalar(1).mul_scalar(size).sub_scalar(1).div_scalar(2)
        low, high = -0.5, size - 0.5
    if mode == "nearest":
        pixel = pixel.round()  # to even, as PyTorch and onnxruntime
    if padding == "border":
        outside = pixel.lower_elem(low).bool_or(pixel.greater_elem(high))
        pixel = pixel.mask_where(outside, pixel.clamp(0, size - 1))
    elif padding == "reflection":
        pixel = _reflect(pixel, low, high)
    if mode == "nearest":
        return _tap(pixel, size, padding, low, high)
    base = pixel.floor()
    t = pixel.sub(base.detach())
    if mode == "linear":
        offsets, coefficients = (0, 1), (t.neg().add_scalar(1), t)
    else:
        offsets, coefficients = (-1, 0, 1, 2), _cubic(t)
    taps, weights = [], []
    for offset, coefficient in zip(offsets, coefficients):
        tap, valid = _tap(base.add_scalar(offset), size, padding, low, high)
        taps.append(tap)
        weights.append(coefficient.mul(valid))
    return Tensor.cat(taps, 1), Tensor.cat(weights, 1)


def _tap(position: Tensor, size: int, padding: str, low: float, high: float) -> tuple:
    """An integer position's pixel index (int) and weight: 1, or 0 outside under zeros
    padding; border reads the nearest edge, reflection the mirrored pixel."""
    valid = position.greater_equal_elem(0).bool_and(position.lower_equal_elem(size - 1))
    if padding == "reflection":
        position = _reflect(position, low, high)
    weight = valid.float(str(position.dtype)) if padding == "zeros" else position.ones_like()
    return position.clamp(0, size - 1).detach().int(), weight


def _reflect(x: Tensor, low: float, high: float) -> Tensor:
    """x folded back into [low, high] by mirroring at its ends, as often as it takes (the
    identity inside)."""
    span = high - low
    if span <= 0:
        return x.zeros_like().add_scalar(low)
    folded = x.sub_scalar(low).remainder_scalar(2 * span)
    return folded.mask_where(folded.greater_elem(span), folded.neg().add_scalar(2 * span)).add_scalar(low)  # fmt: skip


def _cubic(t: Tensor) -> tuple:
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2 from a point t in [0, 1)
    past the tap at 0."""
    a = CUBIC_A

    def near(d):  # |d| <= 1
        return d.mul_scalar(a + 2).sub_scalar(a + 3).mul(d).mul(d).add_scalar(1)

    def far(d):  # 1 < |d| < 2
        return d.mul_scalar(a).sub_scalar(5 * a).mul(d).add_scalar(8 * a).mul(d).sub_scalar(4 * a)

    rest = t.neg().add_scalar(1)
    return far(t.add_scalar(1)), near(t), near(rest), far(rest.add_scalar(1))


def affine_grid(theta: Tensor, size, align_corners=False) -> Tensor:
    """ONNX AffineGrid: the sampling grid [n, *spatial, d] of theta [n, d, d + 1] (d = 2 or
    3) applied to the normalised coordinates of an output of `size` [n, c, *spatial]."""
    size = [int(v) for v in size]
    spatial = size[2:]
    rank = len(spatial)
    if rank not in (2, 3) or list(theta.shape) != [size[0], rank, rank + 1]:
        raise ValueError(
            f"AffineGrid: theta {list(theta.shape)} and size {size} do not fit: a 2-d size "
            "[n, c, h, w] takes theta [n, 2, 3], a 3-d one [n, c, d, h, w] theta [n, 3, 4]"
        )
    axes = []
    for length in spatial:
        steps = np.arange(length, dtype=np.float64)
        if align_corners:
            axes.append(-1 + 2 * steps / (length - 1) if length > 1 else np.full(length, -1.0))
        else:
            axes.append((2 * steps + 1) / length - 1)
    mesh = np.meshgrid(*axes, indexing="ij")
    # homogeneous coordinates, the last spatial axis (x) first
    base = np.stack([m.reshape(-1) for m in mesh[::-1]] + [np.ones(mesh[0].size)], axis=1)
    dtype = str(theta.dtype)
    base = Tensor.from_data(base.astype(dtype), device=theta.device(), dtype=dtype)
    grid = base.unsqueeze_dim(0).matmul(theta.swap_dims(1, 2))
    return grid.reshape([size[0]] + spatial + [rank])


def roi_align(
    x: Tensor,
    rois: Tensor,
    batch_indices: Tensor,
    *,
    mode: str = "avg",
    height: int = 1,
    width: int = 1,
    sampling_ratio: int = 0,
    spatial_scale: float = 1.0,
    half_pixel: bool = True,
) -> Tensor:
    """ONNX RoiAlign: each region of interest (rois [r, 4]: x1, y1, x2, y2 in the input's
    scale times `spatial_scale`) of the image batch_indices[r] of x [n, c, h, w], cut into
    height x width bins, each the average (or the maximum of the largest weighted tap) of
    bilinear samples on a regular grid: [r, c, height, width]. With a sampling_ratio the
    samples are computed from the regions as tensors (the output differentiates with respect
    to x and the regions); without one each region's grid depends on its size, and the regions
    are read when the model runs (the output differentiates with respect to x)."""
    _, c, h, w = x.shape
    count = rois.shape[0]
    if list(rois.shape) != [count, 4] or list(batch_indices.shape) != [count]:
        raise ValueError(
            f"RoiAlign: the regions {list(rois.shape)} must be [r, 4] and the batch indices "
            f"{list(batch_indices.shape)} [r]"
        )
    bins = (height, width)
    if sampling_ratio > 0:
        index, weight = _region_taps(rois, (h, w), bins, sampling_ratio, spatial_scale, half_pixel)
        samples = sampling_ratio**2
        if mode == "avg":
            weight = weight.div_scalar(samples)
    else:
        index, weight, samples = _adaptive_region_taps(
            rois, x, (h, w), bins, spatial_scale, half_pixel, mode
        )
    planes = x.reshape([x.shape[0], c, h * w]).select(0, batch_indices)
    values = _weighted_taps(planes, index, weight)
    if mode == "avg":
        pooled = values.sum_dim(2)
    else:  # the largest weighted tap of every sample
        pooled = values.reshape([count, c, samples, 4, height * width]).max_dims([2, 3])
    return pooled.reshape([count, c, height, width])


def _region_taps(rois: Tensor, image, bins, grid: int, scale: float, half_pixel: bool):
    """The bilinear taps of every region's grid x grid samples per bin, as tensors: flat
    indices (int) and weights, [r, grid * grid * 4, bins]."""
    count = rois.shape[0]
    boxes = rois.mul_scalar(scale).sub_scalar(0.5 if half_pixel else 0.0)
    starts = boxes.narrow(1, 0, 2)
    sizes = boxes.narrow(1, 2, 2).sub(starts)
    if not half_pixel:  # malformed regions become 1 x 1
        sizes = sizes.clamp_min(1.0)
    axes = []
    for axis, (size, parts) in enumerate(zip(image, bins)):  # y, then x: columns 1, 0
        steps = (np.arange(parts)[:, None] + (np.arange(grid)[None, :] + 0.5) / grid).reshape(-1)
        steps = Tensor.from_data(steps.reshape(1, -1).astype(str(rois.dtype)), device=rois.device(), dtype=str(rois.dtype))  # fmt: skip
        column = 1 - axis
        positions = sizes.narrow(1, column, 1).div_scalar(parts).mul(steps)
        axes.append(_region_axis(positions.add(starts.narrow(1, column, 1)), size))
    (y_low, y_high, ly, y_in), (x_low, x_high, lx, x_in) = axes
    rows, columns = [count, -1, 1], [count, 1, -1]
    index, weight = [], []
    for y, wy in ((y_low, ly.neg().add_scalar(1)), (y_high, ly)):
        for x, wx in ((x_low, lx.neg().add_scalar(1)), (x_high, lx)):
            index.append(y.reshape(rows).mul_scalar(image[1]).add(x.reshape(columns)))
            weight.append(wy.mul(y_in).reshape(rows).mul(wx.mul(x_in).reshape(columns)))
    # [r, height, grid, width, grid, 4] -> [r, grid, grid, 4, height * width]
    layout = [count, bins[0], grid, bins[1], grid, 4]
    order = [0, 2, 4, 5, 1, 3]
    flat = [count, grid * grid * 4, bins[0] * bins[1]]
    index = Tensor.stack(index, 3).reshape(layout).permute(order).reshape(flat)
    weight = Tensor.stack(weight, 3).reshape(layout).permute(order).reshape(flat)
    return index, weight


def _region_axis(position: Tensor, size: int) -> tuple:
    """RoiAlign's taps along one axis: the lower and upper pixel (int), the upper one's weight,
    and whether the position is near enough to the image to be sampled (1 or 0). A position
    before the first pixel reads it; one past the last reads the last."""
    inside = position.greater_equal_elem(-1.0).bool_and(position.lower_equal_elem(size))
    position = position.clamp_min(0.0)
    low = position.floor().detach()
    last = low.greater_equal_elem(size - 1)
    low = low.clamp_max(size - 1)
    high = low.add_scalar(1).clamp_max(size - 1)
    fraction = position.sub(low)
    fraction = fraction.mask_where(last, fraction.zeros_like())
    return low.int(), high.int(), fraction, inside.float(str(position.dtype))


def _adaptive_region_taps(rois: Tensor, x: Tensor, image, bins, scale, half_pixel, mode):
    """The taps of regions sampled ceil(size / bins) times per bin along each axis: the
    regions are read, the taps computed on the host (a region with fewer samples than the
    most repeats its last one, weighted 0 in an average, and one with none is 0)."""
    h, w = image
    height, width = bins
    boxes = data_values(rois).astype(np.float64).reshape(-1, 4)
    count = boxes.shape[0]
    offset = 0.5 if half_pixel else 0.0
    start_x, start_y, end_x, end_y = (boxes[:, i] * scale - offset for i in range(4))
    roi_w, roi_h = end_x - start_x, end_y - start_y
    if not half_pixel:  # malformed regions become 1 x 1
        roi_w, roi_h = np.maximum(roi_w, 1.0), np.maximum(roi_h, 1.0)
    bin_h, bin_w = roi_h / height, roi_w / width
    grid_h = np.ceil(roi_h / height).astype(np.int64)
    grid_w = np.ceil(roi_w / width).astype(np.int64)
    most_h, most_w = max(int(grid_h.max(initial=0)), 1), max(int(grid_w.max(initial=0)), 1)
    iy = np.minimum(np.arange(most_h)[None, :], np.maximum(grid_h, 1)[:, None] - 1)
    ix = np.minimum(np.arange(most_w)[None, :], np.maximum(grid_w, 1)[:, None] - 1)
    ys = start_y[:, None, None] + bin_h[:, None, None] * (
        np.arange(height)[None, :, None] + (iy[:, None, :] + 0.5) / np.maximum(grid_h, 1)[:, None, None]
    )  # fmt: skip
    xs = start_x[:, None, None] + bin_w[:, None, None] * (
        np.arange(width)[None, :, None] + (ix[:, None, :] + 0.5) / np.maximum(grid_w, 1)[:, None, None]
    )  # fmt: skip
    # [r, height, width, most_h, most_w]
    ys = np.broadcast_to(ys[:, :, None, :, None], (count, height, width, most_h, most_w))
    xs = np.broadcast_to(xs[:, None, :, None, :], (count, height, width, most_h, most_w))
    inside = (ys >= -1.0) & (ys <= h) & (xs >= -1.0) & (xs <= w)
    y_low, y_high, ly = _bilinear_axis(ys, h)
    x_low, x_high, lx = _bilinear_axis(xs, w)
    index = np.stack(
        [y_low * w + x_low, y_low * w + x_high, y_high * w + x_low, y_high * w + x_high], -1
    )
    weight = np.stack([(1 - ly) * (1 - lx), (1 - ly) * lx, ly * (1 - lx), ly * lx], -1)
    weight = weight * inside[..., None]
    index = np.where(inside[..., None], index, 0)
    if mode == "max":
        weight = weight * ((grid_h > 0) & (grid_w > 0))[:, None, None, None, None, None]
    else:
        taken = (np.arange(most_h)[None, :, None] < grid_h[:, None, None]) & (
            np.arange(most_w)[None, None, :] < grid_w[:, None, None]
        )
        samples = np.maximum(grid_h * grid_w, 1)
        weight = weight * (taken / samples[:, None, None])[:, None, None, :, :, None]
    # [r, samples * 4 taps, height * width]: the taps of a bin along the middle axis
    order = (0, 3, 4, 5, 1, 2)
    index = index.transpose(order).reshape(count, -1, height * width).astype(np.int64)
    weight = weight.transpose(order).reshape(count, -1, height * width).astype(str(x.dtype))
    device = x.device()
    index = Tensor.from_data(index, device=device.inner())
    weight = Tensor.from_data(weight, device=device, dtype=str(x.dtype))
    return index, weight, most_h * most_w


def _bilinear_axis(position: np.ndarray, size: int) -> tuple:
    """RoiAlign's taps along one axis: the lower and upper pixel and the upper one's weight
    (a position before the first pixel reads it; one past the last reads the last)."""
    position = np.maximum(position, 0.0)
    low = np.floor(position).astype(np.int64)
    last = low >= size - 1
    low = np.where(last, size - 1, low)
    high = np.where(last, size - 1, low + 1)
    fraction = np.where(last, 0.0, position - low)
    return low, high, fraction
