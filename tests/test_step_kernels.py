"""The fast kernels of a training step against independent references: GELU's float32 normal
CDF against scipy's float64 one, in float32 ulps."""

import math

import numpy as np
import pytest
from scipy import special

from burnpy.generated import Device, Tensor
from burnpy.generated.dispatch import gelu, gelu_backward
from opinfo import BACKENDS, devices


def ulps(got, expected) -> np.ndarray:
    """|got - expected| in units of the float32 spacing at `expected` (float64)."""
    spacing = np.spacing(np.abs(expected).astype(np.float32)).astype(np.float64)
    spacing = np.maximum(spacing, 2.0**-149)  # the smallest subnormal, below it
    return np.abs(got.astype(np.float64) - expected) / spacing


# float32 inputs over the range where gelu is neither x nor below 1e-34, plus tiny magnitudes
GELU_X = np.concatenate(
    [np.linspace(-12.49, 8, 100_001), -np.logspace(-30, 1, 500), np.logspace(-30, 1, 500)]
).astype(np.float32)


def test_float32_gelu_is_within_a_few_ulp_of_the_float64_reference():
    x = GELU_X.astype(np.float64)
    expected = x * special.ndtr(x)
    got = gelu(Tensor.from_data(GELU_X)).to_numpy()
    assert got.dtype == np.float32
    # in the far tail (x < -4) too, where 1 + erf(x / √2) would have cancelled to nothing
    assert ulps(got, expected).max() <= 5


def test_float32_gelu_below_minus_12_5_is_within_1e_34_of_zero():
    x = np.linspace(-40, -12.5, 1001).astype(np.float32)
    got = gelu(Tensor.from_data(x)).to_numpy()
    expected = x.astype(np.float64) * special.ndtr(x.astype(np.float64))
    assert np.abs(got - expected).max() < 1e-34


def test_float32_gelu_backward_is_within_a_few_ulp_of_the_float64_reference():
    x = GELU_X.astype(np.float64)
    cdf, x_pdf = special.ndtr(x), x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    grad = np.full_like(GELU_X, 0.75)
    got = gelu_backward(Tensor.from_data(GELU_X), Tensor.from_data(grad)).to_numpy()
    # Φ(x) + x φ(x) cancels near its zero (x ≈ -0.75): the error is counted in ulps of the
    # terms' magnitudes, |Φ| + |x φ|, which is the result's own size away from there
    error = np.abs(got - 0.75 * (cdf + x_pdf))
    spacing = np.spacing((0.75 * (cdf + np.abs(x_pdf))).astype(np.float32)).astype(np.float64)
    assert (error / np.maximum(spacing, 2.0**-149)).max() <= 5


def test_float16_gelu_goes_through_float32():
    x = np.linspace(-6, 6, 201).astype(np.float16)
    got = gelu(Tensor.from_data(x)).to_numpy()
    assert got.dtype == np.float16
    wide = x.astype(np.float64)
    np.testing.assert_allclose(got, wide * special.ndtr(wide), rtol=2e-3, atol=1e-4)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gelu_gives_its_limits_at_infinity_and_keeps_nan(backend, dtype):
    values = np.array([np.inf, -np.inf, np.nan, 50.0, -50.0], dtype=dtype)
    device = devices(backend)["plain"]
    x = Tensor.from_data(values, device=device)
    np.testing.assert_array_equal(gelu(x).to_numpy(), [np.inf, 0.0, np.nan, 50.0, 0.0])
    slope = gelu_backward(x, Tensor.ones([5], device=device, dtype=dtype)).to_numpy()
    np.testing.assert_array_equal(slope, [1.0, 0.0, np.nan, 1.0, 0.0])


def test_gelu_backward_agrees_with_torch_on_the_torch_backend():
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(0).standard_normal((4, 300)).astype(np.float32) * 4
    g = np.random.default_rng(1).standard_normal((4, 300)).astype(np.float32)
    leaf = torch.from_numpy(x).requires_grad_()
    torch.nn.functional.gelu(leaf).backward(torch.from_numpy(g))
    ad = Device.torch().autodiff()
    ours = Tensor.from_data(x, device=ad).require_grad()
    grads = (ours.gelu() * Tensor.from_data(g, device=ad)).sum().backward()
    np.testing.assert_allclose(ours.grad(grads).to_numpy(), leaf.grad.numpy(), rtol=1e-6, atol=1e-7)


# -- attention and layer_norm on the Torch backend: torch's fused kernels where they apply -----


