"""A package's own ops on burnpy's backends: its kernels over each inner backend, and the
routing table its generated dispatch functions read (`<package>.generated.backends.BACKENDS`).

A package (`python -m codegen --package DIR`, docs/own-ops.md) writes its kernels as the
library's mixins are written: one method per op over `self.xp`, the backend's array namespace.
Its generated backends.py joins that class with `Extension`, which gives it the inner backend:
`self.xp`, and every kernel of the backend (`self.float_exp`, a rule's `B.float_mul`) through
it. `PackageBackends` then plays the library's `BACKENDS` for the package: `BACKENDS.NumPy` is a
`DispatchBackend` whose `inner` is the package's kernels over the NumPy backend and whose two
Autodiff specializations are the package's, so a package's dispatch function is the library's,
line for line, and costs what it costs.

An inner backend substituted by the library (`BACKENDS.substitute`: capture's recording) is
substituted for every package too. A stand-in that defines `extended(kernels)` makes the
package's kernels over itself (a recording records each of the package's kernels as one call);
any other stand-in gets the package's kernels over it, as the real backend does.
"""

from burnpy.runtime.backends.registry import backend_for, variant_named
from burnpy.runtime.routing import DispatchBackend, DispatchBackends


class Extension:
    """The base a package's generated kernel classes add to the package's own: the inner
    backend they run on, `self.xp` its array namespace; a name the package does not define is
    the backend's (`self.float_exp`). `elementwise`: the generated class's table of its
    element-wise kernels (`elementwise_of`); `data_dependent`: the names of its kernels whose
    result's shape depends on the values, which a captured step refuses."""

    elementwise: dict = {}
    data_dependent: frozenset = frozenset()

    def __init__(self, inner):
        self.inner = inner
        self.xp = inner.xp
        self.variant = inner.variant
        self.name = inner.name

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)


def elementwise_of(ops) -> dict:
    """A package's element-wise kernels: name -> (parameters, the C expression of one element,
    ops.yaml's `c:`), from its ops' descriptions; a compiled capture fuses their calls into one
    loop (burnpy/capture/chains.py), as it does the library's."""
    return {op.name: (op.args, op.c) for op in ops if op.c is not None}


def extended(kernels: type, inner):
    """The package's `kernels` class over `inner`, or the stand-in's own version of it."""
    stand_in = getattr(type(inner), "extended", None)
    return kernels(inner) if stand_in is None else stand_in(inner, kernels)


class PackageBackends:
    """`BACKENDS` of a package's generated code: `BACKENDS.NumPy` is the package's
    DispatchBackend over the NumPy backend, built on first access. `kernels`: the package's
    kernel class by backend name (ops.yaml's `numpy`, `torch`), `default` the one for every
    other backend (a third one a user registers), or None when the package has none."""

    def __init__(
        self,
        package: str,
        autodiff: type,
        kernels: dict[str, type],
        default: type | None,
        library: DispatchBackends,
    ):
        self._package = package
        self._autodiff = autodiff
        self._kernels = kernels
        self._default = default
        library.extensions.append(self)  # substituted with the library's backends

    def __getattr__(self, variant: str) -> DispatchBackend:
        if variant.startswith("_"):
            raise AttributeError(variant)
        backend = self.build(variant, backend_for(variant))
        setattr(self, variant, backend)  # later lookups never reach __getattr__
        return backend

    def serves(self, variant: str) -> bool:
        """Whether the package has kernels for backend `variant`."""
        return self._kernels_of(variant) is not None

    def _kernels_of(self, variant: str) -> type | None:
        by_variant = {variant_named(name): kernels for name, kernels in self._kernels.items()}
        return by_variant.get(variant, self._default)

    def kernels_for(self, variant: str) -> type:
        kernels = self._kernels_of(variant)
        if kernels is None:
            raise NotImplementedError(
                f"{self._package} has no kernels for the {variant} backend: its ops.yaml names "
                f"kernels for {', '.join(sorted(self._kernels))} only; add `default:` to its "
                "`kernels:` mapping (a class over self.xp serves every backend)"
            )
        return kernels

    def build(self, variant: str, inner) -> DispatchBackend:
        """The package's DispatchBackend of `variant` over `inner` (the backend or a
        stand-in), with Autodiff specializations of its own."""
        return DispatchBackend(variant, self._autodiff, extended(self.kernels_for(variant), inner))
