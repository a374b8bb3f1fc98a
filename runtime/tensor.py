"""The hand-written part of the Tensor API: identity, data access, autodiff handles, operators.

The op methods are generated from ops.yaml into `generated/tensor.py`, on a subclass of
TensorBase. A Tensor *is* the DispatchTensor the generated dispatch functions take and return.
"""

import inspect

import numpy as np

from burnpy.runtime.activity import user_call
from burnpy.runtime.autodiff import graph
from burnpy.runtime.autodiff.grad_mode import GRAD_MODE
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import NONE
from burnpy.runtime.backends.registry import backend_for
from burnpy.runtime.composed import ComposedMethods
from burnpy.runtime.arguments import (
    BOOL,
    FLOAT,
    INT,
    SUPPORTED_DTYPES,
    device_arg,
    is_scalar,
    supported_kind,
)
from burnpy.runtime.device import Device
from burnpy.runtime.dispatch import DISABLED, BackendTensor, DispatchTensor, TensorKind, kinds_of
from burnpy.runtime.errors import (
    BACKWARD_NEEDS_TRACKED,
    REQUIRE_GRAD_NEEDS_AUTODIFF,
    BurnPanic,
    IndexOutOfRange,
)


class _TensorType(type):
    """The Tensor class's type: it holds the `_Habit`s of PyTorch's constructor names
    (`Tensor.randn`), which a class reads from its type."""

    def __dir__(cls):
        return [name for name in super().__dir__() if not _is_habit(cls, name)]


