"""Layers that need no module ops: Dropout, Sequential, Flatten, GroupNorm, the activation
layers, and the initializers."""

import math

import numpy as np
import pytest

from burnpy import nn
from burnpy.generated import Device, Tensor

try:
    import torch
except ImportError:
    torch = None

BACKENDS = ["numpy"] + (["torch"] if torch is not None else [])
DEVICES = [(b, ad) for b in BACKENDS for ad in (False, True)]


def device_of(backend, autodiff=False):
    d = Device.numpy() if backend == "numpy" else Device.torch()
    return d.autodiff() if autodiff else d


@pytest.mark.parametrize("backend", BACKENDS)
def test_dropout_acts_only_in_training_on_autodiff(backend):
    plain, ad = device_of(backend), device_of(backend, True)
    ad.seed(3)
    drop = nn.Dropout(0.25)
    x = np.ones((200, 50), dtype=np.float32)
    out = drop(Tensor.from_data(x, device=ad)).to_numpy()
    kept = out != 0
    np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
    assert abs(kept.mean() - 0.75) < 0.02  # 10,000 draws: 0.02 is > 4 standard deviations
    np.testing.assert_array_equal(drop(Tensor.from_data(x, device=plain)).to_numpy(), x)
    np.testing.assert_array_equal(drop.eval()(Tensor.from_data(x, device=ad)).to_numpy(), x)


