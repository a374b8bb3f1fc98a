"""GELU on the NumPy backend in float32: the normal CDF from a table, in a few vectorised passes.

scipy's `erf` evaluates one element at a time (about 18 ns each, more than the GEMMs of a small
transformer), and a polynomial approximation costs some forty numpy passes. GELU needs
Φ(x) = erfc(-x/√2) / 2, never erf itself, and only its tail h(a) = Φ(-a), a = |x|, to be
accurate relative to itself (Φ(x) = 1 - h for x >= 0; gelu(x) = max(x, 0) - a h for either
sign, with no branch). So h is tabulated at the nodes a_i = i H (H = 2^-11, exact in binary)
from scipy's float64 `ndtr`, and between nodes interpolated geometrically:

    h(a_i + δ) ≈ h(a_i) · exp(δ / H · ln(h(a_{i+1}) / h(a_i))),

exact at the nodes and off by at most H²/8 · |(ln h)''| <= 3e-8 relative between them, since
(ln h)'' lies in [-1, 0]. The density needs no interpolation: φ(a_i + δ) = φ(a_i) ·
exp(-δ (a_i + δ/2)) exactly, and δ = a - a_i is exact (a scaled by 2^11 splits into whole and
fraction without rounding). Beyond A_MAX, where h(a) drops below 1e-35, h and φ are 0.
float64 keeps scipy's erf (exact to double); float16 and bfloat16 compute in float32.

The tanh approximation needs no table (numpy's float32 tanh is vectorised); its kernels here
only go chunk by chunk, so that their few temporaries stay in cache, and keep the slope.
"""

import functools
import math

import numpy as np

from burnpy.runtime.backends.numpy_narrow import is_narrow

from burnpy.runtime.backends.kernels.activation import GELU_CUBIC, SQRT_2_OVER_PI, TANH_GELU_BOUND

_H = 2.0**-11
_A_MAX = 12.5  # h(12.5) = 3.7e-36 and φ(12.5) = 1.6e-34 are still float32 normals
_NODES = round(_A_MAX / _H)  # the last node, A_MAX, holds h = φ = 0


@functools.cache
def _tables():
    """(h(a_i), ln h(a_{i+1}) - ln h(a_i), φ(a_i)) for i = 0 .. _NODES, as float32: made at
    the first call, as scipy takes a quarter second to import."""
    from scipy import special

    a = np.arange(_NODES + 2) * _H
    log_h = special.log_ndtr(-a)
    tail = np.exp(log_h[:-1])
    step = np.diff(log_h)
    density = np.exp(-0.5 * a[:-1] ** 2) / math.sqrt(2 * math.pi)
    tail[-1] = step[-1] = density[-1] = 0.0  # at A_MAX and beyond
    return tuple(t.astype(np.float32) for t in (tail, step, density))


def _nodes(x):
    """(a, i, f, spare) for float32 x: a = min(|x|, A_MAX) (NaN stays), a = (i + f) H with i
    its node, f in [0, 1); `spare` is a float32 array of x's shape to write into."""
    magnitude = np.minimum(np.abs(x), _A_MAX)
    fraction = magnitude * (1 / _H)
    spare = np.floor(fraction)  # (np.modf costs ten times more)
    fraction -= spare
    with np.errstate(invalid="ignore"):  # a NaN's node is garbage, clipped by np.take
        node = spare.astype(np.intp)  # (np.take would convert narrower indices first)
    return magnitude, node, fraction, spare


def _tail(node, fraction, spare):
    """h = Φ(-a) at a = (node + fraction) H, interpolated, written into `fraction`."""
    tail, step, _ = _tables()
    fraction *= np.take(step, node, mode="clip", out=spare)
    np.exp(fraction, out=fraction)
    fraction *= np.take(tail, node, mode="clip", out=spare)
    return fraction


# The kernels go over the input in chunks of this many elements, each written into its slice of
# the output: the temporaries (six, one of them int64) then stay in a core's cache, and the peak
# memory is the output's plus 2 MiB, whatever the input's size.
CHUNK = 1 << 16


def _float32(name, kernel, outputs=1):
    """The backend's kernel `name`: `kernel(x, *rest, *outs)` over C-contiguous float32 arrays
    of one shape, chunk by chunk, making `outputs` arrays (float16 and bfloat16 go through
    float32 and back). float64, 0-d arrays (whose arithmetic gives numpy scalars, which cannot
    be written in place) and inputs of other layouts or shapes (a broadcast gradient) take the
    shared kernel."""

    def run(self, x, *rest):
        if is_narrow(x.dtype) and outputs == 1:  # computed in float32
            wide = [a.astype(np.float32) for a in (x, *rest)]
            return np.asarray(run(self, *wide)).astype(x.dtype)
        arrays = (x, *rest)
        if not (
            x.ndim
            and all(a.dtype == np.float32 for a in arrays)
            and all(a.shape == x.shape and a.flags.c_contiguous for a in arrays)
        ):
            return getattr(super(NumPyGeluKernels, self), name)(x, *rest)
        outs = [np.empty_like(x) for _ in range(outputs)]
        flat = [a.reshape(-1) for a in (*arrays, *outs)]
        for start in range(0, x.size, CHUNK):
            kernel(*(a[start : start + CHUNK] for a in flat))
        return outs[0] if outputs == 1 else tuple(outs)

    run.__name__ = name
    return run


