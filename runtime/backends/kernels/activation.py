"""Activations (burn's ActivationOps). `gelu` needs the backend's `float_erf`: the array API has
no erf, so each backend brings its own (numpy: scipy.special)."""

import math

FRAC_1_SQRT_2 = 1 / math.sqrt(2)


class ActivationKernels:
    def relu(self, tensor):
        return self.xp.maximum(tensor, 0)  # NaN stays NaN (array API 2024.12 takes the scalar)

    def leaky_relu(self, tensor, negative_slope):
        return self.xp.where(tensor < 0, tensor * negative_slope, tensor)

    def prelu(self, tensor, alpha):
        return self.xp.where(tensor < 0, tensor * alpha, tensor)

    def gelu(self, tensor):
        # the exact form, x * Φ(x), as burn's forward
        return tensor * 0.5 * (1 + self.float_erf(tensor * FRAC_1_SQRT_2))

    def log_sigmoid(self, tensor):
        # -log(1 + e^-x) = min(x, 0) - log1p(e^-|x|): e^-|x| never overflows
        xp = self.xp
        return xp.minimum(tensor, 0) - xp.log1p(xp.exp(-xp.abs(tensor)))

    def softmax(self, tensor, dim):
        exp = self.xp.exp(self._shift_by_max(tensor, dim))
        return exp / self.xp.sum(exp, axis=dim, keepdims=True)

    def log_softmax(self, tensor, dim):
        xp = self.xp
        shifted = self._shift_by_max(tensor, dim)
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=dim, keepdims=True))

    def _shift_by_max(self, tensor, dim):
        """x - max(x, dim): the largest exponent becomes e^0, so exp never overflows."""
        return tensor - self.xp.max(tensor, axis=dim, keepdims=True)
