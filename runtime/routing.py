"""The routing table: what the generated routing needs of one backend (the inner backend, its
four tensor kinds and its two Autodiff specializations), gathered once per backend on first use.
It stands above dispatch and autodiff, and joins them.

The recording seam: generated dispatch code finds a backend only as `BACKENDS.<variant>`, looked
up at each call (through the first tensor's kind, `kind.routing`, which is set to the same object
whenever the attribute is), and an Autodiff specialization takes every kernel (forward, backward
rules, the backward pass's seed) from the inner backend it was built over. So one substitution,
`BACKENDS.substitute(variant, inner)`, routes every kernel call of that backend to a stand-in
(a recorder) for as long as the `with` block lasts, and costs nothing when no block is open:
nothing is checked on the hot path, the attribute is simply another object meanwhile.
"""

from contextlib import contextmanager
from typing import Generic, TypeVar

from burnpy.runtime.autodiff.backend import autodiff_backend, new_autodiff_backend
from burnpy.runtime.backends.registry import backend_for, swap_backend
from burnpy.runtime.device import GradientCheckpointingStrategy
from burnpy.runtime.dispatch import BackendTensor, kinds_of

_STRATEGIES = (GradientCheckpointingStrategy.Disabled, GradientCheckpointingStrategy.Balanced)


Inner = TypeVar("Inner")  # generated/inner.py's InnerBackend, for type checkers
Specialization = TypeVar("Specialization")  # generated/autodiff.py's Autodiff


class DispatchBackend(Generic[Inner, Specialization]):
    """Generic only for type checkers and editors: generated dispatch code annotates `B` as
    `DispatchBackend[InnerBackend, Autodiff]`, so `B.inner.float_mul` and `AD.float_mul` resolve
    to their declarations; at run time the parameters are never given."""

    __slots__ = (
        "inner",
        "Float",
        "Int",
        "Bool",
        "Autodiff",
        "QFloat",
        "NoCheckpointing",
        "Balanced",
    )
    inner: Inner
    NoCheckpointing: Specialization
    Balanced: Specialization

    def __init__(self, variant: str, autodiff: type, inner=None):
        """The shared DispatchBackend of `variant`, or with `inner`, one over that stand-in
        (a package's kernels over the backend) with Autodiff specializations of its own."""
        self._take_kinds(variant)
        build = autodiff_backend if inner is None else new_autodiff_backend
        self.inner = backend_for(variant) if inner is None else inner
        self.NoCheckpointing, self.Balanced = (
            build(self.inner, strategy, autodiff) for strategy in _STRATEGIES
        )

    def _take_kinds(self, variant: str) -> None:
        kinds = kinds_of(variant)
        self.Float = kinds[BackendTensor.Float]
        self.Int = kinds[BackendTensor.Int]
        self.Bool = kinds[BackendTensor.Bool]
        self.Autodiff = kinds[BackendTensor.Autodiff]
        self.QFloat = kinds[BackendTensor.QFloat]


class StandInBackend(DispatchBackend[Inner, Specialization]):
    """The DispatchBackend of a substitution (`DispatchBackends.substitute`): over the stand-in
    for the inner backend, with Autodiff specializations of its own, as the shared ones must
    never reach the stand-in. Each is built when a dispatch first asks for it: a recording of
    untracked tensors (an export's trace) needs neither."""

    __slots__ = ("_autodiff", "_built")

    def __init__(self, variant: str, autodiff: type, inner):
        self._take_kinds(variant)
        self.inner = inner
        self._autodiff = autodiff
        self._built: dict = {}

    @property  # (read-only here: built on first use)
    def NoCheckpointing(self) -> Specialization:  # type: ignore[override]
        return self._specialization(GradientCheckpointingStrategy.Disabled)

    @property
    def Balanced(self) -> Specialization:  # type: ignore[override]
        return self._specialization(GradientCheckpointingStrategy.Balanced)

    def _specialization(self, strategy: GradientCheckpointingStrategy) -> Specialization:
        built = self._built.get(strategy)
        if built is None:
            built = self._built[strategy] = new_autodiff_backend(
                self.inner, strategy, self._autodiff
            )
        return built


def _route(variant: str, backend: DispatchBackend) -> None:
    """Tensors of `variant` route through `backend`: the kinds' `routing`, which the dispatch
    functions read rather than an attribute of BACKENDS found by name, and the Float kind's
    `plain_inner`, which the Tensor methods' plain path reads."""
    for kind in kinds_of(variant).values():
        kind.routing = backend
    backend.Float.plain_inner = backend.inner


class DispatchBackends:
    """`BACKENDS.NumPy`: a backend's DispatchBackend, imported and built on first access."""

    def __init__(self, autodiff: type):
        self._autodiff = autodiff  # the generated Autodiff specialization class
        # the packages' own BACKENDS (runtime/extension.py), substituted with these
        self.extensions: list = []

    def __getattr__(self, variant: str) -> DispatchBackend:
        if variant.startswith("_"):
            raise AttributeError(variant)
        backend = DispatchBackend(variant, self._autodiff)
        setattr(self, variant, backend)  # later lookups never reach __getattr__
        _route(variant, backend)
        return backend

    @contextmanager
    def substitute(self, variant: str, inner):
        """Within the block, every kernel call of backend `variant` goes to `inner` (an object
        with the inner backend's methods, usually wrapping it): the routing's plain arm, both
        Autodiff specializations (built anew over `inner`, the shared ones untouched), and code
        that asks `backend_for(variant)` (a tensor's dtype, `backward()`), and every
        package's own ops (their kernels over `inner`). Restored on exit, also when the block
        raises."""
        shared = getattr(self, variant)
        packages = [(package, vars(package).get(variant)) for package in self.extensions]
        replaced = swap_backend(variant, inner)
        try:
            stand_in = StandInBackend(variant, self._autodiff, inner)
            setattr(self, variant, stand_in)
            _route(variant, stand_in)
            for package, _ in packages:
                if package.serves(variant):  # (one without kernels for it says so if called)
                    setattr(package, variant, package.build(variant, inner))
            yield
        finally:
            setattr(self, variant, shared)
            _route(variant, shared)
            for package, before in packages:
                if before is None:  # built again from the real backend on next use
                    vars(package).pop(variant, None)
                else:
                    setattr(package, variant, before)
            swap_backend(variant, replaced)
