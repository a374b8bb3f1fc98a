"""FFT rules: rfft (two float outputs, the real and imaginary parts: one gradient each, None
for an output nobody used), irfft (Joint: one backward kernel call) and fft.

fft is linear, y = A x with A = F (e^{-2 pi i jk/n}) or conj(F) / n (inverse); with the parts
as a trailing pair its real Jacobian is [[Re A, -Im A], [Im A, Re A]], whose transpose is the
real form of A^H. F is symmetric, so the VJP of fft is conj(F) g = n ifft(g), and of the
inverse F g / n = fft(g) / n."""

from burnpy.runtime.autodiff.rules.joint import Joint


def _rfft(B, g, signal_shape, dim, n):
    grad_re, grad_im = g
    # an output nobody used has no gradient: it contributes zero
    grad_re = grad_im * 0 if grad_re is None else grad_re
    grad_im = grad_re * 0 if grad_im is None else grad_im
    return B.rfft_backward(grad_re, grad_im, dim, n, signal_shape[dim])


def _fft(B, g, signal_shape, dim, inverse):
    n = max(signal_shape[dim], 1)  # an empty signal's gradient is empty
    return B.fft(g, dim, not inverse) * (1 / n if inverse else n)


class FftRules:
    """The FFTs' rules, one row per op (its name)."""

    rfft = (_rfft,)
    fft = (_fft,)
    irfft = Joint(
        lambda B, g, tracked, spectrum_re_shape, dim, n: B.irfft_backward(
            g, dim, n, spectrum_re_shape[dim]
        )
    )
