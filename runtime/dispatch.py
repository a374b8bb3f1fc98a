"""The dispatch core types that the generated routing code uses.

burn nests enums: `Autodiff(Box<Flex(BackendTensor::Autodiff(t))>)`. Here a DispatchTensor is
flat, {kind, primitive, autodiff}, and `kind` is one of a few shared DispatchTensorKind values
that print as burn's nesting does (`NumPy(Float)`, `Autodiff(NumPy(Autodiff))`): one object per
tensor instead of four, and a routing test is an identity check.
"""

from enum import Enum

import numpy as np

from burnpy.runtime.backends.registry import backend_for
from burnpy.runtime.device import (
    AutodiffDevice,
    Device,
    DispatchDevice,
    GradientCheckpointingStrategy,
    quantization_propagation_of,
)
from burnpy.runtime.quantization.scheme import QuantPropagation
from burnpy.runtime.errors import (
    AUTODIFF_PRIMITIVE_NEEDS_CONTEXT,
    BurnPanic,
    StrategyMismatch,
    user_call,
)


class BackendTensor(Enum):
    """What a backend's primitive is: burn's `BackendTensor` variants."""

    Float = "Float"
    Int = "Int"
    Bool = "Bool"
    Autodiff = "Autodiff"  # an AutodiffTensor wrapping the backend's float primitive
    QFloat = "QFloat"  # a quantized float primitive (burn's TensorPrimitive::QFloat)

    __hash__ = object.__hash__  # members are singletons; Enum's own hash runs in Python

    def __repr__(self):
        return self.value


class TensorKind(Enum):
    """burn-tensor's tensor kinds, as the user sees them."""

    Float = "Float"
    Int = "Int"
    Bool = "Bool"

    def __repr__(self):
        return self.value


FLOAT32 = np.dtype(np.float32)  # what a quantized input of a float op is dequantized to

# How to turn a tensor into each kind: the fix every message about a wrong kind names.
CONVERT = {TensorKind.Float: "t.float()", TensorKind.Int: "t.int()", TensorKind.Bool: "t.bool()"}


class DispatchAutodiffContext:
    """`Disabled` or `Enabled(strategy)`: which Autodiff specialization an op must use."""

    __slots__ = ("strategy",)
    Disabled: "DispatchAutodiffContext"
    Balanced: "DispatchAutodiffContext"  # Enabled(Balanced)
    NoCheckpointing: "DispatchAutodiffContext"  # Enabled(Disabled)

    def __init__(self, strategy: GradientCheckpointingStrategy | None):
        self.strategy = strategy

    @staticmethod
    def enabled(strategy: GradientCheckpointingStrategy) -> "DispatchAutodiffContext":
        if strategy is GradientCheckpointingStrategy.Balanced:
            return DispatchAutodiffContext.Balanced
        return DispatchAutodiffContext.NoCheckpointing

    def merge(self, other: "DispatchAutodiffContext") -> "DispatchAutodiffContext":
        """Disabled is the identity; two Enabled contexts must share their strategy."""
        if other is self or other is DISABLED:
            return self
        if self is DISABLED:
            return other
        raise StrategyMismatch(self.strategy, other.strategy)

    def __repr__(self):
        return "Disabled" if self.strategy is None else f"Enabled({self.strategy})"


DISABLED = DispatchAutodiffContext.Disabled = DispatchAutodiffContext(None)
DispatchAutodiffContext.Balanced = DispatchAutodiffContext(GradientCheckpointingStrategy.Balanced)
DispatchAutodiffContext.NoCheckpointing = DispatchAutodiffContext(
    GradientCheckpointingStrategy.Disabled
)


def merge_contexts(first: DispatchAutodiffContext, tensors) -> DispatchAutodiffContext:
    """The merged context of an n-ary op's inputs (`cat`): every element takes part."""
    ctx = first
    for tensor in tensors:
        ctx = ctx.merge(tensor.context)
    return ctx


