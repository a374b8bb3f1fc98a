# @generated from ops.yaml by `python -m codegen`; do not edit. render=d6df0b5acae15a94 body=04d4c4d7cff6b61d
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.catalogue import AUTODIFF_OPS
from runtime.backends import register_backend
from runtime.backends.registry import DispatchBackends

register_backend("NumPy", "numpy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(AUTODIFF_OPS)