def test_dropout_is_seeded_and_differentiable():
    ad = Device.numpy().autodiff()
    drop = nn.Dropout(0.5)
    x = Tensor.from_data(np.arange(1.0, 13.0).reshape(3, 4), device=ad).require_grad()
    ad.seed(7)
    first = drop(x)
    ad.seed(7)
    np.testing.assert_array_equal(drop(x).to_numpy(), first.to_numpy())
    grad = x.grad(first.sum().backward()).to_numpy()
    np.testing.assert_array_equal(grad, (first.to_numpy() != 0) * 2.0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_flatten_and_activation_layers(backend, autodiff):
    d = device_of(backend, autodiff)
    x = np.arange(-12.0, 12.0, dtype=np.float32).reshape(2, 3, 2, 2) / 4
    t = Tensor.from_data(x, device=d)
    assert nn.Flatten()(t).shape == (2, 12)
    assert nn.Flatten(0, 1)(t).shape == (6, 2, 2)
    assert nn.Flatten(1, 2)(t).shape == (2, 6, 2)
    np.testing.assert_array_equal(nn.Flatten()(t).to_numpy(), x.reshape(2, 12))
    with pytest.raises(ValueError, match="empty"):
        nn.Flatten(2, 1)(t)
    seq = nn.Sequential(
        nn.Relu(), nn.LeakyRelu(negative_slope=0.2), nn.Tanh(), nn.Sigmoid(), nn.Gelu()
    )
    flat = x.ravel().astype(np.float64)
    expected = []
    for v in flat:
        v = max(v, 0.0)
        v = math.tanh(v)
        v = 1 / (1 + math.exp(-v))
        expected.append(0.5 * v * (1 + math.erf(v / math.sqrt(2))))
    np.testing.assert_allclose(seq(t).to_numpy().ravel(), expected, rtol=1e-5)
    leaky = nn.LeakyRelu()(t).to_numpy()
    np.testing.assert_allclose(leaky, np.where(x > 0, x, 0.01 * x), rtol=1e-6)


def group_norm_reference(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    out = np.empty_like(x, dtype=np.float64)
    per = c // groups
    for i in range(n):
        for g in range(groups):
            block = x[i, g * per : (g + 1) * per].astype(np.float64)
            mean = block.sum() / block.size
            var = ((block - mean) ** 2).sum() / block.size
            out[i, g * per : (g + 1) * per] = (block - mean) / math.sqrt(var + eps)
    shape = [1, c] + [1] * (x.ndim - 2)
    return out * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_group_norm_matches_reference_and_torch(backend, autodiff):
    d = device_of(backend, autodiff)
    x = np.random.default_rng(1).normal(size=(2, 4, 3)).astype(np.float32) * 2 + 1
    norm = nn.GroupNorm(2, 4, device=d)
    gamma = np.array([1.0, 2.0, -1.0, 0.5], dtype=np.float32)
    beta = np.array([0.0, 1.0, 0.5, -2.0], dtype=np.float32)
    norm.gamma = Tensor.from_data(gamma, device=d)
    norm.beta = Tensor.from_data(beta, device=d)
    assert [n for n, _ in norm.named_parameters()] == ["gamma", "beta"]
    out = norm(Tensor.from_data(x, device=d)).to_numpy()
    np.testing.assert_allclose(
        out, group_norm_reference(x, 2, gamma, beta, 1e-5), rtol=1e-4, atol=1e-5
    )
    if torch is not None:
        ref = torch.nn.GroupNorm(2, 4, eps=1e-5)
        with torch.no_grad():
            ref.weight.copy_(torch.tensor(gamma))
            ref.bias.copy_(torch.tensor(beta))
        np.testing.assert_allclose(out, ref(torch.tensor(x)).detach().numpy(), rtol=1e-4, atol=1e-5)
    plain = nn.GroupNorm(4, 4, affine=False, device=d)
    assert plain.parameters() == []
    np.testing.assert_allclose(
        plain(Tensor.from_data(x, device=d)).to_numpy(),
        group_norm_reference(x, 4, np.ones(4), np.zeros(4), 1e-5),
        rtol=1e-4,
        atol=1e-5,
    )
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(3, 4, device=d)


def test_group_norm_gradients_match_finite_differences():
    ad = Device.numpy().autodiff()
    x0 = np.random.default_rng(2).normal(size=(2, 4, 2))
    weights = np.random.default_rng(3).normal(size=(2, 4, 2))
    norm = nn.GroupNorm(2, 4, device=ad)
    norm.gamma = Tensor.from_data(np.array([1.0, 2.0, -1.0, 0.5]), device=ad)
    norm.beta = Tensor.from_data(np.array([0.0, 1.0, 0.5, -2.0]), device=ad)
    x = Tensor.from_data(x0, device=ad).require_grad()
    grads = (norm(x) * Tensor.from_data(weights)).sum().backward()

    def loss(x_, gamma_):
        return (
            group_norm_reference(x_, 2, gamma_, np.array([0.0, 1.0, 0.5, -2.0]), 1e-5) * weights
        ).sum()

    gamma0 = norm.gamma.to_numpy()
    eps = 1e-6
    for target, grad in ((x0, x.grad(grads)), (gamma0, norm.gamma.grad(grads))):
        numeric = np.zeros_like(target)
        for index in np.ndindex(target.shape):
            up, down = target.copy(), target.copy()
            up[index] += eps
            down[index] -= eps
            args_up = (up, gamma0) if target is x0 else (x0, up)
            args_down = (down, gamma0) if target is x0 else (x0, down)
            numeric[index] = (loss(*args_up) - loss(*args_down)) / (2 * eps)
        np.testing.assert_allclose(grad.to_numpy(), numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("backend", BACKENDS)
def test_initializers_follow_burn(backend):
    d = device_of(backend)
    d.seed(0)
    shape = [400, 300]
    bound = math.sqrt(3.0) * (1 / math.sqrt(3.0)) / math.sqrt(400)
    w = nn.init.kaiming_uniform(1 / math.sqrt(3.0)).init(shape, d, 400, 300).to_numpy()
    assert w.dtype == np.float32 and np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    w = nn.init.kaiming_normal(2.0, fan_out_only=True).init(shape, d, 400, 300).to_numpy()
    assert abs(w.std() - 2.0 / math.sqrt(300)) < 0.01 * 2.0 / math.sqrt(300) * 3
    xavier = math.sqrt(2.0 / 700)
    w = nn.init.xavier_uniform(1.0).init(shape, d, 400, 300).to_numpy()
    assert (
        np.abs(w).max() <= math.sqrt(3) * xavier and np.abs(w).max() > 0.99 * math.sqrt(3) * xavier
    )
    w = nn.init.xavier_normal(1.5).init(shape, d, 400, 300).to_numpy()
    assert abs(w.std() - 1.5 * xavier) < 0.03 * 1.5 * xavier
    w = nn.init.normal(1.0, 0.5).init(shape, d).to_numpy()
    assert abs(w.mean() - 1.0) < 0.01 and abs(w.std() - 0.5) < 0.01
    w = nn.init.uniform(-2.0, 3.0).init(shape, d).to_numpy()
    assert w.min() >= -2.0 and w.max() < 3.0 and abs(w.mean() - 0.5) < 0.05
    np.testing.assert_array_equal(nn.init.constant(2.5).init([2], d).to_numpy(), [2.5, 2.5])
    np.testing.assert_array_equal(nn.init.ones().init([2], d).to_numpy(), [1, 1])
    np.testing.assert_array_equal(nn.init.zeros().init([2], d).to_numpy(), [0, 0])
    for rows, cols in ((3, 5), (5, 3)):
        q = nn.init.orthogonal(2.0).init([rows, cols], d).to_numpy().astype(np.float64)
        small = q @ q.T if rows < cols else q.T @ q
        np.testing.assert_allclose(small, 4.0 * np.eye(min(rows, cols)), atol=1e-5)
    with pytest.raises(ValueError, match="fan_in"):
        nn.init.kaiming_uniform(1.0).init([2, 2], d)


def test_initializers_are_seeded_by_the_device():
    d = Device.numpy()
    d.seed(11)
    a = nn.init.kaiming_uniform(1.0).init([3, 3], d, 3, 3).to_numpy()
    d.seed(11)
    b = nn.init.kaiming_uniform(1.0).init([3, 3], d, 3, 3).to_numpy()
    np.testing.assert_array_equal(a, b)
