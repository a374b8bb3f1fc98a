# @generated from ops.yaml by `python -m codegen`; do not edit. render=02569db58f30dfe9 body=a4cee0e6cb6c5e74
"""benches.benchops's routing table: `BACKENDS.NumPy` is the DispatchBackend of its ops on burnpy's
NumPy backend: its kernels over burnpy's inner backend, and its own two Autodiff
specializations (burnpy.runtime.extension). `Inner` is what a dispatch function's `B.inner`
is to a type checker and an editor: go-to-definition on `B.inner.<op>` reaches the kernel.
"""

from typing import TYPE_CHECKING

from burnpy.generated.backends import BACKENDS as LIBRARY
from burnpy.runtime.extension import Extension, PackageBackends, elementwise_of
from benches.benchops.generated.autodiff import Autodiff
from benches.benchops.generated.catalogue import AUTODIFF_OPS
from benches.benchops.kernels import Kernels, NumPyKernels


class KernelsOver(Kernels, Extension):
    """benches.benchops.kernels.Kernels over every backend: `self.xp` is its array namespace."""

    elementwise = elementwise_of(AUTODIFF_OPS)


class NumPyKernelsOver(NumPyKernels, Extension):
    """benches.benchops.kernels.NumPyKernels over the backends numpy: `self.xp` is its array namespace."""

    elementwise = elementwise_of(AUTODIFF_OPS)


if TYPE_CHECKING:
    Inner = KernelsOver | NumPyKernelsOver

BACKENDS = PackageBackends(
    "benches.benchops", Autodiff, {"numpy": NumPyKernelsOver}, KernelsOver, LIBRARY
)
