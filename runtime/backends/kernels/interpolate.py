"""2-D interpolation of [b, c, h, w] (burn's `interpolate` and `interpolate_backward`).

Every mode is separable and linear in x: out = Wh · x · Wwᵀ, with a [out, in] weight matrix per
axis that depends only on the sizes, the mode and align_corners. So the forward is two batched
matmuls and the backward their transposes, on any array library; the matrices are built once
per shape, in float64, by burn-ndarray's formulas:

- nearest: in = min(floor(out · in_size / out_size), in_size - 1), burn's floor rule (not
  torch's half-pixel "nearest-exact"); nearest_exact: in = floor((out + 0.5) · in_size /
  out_size), clamped;
- bilinear, bicubic (Keys, a = -0.75) and lanczos3 map `out` to `(out + 0.5) · ratio - 0.5`,
  or `out · (in_size - 1) / max(out_size - 1, 1)` with align_corners. Bilinear clamps that
  coordinate into the input; bicubic clamps its 4 taps; lanczos3 skips its out-of-range taps
  (6 per axis) and divides by the sum of the weights it kept.
"""

import functools
import math

import numpy as np

from burnpy.runtime.errors import user_call

MODES = ("nearest", "nearest_exact", "bilinear", "bicubic", "lanczos3")
CUBIC_A = -0.75


class InterpolateKernels:
    def interpolate(self, x, output_size, mode, align_corners):
        xp = self.xp
        (in_h, in_w), (out_h, out_w) = x.shape[2:], output_size
        if mode in ("nearest", "nearest_exact"):
            # a gather: no multiply-adds with one-hot matrices
            rows = xp.asarray(nearest_indices(mode, in_h, out_h), device=x.device)
            cols = xp.asarray(nearest_indices(mode, in_w, out_w), device=x.device)
            return xp.take(xp.take(x, rows, axis=2), cols, axis=3)
        weight_h = self._interpolation_matrix(mode, in_h, out_h, align_corners, x)
        weight_w = self._interpolation_matrix(mode, in_w, out_w, align_corners, x)
        return xp.matmul(xp.matmul(weight_h, x), xp.matrix_transpose(weight_w))

    def interpolate_backward(self, x, grad, output_size, mode, align_corners):
        xp = self.xp
        in_h, in_w = x.shape[2:]
        out_h, out_w = output_size
        weight_h = self._interpolation_matrix(mode, in_h, out_h, align_corners, grad)
        weight_w = self._interpolation_matrix(mode, in_w, out_w, align_corners, grad)
        return xp.matmul(xp.matmul(xp.matrix_transpose(weight_h), grad), weight_w)

    def _interpolation_matrix(self, mode, in_size, out_size, align_corners, like):
        matrix = interpolation_matrix(mode, in_size, out_size, align_corners)
        # a copy: the cached matrix is read-only, which torch cannot wrap
        return self.xp.asarray(matrix, dtype=like.dtype, device=like.device, copy=True)


def nearest_indices(mode, in_size, out_size):
    ratio = in_size / out_size
    shift = 0.5 if mode == "nearest_exact" else 0.0
    positions = np.floor((np.arange(out_size) + shift) * ratio).astype(np.int64)
    return np.minimum(positions, in_size - 1)


def source_coordinates(in_size, out_size, align_corners):
    """The input coordinate each output position samples."""
    out = np.arange(out_size, dtype=np.float64)
    if align_corners:
        return out * ((in_size - 1) / max(out_size - 1, 1))
    return (out + 0.5) * (in_size / out_size) - 0.5


@functools.lru_cache(maxsize=64)
def interpolation_matrix(mode, in_size, out_size, align_corners):
    """The [out_size, in_size] float64 weights of one axis (read-only: it is cached)."""
    matrix = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    if mode in ("nearest", "nearest_exact"):
        matrix[rows, nearest_indices(mode, in_size, out_size)] = 1.0
    elif mode == "bilinear":
        coords = source_coordinates(in_size, out_size, align_corners)
        if not align_corners:
            coords = np.clip(coords, 0, in_size - 1)
        low = np.floor(coords).astype(np.int64)
        high = np.minimum(low + 1, in_size - 1)
        frac = coords - low
        np.add.at(matrix, (rows, low), 1 - frac)
        np.add.at(matrix, (rows, high), frac)
    elif mode == "bicubic":
        coords = source_coordinates(in_size, out_size, align_corners)
        start = np.floor(coords)
        t = coords - start
        weights = (
            _cubic_far(t + 1),
            _cubic_near(t),
            _cubic_near(1 - t),
            _cubic_far(2 - t),
        )
        for tap, weight in zip(range(-1, 3), weights):
            index = np.clip(start.astype(np.int64) + tap, 0, in_size - 1)
            np.add.at(matrix, (rows, index), weight)
    elif mode == "lanczos3":
        coords = source_coordinates(in_size, out_size, align_corners)
        start = np.floor(coords)
        for tap in range(-2, 4):
            index = start.astype(np.int64) + tap
            inside = (index >= 0) & (index < in_size)
            weight = _lanczos3(coords - (start + tap))
            matrix[rows[inside], index[inside]] += weight[inside]
        totals = matrix.sum(axis=1, keepdims=True)
        matrix = np.divide(matrix, totals, out=matrix, where=totals != 0)
    else:
        raise ValueError(
            f"{user_call('interpolate')}: unknown mode {mode!r}; expected one of {MODES}"
        )
    matrix.flags.writeable = False
    return matrix


def _cubic_near(x):
    """Keys' cubic convolution kernel on |x| <= 1."""
    return ((CUBIC_A + 2) * x - (CUBIC_A + 3)) * x * x + 1


def _cubic_far(x):
    """Keys' cubic convolution kernel on 1 < |x| < 2."""
    return ((CUBIC_A * x - 5 * CUBIC_A) * x + 8 * CUBIC_A) * x - 4 * CUBIC_A


def _lanczos3(x):
    """sinc(x) sinc(x / 3) on |x| < 3, else 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        pi_x = math.pi * x
        value = np.sin(pi_x) * np.sin(pi_x / 3) / (pi_x * pi_x / 3)
    return np.where(x == 0, 1.0, np.where(np.abs(x) >= 3, 0.0, value))
