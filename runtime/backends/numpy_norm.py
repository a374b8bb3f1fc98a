"""layer_norm, rms_norm and their backward on the NumPy backend (float32, float64): chunks of
rows, BLAS.

What costs here is passes over the input, and numpy's ufuncs pay per inner loop: an op that
spreads one value per row over rows of a few hundred elements costs twice a plain one. So:

- the rows go by in chunks that stay in a core's L2 cache, each worked on in place in its
  slice of the output (the one array a call makes at full size);
- the per-row sums are BLAS matrix-vector products (`gemv`) and `np.vecdot`; each sum of a
  per-row value and a per-column one (the mean's subtraction, beta's addition) is a BLAS rank-1
  update (`ger`: A += u vᵀ), half the cost of numpy's broadcast op; a product of the two
  (r γ) is made by a BLAS product of a column and a row (`gemm`, K = 1) into a scratch chunk,
  which one contiguous multiply then applies;
- the backward needs no x̂: with c = x - μ (centred as the forward: the two-pass variance, exact
  for inputs with a large mean), r = 1 / sqrt(var + eps) and ĝ = g γ, each row's dx is
  r (ĝ - mean(ĝ)) - r³ mean(ĝ c) c, and dγ = Σ r g c;
- rms_norm is layer_norm without the centring: r = 1 / sqrt(mean(x²) + eps), y = x (r γ), and
  dx = r ĝ - r³ mean(ĝ x) x, dγ = Σ r g x (for a broadcast row gradient too, below);
- a gradient that is one row broadcast over the others (the seed of a `.sum()` loss is a
  broadcast view of one value) makes ĝ a single row: dγ and dβ are that row times column sums,
  and dx costs two passes.
"""

import functools
import os
import sys

import numpy as np

CHUNK_BYTES = 1 << 19  # per chunk of rows: with the chunk of input it reads, within L2

BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))  # (bfloat16's @ widens)


@functools.cache
def _blas(dtype, routine: str):
    """scipy's BLAS `routine` (ger, gemm) for `dtype`: scipy is imported at the first call."""
    from scipy.linalg import blas

    single_thread_scipy_blas()
    return getattr(blas, ("s" if dtype == np.float32 else "d") + routine)


def single_thread_scipy_blas() -> None:
    """Run the BLAS scipy brings in its own wheel, beside numpy's, at one thread (a BLAS they
    share keeps its count). Its products here are rank-1 updates, memory-bound; and each
    thread of a second pool spins a while after every call, taking the cores numpy's threads
    need for the next product."""
    from threadpoolctl import ThreadpoolController

    for library in ThreadpoolController().lib_controllers:
        if scipy_own(library.filepath):
            library.set_num_threads(1)


def scipy_own(filepath: str) -> bool:
    """Whether the library at `filepath` came in scipy's wheel (its package or scipy.libs)."""
    scipy = sys.modules.get("scipy")
    if scipy is None:
        return False
    home = os.path.dirname(os.path.realpath(scipy.__file__))
    return os.path.realpath(filepath).startswith((home + os.sep, home + ".libs" + os.sep))


def add_outer(a, rows, cols, alpha=1.0):
    """a[i, j] += alpha rows[i] cols[j], in place, for a C-contiguous 2-D `a`: BLAS `ger` on
    its transpose, which is Fortran-ordered, so that f2py hands BLAS `a` itself."""
    _blas(a.dtype, "ger")(alpha, cols, rows, a=a.T, overwrite_a=True)


def _outer(out, rows, cols):
    """out[i, j] = rows[i] cols[j], over whatever `out` held (BLAS reads no C when beta is 0)."""
    _blas(out.dtype, "gemm")(1.0, cols[:, None], rows[None, :], beta=0.0, c=out.T, overwrite_c=True)
    return out


