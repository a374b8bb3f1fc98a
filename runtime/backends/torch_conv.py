"""Convolutions on torch: torch.nn.functional's own, and torch.nn.grad for the input and weight
gradients (no autograd: primitives never require grad), but one matrix product over the whole
batch's windows where an image has only a few output positions (`few_positions`).

Where burn and torch part ways: asymmetric padding (`padding_end`) pads with zeros before a
padding-0 convolution, as burn-tensor does; a transposed convolution's `padding_out` may reach
the stride in burn, which torch's `output_padding` rejects, so that case computes the full
output and crops or extends it to burn's size (zeros, then the bias, beyond the full output).
"""

import math

import torch
import torch.nn.functional as F
from torch.nn import grad as torch_grad

from burnpy.runtime.backends.kernels.conv import (
    check_conv,
    check_output_size,
    conv_output_size,
    conv_transpose_input_size,
    conv_transpose_output_size,
    dilated,
)
from burnpy.runtime.errors import user_call

CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
CONV_INPUT = {1: torch_grad.conv1d_input, 2: torch_grad.conv2d_input, 3: torch_grad.conv3d_input}
CONV_WEIGHT = {
    1: torch_grad.conv1d_weight,
    2: torch_grad.conv2d_weight,
    3: torch_grad.conv3d_weight,
}


def pad_spatial(x, start, end):
    """x with `start`/`end` zeros around each spatial dim (negative amounts crop)."""
    if not any(start) and not any(end):
        return x
    pads = []
    for before, after in zip(reversed(start), reversed(end)):
        pads += [before, after]
    return F.pad(x, pads)


def symmetric(padding, padding_end) -> bool:
    """The padding after each spatial dim is the padding before it (torch's only kind)."""
    return padding_end is None or tuple(padding_end) == tuple(padding)


def bias_view(bias, rank):
    return bias.reshape(-1, *[1] * (rank - 2))


# On the CPU, mkldnn's 2-d convolutions block over each image's output positions: with four or
# fewer and long windows (ResNet's last stage on 64x64 images, 2x2 positions of 256-512
# channels x 3x3), they run well below the rate of one matrix product over every image's
# windows, which the kernels below make instead. With more positions, or shorter windows,
# mkldnn's are as fast or faster (benches/conv_positions.py times both ways).
FEW_POSITIONS = 4  # output positions per image, at most
LONG_WINDOW = 2048  # a window's length, input channels x kernel positions, at least
_PRODUCT_DTYPES = (torch.float32, torch.float64)


def few_positions(x, weight, groups, out_size) -> bool:
    """Whether this 2-d convolution goes through `window_rows` and one matrix product."""
    return (
        len(out_size) == 2
        and groups == 1
        and math.prod(out_size) <= FEW_POSITIONS
        and math.prod(weight.shape[1:]) >= LONG_WINDOW
        and x.dtype in _PRODUCT_DTYPES
        and x.device.type == "cpu"
    )


# (the row counts are written out: a batch of no images has no -1 to infer)
def window_rows(x, kernel, stride, padding, dilation):
    """[images x positions, channels x kernel]: each output position's window, as a row."""
    columns = F.unfold(x, kernel, dilation, padding, stride)
    images, length, positions = columns.shape
    return columns.transpose(1, 2).reshape(images * positions, length)


def position_rows(output_grad):
    """[images x positions, channels]: the output gradient, a row per position."""
    images, channels, height, width = output_grad.shape
    return output_grad.permute(0, 2, 3, 1).reshape(images * height * width, channels)


def conv2d_by_product(x, weight, bias, stride, padding, dilation, out_size):
    rows = window_rows(x, weight.shape[2:], stride, padding, dilation)
    matrix = weight.reshape(len(weight), -1).t()
    out = torch.mm(rows, matrix) if bias is None else torch.addmm(bias, rows, matrix)
    return out.view(len(x), *out_size, len(weight)).permute(0, 3, 1, 2).contiguous()


def conv2d_input_by_product(x_shape, weight, output_grad, stride, padding, dilation):
    """The input's gradient: the windows' gradients, added back onto the planes (F.fold)."""
    windows = torch.mm(position_rows(output_grad), weight.reshape(len(weight), -1))
    positions = output_grad.shape[2] * output_grad.shape[3]
    windows = windows.view(x_shape[0], positions, windows.shape[1]).transpose(1, 2)
    return F.fold(windows, x_shape[2:], weight.shape[2:], dilation, padding, stride)


def conv2d_weight_by_product(x, weight_shape, output_grad, stride, padding, dilation):
    rows = window_rows(x, weight_shape[2:], stride, padding, dilation)
    return torch.mm(position_rows(output_grad).t(), rows).view(weight_shape)


def _conv_input(x, shape, weight, output_grad, stride, padding, dilation, groups):
    """The input gradient of `shape` (x's, or x's padded); `x` says where and of which dtype."""
    if few_positions(x, weight, groups, output_grad.shape[2:]):
        return conv2d_input_by_product(shape, weight, output_grad, stride, padding, dilation)
    return CONV_INPUT[weight.ndim - 2](
        shape, weight, output_grad, stride, padding, dilation, groups
    )


