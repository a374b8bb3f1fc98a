"""The attention kernel and its backward kernel, on both backends."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernel_check import BACKENDS, numerical_vjp

rng = np.random.default_rng(11)


def attention_loops(q, k, v, mask, bias, scale, softcap, is_causal):
    """burn's attention_fallback, restated one query row at a time."""
    b, h, sq, d = q.shape
    sk = k.shape[2]
    scale = 1 / math.sqrt(d) if scale is None else scale
    out = np.zeros((b, h, sq, v.shape[3]))
    for i, j, row in np.ndindex(b, h, sq):
        scores = []
        for col in range(sk):
            s = float(np.dot(q[i, j, row], k[i, j, col])) * scale
            if softcap is not None:
                s = softcap * math.tanh(s / softcap)
            if (mask is not None and mask[i, j, row, col]) or (is_causal and col > row + sk - sq):
                s = -math.inf
            if bias is not None:
                s += bias[i, j, row, col]
            scores.append(s)
        top = max(scores)
        if top == -math.inf:
            continue  # a fully masked row gives 0
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        for col in range(sk):
            out[i, j, row] += weights[col] / total * v[i, j, col]
    return out


CASES = {
    "plain": dict(mask=False, bias=False, scale=None, softcap=None, is_causal=False),
    "mask_bias": dict(mask=True, bias=True, scale=0.7, softcap=None, is_causal=False),
    "causal_softcap": dict(mask=False, bias=True, scale=None, softcap=2.0, is_causal=True),
    "everything": dict(mask=True, bias=True, scale=1.3, softcap=1.5, is_causal=True),
}


def make_inputs(case, sq=3, sk=4):
    q = rng.standard_normal((2, 2, sq, 3))
    k = rng.standard_normal((2, 2, sk, 3))
    v = rng.standard_normal((2, 2, sk, 2))
    mask = rng.random((2, 2, sq, sk)) < 0.3 if case["mask"] else None
    if mask is not None:
        mask[0, 1, 0, :] = True  # one fully masked row
    bias = rng.standard_normal((2, 2, sq, sk)) if case["bias"] else None
    return q, k, v, mask, bias


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("name", CASES)
def test_attention_forward(run, name):
    case = CASES[name]
    inputs = make_inputs(case)
    options = (case["scale"], case["softcap"], case["is_causal"])
    out = run("attention", *inputs, *options)
    assert not np.isnan(out).any()
    np.testing.assert_allclose(out, attention_loops(*inputs, *options), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
def test_causal_mask_is_bottom_right(run):
    # 2 queries over 5 keys: the first query sees keys 0..3, the last all 5
    q, k, v, _, _ = make_inputs(CASES["plain"], sq=2, sk=5)
    out = run("attention", q, k, v, None, None, None, None, True)
    mask = np.zeros((2, 2, 2, 5), dtype=bool)
    mask[:, :, 0, 4] = True
    np.testing.assert_allclose(out, run("attention", q, k, v, mask, None, None, None, False))


@pytest.mark.parametrize("run", BACKENDS)
def test_attention_matches_torch_sdpa(run):
    q, k, v, _, _ = make_inputs(CASES["plain"], sq=4, sk=4)
    expected = F.scaled_dot_product_attention(*map(torch.from_numpy, (q, k, v)), is_causal=True)
    out = run("attention", q, k, v, None, None, None, None, True)
    np.testing.assert_allclose(out, expected.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("name", CASES)
def test_attention_gradients(run, name):
    case = CASES[name]
    q, k, v, mask, bias = make_inputs(case)
    options = (case["scale"], case["softcap"], case["is_causal"])
    grad = rng.standard_normal((2, 2, 3, 2))
    computed = run("attention_backward", q, k, v, mask, bias, grad, *options)

    def forward(q, k, v, bias):
        return attention_loops(q, k, v, mask, bias, *options)

    inputs = [q, k, v, bias]
    for position in range(4 if bias is not None else 3):
        expected = numerical_vjp(forward, inputs, position, grad)
        np.testing.assert_allclose(computed[position], expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("run", BACKENDS)
def test_attention_float32_keeps_dtype(run):
    q, k, v, mask, _ = make_inputs(CASES["mask_bias"])
    out = run(
        "attention",
        q.astype(np.float32),
        k.astype(np.float32),
        v.astype(np.float32),
        mask,
        None,
        None,
        None,
        False,
    )
    assert out.dtype == np.float32
    expected = attention_loops(q, k, v, mask, None, None, None, False)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
