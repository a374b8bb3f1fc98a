"""Normalisation (burn's `batch_norm` and `layer_norm` ModuleOps) and their backward kernels.

Both are fused: one pass of element-wise work instead of the dozen ops of a composite, whose
backward would also keep every intermediate alive. `batch_norm` uses given statistics (it
computes none), so each of its five float inputs has a plain closed-form gradient.
"""


class NormKernels:
    # -- batch_norm: statistics [C] broadcast along dim 1 of a rank >= 2 input ----------------
    def _per_channel(self, stat, ndim):
        """A [C] statistic as [1, C, 1, ...], to broadcast against the input."""
        return self.xp.reshape(stat, (1, stat.shape[0]) + (1,) * (ndim - 2))

    def _channel_sum(self, tensor):
        """Sum over every dim but the channel's: [N, C, ...] -> [C]."""
        axes = (0,) + tuple(range(2, tensor.ndim))
        return self.xp.sum(tensor, axis=axes, dtype=tensor.dtype)

    def _batch_norm_rstd(self, variance, epsilon, ndim):
        return 1 / self.xp.sqrt(self._per_channel(variance, ndim) + epsilon)

    def batch_norm(self, input, gamma, beta, mean, variance, epsilon):
        ndim = input.ndim
        rstd = self._batch_norm_rstd(variance, epsilon, ndim)
        scale = self._per_channel(gamma, ndim) * rstd
        return (input - self._per_channel(mean, ndim)) * scale + self._per_channel(beta, ndim)

    def batch_norm_x_backward(self, gamma, variance, grad, epsilon):
        ndim = grad.ndim
        return grad * (
            self._per_channel(gamma, ndim) * self._batch_norm_rstd(variance, epsilon, ndim)
        )

    def batch_norm_gamma_backward(self, input, mean, variance, grad, epsilon):
        ndim = input.ndim
        normalized = (input - self._per_channel(mean, ndim)) * self._batch_norm_rstd(
            variance, epsilon, ndim
        )
        return self._channel_sum(grad * normalized)

    def batch_norm_beta_backward(self, grad):
        return self._channel_sum(grad)

    def batch_norm_mean_backward(self, gamma, variance, grad, epsilon):
        return -self._channel_sum(grad) * gamma / self.xp.sqrt(variance + epsilon)

    def batch_norm_variance_backward(self, input, gamma, mean, variance, grad, epsilon):
        # d/dv (x - m) (v + eps)^-1/2 = -(x - m) (v + eps)^-3/2 / 2
        centered_sum = self._channel_sum(grad * (input - self._per_channel(mean, input.ndim)))
        return -0.5 * gamma * centered_sum / (variance + epsilon) ** 1.5

    # -- layer_norm: over the last dim, biased variance -----------------------------------------
    def _layer_norm_stats(self, input, epsilon):
        """(x - mean) and 1 / sqrt(var + eps) over the last dim, the latter keeping it."""
        xp = self.xp
        centered = input - xp.mean(input, axis=-1, keepdims=True)
        variance = xp.mean(centered * centered, axis=-1, keepdims=True)
        return centered, 1 / xp.sqrt(variance + epsilon)

    def layer_norm(self, input, gamma, beta, epsilon):
        centered, rstd = self._layer_norm_stats(input, epsilon)
        out = centered * rstd * gamma
        return out if beta is None else out + beta

    def layer_norm_x_backward(self, input, gamma, grad, epsilon):
        # With y = x̂ γ + β and x̂ = (x - μ) r: dx = r (ĝ - mean(ĝ) - x̂ mean(ĝ x̂)), ĝ = g γ
        xp = self.xp
        centered, rstd = self._layer_norm_stats(input, epsilon)
        normalized = centered * rstd
        g = grad * gamma
        mean_g = xp.mean(g, axis=-1, keepdims=True)
        mean_gx = xp.mean(g * normalized, axis=-1, keepdims=True)
        return rstd * (g - mean_g - normalized * mean_gx)

    def layer_norm_gamma_backward(self, input, grad, epsilon):
        centered, rstd = self._layer_norm_stats(input, epsilon)
        return self._leading_sum(grad * (centered * rstd))

    def layer_norm_beta_backward(self, grad):
        return self._leading_sum(grad)

    def _leading_sum(self, tensor):
        """Sum over every dim but the last: [..., d] -> [d]."""
        return self.xp.sum(tensor, axis=tuple(range(tensor.ndim - 1)), dtype=tensor.dtype)
