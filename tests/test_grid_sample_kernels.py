"""float_grid_sample_2d's kernels on both backends: forward against a direct loop reference,
burn's tests and torch's grid_sample; both VJPs against finite differences in float64."""

import itertools
import math

import numpy as np
import pytest
import torch

from burnpy.runtime.autodiff.rules.grid_sample import GridSampleRules
from burnpy.runtime.backends.numpy import BACKEND as NUMPY
from burnpy.runtime.backends.torch import BACKEND as TORCH

BACKENDS = {"numpy": (NUMPY, np.asarray), "torch": (TORCH, torch.from_numpy)}
OPTIONS = list(
    itertools.product(("nearest", "bilinear"), ("zeros", "border", "reflection"), (False, True))
)


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    return BACKENDS[request.param]


def run(backend, kernel, *args):
    B, to = backend
    out = getattr(B, kernel)(*[to(a) if isinstance(a, np.ndarray) else a for a in args])
    return np.asarray(B.to_numpy(out))


def reference(x, grid, mode, padding_mode, align_corners):
    """One output pixel at a time, in plain Python floats."""
    n, c, h, w = x.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def source(v, size):
        p = (v + 1) * (size - 1) / 2 if align_corners else (v + 1) * size / 2 - 0.5
        if padding_mode == "border":
            return min(max(p, 0.0), size - 1.0)
        if padding_mode == "reflection":
            low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
            while not low <= p <= high:
                p = 2 * low - p if p < low else 2 * high - p
        return p

    def read(b, ch, yi, xi):
        if 0 <= xi < w and 0 <= yi < h:
            return x[b, ch, yi, xi]
        if padding_mode == "zeros":
            return 0.0
        return x[b, ch, min(max(yi, 0), h - 1), min(max(xi, 0), w - 1)]

    for b, i, j, ch in itertools.product(
        range(n), range(grid.shape[1]), range(grid.shape[2]), range(c)
    ):
        px, py = source(grid[b, i, j, 0], w), source(grid[b, i, j, 1], h)
        if mode == "nearest":
            out[b, ch, i, j] = read(b, ch, int(math.floor(py + 0.5)), int(math.floor(px + 0.5)))
            continue
        x0, y0 = math.floor(px), math.floor(py)
        fx, fy = px - x0, py - y0
        out[b, ch, i, j] = (
            read(b, ch, y0, x0) * (1 - fx) * (1 - fy)
            + read(b, ch, y0 + 1, x0) * (1 - fx) * fy
            + read(b, ch, y0, x0 + 1) * fx * (1 - fy)
            + read(b, ch, y0 + 1, x0 + 1) * fx * fy
        )
    return out


def sample_inputs(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 2, 3, 4))
    grid = rng.uniform(-1.4, 1.4, (2, 3, 2, 2))  # some coordinates fall outside [-1, 1]
    return x, grid


BURN_X = np.array([[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]])
BURN_GRID = np.array([[[[0.0, 0.0], [-1.0, 0.25]], [[1.0, 1.0], [0.2, -0.8]]]])


@pytest.mark.parametrize(
    "grid, padding_mode, align_corners, expected",
    [  # burn-backend-tests tensor/float/ops/grid_sample.rs
        (BURN_GRID, "zeros", False, [[4.0, 2.0625], [2.0, 1.04]]),
        (BURN_GRID, "border", True, [[4.0, 3.75], [8.0, 1.8]]),
        (np.array([[[[0.0, -2.0]]]]), "zeros", False, [[0.0]]),
        (np.array([[[[0.0, -2.0]]]]), "border", False, [[1.0]]),
        (BURN_GRID, "reflection", False, [[4.0, 4.125], [8.0, 1.3]]),
    ],
)
def test_burn_cases(backend, grid, padding_mode, align_corners, expected):
    got = run(
        backend, "float_grid_sample_2d", BURN_X, grid, "bilinear", padding_mode, align_corners
    )
    np.testing.assert_allclose(got, [[expected]], atol=1e-6)


