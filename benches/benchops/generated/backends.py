# @generated from ops.yaml by `python -m codegen`; do not edit. render=9328e19151e93be6 body=5e570ea98554753c
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
from benches.benchops.kernels import Kernels


class KernelsOver(Kernels, Extension):
    """benches.benchops.kernels.Kernels over every backend: `self.xp` is its array namespace."""

    elementwise = elementwise_of(AUTODIFF_OPS)


if TYPE_CHECKING:
    Inner = KernelsOver

BACKENDS = PackageBackends("benches.benchops", Autodiff, {}, KernelsOver, LIBRARY)