class TorchConvKernels:
    # -- convolution ---------------------------------------------------------------------------
    def _conv(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        n = weight.ndim - 2
        check_conv(f"conv{n}d", x, weight, bias, groups)
        end = padding if padding_end is None else padding_end
        size = tuple(
            map(conv_output_size, x.shape[2:], weight.shape[2:], stride, padding, end, dilation)
        )
        check_output_size(f"conv{n}d", size)
        if tuple(end) != tuple(padding):
            x, padding = pad_spatial(x, padding, end), (0,) * n
        if few_positions(x, weight, groups, size):
            return conv2d_by_product(x, weight, bias, stride, padding, dilation, size)
        return CONV[n](x, weight, bias, stride, padding, dilation, groups)

    def _conv_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        if symmetric(padding, padding_end):
            return _conv_input(x, x.shape, weight, output_grad, stride, padding, dilation, groups)
        shape = (*x.shape[:2], *(p + s + e for p, s, e in zip(padding, x.shape[2:], padding_end)))
        grad = _conv_input(x, shape, weight, output_grad, stride, 0, dilation, groups)
        return pad_spatial(grad, [-p for p in padding], [-e for e in padding_end])

    def _conv_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        n = weight.ndim - 2
        if not symmetric(padding, padding_end):
            x, padding = pad_spatial(x, padding, padding_end), (0,) * n
        if few_positions(x, weight, groups, output_grad.shape[2:]):
            return conv2d_weight_by_product(x, weight.shape, output_grad, stride, padding, dilation)
        return CONV_WEIGHT[n](x, weight.shape, output_grad, stride, padding, dilation, groups)

    def _conv_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        # the input's and the weight's gradients from one native call, which torch.nn.grad's
        # two functions each make with half the mask (bitwise the same, less work); the bias's
        # as the bias kernel sums it
        if not (
            wanted[0]
            and wanted[1]
            and symmetric(padding, padding_end)
            and not few_positions(x, weight, groups, output_grad.shape[2:])
        ):
            return super()._conv_backward(
                x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
            )
        x_grad, weight_grad, _ = torch.ops.aten.convolution_backward(
            output_grad,
            x,
            weight,
            None,
            list(stride),
            list(padding),
            list(dilation),
            False,
            [0] * len(stride),
            groups,
            (True, True, False),
        )
        bias_grad = self._conv_bias_backward(output_grad) if wanted[2] else None
        return x_grad, weight_grad, bias_grad

    def conv1d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv2d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv3d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv1d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv2d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv3d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv1d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv2d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv3d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv1d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    def conv2d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    def conv3d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    # -- transposed convolution ----------------------------------------------------------------
    def _conv_transpose(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        n = weight.ndim - 2
        check_conv(f"conv_transpose{n}d", x, weight, bias, groups, transposed=True)
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
        check_output_size(f"conv_transpose{n}d", size)
        transpose = CONV_TRANSPOSE[n]
        if all(o < max(s, d) for o, s, d in zip(padding_out, stride, dilation)):
            return transpose(x, weight, bias, stride, padding, padding_out, groups, dilation)
        full = transpose(x, weight, None, stride, 0, 0, groups, dilation)
        end = [p + s - f for p, s, f in zip(padding, size, full.shape[2:])]
        out = pad_spatial(full, [-p for p in padding], end)
        return out if bias is None else out + bias_view(bias, out.ndim)

    def _conv_transpose_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        n = weight.ndim - 2
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
        grad = CONV[n](output_grad, weight, None, stride, padding, dilation, groups)
        # padding_out >= stride leaves the convolution longer than the input: burn slices it
        return grad[(..., *(slice(0, s) for s in size))]

    def _conv_transpose_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        # <g, conv_transpose(x, w)> = <conv(g, w), x>: x is the convolution's output gradient,
        # zero-extended where the convolution of g is longer than x (padding_out >= stride)
        n = weight.ndim - 2
        size = tuple(
            (g + 2 * p - dilated(k, d)) // s + 1
            for g, p, k, d, s in zip(
                output_grad.shape[2:], padding, weight.shape[2:], dilation, stride
            )
        )
        x = pad_spatial(x, (0,) * n, [s - i for s, i in zip(size, x.shape[2:])])
        return CONV_WEIGHT[n](output_grad, weight.shape, x, stride, padding, dilation, groups)

    def conv_transpose1d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose2d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose3d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose1d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose2d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose3d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose1d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose2d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose3d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    # -- unfold / fold ---------------------------------------------------------------------------
    def unfold4d(self, x, kernel_size, stride, padding, dilation):
        if x.ndim != 4:  # torch's unfold would take an unbatched [c, h, w]; numpy's refuses it
            raise ValueError(f"{user_call('unfold4d')}: x must have rank 4, got {list(x.shape)}")
        size = tuple(
            map(conv_output_size, x.shape[2:], kernel_size, stride, padding, padding, dilation)
        )
        check_output_size("unfold4d", size)
        return F.unfold(x, kernel_size, dilation, padding, stride)

    def fold4d(self, x, output_size, kernel_size, stride, padding, dilation):
        return F.fold(x, output_size, kernel_size, dilation, padding, stride)