def context_of(device: DispatchDevice) -> DispatchAutodiffContext:
    """The context a tensor made on `device` carries."""
    if isinstance(device, AutodiffDevice):
        return DispatchAutodiffContext.enabled(device.checkpointing)
    return DISABLED


class DispatchTensorKind:
    """Which backend holds the primitive, and as which BackendTensor variant (`float_kind`:
    the same backend's plain Float kind, which kinds_of sets). `routing` is the library's
    routing table of that backend, which the dispatch functions read first: runtime/routing.py
    sets it when it builds the table and while a substitution lasts; None before. On the plain
    Float kind, `plain_inner` is that table's inner backend (None on the other kinds, and
    before): the Tensor methods' plain path tests the receiver's kind and finds the kernel's
    backend in this one read."""

    __slots__ = (
        "variant",
        "backend_tensor",
        "tensor_kind",
        "is_autodiff",
        "float_kind",
        "routing",
        "plain_inner",
    )

    def __init__(self, variant: str, backend_tensor: BackendTensor):
        self.variant = variant  # the inner backend, e.g. "NumPy"
        self.backend_tensor = backend_tensor
        self.routing = self.plain_inner = None
        self.is_autodiff = backend_tensor is BackendTensor.Autodiff
        # a quantized primitive is a Float tensor's, as burn's TensorPrimitive::QFloat
        self.tensor_kind = (
            TensorKind.Float
            if self.is_autodiff or backend_tensor is BackendTensor.QFloat
            else TensorKind[backend_tensor.value]
        )

    def __repr__(self):
        inner = f"{self.variant}({self.backend_tensor!r})"
        return f"Autodiff({inner})" if self.is_autodiff else inner


_KINDS: dict[str, dict[BackendTensor, DispatchTensorKind]] = {}


def kinds_of(variant: str) -> dict[BackendTensor, DispatchTensorKind]:
    """The four shared kinds of one backend, keyed by BackendTensor."""
    kinds = _KINDS.get(variant)
    if kinds is None:
        kinds = _KINDS[variant] = {bt: DispatchTensorKind(variant, bt) for bt in BackendTensor}
        for kind in kinds.values():
            kind.float_kind = kinds[BackendTensor.Float]  # what a gradient or inner() is
    return kinds


