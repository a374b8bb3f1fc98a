"""What an op's forward keeps for its backward (ops.yaml's `keeps`: attention's probabilities,
layer_norm's statistics): the keeping forward runs only when the op is recorded, and the
gradients from what it kept equal those computed without it."""

import importlib

import numpy as np
import pytest

from burnpy.generated import Device, Tensor, module, no_grad
from opinfo import BACKENDS, devices
from burnpy.runtime.backends.numpy import BACKEND


@pytest.fixture
def keeping_calls(monkeypatch):
    calls = []
    keeping = BACKEND.layer_norm_keeping

    def counted(*args):
        out, statistics = keeping(*args)
        calls.append(statistics)
        return out, statistics

    monkeypatch.setattr(BACKEND, "layer_norm_keeping", counted, raising=False)
    return calls


def _inputs(device, tracked):
    rng = np.random.default_rng(0)
    x = Tensor.from_data(rng.standard_normal((2, 3, 6)), device=device)
    gamma = Tensor.from_data(rng.standard_normal(6), device=device)
    return (x, gamma.require_grad() if tracked else gamma)


def test_the_keeping_forward_runs_only_when_recorded(keeping_calls):
    device = Device.numpy().autodiff()
    module.layer_norm(*_inputs(device, tracked=False), None)
    with no_grad():
        module.layer_norm(*_inputs(device, tracked=True), None)
    module.layer_norm(*_inputs(Device.numpy(), tracked=False), None)
    assert keeping_calls == []
    module.layer_norm(*_inputs(device, tracked=True), None)
    assert len(keeping_calls) == 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("is_causal", [False, True])
def test_attention_backward_from_what_its_forward_kept(backend, is_causal):
    """The gradients from the kept probabilities (flash attention's output and logsumexp on
    torch) equal those the backward kernel computes from the inputs alone."""
    device = devices(backend)["autodiff"]
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((2, 3, 5, 4)) for _ in range(3))
    g = rng.standard_normal((2, 3, 5, 4))
    tracked = [Tensor.from_data(a, device=device).require_grad() for a in (q, k, v)]
    out = module.attention(*tracked, is_causal=is_causal)
    grads = (out * Tensor.from_data(g, device=device)).sum().backward()
    inner = importlib.import_module(f"burnpy.runtime.backends.{backend}").BACKEND
    arrays = [t.inner().primitive for t in tracked]
    cotangent = Tensor.from_data(g, device=device).inner().primitive
    _, kept = inner.attention_keeping(*arrays, None, None, None, None, is_causal)
    assert kept is not None  # small enough to keep, on every backend
    again = inner.attention_backward(*arrays, None, None, cotangent, None, None, is_causal)
    for t, expected in zip(tracked, again):
        np.testing.assert_allclose(t.grad(grads).to_numpy(), np.asarray(expected), rtol=1e-10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_layer_norm_backward_from_what_its_forward_kept(backend):
    device = devices(backend)["autodiff"]
    rng = np.random.default_rng(3)
    x, gamma, beta, g = (
        rng.standard_normal((4, 6)),
        *rng.standard_normal((2, 6)),
        rng.standard_normal((4, 6)),
    )
    tracked = [Tensor.from_data(a, device=device).require_grad() for a in (x, gamma, beta)]
    out = module.layer_norm(*tracked, epsilon=1e-5)
    grads = (out * Tensor.from_data(g, device=device)).sum().backward()
    inner = importlib.import_module(f"burnpy.runtime.backends.{backend}").BACKEND
    x_, gamma_ = (t.inner().primitive for t in tracked[:2])
    cotangent = Tensor.from_data(g, device=device).inner().primitive
    _, kept = inner.layer_norm_keeping(x_, gamma_, None, 1e-5)
    assert kept is not None  # each row's mean and 1/std
    again = inner.layer_norm_backward(x_, gamma_, cotangent, 1e-5)
    for t, expected in zip(tracked, again):
        np.testing.assert_allclose(t.grad(grads).to_numpy(), np.asarray(expected), rtol=1e-10)


def test_gelu_backward_from_its_kept_slope_is_the_one_from_its_input(monkeypatch):
    """NumPy's float32 gelu keeps its slope, so its backward is one product; the gradient is
    bitwise the one gelu_backward computes from the input. Balanced recomputes gelu (it is
    memory-bound) and keeps nothing."""
    calls = []
    keeping = BACKEND.gelu_keeping
    monkeypatch.setattr(
        BACKEND, "gelu_keeping", lambda x: calls.append(1) or keeping(x), raising=False
    )
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 70000)).astype(np.float32) * 4  # more than one chunk
    g = rng.standard_normal(x.shape).astype(np.float32)
    expected = BACKEND.gelu_backward(x, g)
    for device, keeps in (
        (Device.numpy().autodiff(), True),
        (Device.numpy().autodiff().gradient_checkpointing(), False),
    ):
        calls.clear()
        tracked = Tensor.from_data(x, device=device).require_grad()
        grads = (tracked.gelu() * Tensor.from_data(g, device=device)).sum().backward()
        assert calls == ([1] if keeps else [])
        np.testing.assert_array_equal(tracked.grad(grads).to_numpy(), expected)
    _, slope = BACKEND.gelu_keeping(x)
    assert slope is not None


def test_tanh_gelu_backward_from_its_kept_slope_is_the_one_from_its_input():
    """NumPy's float32 tanh GELU keeps its slope too, bitwise the one its backward computes."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 70000)).astype(np.float32) * 4  # more than one chunk
    g = rng.standard_normal(x.shape).astype(np.float32)
    tracked = Tensor.from_data(x, device=Device.numpy().autodiff()).require_grad()
    grads = (tracked.gelu_approximate() * Tensor.from_data(g)).sum().backward()
    expected = BACKEND.gelu_approximate_backward(x, g)
    np.testing.assert_array_equal(tracked.grad(grads).to_numpy(), expected)
    out, slope = BACKEND.gelu_approximate_keeping(x)
    np.testing.assert_array_equal(out, BACKEND.gelu_approximate(x))
    np.testing.assert_array_equal(slope * g, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cross_entropy_backward_from_its_kept_probabilities(backend):
    device = devices(backend)["autodiff"]
    rng = np.random.default_rng(7)
    logits = Tensor.from_data(rng.standard_normal((5, 4)), device=device).require_grad()
    targets = Tensor.from_data(rng.integers(0, 4, 5), device=device)
    grads = module.cross_entropy_class_targets(logits, targets).backward()
    inner = importlib.import_module(f"burnpy.runtime.backends.{backend}").BACKEND
    arrays = logits.inner().primitive, targets.primitive
    _, kept = inner.cross_entropy_class_targets_keeping(*arrays)
    assert (kept is not None) == (backend == "numpy")  # torch's softmax again costs less
    ones = Tensor.from_data([1.0], device=device, dtype=logits.dtype).inner().primitive
    again = inner.cross_entropy_class_targets_backward(*arrays, ones)
    np.testing.assert_array_equal(logits.grad(grads).to_numpy(), np.asarray(again))
