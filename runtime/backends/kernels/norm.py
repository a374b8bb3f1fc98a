"""Normalisation (burn's `batch_norm` and `layer_norm` ModuleOps, and the RMS norm of burn-nn's
`RmsNorm`) and their backward kernels.

Both are fused: one pass of element-wise work instead of the dozen ops of a composite, whose
backward would also keep every intermediate alive. `batch_norm` uses given statistics (it
computes none), so each of its five float inputs has a plain closed-form gradient.
"""

import math


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

    # -- batch_norm_training: the batch's own statistics, kept for the backward ----------------
    def batch_norm_training(self, input, gamma, beta, epsilon):
        """(output, mean, variance): x̂ γ + β, x̂ = (x - μ) / sqrt(σ² + ε), μ and σ² (biased)
        each channel's over every other dim. Two full-size arrays: the output (the centred
        input first) and the squares."""
        ndim, count = input.ndim, math.prod(input.shape) // max(input.shape[1], 1)
        mean = self._channel_sum(input) / count
        out = input - self._per_channel(mean, ndim)
        variance = self._channel_sum(out * out) / count
        out *= self._per_channel(gamma / self.xp.sqrt(variance + epsilon), ndim)
        out += self._per_channel(beta, ndim)
        return out, mean, variance

    def batch_norm_training_backward(
        self, input, gamma, grads, mean, variance, epsilon, wanted=(True, True, True)
    ):
        """(dx, dgamma, dbeta), None for one not wanted, from the output's gradient and the
        statistics' (None where unused): with r = 1 / sqrt(σ² + ε) and N values a channel,
        dx = γ r (g - Σg / N - x̂ Σ(g x̂) / N) + g_μ / N + g_σ² 2 (x - μ) / N."""
        grad, grad_mean, grad_variance = grads
        ndim, count = input.ndim, math.prod(input.shape) // max(input.shape[1], 1)
        rstd = 1 / self.xp.sqrt(variance + epsilon)
        centred = input - self._per_channel(mean, ndim)
        normalized = centred * self._per_channel(rstd, ndim)
        dx = dgamma = dbeta = None
        if grad is not None:
            dbeta = self._channel_sum(grad)
            dgamma = self._channel_sum(grad * normalized)
        if wanted[0]:
            if grad is None:
                dx = centred * 0
            else:
                dx = normalized
                dx *= self._per_channel(-dgamma / count, ndim)
                dx += grad
                dx -= self._per_channel(dbeta / count, ndim)
                dx *= self._per_channel(gamma * rstd, ndim)
            if grad_mean is not None:
                dx += self._per_channel(grad_mean / count, ndim)
            if grad_variance is not None:
                centred *= self._per_channel(grad_variance * (2 / count), ndim)
                dx += centred
        if grad is None:
            dgamma, dbeta = mean * 0, mean * 0
        return (
            dx,
            dgamma if wanted[1] else None,
            dbeta if wanted[2] else None,
        )

    # -- layer_norm: over the last dim, biased variance -----------------------------------------
    # Each array made is this kernel's own, so it is reused in place. (The NumPy backend has its
    # own kernels for float32 and float64: runtime/backends/numpy_norm.py.)
    def _layer_norm_normalized(self, input, epsilon):
        """x̂ = (x - mean) / sqrt(var + eps) over the last dim, and that 1 / sqrt(var + eps)."""
        xp = self.xp
        normalized = input - xp.mean(input, axis=-1, keepdims=True)
        variance = xp.mean(normalized * normalized, axis=-1, keepdims=True)
        rstd = 1 / xp.sqrt(variance + epsilon)
        normalized *= rstd
        return normalized, rstd

    def _leading_sum(self, tensor):
        """Sum over every dim but the last: [..., d] -> [d]."""
        return self.xp.sum(tensor, axis=tuple(range(tensor.ndim - 1)), dtype=tensor.dtype)

    def layer_norm(self, input, gamma, beta, epsilon):
        out, _ = self._layer_norm_normalized(input, epsilon)
        out *= gamma
        if beta is not None:
            out += beta
        return out

    def layer_norm_backward(
        self, input, gamma, grad, epsilon, wanted=(True, True, True), statistics=None
    ):
        """(dx, dgamma, dbeta), None for one not wanted. With y = x̂ γ + β and x̂ = (x - μ) r:
        dx = r (ĝ - mean(ĝ) - x̂ mean(ĝ x̂)), ĝ = g γ; dγ = Σ g x̂; dβ = Σ g. (This kernel
        keeps no `statistics`: it computes them again.)"""
        xp = self.xp
        want_x, want_gamma, want_beta = wanted
        dbeta = self._leading_sum(grad) if want_beta else None
        if not (want_x or want_gamma):
            return None, None, dbeta
        normalized, rstd = self._layer_norm_normalized(input, epsilon)
        dgamma = self._leading_sum(grad * normalized) if want_gamma else None
        dx = None
        if want_x:
            g = grad * gamma
            mean_g = xp.mean(g, axis=-1, keepdims=True)
            normalized *= xp.mean(g * normalized, axis=-1, keepdims=True)
            g -= normalized
            g -= mean_g
            g *= rstd
            dx = g
        return dx, dgamma, dbeta

    # -- rms_norm: over the last dim, no centring -----------------------------------------------
    def _inverse_rms(self, input, epsilon):
        """r = 1 / sqrt(mean(x²) + eps) over the last dim, as [..., 1]."""
        xp = self.xp
        return 1 / xp.sqrt(xp.mean(input * input, axis=-1, keepdims=True) + epsilon)

    def rms_norm(self, input, gamma, epsilon):
        out = input * self._inverse_rms(input, epsilon)
        out *= gamma
        return out

    def rms_norm_backward(self, input, gamma, grad, epsilon, wanted=(True, True), inverse_rms=None):
        """(dx, dgamma), None for one not wanted. With y = x̂ γ and x̂ = x r: dx = r (ĝ - x̂
        mean(ĝ x̂)), ĝ = g γ; dγ = Σ g x̂. `inverse_rms`: the r that `rms_norm_keeping` kept
        ([..., 1]), else computed again."""
        xp = self.xp
        want_x, want_gamma = wanted
        rstd = self._inverse_rms(input, epsilon) if inverse_rms is None else inverse_rms
        normalized = input * rstd
        dgamma = self._leading_sum(grad * normalized) if want_gamma else None
        dx = None
        if want_x:
            g = grad * gamma
            normalized *= xp.mean(g * normalized, axis=-1, keepdims=True)
            g -= normalized
            g *= rstd
            dx = g
        return dx, dgamma
