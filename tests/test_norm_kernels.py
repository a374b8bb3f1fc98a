"""batch_norm and layer_norm kernels and backward kernels, on both backends."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernel_check import BACKENDS, NUMPY, numerical_vjp

EPS = 1e-5
rng = np.random.default_rng(7)


def batch_norm_loops(x, gamma, beta, mean, variance, eps):
    out = np.empty_like(x)
    for index in np.ndindex(x.shape):
        c = index[1]
        out[index] = (x[index] - mean[c]) / math.sqrt(variance[c] + eps) * gamma[c] + beta[c]
    return out


def layer_norm_loops(x, gamma, beta, eps):
    out = np.empty_like(x)
    for lead in np.ndindex(x.shape[:-1]):
        row = x[lead]
        mean = sum(row) / len(row)
        var = sum((v - mean) ** 2 for v in row) / len(row)
        for j, v in enumerate(row):
            out[lead + (j,)] = (v - mean) / math.sqrt(var + eps) * gamma[j] + (
                0.0 if beta is None else beta[j]
            )
    return out


def batch_norm_inputs(shape):
    c = shape[1]
    return (
        rng.standard_normal(shape),
        rng.standard_normal(c),
        rng.standard_normal(c),
        rng.standard_normal(c),
        rng.uniform(0.5, 2.0, c),
    )


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("shape", [(3, 2), (2, 3, 4), (2, 2, 3, 2)])
def test_batch_norm_forward(run, shape):
    inputs = batch_norm_inputs(shape)
    expected = batch_norm_loops(*inputs, EPS)
    np.testing.assert_allclose(run("batch_norm", *inputs, EPS), expected, rtol=1e-12, atol=1e-12)


def test_batch_norm_matches_torch_inference():
    x, gamma, beta, mean, variance = batch_norm_inputs((2, 3, 4, 4))
    expected = F.batch_norm(
        *map(torch.from_numpy, (x, mean, variance, gamma, beta)), training=False, eps=1e-3
    ).numpy()
    out = NUMPY.batch_norm(x, gamma, beta, mean, variance, 1e-3)
    np.testing.assert_allclose(out, expected, rtol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
def test_batch_norm_gradients(run):
    inputs = batch_norm_inputs((2, 3, 2))
    x, gamma, beta, mean, variance = inputs
    grad = rng.standard_normal(x.shape)
    computed = [
        run("batch_norm_x_backward", gamma, variance, grad, EPS),
        run("batch_norm_gamma_backward", x, mean, variance, grad, EPS),
        run("batch_norm_beta_backward", grad),
        run("batch_norm_mean_backward", gamma, variance, grad, EPS),
        run("batch_norm_variance_backward", x, gamma, mean, variance, grad, EPS),
    ]

    def forward(*values):
        return batch_norm_loops(*values, EPS)

    for position, value in enumerate(computed):
        expected = numerical_vjp(forward, list(inputs), position, grad)
        assert value.shape == inputs[position].shape
        np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("with_beta", [True, False])
@pytest.mark.parametrize("shape", [(5,), (2, 3, 4)])
def test_layer_norm_forward(run, with_beta, shape):
    x = rng.standard_normal(shape)
    gamma = rng.standard_normal(shape[-1])
    beta = rng.standard_normal(shape[-1]) if with_beta else None
    expected = layer_norm_loops(x, gamma, beta, EPS)
    np.testing.assert_allclose(
        run("layer_norm", x, gamma, beta, EPS), expected, rtol=1e-10, atol=1e-12
    )


@pytest.mark.parametrize("run", BACKENDS)
def test_layer_norm_float32_matches_torch(run):
    x = rng.standard_normal((4, 6)).astype(np.float32)
    gamma, beta = rng.standard_normal((2, 6)).astype(np.float32)
    out = run("layer_norm", x, gamma, beta, 1e-5)
    assert out.dtype == np.float32
    expected = F.layer_norm(
        *map(torch.from_numpy, (x,)), (6,), torch.from_numpy(gamma), torch.from_numpy(beta)
    )
    np.testing.assert_allclose(out, expected.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("run", BACKENDS)
def test_layer_norm_gradients(run):
    x = rng.standard_normal((2, 3, 4))
    gamma, beta = rng.standard_normal((2, 4))
    grad = rng.standard_normal(x.shape)
    computed = run("layer_norm_backward", x, gamma, grad, EPS)
    # one gradient alone is the same as with the others
    for position in range(3):
        wanted = tuple(i == position for i in range(3))
        alone = run("layer_norm_backward", x, gamma, grad, EPS, wanted)
        assert all((a is None) == (i != position) for i, a in enumerate(alone))
        np.testing.assert_allclose(alone[position], computed[position], rtol=1e-12)

    def forward(*values):
        return layer_norm_loops(*values, EPS)

    for position, value in enumerate(computed):
        expected = numerical_vjp(forward, [x, gamma, beta], position, grad)
        np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-8)
