"""Activation rules (burn's ActivationOps, docs/semantics.md#activations). relu, gelu, sigmoid and
log_sigmoid call the backend's `_backward` ops, as burn-autodiff does; those ops are catalogue
entries themselves, differentiable (second derivatives). Masks multiply: a float times a bool
keeps the float's dtype on every array library."""

import math

FRAC_1_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
# the tanh GELU's constants, as its kernels' (runtime/backends/kernels/activation.py; codegen
# reads this file without loading the backends)
SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
GELU_CUBIC = 0.044715
TANH_GELU_BOUND = 10.0


def _gelu_backward_x(B, g, x, grad):
    # d/dx grad (Φ(x) + x φ(x)) = grad φ(x) (2 - x²), as φ'(x) = -x φ(x)
    return g * grad * B.float_exp(-0.5 * x * x) * FRAC_1_SQRT_2PI * (2 - x * x)


def _gelu_approximate_backward_x(B, g, x, grad):
    # d/dx grad s(x), s = (1 + t) / 2 + x (1 - t²) u' / 2, t = tanh u, u = k (x + c x³):
    # grad (1 - t²) (u' + x (u''/2 - t u'²)); 0 beyond the clip, where s is constant
    x = B.float_clamp(x, -TANH_GELU_BOUND, TANH_GELU_BOUND)
    square = x * x
    du = (1 + 3 * GELU_CUBIC * square) * SQRT_2_OVER_PI
    t = B.float_tanh((1 + GELU_CUBIC * square) * x * SQRT_2_OVER_PI)
    curvature = 3 * SQRT_2_OVER_PI * GELU_CUBIC * x - t * du * du
    return g * grad * (1 - t * t) * (du + x * curvature)


class ActivationRules:
    """The activations' rules, one row per op (its name): a VJP per float input."""

    relu = (lambda B, g, out: B.relu_backward(out, g),)
    # piecewise constant in `output`: zero almost everywhere; NaN stays NaN
    relu_backward = (lambda g: g * 0, lambda B, g, output: B.relu_backward(output, g))
    leaky_relu = (
        lambda g, tensor, negative_slope: g * (tensor >= 0) + g * negative_slope * (tensor < 0),
    )
    prelu = (
        lambda g, tensor, alpha: g * (tensor >= 0) + g * alpha * (tensor < 0),
        lambda g, tensor: g * tensor * (tensor < 0),
    )
    # `slope`: gelu' at the input, where the forward kept it (gelu_keeping)
    gelu = (lambda B, g, tensor, slope: B.gelu_backward(tensor, g) if slope is None else g * slope,)
    gelu_backward = (_gelu_backward_x, lambda B, g, x: B.gelu_backward(x, g))
    gelu_approximate = (
        lambda B, g, tensor, slope: (
            B.gelu_approximate_backward(tensor, g) if slope is None else g * slope
        ),
    )
    gelu_approximate_backward = (
        _gelu_approximate_backward_x,
        lambda B, g, x: B.gelu_approximate_backward(x, g),
    )
    sigmoid = (lambda B, g, out: B.sigmoid_backward(out, g),)
    sigmoid_backward = (
        lambda g, output, grad: g * grad * (1 - 2 * output),
        lambda B, g, output: B.sigmoid_backward(output, g),
    )
    log_sigmoid = (lambda B, g, tensor: B.log_sigmoid_backward(tensor, g),)
    # d/dx grad sigmoid(-x) = -grad sigmoid(x) sigmoid(-x)
    log_sigmoid_backward = (
        lambda B, g, x, grad: -g * grad * B.sigmoid(x) * B.sigmoid(-x),
        lambda B, g, x: B.log_sigmoid_backward(x, g),
    )
    softmax = (lambda B, g, out, dim: B.softmax_backward(out, g, dim),)
    log_softmax = (lambda B, g, out, dim: g - B.float_exp(out) * B.float_sum_dim(g, dim),)
