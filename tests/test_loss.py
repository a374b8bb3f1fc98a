"""burnpy.generated.loss: burn-tensor's loss functions, against numpy, finite differences and burn's
own test."""

import numpy as np
import pytest

from burnpy.generated import Device, Tensor, loss

BACKENDS = {"numpy": Device.numpy(), "torch": Device.torch()}


@pytest.fixture(params=sorted(BACKENDS))
def device(request):
    return BACKENDS[request.param]


def reference(logits, targets):
    """-mean over rows of sum(targets * log_softmax(logits)), written out with loops."""
    rows = logits.reshape(-1, logits.shape[-1])
    probs = targets.reshape(-1, logits.shape[-1])
    total = 0.0
    for row, p in zip(rows, probs):
        log_norm = np.log(sum(np.exp(v) for v in row))
        total -= sum(pi * (v - log_norm) for v, pi in zip(row, p))
    return total / len(rows)


def test_burn_cross_entropy_loss_grad(device):
    # burn-backend-tests autodiff/cross_entropy.rs: data and expected gradients kept
    ad = device.autodiff()
    t1 = Tensor.from_data([[0.0, 1.0], [3.0, 4.0]], device=ad, dtype="float32").require_grad()
    t2 = Tensor.from_data([[6.0, 7.0], [9.0, 10.0]], device=ad, dtype="float32").require_grad()
    targets = Tensor.from_data([[0.8, 0.2], [0.9, 0.1]], device=ad, dtype="float32")
    grads = loss.cross_entropy_with_logits(t1.matmul(t2), targets.require_grad()).backward()
    np.testing.assert_allclose(
        t1.grad(grads).to_numpy(), [[0.26553, 0.26553], [0.44954, 0.44954]], atol=1e-4
    )
    np.testing.assert_allclose(
        t2.grad(grads).to_numpy(), [[-1.34863, 1.34863], [-2.06371, 2.06371]], atol=1e-4
    )


def test_cross_entropy_with_logits_values_and_gradients(device):
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((2, 3, 4))
    targets = rng.dirichlet(np.ones(4), size=(2, 3))
    result = loss.cross_entropy_with_logits(
        Tensor.from_data(logits, device=device), Tensor.from_data(targets, device=device)
    )
    assert result.shape == (1,)
    np.testing.assert_allclose(result.to_numpy(), [reference(logits, targets)], rtol=1e-12)

    ad = device.autodiff()
    x = Tensor.from_data(logits, device=ad).require_grad()
    p = Tensor.from_data(targets, device=ad).require_grad()
    grads = loss.cross_entropy_with_logits(x, p).backward()
    for leaf, array, other in ((x, logits, targets), (p, targets, logits)):
        expected = np.zeros_like(array)
        for i in np.ndindex(array.shape):
            up, down = array.copy(), array.copy()
            up[i] += 1e-6
            down[i] -= 1e-6
            if leaf is x:
                expected[i] = (reference(up, other) - reference(down, other)) / 2e-6
            else:
                expected[i] = (reference(other, up) - reference(other, down)) / 2e-6
        np.testing.assert_allclose(leaf.grad(grads).to_numpy(), expected, atol=1e-7)


def test_cross_entropy_with_logits_checks_its_arguments():
    logits = Tensor.from_data([[1.0, 2.0]])
    with pytest.raises(ValueError, match="must have the same shape"):
        loss.cross_entropy_with_logits(logits, Tensor.from_data([[1.0, 0.0, 0.0]]))
    with pytest.raises(TypeError, match="needs a Float tensor"):
        loss.cross_entropy_with_logits(logits, Tensor.from_data([[1, 0]]))
