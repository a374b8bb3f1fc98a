"""Normalisation rules: batch_norm (one VJP per input) and layer_norm (Joint: its backward
kernel gives every gradient, reusing the `statistics` its forward kept, None where the backend
kept nothing)."""

from runtime.autodiff.rules.joint import Joint

RULES = {
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
}
