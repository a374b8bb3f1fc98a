"""ONNX's spectral operators (DFT, STFT, MelWeightMatrix), composed of Tensor methods and the
catalogue's `fft` (numpy's FFT, in the signal's dtype, as onnx's reference computes it). The
inverse of a one-sided spectrum is a matrix product with the cosines and sines of its angles
(computed in float64, then cast to the signal's dtype). Imported model code calls them as
`ops.<name>`."""

from __future__ import annotations

import math

import numpy as np

from burnpy.generated import Tensor, module


def dft(x: Tensor, length=None, axis=1, inverse: bool = False, onesided: bool = False) -> Tensor:
    """ONNX DFT: x [..., n, ..., 1 or 2] (real, or real and imaginary parts) transformed along
    `axis` to `length` points (the input cut or zero-padded to it); `onesided` keeps the first
    length // 2 + 1 frequencies (inverse: takes them and gives the real signal, [..., 1])."""
    rank = x.ndim
    axis = int(axis)
    if not -rank <= axis < rank or axis % rank == rank - 1:
        raise ValueError(
            f"DFT: axis {axis} is not a signal axis of an input of rank {rank} (the last axis "
            "holds the real and imaginary parts)"
        )
    axis %= rank
    dtype = str(x.dtype)
    if dtype not in ("float32", "float64"):  # the FFTs have no 16-bit form: one rounding back
        return dft(x.cast("float32"), length, axis, inverse, onesided).cast(dtype)
    parts = x.shape[rank - 1]
    if parts not in (1, 2):
        raise ValueError(f"DFT: the last axis holds {parts} values; it must be 1 (real) or 2")
    bins = x.shape[axis]
    if length is None:
        length = 2 * (bins - 1) if inverse and onesided else bins
    length = int(length)
    if length < 1:
        raise ValueError(f"DFT: dft_length {length} must be positive")
    if inverse and onesided:
        return _inverse_half_spectrum(x, axis, length)
    signal = x if parts == 2 else x.pad([(0, 1)])  # a zero imaginary part
    if bins > length:
        signal = signal.narrow(axis, 0, length)
    elif bins < length:
        signal = signal.pad([(0, length - bins)] + [(0, 0)] * (rank - 1 - axis))
    out = module.fft(signal, axis, inverse)
    return out.narrow(axis, 0, length // 2 + 1) if onesided else out


def _inverse_half_spectrum(x: Tensor, axis: int, length: int) -> Tensor:
    """The real signal [..., length, ..., 1] of a one-sided spectrum along `axis`."""
    rank = x.ndim
    last = rank - 2  # the signal's last axis once the parts are split off
    real, imag = _parts(x)
    real = real.swap_dims(axis, last)
    imag = None if imag is None else imag.swap_dims(axis, last)
    taken = min(real.shape[-1], length // 2 + 1)
    cos, sin = _half_spectrum(taken, length, x.dtype, x.device())
    out = _signal(real, taken).matmul(cos)
    if imag is not None:
        out = out.sub(_signal(imag, taken).matmul(sin))
    return out.swap_dims(axis, last).unsqueeze_dim(rank - 1)


def _parts(x: Tensor) -> tuple:
    """The real part and the imaginary part (None for a real signal), the last axis dropped."""
    last = x.ndim - 1
    real = x.narrow(last, 0, 1).squeeze_dim(last)
    return real, (x.narrow(last, 1, 1).squeeze_dim(last) if x.shape[last] == 2 else None)


def _signal(x: Tensor, taken: int) -> Tensor:
    return x if x.shape[-1] == taken else x.narrow(x.ndim - 1, 0, taken)


def _half_spectrum(taken: int, length: int, dtype, device) -> tuple:
    """The inverse of a one-sided spectrum of `taken` bins, as numpy's irfft: each bin but the
    first (and the middle one of an even length) stands for its mirror too, and the imaginary
    parts of those two are ignored."""
    weight = np.full(taken, 2.0)
    weight[0] = 1.0
    if length % 2 == 0 and taken > length // 2:
        weight[length // 2] = 1.0
    angle = 2 * np.pi * (np.outer(np.arange(taken), np.arange(length)) % length / length)
    scale = weight[:, None] / length
    return _matrix(scale * np.cos(angle), dtype, device), _matrix(scale * np.sin(angle), dtype, device)  # fmt: skip


def _matrix(values: np.ndarray, dtype, device) -> Tensor:
    return Tensor.from_data(values.astype(str(dtype)), device=device, dtype=str(dtype))


def stft(signal: Tensor, step, window=None, length=None, onesided: bool = True) -> Tensor:
    """ONNX STFT: signal [batch, samples, 1 or 2] cut into frames of `length` samples every
    `step`, each weighted by `window` and transformed: [batch, frames, frequencies, 2]."""
    step = int(step)
    samples = signal.shape[1]
    if length is None:
        length = window.shape[0] if window is not None else samples
    length = int(length)
    if step < 1 or length < 1 or length > samples:
        raise ValueError(
            f"STFT: frame_step {step} and frame_length {length} must be positive, the frame "
            f"no longer than the signal's {samples} samples"
        )
    if window is not None and window.shape[0] != length:
        raise ValueError(f"STFT: the window has {window.shape[0]} values, the frame {length}")
    frames = 1 + (samples - length) // step
    starts = np.arange(frames)[:, None] * step + np.arange(length)[None, :]
    index = Tensor.from_data(starts.reshape(-1).astype(np.int64), device=signal.device().inner())
    batch, parts = signal.shape[0], signal.shape[2]
    framed = signal.select(1, index).reshape([batch, frames, length, parts])
    if window is not None:
        framed = framed.mul(window.cast(str(signal.dtype)).reshape([1, 1, length, 1]))
    return dft(framed, length, 2, onesided=onesided)


def mel_weight_matrix(bins, dft_length, sample_rate, lower, upper, dtype: str, device) -> Tensor:
    """ONNX MelWeightMatrix: [dft_length // 2 + 1, bins] triangular filters, evenly spaced on
    the mel scale from `lower` to `upper` hertz (as onnx's reference computes them)."""
    bins, dft_length, sample_rate = int(bins), int(dft_length), int(sample_rate)
    if bins < 1 or dft_length < 1 or sample_rate < 1:
        raise ValueError(
            f"MelWeightMatrix: num_mel_bins {bins}, dft_length {dft_length} and sample_rate "
            f"{sample_rate} must be positive"
        )
    lower_mel = 2595 * math.log10(1 + float(lower) / 700)
    upper_mel = 2595 * math.log10(1 + float(upper) / 700)
    step = (upper_mel - lower_mel) / (bins + 2)
    hertz = 700 * (10 ** ((np.arange(bins + 2) * step + lower_mel) / 2595) - 1)
    edges = (((dft_length + 1) * hertz) // sample_rate).astype(np.int64)
    spectrum = dft_length // 2 + 1
    if edges.min() < 0 or edges.max() >= spectrum:
        raise ValueError(
            f"MelWeightMatrix: the edges {float(lower)} to {float(upper)} hertz fall outside "
            f"the {spectrum} frequencies of a {dft_length}-point DFT at {sample_rate} hertz"
        )
    out = np.zeros((spectrum, bins))
    for i in range(bins):
        low, centre, high = edges[i : i + 3]
        if centre == low:
            out[centre, i] = 1.0
        else:
            out[low : centre + 1, i] = (np.arange(low, centre + 1) - low) / (centre - low)
        if high > centre:
            out[centre:high, i] = (high - np.arange(centre, high)) / (high - centre)
    return Tensor.from_data(out.astype(dtype), device=device, dtype=dtype)