class TensorBase(ComposedMethods, DispatchTensor, metaclass=_TensorType):
    # A PyTorch name the Tensor lacks (`t.view`, `t.relu_`) is a `_Habit` on the class: reading
    # it raises the AttributeError that names the burnpy call. Not a `__getattr__`: a class with
    # one keeps CPython from specialising every attribute read and method call on its instances.
    __slots__ = ()

    def __dir__(self):
        return [name for name in super().__dir__() if not _is_habit(type(self), name)]

    # -- what it is ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return tuple(self.inner_primitive().shape)

    @property
    def dtype(self) -> np.dtype:
        kind = self.kind
        primitive = self.primitive.primitive if kind.is_autodiff else self.primitive
        return backend_for(kind.variant).dtype(primitive)

    @property
    def ndim(self) -> int:
        return len(self.inner_primitive().shape)

    def tensor_kind(self) -> TensorKind:
        return self.kind.tensor_kind

    def device(self) -> Device:
        return Device(self.dispatch_device())

    def numel(self) -> int:
        n = 1
        for size in self.shape:
            n *= size
        return n

    # -- data ---------------------------------------------------------------------------------
    def to_numpy(self) -> np.ndarray:
        """A copy of the data as a numpy array."""
        with user_call("to_numpy()"):
            # a quantized tensor reads as its dequantized float32 values
            primitive = self.as_float() if self.is_quantized() else self.inner_primitive()
            return np.array(backend_for(self.kind.variant).to_numpy(primitive))

    # -- DLPack: the data shared with numpy, torch and other array libraries, never copied ----
    def __dlpack__(self, **kwargs):
        """The data as a DLPack capsule (`np.from_dlpack(t)`, `torch.from_dlpack(t)`); what is
        exported is the data only, detached from any autodiff graph."""
        return self.inner_primitive().__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.inner_primitive().__dlpack_device__()

    @classmethod
    def from_dlpack(cls, array, *, device=None):
        """A tensor sharing the memory of `array` (anything with `__dlpack__`: a numpy array, a
        torch tensor) on `device`'s backend (default: numpy); on an autodiff device, an
        untracked leaf."""
        device = device_arg(device)
        variant = device.device.variant
        backend = backend_for(variant)
        primitive = backend.xp.from_dlpack(array)
        dtype = backend.dtype(primitive)
        kind = supported_kind(dtype)
        if kind is None:
            supported = ", ".join(SUPPORTED_DTYPES)
            raise TypeError(f"from_dlpack: dtype {dtype} is not supported; use one of {supported}")
        variants = {FLOAT: BackendTensor.Float, INT: BackendTensor.Int, BOOL: BackendTensor.Bool}
        tensor = cls(kinds_of(variant)[variants[kind]], primitive, DISABLED)
        return tensor.to_device(device) if device.is_autodiff() else tensor

    def __reduce__(self):
        """Pickling and deepcopy: the values, dtype and device, rebuilt as a new tensor; a
        require_grad() leaf comes back as a new leaf that requires grad (a node id belongs to
        one process and one graph, so none is carried over). A quantized tensor comes back
        quantized: its values, scales and scheme."""
        if self.is_quantized():
            values, scales = self.quantized_data()
            return (_rebuild_quantized, (type(self), values, scales, self.scheme(), self.device()))
        return (_rebuild, (type(self), self.to_numpy(), self.device(), self.is_require_grad()))

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("a Tensor cannot be viewed as numpy without a copy; pass copy=None")
        with user_call("np.asarray(t)"):
            array = self.to_numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def tolist(self):
        with user_call("tolist()"):
            return self.to_numpy().tolist()

    def item(self):
        if self.numel() != 1:
            raise ValueError(f"item() needs a tensor with one element, got shape {self.shape}")
        with user_call("item()"):
            return self.to_numpy().reshape(()).item()

    def __bool__(self):
        if self.numel() != 1:
            raise ValueError(
                f"the truth value of a tensor of shape {self.shape} is ambiguous; "
                "use .any() or .all(), or compare its one element"
            )
        with user_call("bool(t)"):
            return bool(self.item())

    def __float__(self):
        with user_call("float(t)"):
            return float(self.item())

    def __int__(self):
        with user_call("int(t)"):
            return int(self.item())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a rank-0 tensor")
        return self.shape[0]

    __hash__ = object.__hash__  # identity: `==` builds a Bool tensor

    def __repr__(self):
        with user_call("repr(t)"):
            data = np.array2string(self.to_numpy(), separator=", ", threshold=20)
        quantized = f", scheme={self.scheme()!r}" if self.is_quantized() else ""
        return (
            f"Tensor(data={data}, shape={list(self.shape)}, kind={self.kind.tensor_kind.value}, "
            f"dtype={self.dtype}{quantized}, device={self.device()})"
        )

    # -- autodiff -----------------------------------------------------------------------------
    def is_autodiff(self) -> bool:
        return self.context is not DISABLED

    def is_tracked(self) -> bool:
        return self.kind.is_autodiff and self.primitive.is_tracked()

    def is_require_grad(self) -> bool:
        return self.kind.is_autodiff and self.primitive.node.requirement.name == "Grad"

    def gradient_checkpointing_strategy(self):
        return self.context.strategy

    def node_id(self):
        """The NodeId of an autodiff float tensor, else None."""
        return self.primitive.id() if self.kind.is_autodiff else None

    def require_grad(self):
        """A new handle on the same data that is a Grad leaf; the receiver is unchanged."""
        if self.kind.tensor_kind is not FLOAT:
            raise TypeError(
                f"require_grad() needs a Float tensor, got {self.kind.tensor_kind.value}"
            )
        if self.is_quantized():  # burn's q_set_require_grad: it takes no gradient
            return self
        if not self.kind.is_autodiff:
            raise BurnPanic(
                REQUIRE_GRAD_NEEDS_AUTODIFF,
                "make the tensor on `device.autodiff()`, or call `t.autodiff()` first",
            )
        return type(self)(self.kind, self.primitive.require_grad(), self.context)

    def set_require_grad(self, require_grad: bool):
        if require_grad:
            return self.require_grad()
        if not self.kind.is_autodiff:
            return self
        return type(self)(
            self.kind, type(self.primitive).new(self.primitive.primitive), self.context
        )

    # -- distributed parameters (burn's DistributedParams) -------------------------------------
    def set_distributed_params(self, param_id: int):
        """A new handle on the same Grad leaf, marked as a parameter replicated across
        processes under `param_id`: in backward its gradient is then reduced (mean over the
        processes) by the hook that `burnpy.distributed.init()` registers. The receiver is
        unchanged."""
        if self.kind.tensor_kind is not FLOAT:
            raise TypeError(
                "set_distributed_params() marks a parameter, which is a Float tensor; this one "
                f"is {self.kind.tensor_kind.value}"
            )
        if not self.kind.is_autodiff:
            raise RuntimeError("Requires autodiff tensor.")
        if not isinstance(param_id, int | np.integer) or isinstance(param_id, bool):
            raise TypeError(
                f"set_distributed_params(): param_id must be an int, got {type(param_id).__name__}"
            )
        if not self.is_require_grad():
            raise RuntimeError(
                "set_distributed_params() marks a parameter: call it on a require_grad() leaf "
                "(`t.require_grad().set_distributed_params(param_id)`)"
            )
        marked = self.primitive.set_distributed_params(int(param_id))
        return type(self)(self.kind, marked, self.context)

    set_distributed = set_distributed_params  # burn-tensor's name for it

    def distributed_params(self):
        """The ParamId this tensor was marked with by `set_distributed_params`, else None."""
        return self.primitive.node.distributed_params if self.kind.is_autodiff else None

    def is_distributed(self) -> bool:
        return self.distributed_params() is not None

    def detach(self):
        """A new leaf on the same data: no graph edge; a Grad leaf stays a Grad leaf."""
        if not self.kind.is_autodiff:
            return self
        return type(self)(self.kind, self.primitive.detach(), self.context)

    def backward(self):
        """Run backward from this tensor; returns the Gradients of the Grad leaves it reaches."""
        if not self.kind.is_autodiff or self.primitive.node.requirement is NONE:
            raise BurnPanic(
                BACKWARD_NEEDS_TRACKED,
                "make the source leaf with `Tensor.from_data(..., device=device.autodiff())"
                ".require_grad()`",
            )
        return graph.backward(self.primitive, backend_for(self.kind.variant))

    def grad(self, grads):
        """This tensor's gradient as a plain tensor on the inner device, or None."""
        if type(grads) is not Gradients:
            _gradients("grad", grads)
        return self._plain_grad(grads.get(self.primitive.node) if self.kind.is_autodiff else None)

    def grad_remove(self, grads):
        """Take this tensor's gradient out of `grads`."""
        _gradients("grad_remove", grads)
        return self._plain_grad(
            grads.remove(self.primitive.node) if self.kind.is_autodiff else None
        )

    def grad_replace(self, grads, grad) -> None:
        """Store `grad` (a plain float tensor of the same backend) as this tensor's gradient."""
        _gradients("grad_replace", grads)
        if not isinstance(grad, TensorBase):
            raise TypeError(
                f"grad_replace(): the gradient must be a Tensor, got {type(grad).__name__}"
            )
        if not self.kind.is_autodiff:
            raise TypeError("grad_replace() needs an autodiff float tensor")
        if (
            grad.kind.backend_tensor is not BackendTensor.Float
            or grad.kind.variant != self.kind.variant
        ):
            raise TypeError(
                f"grad_replace() needs a plain float tensor of the {self.kind.variant} backend, "
                f"got {grad.kind!r}; pass `g.inner()` for an autodiff gradient"
            )
        if grad.shape != self.shape or grad.dtype != self.dtype:
            raise ValueError(
                f"grad_replace(): the gradient of a {self.dtype} tensor of shape "
                f"{list(self.shape)} must have that dtype and shape, got {grad.dtype} "
                f"{list(grad.shape)}"
            )
        if grad.device() != self.device():
            raise ValueError(
                f"grad_replace(): the gradient is on {grad.device()} but the tensor on "
                f"{self.device()}; move it with `g.to_device(t.device())`"
            )
        grads.replace(self.primitive.node, grad.primitive)

    def _plain_grad(self, primitive):
        if primitive is None:
            return None
        return type(self)(self.kind.float_kind, primitive, DISABLED)

    def inner(self):
        """The same data without autodiff (burn's `inner()`): a plain tensor, detached."""
        if self.kind.is_autodiff:
            return type(self)(self.kind.float_kind, self.primitive.primitive, DISABLED)
        return type(self)(self.kind, self.primitive, DISABLED)

    without_autodiff = inner

    def autodiff(self):
        """The tensor on its device's autodiff counterpart (an untracked leaf for a float);
        idempotent."""
        device = self.device()
        return self if device.is_autodiff() else self.to_device(device.autodiff())

    # -- kind conversions (burn-tensor's int(), float(), bool()) -----------------------------
    def int(self, dtype=None):
        return (
            self if self.kind.tensor_kind is INT and dtype is None else self.into_int(dtype=dtype)
        )

    def float(self, dtype=None):
        if self.kind.tensor_kind is FLOAT:
            return self if dtype is None else self.cast(dtype)
        return self.into_float(dtype=dtype)

    def bool(self):
        """Non-zero -> true (burn: `not_equal_elem(0)`)."""
        return self if self.kind.tensor_kind is BOOL else self.not_equal_elem(0)

    # -- operators with a scalar on either side -----------------------------------------------
    def __radd__(self, other):
        return self.add(other)

    def __rmul__(self, other):
        return self.mul(other)

    def __rsub__(self, other):
        return self.neg().add(other)

    def __rtruediv__(self, other):
        return self.full_like(other).div(self)

    # A comparison between tensors of different ranks that would broadcast to more elements
    # than either holds is refused: it is PyTorch's accuracy idiom meeting burn's kept dims
    # (`argmax(1)` is [N, 1], the targets [N]: [N, N] booleans, a mean that is silently wrong).
    def __eq__(self, other):
        if is_scalar(other):
            return self.equal_elem(other)
        return self.equal(_compared("==", self, other))

    def __ne__(self, other):
        if is_scalar(other):
            return self.not_equal_elem(other)
        return self.not_equal(_compared("!=", self, other))

    def __gt__(self, other):
        if is_scalar(other):
            return self.greater_elem(other)
        return self.greater(_compared(">", self, other))

    def __ge__(self, other):
        if is_scalar(other):
            return self.greater_equal_elem(other)
        return self.greater_equal(_compared(">=", self, other))

    def __lt__(self, other):
        if is_scalar(other):
            return self.lower_elem(other)
        return self.lower(_compared("<", self, other))

    def __le__(self, other):
        if is_scalar(other):
            return self.lower_equal_elem(other)
        return self.lower_equal(_compared("<=", self, other))

    # -- Python indexing ----------------------------------------------------------------------
    @property
    def T(self):
        """The last two dims swapped: burn's `transpose` (not numpy's reversal of every dim)."""
        return self.transpose()

    def __getitem__(self, key):
        """numpy-style reading: ints drop their dim, Python slices keep Python's meaning, `...`
        stands for the dims not named, None inserts a dim of size 1, and int lists, arrays or
        Int tensors pick positions (numpy's advanced indexing: several broadcast together, their
        dims go where the first one is if they are adjacent, else first). A Bool tensor selects
        (`mask_select`). Built on `slice`, `select`, `permute` and `reshape`, so differentiable;
        the result is a new tensor."""
        if isinstance(key, TensorBase) and key.kind.tensor_kind is BOOL:
            with user_call("t[mask]"):
                return self.mask_select(key)
        if isinstance(key, TensorBase) and key.ndim == 1:
            return self.select(0, key)
        entries = list(key) if isinstance(key, tuple) else [key]
        ellipses = [i for i, entry in enumerate(entries) if entry is Ellipsis]  # not `==`
        if len(ellipses) > 1:
            raise ValueError("t[...]: an index can hold one `...`")
        named = sum(entry is not None and entry is not Ellipsis for entry in entries)
        if named > self.ndim:
            raise IndexOutOfRange(
                f"t[...]: too many indices ({named}) for a tensor of rank {self.ndim} (shape "
                f"{list(self.shape)})"
            )
        at = ellipses[0] if ellipses else len(entries)
        entries[at : at + 1] = [slice(None)] * (self.ndim - named)
        # beside an int list, an int is one too (numpy's rule, which decides where dims go)
        arrays = any(not _basic(entry) for entry in entries)
        slices, advanced, shape = [], {}, self.shape
        for entry in entries:
            if entry is None:
                continue
            dim, size = len(slices), shape[len(slices)]
            if isinstance(entry, slice):
                slices.append(entry)
            elif _basic(entry) and not arrays:
                slices.append(_position(int(entry), dim, size))
            else:
                advanced[dim] = _positions(entry, dim, size)
                slices.append(slice(None))
        result = self.slice(slices) if any(s != slice(None) for s in slices) else self
        return _reshaped(_picked(result, advanced), entries, advanced, result.shape)

    def __setitem__(self, key, value):
        """`t[key] = value`, PyTorch's habit: `key` as `t[key]` reads it (ints, slices, `...`,
        None, int lists, arrays or Int tensors, or a Bool mask), `value` a number or a tensor (or
        array) broadcastable to the selection; where a position is picked twice the last value
        wins. The tensor object takes the new value, a new tensor computed by `mask_fill` or
        `select_assign`: on an autodiff device the assignment is recorded (gradients flow to
        the kept elements and to `value`), and tensors made from the old value keep it (no
        views). A require_grad() leaf refuses, as PyTorch's leaves do, but under `no_grad`,
        where it stays a leaf that requires grad."""
        leaf = self.is_require_grad()  # Grad is a leaf's requirement only
        if leaf and not GRAD_MODE.paused:
            raise RuntimeError(
                "t[...] = value: t is a require_grad() leaf, whose gradient would then be "
                "that of another tensor; assign inside `with no_grad():` (as to initialise a "
                "parameter), or assign to a tensor computed from it"
            )
        base = self
        if isinstance(value, TensorBase) and value.is_autodiff() and not self.is_autodiff():
            base = self.to_device(value.device())  # tracked from now on, as PyTorch's
        positions = _assigned_positions(base, key)
        mask = np.zeros(self.shape, dtype=bool)
        mask.reshape(-1)[positions.reshape(-1)] = True
        mask = type(self).from_data(mask, device=self.device().inner())
        if is_scalar(value):
            result = base.mask_fill(mask, value)
        else:
            result = _assigned(base, positions, _value_for(base, value, positions.shape))
        if leaf:
            result = result.detach().require_grad()
        self.kind, self.primitive, self.context = result.kind, result.primitive, result.context

    def full_like(self, fill_value):
        """A tensor of this one's shape, dtype and device, filled with `fill_value`."""
        return type(self).full(self.shape, fill_value, device=self.device(), dtype=self.dtype)


