"""What an op's forward keeps for its backward (ops.yaml's `keeps`: a convolution's columns):
the keeping forward runs only when the op is recorded, and what it keeps reaches the weight's
gradient, which must equal the gradient computed without it."""

import numpy as np
import pytest

from generated import Device, Tensor, module, no_grad
from runtime.backends.numpy import BACKEND


@pytest.fixture
def keeping_calls(monkeypatch):
    calls = []
    keeping = BACKEND.conv2d_keeping

    def counted(*args):
        out, columns = keeping(*args)
        calls.append(columns)
        return out, columns

    monkeypatch.setattr(BACKEND, "conv2d_keeping", counted, raising=False)
    return calls


def _inputs(device, tracked):
    rng = np.random.default_rng(0)
    x = Tensor.from_data(rng.standard_normal((2, 3, 6, 5)), device=device)
    weight = Tensor.from_data(rng.standard_normal((4, 3, 3, 3)), device=device)
    return (x, weight.require_grad() if tracked else weight)


def test_the_keeping_forward_runs_only_when_recorded(keeping_calls):
    device = Device.numpy().autodiff()
    module.conv2d(*_inputs(device, tracked=False), None, padding=1)
    with no_grad():
        module.conv2d(*_inputs(device, tracked=True), None, padding=1)
    module.conv2d(*_inputs(Device.numpy(), tracked=False), None, padding=1)
    assert keeping_calls == []
    module.conv2d(*_inputs(device, tracked=True), None, padding=1)
    assert len(keeping_calls) == 1


def test_the_weight_gradient_with_what_was_kept_equals_the_one_without(keeping_calls):
    device = Device.numpy().autodiff()
    x, weight = _inputs(device, tracked=True)
    g = np.random.default_rng(1).standard_normal((2, 4, 3, 5))
    out = module.conv2d(x, weight, None, stride=(2, 1), padding=1)
    grads = (out * Tensor.from_data(g, device=device)).sum().backward()
    (columns,) = keeping_calls
    stride, padding, dilation = (2, 1), (1, 1), (1, 1)
    without = BACKEND.conv2d_weight_backward(
        x.inner().to_numpy(), weight.inner().to_numpy(), g, stride, padding, dilation, 1, None
    )
    np.testing.assert_allclose(weight.grad(grads).to_numpy(), without, rtol=1e-12)
