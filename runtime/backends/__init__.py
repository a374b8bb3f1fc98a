"""Inner backends, found by their DispatchTensorKind variant (`"NumPy"`, `"Torch"`).

The catalogue (ops.yaml) declares the backends; generated code registers each one's module
here. A backend is imported on first use, so an optional library (torch) costs nothing until a
device of its backend is used, and its absence is reported with the extra that installs it.
"""

import importlib

_MODULES: dict[str, tuple[str, str]] = {}  # variant -> (module, pip extra)
_BACKENDS: dict = {}


def register_backend(variant: str, module: str, extra: str | None = None) -> None:
    _MODULES[variant] = (module, extra)


def backend_for(variant: str):
    """The backend object of a variant, importing its module on first use."""
    backend = _BACKENDS.get(variant)
    if backend is None:
        if variant not in _MODULES:
            raise ValueError(f"no backend named {variant!r}; known: {sorted(_MODULES)}")
        module, extra = _MODULES[variant]
        try:
            backend = importlib.import_module(module).BACKEND
        except ImportError as error:
            hint = (
                f"install it with `pip install .[{extra}]`" if extra else "check your installation"
            )
            raise ImportError(
                f"the {variant} backend needs a library that is not installed ({error.name}); {hint}"
            ) from error
        _BACKENDS[variant] = backend
    return backend


def torch_device_name(spec: str) -> str:
    """`"cpu"` -> `Cpu`, `"cuda:1"` -> `Cuda(1)` (burn's LibTorch device names)."""
    spec = spec.lower()
    if spec == "cpu":
        return "Cpu"
    if spec.startswith("cuda"):
        index = int(spec.partition(":")[2] or 0)
        return f"Cuda({index})"
    raise ValueError(f"unknown torch device {spec!r}; write 'cpu' or 'cuda:N'")