@pytest.mark.parametrize("mode, padding_mode, align_corners", OPTIONS)
def test_forward_against_reference_and_torch(backend, mode, padding_mode, align_corners):
    x, grid = sample_inputs()
    got = run(backend, "float_grid_sample_2d", x, grid, mode, padding_mode, align_corners)
    np.testing.assert_allclose(
        got, reference(x, grid, mode, padding_mode, align_corners), atol=1e-12
    )
    # torch agrees away from nearest's half-way ties (it rounds them to even, burn away from 0)
    expected = torch.nn.functional.grid_sample(
        torch.from_numpy(x), torch.from_numpy(grid), mode, padding_mode, align_corners
    )
    np.testing.assert_allclose(got, expected.numpy(), atol=1e-12)


def fd(f, a, eps=1e-6):
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.mark.parametrize("mode, padding_mode, align_corners", OPTIONS)
def test_vjps_against_finite_differences(backend, mode, padding_mode, align_corners):
    x, grid = sample_inputs(1)
    g = np.random.default_rng(2).standard_normal((2, 2, 3, 2))
    options = (mode, padding_mode, align_corners)

    def objective(x_, grid_):
        return float((NUMPY.float_grid_sample_2d(x_, grid_, *options) * g).sum())

    B, to = backend
    tensor_vjp, grid_vjp = GridSampleRules.float_grid_sample_2d
    got_x = tensor_vjp(to(g), B, x.shape, to(grid), *options)
    got_grid = grid_vjp(to(g), B, to(x), to(grid), *options)
    np.testing.assert_allclose(B.to_numpy(got_x), fd(lambda a: objective(a, grid), x), atol=1e-7)
    np.testing.assert_allclose(B.to_numpy(got_grid), fd(lambda a: objective(x, a), grid), atol=1e-6)


def test_bilinear_vjps_match_torch_autograd(backend):
    x, grid = sample_inputs(3)
    g = np.random.default_rng(4).standard_normal((2, 2, 3, 2))
    tx, tg = torch.from_numpy(x).requires_grad_(), torch.from_numpy(grid).requires_grad_()
    for padding_mode, align_corners in itertools.product(
        ("zeros", "border", "reflection"), (False, True)
    ):
        out = torch.nn.functional.grid_sample(tx, tg, "bilinear", padding_mode, align_corners)
        ex, eg = torch.autograd.grad(out, (tx, tg), torch.from_numpy(g))
        B, to = backend
        options = ("bilinear", padding_mode, align_corners)
        got_x = B.float_grid_sample_2d_tensor_backward(to(g), x.shape, to(grid), *options)
        got_grid = B.float_grid_sample_2d_grid_backward(to(g), to(x), to(grid), *options)
        np.testing.assert_allclose(B.to_numpy(got_x), ex.numpy(), atol=1e-12)
        np.testing.assert_allclose(B.to_numpy(got_grid), eg.numpy(), atol=1e-12)


def test_float32_and_bad_arguments():
    x, grid = (a.astype(np.float32) for a in sample_inputs())
    assert NUMPY.float_grid_sample_2d(x, grid, "bilinear", "zeros", False).dtype == np.float32
    with pytest.raises(ValueError, match="no bicubic"):
        NUMPY.float_grid_sample_2d(x, grid, "bicubic", "zeros", False)
    with pytest.raises(ValueError, match="padding_mode 'wrap'"):
        NUMPY.float_grid_sample_2d(x, grid, "bilinear", "wrap", False)
    with pytest.raises(ValueError, match="batch 2 differs"):
        NUMPY.float_grid_sample_2d(x, grid[:1], "bilinear", "zeros", False)
    with pytest.raises(ValueError, match=r"grid \[n, h_out, w_out, 2\]"):
        NUMPY.float_grid_sample_2d(x, grid[..., :1], "bilinear", "zeros", False)
