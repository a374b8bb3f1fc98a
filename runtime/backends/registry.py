"""What the generated routing needs of one backend: the inner backend, its four tensor kinds,
and its two Autodiff specializations, gathered once per backend on first use."""

from runtime.autodiff.backend import autodiff_backend
from runtime.backends import backend_for
from runtime.device import GradientCheckpointingStrategy
from runtime.dispatch import BackendTensor, kinds_of


class DispatchBackend:
    __slots__ = ("inner", "Float", "Int", "Bool", "Autodiff", "NoCheckpointing", "Balanced")

    def __init__(self, variant: str, autodiff_ops, recorders):
        self.inner = backend_for(variant)
        kinds = kinds_of(variant)
        self.Float = kinds[BackendTensor.Float]
        self.Int = kinds[BackendTensor.Int]
        self.Bool = kinds[BackendTensor.Bool]
        self.Autodiff = kinds[BackendTensor.Autodiff]
        self.NoCheckpointing = autodiff_backend(
            self.inner, GradientCheckpointingStrategy.Disabled, autodiff_ops, recorders
        )
        self.Balanced = autodiff_backend(
            self.inner, GradientCheckpointingStrategy.Balanced, autodiff_ops, recorders
        )


class DispatchBackends:
    """`BACKENDS.NumPy`: a backend's DispatchBackend, imported and built on first access."""

    def __init__(self, autodiff_ops, recorders):
        self._autodiff_ops = autodiff_ops
        self._recorders = recorders

    def __getattr__(self, variant: str) -> DispatchBackend:
        if variant.startswith("_"):
            raise AttributeError(variant)
        backend = DispatchBackend(variant, self._autodiff_ops, self._recorders)
        setattr(self, variant, backend)  # later lookups never reach __getattr__
        return backend
