"""burn's ctc_loss tests (tensor/float/module/ctc.rs, autodiff/ctc.rs) through
`burnpy.generated.module.ctc_loss`, on both backends and both autodiff strategies, with burn's data,
expected values and tolerances. Where burn differs we are correct, and say so: on a bare
log_probs leaf the gradient is the true one (torch's, and burn's fused kernels', assume a
log_softmax came first), and an unreachable target's gradient is exactly zero (burn's
autodiff path gives a non-zero finite one)."""

import math

import numpy as np
import pytest

from burnpy.generated import Tensor, module
from signal_cases import CTC_GRAD_MIXED_INPUT_LENGTHS
from signal_check import (
    BACKENDS,
    STRATEGIES,
    assert_approx_eq,
    autodiff_device,
    device,
    finite_difference,
)

TOLERANCE = dict(relative=1e-3, absolute=1e-3)


def logits(t_size, n_size, c_size):
    """burn's generate_logits: sin((t * 7 + n * 13 + c * 3) * 0.1)."""
    t, n, c = np.meshgrid(np.arange(t_size), np.arange(n_size), np.arange(c_size), indexing="ij")
    return np.sin((t * 7 + n * 13 + c * 3) * 0.1).astype(np.float32)


def ints(values, d):
    return Tensor.from_data(np.array(values, dtype=np.int64), device=d)


def ctc(log_probs, targets, input_lengths, target_lengths, d, blank=0):
    return module.ctc_loss(
        log_probs, ints(targets, d), ints(input_lengths, d), ints(target_lengths, d), blank
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctc_loss_forward(backend):
    d = device(backend)
    third = Tensor.full([2, 1, 3], math.log(1 / 3), device=d)
    loss = ctc(third, [[1, 1]], [2], [2], d).to_numpy()  # unreachable_target_is_inf
    assert np.isposinf(loss[0])
    half = Tensor.full([3, 1, 2], math.log(0.5), device=d)
    for targets, lengths in (([[0]], [0]), ([[1, 1]], [2])):  # empty_target, uniform
        loss = ctc(half, targets, [3], lengths, d)
        assert_approx_eq(loss.to_numpy(), [3 * math.log(2)], **TOLERANCE)
    # matches_pytorch
    log_probs = Tensor.from_data(logits(5, 3, 4), device=d).log_softmax(2)
    loss = ctc(log_probs, [[1, 2, 0], [1, 0, 0], [3, 2, 1]], [5, 5, 5], [2, 1, 3], d)
    expected = [3.5236570835113525, 3.495313882827759, 4.262677192687988]
    assert_approx_eq(loss.to_numpy(), expected, **TOLERANCE)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_ctc_loss_grad_through_log_softmax(backend, strategy):
    d = autodiff_device(backend, strategy)
    # test_ctc_loss_grad: the first row
    x = Tensor.from_data(logits(5, 3, 4), device=d).require_grad()
    loss = ctc(x.log_softmax(2), [[1, 2, 0], [1, 0, 0], [3, 2, 1]], [5, 5, 5], [2, 1, 3], d)
    grad = x.grad(loss.sum().backward()).to_numpy()
    expected = [-0.1679008007, -0.4595540464, 0.2795598209, 0.3478950262]
    assert_approx_eq(grad.reshape(-1)[:4], expected, **TOLERANCE)
    # test_ctc_loss_grad_mixed_input_lengths: all of it
    x = Tensor.from_data(logits(12, 3, 5), device=d).require_grad()
    targets = np.array([1, 4, 2, 0, 3, 1, 0, 0, 2, 4, 1, 3]).reshape(3, 4)
    loss = ctc(x.log_softmax(2), targets, [12, 7, 10], [3, 2, 4], d)
    grad = x.grad(loss.sum().backward()).to_numpy()
    expected = np.reshape(CTC_GRAD_MIXED_INPUT_LENGTHS, (12, 3, 5))
    assert_approx_eq(grad, expected, **TOLERANCE)
    # test_ctc_loss_grad_empty_target
    x = Tensor.zeros([3, 1, 2], device=d).require_grad()
    loss = ctc(x.log_softmax(2), [[0]], [3], [0], d)
    grad = x.grad(loss.sum().backward()).to_numpy()
    expected = np.reshape([-0.5, 0.5, -0.5, 0.5, -0.5, 0.5], (3, 1, 2))
    assert_approx_eq(grad, expected, relative=1e-4, absolute=1e-4)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_ctc_loss_grad_unreachable_is_zero(backend, strategy):
    """burn: finite (its autodiff path gives a non-zero finite value); here the exact zero."""
    d = autodiff_device(backend, strategy)
    log_probs = Tensor.full([2, 1, 3], math.log(1 / 3), device=d).require_grad()
    loss = ctc(log_probs, [[1, 1]], [2], [2], d)
    assert np.isposinf(loss.to_numpy()[0])
    grad = log_probs.grad(loss.sum().backward()).to_numpy()
    assert np.isfinite(grad).all() and (grad == 0).all()


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_ctc_loss_grad_on_a_bare_leaf_is_the_true_gradient(backend, strategy):
    """log_probs a leaf (no log_softmax), not normalised: the gradient is d loss / d log_probs,
    checked by finite differences in float64 on burn's mixed-lengths case, cut to T = 6."""
    values = logits(6, 3, 5).astype(np.float64) - 1.5
    targets, input_lengths, target_lengths = [[1, 4, 0], [3, 1, 0], [2, 4, 1]], [6, 4, 5], [2, 2, 3]
    weights = np.array([1.0, -0.5, 2.0])
    d = autodiff_device(backend, strategy)
    x = Tensor.from_data(values, device=d).require_grad()
    loss = ctc(x, targets, input_lengths, target_lengths, d)
    grad = x.grad((loss * Tensor.from_data(weights, device=d)).sum().backward()).to_numpy()

    def f(v):
        plain = d.inner()
        out = ctc(Tensor.from_data(v, device=plain), targets, input_lengths, target_lengths, plain)
        return float((out.to_numpy() * weights).sum())

    np.testing.assert_allclose(grad, finite_difference(f, values), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctc_loss_grad_swap_dims_then_narrow(backend):
    """test_ctc_loss_grad_swap_dims_then_narrow: [B, T, C] -> swap -> narrow gives the
    gradient of the equivalent contiguous [T, B, C] path, within 1e-3."""
    b, t_full, warmup, c = 2, 8, 2, 4
    bi, ti, ci = np.meshgrid(np.arange(b), np.arange(t_full), np.arange(c), indexing="ij")
    data = np.sin((bi * 31 + ti * 7 + ci * 3) * 0.1).astype(np.float32)
    d = autodiff_device(backend, "autodiff")
    t_eff = t_full - warmup
    a = Tensor.from_data(data, device=d).require_grad()
    log_probs = a.log_softmax(2).swap_dims(0, 1).narrow(0, warmup, t_eff)
    grad_a = a.grad(ctc(log_probs, [[1, 2], [2, 3]], [t_eff] * 2, [2, 2], d).sum().backward())
    b_ = Tensor.from_data(np.ascontiguousarray(data.transpose(1, 0, 2)), device=d).require_grad()
    log_probs = b_.log_softmax(2).narrow(0, warmup, t_eff)
    grad_b = b_.grad(ctc(log_probs, [[1, 2], [2, 3]], [t_eff] * 2, [2, 2], d).sum().backward())
    diff = np.abs(grad_a.to_numpy() - grad_b.to_numpy().transpose(1, 0, 2))
    assert (diff < 1e-3).all()
