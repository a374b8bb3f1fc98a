"""Pooling on NumPy, from strided views of the (padded) input: one element-wise op per kernel
offset over the whole output, never a Python loop over batch, channels or positions. Every
kernel serves 1 and 2 spatial dims alike (adaptive pooling 3 too); the geometry is burn's
(runtime/backends/kernels/pool.py).
"""

import itertools
import math

import numpy as np

from burnpy.runtime.backends.kernels.pool import (
    adaptive_windows,
    avg_counts,
    pool_options,
    pool_output_sizes,
)
from burnpy.runtime.backends.kernels.reduce import INDEX_DTYPE
from burnpy.runtime.backends.numpy_conv import Grid, windows


def offsets(kernel):
    """Every kernel offset, in row-major window order."""
    return list(itertools.product(*map(range, kernel)))


def box(counts, dtype):
    """The per-dim counts' outer product: each window's count, shaped like the output's
    spatial dims."""
    total = np.ones((), dtype)
    for count in counts:
        total = np.multiply.outer(total, np.asarray(count, dtype))
    return total


def averaging(size, out):
    """The matrix [out, size] of adaptive average pooling along one dim."""
    matrix = np.zeros((out, size))
    for i, (start, end) in enumerate(adaptive_windows(size, out)):
        matrix[i, start:end] = 1 / (end - start)
    return matrix


def along_each_dim(x, matrices):
    """Apply one matrix [out, size] along each spatial dim of x."""
    for axis, matrix in enumerate(matrices, start=2):
        x = np.moveaxis(np.tensordot(x, matrix.astype(x.dtype), axes=([axis], [1])), -1, axis)
    return np.ascontiguousarray(x)


class NumPyPoolKernels:
    # -- max pooling ---------------------------------------------------------------------------
    def _max_pool(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_windows(x, kernel_size, stride, padding, dilation, ceil_mode)[0]

    def _max_pool_with_indices(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        best, view, (kernel, stride, padding, dilation) = self._max_windows(
            x, kernel_size, stride, padding, dilation, ceil_mode
        )
        # the first offset holding the maximum: count the offsets before the first hit
        nan = np.isnan(best)
        nan = nan if nan.any() else None
        missing = np.ones(best.shape, bool)
        first = np.zeros(best.shape, np.uint8 if math.prod(kernel) < 256 else np.int32)
        for offset in offsets(kernel)[:-1]:
            value = view[(..., *offset)]
            miss = value != best
            if nan is not None:  # NaN != NaN: a NaN window hits at its first NaN
                miss &= ~(nan & np.isnan(value))
            missing &= miss
            first += missing
        # window-local offset -> position in the plane (h * W + w): the window's start plus
        # the offset's place
        plane = np.cumprod((1, *x.shape[:2:-1]))[::-1]  # the plane's row-major strides
        table = np.array([np.dot(np.multiply(o, dilation), plane) for o in offsets(kernel)])
        start = np.zeros((), np.int64)
        for axis, (o, s, p) in enumerate(zip(best.shape[2:], stride, padding)):
            shape = [1] * len(kernel)
            shape[axis] = o
            start = start + ((np.arange(o) * s - p) * plane[axis]).reshape(shape)
        indices = table.take(first) + start
        indices[best == -np.inf] = 0  # no value above -inf: burn's initial index
        return best, indices.astype(INDEX_DTYPE, copy=False)

    def _max_windows(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        """The maxima, the windows' view (padded with -inf) and the options as tuples."""
        options = pool_options(x, kernel_size, stride, padding, dilation)
        kernel, stride, padding, dilation = options
        size = pool_output_sizes(x, kernel, stride, padding, dilation, ceil_mode)
        view = windows(x, kernel, stride, padding, dilation, size, fill=-np.inf)
        best = view[(..., *(0,) * len(kernel))].copy()
        for offset in offsets(kernel)[1:]:
            np.maximum(best, view[(..., *offset)], out=best)
        return best, view, options

    def _max_pool_with_indices_backward(
        self, x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
    ):
        planes, area = math.prod(x.shape[:2]), math.prod(x.shape[2:])
        at = indices.reshape(planes, -1) + (np.arange(planes) * area)[:, None]
        grad = np.bincount(at.ravel(), weights=output_grad.ravel(), minlength=planes * area)
        return grad.astype(x.dtype, copy=False).reshape(x.shape)

    max_pool1d = max_pool2d = _max_pool
    max_pool1d_with_indices = max_pool2d_with_indices = _max_pool_with_indices
    max_pool1d_with_indices_backward = _max_pool_with_indices_backward
    max_pool2d_with_indices_backward = _max_pool_with_indices_backward

    # -- average pooling -----------------------------------------------------------------------
    def _avg_pool(self, x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        kernel, stride, padding, _ = pool_options(x, kernel_size, stride, padding)
        size = pool_output_sizes(x, kernel, stride, padding, (1,) * len(kernel), ceil_mode)
        view = windows(x, kernel, stride, padding, (1,) * len(kernel), size)
        total = view[(..., *(0,) * len(kernel))].copy()
        for offset in offsets(kernel)[1:]:
            total += view[(..., *offset)]
        counts = self._avg_counts(x, size, kernel, stride, padding, count_include_pad)
        with np.errstate(invalid="ignore"):  # a window over no input averages to NaN (0 / 0)
            total /= counts
        return total

    def _avg_pool_backward(
        self, x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
    ):
        kernel, stride, padding, _ = pool_options(x, kernel_size, stride, padding)
        size = grad.shape[2:]
        counts = self._avg_counts(x, size, kernel, stride, padding, count_include_pad)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = grad / counts
        batch, channels = grad.shape[:2]
        # every kernel offset of a window gets the same share: a broadcast view as columns
        columns = np.broadcast_to(
            share.reshape(batch, channels, *(1,) * len(kernel), *size),
            (batch, channels, *kernel, *size),
        )
        grid = Grid(x.shape[2:], kernel, stride, padding, (1,) * len(kernel), size, wide=False)
        return np.ascontiguousarray(grid.col2im(columns))

    def _avg_counts(self, x, size, kernel, stride, padding, count_include_pad):
        return box(
            (
                avg_counts(n, o, k, s, p, count_include_pad)
                for n, o, k, s, p in zip(x.shape[2:], size, kernel, stride, padding)
            ),
            x.dtype,
        )

    avg_pool1d = avg_pool2d = _avg_pool
    avg_pool1d_backward = avg_pool2d_backward = _avg_pool_backward

    # -- adaptive average pooling: one averaging matrix per dim ---------------------------------
    def _adaptive_avg_pool(self, x, output_size):
        out = pool_options(x, output_size, None, 0)[0]
        return along_each_dim(x, [averaging(n, o) for n, o in zip(x.shape[2:], out)])

    def _adaptive_avg_pool_backward(self, x, grad):
        matrices = [averaging(n, o).T for n, o in zip(x.shape[2:], grad.shape[2:])]
        return along_each_dim(grad, matrices)

    adaptive_avg_pool1d = adaptive_avg_pool2d = adaptive_avg_pool3d = _adaptive_avg_pool
    adaptive_avg_pool1d_backward = _adaptive_avg_pool_backward
    adaptive_avg_pool2d_backward = _adaptive_avg_pool_backward
    adaptive_avg_pool3d_backward = _adaptive_avg_pool_backward
