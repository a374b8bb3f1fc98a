# @generated from ops.yaml by `python -m codegen`; do not edit. render=660f24bc3e826902 body=67290c6c4e2490fa
"""myops's routing table: `BACKENDS.NumPy` is the DispatchBackend of its ops on burnpy's
NumPy backend: its kernels over burnpy's inner backend, and its own two Autodiff
specializations (burnpy.runtime.extension). `Inner` is what a dispatch function's `B.inner`
is to a type checker and an editor: go-to-definition on `B.inner.<op>` reaches the kernel.
"""

from typing import TYPE_CHECKING

from burnpy.generated.backends import BACKENDS as LIBRARY
from burnpy.runtime.extension import Extension, PackageBackends
from myops.generated.autodiff import Autodiff
from myops.kernels import Kernels


class KernelsOver(Kernels, Extension):
    """myops.kernels.Kernels over every backend: `self.xp` is its array namespace."""


if TYPE_CHECKING:
    Inner = KernelsOver

BACKENDS = PackageBackends("myops", Autodiff, {}, KernelsOver, LIBRARY)
