"""batch_norm, layer_norm and rms_norm kernels and backward kernels, on both backends."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernel_check import BACKENDS, NUMPY, TORCH, numerical_vjp

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


def rms_norm_loops(x, gamma, eps):
    out = np.empty_like(x)
    for lead in np.ndindex(x.shape[:-1]):
        row = x[lead]
        rms = math.sqrt(sum(v * v for v in row) / len(row) + eps)
        for j, v in enumerate(row):
            out[lead + (j,)] = v / rms * gamma[j]
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


@pytest.mark.parametrize("backend", [NUMPY, TORCH], ids=["numpy", "torch"])
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.float32, 2e-5)])
def test_batch_norm_training_and_its_backward_match_torch_autograd(backend, dtype, tol):
    x, gamma, beta, _, _ = (v.astype(dtype) for v in batch_norm_inputs((4, 3, 5, 2)))
    x = x * 3 + 1
    grad = rng.standard_normal(x.shape).astype(dtype)
    reference = [torch.from_numpy(v).requires_grad_() for v in (x, gamma, beta)]
    expected_out = F.batch_norm(reference[0], None, None, *reference[1:], True, eps=EPS)
    expected_out.backward(torch.from_numpy(grad))
    convert = (lambda v: v) if backend is NUMPY else torch.from_numpy
    back = (lambda v: v) if backend is NUMPY else (lambda v: None if v is None else v.numpy())
    out, mean, variance = backend.batch_norm_training(*map(convert, (x, gamma, beta)), EPS)
    close = dict(rtol=tol, atol=tol)
    np.testing.assert_allclose(back(out), expected_out.detach().numpy(), **close)
    np.testing.assert_allclose(back(mean), x.mean(axis=(0, 2, 3)), **close)
    np.testing.assert_allclose(back(variance), x.var(axis=(0, 2, 3)), **close)  # biased
    for wanted in [(True, True, True), (True, False, False), (False, True, True)]:
        grads = backend.batch_norm_training_backward(
            convert(x), convert(gamma), (convert(grad), None, None), mean, variance, EPS, wanted
        )
        for want, got, tensor in zip(wanted, grads, reference):
            if want:
                np.testing.assert_allclose(back(got), tensor.grad.numpy(), **close)
            else:
                assert got is None


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


def torch_layer_norm(x, gamma, beta, grad, eps=EPS):
    """PyTorch's layer_norm in float64 and its gradients (x, gamma, beta) for `grad`."""
    tensors = [
        torch.tensor(np.asarray(a, np.float64), requires_grad=True) for a in (x, gamma, beta)
    ]
    out = F.layer_norm(tensors[0], x.shape[-1:], tensors[1], tensors[2], eps)
    out.backward(torch.tensor(np.asarray(grad, np.float64)))
    return out.detach().numpy(), [t.grad.numpy() for t in tensors]


# More rows than one chunk of the NumPy kernel holds (and a last chunk that is not full)
@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
def test_layer_norm_over_many_rows_matches_torch(run, dtype, tol):
    x = rng.standard_normal((3, 1100, 40)).astype(dtype)
    gamma, beta = rng.standard_normal((2, 40)).astype(dtype)
    grad = rng.standard_normal(x.shape).astype(dtype)
    expected, expected_grads = torch_layer_norm(x, gamma, beta, grad)
    out = run("layer_norm", x, gamma, beta, EPS)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected, rtol=tol, atol=tol)
    grads = run("layer_norm_backward", x, gamma, grad, EPS)
    for got, want in zip(grads, expected_grads):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


def broadcast_grads(shape, dtype):
    """Gradients that are views with zero strides, as autodiff hands them over: a `.sum()`
    seed (one value everywhere), one row repeated over the leading dims, one matrix repeated
    over the first dim."""
    one = np.full(1, 0.5, dtype)
    row = rng.standard_normal(shape[-1]).astype(dtype)
    matrix = rng.standard_normal(shape[1:]).astype(dtype)
    return {
        "one value": np.ndarray(shape, dtype, one, strides=(0,) * len(shape)),
        "one row": np.broadcast_to(row, shape),
        "one matrix": np.broadcast_to(matrix, shape),
    }