def _assigned_positions(tensor, key) -> np.ndarray:
    """The flat positions `tensor[key]` reads, in the selection's shape (numpy picks them
    from the positions' own array, so every index numpy reads means what it means there)."""
    if isinstance(key, TensorBase):
        key = key.to_numpy()
    elif isinstance(key, tuple):
        key = tuple(k.to_numpy() if isinstance(k, TensorBase) else k for k in key)
    try:
        return np.arange(tensor.numel(), dtype=np.int64).reshape(tensor.shape)[key]
    except IndexError as error:
        raise IndexOutOfRange(
            f"t[...] = value: {error} (t has shape {list(tensor.shape)})"
        ) from None


def _value_for(tensor, value, shape):
    """`value` as a tensor of `tensor`'s kind, dtype and device, broadcast to `shape`."""
    if not isinstance(value, TensorBase):
        value = type(tensor).from_data(
            np.asarray(value, dtype=tensor.dtype), device=tensor.device().inner()
        )
    kind = tensor.kind.tensor_kind
    if value.kind.tensor_kind is not kind:
        value = {FLOAT: value.float, INT: value.int, BOOL: value.bool}[kind]()
    if kind is not BOOL and value.dtype != tensor.dtype:
        value = value.cast(tensor.dtype)
    if tensor.is_autodiff() and not value.is_autodiff():
        value = value.to_device(tensor.device())
    shape = list(shape)
    try:
        fits = value.ndim <= len(shape) and np.broadcast_shapes(value.shape, shape) == tuple(shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"t[...] = value: a value of shape {list(value.shape)} does not broadcast to the "
            f"selection's shape {shape}"
        )
    if list(value.shape) != shape:
        value = value.reshape([1] * (len(shape) - value.ndim) + list(value.shape)).expand(shape)
    return value


