"""FFT rules: rfft (two float outputs, the real and imaginary parts: one gradient each, None
for an output nobody used) and irfft (Joint: one backward kernel call)."""

from burnpy.runtime.autodiff.rules.joint import Joint


def _rfft(B, g, signal_shape, dim, n):
    grad_re, grad_im = g
    # an output nobody used has no gradient: it contributes zero
    grad_re = grad_im * 0 if grad_re is None else grad_re
    grad_im = grad_re * 0 if grad_im is None else grad_im
    return B.rfft_backward(grad_re, grad_im, dim, n, signal_shape[dim])


class FftRules:
    """The FFTs' rules, one row per op (its name)."""

    rfft = (_rfft,)
    irfft = Joint(
        lambda B, g, tracked, spectrum_re_shape, dim, n: B.irfft_backward(
            g, dim, n, spectrum_re_shape[dim]
        )
    )