@pytest.mark.parametrize("is_causal", [False, True])
def test_torch_backend_attention_gradients_match_pytorch_autograd(is_causal):
    torch = pytest.importorskip("torch")
    from burnpy.generated import module

    rng = np.random.default_rng(0)
    q, k, v, g = (rng.standard_normal((2, 3, 5, 4)) for _ in range(4))
    leaves = [torch.from_numpy(a).requires_grad_() for a in (q, k, v)]
    out = torch.nn.functional.scaled_dot_product_attention(*leaves, is_causal=is_causal)
    out.backward(torch.from_numpy(g))
    ad = Device.torch().autodiff()
    ours = [Tensor.from_data(a, device=ad).require_grad() for a in (q, k, v)]
    result = module.attention(*ours, is_causal=is_causal)
    np.testing.assert_allclose(result.to_numpy(), out.detach().numpy(), rtol=1e-12, atol=1e-12)
    grads = (result * Tensor.from_data(g, device=ad)).sum().backward()
    for mine, theirs in zip(ours, leaves):
        np.testing.assert_allclose(
            mine.grad(grads).to_numpy(), theirs.grad.numpy(), rtol=1e-10, atol=1e-12
        )


@pytest.mark.parametrize("with_beta", [False, True])
def test_torch_backend_layer_norm_gradients_match_pytorch_autograd(with_beta):
    torch = pytest.importorskip("torch")
    from burnpy.generated import module

    rng = np.random.default_rng(1)
    x, gamma, beta = rng.standard_normal((3, 4, 6)), rng.standard_normal(6), rng.standard_normal(6)
    g = rng.standard_normal((3, 4, 6))
    leaves = [torch.from_numpy(a).requires_grad_() for a in (x, gamma, beta)]
    out = torch.nn.functional.layer_norm(
        leaves[0], (6,), leaves[1], leaves[2] if with_beta else None, 1e-5
    )
    out.backward(torch.from_numpy(g))
    ad = Device.torch().autodiff()
    ours = [Tensor.from_data(a, device=ad).require_grad() for a in (x, gamma, beta)]
    result = module.layer_norm(ours[0], ours[1], ours[2] if with_beta else None)
    np.testing.assert_allclose(result.to_numpy(), out.detach().numpy(), rtol=1e-12, atol=1e-12)
    grads = (result * Tensor.from_data(g, device=ad)).sum().backward()
    for mine, theirs in list(zip(ours, leaves))[: 3 if with_beta else 2]:
        np.testing.assert_allclose(
            mine.grad(grads).to_numpy(), theirs.grad.numpy(), rtol=1e-10, atol=1e-12
        )


# -- embedding's backward: rows summed per index ---------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(16, 64), (3,), (0,)])
def test_embedding_gradient_sums_the_rows_of_each_index(backend, shape):
    rng = np.random.default_rng(2)
    weights = rng.standard_normal((7, 5)).astype(np.float32)
    indices = rng.integers(0, 7, shape)
    grad = rng.standard_normal((*shape, 5)).astype(np.float32)
    expected = np.zeros((7, 5))
    np.add.at(expected, indices.reshape(-1), grad.reshape(-1, 5).astype(np.float64))
    ad = devices(backend)["autodiff"]
    w = Tensor.from_data(weights, device=ad).require_grad()
    from burnpy.generated import module

    out = module.embedding(w, Tensor.from_data(indices, device=ad))
    got = w.grad((out * Tensor.from_data(grad, device=ad)).sum().backward()).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


# -- softmax on the NumPy backend: its own kernel over the last dim ------------------------------


@pytest.mark.parametrize("dtype, tol", [("float64", 1e-12), ("float32", 1e-6)])
@pytest.mark.parametrize("shape, dim", [((2, 3, 5, 64), 3), ((2, 3, 5, 64), 1), ((3, 5000), 1)])
def test_softmax_matches_scipy_in_float64(dtype, tol, shape, dim):
    x = np.random.default_rng(3).standard_normal(shape) * 30
    got = Tensor.from_data(x.astype(dtype)).softmax(dim).to_numpy()
    assert got.dtype == dtype
    np.testing.assert_allclose(got, special.softmax(x.astype(dtype), axis=dim), rtol=tol, atol=tol)


def test_softmax_rows_with_infinities_and_nan_are_pytorchs():
    import torch

    x = np.random.default_rng(4).standard_normal((5, 4)).astype(np.float32)
    x[0] = -np.inf  # a fully masked row
    x[1, 2] = np.nan
    x[2, 1] = np.inf
    x[3, :3] = -np.inf  # one key left
    got = Tensor.from_data(x).softmax(1).to_numpy()
    expected = torch.softmax(torch.from_numpy(x), 1).numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=0)  # NaN where torch has NaN