def _assigned(tensor, positions: np.ndarray, value):
    """`tensor` with the flat `positions` set to `value`'s elements (the last value of a
    position picked twice)."""
    flat = positions.reshape(-1)
    values = value.reshape([-1])
    unique, last = np.unique(flat[::-1], return_index=True)
    last = flat.size - 1 - last
    inner = tensor.device().inner()
    if unique.size != flat.size or np.any(last != np.arange(flat.size)):
        values = values.select(0, type(tensor).from_data(last, device=inner, dtype="int64"))
    indices = type(tensor).from_data(unique, device=inner, dtype="int64")
    if tensor.kind.tensor_kind is BOOL:
        assigned = tensor.int().reshape([-1]).select_assign(0, indices, values.int(), "assign")
        return assigned.reshape(list(tensor.shape)).bool()
    assigned = tensor.reshape([-1]).select_assign(0, indices, values, "assign")
    return assigned.reshape(list(tensor.shape))


def _compared(operator: str, tensor, other):
    """`other`, unless comparing it with `tensor` broadcasts their different ranks into more
    elements than either has (an outer product no comparison means)."""
    if not isinstance(other, TensorBase) or other.ndim == tensor.ndim:
        return other
    try:
        shape = np.broadcast_shapes(tensor.shape, other.shape)
    except ValueError:
        return other  # the op itself says why they do not broadcast
    if int(np.prod(shape)) > max(tensor.numel(), other.numel()):
        low, high = sorted((tensor, other), key=lambda t: t.ndim)
        raise ValueError(
            f"`{operator}` between tensors of shapes {list(tensor.shape)} and "
            f"{list(other.shape)} (ranks {tensor.ndim} and {other.ndim}) would broadcast to "
            f"{list(shape)}, comparing every element of one with every element of the other; "
            f"give them the same rank first, e.g. `a.reshape({list(low.shape)})` for the "
            f"[{', '.join(map(str, high.shape))}] one: burn's reductions keep their dim, so "
            "`logits.argmax(1)` is [N, 1]; compare `logits.argmax(1).reshape([-1]) == y`"
        )
    return other


