"""burn's interpolate tests (tensor/float/module/{nearest,bilinear,bicubic,lanczos3}_interpolate.rs,
autodiff/nearest_interpolate.rs) through `burnpy.generated.module.interpolate`, on both backends and
both autodiff strategies, with burn's data, expected values and tolerances."""

import numpy as np
import pytest

from burnpy.generated import Tensor, module
from signal_cases import INTERPOLATE, NEAREST_GRADS
from signal_check import (
    BACKENDS,
    BALANCED,
    PERMISSIVE,
    STRATEGIES,
    assert_approx_eq,
    autodiff_device,
    device,
    finite_difference,
)


def arange_input(case, d):
    shape = (case["batch_size"], case["channels"], case["height"], case["width"])
    return Tensor.from_data(np.arange(np.prod(shape), dtype=np.float32).reshape(shape), device=d)


@pytest.mark.parametrize("name", sorted(INTERPOLATE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_interpolate_forward(backend, name):
    case = INTERPOLATE[name]
    out = module.interpolate(
        arange_input(case, device(backend)),
        [case["height_out"], case["width_out"]],
        mode=case["mode"],
        align_corners=case["align_corners"],
    )
    # burn: nearest at Tolerance::default(), the others at Tolerance::permissive()
    tolerance = BALANCED if case["mode"] == "nearest" else PERMISSIVE
    assert_approx_eq(out.to_numpy(), case["expected"], **tolerance)


SIGNAL_1D = [[[1.5410, -0.2934, -2.1788, 0.5684, -1.0845, -1.3986]]]
EXPECTED_1D = {  # test_1d_bilinear, test_1d_lanczos3
    "bilinear": (
        [1.541, 0.39450002, -0.76475, -1.943125, -0.80520004, 0.36178753, -0.671275, -1.2022874]
        + [-1.3986],
        BALANCED,
    ),
    "lanczos3": (
        [1.5410, 0.7266, -1.1387, -2.2672, -0.7894, 0.6408, -0.4967, -1.4650, -1.3986],
        PERMISSIVE,
    ),
}


@pytest.mark.parametrize("mode", sorted(EXPECTED_1D))
@pytest.mark.parametrize("backend", BACKENDS)
def test_interpolate_1d(backend, mode):
    x = Tensor.from_data(np.float32(SIGNAL_1D), device=device(backend)).unsqueeze_dim(2)
    out = module.interpolate(x, [1, 9], mode=mode)
    assert out.shape == (1, 1, 1, 9)
    assert not np.isnan(out.to_numpy()).any()
    expected, tolerance = EXPECTED_1D[mode]
    assert_approx_eq(out.to_numpy(), [[[expected]]], **tolerance)


@pytest.mark.parametrize("name", sorted(NEAREST_GRADS))
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_nearest_interpolate_backward(backend, strategy, name):
    case = NEAREST_GRADS[name]
    x = arange_input(case, autodiff_device(backend, strategy)).require_grad()
    out = module.interpolate(x, [case["height_out"], case["width_out"]], mode="nearest")
    grads = out.backward()
    assert_approx_eq(x.grad(grads).to_numpy(), case["x_grad"], **PERMISSIVE)


@pytest.mark.parametrize("align_corners", [True, False])
def test_lanczos3_torch_backend_equals_numpy_backend(align_corners):
    """torch has no lanczos3: the torch backend has its own kernel, which must agree with the
    numpy one (burn-ndarray's 6 taps) forward and backward, up- and downsampling."""
    rng = np.random.default_rng(3)
    data = rng.standard_normal((2, 2, 7, 5)).astype(np.float32)
    for size in ([4, 9], [11, 3]):
        w = rng.standard_normal((2, 2, *size)).astype(np.float32)
        results = []
        for backend in BACKENDS:
            x = Tensor.from_data(data, device=autodiff_device(backend, "autodiff")).require_grad()
            out = module.interpolate(x, size, mode="lanczos3", align_corners=align_corners)
            loss = (out * Tensor.from_data(w, device=x.device())).sum()
            results.append((out.to_numpy(), x.grad(loss.backward()).to_numpy()))
        (out_np, grad_np), (out_torch, grad_torch) = results
        np.testing.assert_allclose(out_torch, out_np, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(grad_torch, grad_np, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos3"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_interpolate_backward_finite_differences(backend, mode):
    """burn pins only nearest's gradient; the others against finite differences, on the
    float64 [1, 1, 4, 4] -> [3, 5] input of burn's 1-d tests widened to 2-d."""
    rng = np.random.default_rng(5)
    x0 = rng.standard_normal((1, 1, 4, 4))
    w = rng.standard_normal((1, 1, 3, 5))
    d = autodiff_device(backend, "autodiff")

    def loss(x):
        out = module.interpolate(Tensor.from_data(x, device=d.inner()), [3, 5], mode=mode)
        return float((out.to_numpy() * w).sum())

    x = Tensor.from_data(x0, device=d).require_grad()
    out = module.interpolate(x, [3, 5], mode=mode)
    grad = x.grad((out * Tensor.from_data(w, device=d)).sum().backward()).to_numpy()
    np.testing.assert_allclose(grad, finite_difference(loss, x0), rtol=1e-6, atol=1e-8)
