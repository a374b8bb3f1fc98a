"""Transformers and positional encodings: burn-nn's tests of transformer/encoder.rs,
decoder.rs, pwff.rs, pos_encoding.rs and rope_encoding.rs ported with its data, expected values
and tolerances on both backends; the layers against torch.nn.TransformerEncoderLayer and
TransformerDecoderLayer with copied weights; parameter gradients against finite differences."""

import math

import numpy as np
import pytest

from burnpy import nn
from burnpy.generated import Device, Tensor
from seq_check import (
    DEVICES,
    Tolerance,
    assert_approx_eq,
    assert_parameter_gradients_match,
    needs_torch,
    random,
    to_float64,
    torch,
)

# -- burn-nn's encoder.rs, decoder.rs and pwff.rs tests ----------------------------------------


@pytest.mark.parametrize("make", DEVICES)
@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_encoder_autoregressive(make, norm_first):
    d_model, d_ff, n_heads, n_layers = 12, 24, 2, 3
    batch, seq = 3, 4
    device = make()
    encoder = nn.TransformerEncoder(
        d_model, d_ff, n_heads, n_layers, norm_first=norm_first, device=device
    )
    tensor = random([batch, seq, d_model], device)
    mask_attn = nn.generate_autoregressive_mask(batch, seq, device)
    output_1 = encoder(tensor, mask_attn=mask_attn)
    cache = encoder.new_autoregressive_cache()
    steps = []
    for i in range(1, seq + 1):
        prefix = tensor.slice([slice(None), slice(0, i)])
        out = encoder.forward_autoregressive_inference(prefix, cache)
        steps.append(out.slice([slice(None), slice(i - 1, i)]))
    assert_approx_eq(output_1, Tensor.cat(steps, 1).to_numpy(), Tolerance.permissive())


@pytest.mark.parametrize("make", DEVICES)
@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_decoder_autoregressive(make, norm_first):
    d_model, d_ff, n_heads, n_layers = 12, 24, 2, 3
    batch, seq = 3, 4
    device = make()
    device.seed(0)
    decoder = nn.TransformerDecoder(
        d_model, d_ff, n_heads, n_layers, norm_first=norm_first, device=device
    )
    data = np.arange(batch * seq * d_model, dtype=np.float32).reshape(batch, seq, d_model)
    memory = Tensor.from_data(data, device=device)
    target = Tensor.from_data(data, device=device)
    mask_attn = nn.generate_autoregressive_mask(batch, seq, device)
    output_1 = decoder(target, memory, target_mask_attn=mask_attn)
    cache = decoder.new_autoregressive_cache()
    steps = []
    for i in range(1, seq + 1):
        prefix = target.slice([slice(None), slice(0, i)])
        out = decoder.forward_autoregressive_inference(
            prefix,
            memory,
            cache,
            target_mask_attn=nn.generate_autoregressive_mask(batch, i, device),
        )
        steps.append(out.slice([slice(None), slice(i - 1, i)]))
    assert_approx_eq(output_1, Tensor.cat(steps, 1).to_numpy(), Tolerance.rel_abs(5e-3, 1e-4))


@pytest.mark.parametrize("make", DEVICES)
def test_parameter_counts_of_burns_display_tests(make):
    device = make()
    assert nn.TransformerEncoder(2, 4, 2, 3, device=device).num_params() == 162
    assert nn.TransformerDecoder(2, 4, 2, 3, device=device).num_params() == 246
    assert nn.PositionWiseFeedForward(2, 4, device=device).num_params() == 22


