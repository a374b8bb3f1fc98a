"""Normalisation rules: batch_norm (one VJP per input); batch_norm_training, layer_norm and
rms_norm (Joint: their backward kernel gives every gradient, reusing the statistics their forward
computed: the outputs of batch_norm_training, the `statistics` layer_norm kept, the
`inverse_rms` rms_norm kept, None where the backend kept nothing)."""

from burnpy.runtime.autodiff.rules.joint import Joint


class NormRules:
    """The normalisations' rules, one row per op (its name)."""

    batch_norm = (
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
    )
    # the statistics are the op's own outputs (`out`): its backward computes none again
    batch_norm_training = Joint(
        lambda B, g, tracked, input, gamma, out, epsilon: B.batch_norm_training_backward(
            input, gamma, g, out[1], out[2], epsilon, wanted=tracked
        )
    )
    layer_norm = Joint(
        lambda B, g, tracked, input, gamma, epsilon, statistics: B.layer_norm_backward(
            input, gamma, g, epsilon, wanted=tracked, statistics=statistics
        )
    )
    rms_norm = Joint(
        lambda B, g, tracked, input, gamma, epsilon, inverse_rms: B.rms_norm_backward(
            input, gamma, g, epsilon, wanted=tracked, inverse_rms=inverse_rms
        )
    )
