"""Pooling on torch: torch.nn.functional's pools and their aten backward ops (no autograd).
1-d pools run as 2-d pools over a height of 1, as burn's defaults do.

torch takes fewer configurations than burn: padding at most half the (dilated) kernel, and
under `ceil_mode` no last window that starts in the right padding (burn keeps it). Those cases
pad explicitly (with -inf for max, zeros for average) and pool with padding 0, the average
divided by burn's own counts.
"""

import math

import torch
import torch.nn.functional as F

from burnpy.runtime.backends.kernels.conv import dilated
from burnpy.runtime.backends.kernels.pool import (
    avg_counts,
    pool_options,
    pool_output_sizes,
)
from burnpy.runtime.backends.torch_conv import pad_spatial

aten = torch.ops.aten


def torch_takes(x, kernel, stride, padding, dilation, ceil_mode, size):
    """Whether torch's pool computes burn's windows for these options."""
    for n, k, s, p, d, o in zip(x.shape[2:], kernel, stride, padding, dilation, size):
        if 2 * p > dilated(k, d) or (ceil_mode and (o - 1) * s >= n + p):
            return False
    return True


def as_2d(x, options):
    """A 1-d pool's input and options as a 2-d pool's (a height of 1)."""
    if x.ndim == 4:
        return x, options
    return x.unsqueeze(2), tuple((fill, *option) for fill, option in zip((1, 1, 0, 1), options))


def as_rank(out, x):
    """A 2-d pool's result back at x's rank."""
    return out.squeeze(2) if x.ndim == 3 else out


def padded_to(x, padding, kernel, stride, dilation, size, fill):
    """x padded with `fill`: `padding` before, and after as far as `size` windows reach."""
    end = [
        (o - 1) * s + dilated(k, d) - p - n
        for o, s, k, d, p, n in zip(size, stride, kernel, dilation, padding, x.shape[2:])
    ]
    if fill == 0:
        return pad_spatial(x, padding, end)
    pads = []
    for before, after in zip(reversed(padding), reversed(end)):
        pads += [before, after]
    return F.pad(x, pads, value=fill)


