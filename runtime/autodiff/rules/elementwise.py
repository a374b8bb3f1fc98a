"""Element-wise rules: arithmetic, scalar forms, powers, clamps, unary math
(docs/semantics.md#element-wise). Constants are Python floats: a numpy scalar would promote
float16/float32 gradients."""

import math

FRAC_2_SQRT_PI = 2 / math.sqrt(math.pi)


def _zeros(B, tensor_shape, tensor_device, tensor_dtype):
    """Piecewise-constant ops (round, floor, ...): burn gives zeros of the input's shape."""
    return B.float_zeros(tensor_shape, tensor_device, tensor_dtype)


def _powf_scalar_lhs(g, lhs, rhs):
    # x^0 is constant: its gradient is 0, where 0 * x^-1 would be NaN at x = 0
    return g * rhs * lhs ** (rhs - 1) if rhs != 0 else g * 0


def _powi_lhs(B, g, lhs, rhs, lhs_dtype):
    exponent = B.int_into_float(rhs, lhs_dtype)
    return g * exponent * lhs ** (exponent - 1)


def _powf_rhs(B, g, lhs, out):
    # d(x^y)/dy = x^y log x, whose limit is 0 where x^y is 0 (x = 0, y > 0): not 0 * -inf = NaN
    # (log of 1 where x^y is 0: no log(0) computed, no warning)
    return g * out * B.float_log(B.float_mask_fill(lhs, out == 0, 1.0))


def _matmul_rhs(B, g, lhs, rhs_shape):
    if len(rhs_shape) == 2 and lhs.ndim > 2:
        # a matrix broadcast over lhs's batch: one product over every row of the batch, where a
        # batched product would make a matrix per batch element for the step to sum
        rows = B.float_reshape(lhs, (-1, lhs.shape[-1]))
        return B.float_matmul(B.float_swap_dims(rows, 0, 1), B.float_reshape(g, (-1, g.shape[-1])))
    return B.float_matmul(B.float_swap_dims(lhs, -1, -2), g)


def _clamp(g, tensor, min, max):
    # burn masks strictly (x < min, x > max): a value on a bound passes the gradient
    return g * ~((tensor < min) | (tensor > max))


class ElementwiseRules:
    """The element-wise ops' rules, one row per op (its name): a VJP per float input."""

    # binary (broadcasting is undone by the step)
    float_add = (lambda g: g, lambda g: g)
    float_sub = (lambda g: g, lambda g: -g)
    float_mul = (lambda g, rhs: g * rhs, lambda g, lhs: g * lhs)
    float_div = (lambda g, rhs: g / rhs, lambda g, lhs, rhs: -g * lhs / (rhs * rhs))
    float_remainder = (lambda g: g, lambda B, g, lhs, rhs: -g * B.float_floor(lhs / rhs))
    float_powf = (
        lambda g, lhs, rhs: g * rhs * lhs ** (rhs - 1),
        _powf_rhs,
    )
    float_atan2 = (
        lambda g, lhs, rhs: g * rhs / (lhs * lhs + rhs * rhs),
        lambda g, lhs, rhs: -g * lhs / (lhs * lhs + rhs * rhs),
    )
    float_hypot = (lambda g, lhs, out: g * lhs / out, lambda g, rhs, out: g * rhs / out)
    float_matmul = (
        lambda B, g, rhs: B.float_matmul(g, B.float_swap_dims(rhs, -1, -2)),
        _matmul_rhs,
    )
    float_det = (lambda B, g, tensor, out: B.det_backward(tensor, out, g),)
    float_cross = (
        lambda B, g, rhs, dim: B.float_cross(rhs, g, dim),
        lambda B, g, lhs, dim: B.float_cross(g, lhs, dim),
    )
    # a float tensor and an int tensor: only the base has a gradient
    float_powi = (_powi_lhs,)
    # tensor-scalar
    float_add_scalar = (lambda g: g,)
    float_sub_scalar = (lambda g: g,)
    float_mul_scalar = (lambda g, rhs: g * rhs,)
    float_div_scalar = (lambda g, rhs: g / rhs,)
    float_remainder_scalar = (lambda g: g,)
    float_powf_scalar_impl = (_powf_scalar_lhs,)
    float_clamp = (_clamp,)
    float_clamp_min = (lambda g, tensor, min: g * ~(tensor < min),)
    float_clamp_max = (lambda g, tensor, max: g * ~(tensor > max),)
    # unary
    float_square = (lambda g, tensor: g * 2.0 * tensor,)
    float_neg = (lambda g: -g,)
    float_exp = (lambda g, out: g * out,)
    float_log = (lambda g, tensor: g / tensor,)
    float_log1p = (lambda g, tensor: g / (tensor + 1),)
    float_sqrt = (lambda g, out: g * 0.5 / out,)
    float_recip = (lambda g, out: -g * out * out,)
    float_abs = (lambda B, g, tensor: g * B.float_sign(tensor),)
    float_sign = (lambda g: g * 0,)  # zero almost everywhere; NaN stays NaN
    float_sin = (lambda B, g, tensor: g * B.float_cos(tensor),)
    float_cos = (lambda B, g, tensor: -g * B.float_sin(tensor),)
    float_tan = (lambda g, out: g * (1 + out * out),)
    float_sinh = (lambda B, g, tensor: g * B.float_cosh(tensor),)
    float_cosh = (lambda B, g, tensor: g * B.float_sinh(tensor),)
    float_tanh = (lambda g, out: g * (1 - out * out),)
    float_asin = (lambda B, g, tensor: g / B.float_sqrt(1 - tensor * tensor),)
    float_acos = (lambda B, g, tensor: -g / B.float_sqrt(1 - tensor * tensor),)
    float_atan = (lambda g, tensor: g / (1 + tensor * tensor),)
    float_asinh = (lambda B, g, tensor: g / B.float_sqrt(tensor * tensor + 1),)
    float_acosh = (lambda B, g, tensor: g / B.float_sqrt(tensor * tensor - 1),)
    float_atanh = (lambda g, tensor: g / (1 - tensor * tensor),)
    float_erf = (lambda B, g, tensor: g * FRAC_2_SQRT_PI * B.float_exp(-tensor * tensor),)
    float_round = (_zeros,)
    float_floor = (_zeros,)
    float_ceil = (_zeros,)
    float_trunc = (_zeros,)
    float_round_to = (_zeros,)
