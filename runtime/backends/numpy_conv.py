"""Convolutions on NumPy: im2col from a strided view, then one matmul.

Every kernel here is one of three moves, for 1, 2 or 3 spatial dims alike:
- `im2col`: the input's windows, copied out of strided views of the padded, flattened input
  (`Grid`) into columns laid out `[groups, channels/groups * kernel, batch * positions]`, so that
  a convolution, groups and dilation included, is ONE batched matmul with the weight `[groups,
  out/groups, in/groups * kernel]`, and the weight gradient is one matmul with the same columns;
- `col2im`: the adjoint, which adds each kernel offset's columns into a strided view of a zero
  plane (a loop over the kernel's offsets only);
- a transposed convolution is the adjoint of a convolution: its forward is a convolution's input
  gradient and its input gradient a convolution (as burn computes them).
"""

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from runtime.backends.kernels.conv import (
    check_conv,
    check_output_size,
    conv_output_size,
    conv_transpose_input_size,
    conv_transpose_output_size,
    dilated,
)


def padded(x, start, size_needed, fill=0.0):
    """x with `start` fill values before each spatial dim and enough after to reach
    `size_needed`; x itself when nothing is to be added. Longer dims are left as they are: the
    windows never read past `size_needed`."""
    spatial = x.shape[2:]
    end = [max(0, need - p - n) for need, p, n in zip(size_needed, start, spatial)]
    if not any(start) and not any(end):
        return x
    shape = x.shape[:2] + tuple(p + n + e for p, n, e in zip(start, spatial, end))
    out = np.zeros(shape, x.dtype) if fill == 0 else np.full(shape, fill, x.dtype)
    out[(..., *(slice(p, p + n) for p, n in zip(start, spatial)))] = x
    return out


def windows(x, kernel, stride, padding, dilation, out_size, fill=0.0):
    """A read-only view `[batch, channels, *out_size, *kernel]` of x's windows, x padded with
    `fill` by `padding` before each spatial dim (and after, as far as the windows reach)."""
    needed = [(o - 1) * s + dilated(k, d) for o, s, k, d in zip(out_size, stride, kernel, dilation)]
    x = padded(x, padding, needed, fill)
    lead, spatial = x.strides[:2], x.strides[2:]
    strides = lead + tuple(t * s for t, s in zip(spatial, stride))
    strides += tuple(t * d for t, d in zip(spatial, dilation))
    return as_strided(x, x.shape[:2] + tuple(out_size) + tuple(kernel), strides, writeable=False)


class Grid:
    """Where a convolution's windows lie in its input plane, the plane padded and flattened.

    `extent` is the padded plane's shape, `length` its flattened length (with room for the
    windows' reach past the end), `positions` the grid of window positions computed. With
    stride 1 every dim of that grid but the first is widened to the padded extent: each kernel
    offset's positions are then one contiguous run of the flattened plane, so im2col copies and
    col2im adds go over long runs rather than rows of the output's width; the extra positions
    are computed and dropped (`crop`)."""

    def __init__(self, size, kernel, stride, padding, dilation, out_size, wide=True):
        self.kernel, self.stride, self.dilation, self.padding = kernel, stride, dilation, padding
        self.size, self.out_size = tuple(size), tuple(out_size)
        self.extent = tuple(
            max(p + n, (o - 1) * s + dilated(k, d))
            for p, n, o, s, k, d in zip(padding, size, out_size, stride, kernel, dilation)
        )
        wide = wide and all(s == 1 for s in stride)
        self.positions = (out_size[0], *self.extent[1:]) if wide else self.out_size
        self.steps = tuple(int(t) for t in np.cumprod((1, *self.extent[:0:-1]))[::-1])
        reach = sum(
            ((g - 1) * s + (k - 1) * d) * t
            for g, s, k, d, t in zip(self.positions, stride, kernel, dilation, self.steps)
        )
        self.length = max(math.prod(self.extent), reach + 1)

    def plane(self, x):
        """x `[a, b, *size]` zero-padded into a flat plane `[a, b, length]`."""
        flat = np.zeros((*x.shape[:2], self.length), x.dtype)
        self.inside(flat)[...] = x
        return flat

    def inside(self, flat):
        """The unpadded part of a flat plane, as `[a, b, *size]`."""
        plane = flat[..., : math.prod(self.extent)].reshape(*flat.shape[:2], *self.extent)
        return plane[(..., *(slice(p, p + n) for p, n in zip(self.padding, self.size)))]

    def at(self, flat, offset):
        """The positions `[a, b, *positions]` that kernel offset `offset` reads in a flat plane."""
        start = sum(k * d * t for k, d, t in zip(offset, self.dilation, self.steps))
        item = flat.itemsize
        strides = flat.strides[:2] + tuple(s * t * item for s, t in zip(self.stride, self.steps))
        return as_strided(flat[..., start:], (*flat.shape[:2], *self.positions), strides)

    def widen(self, grad):
        """An output gradient `[batch, out, *out_size]` as `[out, batch, *positions]`, zero at
        the extra positions."""
        if self.positions == self.out_size:
            return np.ascontiguousarray(grad.swapaxes(0, 1))
        wide = np.zeros((grad.shape[1], grad.shape[0], *self.positions), grad.dtype)
        wide[(..., *map(slice, self.out_size))] = grad.swapaxes(0, 1)
        return wide

    def crop(self, out):
        """`[a, b, *positions]` -> `[b, a, *out_size]`, a C-ordered copy."""
        return np.ascontiguousarray(out[(..., *map(slice, self.out_size))].swapaxes(0, 1))