class TorchPoolKernels:
    # -- max pooling ---------------------------------------------------------------------------
    def _max_pool(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        flat, options = as_2d(x, pool_options(x, kernel_size, stride, padding, dilation))
        size = pool_output_sizes(flat, *options, ceil_mode)
        if not torch_takes(flat, *options, ceil_mode, size):
            return self._max_pool_with_indices(
                x, kernel_size, stride, padding, dilation, ceil_mode
            )[0]
        return as_rank(F.max_pool2d(flat, *options, ceil_mode), x)

    def _max_pool_with_indices(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        flat, options = as_2d(x, pool_options(x, kernel_size, stride, padding, dilation))
        kernel, stride, padding, dilation = options
        size = pool_output_sizes(flat, *options, ceil_mode)
        if torch_takes(flat, *options, ceil_mode, size):
            out, indices = F.max_pool2d(flat, *options, ceil_mode, return_indices=True)
        else:
            wide = padded_to(flat, padding, kernel, stride, dilation, size, -torch.inf)
            out, indices = F.max_pool2d(wide, kernel, stride, 0, dilation, return_indices=True)
            # a position in the padded plane -> in x's plane
            width = wide.shape[3]
            row, column = indices // width - padding[0], indices % width - padding[1]
            indices = row * flat.shape[3] + column
        indices.masked_fill_(out == -torch.inf, 0)  # burn's initial index (its own tensor)
        return as_rank(out, x), as_rank(indices, x)

    def _max_pool_with_indices_backward(
        self, x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
    ):
        planes = x.shape[0] * x.shape[1]
        grad = torch.zeros((planes, math.prod(x.shape[2:])), dtype=x.dtype, device=x.device)
        grad.scatter_add_(1, indices.reshape(planes, -1), output_grad.reshape(planes, -1))
        return grad.reshape(x.shape)

    def max_pool1d(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool(x, kernel_size, stride, padding, dilation, ceil_mode)

    def max_pool2d(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool(x, kernel_size, stride, padding, dilation, ceil_mode)

    # torch's max pool finds each window's index whether asked or not: recorded, it is kept
    def max_pool1d_keeping(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)

    def max_pool2d_keeping(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)

    def max_pool1d_with_indices(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)

    def max_pool2d_with_indices(self, x, kernel_size, stride, padding, dilation, ceil_mode):
        return self._max_pool_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode)

    def max_pool1d_with_indices_backward(
        self, x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
    ):
        return self._max_pool_with_indices_backward(
            x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
        )

    def max_pool2d_with_indices_backward(
        self, x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
    ):
        return self._max_pool_with_indices_backward(
            x, kernel_size, stride, padding, dilation, ceil_mode, output_grad, indices
        )

    # -- average pooling -----------------------------------------------------------------------
    def _avg_pool(self, x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        flat, options = as_2d(x, pool_options(x, kernel_size, stride, padding))
        kernel, stride, padding, ones = options
        size = pool_output_sizes(flat, *options, ceil_mode)
        if torch_takes(flat, *options, ceil_mode, size):
            out = F.avg_pool2d(flat, kernel, stride, padding, ceil_mode, count_include_pad)
        else:
            wide = padded_to(flat, padding, kernel, stride, ones, size, 0)
            total = F.avg_pool2d(wide, kernel, stride, 0, divisor_override=1)
            out = total / self._avg_counts(flat, size, options, count_include_pad)
        return as_rank(out, x)

    def _avg_pool_backward(
        self, x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
    ):
        flat, options = as_2d(x, pool_options(x, kernel_size, stride, padding))
        kernel, stride, padding, ones = options
        size = pool_output_sizes(flat, *options, ceil_mode)
        grad = grad.reshape(*flat.shape[:2], *size)
        if torch_takes(flat, *options, ceil_mode, size):
            out = aten.avg_pool2d_backward(
                grad, flat, kernel, stride, padding, ceil_mode, count_include_pad, None
            )
        else:
            share = grad / self._avg_counts(flat, size, options, count_include_pad)
            extent = [(o - 1) * s + k for o, s, k in zip(size, stride, kernel)]
            wide = torch.empty((*flat.shape[:2], *extent), dtype=x.dtype, device=x.device)
            spread = aten.avg_pool2d_backward(share, wide, kernel, stride, 0, False, True, 1)
            end = [e - p - n for e, p, n in zip(extent, padding, flat.shape[2:])]
            out = pad_spatial(spread, [-p for p in padding], [-e for e in end])
        return out.reshape(x.shape)

    def _avg_counts(self, x, size, options, count_include_pad):
        kernel, stride, padding, _ = options
        h, w = (
            torch.tensor(avg_counts(n, o, k, s, p, count_include_pad), dtype=x.dtype)
            for n, o, k, s, p in zip(x.shape[2:], size, kernel, stride, padding)
        )
        return torch.outer(h, w).to(x.device)

    def avg_pool1d(self, x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        return self._avg_pool(x, kernel_size, stride, padding, count_include_pad, ceil_mode)

    def avg_pool2d(self, x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        return self._avg_pool(x, kernel_size, stride, padding, count_include_pad, ceil_mode)

    def avg_pool1d_backward(
        self, x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
    ):
        return self._avg_pool_backward(
            x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
        )

    def avg_pool2d_backward(
        self, x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
    ):
        return self._avg_pool_backward(
            x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode
        )

    # -- adaptive average pooling --------------------------------------------------------------
    def adaptive_avg_pool1d(self, x, output_size):
        (size,) = pool_options(x, output_size, None, 0)[0]
        return F.adaptive_avg_pool1d(x, size)

    def adaptive_avg_pool2d(self, x, output_size):
        return F.adaptive_avg_pool2d(x, pool_options(x, output_size, None, 0)[0])

    def adaptive_avg_pool3d(self, x, output_size):
        return F.adaptive_avg_pool3d(x, pool_options(x, output_size, None, 0)[0])

    def adaptive_avg_pool1d_backward(self, x, grad):
        return aten._adaptive_avg_pool2d_backward(grad.unsqueeze(2), x.unsqueeze(2)).squeeze(2)

    def adaptive_avg_pool2d_backward(self, x, grad):
        return aten._adaptive_avg_pool2d_backward(grad, x)

    def adaptive_avg_pool3d_backward(self, x, grad):
        return aten._adaptive_avg_pool3d_backward(grad, x)
