# @generated from ops.yaml by `python -m codegen`; do not edit. render=8bd40108422f8cd9 body=facabe8463de0e44
"""The inner backends that ops.yaml declares, each found lazily by its variant.

`Inner` is what a dispatch function's `B.inner` is to a type checker and an editor: one of these
classes (`B` is annotated `DispatchBackend[Inner, Autodiff]`), so that go-to-definition on
`B.inner.float_mul` reaches each backend's kernel itself; generated/inner.py declares every
kernel's signature, which each class must define.
"""

from typing import TYPE_CHECKING

from burnpy.generated.autodiff import Autodiff
from burnpy.runtime.backends.registry import register_backend
from burnpy.runtime.routing import DispatchBackends

if TYPE_CHECKING:
    from burnpy.runtime.backends.numpy import NumPyBackend
    from burnpy.runtime.backends.torch import TorchBackend

    Inner = NumPyBackend | TorchBackend

register_backend("NumPy", "numpy", "burnpy.runtime.backends.numpy", ("cpu",), extra=None)
register_backend("Torch", "torch", "burnpy.runtime.backends.torch", ("cpu", "cuda"), extra="torch")

BACKENDS = DispatchBackends(Autodiff)
