"""Activation rules (burn's ActivationOps, burn-semantics §9.5). Masks multiply: a float times
a bool keeps the float's dtype on every array library."""

import math

FRAC_1_SQRT_2 = 1 / math.sqrt(2)
FRAC_1_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def _gelu(B, g, tensor):
    # d/dx x Φ(x) = Φ(x) + x φ(x): the exact form's derivative. burn's default gelu_backward is
    # the tanh approximation's, which does not match its exact forward (tests pin this).
    cdf = 0.5 * (1 + B.float_erf(tensor * FRAC_1_SQRT_2))
    pdf = B.float_exp(-0.5 * tensor * tensor) * FRAC_1_SQRT_2PI
    return g * (cdf + tensor * pdf)


RULES = {
    "relu": (lambda g, out: g * (out > 0),),
    "leaky_relu": (
        lambda g, tensor, negative_slope: g * (tensor >= 0) + g * negative_slope * (tensor < 0),
    ),
    "prelu": (
        lambda g, tensor, alpha: g * (tensor >= 0) + g * alpha * (tensor < 0),
        lambda g, tensor: g * tensor * (tensor < 0),
    ),
    "gelu": (_gelu,),
    "sigmoid": (lambda g, out: g * out * (1 - out),),
    # 1 - sigmoid(x) = sigmoid(-x), without the cancellation for large x
    "log_sigmoid": (lambda B, g, tensor: g * B.sigmoid(-tensor),),
    # the row max of the forward is a constant shift (burn detaches it): no term for it
    "softmax": (lambda B, g, out, dim: out * (g - B.float_sum_dim(g * out, dim)),),
    "log_softmax": (lambda B, g, out, dim: g - B.float_exp(out) * B.float_sum_dim(g, dim),),
}
