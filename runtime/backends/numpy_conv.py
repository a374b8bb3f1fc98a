"""Convolutions on NumPy: im2col from a strided view, then one matmul.

Every kernel here is one of three moves, for 1, 2 or 3 spatial dims alike:
- `_im2col`: the input's windows, copied once out of a strided view into columns laid out
  `[groups, channels/groups * kernel, batch * positions]`, so that a convolution, groups and
  dilation included, is ONE batched matmul with the weight `[groups, out/groups, in/groups *
  kernel]`, and the weight gradient is one matmul with the same columns;
- `_col2im`: the adjoint, which adds each kernel offset's columns into a strided slice of a
  zero plane (a loop over the kernel's offsets only);
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


def im2col(x, kernel, stride, padding, dilation, out_size, groups):
    """The columns `[groups, channels/groups * prod(kernel), batch * prod(out_size)]`."""
    n = len(kernel)
    view = windows(x, kernel, stride, padding, dilation, out_size)
    # [channels, *kernel, batch, *out]: one copy with the positions contiguous
    columns = np.ascontiguousarray(view.transpose(1, *range(2 + n, 2 + 2 * n), 0, *range(2, 2 + n)))
    return columns.reshape(groups, -1, x.shape[0] * math.prod(out_size))


def col2im(columns, size, padding, kernel, stride, dilation):
    """Add `columns` `[a, *kernel, b, *out]` back into a plane `[a, b, *size]` (the adjoint of
    reading `windows` of a plane padded by `padding`)."""
    out_size = columns.shape[2 + len(kernel) :]
    extent = [
        max(p + n, (o - 1) * s + dilated(k, d))
        for p, n, o, s, k, d in zip(padding, size, out_size, stride, kernel, dilation)
    ]
    plane = np.zeros((columns.shape[0], columns.shape[1 + len(kernel)], *extent), columns.dtype)
    for offset in itertools.product(*map(range, kernel)):
        at = tuple(
            slice(k * d, k * d + (o - 1) * s + 1, s)
            for k, d, o, s in zip(offset, dilation, out_size, stride)
        )
        plane[(slice(None), slice(None), *at)] += columns[(slice(None), *offset)]
    return plane[(..., *(slice(p, p + n) for p, n in zip(padding, size)))]


def grouped(grad, groups):
    """An output gradient `[batch, out, *positions]` as `[groups, out/groups, batch * positions]`."""
    channels = grad.shape[1]
    return np.ascontiguousarray(grad.swapaxes(0, 1)).reshape(groups, channels // groups, -1)


def correlate(x, weight, stride, padding, dilation, groups, out_size):
    """The cross-correlation `[batch, out, *out_size]` (a convolution without bias)."""
    kernel = weight.shape[2:]
    columns = im2col(x, kernel, stride, padding, dilation, out_size, groups)
    out = np.matmul(weight.reshape(groups, weight.shape[0] // groups, -1), columns)
    out = out.reshape(weight.shape[0], x.shape[0], *out_size)
    return np.ascontiguousarray(out.swapaxes(0, 1))


def correlate_input_grad(grad, weight, size, stride, padding, dilation, groups):
    """The gradient `[batch, in, *size]` of `correlate` w.r.t. its input (a transposed
    convolution of `grad`)."""
    kernel = weight.shape[2:]
    channels_out = weight.shape[0]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    columns = np.matmul(lhs, grouped(grad, groups))
    columns = columns.reshape(-1, *kernel, grad.shape[0], *grad.shape[2:])
    plane = col2im(columns, size, padding, kernel, stride, dilation)
    return np.ascontiguousarray(plane.swapaxes(0, 1))


def correlate_weight_grad(x, grad, kernel, stride, padding, dilation, groups):
    """The gradient `[out, in/groups, *kernel]` of `correlate` w.r.t. its weight."""
    columns = im2col(x, kernel, stride, padding, dilation, grad.shape[2:], groups)
    weight_grad = np.matmul(grouped(grad, groups), columns.swapaxes(1, 2))
    return weight_grad.reshape(grad.shape[1], -1, *kernel)


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
        out = correlate(x, weight, stride, padding, dilation, groups, size)
        return with_bias(out, bias)

    def _conv_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return correlate_input_grad(
            output_grad, weight, x.shape[2:], stride, padding, dilation, groups
        )

    def _conv_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return correlate_weight_grad(
            x, output_grad, weight.shape[2:], stride, padding, dilation, groups
        )

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
        out = correlate_input_grad(x, weight, size, stride, padding, dilation, groups)
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
        return correlate(output_grad, weight, stride, padding, dilation, groups, size)

    def _conv_transpose_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        # <g, conv_transpose(x, w)> = <correlate(g, w), x>: x is the correlation's output grad
        return correlate_weight_grad(
            output_grad, x, weight.shape[2:], stride, padding, dilation, groups
        )

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
        plane = col2im(columns, output_size, padding, kernel_size, stride, dilation)
        return np.ascontiguousarray(plane.swapaxes(0, 1))
