"""burn's `Initializer`s, for a layer's `initializer=`.

Each function returns an `Initializer`; `init(shape, device, fan_in=None, fan_out=None)` draws a
tensor from the device's random generator (so `device.seed(n)` makes it reproducible). Kaiming
and Xavier need the fans, which the layers pass as burn's layers do.
"""

import math
from dataclasses import dataclass

import numpy as np

from burnpy.generated import Distribution, Tensor


@dataclass(frozen=True)
class Initializer:
    """One of burn's initializers: `kind` and its arguments."""

    kind: str
    args: tuple = ()

    def init(self, shape, device, fan_in=None, fan_out=None, dtype=None):
        shape = list(shape)
        kind, args = self.kind, self.args
        if kind == "constant":
            return Tensor.full(shape, args[0], device=device, dtype=dtype)
        if kind == "ones":
            return Tensor.ones(shape, device=device, dtype=dtype)
        if kind == "zeros":
            return Tensor.zeros(shape, device=device, dtype=dtype)
        if kind == "uniform":
            return _uniform(shape, args[0], args[1], device, dtype)
        if kind == "normal":
            return _normal(shape, args[0], args[1], device, dtype)
        if kind in ("kaiming_uniform", "kaiming_normal"):
            gain, fan_out_only = args
            fan = fan_out if fan_out_only else fan_in
            if fan is None:
                which = "fan_out" if fan_out_only else "fan_in"
                raise ValueError(f"{kind} needs {which}: pass it to init()")
            std = gain / math.sqrt(fan)
            if kind == "kaiming_normal":
                return _normal(shape, 0.0, std, device, dtype)
            return _uniform(shape, -math.sqrt(3.0) * std, math.sqrt(3.0) * std, device, dtype)
        if kind in ("xavier_uniform", "xavier_normal"):
            if fan_in is None or fan_out is None:
                raise ValueError(f"{kind} needs fan_in and fan_out: pass them to init()")
            std = args[0] * math.sqrt(2.0 / (fan_in + fan_out))
            if kind == "xavier_normal":
                return _normal(shape, 0.0, std, device, dtype)
            return _uniform(shape, -math.sqrt(3.0) * std, math.sqrt(3.0) * std, device, dtype)
        return _orthogonal(shape, args[0], device, dtype)

    def __repr__(self):
        return f"{self.kind}({', '.join(map(repr, self.args))})"


def constant(value: float) -> Initializer:
    return Initializer("constant", (float(value),))


def ones() -> Initializer:
    return Initializer("ones")


def zeros() -> Initializer:
    return Initializer("zeros")


def uniform(min: float, max: float) -> Initializer:
    return Initializer("uniform", (float(min), float(max)))


def normal(mean: float, std: float) -> Initializer:
    return Initializer("normal", (float(mean), float(std)))


def kaiming_uniform(gain: float, fan_out_only: bool = False) -> Initializer:
    """Uniform on ±sqrt(3)·gain/sqrt(fan)."""
    return Initializer("kaiming_uniform", (float(gain), bool(fan_out_only)))


def kaiming_normal(gain: float, fan_out_only: bool = False) -> Initializer:
    """Normal(0, gain/sqrt(fan))."""
    return Initializer("kaiming_normal", (float(gain), bool(fan_out_only)))


def xavier_uniform(gain: float) -> Initializer:
    """Uniform on ±sqrt(3)·gain·sqrt(2/(fan_in+fan_out))."""
    return Initializer("xavier_uniform", (float(gain),))


def xavier_normal(gain: float) -> Initializer:
    return Initializer("xavier_normal", (float(gain),))


def orthogonal(gain: float) -> Initializer:
    """A (semi-)orthogonal matrix over [shape[0], prod(shape[1:])], times `gain` (burn follows
    PyTorch's construction: QR of a normal draw, signs fixed by R's diagonal)."""
    return Initializer("orthogonal", (float(gain),))


# burn-nn's default for Linear and the convolutions.
KAIMING_DEFAULT = kaiming_uniform(1.0 / math.sqrt(3.0))


def _uniform(shape, low, high, device, dtype):
    return Tensor.random(shape, Distribution.uniform(low, high), device=device, dtype=dtype)


def _normal(shape, mean, std, device, dtype):
    return Tensor.random(shape, Distribution.normal(mean, std), device=device, dtype=dtype)


def _orthogonal(shape, gain, device, dtype):
    if len(shape) < 2:
        raise ValueError(f"orthogonal needs a shape of rank >= 2, got {shape}")
    rows = shape[0]
    cols = math.prod(shape) // rows
    draw = _normal([rows, cols], 0.0, 1.0, device, dtype).to_numpy().astype(np.float64)
    if rows < cols:
        draw = draw.T
    q, r = np.linalg.qr(draw)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    data = (q.reshape(shape) * gain).astype(dtype or np.float32)
    return Tensor.from_data(data, device=device)