def im2col(x, grid, groups):
    """The columns `[groups, channels/groups * prod(kernel), batch * prod(positions)]`."""
    flat = grid.plane(x).swapaxes(0, 1)  # [channels, batch, length]
    columns = np.empty((x.shape[1], *grid.kernel, x.shape[0], *grid.positions), x.dtype)
    for offset in itertools.product(*map(range, grid.kernel)):
        columns[(slice(None), *offset)] = grid.at(flat, offset)
    return columns.reshape(groups, -1, x.shape[0] * math.prod(grid.positions))


def col2im(columns, grid):
    """Add `columns` `[a, *kernel, b, *positions]` back into a plane: `[a, b, *size]` (the
    adjoint of reading the windows)."""
    n = len(grid.kernel)
    lead = (columns.shape[0], columns.shape[1 + n])
    flat = np.zeros((*lead, grid.length), columns.dtype)
    for offset in itertools.product(*map(range, grid.kernel)):
        target = grid.at(flat, offset)
        target += columns[(slice(None), *offset)]
    return grid.inside(flat)


def correlate(x, weight, grid, groups):
    """The cross-correlation `[batch, out, *out_size]` (a convolution without bias)."""
    columns = im2col(x, grid, groups)
    out = np.matmul(weight.reshape(groups, weight.shape[0] // groups, -1), columns)
    return grid.crop(out.reshape(weight.shape[0], x.shape[0], *grid.positions))


def correlate_input_grad(grad, weight, grid, groups):
    """The gradient `[batch, in, *size]` of `correlate` w.r.t. its input (a transposed
    convolution of `grad`)."""
    channels_out = weight.shape[0]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    columns = np.matmul(lhs, grid.widen(grad).reshape(groups, channels_out // groups, -1))
    columns = columns.reshape(-1, *grid.kernel, grad.shape[0], *grid.positions)
    return np.ascontiguousarray(col2im(columns, grid).swapaxes(0, 1))


def correlate_weight_grad(x, grad, grid, groups):
    """The gradient `[out, in/groups, *kernel]` of `correlate` w.r.t. its weight."""
    columns = im2col(x, grid, groups)
    rows = grid.widen(grad).reshape(groups, grad.shape[1] // groups, -1)
    weight_grad = np.matmul(rows, columns.swapaxes(1, 2))
    return weight_grad.reshape(grad.shape[1], -1, *grid.kernel)


def with_bias(out, bias):
    if bias is None:
        return out
    out += bias.reshape(-1, *[1] * (out.ndim - 2))
    return out


class NumPyConvKernels:
    # -- convolution ---------------------------------------------------------------------------
    def _conv(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        check_conv(f"conv{weight.ndim - 2}d", x, weight, bias, groups)
        size = self._conv_size(x, weight, stride, padding, dilation, padding_end)
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        out = correlate(x, weight, grid, groups)
        return with_bias(out, bias)

    def _conv_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:])
        return correlate_input_grad(output_grad, weight, grid, groups)

    def _conv_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:])
        return correlate_weight_grad(x, output_grad, grid, groups)

    def _conv_size(self, x, weight, stride, padding, dilation, padding_end):
        end = padding if padding_end is None else padding_end
        size = tuple(
            map(conv_output_size, x.shape[2:], weight.shape[2:], stride, padding, end, dilation)
        )
        check_output_size(f"conv{weight.ndim - 2}d", size)
        return size

    conv1d = conv2d = conv3d = _conv
    conv1d_x_backward = conv2d_x_backward = conv3d_x_backward = _conv_x_backward
    conv1d_weight_backward = conv2d_weight_backward = _conv_weight_backward
    conv3d_weight_backward = _conv_weight_backward

    # -- transposed convolution: the adjoint of a convolution ------------------------------------
    def _conv_transpose(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        check_conv(f"conv_transpose{weight.ndim - 2}d", x, weight, bias, groups, transposed=True)
        size = tuple(
            map(
                conv_transpose_output_size,
                x.shape[2:],
                weight.shape[2:],
                stride,
                padding,
                padding_out,
                dilation,
            )
        )
        check_output_size(f"conv_transpose{weight.ndim - 2}d", size)
        grid = Grid(size, weight.shape[2:], stride, padding, dilation, x.shape[2:])
        out = correlate_input_grad(x, weight, grid, groups)
        return with_bias(out, bias)

    def _conv_transpose_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        size = tuple(
            map(
                conv_transpose_input_size,
                output_grad.shape[2:],
                weight.shape[2:],
                stride,
                padding,
                padding_out,
                dilation,
            )
        )
        grid = Grid(output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        return correlate(output_grad, weight, grid, groups)

    def _conv_transpose_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        # <g, conv_transpose(x, w)> = <correlate(g, w), x>: x is the correlation's output grad
        grid = Grid(output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, x.shape[2:])
        return correlate_weight_grad(output_grad, x, grid, groups)

    conv_transpose1d = conv_transpose2d = conv_transpose3d = _conv_transpose
    conv_transpose1d_x_backward = conv_transpose2d_x_backward = _conv_transpose_x_backward
    conv_transpose3d_x_backward = _conv_transpose_x_backward
    conv_transpose1d_weight_backward = _conv_transpose_weight_backward
    conv_transpose2d_weight_backward = _conv_transpose_weight_backward
    conv_transpose3d_weight_backward = _conv_transpose_weight_backward

    # -- unfold / fold (im2col / col2im of one image) ------------------------------------------
    def unfold4d(self, x, kernel_size, stride, padding, dilation):
        size = tuple(
            map(conv_output_size, x.shape[2:], kernel_size, stride, padding, padding, dilation)
        )
        check_output_size("unfold4d", size)
        view = windows(x, kernel_size, stride, padding, dilation, size)
        blocks = view.transpose(0, 1, 4, 5, 2, 3)  # [batch, channels, *kernel, *blocks]
        return blocks.reshape(x.shape[0], -1, math.prod(size))

    def fold4d(self, x, output_size, kernel_size, stride, padding, dilation):
        blocks = tuple(
            map(conv_output_size, output_size, kernel_size, stride, padding, padding, dilation)
        )
        batch, channels_col, count = x.shape
        per_block = math.prod(kernel_size)
        if channels_col % per_block or count != math.prod(blocks):
            raise ValueError(
                f"fold4d: x of shape {list(x.shape)} must be [batch, channels * {per_block}, "
                f"{math.prod(blocks)}] for output size {list(output_size)} and these options"
            )
        columns = x.reshape(batch, -1, *kernel_size, *blocks)
        columns = np.moveaxis(columns, 0, 3)  # [channels, *kernel, batch, *blocks]
        grid = Grid(output_size, kernel_size, stride, padding, dilation, blocks, wide=False)
        plane = col2im(columns, grid)
        return np.ascontiguousarray(plane.swapaxes(0, 1))
