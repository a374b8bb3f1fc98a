# @generated from ops.yaml by `python -m codegen`; do not edit. render=61020b88437eaafc body=8ce53e93fa086b57
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.autodiff import Autodiff
from runtime.backends.registry import register_backend
from runtime.routing import DispatchBackends

register_backend("NumPy", "numpy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(Autodiff)
