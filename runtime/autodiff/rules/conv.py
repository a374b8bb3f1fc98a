"""Module-op rules for embedding, linear, convolutions, unfold/fold and pooling: burn's
`*_backward` ModuleOps, which every backend has as kernels (docs/semantics.md#backward-rules).

The rules of the 1-, 2- and 3-d forms differ only in their kernels; each form's rule is built by
one function from its kernels, named as `B.<kernel>` so that a search (and the catalogue's check
that every kernel a rule calls exists) finds them. A convolution's rule is Joint: its backward
kernel gives the three gradients at once, so that a backend can share work between the input's
and the weight's (NumPy widens the output gradient once for both). A bias's gradient is the
output gradient summed over all but the channel dim: it needs neither x nor the weight (the
Joint rule's `g_only`, a transposed convolution's VJP naming only `g`), so a step whose only
tracked input is the bias keeps nothing alive.

Max pooling sends each window's gradient to its first maximum (the int `indices` output);
`max_pool1d/2d` have no indices output, so their rule finds them again, as burn's autodiff runs
the with-indices forward for them. unfold4d and fold4d are each other's adjoint.
"""

from typing import Callable, NamedTuple

from runtime.autodiff.rules.joint import Joint


class _Backward(NamedTuple):
    """A transposed convolution's backward kernels, one per input."""

    x: Callable
    weight: Callable
    bias: Callable


def _conv(backward):
    """The rule of a convolution (x, weight, bias); `backward(B)` is its joint backward kernel."""

    def joint(B, g, tracked, x, weight, stride, padding, dilation, groups, padding_end):
        return backward(B)(x, weight, g, stride, padding, dilation, groups, padding_end, tracked)

    return Joint(joint, g_only=("bias",))


def _conv_transpose(kernels):
    """The rule of a transposed convolution (x, weight, bias); `kernels(B)` is its _Backward."""
    return (
        lambda B, g, weight, stride, padding, padding_out, dilation, groups: kernels(B).x(
            weight, g, stride, padding, padding_out, dilation, groups
        ),
        lambda B, g, x, weight, stride, padding, padding_out, dilation, groups: kernels(B).weight(
            x, weight, g, stride, padding, padding_out, dilation, groups
        ),
        lambda B, g: kernels(B).bias(g),
    )


def _max_pool_with_indices(backward):
    """`backward(B)`: the pool's with-indices backward kernel."""
    return (
        lambda B, g, x, kernel_size, stride, padding, dilation, ceil_mode, indices: backward(B)(
            x, kernel_size, stride, padding, dilation, ceil_mode, g, indices
        ),
    )


def _max_pool(kernels):
    """`kernels(B)`: the pool's with-indices forward and backward kernels."""

    def vjp(B, g, x, kernel_size, stride, padding, dilation, ceil_mode):
        forward, backward = kernels(B)
        options = (kernel_size, stride, padding, dilation, ceil_mode)
        return backward(x, *options, g, forward(x, *options)[1])

    return (vjp,)


def _avg_pool(backward):
    return (
        lambda B, g, x, kernel_size, stride, padding, count_include_pad, ceil_mode: backward(B)(
            x, g, kernel_size, stride, padding, count_include_pad, ceil_mode
        ),
    )


RULES = {
    "embedding": (lambda B, g, weights, indices: B.embedding_backward(weights, g, indices),),
    "linear": (
        lambda B, g, weight: B.linear_x_backward(weight, g),
        lambda B, g, input: B.linear_weight_backward(input, g),
        lambda B, g: B.linear_bias_backward(g),
    ),
    "conv1d": _conv(lambda B: B.conv1d_backward),
    "conv2d": _conv(lambda B: B.conv2d_backward),
    "conv3d": _conv(lambda B: B.conv3d_backward),
    "conv_transpose1d": _conv_transpose(
        lambda B: _Backward(
            B.conv_transpose1d_x_backward,
            B.conv_transpose1d_weight_backward,
            B.conv_transpose1d_bias_backward,
        )
    ),
    "conv_transpose2d": _conv_transpose(
        lambda B: _Backward(
            B.conv_transpose2d_x_backward,
            B.conv_transpose2d_weight_backward,
            B.conv_transpose2d_bias_backward,
        )
    ),
    "conv_transpose3d": _conv_transpose(
        lambda B: _Backward(
            B.conv_transpose3d_x_backward,
            B.conv_transpose3d_weight_backward,
            B.conv_transpose3d_bias_backward,
        )
    ),
    "unfold4d": (
        lambda B, g, x_shape, kernel_size, stride, padding, dilation: B.fold4d(
            g, tuple(x_shape[2:]), kernel_size, stride, padding, dilation
        ),
    ),
    "fold4d": (
        lambda B, g, kernel_size, stride, padding, dilation: B.unfold4d(
            g, kernel_size, stride, padding, dilation
        ),
    ),
    "max_pool1d": _max_pool(
        lambda B: (B.max_pool1d_with_indices, B.max_pool1d_with_indices_backward)
    ),
    "max_pool2d": _max_pool(
        lambda B: (B.max_pool2d_with_indices, B.max_pool2d_with_indices_backward)
    ),
    "max_pool1d_with_indices": _max_pool_with_indices(lambda B: B.max_pool1d_with_indices_backward),
    "max_pool2d_with_indices": _max_pool_with_indices(lambda B: B.max_pool2d_with_indices_backward),
    "avg_pool1d": _avg_pool(lambda B: B.avg_pool1d_backward),
    "avg_pool2d": _avg_pool(lambda B: B.avg_pool2d_backward),
    "adaptive_avg_pool1d": (lambda B, g, x: B.adaptive_avg_pool1d_backward(x, g),),
    "adaptive_avg_pool2d": (lambda B, g, x: B.adaptive_avg_pool2d_backward(x, g),),
    "adaptive_avg_pool3d": (lambda B, g, x: B.adaptive_avg_pool3d_backward(x, g),),
}