def test_parameter_names_are_burns():
    device = Device.numpy()
    encoder = nn.TransformerEncoder(4, 8, 2, 2, device=device)
    names = [name for name, _ in encoder.named_parameters()]
    assert names[:12] == [
        "layers.0.mha.query.weight",
        "layers.0.mha.query.bias",
        "layers.0.mha.key.weight",
        "layers.0.mha.key.bias",
        "layers.0.mha.value.weight",
        "layers.0.mha.value.bias",
        "layers.0.mha.output.weight",
        "layers.0.mha.output.bias",
        "layers.0.pwff.linear_inner.weight",
        "layers.0.pwff.linear_inner.bias",
        "layers.0.pwff.linear_outer.weight",
        "layers.0.pwff.linear_outer.bias",
    ]
    assert names[12:16] == [
        "layers.0.norm_1.gamma",
        "layers.0.norm_1.beta",
        "layers.0.norm_2.gamma",
        "layers.0.norm_2.beta",
    ]
    assert len(names) == 32
    decoder = nn.TransformerDecoder(4, 8, 2, 1, device=device)
    parts = []
    for name, _ in decoder.named_parameters():
        part = name.split(".")[2]
        if part not in parts:
            parts.append(part)
    assert parts == ["cross_attn", "self_attn", "pwff", "norm_1", "norm_2", "norm_3"]


# -- against PyTorch ---------------------------------------------------------------------------


def torch_decoder_layer(layer):
    """A torch.nn.TransformerDecoderLayer computing what our TransformerDecoderLayer does (no
    dropout). PyTorch's norm1, norm2, norm3 sit at self-attention, cross-attention and the
    feed-forward: ours are norm_1, norm_2, norm_3 post-norm, norm_3, norm_1, norm_2 pre-norm."""
    from examples.char_transformer import copy_linear, copy_mha, copy_norm

    d_model, d_ff = layer.pwff.linear_inner.weight.shape
    twin = torch.nn.TransformerDecoderLayer(
        d_model,
        layer.self_attn.n_heads,
        d_ff,
        dropout=0.0,
        activation="gelu",
        batch_first=True,
        norm_first=layer.norm_first,
    )
    copy_mha(layer.self_attn, twin.self_attn)
    copy_mha(layer.cross_attn, twin.multihead_attn)
    copy_linear(layer.pwff.linear_inner, twin.linear1)
    copy_linear(layer.pwff.linear_outer, twin.linear2)
    norms = (layer.norm_3, layer.norm_1, layer.norm_2) if layer.norm_first else (
        layer.norm_1, layer.norm_2, layer.norm_3
    )  # fmt: skip
    for ours, theirs in zip(norms, (twin.norm1, twin.norm2, twin.norm3), strict=True):
        copy_norm(ours, theirs)
    return twin


def perturbed_norms(model, seed):
    """Give every LayerNorm distinct gamma and beta, so that a norm in the wrong place shows."""
    rng = np.random.default_rng(seed)
    for name, owner in model.named_modules():
        if isinstance(owner, nn.LayerNorm):
            d = owner.gamma.shape[0]
            device = owner.gamma.device()
            owner.gamma = Tensor.from_data(rng.uniform(0.5, 1.5, d).astype(np.float32), device=device)  # fmt: skip
            owner.beta = Tensor.from_data(rng.normal(0, 0.5, d).astype(np.float32), device=device)
    return model


@needs_torch
@pytest.mark.parametrize("make", DEVICES)
@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_encoder_layer_matches_torch(make, norm_first):
    from examples.char_transformer import torch_encoder_layer

    device = make()
    encoder = nn.TransformerEncoder(8, 16, 2, 2, dropout=0.0, norm_first=norm_first, device=device)
    perturbed_norms(encoder, 1)
    twins = [torch_encoder_layer(layer) for layer in encoder.layers]
    rng = np.random.default_rng(2)
    x = rng.normal(size=(2, 5, 8)).astype(np.float32)
    pad = np.array([[False] * 5, [False, False, False, True, True]])
    causal = np.triu(np.ones((5, 5), dtype=bool), 1)
    got = encoder(
        Tensor.from_data(x, device=device),
        mask_pad=Tensor.from_data(pad, device=device),
        mask_attn=Tensor.from_data(np.broadcast_to(causal, (2, 5, 5)).copy(), device=device),
    )
    expected = torch.from_numpy(x)
    for twin in twins:
        expected = twin(
            expected, src_mask=torch.from_numpy(causal), src_key_padding_mask=torch.from_numpy(pad)
        )
    np.testing.assert_allclose(got.to_numpy(), expected.detach(), rtol=1e-4, atol=1e-5)


