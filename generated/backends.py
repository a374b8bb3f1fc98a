# @generated from ops.yaml by `python -m codegen`; do not edit. render=4730051e744a01d1 body=b30f08dd45f10289
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.catalogue import AUTODIFF_OPS
from runtime.backends import register_backend
from runtime.backends.registry import DispatchBackends

register_backend("NumPy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(AUTODIFF_OPS)