# PyTorch's Tensor names -> what burnpy calls
_HABITS = {
    "view": "t.reshape(shape)",
    "view_as": "t.reshape(list(other.shape))",
    "reshape_as": "t.reshape(list(other.shape))",
    "clone": "t itself: ops return new tensors and never share data, so there is nothing to "
    "copy (`t.detach()` for a leaf cut from the graph)",
    "contiguous": "t itself (there are no strided views)",
    "numpy": "t.to_numpy()",
    "size": "t.shape (a tuple; t.shape[dim] for one dim)",
    "dim": "t.ndim",
    "to": "t.to_device(device) to move it, t.cast(dtype) to change its dtype",
    "cpu": "t.to_device(Device.numpy()) or Device.torch(), or t.to_numpy() for the data",
    "cuda": 't.to_device(Device.torch("cuda"))',
    "requires_grad_": "t = t.require_grad() (a new handle: tensors are values)",
    "requires_grad": "t.is_require_grad()",
    "zero_grad": "nothing: `loss.backward()` returns fresh Gradients each time",
    "grad_fn": "t.is_tracked()",
    "long": 't.int() (or t.int("int64"))',
    "double": 't.cast("float64")',
    "half": 't.cast("float16")',
    "type": "t.cast(dtype)",
    "unsqueeze_": "t = t.unsqueeze_dim(dim)",
    "masked_fill": "t.mask_fill(mask, value)",
    "where": "t.mask_where(mask, value)",
    "norm": "(t * t).sum().sqrt()",
    "exp_": "t = t.exp() (burnpy has no in-place ops; `t[...] = value` assigns)",
    "add_": "t = t.add(other) (burnpy has no in-place ops; `t[...] = value` assigns)",
    "mul_": "t = t.mul(other) (burnpy has no in-place ops; `t[...] = value` assigns)",
    "zero_": "t = t.zeros_like() (burnpy has no in-place ops; `t[...] = value` assigns)",
    "fill_": "t = t.full_like(value) (burnpy has no in-place ops; `t[...] = value` assigns)",
    "copy_": "t[...] = other",
    "data": "t.detach() (or t.inner() for the plain tensor)",
    "is_leaf": "not t.is_tracked() or t.is_require_grad()",
}

