"""ctc_loss and its backward kernel, on both backends, against enumerating every path."""

import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernel_check import BACKENDS, numerical_vjp

rng = np.random.default_rng(13)


def collapse(path, blank):
    labels = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    return [c for c in labels if c != blank]


def ctc_paths(log_probs, targets, input_lengths, target_lengths, blank):
    """-log of the summed probability of every frame path that collapses to the target."""
    classes = log_probs.shape[2]
    losses = []
    for n in range(log_probs.shape[1]):
        steps, target = input_lengths[n], list(targets[n, : target_lengths[n]])
        total = 0.0
        for path in itertools.product(range(classes), repeat=int(steps)):
            if collapse(path, blank) == target:
                total += math.exp(sum(log_probs[t, n, c] for t, c in enumerate(path)))
        losses.append(-math.log(total) if total > 0 else math.inf)
    return np.array(losses)


def make_inputs(steps=4, batch=3, classes=3):
    log_probs = np.log(rng.dirichlet(np.ones(classes), size=(steps, batch)))
    targets = np.array([[1, 2], [1, 1], [2, 0]])[:batch]
    input_lengths = np.array([4, 4, 3])[:batch]
    target_lengths = np.array([2, 2, 1])[:batch]
    return log_probs, targets, input_lengths, target_lengths


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("blank", [0, 2])
def test_ctc_loss_forward(run, blank):
    log_probs, targets, input_lengths, target_lengths = make_inputs()
    if blank == 2:
        targets = np.where(targets == 2, 0, targets)
    out = run("ctc_loss", log_probs, targets, input_lengths, target_lengths, blank)
    expected = ctc_paths(log_probs, targets, input_lengths, target_lengths, blank)
    np.testing.assert_allclose(out, expected, rtol=1e-10)


@pytest.mark.parametrize("run", BACKENDS)
def test_ctc_loss_matches_torch(run):
    log_probs = np.log(rng.dirichlet(np.ones(5), size=(7, 2))).astype(np.float32)
    targets = np.array([[1, 3, 3], [4, 2, 0]])
    input_lengths, target_lengths = np.array([7, 5]), np.array([3, 2])
    args = (log_probs, targets, input_lengths, target_lengths)
    expected = F.ctc_loss(*map(torch.from_numpy, args), reduction="none").numpy()
    out = run("ctc_loss", *args, 0)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-5)


@pytest.mark.parametrize("run", BACKENDS)
def test_ctc_empty_target_and_unreachable(run):
    log_probs = np.log(rng.dirichlet(np.ones(3), size=(3, 2)))
    targets = np.array([[1, 1], [0, 0]])  # "1 1" needs 3 frames: 2 are given
    input_lengths, target_lengths = np.array([2, 3]), np.array([2, 0])
    out = run("ctc_loss", log_probs, targets, input_lengths, target_lengths, 0)
    assert out[0] == math.inf
    np.testing.assert_allclose(out[1], -log_probs[:, 1, 0].sum(), rtol=1e-12)
    grad = run(
        "ctc_loss_backward", log_probs, targets, input_lengths, target_lengths, np.ones(2), 0
    )
    assert np.all(grad[:, 0] == 0)  # unreachable: finite, zero
    expected = np.zeros((3, 3))
    expected[:, 0] = -1.0  # only the all-blank path: d(-sum lp_blank)/d lp = -1
    np.testing.assert_allclose(grad[:, 1], expected, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("normalised", [True, False])
def test_ctc_loss_backward_is_the_true_gradient(run, normalised):
    log_probs, targets, input_lengths, target_lengths = make_inputs()
    if not normalised:  # a bare leaf: torch's backward (which assumes log_softmax) is wrong here
        log_probs = log_probs + rng.uniform(-0.5, 0.5, log_probs.shape)
    grad = rng.uniform(0.5, 2.0, 3)
    computed = run("ctc_loss_backward", log_probs, targets, input_lengths, target_lengths, grad, 0)

    def forward(log_probs):
        return ctc_paths(log_probs, targets, input_lengths, target_lengths, 0)

    expected = numerical_vjp(forward, [log_probs], 0, grad)
    np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)
    assert np.all(computed[3:, 2] == 0)  # past the input length