class DispatchTensor:
    """A tensor as the dispatch layer sees it: `{kind, autodiff}` plus the primitive.

    burn's `autodiff` field is called `context` here: on a Tensor, `autodiff()` is the method
    that moves it to the autodiff device."""

    __slots__ = ("kind", "primitive", "context")

    def __init__(self, kind: DispatchTensorKind, primitive, context: DispatchAutodiffContext):
        self.kind = kind
        self.primitive = primitive
        self.context = context

    # Accessors used by the generated routing: `variant` is the backend the op was routed to,
    # `first` the input that chose it, if not this one (named, with this tensor's device, if the
    # backends differ).
    # The accessors' slow paths: the routing reads `primitive` itself when the kind is the one
    # it expects. `first` is the input that chose the backend (None: this tensor did), so that
    # a tensor of another backend is reported with the device the op runs on.
    def _check_backend(self, first: "DispatchTensor | None") -> None:
        if first is not None and first.kind.variant != self.kind.variant:
            raise backend_mismatch(first, self)

    def as_float(self, first: "DispatchTensor | None" = None):
        """The plain float primitive (the `Disabled` arm); a quantized one is dequantized to
        float32 (burn's `into_float`)."""
        self._check_backend(first)
        kind = self.kind
        if kind.backend_tensor is BackendTensor.Float:
            return self.primitive
        if kind.backend_tensor is BackendTensor.QFloat:
            return backend_for(kind.variant).dequantize(self.primitive, FLOAT32)
        if kind.is_autodiff:
            raise BurnPanic(AUTODIFF_PRIMITIVE_NEEDS_CONTEXT)
        raise wrong_kind(TensorKind.Float, self)

    def lift(self, autodiff_backend, first: "DispatchTensor | None" = None):
        """The AutodiffTensor (the `Enabled` arm); a plain float enters as a constant."""
        kind = self.kind
        if kind.variant != autodiff_backend.variant:
            raise backend_mismatch(self if first is None else first, self)
        if kind.is_autodiff:
            return self.primitive
        if kind.backend_tensor is BackendTensor.Float:
            return autodiff_backend.from_inner(self.primitive)
        if kind.backend_tensor is BackendTensor.QFloat:  # dequantized: a constant, no history
            return autodiff_backend.from_inner(self.as_float())
        raise wrong_kind(TensorKind.Float, self)

    def as_quantized(self, first: "DispatchTensor | None" = None):
        """The quantized primitive (a q-op's input)."""
        self._check_backend(first)
        if self.kind.backend_tensor is BackendTensor.QFloat:
            return self.primitive
        raise TypeError(
            f"{user_call('the operation')}: expected a quantized tensor, got "
            f"{_a(self.kind.tensor_kind)} tensor; quantize it with `t.quantize_dynamic(scheme)`"
        )

    def as_int(self, first: "DispatchTensor | None" = None):
        self._check_backend(first)
        if self.kind.backend_tensor is BackendTensor.Int:
            return self.primitive
        raise wrong_kind(TensorKind.Int, self)

    def as_bool(self, first: "DispatchTensor | None" = None):
        self._check_backend(first)
        if self.kind.backend_tensor is BackendTensor.Bool:
            return self.primitive
        raise wrong_kind(TensorKind.Bool, self)

    def float_data(self, first: "DispatchTensor | None" = None):
        """The backend's float primitive, plain or inside an AutodiffTensor (moves read it);
        a quantized one dequantized."""
        self._check_backend(first)
        if self.kind.is_autodiff:
            return self.primitive.primitive
        return self.as_float()

    def inner_primitive(self):
        """The backend primitive, looking through an AutodiffTensor."""
        return self.primitive.primitive if self.kind.is_autodiff else self.primitive

    def dispatch_device(self) -> DispatchDevice:
        """burn's `DispatchTensor::device()`: int/bool under autodiff report the autodiff device."""
        raw = DispatchDevice(
            self.kind.variant, backend_for(self.kind.variant).device_of(self.inner_primitive())
        )
        if self.context is DISABLED:
            return raw
        return AutodiffDevice(raw, self.context.strategy)


# A DispatchTensor made without its __init__: the generated routing fills the three slots
# itself. A class call runs the Python __init__ through a C slot (an argument tuple and a fresh
# interpreter frame), which costs as much as a small op's kernel.
new_tensor = object.__new__


def propagates(tensor: DispatchTensor) -> bool:
    """Does the device of `tensor` (a quantized tensor) propagate quantization?"""
    variant = tensor.kind.variant
    device = backend_for(variant).device_of(tensor.primitive)
    return quantization_propagation_of(variant, device) is QuantPropagation.PROPAGATE


def check_dtypes(op: str, backend, first, other) -> None:
    """Two tensors of one kind in one op share a dtype: no silent promotion. The routing calls
    this when the two primitives' dtype objects differ; equal ones pass."""
    first, other = backend.dtype(first), backend.dtype(other)
    if first != other:
        raise TypeError(
            f"{user_call(op)}: dtypes differ ({first} and {other}); convert one with `t.cast('{first}')`"
        )


def backend_mismatch(first: DispatchTensor, other: DispatchTensor) -> TypeError:
    return TypeError(
        f"{user_call('the operation')}: the tensors live on two backends: "
        f"{Device(first.dispatch_device())} and {Device(other.dispatch_device())}; move one with "
        "`t.to_device(device)` first"
    )


def wrong_kind(expected: TensorKind, tensor: DispatchTensor) -> TypeError:
    got = tensor.kind.tensor_kind
    return TypeError(
        f"{user_call('the operation')}: expected {_a(expected)} tensor, got {_a(got)} tensor; "
        f"convert it with `{CONVERT[expected]}`"
    )


def _a(kind: TensorKind) -> str:
    return f"an {kind.value}" if kind is TensorKind.Int else f"a {kind.value}"