_CLASS_HABITS = {
    "randn": "Tensor.random(shape, Distribution.normal(0.0, 1.0), device=device)",
    "rand": "Tensor.random(shape, Distribution.default(), device=device)",
    "randint": "Tensor.random(shape, Distribution.uniform(low, high), device=device, "
    'dtype="int64")',
    "from_numpy": "Tensor.from_data(array, device=device) (a copy), or Tensor.from_dlpack(array) "
    "to share its memory",
    "tensor": "Tensor.from_data(data, device=device)",
    "as_tensor": "Tensor.from_data(data, device=device)",
    "zeros_like": "t.zeros_like()",
    "ones_like": "t.ones_like()",
    "linspace": "Tensor.arange(...) scaled, or Tensor.from_data(np.linspace(...))",
    "manual_seed": "device.seed(n)",
}


class _Habit:
    """A name the Tensor (or its class) lacks that a PyTorch user reaches for: reading it raises
    the AttributeError Python would, plus what to write instead. A non-data descriptor, found
    only where the name is missing: no other attribute read passes through it."""

    __slots__ = ("name", "advice", "on_class")

    def __init__(self, name: str, advice: str, on_class: bool = False):
        self.name, self.advice, self.on_class = name, advice, on_class

    def __get__(self, instance, owner=None):
        # on the metaclass, `instance` is the class; on the class, None when read from it
        cls = instance if self.on_class else owner if instance is None else None
        where = (
            f"{type(instance).__name__!r} object"
            if cls is None
            else f"type object {cls.__name__!r}"
        )
        raise AttributeError(f"{where} has no attribute {self.name!r}; {self.advice}")


