"""Convolution rules: conv1d/2d/3d, their transposes, deform_conv2d, and unfold4d/fold4d. They
call burn's `*_backward` ModuleOps, which every backend has as kernels
(docs/semantics.md#backward-rules).

A convolution's rule is Joint: its backward kernel gives the three gradients at once, so that a
backend can share work between the input's and the weight's (NumPy widens the output gradient
once for both), told which are wanted. A bias's gradient is the output gradient summed over all
but the channel dim: it needs neither x nor the weight (the Joint rule's `g_only`, a transposed
convolution's VJP naming only `g`), so a step whose only tracked input is the bias keeps nothing
alive. deform_conv2d's backward kernel returns every input's gradient too (burn's
`deform_conv2d_backward`). unfold4d and fold4d are each other's adjoint.
"""

from burnpy.runtime.autodiff.rules.joint import Joint


def _conv1d(B, g, tracked, x, weight, stride, padding, dilation, groups, padding_end):
    return B.conv1d_backward(x, weight, g, stride, padding, dilation, groups, padding_end, tracked)


def _conv2d(B, g, tracked, x, weight, stride, padding, dilation, groups, padding_end):
    return B.conv2d_backward(x, weight, g, stride, padding, dilation, groups, padding_end, tracked)


def _conv3d(B, g, tracked, x, weight, stride, padding, dilation, groups, padding_end):
    return B.conv3d_backward(x, weight, g, stride, padding, dilation, groups, padding_end, tracked)


def _deform_conv2d(
    B, g, tracked, x, offset, weight, mask, bias, stride, padding, dilation, weight_groups,
    offset_groups,
):  # fmt: skip
    return B.deform_conv2d_backward(
        x, offset, weight, mask, bias, g, stride, padding, dilation, weight_groups, offset_groups,
        wanted=tracked,
    )  # fmt: skip


class ConvRules:
    """The convolutions' rules, one row per op (its name): a Joint rule or a VJP per float input."""

    conv1d = Joint(_conv1d, g_only=("bias",))
    conv2d = Joint(_conv2d, g_only=("bias",))
    conv3d = Joint(_conv3d, g_only=("bias",))
    conv_transpose1d = (
        lambda B, g, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose1d_x_backward(weight, g, stride, padding, padding_out, dilation, groups)
        ),
        lambda B, g, x, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose1d_weight_backward(
                x, weight, g, stride, padding, padding_out, dilation, groups
            )
        ),
        lambda B, g: B.conv_transpose1d_bias_backward(g),
    )
    conv_transpose2d = (
        lambda B, g, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose2d_x_backward(weight, g, stride, padding, padding_out, dilation, groups)
        ),
        lambda B, g, x, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose2d_weight_backward(
                x, weight, g, stride, padding, padding_out, dilation, groups
            )
        ),
        lambda B, g: B.conv_transpose2d_bias_backward(g),
    )
    conv_transpose3d = (
        lambda B, g, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose3d_x_backward(weight, g, stride, padding, padding_out, dilation, groups)
        ),
        lambda B, g, x, weight, stride, padding, padding_out, dilation, groups: (
            B.conv_transpose3d_weight_backward(
                x, weight, g, stride, padding, padding_out, dilation, groups
            )
        ),
        lambda B, g: B.conv_transpose3d_bias_backward(g),
    )
    deform_conv2d = Joint(_deform_conv2d)
    unfold4d = (
        lambda B, g, x_shape, kernel_size, stride, padding, dilation: B.fold4d(
            g, tuple(x_shape[2:]), kernel_size, stride, padding, dilation
        ),
    )
    fold4d = (
        lambda B, g, kernel_size, stride, padding, dilation: B.unfold4d(
            g, kernel_size, stride, padding, dilation
        ),
    )
