"""What the tests of the sequence layers share: the devices, burn's tolerances, float64 copies of
a module, and its parameter gradients against central finite differences."""

import numpy as np
import pytest

from burn.burncheck import Tolerance, assert_approx_eq  # noqa: F401 (re-exported)
from burnpy.generated import Device, Tensor

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch not installed")

# burn's tests run on a backend without autodiff; each port runs on both of ours.
DEVICES = [
    pytest.param(Device.numpy, id="numpy"),
    pytest.param(Device.torch, id="torch", marks=needs_torch),
]


def random(shape, device, seed=0, dtype=np.float32):
    """burn's `Distribution::Default` draw: uniform on [0, 1)."""
    data = np.random.default_rng(seed).random(shape).astype(dtype)
    return Tensor.from_data(data, device=device)


def to_float64(model, device):
    """`model` with float64 copies of its parameters and buffers, on `device`."""
    model.to_device(Device.numpy())
    model._map_tensors(
        lambda owner, path, t: (
            Tensor.from_data(t.to_numpy().astype(np.float64)) if t.dtype == np.float32 else t
        )
    )
    return model.to_device(device)


def assert_parameter_gradients_match(model, loss, device, eps=1e-6):
    """Every parameter's gradient of `loss()` (a scalar tensor [1]) against central finite
    differences, in float64."""
    grads = loss().backward()
    for name, param in model.named_parameters():
        analytic = param.grad(grads).to_numpy()
        base = param.to_numpy()
        numeric = np.zeros_like(base)
        for index in np.ndindex(base.shape):
            values = []
            for delta in (eps, -eps):
                moved = base.copy()
                moved[index] += delta
                model.map_parameters(
                    lambda n, i, t, moved=moved: (
                        Tensor.from_data(moved, device=device) if n == name else t
                    )
                )
                values.append(loss().to_numpy().reshape(()))
            numeric[index] = (values[0] - values[1]) / (2 * eps)
        model.map_parameters(
            lambda n, i, t: (
                Tensor.from_data(base, device=device).require_grad() if n == name else t
            )
        )
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8, err_msg=name)
