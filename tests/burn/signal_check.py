"""Shared by the ports of burn's signal/module-op tests: devices, burn's Tolerance, and
central finite differences (float64) for the gradients burn's suite does not pin."""

import numpy as np

from burnpy.generated import Device

BACKENDS = ["numpy", "torch"]
STRATEGIES = ["autodiff", "balanced"]


def device(backend):
    return getattr(Device, backend)()


def autodiff_device(backend, strategy):
    d = device(backend).autodiff()
    return d.gradient_checkpointing() if strategy == "balanced" else d


def assert_approx_eq(actual, expected, relative, absolute):
    """burn's `TensorData::assert_approx_eq` with `Tolerance::rel_abs(relative, absolute)`:
    equal values pass (infinities too), else |x - y| < max(absolute, relative * max(|x|, |y|))."""
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    with np.errstate(invalid="ignore"):
        diff = np.abs(actual - expected)
        bound = np.maximum(absolute, relative * np.maximum(np.abs(actual), np.abs(expected)))
        ok = (actual == expected) | (diff < bound)
    assert ok.all(), f"mismatch at {np.argwhere(~ok)[:5].tolist()}:\n{actual}\nvs\n{expected}"


PERMISSIVE = dict(relative=0.01, absolute=0.01)  # burn's Tolerance::permissive()
BALANCED = dict(relative=0.005, absolute=1e-5)  # burn's Tolerance::default()


def finite_difference(f, x, eps=1e-6):
    """d f(x) / d x for a scalar f of a float64 array, by central differences."""
    x = np.array(x, dtype=np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        grad[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad
