"""The quantization API: schemes, quantize / dequantize, the quantized primitive through the
ordinary Tensor methods, on both backends and an autodiff device."""

import numpy as np
import pytest

from burnpy.generated import (
    Device,
    QuantLevel,
    QuantMode,
    QuantParam,
    QuantPropagation,
    QuantScheme,
    QuantStore,
    QuantValue,
    Tensor,
)

DEVICES = [Device.numpy, Device.torch, lambda: Device.numpy().autodiff()]
Q8S = QuantScheme().with_value(QuantValue.Q8S)


@pytest.fixture(params=DEVICES, ids=["numpy", "torch", "autodiff"])
def device(request):
    return request.param()


def test_default_scheme_is_burns():
    s = QuantScheme()
    assert (s.value, s.level, s.mode, s.store, s.param) == (
        QuantValue.Q8F,
        QuantLevel.tensor(),
        QuantMode.SYMMETRIC,
        QuantStore.PACKED_U32,
        QuantParam.F32,
    )
    assert QuantScheme().with_value(QuantValue.Q8S) == Q8S
    assert QuantScheme.from_record(Q8S.to_record()) == Q8S


def test_quantize_dynamic_round_trip(device):
    # burn-ndarray's test_int8_symmetric_quantization: [-1.8, -1.0, 0.0, 0.5] -> [-127, -71, 0, 35]
    x = Tensor.from_data([-1.8, -1.0, 0.0, 0.5], device=device)
    q = x.quantize_dynamic(Q8S)
    assert q.is_quantized() and not x.is_quantized() and q.scheme() == Q8S
    np.testing.assert_array_equal(q.quantized_values(), [-127, -71, 0, 35])
    np.testing.assert_allclose(q.quantized_scales(), [np.float32(3.6) / np.float32(254)])
    np.testing.assert_array_equal(
        q.dequantize().to_numpy(), np.float32([-1.8, -1.0062993, 0.0, 0.496063])
    )
    assert x.dequantize() is x
    assert "scheme=QuantScheme(value=QuantValue.Q8S" in repr(q)


def test_routing_returns_what_burn_returns(device):
    x = Tensor.from_data([[-1.8, -1.0, 0.0, 0.5]], device=device)
    q = x.quantize_dynamic(Q8S)
    assert q.reshape([4]).is_quantized() and q.abs().is_quantized() and q.max().is_quantized()
    assert not (q + q).is_quantized() and not q.exp().is_quantized()
    assert q.argmax(1).tensor_kind().value == "Int"
    device.quantization_propagation(QuantPropagation.PROPAGATE)
    try:
        assert (q + q).is_quantized() and q.matmul(x.reshape([4, 1])).is_quantized()
        assert not (q + x).is_quantized()  # a quantized operand mixed with a float one: float
        assert not (x + q).is_quantized()  # in either order
        expected = x.to_numpy() + q.dequantize().to_numpy()
        np.testing.assert_allclose((x + q).to_numpy(), expected, rtol=1e-6)
        np.testing.assert_allclose((q + x).to_numpy(), expected, rtol=1e-6)
    finally:
        device.quantization_propagation(QuantPropagation.INHIBIT)


VALUES = [-3.0, -1.1, -0.2, 0.0, 0.26, 0.9, 2.0, 3.5]


@pytest.mark.parametrize("value", list(QuantValue), ids=lambda v: v.name)
@pytest.mark.parametrize("store", list(QuantStore), ids=lambda s: s.name)
def test_every_value_type_and_store_follows_burns_formula(value, store):
    """scale = 2 max(|min|, |max|) / (b - a); q = clamp(round half away from zero(x / scale),
    a, b); x = scale q: all in float32, against numpy written from the formula."""
    x = np.float32(VALUES)
    a, b = value.range
    assert (a, b) == {"Q8S": (-127, 127), "Q8F": (-128, 127), "Q4S": (-7, 7), "Q4F": (-8, 7),
                      "Q2S": (-1, 1), "Q2F": (-2, 1)}[value.name]  # fmt: skip
    scale = np.float32(2) * np.float32(3.5) / np.float32(b - a)
    ratio = x / scale
    expected = np.clip(np.sign(ratio) * np.floor(np.abs(ratio) + np.float32(0.5)), a, b)
    for device in (Device.numpy(), Device.torch()):
        scheme = QuantScheme().with_value(value).with_store(store)
        q = Tensor.from_data(x, device=device).quantize_dynamic(scheme)
        np.testing.assert_array_equal(q.quantized_values(), expected.astype(np.int8))
        np.testing.assert_array_equal(q.quantized_scales(), [scale])
        np.testing.assert_array_equal(q.dequantize().to_numpy(), expected * scale)
        same = Tensor.from_quantized(expected.astype(np.int8), [scale], scheme, device=device)
        np.testing.assert_array_equal(same.dequantize().to_numpy(), expected * scale)


def test_rounding_is_half_away_from_zero():
    # scale 1 (Q8S, max |x| 127): x / scale lands on the halves
    x = Tensor.from_data([-127.0, -2.5, -0.5, 0.5, 1.5, 2.5, 127.0])
    q = x.quantize_dynamic(Q8S)
    assert q.quantized_scales().tolist() == [1.0]
    assert q.quantized_values().tolist() == [-127, -3, -1, 1, 2, 3, 127]