def _gelu(x, out):
    magnitude, node, fraction, spare = _nodes(x)
    magnitude *= _tail(node, fraction, spare)
    np.maximum(x, 0.0, out=out)  # NaN stays NaN, +inf stays inf
    out -= magnitude


def _gelu_keeping(x, out, slope):
    """gelu into `out` and its slope Φ(x) + x φ(x) into `slope`, sharing the nodes and h."""
    magnitude, node, fraction, spare = _nodes(x)
    offset = fraction * _H
    h = _tail(node, fraction, spare)
    np.maximum(x, 0.0, out=out)
    out -= np.multiply(magnitude, h, out=slope)
    _slope(x, magnitude, node, offset, h, spare, slope)


def _gelu_backward(x, grad, out):
    magnitude, node, fraction, spare = _nodes(x)
    offset = fraction * _H  # δ = a - a_i, exact
    _slope(x, magnitude, node, offset, _tail(node, fraction, spare), spare, out)
    out *= grad


def _slope(x, magnitude, node, offset, h, spare, out):
    """Φ(x) + x φ(x) into `out`, from _nodes' arrays, δ (`offset`) and the tail h; each array
    reused once its value is spent (all but h and out are)."""
    # φ(a) = φ(a_i) exp(δ (δ/2 - a))
    density = np.multiply(offset, 0.5, out=spare)
    density -= magnitude
    density *= offset
    np.exp(density, out=density)
    density *= np.take(_tables()[2], node, mode="clip", out=offset)
    density *= np.clip(x, -_A_MAX, _A_MAX, out=magnitude)  # x φ(x); x clipped: ±inf give 0
    # Φ(x) = h where x < 0, 1 - h where x >= 0 (the sign bit, so -0.0 counts as negative);
    # arithmetic: np.where costs several passes' worth
    cdf = np.multiply(h, -2.0, out=offset)
    cdf += 1.0
    cdf *= np.logical_not(np.signbit(x)).view(np.uint8)
    cdf += h
    np.add(density, cdf, out=out)


# u = k (x + c x³) = x (K + KC x²); u' = K + 3 KC x²
_K, _KC = np.float32(SQRT_2_OVER_PI), np.float32(SQRT_2_OVER_PI * GELU_CUBIC)


def _tanh_parts(x, t):
    """(x clipped to ±TANH_GELU_BOUND, its square); tanh(u) of the clipped x into `t`."""
    clipped = np.clip(x, -TANH_GELU_BOUND, TANH_GELU_BOUND)
    square = np.multiply(clipped, clipped)
    np.multiply(square, _KC, out=t)
    t += _K
    t *= clipped
    np.tanh(t, out=t)
    return clipped, square


def _tanh_slope(clipped, square, t, out):
    """0.5 (1 + t) + 0.5 x (1 - t²) u' into `out`; `square` is spent."""
    np.multiply(t, t, out=out)
    out -= 1.0
    square *= -3 * _KC
    square -= _K
    out *= square  # (1 - t²) u'
    out *= clipped
    out += t
    out += 1.0
    out *= 0.5


def _gelu_approximate(x, out):
    _tanh_parts(x, out)
    out += 1.0
    out *= 0.5  # before the product: x (1 + t) overflows at the top of the range
    out *= np.maximum(x, -TANH_GELU_BOUND)  # -inf gives 0, not -inf · 0


def _gelu_approximate_keeping(x, out, slope):
    clipped, square = _tanh_parts(x, out)
    _tanh_slope(clipped, square, out, slope)
    out += 1.0
    out *= 0.5
    out *= np.maximum(x, -TANH_GELU_BOUND, out=clipped)


def _gelu_approximate_backward(x, grad, out):
    t = np.empty_like(x)
    clipped, square = _tanh_parts(x, t)
    _tanh_slope(clipped, square, t, out)
    out *= grad


class NumPyGeluKernels:
    gelu = _float32("gelu", _gelu)
    gelu_backward = _float32("gelu_backward", _gelu_backward)
    # (float16 and bfloat16 keep nothing: their backward computes in float32 from the input)
    gelu_keeping = _float32("gelu_keeping", _gelu_keeping, outputs=2)
    gelu_approximate = _float32("gelu_approximate", _gelu_approximate)
    gelu_approximate_backward = _float32("gelu_approximate_backward", _gelu_approximate_backward)
    gelu_approximate_keeping = _float32(
        "gelu_approximate_keeping", _gelu_approximate_keeping, outputs=2
    )
