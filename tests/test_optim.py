"""burnpy.optim: update rules against their formulas and torch.optim, clipping, state records."""

import numpy as np
import pytest

from burnpy import nn, optim
from burnpy.generated import Device, Tensor

try:
    import torch
except ImportError:
    torch = None

W0 = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], dtype=np.float32)
B0 = np.array([0.1, -0.2], dtype=np.float32)
X = np.array([[1.0, -2.0, 0.5], [0.3, 0.8, -1.2]], dtype=np.float32)


class Tiny(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.weight = Tensor.from_data(W0, device=device)
        self.bias = Tensor.from_data(B0, device=device)

    def forward(self, x):
        return x @ self.weight + self.bias


def loss_of(model, x):
    y = model(x)
    return (y * y * y).sum() * 0.1  # non-quadratic, so the gradients change every step


def numpy_grads(w, b):
    y = X @ w + b
    gy = 0.3 * y * y
    return X.T @ gy, gy.sum(0)


def run_ours(opt, steps, device=None, lr=None):
    device = device or Device.numpy().autodiff()
    model = Tiny(device)
    x = Tensor.from_data(X, device=device)
    for _ in range(steps):
        opt.step(model, loss_of(model, x).backward(), lr=lr)
    return model


CONFIGS = {
    "sgd": (
        lambda: optim.SGD(0.05, momentum=0.9, dampening=0.1, nesterov=False, weight_decay=0.01),
        lambda p: torch.optim.SGD(
            p, lr=0.05, momentum=0.9, dampening=0.1, nesterov=False, weight_decay=0.01
        ),
    ),
    "sgd_nesterov": (
        lambda: optim.SGD(0.05, momentum=0.8, dampening=0.0, nesterov=True, weight_decay=0.0),
        lambda p: torch.optim.SGD(
            p, lr=0.05, momentum=0.8, dampening=0.0, nesterov=True, weight_decay=0.0
        ),
    ),
    "adam": (
        lambda: optim.Adam(
            0.02, beta_1=0.8, beta_2=0.95, epsilon=1e-5, weight_decay=0.01, amsgrad=False
        ),
        lambda p: torch.optim.Adam(
            p, lr=0.02, betas=(0.8, 0.95), eps=1e-5, weight_decay=0.01, amsgrad=False
        ),
    ),
    "adam_amsgrad": (
        lambda: optim.Adam(
            0.02, beta_1=0.9, beta_2=0.99, epsilon=1e-5, weight_decay=0.0, amsgrad=True
        ),
        lambda p: torch.optim.Adam(
            p, lr=0.02, betas=(0.9, 0.99), eps=1e-5, weight_decay=0.0, amsgrad=True
        ),
    ),
    "adamw": (
        lambda: optim.AdamW(
            0.02, beta_1=0.9, beta_2=0.999, epsilon=1e-5, weight_decay=0.1, amsgrad=False
        ),
        lambda p: torch.optim.AdamW(
            p, lr=0.02, betas=(0.9, 0.999), eps=1e-5, weight_decay=0.1, amsgrad=False
        ),
    ),
    "adamw_amsgrad": (
        lambda: optim.AdamW(
            0.02, beta_1=0.85, beta_2=0.99, epsilon=1e-5, weight_decay=0.05, amsgrad=True
        ),
        lambda p: torch.optim.AdamW(
            p, lr=0.02, betas=(0.85, 0.99), eps=1e-5, weight_decay=0.05, amsgrad=True
        ),
    ),
    "rmsprop": (
        lambda: optim.RMSProp(
            0.01, alpha=0.9, epsilon=1e-5, centered=False, momentum=0.9, weight_decay=0.01
        ),
        lambda p: torch.optim.RMSprop(
            p, lr=0.01, alpha=0.9, eps=1e-5, centered=False, momentum=0.9, weight_decay=0.01
        ),
    ),
    "rmsprop_centered": (
        lambda: optim.RMSProp(
            0.01, alpha=0.95, epsilon=1e-5, centered=True, momentum=0.0, weight_decay=0.0
        ),
        lambda p: torch.optim.RMSprop(
            p, lr=0.01, alpha=0.95, eps=1e-5, centered=True, momentum=0.0, weight_decay=0.0
        ),
    ),
}

# float32 through 5 steps of different but equivalent arithmetic.
TOL = dict(rtol=2e-5, atol=2e-6)


@pytest.mark.skipif(torch is None, reason="torch not installed")
@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_matches_torch_optim(name, backend):
    ours_factory, torch_factory = CONFIGS[name]
    device = (Device.numpy() if backend == "numpy" else Device.torch()).autodiff()
    model = run_ours(ours_factory(), 5, device)
    w, b = torch.tensor(W0, requires_grad=True), torch.tensor(B0, requires_grad=True)
    opt = torch_factory([w, b])
    for _ in range(5):
        opt.zero_grad()
        y = torch.tensor(X) @ w + b
        ((y * y * y).sum() * 0.1).backward()
        opt.step()
    np.testing.assert_allclose(model.weight.to_numpy(), w.detach().numpy(), **TOL)
    np.testing.assert_allclose(model.bias.to_numpy(), b.detach().numpy(), **TOL)


def test_sgd_formula_with_burn_defaults():
    # burn's SGD: dampening 0.1 applies from the second step; weight decay adds p·wd.
    model = run_ours(optim.SGD(0.1, momentum=0.5, weight_decay=0.2), 3)
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    vw = vb = None
    for _ in range(3):
        gw, gb = numpy_grads(w, b)
        gw, gb = gw + 0.2 * w, gb + 0.2 * b
        vw = gw if vw is None else 0.9 * gw + 0.5 * vw
        vb = gb if vb is None else 0.9 * gb + 0.5 * vb
        w, b = w - 0.1 * vw, b - 0.1 * vb
    np.testing.assert_allclose(model.weight.to_numpy(), w, rtol=1e-5)
    np.testing.assert_allclose(model.bias.to_numpy(), b, rtol=1e-5)


def test_adam_formula_with_burn_defaults():
    model = run_ours(optim.Adam(0.01), 3)
    w = W0.astype(np.float64)
    b = B0.astype(np.float64)
    m = [0, 0]
    v = [0, 0]
    for t in range(1, 4):
        grads = numpy_grads(w, b)
        params = [w, b]
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            m_hat, v_hat = m[i] / (1 - 0.9**t), v[i] / (1 - 0.999**t)
            params[i] = params[i] - 0.01 * m_hat / (np.sqrt(v_hat) + 1e-5)
        w, b = params
    np.testing.assert_allclose(model.weight.to_numpy(), w, rtol=1e-5)
    np.testing.assert_allclose(model.bias.to_numpy(), b, rtol=1e-5)


def test_adamw_cautious_weight_decay_formula():
    model = run_ours(optim.AdamW(0.01, weight_decay=0.5, cautious_weight_decay=True), 1)
    w = W0.astype(np.float64)
    g, _ = numpy_grads(w, B0.astype(np.float64))
    m, v = 0.1 * g, 0.001 * g * g
    delta = (m / 0.1) / (np.sqrt(v / 0.001) + 1e-5)
    decay = np.where((w >= 0) == (m >= 0), w * 0.005, 0.0)
    np.testing.assert_allclose(model.weight.to_numpy(), w - decay - 0.01 * delta, rtol=1e-5)


def test_rmsprop_formula_with_burn_defaults():
    model = run_ours(optim.RMSProp(0.01), 2)
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    sq = [0, 0]
    buf = [None, None]
    for _ in range(2):
        params = [w, b]
        for i, g in enumerate(numpy_grads(w, b)):
            sq[i] = 0.99 * sq[i] + 0.01 * g * g
            step = g / (np.sqrt(sq[i]) + 1e-5)
            buf[i] = step if buf[i] is None else 0.9 * buf[i] + step
            params[i] = params[i] - 0.01 * buf[i]
        w, b = params
    np.testing.assert_allclose(model.weight.to_numpy(), w, rtol=1e-5)


def test_step_keeps_ids_grad_leaves_and_skips_params_without_gradient():
    ad = Device.numpy().autodiff()
    model = Tiny(ad)
    ids = model.param_ids()
    x = Tensor.from_data(X, device=ad)
    grads = (x @ model.weight).sum().backward()  # the bias takes no part
    assert model.bias.grad(grads) is None
    opt = optim.Adam(0.1)
    assert opt.step(model, grads) is model
    assert model.param_ids() == ids and set(opt.state) == {ids[0]}
    np.testing.assert_array_equal(model.bias.to_numpy(), B0)
    assert not np.array_equal(model.weight.to_numpy(), W0)
    assert model.weight.is_require_grad() and model.weight.device() == ad


def test_lr_argument_overrides():
    a = run_ours(optim.SGD(0.5), 1, lr=0.1)
    b = run_ours(optim.SGD(0.1), 1)
    np.testing.assert_array_equal(a.weight.to_numpy(), b.weight.to_numpy())


def test_clipping_is_per_parameter():
    g = np.array([[3.0, 4.0]], dtype=np.float32)  # norm 5
    h = np.array([0.1, -0.2], dtype=np.float32)

    class Two(nn.Module):
        def __init__(self, device):
            super().__init__()
            self.a = Tensor.zeros([1, 2], device=device)
            self.b = Tensor.zeros([2], device=device)

    ad = Device.numpy().autodiff()
    model = Two(ad)
    loss = (model.a * Tensor.from_data(g)).sum() + (model.b * Tensor.from_data(h)).sum()
    optim.SGD(1.0, grad_clip_norm=1.0).step(model, loss.backward())
    np.testing.assert_allclose(model.a.to_numpy(), -g / 5, rtol=1e-6)  # scaled to norm 1
    np.testing.assert_allclose(model.b.to_numpy(), -h, rtol=1e-6)  # under the threshold: kept
    model = Two(ad)
    loss = (model.a * Tensor.from_data(g)).sum() + (model.b * Tensor.from_data(h)).sum()
    optim.SGD(1.0, grad_clip_value=0.15).step(model, loss.backward())
    np.testing.assert_allclose(model.a.to_numpy(), [[-0.15, -0.15]], rtol=1e-6)
    np.testing.assert_allclose(model.b.to_numpy(), [-0.1, 0.15], rtol=1e-6)
    with pytest.raises(ValueError, match="clip gradients one way"):
        optim.SGD(1.0, grad_clip_norm=1.0, grad_clip_value=1.0)


@pytest.mark.parametrize(
    "factory",
    [
        lambda: optim.Adam(0.05, amsgrad=True),
        lambda: optim.RMSProp(0.01, centered=True),
        lambda: optim.SGD(0.05, momentum=0.9),
        lambda: optim.AdamW(0.05),
    ],
)
def test_resume_from_records_matches_an_uninterrupted_run(tmp_path, factory):
    ad = Device.numpy().autodiff()
    x = Tensor.from_data(X, device=ad)
    straight = run_ours(factory(), 6)

    model, opt = Tiny(ad), factory()
    for _ in range(3):
        opt.step(model, loss_of(model, x).backward())
    model.save(tmp_path / "model.safetensors")
    opt.save(tmp_path / "optim.safetensors")

    model, opt = Tiny(ad), factory()  # a fresh start: new ParamIds until the load
    model.load(tmp_path / "model.safetensors")
    assert opt.load(tmp_path / "optim.safetensors") is opt
    for _ in range(3):
        opt.step(model, loss_of(model, x).backward())
    np.testing.assert_array_equal(model.weight.to_numpy(), straight.weight.to_numpy())
    np.testing.assert_array_equal(model.bias.to_numpy(), straight.bias.to_numpy())


def test_load_refuses_another_optimisers_state(tmp_path):
    run_ours(opt := optim.Adam(0.1), 1)
    opt.save(tmp_path / "adam.safetensors")
    with pytest.raises(ValueError, match="holds the state of Adam, not SGD"):
        optim.SGD(0.1).load(tmp_path / "adam.safetensors")