@needs_torch
@pytest.mark.parametrize("make", DEVICES)
@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_decoder_layer_matches_torch(make, norm_first):
    device = make()
    decoder = nn.TransformerDecoder(8, 16, 2, 1, dropout=0.0, norm_first=norm_first, device=device)
    perturbed_norms(decoder, 3)
    twin = torch_decoder_layer(decoder.layers[0])
    rng = np.random.default_rng(4)
    target = rng.normal(size=(2, 4, 8)).astype(np.float32)
    memory = rng.normal(size=(2, 3, 8)).astype(np.float32)
    causal = np.triu(np.ones((4, 4), dtype=bool), 1)
    memory_pad = np.array([[False, False, True], [False, False, False]])
    memory_attn = np.zeros((4, 3), dtype=bool)
    memory_attn[0, 1] = True

    def ours(a):
        return Tensor.from_data(np.ascontiguousarray(a), device=device)

    got = decoder(
        ours(target),
        ours(memory),
        target_mask_attn=ours(np.broadcast_to(causal, (2, 4, 4))),
        memory_mask_pad=ours(memory_pad),
        memory_mask_attn=ours(np.broadcast_to(memory_attn, (2, 4, 3))),
    )
    expected = twin(
        torch.from_numpy(target),
        torch.from_numpy(memory),
        tgt_mask=torch.from_numpy(causal),
        memory_mask=torch.from_numpy(memory_attn),
        memory_key_padding_mask=torch.from_numpy(memory_pad),
    )
    np.testing.assert_allclose(got.to_numpy(), expected.detach(), rtol=1e-4, atol=1e-5)


@needs_torch
def test_feed_forward_activation_by_burns_name():
    from examples.char_transformer import copy_linear

    pwff = nn.PositionWiseFeedForward(4, 6, dropout=0.0, activation="relu", device=Device.numpy())
    inner, outer = torch.nn.Linear(4, 6), torch.nn.Linear(6, 4)
    copy_linear(pwff.linear_inner, inner)
    copy_linear(pwff.linear_outer, outer)
    x = np.random.default_rng(5).normal(size=(3, 4)).astype(np.float32)
    expected = outer(torch.relu(inner(torch.from_numpy(x)))).detach()
    np.testing.assert_allclose(pwff(Tensor.from_data(x)).to_numpy(), expected, rtol=1e-5, atol=1e-6)
    assert isinstance(nn.PositionWiseFeedForward(4, 6, device=Device.numpy()).activation, nn.Gelu)
    with pytest.raises(ValueError, match="unknown activation 'swish'"):
        nn.PositionWiseFeedForward(4, 6, activation="swish", device=Device.numpy())


@needs_torch
def test_feed_forward_takes_every_name_of_burns_activation_config():
    from examples.char_transformer import copy_linear

    # names with no class of the same spelling: the tanh approximation and the two-word ones
    x = np.random.default_rng(6).normal(size=(3, 4)).astype(np.float32)
    for name, reference in [
        ("gelu_approximate", lambda t: torch.nn.functional.gelu(t, approximate="tanh")),
        ("leaky_relu", lambda t: torch.nn.functional.leaky_relu(t, 0.01)),
        ("hard_sigmoid", lambda t: torch.clamp(0.2 * t + 0.5, 0.0, 1.0)),
    ]:
        pwff = nn.PositionWiseFeedForward(4, 6, dropout=0.0, activation=name, device=Device.numpy())
        inner, outer = torch.nn.Linear(4, 6), torch.nn.Linear(6, 4)
        copy_linear(pwff.linear_inner, inner)
        copy_linear(pwff.linear_outer, outer)
        expected = outer(reference(inner(torch.from_numpy(x)))).detach()
        got = pwff(Tensor.from_data(x)).to_numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=name)


# -- gradients ---------------------------------------------------------------------------------


@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_encoder_parameter_gradients_match_finite_differences(norm_first):
    ad = Device.numpy().autodiff()
    ad.seed(3)
    encoder = nn.TransformerEncoder(4, 6, 2, 1, dropout=0.0, norm_first=norm_first, device=ad)
    encoder = to_float64(encoder, ad)
    rng = np.random.default_rng(6)
    x = Tensor.from_data(rng.normal(size=(2, 3, 4)), device=ad)
    mask = nn.generate_autoregressive_mask(2, 3, Device.numpy())
    weights = Tensor.from_data(rng.normal(size=(2, 3, 4)))
    assert_parameter_gradients_match(
        encoder, lambda: (encoder(x, mask_attn=mask) * weights).sum(), ad
    )


