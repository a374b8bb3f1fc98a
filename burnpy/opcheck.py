"""The spec-driven checks of a package's own ops (docs/own-ops.md), run by the test module
`python -m codegen --package DIR` generates (`DIR/generated/test_<package>.py`) from each
entry's `test:`: pytest collects it, and `python -m codegen --package DIR test` runs it.

Each op is checked on every backend installed (numpy, and torch when it is):

- `forward`: its values against its `ref`, a numpy expression over its arguments, evaluated in
  float64 on the float32 inputs;
- `gradient`: each float input's gradient of sum(op(...) * cotangent), under both checkpointing
  strategies, against central finite differences of `ref` in float64 (under Balanced the
  inputs pass through `x * 1.0`, a memory-bound op, so the recomputation runs too);
- `capture`: a step calling the op and its backward, recorded by `capture` and replayed,
  plainly and compiled (`compile=True`), against the eager step.
"""

import importlib.util
from dataclasses import dataclass, field

import numpy as np

from burnpy.capture import capture
from burnpy.generated import Device, Tensor

try:
    from scipy import special
except ImportError:  # a `ref` that uses it says so when it runs
    special = None

TENSORS = ("float", "float?")


@dataclass(frozen=True)
class OpSpec:
    """An op as its generated test module describes it: its function, its arguments (name,
    type as ops.yaml spells it) and its entry's `test:`."""

    function: object
    name: str
    args: tuple[tuple[str, str], ...]
    ref: str
    shapes: tuple | None = None
    domain: tuple[float, float] | None = None
    arguments: dict = field(default_factory=dict)
    differentiable: bool = True

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Check:
    kind: str  # forward, gradient, capture
    backend: str  # numpy, torch
    option: str = ""  # the strategy (gradient), or whether the replay is compiled (capture)

    def __str__(self) -> str:
        return "-".join(p for p in (self.kind, self.backend, self.option) if p)

    def run(self, spec: OpSpec) -> None:
        if self.kind != "forward" and not spec.differentiable:
            return
        {"forward": forward, "gradient": gradient, "capture": captured}[self.kind](
            spec, self.backend, self.option
        )


BACKENDS = ("numpy",) + (("torch",) if importlib.util.find_spec("torch") else ())
CHECKS = tuple(
    check
    for backend in BACKENDS
    for check in (
        Check("forward", backend),
        Check("gradient", backend, "no_checkpointing"),
        Check("gradient", backend, "balanced"),
        Check("capture", backend, "replayed"),
        Check("capture", backend, "compiled"),
    )
)


def samples(spec: OpSpec, dtype, seed: int = 0) -> list[dict]:
    """The inputs of each sample by argument name: an array per tensor, a value per option."""
    rng = np.random.default_rng(seed)
    lo, hi = spec.domain or (-2.0, 2.0)
    tensors = [name for name, kind in spec.args if kind in TENSORS]
    result = []
    for shapes in spec.shapes or ((),):
        values = dict(spec.arguments)
        for name, shape in zip(tensors, shapes):
            values[name] = None if shape is None else rng.uniform(lo, hi, shape).astype(dtype)
        result.append(values)
    return result


def reference(spec: OpSpec, values: dict) -> np.ndarray:
    env = {"np": np, "special": special}
    env |= {k: v.astype(np.float64) if isinstance(v, np.ndarray) else v for k, v in values.items()}
    return np.asarray(eval(spec.ref, env))  # noqa: S307 - the package's own test expression


def call(spec: OpSpec, values: dict, device, leaves=(), through=None) -> tuple:
    """The op on `device`; returns (result, the tensors of `leaves` made require_grad)."""
    args, made = [], {}
    for name, kind in spec.args:
        value = values.get(name)
        if kind in TENSORS and value is not None:
            value = Tensor.from_data(value, device=device, dtype=value.dtype)
            if name in leaves:
                value = made[name] = value.require_grad()
                value = through(value) if through else value
        args.append(value)
    return spec.function(*args), made


def float_inputs(spec: OpSpec, values: dict) -> list[str]:
    return [n for n, kind in spec.args if kind in TENSORS and values.get(n) is not None]


def devices(backend: str) -> dict:
    plain = getattr(Device, backend)()
    return {
        "plain": plain,
        "no_checkpointing": plain.autodiff(),
        "balanced": plain.autodiff().gradient_checkpointing(),
    }


def forward(spec: OpSpec, backend: str, _="") -> None:
    for values in samples(spec, np.float32):
        result, _ = call(spec, values, devices(backend)["plain"])
        np.testing.assert_allclose(
            result.to_numpy(), reference(spec, values), rtol=1e-4, atol=1e-5, err_msg=spec.name
        )


def finite_differences(spec: OpSpec, values: dict, name: str, cotangent, eps=1e-6):
    base = values[name]
    grad = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        sums = []
        for sign in (1, -1):
            perturbed = base.copy()
            perturbed[index] += sign * eps
            sums.append(np.sum(reference(spec, {**values, name: perturbed}) * cotangent))
        grad[index] = (sums[0] - sums[1]) / (2 * eps)
    return grad


def gradient(spec: OpSpec, backend: str, strategy: str) -> None:
    device = devices(backend)[strategy]
    through = (lambda t: t * 1.0) if strategy == "balanced" else None
    for i, values in enumerate(samples(spec, np.float64, seed=1)):
        names = float_inputs(spec, values)
        cotangent = np.random.default_rng(i).uniform(0.5, 1.5, reference(spec, values).shape)
        result, leaves = call(spec, values, device, names, through)
        grads = (result * Tensor.from_data(cotangent, device=device)).sum().backward()
        for name in names:
            expected = finite_differences(spec, values, name, cotangent)
            got = leaves[name].grad(grads)
            actual = np.zeros_like(expected) if got is None else got.to_numpy()
            np.testing.assert_allclose(
                actual, expected, rtol=1e-5, atol=1e-7, err_msg=f"{spec.name}: d/d{name}"
            )


def captured(spec: OpSpec, backend: str, option: str) -> None:
    device = devices(backend)["no_checkpointing"]
    compiled = option == "compiled"
    for i, values in enumerate(samples(spec, np.float32, seed=2)):
        names = float_inputs(spec, values)
        cotangent = np.random.default_rng(i).uniform(0.5, 1.5, reference(spec, values).shape)
        weights = Tensor.from_data(cotangent.astype(np.float32), device=device)

        def step(inputs, weights):
            result = spec.function(*[inputs.get(name, values.get(name)) for name, _ in spec.args])
            return result, (result * weights).sum().backward()

        def leaves():
            return {n: Tensor.from_data(values[n], device=device).require_grad() for n in names}

        eager_inputs = leaves()
        eager, eager_grads = step(eager_inputs, weights)
        replay = capture(step, compile=compiled)
        for _ in range(2):  # the first call records, the second replays
            inputs = leaves()
            result, grads = replay(inputs, weights)
        tolerance = {"rtol": 1e-5, "atol": 1e-6} if compiled else {"rtol": 0, "atol": 0}
        np.testing.assert_allclose(result.to_numpy(), eager.to_numpy(), **tolerance)
        for name in names:
            np.testing.assert_allclose(
                inputs[name].grad(grads).to_numpy(),
                eager_inputs[name].grad(eager_grads).to_numpy(),
                err_msg=f"{spec.name}: d/d{name}",
                **tolerance,
            )
