"""burnpy.nn.functional: losses and activations against numpy written from the formulas, against
PyTorch, and their gradients against central finite differences in float64."""

import math

import numpy as np
import pytest

from burnpy.nn import functional as F
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


RNG = np.random.default_rng(0)
LOGITS = RNG.normal(size=(4, 3)).astype(np.float32) * 3
TARGETS = np.array([0, 2, 1, 2])
WEIGHTS = np.array([0.5, 2.0, 1.0], dtype=np.float32)


def ce_reference(logits, targets, alpha=0.0, weights=None):
    """Cross-entropy by explicit loops."""
    n, c = logits.shape
    total, norm = 0.0, 0.0
    for i in range(n):
        row = logits[i].astype(np.float64)
        log_z = math.log(sum(math.exp(v - row.max()) for v in row)) + row.max()
        for k in range(c):
            y = (1 - alpha) * (k == targets[i]) + alpha / c
            w = 1.0 if weights is None else weights[k]
            total -= w * y * (row[k] - log_z)
        norm += 1.0 if weights is None else weights[targets[i]]
    return total / norm


@pytest.mark.parametrize("backend,autodiff", DEVICES)
@pytest.mark.parametrize("alpha", [0.0, 0.1])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_matches_reference(backend, autodiff, alpha, weighted):
    d = device_of(backend, autodiff)
    logits = Tensor.from_data(LOGITS, device=d)
    targets = Tensor.from_data(TARGETS, device=d)
    weights = WEIGHTS if weighted else None
    loss = F.cross_entropy(logits, targets, label_smoothing=alpha, weights=weights)
    assert loss.shape == (1,)
    expected = ce_reference(LOGITS, TARGETS, alpha, weights)
    np.testing.assert_allclose(loss.to_numpy()[0], expected, rtol=1e-5)


@pytest.mark.skipif(torch is None, reason="torch not installed")
@pytest.mark.parametrize("alpha", [0.0, 0.2])
def test_cross_entropy_matches_torch(alpha):
    # Weighted and smoothed together, burn divides by the targets' weights; torch does not, so
    # torch is compared where the two agree.
    ours = F.cross_entropy(
        Tensor.from_data(LOGITS), Tensor.from_data(TARGETS), label_smoothing=alpha
    )
    theirs = torch.nn.functional.cross_entropy(
        torch.tensor(LOGITS), torch.tensor(TARGETS), label_smoothing=alpha
    )
    np.testing.assert_allclose(ours.to_numpy()[0], theirs.item(), rtol=1e-5)
    weighted = F.cross_entropy(Tensor.from_data(LOGITS), Tensor.from_data(TARGETS), weights=WEIGHTS)
    theirs = torch.nn.functional.cross_entropy(
        torch.tensor(LOGITS), torch.tensor(TARGETS), weight=torch.tensor(WEIGHTS)
    )
    np.testing.assert_allclose(weighted.to_numpy()[0], theirs.item(), rtol=1e-5)


def test_cross_entropy_is_stable_for_large_logits():
    logits = Tensor.from_data([[1000.0, 0.0], [0.0, -1000.0]])
    loss = F.cross_entropy(logits, Tensor.from_data([1, 0]))
    np.testing.assert_allclose(loss.to_numpy()[0], 500.0, rtol=1e-6)