def test_packed_u32_words_are_burns_layout():
    from burnpy.runtime.quantization.packing import pack_u32, unpack_u32

    # burn-std's tests: pack_i8s_to_u32s / unpack_q_to_i8s
    assert pack_u32(np, np.int8([-128, 2, -3, 127]), 8).tolist() == [2147287680]
    assert pack_u32(np, np.int8([-128, 2, -3, 127, 55]), 8).tolist() == [2147287680, 55]
    assert unpack_u32(np, np.uint32([2147287680]), 4, 8).tolist() == [-128, 2, -3, 127]
    words = [0, 286331136, 286331153, 572657937, 572662306, 857874978, 858993459, 858993459,
             1145324612, 1145324612, 1431655748, 1431655765, 1717982549, 1717986918, 2003199590,
             2004318071]  # fmt: skip
    counts = [10, 18, 18, 18, 18, 18, 18, 10]  # burn's expected: 0 ten times, 1..6, 7 ten times
    expected = [v for v, n in enumerate(counts) for _ in range(n)]
    assert unpack_u32(np, np.uint32(words), 128, 4).tolist() == expected


@pytest.mark.parametrize("param", [QuantParam.F16, QuantParam.BF16], ids=lambda p: p.name)
def test_scales_are_rounded_up_to_their_dtype(param):
    """burn quantizes against the scale it stores, rounded up to the scale dtype."""
    x = Tensor.from_data([0.1234567, -1.0, 0.3], device=Device.torch())
    q = x.quantize_dynamic(Q8S.with_param(param))
    exact = np.float32(2.0) / np.float32(254)
    stored = q.quantized_scales()[0]
    narrow = np.float16 if param is QuantParam.F16 else np.dtype("bfloat16")
    assert stored >= exact and np.float32(np.asarray(stored).astype(narrow)) == stored
    assert stored - exact < exact * (2**-10 if param is QuantParam.F16 else 2**-7)
    ratio = np.float32([0.1234567, -1.0, 0.3]) / stored
    expected = np.clip(np.sign(ratio) * np.floor(np.abs(ratio) + np.float32(0.5)), -127, 127)
    assert q.quantized_values().tolist() == expected.astype(int).tolist()


def test_per_block_scales_are_one_per_rectangle(device):
    x = Tensor.from_data(np.arange(32, dtype=np.float32).reshape(2, 16) - 8, device=device)
    q = x.quantize_dynamic(Q8S.with_level(QuantLevel.block([8])))
    assert q.quantized_scales().shape == (2, 2)
    expected = np.float32([[8, 7], [15, 23]]) * 2 / np.float32(254)
    np.testing.assert_array_equal(q.quantized_scales(), expected)
    scales = Tensor.from_data([[0.1], [0.2]], device=device)
    given = x.quantize(Q8S.with_level(QuantLevel.block([16])), scales)
    np.testing.assert_array_equal(given.quantized_scales(), np.float32([[0.1], [0.2]]))


def test_bad_input_is_refused_clearly():
    x = Tensor.from_data([[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError, match="expected a QuantScheme"):
        x.quantize_dynamic("q8s")
    with pytest.raises(ValueError, match="not divisible into blocks of \\[1, 2\\]"):
        x.quantize_dynamic(Q8S.with_level(QuantLevel.block([2])))
    with pytest.raises(ValueError, match="expected scales of shape \\[1\\]"):
        x.quantize(Q8S, Tensor.from_data([0.1, 0.2]))
    with pytest.raises(ValueError, match="outside Q4S's range \\[-7, 7\\]"):
        Tensor.from_quantized(np.int8([8]), [0.1], QuantScheme().with_value(QuantValue.Q4S))
    with pytest.raises(ValueError, match="expected 1 scales"):
        Tensor.from_quantized(np.int8([1, 2]), [0.1, 0.2], Q8S)
    with pytest.raises(TypeError, match="expected a quantized tensor"):
        x.quantized_values()
    with pytest.raises(TypeError, match="dequantize: dtype int32 is not a float dtype"):
        x.quantize_dynamic(Q8S).dequantize(dtype="int32")
    assert x.quantize_dynamic(Q8S).dequantize(dtype="float64").dtype == np.float64
    with pytest.raises(TypeError, match="expected a QuantPropagation"):
        Device.numpy().quantization_propagation("propagate")
    with pytest.raises(TypeError, match="expected a list of ints"):
        QuantLevel.block("32")


def test_on_an_autodiff_device_a_quantized_tensor_passes_through():
    device = Device.numpy().autodiff()
    x = Tensor.from_data([[1.0, -2.0], [0.5, 4.0]], device=device).require_grad()
    q = (x * 2.0).quantize_dynamic(Q8S)  # drops the history
    assert q.is_quantized() and q.is_autodiff() and q.device() == device
    assert not q.is_require_grad() and q.require_grad() is q and q.node_id() is None
    d = q.dequantize()
    assert d.is_autodiff() and not d.is_tracked()
    assert not q.inner().is_autodiff() and q.inner().is_quantized()
    assert (
        q.to_device(Device.torch()).is_quantized() and not q.to_device(Device.torch()).is_autodiff()
    )
    assert Device.torch().autodiff() == q.to_device(Device.torch().autodiff()).device()
    device.quantization_propagation(QuantPropagation.PROPAGATE)
    try:  # the device and its autodiff form are one device: the setting is shared
        assert Device.numpy().quantization_propagation_setting() is QuantPropagation.PROPAGATE
        assert (q * 2.0).is_quantized()
    finally:
        device.quantization_propagation(QuantPropagation.INHIBIT)
    assert not (q * 2.0).is_quantized() and (q * 2.0).is_autodiff()