class _Rows:
    """An input [..., d] as `count` rows of d, in chunks of `step` rows, and the row of ones
    its sums take. `statistics` (each row's mean and r, [count] each) are what a forward kept,
    read by the backward, or what a keeping forward fills (`keeping`)."""

    def __init__(self, input, statistics=None, keeping=False):
        self.d = input.shape[-1]
        self.count = input.size // self.d
        self.step = max(1, CHUNK_BYTES // (self.d * input.itemsize))
        self.ones = np.ones(self.d, input.dtype)
        if keeping:
            statistics = (np.empty(self.count, input.dtype), np.empty(self.count, input.dtype))
        self.statistics, self.keeping = statistics, keeping

    def chunks(self, *arrays):
        """Each chunk's first row, and its slices of `arrays`, seen as [count, d]."""
        flat = [a.reshape(self.count, self.d) for a in arrays]
        for start in range(0, self.count, self.step):
            yield start, [a[start : start + self.step] for a in flat]

    def centre(self, start, x, out, epsilon):
        """x - (its row means) into `out`, and each row's r = 1 / sqrt(var + epsilon): the
        rows from `start`, their statistics kept or computed (and kept when `keeping`)."""
        rows = slice(start, start + len(x))
        if self.statistics is not None and not self.keeping:
            mean, rstd = (s[rows] for s in self.statistics)
            np.copyto(out, x)
            add_outer(out, mean, self.ones, -1.0)
            return rstd
        mean = x.dot(self.ones)
        mean /= self.d
        np.copyto(out, x)
        add_outer(out, mean, self.ones, -1.0)
        rstd = np.vecdot(out, out)
        rstd /= self.d
        rstd += epsilon
        np.sqrt(rstd, out=rstd)
        np.divide(1, rstd, out=rstd)
        if self.keeping:
            self.statistics[0][rows] = mean
            self.statistics[1][rows] = rstd
        return rstd


def _inverse_rms(x, epsilon):
    """Each row's r = 1 / sqrt(mean(x²) + epsilon), for rows x [n, d]."""
    rstd = np.vecdot(x, x)
    rstd /= x.shape[1]
    rstd += epsilon
    np.sqrt(rstd, out=rstd)
    return np.divide(1, rstd, out=rstd)


def _kept_or_inverse_rms(kept, start, x, epsilon):
    """The r of the rows x from `start`: those `kept` by the forward, else computed."""
    return _inverse_rms(x, epsilon) if kept is None else kept[start : start + len(x)]


def _cube_term(dots, rstd, d):
    """-r³ dots / d per row: the coefficient of c in dx, where dots = Σ ĝ c."""
    dots *= rstd
    dots *= rstd
    dots *= rstd
    dots /= -d
    return dots[:, None]


def _fast(input, *others) -> bool:
    """Whether these arrays take this module's kernels (the others are the shared kernel's)."""
    return (
        input.dtype in BLAS_FLOATS
        and input.size > 0
        and all(a is None or a.dtype == input.dtype for a in others)
    )


def _broadcast_row(grad):
    """The one row a gradient repeats over its leading dims (strides 0 there), or None."""
    if grad.ndim > 1 and not any(grad.strides[:-1]):
        return grad[(0,) * (grad.ndim - 1)]
    return None


class NumPyNormKernels:
    def layer_norm(self, input, gamma, beta, epsilon):
        if not _fast(input, gamma, beta):
            return super().layer_norm(input, gamma, beta, epsilon)
        return self._layer_norm(input, gamma, beta, epsilon, _Rows(input))

    def layer_norm_keeping(self, input, gamma, beta, epsilon):
        """layer_norm, and each row's mean and r for the backward (two floats a row)."""
        if not _fast(input, gamma, beta):
            return super().layer_norm_keeping(input, gamma, beta, epsilon)
        rows = _Rows(input, keeping=True)
        return self._layer_norm(input, gamma, beta, epsilon, rows), rows.statistics

    @staticmethod
    def _layer_norm(input, gamma, beta, epsilon, rows):
        input = np.ascontiguousarray(input)
        out = np.empty_like(input)
        ones = np.ones(rows.step, input.dtype)
        scale = np.empty((rows.step, rows.d), input.dtype)  # r γ
        for start, (x, y) in rows.chunks(input, out):
            rstd = rows.centre(start, x, y, epsilon)
            y *= _outer(scale[: len(y)], rstd, gamma)
            if beta is not None:
                add_outer(y, ones[: len(y)], beta)
        return out

    def layer_norm_backward(
        self, input, gamma, grad, epsilon, wanted=(True, True, True), statistics=None
    ):
        """(dx, dgamma, dbeta), None for one not wanted; `statistics`: the rows' mean and r
        that `layer_norm_keeping` kept, else computed again."""
        if not _fast(input, gamma, grad):
            return super().layer_norm_backward(input, gamma, grad, epsilon, wanted, statistics)
        input = np.ascontiguousarray(input)
        gamma = np.ascontiguousarray(gamma)
        rows = _Rows(input, statistics)
        row = _broadcast_row(grad)
        if row is not None:
            return self._layer_norm_row_backward(input, gamma, row, epsilon, wanted, rows)
        grad = np.ascontiguousarray(grad)
        want_x, want_gamma, want_beta = wanted
        dbeta = None
        if want_beta:
            dbeta = np.ones(rows.count, grad.dtype).dot(grad.reshape(rows.count, rows.d))
        if not (want_x or want_gamma):
            return None, None, dbeta
        dx = np.empty_like(input) if want_x else None
        dgamma = np.zeros_like(gamma)
        centred = np.empty((rows.step, rows.d), input.dtype) if dx is None else None
        product = np.empty((rows.step, rows.d), input.dtype)
        for start, (x, g, *target) in rows.chunks(input, grad, *([dx] if want_x else [])):
            c = target[0] if want_x else centred[: len(x)]
            gc = product[: len(x)]
            rstd = rows.centre(start, x, c, epsilon)
            np.multiply(g, c, out=gc)
            dgamma += rstd.dot(gc)
            if not want_x:
                continue
            # dx = r ĝ - r mean(ĝ) - r³ mean(ĝ c) c, with r ĝ = g (r γ), r γ by BLAS
            c *= _cube_term(gc.dot(gamma), rstd, rows.d)
            gc = _outer(gc, rstd, gamma)
            gc *= g
            c += gc
            mean_g = g.dot(gamma)
            mean_g *= rstd
            mean_g /= rows.d
            add_outer(c, mean_g, rows.ones, -1.0)
        return dx, dgamma if want_gamma else None, dbeta

    @staticmethod
    def _layer_norm_row_backward(input, gamma, row, epsilon, wanted, rows):
        """The backward for a gradient that is `row` [d] in every row: ĝ = row γ is one row
        too, so dx = r (ĝ - mean(ĝ)) - r³ mean(ĝ c) c needs no pass but over c."""
        want_x, want_gamma, want_beta = wanted
        dbeta = row * rows.count if want_beta else None
        if not (want_x or want_gamma):
            return None, None, dbeta
        g = row * gamma
        g_centred = g - g.mean()
        dx = np.empty_like(input) if want_x else None
        column_sums = np.zeros_like(gamma)  # Σ r c, which dγ is `row` times
        centred = np.empty((rows.step, rows.d), input.dtype) if dx is None else None
        for start, (x, *target) in rows.chunks(input, *([dx] if want_x else [])):
            c = target[0] if want_x else centred[: len(x)]
            rstd = rows.centre(start, x, c, epsilon)
            column_sums += rstd.dot(c)
            if not want_x:
                continue
            c *= _cube_term(c.dot(g), rstd, rows.d)
            add_outer(c, rstd, g_centred)
        return dx, column_sums * row if want_gamma else None, dbeta

    def rms_norm(self, input, gamma, epsilon):
        if not _fast(input, gamma):
            return super().rms_norm(input, gamma, epsilon)
        return self._rms_norm(input, gamma, epsilon, _Rows(input))

    def rms_norm_keeping(self, input, gamma, epsilon):
        """rms_norm, and each row's r for the backward (one float a row)."""
        if not _fast(input, gamma):
            return super().rms_norm_keeping(input, gamma, epsilon)
        rows = _Rows(input)
        kept = np.empty(rows.count, input.dtype)
        return self._rms_norm(input, gamma, epsilon, rows, kept), kept

    @staticmethod
    def _rms_norm(input, gamma, epsilon, rows, kept=None):
        input = np.ascontiguousarray(input)
        out = np.empty_like(input)
        scale = np.empty((rows.step, rows.d), input.dtype)  # r γ
        for start, (x, y) in rows.chunks(input, out):
            rstd = _inverse_rms(x, epsilon)
            if kept is not None:
                kept[start : start + len(x)] = rstd
            np.multiply(x, _outer(scale[: len(y)], rstd, gamma), out=y)
        return out

    def rms_norm_backward(self, input, gamma, grad, epsilon, wanted=(True, True), inverse_rms=None):
        """(dx, dgamma), None for one not wanted; `inverse_rms`: the rows' r that
        `rms_norm_keeping` kept, else computed again."""
        if not _fast(input, gamma, grad):  # (computing r again: what was kept is one per row)
            return super().rms_norm_backward(input, gamma, grad, epsilon, wanted)
        input, gamma = np.ascontiguousarray(input), np.ascontiguousarray(gamma)
        row = _broadcast_row(grad)
        if row is not None:
            return self._rms_norm_row_backward(input, gamma, row, epsilon, wanted, inverse_rms)
        grad = np.ascontiguousarray(grad)
        rows = _Rows(input)
        want_x, want_gamma = wanted
        dx = np.empty_like(input) if want_x else None
        dgamma = np.zeros_like(gamma)
        product = np.empty((rows.step, rows.d), input.dtype)
        for start, (x, g, *target) in rows.chunks(input, grad, *([dx] if want_x else [])):
            rstd = _kept_or_inverse_rms(inverse_rms, start, x, epsilon)
            gx = product[: len(x)]
            np.multiply(g, x, out=gx)
            dgamma += rstd.dot(gx)
            if not want_x:
                continue
            # dx = g (r γ) - r³ mean(ĝ x) x, with r γ by BLAS
            np.multiply(x, _cube_term(gx.dot(gamma), rstd, rows.d), out=target[0])
            gx = _outer(gx, rstd, gamma)
            gx *= g
            target[0] += gx
        return dx, dgamma if want_gamma else None

    @staticmethod
    def _rms_norm_row_backward(input, gamma, row, epsilon, wanted, inverse_rms):
        """The backward for a gradient that is `row` [d] in every row: ĝ = row γ is one row
        too, so dγ is `row` times the column sums Σ r x, and dx = r ĝ - r³ mean(ĝ x) x costs
        one pass over x."""
        rows = _Rows(input)
        want_x, want_gamma = wanted
        g = row * gamma
        dx = np.empty_like(input) if want_x else None
        column_sums = np.zeros_like(gamma)  # Σ r x, which dγ is `row` times
        for start, (x, *target) in rows.chunks(input, *([dx] if want_x else [])):
            rstd = _kept_or_inverse_rms(inverse_rms, start, x, epsilon)
            column_sums += rstd.dot(x)
            if want_x:
                np.multiply(x, _cube_term(x.dot(g), rstd, rows.d), out=target[0])
                add_outer(target[0], rstd, g)
        return dx, column_sums * row if want_gamma else None
