"""FFTs along one dim: the real ones (burn's `rfft` and `irfft`) and their backward kernels, and
the complex `fft` of a signal [..., 2] (real and imaginary parts), through the array API's `fft`
extension (numpy.fft, torch.fft), which computes float32 in single precision.

burn's conventions: `rfft(signal, dim, n)` truncates or zero-pads the signal to n samples and
returns the n // 2 + 1 bins as (re, im); `irfft(re, im, dim, n)` returns n samples (default
2 (bins - 1)) from the first n // 2 + 1 bins (zero-padded), ignoring the imaginary parts of the
DC and Nyquist bins. Every length is a power of two (burn has no Bluestein DFT).
"""

from burnpy.runtime.errors import user_call


def _check_power_of_two(op, what, length):
    if length < 1 or length & (length - 1):
        raise ValueError(f"{user_call(op)}: {what} must be a power of two, got {length}")


class FftKernels:
    def rfft(self, signal, dim, n):
        fft = self.xp.fft
        dim = dim % signal.ndim
        if n is None:
            _check_power_of_two("rfft", f"the signal length along dim {dim}", signal.shape[dim])
        else:
            _check_power_of_two("rfft", "n", n)
        spectrum = fft.rfft(signal, n=n, axis=dim)
        return self._real_part(spectrum, signal), self._imag_part(spectrum, signal)

    def irfft(self, spectrum_re, spectrum_im, dim, n):
        xp = self.xp
        dim = dim % spectrum_re.ndim
        if n is None:
            n = 2 * (spectrum_re.shape[dim] - 1)
            _check_power_of_two("irfft", "the signal length 2 * (bins - 1)", n)
        else:
            _check_power_of_two("irfft", "n", n)
        spectrum = spectrum_re + 1j * spectrum_im
        return xp.astype(xp.fft.irfft(spectrum, n=n, axis=dim), spectrum_re.dtype)

    def fft(self, signal, dim, inverse):
        xp = self.xp
        rank = signal.ndim
        if rank < 2 or signal.shape[-1] != 2 or not -rank <= dim < rank or dim % rank == rank - 1:
            raise ValueError(
                f"{user_call('fft')}: the signal must be [..., 2] (real and imaginary parts) and "
                f"dim one of its other dims; got shape {list(signal.shape)} and dim {dim}"
            )
        if 0 in signal.shape:
            return xp.asarray(signal, copy=True)
        values = signal[..., 0] + 1j * signal[..., 1]
        spectrum = (xp.fft.ifft if inverse else xp.fft.fft)(values, axis=dim % rank)
        parts = (self._real_part(spectrum, signal), self._imag_part(spectrum, signal))
        return xp.stack(parts, axis=-1)

    def rfft_backward(self, grad_re, grad_im, dim, n, signal_length):
        """The signal's gradient from its spectrum's: x̄[t] = Σ_k re̅_k cos(2πkt/N) - im̅_k
        sin(2πkt/N), which is N · irfft of the gradient with its interior bins halved (irfft
        counts each of those twice, for its mirrored bin); then cropped or zero-padded back."""
        dim = dim % grad_re.ndim
        n_fft = signal_length if n is None else n
        grad_re = self._scale_interior(grad_re, dim, 0.5)
        grad_im = self._scale_interior(grad_im, dim, 0.5)
        signal = self.irfft(grad_re, grad_im, dim, n_fft) * n_fft
        return self._fit_length(signal, dim, signal_length)

    def irfft_backward(self, grad, dim, n, spectrum_length):
        """(grad re, grad im) of irfft: rfft(grad) / N with the interior bins doubled, cropped
        or zero-padded back to the spectrum's length (bins past n // 2 were never read). The
        DC and Nyquist bins' imaginary parts were never read either: their gradient is 0."""
        xp = self.xp
        dim = dim % grad.ndim
        n_fft = grad.shape[dim]
        spectrum = xp.fft.rfft(grad, axis=dim) / n_fft
        grads = []
        for part in (self._real_part(spectrum, grad), self._imag_part(spectrum, grad)):
            part = self._scale_interior(part, dim, 2.0)
            grads.append(self._fit_length(part, dim, spectrum_length))
        return tuple(grads)

    def _real_part(self, spectrum, like):
        return self.xp.astype(self.xp.real(spectrum), like.dtype)

    def _imag_part(self, spectrum, like):
        return self.xp.astype(self.xp.imag(spectrum), like.dtype)

    def _scale_interior(self, bins, dim, factor):
        """Multiply every bin but DC and Nyquist (the last, for an even length) by factor."""
        xp = self.xp
        count = bins.shape[dim]
        shape = [1] * bins.ndim
        shape[dim] = count
        scale = [1.0] + [factor] * (count - 2) + [1.0] if count > 1 else [1.0]
        return bins * xp.reshape(xp.asarray(scale, dtype=bins.dtype, device=bins.device), shape)

    def _fit_length(self, tensor, dim, length):
        """Crop or zero-pad `tensor` along dim to `length`."""
        xp = self.xp
        current = tensor.shape[dim]
        if current >= length:
            index = (slice(None),) * dim + (slice(0, length),)
            return tensor[index]
        shape = list(tensor.shape)
        shape[dim] = length - current
        padding = xp.zeros(shape, dtype=tensor.dtype, device=tensor.device)
        return xp.concat((tensor, padding), axis=dim)
