"""What the ported burn quantization tests share: burn's `QTensor` helpers (tensors quantized
with Q8S per tensor, or per block of 16), its `Tolerance` and its two assertions."""

from dataclasses import dataclass

import numpy as np

from burnpy.generated import QuantLevel, QuantScheme, QuantValue, Tensor

Q8S = QuantScheme().with_value(QuantValue.Q8S)


def q8(device, values) -> Tensor:
    """burn's `QTensor::int8`: per-tensor symmetric Q8S."""
    return Tensor.from_data(values, device=device).quantize_dynamic(Q8S)


def q8b(device, values) -> Tensor:
    """burn's `QTensor::int8_block`: Q8S in blocks of 16."""
    return Tensor.from_data(values, device=device).quantize_dynamic(
        Q8S.with_level(QuantLevel.block([16]))
    )


def floats(device, values) -> Tensor:
    return Tensor.from_data(values, device=device, dtype="float32")


def ints(device, values) -> Tensor:
    return Tensor.from_data(values, device=device, dtype="int64")


def bools(device, values) -> Tensor:
    return Tensor.from_data(values, device=device, dtype="bool")


def td(values):
    return values


@dataclass(frozen=True)
class tol:
    """burn's `Tolerance`: x and y agree when |x - y| < max(absolute, relative * max(|x|, |y|))."""

    relative: float
    absolute: float


tol.DEFAULT = tol(0.005, 1e-5)  # burn's `Tolerance::default()` (balanced)
tol.PERMISSIVE = tol(0.01, 0.01)


def _values(x) -> np.ndarray:
    return x.to_numpy() if isinstance(x, Tensor) else np.asarray(x)


def approx(actual, expected, tolerance: tol) -> None:
    """burn's `assert_approx_eq` on the (dequantized) values."""
    x = _values(actual).astype(np.float64)
    y = _values(expected).astype(np.float64)
    assert x.shape == y.shape, f"shape {x.shape} != expected {y.shape}"
    bound = np.maximum(tolerance.absolute, tolerance.relative * np.maximum(abs(x), abs(y)))
    ok = (x == y) | (abs(x - y) < bound)
    assert ok.all(), f"{x} != {y} (within {tolerance})"


def exact(actual, expected) -> None:
    """burn's `assert_eq` on the data."""
    x, y = _values(actual), _values(expected)
    assert x.shape == y.shape and (x == y).all(), f"{x} != {y}"
