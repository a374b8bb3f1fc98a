"""Pooling kernels on both backends: forward values and indices against direct loops written
here (burn-ndarray's definitions: ceil-mode windows burn keeps and torch drops, padding wider
than half the kernel, the first maximum of a tie), every VJP of the rules table against central
finite differences in float64, and a few against torch.nn.functional."""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernelcheck import BACKENDS, NUMPY, TORCH, check_vjps, run, to_backend, to_numpy
from burnpy.runtime.autodiff.rules.pool import PoolRules


def output_size(n, k, s, p, d, ceil_mode):
    span = n + 2 * p - d * (k - 1) - 1
    return (-(-span // s) if ceil_mode else span // s) + 1


def reference_max_pool(x, kernel, stride, padding, dilation, ceil_mode):
    spatial = x.shape[2:]
    size = [output_size(*a, ceil_mode) for a in zip(spatial, kernel, stride, padding, dilation)]
    out = np.full((*x.shape[:2], *size), -np.inf)
    indices = np.zeros(out.shape, np.int64)
    for b, c, *pos in itertools.product(*map(range, out.shape)):
        for k in itertools.product(*map(range, kernel)):
            at = [o * s + kk * d - p for o, s, kk, d, p in zip(pos, stride, k, dilation, padding)]
            if all(0 <= a < n for a, n in zip(at, spatial)):
                value = x[(b, c, *at)]
                if value > out[(b, c, *pos)]:  # strict: a tie keeps the first
                    out[(b, c, *pos)] = value
                    indices[(b, c, *pos)] = np.ravel_multi_index(at, spatial)
    return out, indices


def reference_avg_pool(x, kernel, stride, padding, count_include_pad, ceil_mode):
    spatial = x.shape[2:]
    ones = (1,) * len(kernel)
    size = [output_size(*a, ceil_mode) for a in zip(spatial, kernel, stride, padding, ones)]
    out = np.zeros((*x.shape[:2], *size))
    for b, c, *pos in itertools.product(*map(range, out.shape)):
        total, valid, inside_padded = 0.0, 0, 0
        for k in itertools.product(*map(range, kernel)):
            at = [o * s + kk for o, s, kk in zip(pos, stride, k)]  # padded coordinates
            if all(a < n + 2 * p for a, n, p in zip(at, spatial, padding)):
                inside_padded += 1
                if all(p <= a < n + p for a, n, p in zip(at, spatial, padding)):
                    total += x[(b, c, *[a - p for a, p in zip(at, padding)])]
                    valid += 1
        count = inside_padded if count_include_pad else valid
        out[(b, c, *pos)] = total / count if count else np.nan  # burn: 0 / 0
    return out


def reference_adaptive(x, size):
    out = np.zeros((*x.shape[:2], *size))
    for pos in itertools.product(*map(range, size)):
        ranges = [
            slice(i * n // o, min(math.ceil((i + 1) * n / o), n))
            for i, n, o in zip(pos, x.shape[2:], size)
        ]
        out[(..., *pos)] = x[(..., *ranges)].mean(axis=tuple(range(2, x.ndim)))
    return out


# (spatial size, kernel, stride, padding, dilation, ceil_mode)
MAX_CASES = [
    ((8,), (2,), (2,), (0,), (1,), False),
    ((7,), (3,), (2,), (1,), (2,), True),
    ((6, 7), (2, 2), (2, 2), (0, 0), (1, 1), False),
    ((7, 6), (3, 2), (2, 1), (1, 1), (2, 1), True),
    ((5, 5), (2, 2), (2, 2), (1, 1), (1, 1), True),  # burn keeps a last window torch drops
    ((5, 6), (3, 3), (2, 2), (2, 2), (1, 1), False),  # padding above half the kernel
]

# (spatial size, kernel, stride, padding, ceil_mode)
AVG_CASES = [
    ((7,), (3,), (2,), (1,), True),
    ((6, 7), (2, 2), (2, 2), (0, 0), False),
    ((7, 6), (3, 2), (2, 1), (1, 1), True),
    ((5, 5), (2, 2), (2, 2), (1, 1), True),
    ((5, 6), (3, 3), (2, 2), (2, 2), False),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", MAX_CASES, ids=str)
def test_max_pool(backend, case):
    B = BACKENDS[backend]
    size, *options = case
    n = len(size)
    rng = np.random.default_rng(n)
    x = rng.standard_normal((2, 3, *size))
    expected, expected_indices = reference_max_pool(x, *options)
    out, indices = map(
        to_numpy, getattr(B, f"max_pool{n}d_with_indices")(to_backend(B, x), *options)
    )
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(indices, expected_indices)
    assert indices.dtype == np.int64
    np.testing.assert_array_equal(run(B, f"max_pool{n}d", x, *options), expected)
    names = ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode")
    check_vjps(B, f"max_pool{n}d", names, (x, *options), rng, ("x",))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", MAX_CASES, ids=str)
def test_max_pool_with_indices_backward(backend, case):
    """The rule sends each window's gradient to its index, summing where windows share one."""
    B = BACKENDS[backend]
    size, *options = case
    n = len(size)
    rng = np.random.default_rng(n + 10)
    x = rng.standard_normal((2, 3, *size))
    out, indices = getattr(B, f"max_pool{n}d_with_indices")(to_backend(B, x), *options)
    g = rng.standard_normal(to_numpy(out).shape)
    (vjp,) = getattr(PoolRules, f"max_pool{n}d_with_indices")
    got = to_numpy(vjp(B, to_backend(B, g), to_backend(B, x), *options, indices))
    expected = np.zeros(x.shape)
    for (b, c, *pos), index in np.ndenumerate(to_numpy(indices)):
        expected[(b, c, *np.unravel_index(index, size))] += g[(b, c, *pos)]
    np.testing.assert_allclose(got, expected, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_max_pool_ties_and_minus_infinity(backend):
    """A tie goes to the first maximum in window order (all of the gradient); a window with
    nothing above -inf has index 0, as burn's."""
    B = BACKENDS[backend]
    x = np.array([[[[1.0, 3.0, 3.0, 0.0], [3.0, 2.0, 3.0, 3.0], [-np.inf] * 4, [-np.inf] * 4]]])
    out, indices = getattr(B, "max_pool2d_with_indices")(
        to_backend(B, x), (2, 2), None, (0, 0), (1, 1), False
    )
    np.testing.assert_array_equal(to_numpy(out), [[[[3.0, 3.0], [-np.inf, -np.inf]]]])
    np.testing.assert_array_equal(to_numpy(indices), [[[[1, 2], [0, 0]]]])
    g = to_backend(B, np.ones((1, 1, 2, 2)))
    grad = to_numpy(
        B.max_pool2d_with_indices_backward(
            to_backend(B, x), (2, 2), (2, 2), (0, 0), (1, 1), False, g, indices
        )
    )
    expected = np.zeros((1, 1, 4, 4))
    expected[0, 0, 0, 1] = expected[0, 0, 0, 2] = 1.0
    expected[0, 0, 0, 0] = 2.0  # the two -inf windows' index 0
    np.testing.assert_array_equal(grad, expected)


def test_max_pool_nan_and_windows_past_the_input():
    """A window holding a NaN gives NaN, its index the first NaN in window order (NumPy's
    maximum spreads a NaN); windows reaching past the input, or lying in the padding alone,
    take the maximum of what they read of x (-inf and index 0 where they read nothing)."""
    x = np.arange(25.0).reshape(1, 1, 5, 5)
    x[0, 0, 1, 2] = x[0, 0, 2, 1] = np.nan
    # padding 3 > kernel 3: the corner windows read nothing of x
    out, indices = NUMPY.max_pool2d_with_indices(x, (3, 3), (3, 3), (3, 3), (1, 1), False)
    expected = np.full((1, 1, 3, 3), -np.inf)
    expected_indices = np.zeros((1, 1, 3, 3), np.int64)
    for i, j in np.ndindex(3, 3):
        rows = [r for r in range(3 * i - 3, 3 * i) if 0 <= r < 5]
        cols = [c for c in range(3 * j - 3, 3 * j) if 0 <= c < 5]
        seen = [(r, c) for r in rows for c in cols]
        if not seen:
            continue
        values = [x[0, 0, r, c] for r, c in seen]
        nans = [k for k, v in enumerate(values) if np.isnan(v)]
        k = nans[0] if nans else int(np.argmax(values))
        expected[0, 0, i, j] = values[k]
        expected_indices[0, 0, i, j] = seen[k][0] * 5 + seen[k][1]
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_array_equal(NUMPY.max_pool2d(x, (3, 3), (3, 3), (3, 3), (1, 1), False), out)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", AVG_CASES, ids=str)
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_avg_pool(backend, case, count_include_pad):
    B = BACKENDS[backend]
    size, kernel, stride, padding, ceil_mode = case
    n = len(size)
    rng = np.random.default_rng(n + 20)
    x = rng.standard_normal((2, 3, *size))
    options = (kernel, stride, padding, count_include_pad, ceil_mode)
    expected = reference_avg_pool(x, *options)
    got = run(B, f"avg_pool{n}d", x, *options)
    np.testing.assert_allclose(got, expected, atol=1e-12)  # NaN where expected, and only there
    names = ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode")
    check_vjps(B, f"avg_pool{n}d", names, (x, *options), rng, ("x",))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "size, output_size", [((7,), (3,)), ((5, 7), (3, 4)), ((4, 5, 6), (2, 3, 4)), ((3, 2), (5, 4))]
)
def test_adaptive_avg_pool(backend, size, output_size):
    B = BACKENDS[backend]
    n = len(size)
    rng = np.random.default_rng(n + 30)
    x = rng.standard_normal((2, 3, *size))
    op_size = output_size[0] if n == 1 else output_size
    expected = reference_adaptive(x, output_size)
    np.testing.assert_allclose(run(B, f"adaptive_avg_pool{n}d", x, op_size), expected, atol=1e-12)
    check_vjps(B, f"adaptive_avg_pool{n}d", ("x", "output_size"), (x, op_size), rng, ("x",))


def test_pools_agree_with_torch_functional_where_torch_takes_the_options():
    rng = np.random.default_rng(40)
    x = rng.standard_normal((2, 3, 7, 6))
    values, indices = F.max_pool2d(torch.from_numpy(x), (3, 2), (2, 1), (1, 1), (2, 1), True, True)
    got = NUMPY.max_pool2d_with_indices(x, (3, 2), (2, 1), (1, 1), (2, 1), True)
    np.testing.assert_array_equal(got[0], values.numpy())
    np.testing.assert_array_equal(got[1], indices.numpy())
    expected = F.avg_pool2d(torch.from_numpy(x), (3, 2), (2, 1), (1, 1), True, False).numpy()
    np.testing.assert_allclose(NUMPY.avg_pool2d(x, (3, 2), (2, 1), (1, 1), False, True), expected)
    expected = F.adaptive_avg_pool2d(torch.from_numpy(x), (4, 4)).numpy()
    np.testing.assert_allclose(NUMPY.adaptive_avg_pool2d(x, (4, 4)), expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_backends_agree_in_float32_and_float64(dtype):
    rng = np.random.default_rng(41)
    x = rng.standard_normal((2, 3, 6, 7)).astype(dtype)
    options = ((2, 3), (2, 2), (1, 1), (1, 1), True)
    a = NUMPY.max_pool2d_with_indices(x, *options)
    b = TORCH.max_pool2d_with_indices(torch.from_numpy(x), *options)
    assert a[0].dtype == dtype and b[0].dtype == torch.from_numpy(x).dtype
    np.testing.assert_array_equal(a[0], b[0].numpy())
    np.testing.assert_array_equal(a[1], b[1].numpy())
    options = ((2, 3), (2, 2), (1, 1), False, True)
    a, b = NUMPY.avg_pool2d(x, *options), TORCH.avg_pool2d(torch.from_numpy(x), *options)
    assert a.dtype == dtype
    np.testing.assert_allclose(a, b.numpy(), rtol=1e-6)
