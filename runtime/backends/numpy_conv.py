"""Convolutions on NumPy: im2col from one strided view, then one matmul.

Every kernel here is one of three moves, for 1, 2 or 3 spatial dims alike:
- `im2col`: the input's windows, one strided view of the padded input copied once into columns
  `[batch, channels, *kernel, *positions]`; a convolution, groups and dilation included, is then
  ONE matmul per image, `[groups, out/groups, in/groups * kernel] @ [groups, in/groups * kernel,
  positions]`, whose result is already the output's layout. The weight gradient takes the
  columns channels first, `[in * kernel, batch * positions]`, for one matmul per group whose
  long dim is the inner one (BLAS's fast case, and no per-image products to sum);
- `col2im`: the adjoint, for the input gradient: one matmul per image gives its columns, which
  are added into a zero plane through one writeable view of it, a loop over the kernel's
  offsets only. The plane is padded and flattened (`Grid`); with stride 1 each offset's
  positions are then one contiguous run, so every add goes over long runs;
- a transposed convolution is the adjoint of a convolution: its forward is a convolution's input
  gradient and its input gradient a convolution (as burn computes them).

Each move goes over the batch in chunks whose columns fit in a core's L2 cache (`chunks`).
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


def im2col(x, kernel, stride, padding, dilation, out_size, batch_first=True):
    """The columns `[batch, channels, *kernel, *out_size]`, or `[channels, *kernel, batch,
    *out_size]` when not `batch_first`, C-ordered: one copy of one view."""
    n = len(kernel)
    view = windows(x, kernel, stride, padding, dilation, out_size)
    kernel_dims, out_dims = range(2 + n, 2 + 2 * n), range(2, 2 + n)
    order = (0, 1, *kernel_dims, *out_dims) if batch_first else (1, *kernel_dims, 0, *out_dims)
    return np.ascontiguousarray(view.transpose(order))


class Grid:
    """A convolution's geometry, and where its windows lie in its input plane, the plane padded
    and flattened.

    `extent` is the padded plane's shape, `length` its flattened length (with room for the
    windows' reach past the end), `positions` the grid of window positions col2im adds. With
    stride 1 every dim of that grid but the first is widened to the padded extent: each kernel
    offset's positions are then one contiguous run of the flattened plane; the extra positions'
    columns are zero (`widen`) and add nothing."""

    def __init__(self, size, kernel, stride, padding, dilation, out_size, wide=True):
        self.kernel, self.stride, self.dilation = tuple(kernel), tuple(stride), tuple(dilation)
        self.size, self.padding, self.out_size = tuple(size), tuple(padding), tuple(out_size)
        self.wide = wide and all(s == 1 for s in stride)

    def im2col(self, x, batch_first=True):
        return im2col(
            x, self.kernel, self.stride, self.padding, self.dilation, self.out_size, batch_first
        )

    @property
    def extent(self):
        return tuple(
            max(p + n, (o - 1) * s + dilated(k, d))
            for p, n, o, s, k, d in zip(
                self.padding, self.size, self.out_size, self.stride, self.kernel, self.dilation
            )
        )

    @property
    def positions(self):
        return (self.out_size[0], *self.extent[1:]) if self.wide else self.out_size

    def widen(self, grad):
        """`[a, b, *out_size]` as `[a, b, *positions]`, zero at the extra positions."""
        if not self.wide:
            return grad
        wide = np.zeros((*grad.shape[:2], *self.positions), grad.dtype)
        wide[(..., *map(slice, self.out_size))] = grad
        return wide

    def plane(self, lead, dtype):
        """A zero plane `[*lead, length]`, flattened, and its writeable windows `[*lead,
        *kernel, *positions]`."""
        extent, positions = self.extent, self.positions
        steps = [math.prod(extent[i + 1 :]) for i in range(len(extent))]
        reach = sum(
            ((g - 1) * s + (k - 1) * d) * t
            for g, s, k, d, t in zip(positions, self.stride, self.kernel, self.dilation, steps)
        )
        flat = np.zeros((*lead, max(math.prod(extent), reach + 1)), dtype)
        item = flat.itemsize
        strides = flat.strides[:2] + tuple(d * t * item for d, t in zip(self.dilation, steps))
        strides += tuple(s * t * item for s, t in zip(self.stride, steps))
        return flat, as_strided(flat, (*lead, *self.kernel, *positions), strides)

    def add(self, view, columns):
        """Add `columns` `[a, b, *kernel, *positions]` into a plane's windows `view`: a loop
        over the kernel's offsets."""
        for offset in itertools.product(*map(range, self.kernel)):
            at = (slice(None), slice(None), *offset)
            view[at] += columns[at]

    def inside(self, flat):
        """The unpadded part `[a, b, *size]` of a flat plane, a view."""
        extent = self.extent
        plane = flat[..., : math.prod(extent)].reshape(*flat.shape[:2], *extent)
        return plane[(..., *(slice(p, p + n) for p, n in zip(self.padding, self.size)))]

    def col2im(self, columns):
        """Add `columns` `[a, b, *kernel, *positions]` back into a plane: `[a, b, *size]` (the
        adjoint of reading the windows), a view of a new array."""
        flat, view = self.plane(columns.shape[:2], columns.dtype)
        self.add(view, columns)
        return self.inside(flat)


