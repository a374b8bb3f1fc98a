"""Convolutions on NumPy: im2col from one strided view, then one batched matmul.

Every kernel here is one of three moves, for 1, 2 or 3 spatial dims alike:
- `im2col`: the input's windows, one strided view of the padded input copied once into columns
  `[batch, channels, *kernel, *positions]`, so that a convolution, groups and dilation included,
  is ONE matmul per image, `[groups, out/groups, in/groups * kernel] @ [groups, in/groups *
  kernel, positions]`, whose result is already the output's layout; the weight gradient is one
  matmul per image with the same columns, summed over the batch;
- the input gradient: with stride 1, a convolution of the padded output gradient with the
  flipped kernel (one im2col and one matmul), unless the input has far fewer channels than the
  output (then the next move is cheaper); otherwise `col2im`, the adjoint of im2col, which adds
  each kernel offset's columns into a strided view of a zero plane (a loop over the kernel's
  offsets only);
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


def reach(out_size, kernel, stride, dilation):
    """How far the windows reach along each dim of the padded input."""
    return [(o - 1) * s + dilated(k, d) for o, s, k, d in zip(out_size, stride, kernel, dilation)]


def plane_windows(plane, kernel, stride, dilation, out_size, writeable=False):
    """The view `[batch, channels, *out_size, *kernel]` of an (already padded) plane's
    windows."""
    lead, spatial = plane.strides[:2], plane.strides[2:]
    strides = lead + tuple(t * s for t, s in zip(spatial, stride))
    strides += tuple(t * d for t, d in zip(spatial, dilation))
    shape = plane.shape[:2] + tuple(out_size) + tuple(kernel)
    return as_strided(plane, shape, strides, writeable=writeable)


def windows(x, kernel, stride, padding, dilation, out_size, fill=0.0):
    """A read-only view `[batch, channels, *out_size, *kernel]` of x's windows, x padded with
    `fill` by `padding` before each spatial dim (and after, as far as the windows reach)."""
    x = padded(x, padding, reach(out_size, kernel, stride, dilation), fill)
    return plane_windows(x, kernel, stride, dilation, out_size)


def im2col(x, kernel, stride, padding, dilation, out_size, batch_first=True):
    """The columns `[batch, channels, *kernel, *out_size]`, or `[channels, *kernel, batch,
    *out_size]` when not `batch_first`, C-ordered: one copy of one view."""
    n = len(kernel)
    view = windows(x, kernel, stride, padding, dilation, out_size)
    kernel_dims, out_dims = range(2 + n, 2 + 2 * n), range(2, 2 + n)
    order = (0, 1, *kernel_dims, *out_dims) if batch_first else (1, *kernel_dims, 0, *out_dims)
    return np.ascontiguousarray(view.transpose(order))


def col2im(columns, size, kernel, stride, padding, dilation):
    """Add `columns` `[a, b, *kernel, *out_size]` back into a plane `[a, b, *size]` (the adjoint
    of reading the windows)."""
    n = len(kernel)
    out_size = columns.shape[2 + n :]
    extent = [
        max(p + s, r) for p, s, r in zip(padding, size, reach(out_size, kernel, stride, dilation))
    ]
    plane = np.zeros((*columns.shape[:2], *extent), columns.dtype)
    view = plane_windows(plane, kernel, stride, dilation, out_size, writeable=True)
    for offset in itertools.product(*map(range, kernel)):
        view[(..., *offset)] += columns[(slice(None), slice(None), *offset)]
    return plane[(..., *(slice(p, p + s) for p, s in zip(padding, size)))]


class Geometry:
    """A convolution's options, as tuples: the input's spatial `size`, the `kernel`, `stride`,
    `padding` before each dim, `dilation` and the output's spatial `out_size` (which sets the
    padding after)."""

    __slots__ = ("size", "kernel", "stride", "padding", "dilation", "out_size")

    def __init__(self, size, kernel, stride, padding, dilation, out_size):
        self.size, self.kernel, self.stride = tuple(size), tuple(kernel), tuple(stride)
        self.padding, self.dilation, self.out_size = tuple(padding), tuple(dilation), out_size

    def im2col(self, x, batch_first=True):
        return im2col(
            x, self.kernel, self.stride, self.padding, self.dilation, self.out_size, batch_first
        )


def correlate(x, weight, geo, groups):
    """The cross-correlation `[batch, out, *out_size]` (a convolution without bias)."""
    batch, channels_out = x.shape[0], weight.shape[0]
    columns = geo.im2col(x).reshape(batch, groups, -1, math.prod(geo.out_size))
    out = np.matmul(weight.reshape(groups, channels_out // groups, -1), columns)
    return out.reshape(batch, channels_out, *geo.out_size)


def correlate_input_grad(grad, weight, geo, groups):
    """The gradient `[batch, in, *size]` of `correlate` w.r.t. its input (a transposed
    convolution of `grad`)."""
    channels_out, channels_in = weight.shape[0], weight.shape[1] * groups
    flipped = flipped_padding(geo)
    if flipped is not None and channels_out <= 2 * channels_in:
        return correlate(grad, flipped_weight(weight, groups), flipped, groups)
    batch = grad.shape[0]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    rows = grad.reshape(batch, groups, channels_out // groups, -1)
    columns = np.matmul(lhs, rows).reshape(batch, channels_in, *geo.kernel, *geo.out_size)
    plane = col2im(columns, geo.size, geo.kernel, geo.stride, geo.padding, geo.dilation)
    return np.ascontiguousarray(plane)


def flipped_padding(geo):
    """With stride 1, the input gradient is a correlation of the output gradient padded by
    `dilation * (kernel - 1) - padding` before each dim: its Geometry, or None when a stride is
    not 1 or that padding would be negative."""
    if any(s != 1 for s in geo.stride):
        return None
    start = tuple(d * (k - 1) - p for k, p, d in zip(geo.kernel, geo.padding, geo.dilation))
    if min(start) < 0:
        return None
    return Geometry(geo.out_size, geo.kernel, geo.stride, start, geo.dilation, geo.size)


def flipped_weight(weight, groups):
    """`[out, in/groups, *kernel]` -> `[in, out/groups, *kernel]`, each kernel reversed along
    every dim: the weight of the correlation that is a stride-1 input gradient."""
    out, per_group, kernel = weight.shape[0], weight.shape[1], weight.shape[2:]
    w = weight.reshape(groups, out // groups, per_group, *kernel).swapaxes(1, 2)
    w = w[(..., *(slice(None, None, -1),) * len(kernel))]
    return np.ascontiguousarray(w).reshape(groups * per_group, out // groups, *kernel)


def correlate_weight_grad(x, grad, geo, groups):
    """The gradient `[out, in/groups, *kernel]` of `correlate` w.r.t. its weight: one matmul
    per group over batch and positions at once, `[in/groups * kernel, batch * positions] @
    [batch * positions, out/groups]` (the long dim inside: BLAS's fast case)."""
    batch, channels_out = grad.shape[:2]
    per_group = channels_out // groups
    columns = geo.im2col(x, batch_first=False).reshape(groups, -1, batch * math.prod(geo.out_size))
    rows = grad.reshape(batch, groups, per_group, -1).transpose(1, 0, 3, 2)
    weight_grad = np.matmul(columns, rows.reshape(groups, -1, per_group))
    return np.ascontiguousarray(weight_grad.swapaxes(1, 2)).reshape(channels_out, -1, *geo.kernel)


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
        geo = Geometry(x.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        out = correlate(x, weight, geo, groups)
        return with_bias(out, bias)

    def _conv_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        geo = Geometry(
            x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:]
        )
        return correlate_input_grad(output_grad, weight, geo, groups)

    def _conv_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        geo = Geometry(
            x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:]
        )
        return correlate_weight_grad(x, output_grad, geo, groups)

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
        geo = Geometry(size, weight.shape[2:], stride, padding, dilation, x.shape[2:])
        out = correlate_input_grad(x, weight, geo, groups)
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
        geo = Geometry(output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        return correlate(output_grad, weight, geo, groups)

    def _conv_transpose_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        # <g, conv_transpose(x, w)> = <correlate(g, w), x>: x is the correlation's output grad
        geo = Geometry(
            output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, x.shape[2:]
        )
        return correlate_weight_grad(output_grad, x, geo, groups)

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
        batch, channels_col, count = x.shape
        per_block = math.prod(kernel_size)
        if channels_col % per_block or count != math.prod(blocks):
            raise ValueError(
                f"fold4d: x of shape {list(x.shape)} must be [batch, channels * {per_block}, "
                f"{math.prod(blocks)}] for output size {list(output_size)} and these options"
            )
        columns = x.reshape(batch, -1, *kernel_size, *blocks)
        plane = col2im(columns, output_size, kernel_size, stride, padding, dilation)
        return np.ascontiguousarray(plane)
