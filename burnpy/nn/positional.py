"""Positional encodings: burn-nn's sinusoidal `PositionalEncoding` and `RotaryEncoding`
(RoPE)."""

import numpy as np

from burnpy.generated import Tensor
from burnpy.nn.module import Module


def generate_sinusoids(length: int, d_model: int, max_timescale: int, device, dtype=np.float32):
    """The sinusoids [length, d_model] of "Attention is all you need", interleaved as burn lays
    them out: column 2k is sin(i·f_k), column 2k+1 cos(i·f_k), with f_k = max_timescale^(-2k /
    d_model)."""
    if d_model % 2:
        raise ValueError(f"d_model must be even for sinusoids in sin/cos pairs, got {d_model}")
    if max_timescale < length:
        raise ValueError(f"max_timescale ({max_timescale}) must be at least the length ({length})")
    frequencies = np.exp(np.arange(0, d_model, 2) * (-np.log(max_timescale) / d_model))
    angles = np.arange(length)[:, None] * frequencies[None, :]
    sinusoids = np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(length, d_model)
    return Tensor.from_data(sinusoids.astype(dtype), device=device)


class PositionalEncoding(Module):
    """Adds fixed sinusoids to an input [batch, seq, d_model] (seq up to
    `max_sequence_size`); the sinusoids [1, max_sequence_size, d_model] are a buffer."""

    def __init__(
        self, d_model: int, *, max_sequence_size: int = 5000, max_timescale: int = 10000, device
    ):
        super().__init__()
        sinusoids = generate_sinusoids(max_sequence_size, d_model, max_timescale, device)
        self.register_buffer("sinusoids", sinusoids.reshape([1, max_sequence_size, d_model]))
        self.max_sequence_size = max_sequence_size
        self.max_timescale = max_timescale

    def forward(self, x):
        _, max_sequence_size, d_model = self.sinusoids.shape
        if x.ndim != 3 or x.shape[2] != d_model:
            raise ValueError(
                f"PositionalEncoding needs an input [batch, seq, {d_model}], got {list(x.shape)}"
            )
        if x.shape[1] > max_sequence_size:
            raise ValueError(
                f"the sequence ({x.shape[1]}) is longer than max_sequence_size "
                f"({max_sequence_size}); build the encoding with a larger one"
            )
        return x + self.sinusoids.slice([slice(None), slice(0, x.shape[1])])

    def extra_repr(self):
        return (
            f"d_model={self.sinusoids.shape[2]}, max_sequence_size={self.max_sequence_size}, "
            f"max_timescale={self.max_timescale}"
        )


class RotaryEncoding(Module):
    """Rotary positional encoding: each pair of features (2k, 2k+1) at position p is rotated by
    the angle p·theta_k, theta_k = theta^(-2k / d_model), for inputs [..., seq, d_model] (such
    as [batch, heads, seq, d_head]). `freq_complex` [max_sequence_length, d_model, 2] holds the
    (cos, sin) of each position and feature, `theta` [d_model / 2] the frequencies; both are
    buffers. `frequency_scaling`, a function of the frequencies tensor, rescales them once
    (burn's `init_with_frequency_scaling`, for RoPE extensions).

    The required arguments are `d_model`, then `max_sequence_length`, as PositionalEncoding
    takes its model size first (burn's config `new` takes them the other way round)."""

    def __init__(
        self,
        d_model: int,
        max_sequence_length: int,
        *,
        theta: float = 10000.0,
        frequency_scaling=None,
        device,
    ):
        super().__init__()
        if d_model % 2:
            raise ValueError(f"The input embedding dimension must be even, got d_model={d_model}")
        if not theta > 0.0:
            raise ValueError(f"theta must be positive (default 10000), got {theta}")
        exponent = np.arange(0, d_model, 2, dtype=np.float32) / np.float32(d_model)
        frequencies = Tensor.from_data(
            1.0 / np.exp(exponent * np.log(np.float32(theta))), device=device
        )
        if frequency_scaling is not None:
            frequencies = frequency_scaling(frequencies)
        self.register_buffer("theta", frequencies)
        self.register_buffer("freq_complex", self._frequencies(0, max_sequence_length))
        self.start_offset = 0

    def _frequencies(self, start: int, end: int):
        """(cos, sin) of position·theta for the positions start..end-1: [end - start, d_model,
        2], each frequency repeated for both features of its pair."""
        theta = self.theta.to_numpy().astype(np.float64)
        angles = np.arange(start, end, dtype=np.float64)[:, None] * theta[None, :]
        pairs = np.stack([np.cos(angles), np.sin(angles)], axis=-1)
        pairs = np.repeat(pairs, 2, axis=1).astype(self.theta.dtype)
        return Tensor.from_data(pairs, device=self.theta.device())

    def forward(self, x):
        return self.apply(x, 0)

    def apply(self, x, start: int):
        """The encoding of `x` [..., seq, d_model] for the positions start..start+seq-1 of the
        current window (see `shift`)."""
        max_sequence_length, d_model, _ = self.freq_complex.shape
        if x.ndim < 2 or x.shape[-1] != d_model:
            raise ValueError(
                f"RotaryEncoding needs an input [..., seq, {d_model}], got {list(x.shape)}"
            )
        shape = list(x.shape)
        seq = shape[-2]
        if start + seq > max_sequence_length:
            raise ValueError(
                f"positions {start}..{start + seq - 1} are beyond the {max_sequence_length} "
                "precomputed ones; shift() the window or build the encoding larger"
            )
        rows = int(np.prod(shape[:-2], dtype=np.int64))
        # [a, b] @ [[1, 0, 0, 1], [0, -1, 1, 0]] = [a, -b, b, a]: with (cos, sin) for both
        # features, the sums are a·cos - b·sin and b·cos + a·sin, the pair rotated.
        sign = Tensor.from_data(
            np.array([[1, 0, 0, 1], [0, -1, 1, 0]], dtype=x.dtype), device=x.device().inner()
        )
        rotated = x.reshape([rows, seq, d_model // 2, 2]).matmul(sign.reshape([1, 1, 2, 4]))
        freqs = self.freq_complex.slice([slice(start, start + seq)]).reshape([1, seq, d_model, 2])
        return (rotated.reshape([rows, seq, d_model, 2]) * freqs).sum_dim(3).reshape(shape)

    def shift(self, start: int) -> None:
        """Move the window of precomputed positions to start..start+max_sequence_length-1
        (start must increase), keeping the overlap with the current window."""
        if start <= self.start_offset:
            raise ValueError(
                f"Shift start position must be monotonically increasing: {start} after "
                f"{self.start_offset}; reset() goes back to 0"
            )
        length = self.freq_complex.shape[0]
        end = self.start_offset + length
        if start >= end:
            self.freq_complex = self._frequencies(start, start + length)
        else:
            kept = self.freq_complex.slice([slice(start - self.start_offset, length)])
            fresh = self._frequencies(end, start + length)
            self.freq_complex = Tensor.cat([kept, fresh], 0)
        self.start_offset = start

    def reset(self) -> None:
        """Move the window back to the positions from 0."""
        if self.start_offset:
            self.freq_complex = self._frequencies(0, self.freq_complex.shape[0])
            self.start_offset = 0

    def extra_repr(self):
        max_sequence_length, d_model, _ = self.freq_complex.shape
        return f"d_model={d_model}, max_sequence_length={max_sequence_length}"