# A chunk of the batch whose columns fit in a core's L2 cache: the columns are then made and
# consumed (matmul, adds) in cache. Measured -10 to -15% per kernel on a [64, 16, 14, 14] input.
CHUNK_BYTES = 1 << 20


def chunks(batch, image_bytes):
    """The batch as slices of images whose columns take about CHUNK_BYTES."""
    step = max(1, CHUNK_BYTES // max(1, image_bytes))
    return [slice(start, start + step) for start in range(0, batch, step)]


def correlate(x, weight, grid, groups):
    """The cross-correlation `[batch, out, *out_size]` (a convolution without bias)."""
    batch, channels_out = x.shape[0], weight.shape[0]
    count = math.prod(grid.out_size)
    lhs = weight.reshape(groups, channels_out // groups, -1)
    out = np.empty((batch, groups, channels_out // groups, count), np.result_type(x, weight))
    for part in chunks(batch, weight[0].size * count * x.itemsize * groups):
        columns = grid.im2col(x[part])
        np.matmul(lhs, columns.reshape(columns.shape[0], groups, -1, count), out=out[part])
    return out.reshape(batch, channels_out, *grid.out_size)


def correlate_input_grad(grad, weight, grid, groups):
    """The gradient `[batch, in, *size]` of `correlate` w.r.t. its input (a transposed
    convolution of `grad`)."""
    batch, channels_out = grad.shape[:2]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    dtype = np.result_type(grad, weight)
    flat, view = grid.plane((batch, weight.shape[1] * groups), dtype)
    count = math.prod(grid.positions)
    for part in chunks(batch, weight[0].size * count * dtype.itemsize * groups):
        rows = grid.widen(grad[part])
        rows = rows.reshape(rows.shape[0], groups, channels_out // groups, count)
        columns = np.matmul(lhs, rows).reshape(rows.shape[0], -1, *grid.kernel, *grid.positions)
        grid.add(view[part], columns)
    return np.ascontiguousarray(grid.inside(flat))


def correlate_weight_grad(x, grad, grid, groups):
    """The gradient `[out, in/groups, *kernel]` of `correlate` w.r.t. its weight."""
    batch, channels_out = grad.shape[:2]
    per_group = channels_out // groups
    count = math.prod(grid.out_size)
    weight_grad = 0
    for part in chunks(batch, x.shape[1] * math.prod(grid.kernel) * count * x.itemsize):
        columns = grid.im2col(x[part], batch_first=False).reshape(groups, -1, count * len(x[part]))
        rows = grad[part].reshape(-1, groups, per_group, count).transpose(1, 0, 3, 2)
        weight_grad = weight_grad + np.matmul(columns, rows.reshape(groups, -1, per_group))
    return np.ascontiguousarray(weight_grad.swapaxes(1, 2)).reshape(channels_out, -1, *grid.kernel)


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
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, columns=None
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
        blocks = im2col(x, kernel_size, stride, padding, dilation, size)
        return blocks.reshape(x.shape[0], -1, math.prod(size))

    def fold4d(self, x, output_size, kernel_size, stride, padding, dilation):
        blocks = tuple(
            map(conv_output_size, output_size, kernel_size, stride, padding, padding, dilation)
        )
        batch = x.shape[0]  # an x that does not fit fails the reshape; the contract says why
        columns = x.reshape(batch, -1, *kernel_size, *blocks)
        grid = Grid(output_size, kernel_size, stride, padding, dilation, blocks, wide=False)
        return np.ascontiguousarray(grid.col2im(columns))
