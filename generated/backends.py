# @generated from ops.yaml by `python -m codegen`; do not edit. render=2a7d258b846fbb91 body=08fa697850746fda
"""The inner backends that ops.yaml declares, each found lazily by its variant."""

from generated.catalogue import AUTODIFF_OPS
from runtime.backends import register_backend
from runtime.backends.registry import DispatchBackends

register_backend("NumPy", "runtime.backends.numpy", extra=None)

BACKENDS = DispatchBackends(AUTODIFF_OPS)
