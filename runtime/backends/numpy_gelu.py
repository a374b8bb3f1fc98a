"""GELU on the NumPy backend in float32: the normal CDF from numpy's vectorised ufuncs.

scipy's `erf` evaluates one element at a time (about 18 ns each, more than the GEMMs of a small
transformer); here Φ is a fixed sequence of whole-array ufunc passes, in place. GELU needs
Φ(x) = erfc(-x/√2) / 2, never erf itself, and erfc keeps its relative accuracy in the tail,
where `1 + erf(x)` cancels. The tail h = Φ(-|x|) is Chebyshev's fit of erfc (Numerical
Recipes' `erfcc`, relative error below 1.2e-7 for every z >= 0):

    erfc(z) = t exp(-z² + P(t)),  t = 1 / (1 + z/2),  P a polynomial of degree 9,

and gelu(x) = max(x, 0) - |x| h (x Φ(x) for either sign, with no branch). float64 keeps
scipy's erf (exact to double); float16 computes in float32.
"""

import math

import numpy as np

# P's coefficients, highest degree first; the constant term also halves erfc (log 1/2)
_P = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418)
_P += (0.37409196, 1.00002368, -1.26551223 + math.log(0.5))
_HALF_SQRT_HALF = 0.5 / math.sqrt(2.0)  # t's z/2, with z = |x| / √2
_FRAC_1_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
# Beyond ±20, Φ is 0 or 1 in float32 and φ 0: x is clipped there first, so ±inf gives the
# limits (gelu(inf) = inf, gelu(-inf) = 0; slopes 1 and 0), and x² never overflows. NaN stays.
_BOUND = 20.0


def _tail(x):
    """(h, |x|, e^(-x²/2)) for float32 x with |x| <= _BOUND, with h = Φ(-|x|), each a new array.

    -x²/2 reaches -100 before h underflows; rounded in float32 it would be off by up to 50 ulp of
    exp's result. So x is split as hi + lo, hi keeping the top 12 bits of the significand:
    hi² is exact, and the rest, lo (x + hi), is small."""
    magnitude = np.abs(x)
    t = magnitude * _HALF_SQRT_HALF
    t += 1.0
    np.reciprocal(t, out=t)
    h = t * _P[0]
    for coefficient in _P[1:-1]:
        h += coefficient
        h *= t
    h += _P[-1]
    hi = (x.view(np.int32) & np.int32(-4096)).view(np.float32)
    rest = x + hi
    rest *= x - hi
    rest *= -0.5
    np.exp(rest, out=rest)
    hi *= hi
    hi *= -0.5
    gauss = np.exp(hi, out=hi)
    gauss *= rest  # e^(-x²/2), to a few ulp
    np.exp(h, out=h)
    h *= t
    h *= gauss
    return h, magnitude, gauss


def _float32(name, kernel):
    """The backend's kernel `name`: `kernel` on float32 arrays (float16 goes through float32
    and back); float64 and 0-d arrays (whose arithmetic gives numpy scalars, which cannot be
    written in place) take the shared kernel."""

    def run(self, x, *rest):
        if x.ndim and x.dtype == np.float32:
            return kernel(x, *rest)
        if x.ndim and x.dtype == np.float16:
            wide = [a.astype(np.float32) for a in (x, *rest)]
            return kernel(*wide).astype(np.float16)
        return getattr(super(NumPyGeluKernels, self), name)(x, *rest)

    run.__name__ = name
    return run


def _gelu(x):
    h, magnitude, _ = _tail(np.clip(x, -_BOUND, _BOUND))
    magnitude *= h
    out = np.maximum(x, 0.0)
    out -= magnitude
    return out


def _gelu_backward(x, grad):
    # Φ(x) + x φ(x), with φ(x) = e^(-x²/2) / √(2π)
    x = np.clip(x, -_BOUND, _BOUND)
    h, _, gauss = _tail(x)
    # Φ(x) = h where x < 0, 1 - h where x >= 0 (the sign bit, so -0.0 counts as negative);
    # arithmetic: np.where costs as much as all of _tail's passes
    upper = np.logical_not(np.signbit(x)).view(np.uint8)
    cdf = h * -2.0
    cdf += 1.0
    cdf *= upper
    cdf += h
    gauss *= x
    gauss *= _FRAC_1_SQRT_2PI
    gauss += cdf
    gauss *= grad
    return gauss


class NumPyGeluKernels:
    gelu = _float32("gelu", _gelu)
    gelu_backward = _float32("gelu_backward", _gelu_backward)
