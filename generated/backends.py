# @generated from ops.yaml by `python -m codegen`; do not edit. render=dbfa6bf81a6133fe body=9a9fde4c9b82884c
"""The inner backends that ops.yaml declares, each found lazily by its variant.

`Inner` is what a dispatch function's `B.inner` is to a type checker and an editor: one of these
classes (`B` is annotated `DispatchBackend[Inner, Autodiff]`), so that go-to-definition on
`B.inner.float_mul` reaches each backend's kernel itself; generated/inner.py declares every
kernel's signature, which each class must define.
"""

from typing import TYPE_CHECKING

from generated.autodiff import Autodiff
from runtime.backends.registry import register_backend
from runtime.routing import DispatchBackends

if TYPE_CHECKING:
    from runtime.backends.numpy import NumPyBackend
    from runtime.backends.torch import TorchBackend

    Inner = NumPyBackend | TorchBackend

register_backend("NumPy", "numpy", "runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(Autodiff)