@pytest.mark.parametrize("norm_first", [False, True], ids=["norm_last", "norm_first"])
def test_decoder_parameter_gradients_match_finite_differences(norm_first):
    ad = Device.numpy().autodiff()
    ad.seed(4)
    decoder = nn.TransformerDecoder(4, 6, 2, 1, dropout=0.0, norm_first=norm_first, device=ad)
    decoder = to_float64(decoder, ad)
    rng = np.random.default_rng(7)
    target = Tensor.from_data(rng.normal(size=(2, 3, 4)), device=ad)
    memory = Tensor.from_data(rng.normal(size=(2, 2, 4)), device=ad)
    pad = Tensor.from_data(np.array([[False, True], [False, False]]))
    weights = Tensor.from_data(rng.normal(size=(2, 3, 4)))
    assert_parameter_gradients_match(
        decoder, lambda: (decoder(target, memory, memory_mask_pad=pad) * weights).sum(), ad
    )


def test_dropout_acts_in_training_only():
    ad = Device.numpy().autodiff()
    ad.seed(5)
    encoder = nn.TransformerEncoder(4, 6, 2, 1, dropout=0.5, device=ad)
    x = random([2, 3, 4], ad)
    ad.seed(6)
    first = encoder(x).to_numpy()
    ad.seed(7)
    assert not np.allclose(encoder(x).to_numpy(), first)
    encoder.eval()
    np.testing.assert_array_equal(encoder(x).to_numpy(), encoder(x).to_numpy())
    np.testing.assert_allclose(
        encoder(x).to_numpy(), encoder.valid()(x.inner()).to_numpy(), rtol=1e-6
    )


# -- burn-nn's pos_encoding.rs tests -----------------------------------------------------------

# burn's values, "taken from the pytorch reference implementation".
SINUSOIDS_12_6 = [
    [0.00000, 1.00000, 0.00000, 1.00000, 0.00000, 1.00000],
    [0.84147, 0.54030, 0.04640, 0.99892, 0.00215, 1.00000],
    [0.90930, -0.41615, 0.09270, 0.99569, 0.00431, 0.99999],
    [0.14112, -0.98999, 0.13880, 0.99032, 0.00646, 0.99998],
    [-0.75680, -0.65364, 0.18460, 0.98281, 0.00862, 0.99996],
    [-0.95892, 0.28366, 0.23000, 0.97319, 0.01077, 0.99994],
    [-0.27942, 0.96017, 0.27491, 0.96147, 0.01293, 0.99992],
    [0.65699, 0.75390, 0.31922, 0.94768, 0.01508, 0.99989],
    [0.98936, -0.14550, 0.36285, 0.93185, 0.01723, 0.99985],
    [0.41212, -0.91113, 0.40570, 0.91401, 0.01939, 0.99981],
    [-0.54402, -0.83907, 0.44767, 0.89420, 0.02154, 0.99977],
    [-0.99999, 0.00443, 0.48868, 0.87246, 0.02370, 0.99972],
]


@pytest.mark.parametrize("make", DEVICES)
def test_positional_encoding_module(make):
    device = make()
    pe = nn.PositionalEncoding(6, device=device)
    output = pe(Tensor.zeros([2, 3, 6], device=device))
    assert output.shape == (2, 3, 6)
    assert_approx_eq(output, [SINUSOIDS_12_6[:3]] * 2, Tolerance.default())
    assert pe.named_parameters() == [] and [n for n, _ in pe.named_buffers()] == ["sinusoids"]


@pytest.mark.parametrize("make", DEVICES)
def test_generate_sinusoids(make):
    sinusoids = nn.generate_sinusoids(12, 6, 10_000, make())
    assert_approx_eq(sinusoids, SINUSOIDS_12_6, Tolerance.default())


