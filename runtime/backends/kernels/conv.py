"""Convolution geometry (burn-backend's `ops/modules/conv.rs` formulas), the argument checks every
convolution kernel shares, and the bias gradients, which are one sum on every library.

Sizes follow burn exactly: a convolution's output is
`(size + padding_start + padding_end - dilation * (kernel - 1) - 1) // stride + 1`, a transposed
convolution's `(size - 1) * stride + dilation * (kernel - 1) + 1 + padding_out - 2 * padding`.
"""

from burnpy.runtime.errors import user_call


def as_tuple(value, n):
    """A `[usize; N]` option as a tuple of N ints (a 1-d op may pass burn's plain `usize`)."""
    return (value,) * n if isinstance(value, int) else tuple(value)


def dilated(kernel, dilation):
    """The extent of a dilated kernel."""
    return dilation * (kernel - 1) + 1


def conv_output_size(size, kernel, stride, padding_start, padding_end, dilation):
    return (size + padding_start + padding_end - dilated(kernel, dilation)) // stride + 1


def conv_transpose_output_size(size, kernel, stride, padding, padding_out, dilation):
    return (size - 1) * stride + dilated(kernel, dilation) + padding_out - 2 * padding


def conv_transpose_input_size(size_out, kernel, stride, padding, padding_out, dilation):
    """The input size a transposed convolution of output `size_out` had (burn's inverse)."""
    return (size_out + 2 * padding - dilated(kernel, dilation) - padding_out) // stride + 1


def check_conv(op, x, weight, bias, groups, transposed=False):
    """burn's TensorCheck::conv, as ValueErrors naming the mismatch."""
    n = weight.ndim - 2
    if x.ndim != n + 2:
        raise ValueError(
            f"{user_call(op)}: x must have rank {n + 2} ([batch, channels, {n} spatial dims]) for a weight of "
            f"rank {weight.ndim}, got shape {list(x.shape)}"
        )
    if transposed:
        channels_in, channels_out = weight.shape[0], weight.shape[1] * groups
        if weight.shape[0] % groups:
            raise ValueError(
                f"{user_call(op)}: the weight's first dim ({weight.shape[0]}) must be divisible by groups "
                f"({groups})"
            )
    else:
        channels_in, channels_out = weight.shape[1] * groups, weight.shape[0]
        if weight.shape[0] % groups:
            raise ValueError(
                f"{user_call(op)}: the weight's output channels ({weight.shape[0]}) must be divisible by "
                f"groups ({groups})"
            )
    if x.shape[1] != channels_in:
        raise ValueError(
            f"{user_call(op)}: x has {x.shape[1]} channels but the weight of shape {list(weight.shape)} with "
            f"groups={groups} expects {channels_in}"
        )
    if bias is not None and tuple(bias.shape) != (channels_out,):
        raise ValueError(
            f"{user_call(op)}: the bias must have shape [{channels_out}] (one per output channel), got "
            f"{list(bias.shape)}"
        )


def check_output_size(op, sizes):
    if min(sizes, default=1) < 1:
        raise ValueError(
            f"{user_call(op)}: the output would have spatial size {list(sizes)}; the input is too small for "
            f"the kernel, or the padding too large"
        )


class ConvKernels:
    """The bias gradient of every convolution: the output gradient summed over all but the
    channel dim (burn: `sum_dim` of the swapped, flattened gradient). burn's kernel also takes
    x and the bias, which the sum needs neither of.

    And a convolution's backward as its autodiff rule calls it, every input's gradient in one
    call: here burn's three kernels in turn; a backend whose input and weight gradients share
    work overrides it."""

    def _conv_bias_backward(self, output_grad):
        axes = (0, *range(2, output_grad.ndim))
        return self.xp.sum(output_grad, axis=axes, dtype=output_grad.dtype)

    def conv1d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv2d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv3d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose1d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose2d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose3d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def _conv_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        """The (x, weight, bias) gradients, None where `wanted` (one bool each) says no (x and
        the weight are None where only the bias is wanted)."""
        n = output_grad.ndim - 2
        options = (stride, padding, dilation, groups, padding_end)
        x_grad = weight_grad = bias_grad = None
        if wanted[0]:
            x_grad = getattr(self, f"conv{n}d_x_backward")(x, weight, output_grad, *options)
        if wanted[1]:
            weight_backward = getattr(self, f"conv{n}d_weight_backward")
            weight_grad = weight_backward(x, weight, output_grad, *options)
        if wanted[2]:
            bias_grad = getattr(self, f"conv{n}d_bias_backward")(output_grad)
        return x_grad, weight_grad, bias_grad

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
