# @generated from ops.yaml by `python -m codegen`; do not edit. render=abce49e84241d50e body=d09e888580a8c927
"""myops's routing table: `BACKENDS.NumPy` is the DispatchBackend of its ops on burnpy's
NumPy backend: its kernels over burnpy's inner backend, and its own two Autodiff
specializations (burnpy.runtime.extension). `Inner` is what a dispatch function's `B.inner`
is to a type checker and an editor: go-to-definition on `B.inner.<op>` reaches the kernel.
"""

from typing import TYPE_CHECKING

from burnpy.generated.backends import BACKENDS as LIBRARY
from burnpy.runtime.extension import Extension, PackageBackends, elementwise_of
from myops.generated.autodiff import Autodiff
from myops.generated.catalogue import AUTODIFF_OPS
from myops.kernels import Kernels


class KernelsOver(Kernels, Extension):
    """myops.kernels.Kernels over every backend: `self.xp` is its array namespace."""

    elementwise = elementwise_of(AUTODIFF_OPS)


if TYPE_CHECKING:
    Inner = KernelsOver

BACKENDS = PackageBackends("myops", Autodiff, {}, KernelsOver, LIBRARY)
