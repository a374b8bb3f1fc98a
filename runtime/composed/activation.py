"""burn-tensor's activation functions that burn composes from other ops (activation/base.rs),
as Tensor methods beside the catalogue's relu, gelu, sigmoid, softmax, ..."""

from burnpy.runtime.composed import checks

# SELU's constants, as burn's
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_GAMMA = 1.0507009873554804934193349852946


class ActivationMethods:
    __slots__ = ()

    def hardtanh(self, min_val, max_val):
        return self.clamp(min_val, max_val)

    def relu6(self):
        return self.clamp(0.0, 6.0)

    def tanhshrink(self):
        return self.sub(self.tanh())

    def softplus(self, beta=1.0):
        """log(1 + exp(beta x)) / beta through the stable log_sigmoid: x - log_sigmoid(beta x) /
        beta where x > 0, else -log_sigmoid(-beta x) / beta. Finite, with the gradient
        sigmoid(beta x), over the whole float range, even where beta x itself overflows
        (burn's formula is inf with a NaN gradient once exp(beta x) overflows)."""
        positive = self.sub(self.mul(beta).log_sigmoid().div(beta))
        negative = self.mul(-beta).log_sigmoid().div(-beta)
        return negative.mask_where(self.greater_elem(0.0), positive)

    def quiet_softmax(self, dim):
        """exp(x_i) / (1 + sum_j exp(x_j)), shifted by the (detached) max for stability."""
        dim = checks.index("quiet_softmax", "dim", dim, self.ndim)
        max_vals = self.detach().max_dim(dim)
        exp_x = self.sub(max_vals).exp()
        return exp_x.div(exp_x.sum_dim(dim).add(max_vals.neg().exp()))

    def hard_swish(self):
        return self.mul(self.hard_sigmoid(1.0 / 6.0, 0.5))

    def mish(self):
        return self.mul(self.softplus(1.0).tanh())

    def elu(self, alpha):
        """x where x > 0, else alpha (exp(x) - 1)."""
        # The exp branch sees min(x, 0) only: an overflow there would reach the gradient as
        # 0 · inf = NaN even though the branch is not selected (celu and selu likewise).
        negative = self.clamp_max(0.0).exp().sub(1.0).mul(alpha)
        return self.mask_where(self.lower_equal_elem(0.0), negative)

    def celu(self, alpha):
        """x where x > 0, else alpha (exp(x / alpha) - 1)."""
        scaled = self.clamp_max(0.0).div(alpha).exp().sub(1.0).mul(alpha)
        return self.mask_where(self.lower_equal_elem(0.0), scaled)

    def selu(self):
        positive = self.mul(SELU_GAMMA)
        negative = self.clamp_max(0.0).exp().sub(1.0).mul(SELU_ALPHA * SELU_GAMMA)
        return negative.mask_where(self.greater_equal_elem(0.0), positive)

    def thresholded_relu(self, alpha):
        """x where x > alpha, else 0."""
        return self.mask_fill(self.lower_equal_elem(alpha), 0.0)

    def threshold(self, threshold, value):
        """x where x > threshold, else value."""
        return self.mask_fill(self.lower_equal_elem(threshold), value)

    def glu(self, dim):
        """The first half along `dim` times the sigmoid of the second half."""
        dim = checks.index("glu", "dim", dim, self.ndim)
        size = self.shape[dim]
        if size % 2:
            raise ValueError(f"glu: dim {dim} has odd size {size}; it must split in two halves")
        half = size // 2
        return self.narrow(dim, 0, half).mul(self.narrow(dim, half, half).sigmoid())

    def softsign(self):
        return self.div(self.abs().add(1.0))

    def hard_shrink(self, lambd):
        """x where |x| > lambd, else 0."""
        return self.mask_fill(self.abs().lower_equal_elem(lambd), 0.0)

    def soft_shrink(self, lambd):
        """x - sign(x) lambd where |x| > lambd, else 0."""
        return self.shrink(lambd, lambd)

    def shrink(self, lambd, bias):
        """x - sign(x) bias where |x| > lambd, else 0."""
        shrunk = self.sub(self.sign().mul(bias))
        return shrunk.mask_fill(self.abs().lower_equal_elem(lambd), 0.0)
