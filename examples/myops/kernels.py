"""myops' kernels: one method per primitive entry of ops.yaml (and the backward kernels its
rules call), written over `self.xp`, the backend's array namespace (numpy or torch), so one
class serves every backend."""

import math

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


class Kernels:
    def logaddexp(self, lhs, rhs):
        return self.xp.logaddexp(lhs, rhs)

    def linear_gelu(self, x, weight, bias):
        pre = self.xp.matmul(x, weight) + bias
        inner = SQRT_2_OVER_PI * (pre + 0.044715 * pre**3)
        return 0.5 * pre * (1.0 + self.xp.tanh(inner))

    def linear_gelu_backward(self, x, weight, bias, g, tracked):
        """The gradients of x, weight and bias in one pass: the GELU's slope is computed once
        and shared by the three."""
        xp = self.xp
        pre = xp.matmul(x, weight) + bias
        tanh = xp.tanh(SQRT_2_OVER_PI * (pre + 0.044715 * pre**3))
        slope = 0.5 * (1.0 + tanh) + 0.5 * pre * (1.0 - tanh * tanh) * SQRT_2_OVER_PI * (
            1.0 + 3 * 0.044715 * pre * pre
        )
        g_pre = g * slope
        x_grad = xp.matmul(g_pre, xp.swapaxes(weight, -1, -2)) if tracked[0] else None
        rows = g_pre.reshape(-1, g_pre.shape[-1])
        weight_grad = xp.matmul(x.reshape(-1, x.shape[-1]).T, rows) if tracked[1] else None
        bias_grad = rows.sum(0) if tracked[2] else None
        return x_grad, weight_grad, bias_grad