def test_cross_entropy_rejects_bad_input():
    logits = Tensor.from_data(LOGITS)
    with pytest.raises(TypeError, match="cross_entropy: `targets` must be an Int tensor"):
        F.cross_entropy(logits, Tensor.from_data(TARGETS.astype(np.float32)))
    with pytest.raises(ValueError, match="logits \\[batch, classes\\]"):
        F.cross_entropy(logits, Tensor.from_data(TARGETS[:3]))
    with pytest.raises(ValueError, match="one value per class"):
        F.cross_entropy(logits, Tensor.from_data(TARGETS), weights=[1.0, 2.0])
    with pytest.raises(ValueError, match="positive"):
        F.cross_entropy(logits, Tensor.from_data(TARGETS), weights=[1.0, 0.0, 1.0])


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_mse_and_bce_match_reference(backend, autodiff):
    d = device_of(backend, autodiff)
    x = RNG.normal(size=(3, 2)).astype(np.float32) * 4
    y = RNG.normal(size=(3, 2)).astype(np.float32)
    bits = np.array([[1, 0], [0, 0], [1, 1]])
    mse = F.mse_loss(Tensor.from_data(x, device=d), Tensor.from_data(y, device=d))
    np.testing.assert_allclose(mse.to_numpy()[0], ((x - y) ** 2).mean(), rtol=1e-6)
    total = F.mse_loss(Tensor.from_data(x, device=d), Tensor.from_data(y, device=d), "sum")
    np.testing.assert_allclose(total.to_numpy()[0], ((x - y) ** 2).sum(), rtol=1e-6)
    expected = np.mean(
        [
            -(b * math.log(1 / (1 + math.exp(-v))) + (1 - b) * math.log(1 - 1 / (1 + math.exp(-v))))
            for v, b in zip(x.ravel().astype(np.float64), bits.ravel())
        ]
    )
    for targets in (bits, bits.astype(np.float32)):
        bce = F.binary_cross_entropy_with_logits(
            Tensor.from_data(x, device=d), Tensor.from_data(targets, device=d)
        )
        np.testing.assert_allclose(bce.to_numpy()[0], expected, rtol=1e-5)
    with pytest.raises(ValueError, match="reduction must be one of 'mean', 'sum', 'auto'"):
        F.mse_loss(Tensor.from_data(x), Tensor.from_data(y), "max")


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_bce_matches_torch_at_large_logits():
    x = np.array([-80.0, -3.0, 0.0, 2.0, 90.0], dtype=np.float32)
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0], dtype=np.float32)
    ours = F.binary_cross_entropy_with_logits(Tensor.from_data(x), Tensor.from_data(y))
    theirs = torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor(x), torch.tensor(y))
    np.testing.assert_allclose(ours.to_numpy()[0], theirs.item(), rtol=1e-6)


ACTIVATIONS = {
    "relu": (F.relu, lambda v: max(v, 0.0)),
    "gelu": (F.gelu, lambda v: 0.5 * v * (1 + math.erf(v / math.sqrt(2)))),
    "sigmoid": (F.sigmoid, lambda v: 1 / (1 + math.exp(-v))),
    "tanh": (F.tanh, math.tanh),
    "leaky_relu": (lambda t: F.leaky_relu(t, 0.1), lambda v: v if v > 0 else 0.1 * v),
    "silu": (F.silu, lambda v: v / (1 + math.exp(-v))),
    "log_sigmoid": (F.log_sigmoid, lambda v: -math.log1p(math.exp(-v))),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_activations_match_formulas(name, backend):
    fn, scalar = ACTIVATIONS[name]
    x = np.array([-2.5, -0.3, 0.7, 3.0], dtype=np.float32)
    out = fn(Tensor.from_data(x, device=device_of(backend))).to_numpy()
    np.testing.assert_allclose(out, [scalar(float(v)) for v in x], rtol=1e-5, atol=1e-7)


def finite_difference(f, x, eps=1e-6):
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        grad[index] = (f(up) - f(down)) / (2 * eps)
    return grad


@pytest.mark.parametrize(
    "loss",
    [
        lambda x: F.cross_entropy(
            x, Tensor.from_data(TARGETS), label_smoothing=0.1, weights=WEIGHTS
        ),
        lambda x: F.cross_entropy(x, Tensor.from_data(TARGETS)),
        lambda x: F.mse_loss(x, Tensor.from_data(np.ones((4, 3)))),
        lambda x: F.binary_cross_entropy_with_logits(x, Tensor.from_data((LOGITS > 0).astype(int))),
        lambda x: F.softmax(x, 1).mul(Tensor.from_data(np.arange(12.0).reshape(4, 3))).sum(),
    ],
)
def test_loss_gradients_match_finite_differences(loss):
    x0 = LOGITS.astype(np.float64)
    ad = Device.numpy().autodiff()
    x = Tensor.from_data(x0, device=ad).require_grad()
    grad = x.grad(loss(x).backward()).to_numpy()
    numeric = finite_difference(lambda v: loss(Tensor.from_data(v)).to_numpy()[0], x0)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("target", [-1, -100, 3])
def test_cross_entropy_refuses_a_class_index_out_of_range(backend, target):
    # NumPy's take_along_axis would wrap a negative index, torch skip -100 (its ignore_index)
    if backend == "torch":
        pytest.importorskip("torch")
    device = Device.of(backend).autodiff()
    logits = Tensor.from_data(LOGITS[:2], device=device).require_grad()
    targets = Tensor.from_data(np.array([0, target]), device=device)
    with pytest.raises(IndexError, match=f"index {target} is out of range for dim 1 of size 3"):
        F.cross_entropy(logits, targets)
