"""The quantization API: schemes, quantize / dequantize, the quantized primitive through the
ordinary Tensor methods, on both backends and an autodiff device."""

import numpy as np
import pytest

from generated import (
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
    finally:
        device.quantization_propagation(QuantPropagation.INHIBIT)
