"""Helpers of the kernel tests: both backends, primitives in and out, and the check of a rules
table's VJPs against central finite differences of the forward kernel."""

import numpy as np
import pytest
import torch

from burnpy.generated import catalogue
from burnpy.runtime.autodiff.rules.joint import Joint
from burnpy.runtime.backends.numpy import BACKEND as NUMPY
from burnpy.runtime.backends.torch import BACKEND as TORCH

BACKENDS = {"numpy": NUMPY, "torch": TORCH}


def to_backend(B, value):
    if isinstance(value, np.ndarray) and B is TORCH:
        return torch.from_numpy(value)
    return value


def to_numpy(value):
    return value.numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


def run(B, op, *args):
    return to_numpy(getattr(B, op)(*[to_backend(B, a) for a in args]))


def check_vjps(B, op, names, args, rng, floats):
    """Each input's gradient from the rule of `op` (its VJPs, or its Joint function) against the
    directional derivative <g, (f(a + h v) - f(a - h v)) / 2h> along a random v, for every
    float input named in `floats`."""
    values = dict(zip(names, args))
    keeping = getattr(B, f"{op}_keeping", None)  # an op that keeps something for its backward
    kept = None
    if keeping is None:
        out = getattr(B, op)(*[to_backend(B, a) for a in args])
    else:
        out, kept = keeping(*[to_backend(B, a) for a in args])
    # no gradient through a -inf output (a max-pool window over padding only)
    g = np.where(np.isfinite(to_numpy(out)), rng.standard_normal(to_numpy(out).shape), 0)
    known = {**values, "B": B, "g": to_backend(B, g), "out": out}
    known[f"{names[0]}_shape"] = tuple(np.shape(values[names[0]]))
    known["tracked"] = tuple(values[name] is not None for name in floats)

    def call(fn):
        params = fn.__code__.co_varnames[: fn.__code__.co_argcount]
        # a name the op does not have is what its forward kept (ops.yaml's `keeps`)
        return fn(**{p: to_backend(B, known[p]) if p in known else kept for p in params})

    rule = getattr(catalogue, op.upper()).rule  # the row its description names
    if isinstance(rule, Joint):
        grads = call(rule.fn)
    else:
        grads = [None if values[name] is None else call(vjp) for name, vjp in zip(floats, rule)]
    for name, grad in zip(floats, grads):
        if values[name] is None:
            continue
        grad = to_numpy(grad)
        direction = rng.standard_normal(np.shape(values[name]))
        h = 1e-6
        ends = []
        for sign in (1, -1):
            moved = dict(values, **{name: values[name] + sign * h * direction})
            moved_out = run(B, op, *[moved[n] for n in names])
            ends.append(np.sum(np.multiply(g, moved_out, where=g != 0, out=np.zeros(g.shape))))
        numeric = (ends[0] - ends[1]) / (2 * h)
        assert grad.shape == np.shape(values[name]), name
        assert np.sum(grad * direction) == pytest.approx(numeric, rel=1e-6, abs=1e-7), name
