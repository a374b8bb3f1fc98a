"""rfft / irfft kernels and their backward kernels, on both backends."""

import cmath

import numpy as np
import pytest

from kernel_check import BACKENDS, numerical_vjp

rng = np.random.default_rng(5)


def fit(signal, n):
    """burn's n: truncate or zero-pad the last dim."""
    out = np.zeros(signal.shape[:-1] + (n,))
    m = min(n, signal.shape[-1])
    out[..., :m] = signal[..., :m]
    return out


def dft_loops(signal, n):
    """rfft along the last dim by the DFT's definition."""
    signal = fit(signal, n)
    bins = n // 2 + 1
    out = np.zeros(signal.shape[:-1] + (bins,), dtype=complex)
    for lead in np.ndindex(signal.shape[:-1]):
        for k in range(bins):
            out[lead + (k,)] = sum(
                signal[lead + (t,)] * cmath.exp(-2j * cmath.pi * k * t / n) for t in range(n)
            )
    return out


def inverse_loops(re, im, n):
    """irfft along the last dim: the Hermitian spectrum of n // 2 + 1 bins (zero-padded),
    imaginary parts of DC and Nyquist ignored."""
    bins = n // 2 + 1
    spectrum = np.zeros(re.shape[:-1] + (bins,), dtype=complex)
    m = min(bins, re.shape[-1])
    spectrum[..., :m] = re[..., :m] + 1j * im[..., :m]
    out = np.zeros(re.shape[:-1] + (n,))
    for lead in np.ndindex(re.shape[:-1]):
        for t in range(n):
            total = 0.0
            for k in range(n):
                value = spectrum[lead + (k,)] if k < bins else spectrum[lead + (n - k,)].conjugate()
                if k == 0 or 2 * k == n:
                    value = value.real
                total += (value * cmath.exp(2j * cmath.pi * k * t / n)).real
            out[lead + (t,)] = total / n
    return out


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("length, n", [(8, None), (8, 4), (4, 8), (1, None), (6, 2)])
def test_rfft_forward(run, length, n):
    signal = rng.standard_normal((2, length, 3))
    re, im = run("rfft", signal, 1, n)
    expected = np.moveaxis(dft_loops(np.moveaxis(signal, 1, -1), n or length), -1, 1)
    np.testing.assert_allclose(re, expected.real, atol=1e-12)
    np.testing.assert_allclose(im, expected.imag, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("bins, n", [(5, None), (5, 4), (3, 8), (2, None), (3, 1)])
def test_irfft_forward(run, bins, n):
    re, im = rng.standard_normal((2, 3, bins))
    out = run("irfft", re, im, -1, n)
    np.testing.assert_allclose(out, inverse_loops(re, im, n or 2 * (bins - 1)), atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
def test_float32_keeps_dtype(run):
    signal = rng.standard_normal((3, 8)).astype(np.float32)
    re, im = run("rfft", signal, -1, None)
    assert re.dtype == im.dtype == np.float32
    np.testing.assert_allclose(run("irfft", re, im, -1, None), signal, atol=1e-5)


@pytest.mark.parametrize("run", BACKENDS)
def test_non_power_of_two_is_a_value_error(run):
    with pytest.raises(ValueError, match="power of two, got 6"):
        run("rfft", np.zeros((2, 6)), -1, None)
    with pytest.raises(ValueError, match="n must be a power of two, got 3"):
        run("rfft", np.zeros((2, 8)), 1, 3)
    with pytest.raises(ValueError, match="power of two, got 6"):
        run("irfft", np.zeros((4,)), np.zeros((4,)), 0, None)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("length, n", [(8, None), (8, 4), (4, 8), (1, None)])
@pytest.mark.parametrize("which", ["both", "re", "im"])
def test_rfft_backward(run, length, n, which):
    signal = rng.standard_normal((length, 2))
    bins = (n or length) // 2 + 1
    grad_re, grad_im = rng.standard_normal((2, bins, 2))
    grad_re = grad_re if which != "im" else np.zeros_like(grad_re)
    grad_im = grad_im if which != "re" else np.zeros_like(grad_im)
    computed = run("rfft_backward", grad_re, grad_im, 0, n, length)

    def forward(signal):
        spectrum = np.moveaxis(dft_loops(np.moveaxis(signal, 0, -1), n or length), -1, 0)
        return spectrum.real * grad_re + spectrum.imag * grad_im

    expected = numerical_vjp(forward, [signal], 0, 1.0)
    np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("bins, n", [(5, None), (5, 4), (3, 8), (2, 1)])
def test_irfft_backward(run, bins, n):
    re, im = rng.standard_normal((2, 2, bins))
    n_out = n or 2 * (bins - 1)
    grad = rng.standard_normal((2, n_out))
    grad_re, grad_im = run("irfft_backward", grad, 1, n, bins)
    for position, computed in enumerate((grad_re, grad_im)):
        expected = numerical_vjp(lambda a, b: inverse_loops(a, b, n_out), [re, im], position, grad)
        np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("missing", [0, 1])
def test_rfft_rule_treats_a_missing_gradient_as_zero(missing):
    from burnpy.runtime.autodiff.rules.fft import FftRules
    from burnpy.runtime.backends.numpy import BACKEND

    grads = list(rng.standard_normal((2, 5, 3)))
    given = list(grads)
    given[missing] = None
    grads[missing] = np.zeros_like(grads[missing])
    (vjp,) = FftRules.rfft
    expected = BACKEND.rfft_backward(*grads, 0, None, 8)
    np.testing.assert_array_equal(vjp(BACKEND, tuple(given), (8, 3), 0, None), expected)


def complex_dft_loops(signal, inverse):
    """The complex DFT of signal [n, 2] by its definition (inverse: e^{+i}, divided by n)."""
    values = signal[:, 0] + 1j * signal[:, 1]
    n = len(values)
    sign = 1 if inverse else -1
    out = [
        sum(values[t] * cmath.exp(sign * 2j * cmath.pi * k * t / n) for t in range(n))
        for k in range(n)
    ]
    out = np.array(out) / (n if inverse else 1)
    return np.stack([out.real, out.imag], axis=-1)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize("length", [1, 5, 8])
def test_fft_forward(run, inverse, length):
    signal = rng.standard_normal((3, length, 2))
    out = run("fft", signal, -2, inverse)
    expected = np.stack([complex_dft_loops(s, inverse) for s in signal])
    np.testing.assert_allclose(out, expected, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("inverse", [False, True])
def test_fft_float32_is_computed_in_float32(run, inverse):
    """As numpy 2's pocketfft: float32 stays float32 and rounds as single precision does."""
    signal = rng.standard_normal((6, 2)).astype(np.float32)
    out = run("fft", signal, 0, inverse)
    assert out.dtype == np.float32
    values = (signal[:, 0] + 1j * signal[:, 1]).astype(np.complex64)
    expected = (np.fft.ifft if inverse else np.fft.fft)(values)
    np.testing.assert_allclose(out[:, 0] + 1j * out[:, 1], expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("run", BACKENDS)
def test_fft_refuses_the_parts_axis(run):
    with pytest.raises(ValueError, match=r"\[\.\.\., 2\].*dim -1"):
        run("fft", np.zeros((4, 2)), -1, False)
    with pytest.raises(ValueError, match=r"shape \[4, 3\]"):
        run("fft", np.zeros((4, 3)), 0, False)


@pytest.mark.parametrize("inverse", [False, True])
def test_fft_rule_against_finite_differences(inverse):
    from burnpy.runtime.autodiff.rules.fft import FftRules
    from burnpy.runtime.backends.numpy import BACKEND

    signal = rng.standard_normal((5, 3, 2))
    grad = rng.standard_normal((5, 3, 2))
    (vjp,) = FftRules.fft
    computed = vjp(BACKEND, grad, signal.shape, 0, inverse)

    def forward(signal):
        return np.moveaxis(
            np.stack([complex_dft_loops(s, inverse) for s in np.moveaxis(signal, 0, 1)]), 0, 1
        )

    expected = numerical_vjp(forward, [signal], 0, grad)
    np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)
