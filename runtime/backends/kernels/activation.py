"""Activations (burn's ActivationOps), with the `_backward` kernels the autodiff rules call, as
burn-autodiff calls them. `gelu` needs the backend's `float_erf`: the array API has no erf, so
each backend brings its own (numpy: scipy.special); `sigmoid` is each backend's own too."""

import math

FRAC_1_SQRT_2 = 1 / math.sqrt(2)
FRAC_1_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
GELU_BOUND = 40.0
# the tanh GELU, 0.5 x (1 + tanh(u)) with u = k (x + c x³): beyond ±10 its tanh is ±1 in every
# float dtype, so x is clipped there first (its cube cannot overflow, ±inf give the limits)
SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
GELU_CUBIC = 0.044715
TANH_GELU_BOUND = 10.0


class ActivationKernels:
    def relu(self, tensor):
        return self.xp.maximum(tensor, 0)  # NaN stays NaN (array API 2024.12 takes the scalar)

    def relu_backward(self, output, grad):
        # burn masks output <= 0, so a NaN output passes its gradient
        return self.xp.where(output <= 0, 0, grad)

    def leaky_relu(self, tensor, negative_slope):
        return self.xp.where(tensor < 0, tensor * negative_slope, tensor)

    def prelu(self, tensor, alpha):
        return self.xp.where(tensor < 0, tensor * alpha, tensor)

    def gelu(self, tensor):
        # the exact form, x Φ(x), as burn's forward, written max(x, 0) - |x| Φ(-|x|) so that
        # ±inf gives its limits (inf and 0; x Φ(x) would be inf * 0 there)
        xp = self.xp
        magnitude = xp.clip(xp.abs(tensor), max=GELU_BOUND)
        tail = 0.5 * (1 - self.float_erf(magnitude * FRAC_1_SQRT_2))
        return xp.maximum(tensor, 0) - magnitude * tail

    def gelu_backward(self, x, grad):
        # d/dx x Φ(x) = Φ(x) + x φ(x): the exact form's derivative. burn's default is the tanh
        # approximation's, which does not match its exact forward (tests pin this). Beyond ±40
        # the slope is 1 or 0 even in float64, and clipping there keeps ±inf from inf * 0.
        x = self.xp.clip(x, min=-GELU_BOUND, max=GELU_BOUND)
        cdf = 0.5 * (1 + self.float_erf(x * FRAC_1_SQRT_2))
        pdf = self.xp.exp(-0.5 * x * x) * FRAC_1_SQRT_2PI
        return grad * (cdf + x * pdf)

    def _tanh_gelu_parts(self, x):
        """(x clipped to ±TANH_GELU_BOUND, its square, tanh(u) of the clipped x)."""
        xp = self.xp
        x = xp.clip(x, min=-TANH_GELU_BOUND, max=TANH_GELU_BOUND)
        square = x * x  # x * x, not a power: a generic pow costs tens of multiplications
        u = square * (SQRT_2_OVER_PI * GELU_CUBIC)
        u += SQRT_2_OVER_PI
        u *= x
        return x, square, xp.tanh(u)

    def gelu_approximate(self, tensor):
        # (1 + t) / 2 · x with x held above -TANH_GELU_BOUND, where (1 + t) is 0 already: -inf
        # gives 0, not -inf · 0; NaN stays NaN; halved first, so that x (1 + t) cannot overflow
        _, _, t = self._tanh_gelu_parts(tensor)
        t += 1.0
        t *= 0.5
        t *= self.xp.maximum(tensor, -TANH_GELU_BOUND)
        return t

    def gelu_approximate_backward(self, x, grad):
        # 0.5 (1 + t) + 0.5 x (1 - t²) k (1 + 3 c x²), at the clipped x: 1 and 0 beyond ±10
        x, square, t = self._tanh_gelu_parts(x)
        slope = t * t
        slope -= 1.0
        square *= -3.0 * SQRT_2_OVER_PI * GELU_CUBIC
        square -= SQRT_2_OVER_PI
        slope *= square  # (1 - t²) u'
        slope *= x
        slope += t
        slope += 1.0
        slope *= 0.5
        return grad * slope

    def sigmoid_backward(self, output, grad):
        return output * (1 - output) * grad

    def log_sigmoid(self, tensor):
        # -log(1 + e^-x) = min(x, 0) - log1p(e^-|x|): e^-|x| never overflows
        xp = self.xp
        return xp.minimum(tensor, 0) - xp.log1p(xp.exp(-xp.abs(tensor)))

    def log_sigmoid_backward(self, x, grad):
        # 1 - sigmoid(x) = sigmoid(-x), without the cancellation for large x
        return grad * self.sigmoid(-x)

    def softmax(self, tensor, dim):
        if 0 in tensor.shape:  # no max to shift by (numpy refuses it): an empty result
            return self.xp.empty_like(tensor)
        exp = self.xp.exp(self._shift_by_max(tensor, dim))
        return exp / self.xp.sum(exp, axis=dim, keepdims=True)

    def softmax_backward(self, output, grad, dim):
        """softmax's VJP from its output: output (grad - sum(grad output, dim)). The row max
        the forward shifts by is a constant (burn detaches it): no term for it."""
        return output * (grad - self.float_sum_dim(grad * output, dim))

    def log_softmax(self, tensor, dim):
        xp = self.xp
        if 0 in tensor.shape:
            return xp.empty_like(tensor)
        shifted = self._shift_by_max(tensor, dim)
        return shifted - xp.log(xp.sum(xp.exp(shifted), axis=dim, keepdims=True))

    def _shift_by_max(self, tensor, dim):
        """x - max(x, dim): the largest exponent becomes e^0, so exp never overflows."""
        return tensor - self.xp.max(tensor, axis=dim, keepdims=True)
