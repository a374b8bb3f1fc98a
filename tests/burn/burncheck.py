"""What the ports of burn's backend tests share: the devices they run on, burn's float
tolerances and its approximate comparison, and burn's arange inputs."""

import math

import numpy as np
import pytest

from burnpy.generated import Device, Tensor

# Every forward test runs on both backends; every autodiff test on both backends under both
# checkpointing strategies (burn runs its autodiff suite under each).
DEVICES = [
    pytest.param(Device.numpy, id="numpy"),
    pytest.param(Device.torch, id="torch"),
]
AUTODIFF_DEVICES = [
    pytest.param(lambda: Device.numpy().autodiff(), id="numpy-autodiff"),
    pytest.param(lambda: Device.numpy().autodiff().gradient_checkpointing(), id="numpy-balanced"),
    pytest.param(lambda: Device.torch().autodiff(), id="torch-autodiff"),
    pytest.param(lambda: Device.torch().autodiff().gradient_checkpointing(), id="torch-balanced"),
]


class Tolerance:
    """burn's `Tolerance<f32>`: x and y agree when |x - y| < max(A, R * max(|x|, |y|))."""

    def __init__(self, relative, absolute):
        self.relative, self.absolute = relative, absolute

    @classmethod
    def default(cls):  # burn's `balanced()`
        return cls(0.005, 1e-5)

    @classmethod
    def permissive(cls):
        return cls(0.01, 0.01)

    @classmethod
    def rel_abs(cls, relative, absolute):
        return cls(relative, absolute)

    @classmethod
    def relative_only(cls, relative):  # burn's `Tolerance::relative`
        return cls(relative, 0.0)


def assert_approx_eq(actual, expected, tolerance):
    """burn's `TensorData::assert_approx_eq`: same shape, every element within tolerance."""
    actual = actual.to_numpy() if isinstance(actual, Tensor) else np.asarray(actual)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, f"shape {actual.shape} != expected {expected.shape}"
    actual = actual.astype(np.float64)
    diff = np.abs(actual - expected)
    bound = np.maximum(
        tolerance.absolute, tolerance.relative * np.maximum(abs(actual), abs(expected))
    )
    bad = ~((actual == expected) | (diff < bound))
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        raise AssertionError(
            f"{int(bad.sum())} of {bad.size} elements differ; first at {at}: "
            f"got {actual[at]}, expected {expected[at]}"
        )


def assert_eq(actual, expected):
    """burn's `TensorData::assert_eq(.., false)`: same shape and values."""
    actual = actual.to_numpy() if isinstance(actual, Tensor) else np.asarray(actual)
    np.testing.assert_array_equal(actual, np.asarray(expected, dtype=actual.dtype), strict=False)
    assert actual.shape == np.shape(expected)


def arange(shape, device, *, grad=False, scaled=False):
    """burn's `TestTensorInt::arange(0..n).reshape(shape)` read as a float32 tensor, with
    `scaled` then `.div_scalar(n)`."""
    count = math.prod(shape)
    data = np.arange(count, dtype=np.float32).reshape(shape)
    if scaled:
        data = data / np.float32(count)
    return tensor(data, device, grad=grad)


def tensor(data, device, *, grad=False):
    """burn's `TestTensor::from_data(data, &device)` (float32, burn's `FloatElem`)."""
    t = Tensor.from_data(np.asarray(data, dtype=np.float32), device=device)
    return t.require_grad() if grad else t