def _is_habit(cls: type, name: str) -> bool:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return isinstance(klass.__dict__[name], _Habit)
    return False


def teach_in_place_names(cls: type) -> None:
    """`t.relu_` for every method `relu` of the Tensor class: burnpy has no in-place ops. The
    generated Tensor calls it once its methods are set."""
    for name in dir(cls):
        if name.startswith("_") or name.endswith("_"):
            continue
        if inspect.getattr_static(cls, f"{name}_", None) is None and callable(
            inspect.getattr_static(cls, name)
        ):
            advice = (
                f"burnpy has no in-place ops: `t = t.{name}(...)`, or `t[...] = value` to assign "
                "to a selection"
            )
            setattr(cls, f"{name}_", _Habit(f"{name}_", advice))


for _name, _equivalent in _HABITS.items():
    setattr(TensorBase, _name, _Habit(_name, f"burnpy's equivalent: {_equivalent}"))
for _name, _equivalent in _CLASS_HABITS.items():
    setattr(_TensorType, _name, _Habit(_name, f"burnpy's equivalent: {_equivalent}", on_class=True))
del _name, _equivalent


def _gradients(method: str, grads) -> None:
    if not isinstance(grads, Gradients):
        raise TypeError(
            f"{method}() takes the Gradients that `loss.backward()` returned, got "
            f"{type(grads).__name__}"
        )


