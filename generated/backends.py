# @generated from ops.yaml by `python -m codegen`; do not edit. render=8ce1d0d42f8a5fb4 body=39cad9c0159e4d07
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.catalogue import AUTODIFF_OPS
from generated.recorders import RECORDERS
from runtime.backends.registry import register_backend
from runtime.routing import DispatchBackends

register_backend("NumPy", "numpy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(AUTODIFF_OPS, RECORDERS)
