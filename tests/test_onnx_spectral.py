"""DFT, STFT and MelWeightMatrix imported: values against onnx's reference evaluator (numpy's
FFT) on both backends, in float64, at lengths that are not powers of two, cut and padded, with
axes and sizes given as inputs read when the model runs; gradients against finite
differences."""

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from onnx_node import (  # noqa: E402
    DEVICES,
    finite_difference,
    gradient,
    node_model,
    on_both_backends,
    reference,
)

RNG = np.random.default_rng(7)
SIGNAL = RNG.standard_normal((2, 6, 5, 1))
COMPLEX = RNG.standard_normal((2, 6, 5, 2))
HALF = RNG.standard_normal((2, 4, 5, 2))


def dft_case(x, opset, length=None, axis=None, **attributes):
    """A DFT node: dft_length and (from opset 20) axis as inputs of the graph."""
    inputs = {"x": x, "length": np.array(length, np.int64) if length is not None else None}
    if opset >= 20 and axis is not None:
        inputs["axis"] = np.array(axis, np.int64)
    elif axis is not None:
        attributes["axis"] = axis
    if length is None and "axis" not in inputs:
        del inputs["length"]
    return node_model("DFT", inputs, attributes, opset), inputs


DFT_CASES = {
    "forward, opset 17": dict(x=SIGNAL, opset=17, axis=1),
    "forward along another axis, opset 20": dict(x=SIGNAL, opset=20, axis=2),
    "forward, default axis, opset 20": dict(x=SIGNAL, opset=20),
    "a complex signal cut to 4": dict(x=COMPLEX, opset=20, length=4, axis=1),
    "a complex signal padded to 9": dict(x=COMPLEX, opset=20, length=9, axis=-3),
    "onesided, odd length": dict(x=SIGNAL, opset=20, length=7, axis=1, onesided=1),
    "inverse": dict(x=COMPLEX, opset=20, axis=1, inverse=1),
    "inverse, opset 17, padded": dict(x=COMPLEX, opset=17, length=8, axis=2, inverse=1),
    "inverse of a one-sided spectrum": dict(x=HALF, opset=20, axis=1, inverse=1, onesided=1),
    "to an odd length": dict(x=HALF, opset=20, length=7, axis=1, inverse=1, onesided=1),
    "from more bins than it reads": dict(x=HALF, opset=20, length=4, axis=1, inverse=1, onesided=1),
}


@pytest.mark.parametrize("case", DFT_CASES)
def test_dft_equals_the_reference_evaluator(case):
    model, inputs = dft_case(**DFT_CASES[case])
    expected = reference(model, inputs)
    for got in on_both_backends(model, inputs):
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "case", ["a complex signal padded to 9", "onesided, odd length", "to an odd length"]
)
def test_dft_gradients_match_finite_differences(case):
    model, inputs = dft_case(**DFT_CASES[case])
    weights = RNG.standard_normal(reference(model, inputs).shape)
    expected = finite_difference(model, inputs, "x", weights)
    for device in DEVICES.values():
        got = gradient(model, inputs, "x", weights, device().autodiff())
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


def stft_case(signal, step, window=None, length=None, **attributes):
    inputs = {"signal": signal, "step": np.array(step, np.int64)}
    inputs["window"] = window
    if length is not None:
        inputs["length"] = np.array(length, np.int64)
    elif window is None:
        del inputs["window"]
    return node_model("STFT", inputs, attributes, 17), inputs


STFT_CASES = {
    "a window": dict(signal=RNG.standard_normal((2, 30, 1)), step=4, window=np.hanning(10)),
    "a frame length, two-sided": dict(
        signal=RNG.standard_normal((1, 23, 1)), step=3, length=6, onesided=0
    ),
    "a complex signal": dict(
        signal=RNG.standard_normal((1, 20, 2)), step=5, window=np.hamming(7), onesided=0
    ),
}


@pytest.mark.parametrize("case", STFT_CASES)
def test_stft_equals_the_reference_evaluator(case):
    model, inputs = stft_case(**STFT_CASES[case])
    expected = reference(model, inputs)
    for got in on_both_backends(model, inputs):
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_stft_gradients_match_finite_differences():
    model, inputs = stft_case(**STFT_CASES["a window"])
    weights = RNG.standard_normal(reference(model, inputs).shape)
    for wrt in ("signal", "window"):
        got = gradient(model, inputs, wrt, weights, DEVICES["torch"]().autodiff())
        expected = finite_difference(model, inputs, wrt, weights)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(
    "numbers", [(8, 16, 8192, 0.0, 4096.0), (5, 64, 16000, 100.0, 7000.0), (10, 100, 800, 30, 390)]
)
def test_mel_weight_matrix_equals_the_reference_evaluator(numbers):
    bins, length, rate, low, high = numbers
    inputs = {
        "bins": np.array(bins, np.int32),
        "length": np.array(length, np.int32),
        "rate": np.array(rate, np.int32),
        "low": np.array(low, np.float32),
        "high": np.array(high, np.float32),
    }
    model = node_model("MelWeightMatrix", inputs, {"output_datatype": 11}, 17, np.float64)
    expected = reference(model, inputs)
    for got in on_both_backends(model, inputs):
        assert got.dtype == np.float64 and got.shape == expected.shape == (length // 2 + 1, bins)
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_a_float16_dft_is_computed_in_float32_and_rounded_once():
    model, inputs = dft_case(x=COMPLEX.astype(np.float16), opset=20, axis=1, inverse=1)
    signal = inputs["x"].astype(np.float64)
    exact = np.fft.ifft(signal[..., 0] + 1j * signal[..., 1], axis=1)
    expected = np.stack([exact.real, exact.imag], axis=-1).astype(np.float16)
    for got in on_both_backends(model, inputs):
        assert got.dtype == np.float16
        np.testing.assert_allclose(got.astype(np.float64), expected, rtol=0, atol=1e-3)
