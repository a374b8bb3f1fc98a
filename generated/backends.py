# @generated from ops.yaml by `python -m codegen`; do not edit. render=94442449e850ac57 body=10cb2c0244a0e8a6
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.catalogue import AUTODIFF_OPS
from generated.recorders import RECORDERS
from runtime.backends import register_backend
from runtime.backends.registry import DispatchBackends

register_backend("NumPy", "numpy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(AUTODIFF_OPS, RECORDERS)
