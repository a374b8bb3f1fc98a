"""The backend registry: each inner backend, found by its DispatchTensorKind variant (`"NumPy"`,
`"Torch"`).

The catalogue (ops.yaml) declares the backends; generated code registers each one's module,
device kinds and pip extra here. A backend is imported on first use, so an optional library
(torch) costs nothing until a tensor of its backend is made, and its absence is reported with
the extra that installs it.
"""

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Registration:
    name: str  # as in `dispatch<numpy>`, and as `Device.of` takes it
    module: str
    devices: tuple[str, ...]  # device kinds, as ops.yaml spells them: cpu, cuda
    extra: str | None  # the pip extra that installs its library, if it is optional


_REGISTERED: dict[str, Registration] = {}
_BACKENDS: dict = {}


def register_backend(
    variant: str, name: str, module: str, devices: tuple[str, ...], extra=None
) -> None:
    _REGISTERED[variant] = Registration(name, module, devices, extra)


def variant_named(name: str) -> str:
    """The variant of the backend called `name` in ops.yaml (`"torch"` -> `"Torch"`)."""
    for variant, registration in _REGISTERED.items():
        if registration.name == name:
            return variant
    known = ", ".join(sorted(r.name for r in _REGISTERED.values()))
    raise ValueError(f"no backend named {name!r}; ops.yaml declares {known}")


def _registration(variant: str) -> Registration:
    if variant not in _REGISTERED:
        raise ValueError(f"no backend named {variant!r}; known: {sorted(_REGISTERED)}")
    return _REGISTERED[variant]


def backend_for(variant: str):
    """The backend object of a variant, importing its module on first use."""
    backend = _BACKENDS.get(variant)
    if backend is None:
        registration = _registration(variant)
        try:
            backend = importlib.import_module(registration.module).BACKEND
        except ImportError as error:
            extra = registration.extra
            hint = (
                f"install it with `pip install 'burnpy[{extra}]'`"
                if extra
                else "check your installation"
            )
            raise ImportError(
                f"the {variant} backend needs a library that is not installed ({error.name}); {hint}"
            ) from error
        _BACKENDS[variant] = backend
    return backend


def swap_backend(variant: str, backend):
    """Make `backend` what `backend_for(variant)` returns, and give back the one it replaces
    (DispatchBackends.substitute's way to reach the code that asks by variant)."""
    previous = backend_for(variant)
    _BACKENDS[variant] = backend
    return previous


def device_name(variant: str, spec: str) -> str:
    """burn's name of one of a backend's devices: `"cpu"` -> `Cpu`, `"cuda:1"` -> `Cuda(1)`.

    Checked against the device kinds ops.yaml declares, without importing the backend."""
    kind, colon, index = spec.lower().partition(":")
    devices = _registration(variant).devices
    indexed = kind != "cpu" and index.isdigit()  # "cuda:0"; a CPU has no index
    if kind not in devices or (colon and not indexed):
        choices = ", ".join(f"'{d}'" if d == "cpu" else f"'{d}:N'" for d in devices)
        raise ValueError(f"the {variant} backend has no device {spec!r}; it has {choices}")
    if kind == "cpu":
        return "Cpu"
    return f"{kind.capitalize()}({int(index or 0)})"
