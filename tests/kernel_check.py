"""What the module-kernel tests share: both backends with numpy in and out, and a central
finite-difference vector-Jacobian product in float64."""

import numpy as np
import pytest
import torch

from burnpy.runtime.backends.numpy import BACKEND as NUMPY
from burnpy.runtime.backends.torch import BACKEND as TORCH


def _to_torch(value):
    return torch.from_numpy(np.array(value)) if isinstance(value, np.ndarray) else value


def _from_torch(value):
    if isinstance(value, torch.Tensor):
        return value.numpy()
    if isinstance(value, tuple):
        return tuple(_from_torch(v) for v in value)
    return value


class Runner:
    """Calls a backend's kernel with numpy arrays and gives numpy arrays back."""

    def __init__(self, backend):
        self.backend = backend

    def __call__(self, kernel, *args):
        if self.backend is NUMPY:
            return getattr(NUMPY, kernel)(*args)
        return _from_torch(getattr(TORCH, kernel)(*map(_to_torch, args)))

    def __repr__(self):
        return self.backend.name


BACKENDS = [pytest.param(Runner(NUMPY), id="numpy"), pytest.param(Runner(TORCH), id="torch")]


def numerical_vjp(function, inputs, position, grad, step=1e-6):
    """d/d inputs[position] of sum(function(*inputs) * grad), by central differences."""
    inputs = [np.array(v, dtype=np.float64) if isinstance(v, np.ndarray) else v for v in inputs]
    target = inputs[position]
    result = np.zeros_like(target)
    for index in np.ndindex(target.shape):
        original = target[index]
        target[index] = original + step
        above = np.sum(function(*inputs) * grad)
        target[index] = original - step
        below = np.sum(function(*inputs) * grad)
        target[index] = original
        result[index] = (above - below) / (2 * step)
    return result
