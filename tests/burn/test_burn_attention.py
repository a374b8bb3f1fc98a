"""burn's attention tests (tensor/float/module/attention.rs) through `burnpy.generated.module.attention`
on both backends: burn compares `attention` with `attention_fallback` on uniform random data at
Tolerance::rel_abs(1e-2, 1e-3); here the fallback is restated in numpy (float64). burn has no
attention autodiff test: the gradients are checked against finite differences, including the
cases burn's forward tests pin (fully masked rows, bottom-right causal mask, softcap before
masking), on both strategies; and tracking a subset of the inputs gives the same gradients."""

import math

import numpy as np
import pytest

from burnpy.generated import Tensor, module
from signal_check import (
    BACKENDS,
    STRATEGIES,
    assert_approx_eq,
    autodiff_device,
    device,
    finite_difference,
)

TOLERANCE = dict(relative=1e-2, absolute=1e-3)


def attention_fallback(q, k, v, mask=None, bias=None, scale=None, softcap=None, is_causal=False):
    """burn-backend's attention_fallback in numpy: scores · scale, softcap, bool mask, causal
    mask aligned bottom-right, additive bias, then a softmax giving 0 on fully masked rows."""
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = q @ np.swapaxes(k, -1, -2) * scale
    if softcap is not None:
        scores = softcap * np.tanh(scores / softcap)
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    if is_causal:
        seq_q, seq_k = scores.shape[-2:]
        rows, cols = np.arange(seq_q)[:, None], np.arange(seq_k)[None]
        scores = np.where(cols > rows + seq_k - seq_q, -np.inf, scores)
    if bias is not None:
        scores = scores + bias
    top = np.maximum(scores.max(-1, keepdims=True), np.finfo(np.float64).min)
    numerator = np.exp(scores - top)
    total = np.maximum(numerator.sum(-1, keepdims=True), np.finfo(np.float64).tiny)
    return numerator / total @ v


def uniform(rng, shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(np.float32)


def inputs(seed, b, h, sq, sk, d, low=-1.0):
    rng = np.random.default_rng(seed)
    return (
        rng,
        uniform(rng, (b, h, sq, d), low),
        uniform(rng, (b, h, sk, d), low),
        uniform(rng, (b, h, sk, d), low),
    )


# name: (shape [b, h, seq_q, seq_k, head_dim], mask shape, bias shape, options)
CASES = {
    "no_mask": ((1, 1, 128, 128, 64), None, None, {}),
    "custom_scale": ((1, 2, 16, 16, 32), None, None, dict(scale=0.1)),
    "attn_bias": ((1, 2, 16, 16, 32), None, "full", {}),
    "softcap": ((1, 2, 16, 16, 32), None, None, dict(softcap=50.0)),
    "is_causal": ((2, 4, 16, 16, 32), None, None, dict(is_causal=True)),
    "cross_attention_with_bias": ((2, 2, 8, 24, 32), None, "full", dict(is_causal=True)),
    "all_options": (
        (2, 2, 16, 16, 32),
        "full",
        "full",
        dict(scale=0.05, softcap=30.0, is_causal=True),
    ),
    "bias_broadcast_batch_and_heads": ((2, 3, 16, 16, 32), None, (1, 1), {}),
    "bias_broadcast_heads_only": ((2, 3, 16, 16, 32), None, "heads", {}),
    "bool_mask_broadcast_batch_and_heads": ((2, 3, 16, 16, 32), (1, 1), None, {}),
}


def lead(spec, b, h):
    return {"full": (b, h), "heads": (b, 1)}.get(spec, spec)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_matches_fallback(backend, name):
    (b, h, sq, sk, d), mask_spec, bias_spec, options = CASES[name]
    rng, q, k, v = inputs(
        sorted(CASES).index(name), b, h, sq, sk, d, 0.0 if name == "no_mask" else -1.0
    )
    mask = None if mask_spec is None else rng.uniform(0, 1, (*lead(mask_spec, b, h), sq, sk)) > 0.7
    bias = None if bias_spec is None else uniform(rng, (*lead(bias_spec, b, h), sq, sk), -0.5, 0.5)
    dev = device(backend)
    out = module.attention(
        Tensor.from_data(q, device=dev),
        Tensor.from_data(k, device=dev),
        Tensor.from_data(v, device=dev),
        None if mask is None else Tensor.from_data(mask, device=dev),
        None if bias is None else Tensor.from_data(bias, device=dev),
        **options,
    )
    expected = attention_fallback(*(a.astype(np.float64) for a in (q, k, v)), mask, bias, **options)
    assert_approx_eq(out.to_numpy(), expected, **TOLERANCE)


@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_softcap_preserves_causal_mask(backend):
    """burn: softcap is applied before the -inf masking, so causal row 0 sees only key 0."""
    _, q, k, v = inputs(20, 1, 1, 4, 4, 8)
    dev = device(backend)
    args = [Tensor.from_data(a, device=dev) for a in (q, k, v)]
    out = module.attention(*args, softcap=20.0, is_causal=True).to_numpy()
    assert_approx_eq(out[:, :, :1], v[:, :, :1], relative=1e-4, absolute=1e-3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_fully_masked_rows_give_zero(backend):
    _, q, k, v = inputs(21, 1, 1, 4, 4, 8)
    dev = device(backend)
    args = [Tensor.from_data(a, device=dev) for a in (q, k, v)]
    mask = Tensor.from_data(np.ones((1, 1, 4, 4), dtype=bool), device=dev)
    out = module.attention(*args, mask).to_numpy()
    assert not np.isnan(out).any() and (np.abs(out) < 1e-4).all()
    # causal + column 0 masked: row 0 is fully masked, the others are not
    column0 = np.zeros((1, 1, 4, 4), dtype=bool)
    column0[..., 0] = True
    out = module.attention(*args, Tensor.from_data(column0, device=dev), is_causal=True)
    out = out.to_numpy()
    assert not np.isnan(out).any()
    assert (np.abs(out[:, :, 0]) < 1e-4).all() and (np.abs(out[:, :, 1:]) > 1e-4).any()


def test_causal_mask_is_bottom_right_aligned():
    """seq_q = 2, seq_k = 4: query row i sees keys 0..=i + 2, so the last row sees every key
    and row 0 sees three (a top-left mask would let it see one)."""
    v = np.eye(4, dtype=np.float32)[None, None]  # output row = the attention weights
    q = np.zeros((1, 1, 2, 4), dtype=np.float32)  # equal scores: weights uniform over seen keys
    out = module.attention(*(Tensor.from_data(a) for a in (q, v, v)), is_causal=True).to_numpy()
    np.testing.assert_allclose(out[0, 0], [[1 / 3, 1 / 3, 1 / 3, 0], [0.25] * 4], atol=1e-6)


# The gradients: seq_q = 3 != seq_k = 5, causal, softcap, a bool mask with a fully masked row,
# and a bias broadcast over heads, in float64 against finite differences.
GRAD_OPTIONS = dict(scale=0.7, softcap=1.5, is_causal=True)


def grad_inputs():
    rng = np.random.default_rng(30)
    q, k, v = (rng.standard_normal(s) for s in ((2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3)))
    mask = rng.uniform(0, 1, (2, 2, 3, 5)) < 0.25
    mask[1, 0, 2] = True  # a fully masked row
    bias = rng.standard_normal((2, 1, 3, 5))
    weights = rng.standard_normal((2, 2, 3, 3))
    return [q, k, v, bias], mask, weights


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_gradients(backend, strategy):
    values, mask, weights = grad_inputs()
    d = autodiff_device(backend, strategy)
    tensors = [Tensor.from_data(a, device=d).require_grad() for a in values]
    out = module.attention(
        *tensors[:3], Tensor.from_data(mask, device=d), tensors[3], **GRAD_OPTIONS
    )
    assert np.abs(out.to_numpy()[1, 0, 2]).max() == 0  # the fully masked row
    grads = (out * Tensor.from_data(weights, device=d)).sum().backward()
    for i, tensor in enumerate(tensors):

        def loss(x, i=i):
            args = [*values[:i], x, *values[i + 1 :]]
            return float(
                (attention_fallback(*args[:3], mask, args[3], **GRAD_OPTIONS) * weights).sum()
            )

        grad = tensor.grad(grads).to_numpy()
        assert np.isfinite(grad).all()
        np.testing.assert_allclose(grad, finite_difference(loss, values[i]), rtol=1e-6, atol=1e-8)
    # nothing flows through the fully masked row
    assert (tensors[0].grad(grads).to_numpy()[1, 0, 2] == 0).all()


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_all_masked_gradients_are_finite(backend, strategy):
    values, _, weights = grad_inputs()
    d = autodiff_device(backend, strategy)
    tensors = [Tensor.from_data(a, device=d).require_grad() for a in values]
    mask = Tensor.from_data(np.ones((2, 2, 3, 5), dtype=bool), device=d)
    out = module.attention(*tensors[:3], mask, tensors[3], **GRAD_OPTIONS)
    assert (out.to_numpy() == 0).all()
    grads = (out * Tensor.from_data(weights, device=d)).sum().backward()
    for tensor in tensors:
        grad = tensor.grad(grads).to_numpy()
        assert np.isfinite(grad).all() and (grad == 0).all()


@pytest.mark.parametrize("tracked", [(0,), (1,), (2,), (3,), (0, 2), (1, 3)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_attention_gradients_of_a_subset(backend, tracked):
    """The joint backward computes only the tracked inputs' gradients: each equals the one
    computed with every input tracked."""
    values, mask, weights = grad_inputs()
    d = autodiff_device(backend, "autodiff")

    def grads_of(track):
        tensors = [Tensor.from_data(a, device=d) for a in values]
        tensors = [t.require_grad() if i in track else t for i, t in enumerate(tensors)]
        out = module.attention(
            *tensors[:3], Tensor.from_data(mask, device=d), tensors[3], **GRAD_OPTIONS
        )
        grads = (out * Tensor.from_data(weights, device=d)).sum().backward()
        return {i: tensors[i].grad(grads).to_numpy() for i in track}

    full = grads_of(range(4))
    for i, grad in grads_of(tracked).items():
        np.testing.assert_allclose(grad, full[i], rtol=1e-12, atol=1e-12)