def test_positional_encoding_refuses_a_wrong_width_or_a_long_sequence():
    pe = nn.PositionalEncoding(8, device=Device.numpy())
    with pytest.raises(ValueError, match=r"input \[batch, seq, 8\], got \[1, 5, 10\]"):
        pe(Tensor.zeros([1, 5, 10]))
    with pytest.raises(ValueError, match=r"\(6000\) is longer than max_sequence_size \(5000\)"):
        pe(Tensor.zeros([1, 6000, 8]))
    with pytest.raises(ValueError, match="d_model must be even"):
        nn.PositionalEncoding(7, device=Device.numpy())


def test_positional_encoding_gradient_passes_through():
    ad = Device.numpy().autodiff()
    pe = nn.PositionalEncoding(4, max_sequence_size=10, device=ad)
    x = Tensor.zeros([2, 3, 4], device=ad).require_grad()
    grads = (pe(x) * pe(x)).sum().backward()
    np.testing.assert_allclose(x.grad(grads).to_numpy(), 2 * pe(x).to_numpy(), rtol=1e-6)


# -- burn-nn's rope_encoding.rs tests ----------------------------------------------------------

ROPE_INPUT = [
    [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
    [[9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]],
]
ROPE_EXPECTED = [
    [[1.0000, 2.0000, 3.0000, 4.0000], [-2.3473, 7.4492, 6.9197, 8.0696]],
    [[9.0000, 10.0000, 11.0000, 12.0000], [-4.7567, 18.5034, 14.8393, 16.1492]],
]


@pytest.mark.parametrize("make", DEVICES)
def test_rotary_encoding_forward(make):
    device = make()
    rope = nn.RotaryEncoding(4, 10, device=device)
    output = rope(Tensor.from_data(np.array([ROPE_INPUT], dtype=np.float32), device=device))
    assert_approx_eq(output.reshape([2, 2, 4]), ROPE_EXPECTED, Tolerance.default())


@pytest.mark.parametrize("make", DEVICES)
def test_rotary_encoding_3d(make):
    device = make()
    rope = nn.RotaryEncoding(4, 10, device=device)
    output = rope(Tensor.from_data(np.array(ROPE_INPUT, dtype=np.float32), device=device))
    assert_approx_eq(output, ROPE_EXPECTED, Tolerance.default())


@pytest.mark.parametrize("make", DEVICES)
def test_zero_input_rotary_encoding_forward(make):
    device = make()
    output = nn.RotaryEncoding(4, 10, device=device)(Tensor.zeros([1, 2, 2, 4], device=device))
    assert_approx_eq(output.reshape([2, 2, 4]), np.zeros((2, 2, 4)), Tolerance.default())


def test_valid_input_hidden_dim():
    with pytest.raises(ValueError, match="must be even, got d_model=15"):
        nn.RotaryEncoding(15, 10, device=Device.numpy())


def expected_frequencies(rows):
    """burn's expected [2, 4, 2] (cos, sin) table, each frequency repeated for its pair."""
    return np.repeat(np.array(rows), 2, axis=1)


@pytest.mark.parametrize("make", DEVICES)
def test_rotary_encoding_frequencies(make):
    rope = nn.RotaryEncoding(8, 2, device=make())
    expected = expected_frequencies(
        [
            [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
            [[5.4030e-01, 8.4147e-01], [9.9500e-01, 9.9833e-02], [9.9995e-01, 9.9998e-03], [9.9999e-01, 9.9999e-04]],
        ]
    )  # fmt: skip
    assert_approx_eq(rope.freq_complex, expected, Tolerance.default())


def scaling_by_parts(freqs):
    """burn's test scaling (llama 3's by-parts frequency scaling), in tensor ops."""
    scale_factor, low_freq_factor, high_freq_factor, old_context_len = 8.0, 1.0, 4.0, 8192.0
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = (1.0 / freqs) * (2.0 * math.pi)
    cond = wavelen.greater_equal_elem(high_freq_wavelen)
    smooth = ((1.0 / wavelen) * old_context_len - low_freq_factor) / (
        high_freq_factor - low_freq_factor
    )
    new_freqs = (1.0 - smooth) * (freqs / scale_factor) + smooth * freqs
    new_freqs = freqs.mask_where(cond, new_freqs)
    new_freqs = new_freqs.mask_where(wavelen.greater_elem(low_freq_wavelen), freqs / scale_factor)
    return new_freqs.mask_where(wavelen.lower_elem(high_freq_wavelen), freqs)


@pytest.mark.parametrize("make", DEVICES)
def test_rotary_encoding_with_frequency_scaling(make):
    rope = nn.RotaryEncoding(8, 2, frequency_scaling=scaling_by_parts, device=make())
    expected = expected_frequencies(
        [
            [[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]],
            [[5.4030e-01, 8.4148e-01], [9.9500e-01, 9.9833e-02], [9.9995e-01, 9.9998e-03], [1.0, 2.1361e-04]],
        ]
    )  # fmt: skip
    assert_approx_eq(rope.freq_complex, expected, Tolerance.default())


def rope_input(device):
    return Tensor.from_data(np.array([ROPE_INPUT], dtype=np.float32), device=device)


@pytest.mark.parametrize("make", DEVICES)
@pytest.mark.parametrize("start", [6, 2], ids=["shift_full", "shift"])
def test_rotary_encoding_shift(make, start):
    device = make()
    expected = nn.RotaryEncoding(4, 10, device=device).apply(rope_input(device), start)
    rope = nn.RotaryEncoding(4, 4, device=device)
    rope.shift(start)  # start past the window recomputes it all; inside, keeps the overlap
    assert_approx_eq(rope.apply(rope_input(device), 0), expected.to_numpy(), Tolerance.default())


def test_rotary_encoding_shift_multiple_and_must_increase():
    rope = nn.RotaryEncoding(4, 4, device=Device.numpy())
    rope.shift(2)
    rope.shift(5)
    reference = nn.RotaryEncoding(4, 10, device=Device.numpy())
    np.testing.assert_allclose(
        rope.freq_complex.to_numpy(), reference.freq_complex.to_numpy()[5:9], rtol=1e-6
    )
    with pytest.raises(ValueError, match="Shift start position must be monotonically increasing"):
        rope.shift(4)


@pytest.mark.parametrize("make", DEVICES)
def test_rotary_encoding_reset_after_shift(make):
    device = make()
    reference = nn.RotaryEncoding(4, 10, device=device)
    expected = reference.apply(rope_input(device), 0).to_numpy()
    expected_shifted = reference.apply(rope_input(device), 2).to_numpy()
    rope = nn.RotaryEncoding(4, 4, device=device)
    rope.shift(2)
    rope.reset()
    assert rope.start_offset == 0
    assert_approx_eq(rope.apply(rope_input(device), 0), expected, Tolerance.default())
    rope.shift(2)
    assert_approx_eq(rope.apply(rope_input(device), 0), expected_shifted, Tolerance.default())


def test_rotary_encoding_is_the_complex_rotation_and_differentiates():
    """Each pair (x_2k, x_2k+1) as a complex number times exp(i·p·theta_k), theta_k =
    10000^(-2k/d); and the input's gradient against finite differences."""
    ad = Device.numpy().autodiff()
    rope = nn.RotaryEncoding(6, 8, device=ad)
    rope.to_device(Device.numpy())
    rope._map_tensors(lambda o, p, t: Tensor.from_data(t.to_numpy().astype(np.float64)))
    rope.to_device(ad)
    x = np.random.default_rng(8).normal(size=(2, 5, 6))
    theta = 10000.0 ** (-np.arange(0, 6, 2) / 6)
    rotation = np.exp(1j * np.arange(5)[:, None] * theta[None, :])
    pairs = (x[..., 0::2] + 1j * x[..., 1::2]) * rotation
    expected = np.stack([pairs.real, pairs.imag], axis=-1).reshape(x.shape)
    leaf = Tensor.from_data(x, device=ad).require_grad()
    out = rope(leaf)
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-6, atol=1e-7)
    weights = np.random.default_rng(9).normal(size=x.shape)
    grad = leaf.grad((out * Tensor.from_data(weights)).sum().backward()).to_numpy()
    # The rotation is orthogonal: the gradient is the weights rotated back.
    back = (weights[..., 0::2] + 1j * weights[..., 1::2]) * np.conj(rotation)
    np.testing.assert_allclose(grad, np.stack([back.real, back.imag], -1).reshape(x.shape), rtol=1e-6, atol=1e-7)  # fmt: skip