def _basic(entry) -> bool:
    """A slice, None, `...` or an int: numpy's basic indexing."""
    is_int = isinstance(entry, int | np.integer) and not isinstance(entry, bool)
    return is_int or entry is None or entry is Ellipsis or isinstance(entry, slice)


def _position(index: int, dim: int, size: int) -> int:
    if not -size <= index < size:
        raise IndexOutOfRange(
            f"t[...]: index {index} is out of range for dim {dim} of size {size} (valid: "
            f"{-size} to {size - 1})"
        )
    return index % size


def _positions(entry, dim: int, size: int) -> np.ndarray:
    """An advanced index (an int list or array, or an Int tensor) as int64 positions in range."""
    if isinstance(entry, TensorBase):
        if entry.kind.tensor_kind is not INT:
            raise TypeError(
                f"t[...]: a tensor inside an index must be an Int tensor, got "
                f"{entry.kind.tensor_kind.value}; a Bool mask indexes alone, as `t[mask]`"
            )
        entry = entry.to_numpy()
    values = np.asarray(entry)
    if values.dtype == object or not (values.size == 0 or np.issubdtype(values.dtype, np.integer)):
        raise TypeError(
            "t[...]: an index holds ints, slices, `...`, None, and int lists, arrays or Int "
            f"tensors; got {type(entry).__name__} {entry!r}"
        )
    values = values.astype(np.int64)
    bad = values[(values < -size) | (values >= size)]
    if bad.size:
        _position(int(bad[0]), dim, size)
    return values % size if size else values


def _picked(tensor, advanced: dict):
    """The positions of the advanced indices, broadcast together: their dims are moved first,
    merged into one and selected from, giving [positions, *other dims]."""
    if not advanced:
        return tensor
    dims = list(advanced)
    try:
        positions = np.broadcast_arrays(*advanced.values())
    except ValueError:
        shapes = " and ".join(str(list(a.shape)) for a in advanced.values())
        raise IndexError(
            f"t[...]: the int lists or arrays of one index must broadcast together, got shapes "
            f"{shapes}"
        ) from None
    others = [d for d in range(tensor.ndim) if d not in advanced]
    if dims + others != list(range(tensor.ndim)):
        tensor = tensor.permute(dims + others)
    sizes = [tensor.shape[i] for i in range(len(dims))]
    merged = tensor.reshape([int(np.prod(sizes))] + list(tensor.shape[len(dims) :]))
    flat = np.ravel_multi_index(positions, sizes).reshape(-1) if positions[0].size else []
    index = type(tensor).from_data(flat, device=tensor.device().inner(), dtype="int64")
    return merged.select(0, index)


def _reshaped(tensor, entries, advanced: dict, sliced: tuple):
    """The result in numpy's layout: int dims dropped, None dims inserted, the advanced indices'
    broadcast shape where the first of them is (adjacent ones) or first (else)."""
    picked = list(np.broadcast_shapes(*(a.shape for a in advanced.values()))) if advanced else []
    dims = sorted(advanced)
    adjacent = dims == list(range(dims[0], dims[0] + len(dims))) if dims else True
    shape, dim, placed = [], 0, False
    for entry in entries:
        if entry is None:
            shape.append(1)
            continue
        if dim in advanced:
            if adjacent and not placed:
                shape += picked
            placed = True
        elif isinstance(entry, slice):
            shape.append(sliced[dim])
        dim += 1
    if not adjacent:
        shape = picked + shape
    if advanced and adjacent and dims[0] > 0:  # [positions, *others] -> the positions at dims[0]
        before = dims[0]
        order = list(range(1, before + 1)) + [0] + list(range(before + 1, tensor.ndim))
        tensor = tensor.permute(order)
    return tensor if list(tensor.shape) == shape else tensor.reshape(shape)


def _rebuild(cls, values, device, require_grad):
    tensor = cls.from_data(values, device=device, dtype=values.dtype)
    return tensor.require_grad() if require_grad else tensor


def _rebuild_quantized(cls, values, scales, scheme, device):
    return cls.from_quantized(values, scales, scheme, device=device)
