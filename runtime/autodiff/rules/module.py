"""Module-op rules, second half (burn's ModuleOps: interpolate, attention, batch_norm,
layer_norm, ctc_loss, cross_entropy_class_targets, rfft, irfft, deform_conv2d). They call the backend's backward kernels, as
burn-autodiff calls the `*_backward` trait methods.

attention, deform_conv2d and irfft have one backward kernel computing every input's gradient
(burn's `deform_conv2d_backward` returns them together): their rules are Joint, run once per
step, and the first two tell the kernel which gradients are wanted. attention and layer_norm
hand their backward what their forward kept (`probabilities`, `statistics`: None where the
backend kept nothing).
"""

from runtime.autodiff.rules.joint import Joint


def _attention(
    B, g, tracked, query, key, value, mask, attn_bias, scale, softcap, is_causal, probabilities
):
    return B.attention_backward(
        query,
        key,
        value,
        mask,
        attn_bias,
        g,
        scale,
        softcap,
        is_causal,
        wanted=tracked,
        probabilities=probabilities,
    )


def _deform_conv2d(
    B,
    g,
    tracked,
    x,
    offset,
    weight,
    mask,
    bias,
    stride,
    padding,
    dilation,
    weight_groups,
    offset_groups,
):
    return B.deform_conv2d_backward(
        x,
        offset,
        weight,
        mask,
        bias,
        g,
        stride,
        padding,
        dilation,
        weight_groups,
        offset_groups,
        wanted=tracked,
    )


def _rfft_signal(B, g, signal_shape, dim, n):
    grad_re, grad_im = g
    # an output nobody used has no gradient: it contributes zero
    grad_re = grad_im * 0 if grad_re is None else grad_re
    grad_im = grad_re * 0 if grad_im is None else grad_im
    return B.rfft_backward(grad_re, grad_im, dim, n, signal_shape[dim])


RULES = {
    "interpolate": (
        lambda B, g, x, output_size, mode, align_corners: B.interpolate_backward(
            x, g, output_size, mode, align_corners
        ),
    ),
    "attention": Joint(_attention),
    "batch_norm": (
        lambda B, g, gamma, variance, epsilon: B.batch_norm_x_backward(gamma, variance, g, epsilon),
        lambda B, g, input, mean, variance, epsilon: B.batch_norm_gamma_backward(
            input, mean, variance, g, epsilon
        ),
        lambda B, g: B.batch_norm_beta_backward(g),
        lambda B, g, gamma, variance, epsilon: B.batch_norm_mean_backward(
            gamma, variance, g, epsilon
        ),
        lambda B, g, input, gamma, mean, variance, epsilon: B.batch_norm_variance_backward(
            input, gamma, mean, variance, g, epsilon
        ),
    ),
    "layer_norm": Joint(
        lambda B, g, tracked, input, gamma, epsilon, statistics: B.layer_norm_backward(
            input, gamma, g, epsilon, wanted=tracked, statistics=statistics
        )
    ),
    "ctc_loss": (
        lambda B, g, log_probs, targets, input_lengths, target_lengths, blank: (
            B.ctc_loss_backward(log_probs, targets, input_lengths, target_lengths, g, blank)
        ),
    ),
    "cross_entropy_class_targets": (
        lambda B, g, logits, targets, probabilities: B.cross_entropy_class_targets_backward(
            logits, targets, g, probabilities=probabilities
        ),
    ),
    "rfft": (_rfft_signal,),
    "irfft": Joint(
        lambda B, g, tracked, spectrum_re_shape, dim, n: B.irfft_backward(
            g, dim, n, spectrum_re_shape[dim]
        )
    ),
    "deform_conv2d": Joint(_deform_conv2d),
}