# NumPy's kernel takes a gradient repeated over rows apart (torch's own sums such a gradient's
# 3300 float32 rows one after another, to 3e-5)
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
@pytest.mark.parametrize("kind", ["one value", "one row", "one matrix"])
def test_layer_norm_backward_of_a_broadcast_gradient_matches_torch(dtype, tol, kind):
    x = rng.standard_normal((3, 1100, 40)).astype(dtype)
    gamma, beta = rng.standard_normal((2, 40)).astype(dtype)
    grad = broadcast_grads(x.shape, dtype)[kind]
    _, expected = torch_layer_norm(x, gamma, beta, grad)
    grads = NUMPY.layer_norm_backward(x, gamma, grad, EPS)
    for position, (got, want) in enumerate(zip(grads, expected)):
        assert got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
        wanted = tuple(i == position for i in range(3))
        alone = NUMPY.layer_norm_backward(x, gamma, grad, EPS, wanted)
        assert all((a is None) == (i != position) for i, a in enumerate(alone))
        np.testing.assert_allclose(alone[position], got, rtol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
def test_layer_norm_centres_before_it_squares(run):
    # a mean of 1e6 and a spread of 1: sum(x²) / d - mean² would keep 4 of float64's digits
    x = 1e6 + rng.standard_normal((2, 3, 8))
    gamma, beta = rng.standard_normal((2, 8))
    grad = rng.standard_normal(x.shape)
    expected = layer_norm_loops(x, gamma, beta, EPS)
    np.testing.assert_allclose(run("layer_norm", x, gamma, beta, EPS), expected, atol=1e-8)
    _, expected_grads = torch_layer_norm(x, gamma, beta, grad)
    for got, want in zip(run("layer_norm_backward", x, gamma, grad, EPS), expected_grads):
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-7 * np.abs(want).max())


def test_layer_norm_keeps_nan_and_inf_in_their_rows():
    x = rng.standard_normal((4, 6))
    x[1, 2], x[2, 0] = np.nan, np.inf
    gamma, beta = rng.standard_normal((2, 6))
    out = NUMPY.layer_norm(x, gamma, beta, EPS)
    assert np.isnan(out[1:3]).all()
    np.testing.assert_allclose(out[[0, 3]], layer_norm_loops(x[[0, 3]], gamma, beta, EPS))


@pytest.mark.parametrize("run", BACKENDS)
def test_rms_norm_forward_and_gradients(run):
    x = rng.standard_normal((2, 3, 4))
    gamma = rng.standard_normal(4)
    grad = rng.standard_normal(x.shape)
    out, kept = run("rms_norm_keeping", x, gamma, EPS)
    np.testing.assert_allclose(out, rms_norm_loops(x, gamma, EPS), rtol=1e-12)
    np.testing.assert_allclose(run("rms_norm", x, gamma, EPS), out, rtol=1e-14)
    computed = run("rms_norm_backward", x, gamma, grad, EPS)
    for position, value in enumerate(computed):
        expected = numerical_vjp(lambda *v: rms_norm_loops(*v, EPS), [x, gamma], position, grad)
        np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-8)
    # from the kept 1 / rms, and one gradient alone, the same
    from_kept = run("rms_norm_backward", x, gamma, grad, EPS, (True, True), kept)
    for position in range(2):
        wanted = tuple(i == position for i in range(2))
        alone = run("rms_norm_backward", x, gamma, grad, EPS, wanted, kept)
        assert alone[1 - position] is None
        for got in (from_kept[position], alone[position]):
            np.testing.assert_allclose(got, computed[position], rtol=1e-12)


# More rows than one chunk of the NumPy kernel holds, against PyTorch's RMS norm
@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
def test_rms_norm_over_many_rows_matches_torch(run, dtype, tol):
    x = rng.standard_normal((3, 1100, 40)).astype(dtype)
    gamma = rng.standard_normal(40).astype(dtype)
    grad = rng.standard_normal(x.shape).astype(dtype)
    x_, gamma_ = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (x, gamma))
    expected = F.rms_norm(x_, (40,), gamma_, EPS)
    expected.backward(torch.tensor(grad, dtype=torch.float64))
    out, kept = run("rms_norm_keeping", x, gamma, EPS)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected.detach().numpy(), rtol=tol, atol=tol)
    grads = run("rms_norm_backward", x, gamma, grad, EPS, (True, True), kept)
    for got, want in zip(grads, (x_.grad.numpy(), gamma_.grad.numpy())):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
@pytest.mark.parametrize("kind", ["one value", "one row", "one matrix"])
def test_rms_norm_backward_of_a_broadcast_gradient_matches_torch(dtype, tol, kind):
    x = rng.standard_normal((3, 1100, 40)).astype(dtype)
    gamma = rng.standard_normal(40).astype(dtype)
    grad = broadcast_grads(x.shape, dtype)[kind]
    x_, gamma_ = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (x, gamma))
    F.rms_norm(x_, (40,), gamma_, EPS).backward(torch.tensor(grad, dtype=torch.float64))
    _, kept = NUMPY.rms_norm_keeping(x, gamma, EPS)
    for inverse_rms in (None, kept):
        grads = NUMPY.rms_norm_backward(x, gamma, grad, EPS, (True, True), inverse_rms)
        for position, (got, want) in enumerate(zip(grads, (x_.grad.numpy(), gamma_.grad.numpy()))):
            assert got.dtype == dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
            wanted = tuple(i == position for i in range(2))
            alone = NUMPY.rms_norm_backward(x, gamma, grad, EPS, wanted, inverse_rms)
            assert alone[1 - position] is None
            np.testing.assert_allclose(alone[position], got, rtol=1e-12)
