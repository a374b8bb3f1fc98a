"""The hand-written part of the Tensor API: identity, data access, autodiff handles, checks.

The op methods are generated from ops.yaml into `generated/tensor.py`, on a subclass of
TensorBase. A Tensor *is* the DispatchTensor the generated dispatch functions take and return.
"""

import numpy as np

from runtime.autodiff import graph
from runtime.backends import backend_for
from runtime.device import AutodiffDevice, Device
from runtime.dispatch import DISABLED, BackendTensor, DispatchTensor, TensorKind, kinds_of
from runtime.errors import (
    BACKWARD_NEEDS_TRACKED,
    REQUIRE_GRAD_NEEDS_AUTODIFF,
    BurnPanic,
    IndexOutOfRange,
)
from runtime.indexing import IndexingUpdateOp

FLOAT, INT, BOOL = TensorKind.Float, TensorKind.Int, TensorKind.Bool
DEFAULT_DTYPE = {
    FLOAT: np.dtype("float32"),
    INT: np.dtype("int64"),
    BOOL: np.dtype("bool"),
}
SUPPORTED_DTYPES = {
    np.dtype("float32"): FLOAT,
    np.dtype("float64"): FLOAT,
    np.dtype("float16"): FLOAT,
    np.dtype("int32"): INT,
    np.dtype("int64"): INT,
    np.dtype("bool"): BOOL,
}


class TensorBase(DispatchTensor):
    __slots__ = ()

    # -- what it is ---------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return tuple(self.inner_primitive().shape)

    @property
    def dtype(self) -> np.dtype:
        return backend_for(self.kind.variant).dtype(self.inner_primitive())

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
        return np.array(backend_for(self.kind.variant).to_numpy(self.inner_primitive()))

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("a Tensor cannot be viewed as numpy without a copy; pass copy=None")
        array = self.to_numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def tolist(self):
        return self.to_numpy().tolist()

    def item(self):
        if self.numel() != 1:
            raise ValueError(f"item() needs a tensor with one element, got shape {self.shape}")
        return self.to_numpy().reshape(()).item()

    def __bool__(self):
        if self.numel() != 1:
            raise ValueError(
                f"the truth value of a tensor of shape {self.shape} is ambiguous; "
                "use .any() or .all(), or compare its one element"
            )
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a rank-0 tensor")
        return self.shape[0]

    __hash__ = object.__hash__  # identity: `==` builds a Bool tensor

    def __repr__(self):
        data = np.array2string(self.to_numpy(), separator=", ", threshold=20)
        return (
            f"Tensor(data={data}, shape={list(self.shape)}, kind={self.kind.tensor_kind.value}, "
            f"dtype={self.dtype}, device={self.device()})"
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

    def detach(self):
        """A new leaf on the same data: no graph edge; a Grad leaf stays a Grad leaf."""
        if not self.kind.is_autodiff:
            return self
        return type(self)(self.kind, self.primitive.detach(), self.context)

    def backward(self):
        """Run backward from this tensor; returns the Gradients of the Grad leaves it reaches."""
        if not (self.kind.is_autodiff and self.primitive.is_tracked()):
            raise BurnPanic(
                BACKWARD_NEEDS_TRACKED,
                "make the source leaf with `Tensor.from_data(..., device=device.autodiff())"
                ".require_grad()`",
            )
        return graph.backward(self.primitive, backend_for(self.kind.variant))

    def grad(self, grads):
        """This tensor's gradient as a plain tensor on the inner device, or None."""
        return self._plain_grad(grads.get(self.primitive.node) if self.kind.is_autodiff else None)

    def grad_remove(self, grads):
        """Take this tensor's gradient out of `grads`."""
        return self._plain_grad(
            grads.remove(self.primitive.node) if self.kind.is_autodiff else None
        )

    def grad_replace(self, grads, grad) -> None:
        """Store `grad` (a plain float tensor of the same backend) as this tensor's gradient."""
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
        grads.replace(self.primitive.node, grad.primitive)

    def _plain_grad(self, primitive):
        if primitive is None:
            return None
        return type(self)(kinds_of(self.kind.variant)[BackendTensor.Float], primitive, DISABLED)

    def inner(self):
        """The same data without autodiff (burn's `inner()`): a plain tensor, detached."""
        if self.kind.is_autodiff:
            return type(self)(
                kinds_of(self.kind.variant)[BackendTensor.Float], self.primitive.primitive, DISABLED
            )
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

    def __eq__(self, other):
        return self.equal_elem(other) if is_scalar(other) else self.equal(other)

    def __ne__(self, other):
        return self.not_equal_elem(other) if is_scalar(other) else self.not_equal(other)

    def __gt__(self, other):
        return self.greater_elem(other) if is_scalar(other) else self.greater(other)

    def __ge__(self, other):
        return self.greater_equal_elem(other) if is_scalar(other) else self.greater_equal(other)

    def __lt__(self, other):
        return self.lower_elem(other) if is_scalar(other) else self.lower(other)

    def __le__(self, other):
        return self.lower_equal_elem(other) if is_scalar(other) else self.lower_equal(other)

    # -- Python indexing ----------------------------------------------------------------------
    def __getitem__(self, key):
        """numpy-style reading: ints drop their dim, Python slices keep Python's meaning, `...`
        stands for the dims not named; a Bool tensor selects (`mask_select`), an Int tensor
        selects rows of dim 0 (`select`). Built on `slice`; the result is a new tensor."""
        if isinstance(key, TensorBase):
            if key.kind.tensor_kind is BOOL:
                return self.mask_select(key)
            return self.select(0, key)
        entries = list(key) if isinstance(key, tuple) else [key]
        if entries.count(Ellipsis) > 1:
            raise ValueError("an index can hold one `...`")
        if Ellipsis in entries:
            at = entries.index(Ellipsis)
            entries[at : at + 1] = [slice(None)] * (self.ndim - len(entries) + 1)
        if len(entries) > self.ndim:
            raise IndexOutOfRange(
                f"too many indices ({len(entries)}) for a tensor of rank {self.ndim}"
            )
        kept = []
        for dim, entry in enumerate(entries):
            if isinstance(entry, slice):
                kept.append(dim)
            elif not isinstance(entry, int | np.integer) or isinstance(entry, bool):
                raise TypeError(
                    f"a tensor index holds ints, slices and `...`, got {type(entry).__name__}"
                )
        result = self.slice(entries)
        if len(kept) == len(entries):
            return result
        kept += range(len(entries), self.ndim)
        return result.reshape([result.shape[d] for d in kept] if kept else [])

    def full_like(self, fill_value):
        """A tensor of this one's shape, dtype and device, filled with `fill_value`."""
        return type(self).full(self.shape, fill_value, device=self.device(), dtype=self.dtype)


# -- argument checks shared by the generated methods ---------------------------------------


def dtype_arg(dtype, default_kind: TensorKind | None = None) -> np.dtype:
    """A supported numpy dtype from anything numpy.dtype() takes."""
    if dtype is None:
        return DEFAULT_DTYPE[default_kind or FLOAT]
    try:
        resolved = np.dtype(dtype)
    except TypeError as error:
        raise TypeError(f"{dtype!r} is not a dtype: {error}") from None
    if resolved not in SUPPORTED_DTYPES:
        names = ", ".join(str(d) for d in SUPPORTED_DTYPES)
        raise TypeError(f"dtype {resolved} is not supported; use one of {names}")
    return resolved


def kind_of_dtype(dtype: np.dtype) -> TensorKind:
    return SUPPORTED_DTYPES[dtype]


def device_arg(device) -> "Device":
    if device is None:
        return Device.numpy()
    if not isinstance(device, Device):
        raise TypeError(f"device= takes a Device, got {type(device).__name__}; e.g. Device.numpy()")
    return device


def shape_arg(shape) -> tuple:
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(f"a shape is a list or tuple of ints, got {shape!r}") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"a shape has no negative sizes, got {list(shape)}")
    return shape


def infer_data_dtype(data, dtype) -> np.dtype:
    """from_data: Python floats -> float32, ints -> int64, bools -> bool; arrays keep theirs."""
    if dtype is not None:
        return dtype_arg(dtype)
    if isinstance(data, TensorBase):
        return data.dtype
    array = np.asarray(data)
    if array.dtype in SUPPORTED_DTYPES and isinstance(data, np.ndarray | np.generic):
        return array.dtype
    if array.dtype.kind == "b":
        return DEFAULT_DTYPE[BOOL]
    if array.dtype.kind in "iu":
        return DEFAULT_DTYPE[INT]
    if array.dtype.kind == "f":
        return DEFAULT_DTYPE[FLOAT]
    raise TypeError(f"cannot make a tensor from {type(data).__name__} data of dtype {array.dtype}")


def fill_dtype(value, dtype) -> np.dtype:
    if dtype is not None:
        return dtype_arg(dtype)
    if isinstance(value, bool | np.bool_):
        return DEFAULT_DTYPE[BOOL]
    if isinstance(value, int | np.integer):
        return DEFAULT_DTYPE[INT]
    return DEFAULT_DTYPE[FLOAT]


def dim_arg(tensor, dim) -> int:
    """A dim index, negative counting from the end, checked against the rank."""
    rank = tensor.ndim
    if not isinstance(dim, int | np.integer) or not -rank <= dim < max(rank, 1):
        raise ValueError(f"dim {dim!r} is out of range for a tensor of rank {rank}")
    return int(dim) % max(rank, 1)


def same_kind(op: str, lhs, rhs) -> None:
    """Two tensors in one op: same kind and same dtype, no silent promotion."""
    if not isinstance(rhs, TensorBase):
        raise TypeError(f"{op}: expected a Tensor, got {type(rhs).__name__}")
    lk, rk = lhs.kind, rhs.kind
    if lk.tensor_kind is rk.tensor_kind:
        a = lhs.primitive.primitive if lk.is_autodiff else lhs.primitive
        b = rhs.primitive.primitive if rk.is_autodiff else rhs.primitive
        if a.dtype is b.dtype or a.dtype == b.dtype or lhs.dtype == rhs.dtype:
            return  # (tensors of two backends meet the dispatch layer's clearer error)
        raise TypeError(
            f"{op}: dtypes differ ({lhs.dtype} and {rhs.dtype}); "
            f"convert one with `t.cast('{lhs.dtype}')`"
        )
    fix = {FLOAT: "float()", INT: "int()", BOOL: "bool()"}[lk.tensor_kind]
    raise TypeError(
        f"{op}: cannot mix a {lk.tensor_kind.value} tensor with a {rk.tensor_kind.value} "
        f"tensor; convert one with `t.{fix}`"
    )


def scalar_for(op: str, tensor, value):
    """A Python scalar cast to the tensor's kind (no NEP 50 upcast)."""
    kind = tensor.kind.tensor_kind
    if not is_scalar(value):
        raise TypeError(f"{op}: expected a Tensor or a number, got {type(value).__name__}")
    if kind is FLOAT:
        return float(value)
    if kind is INT:
        if isinstance(value, float) and not value.is_integer():
            raise TypeError(f"{op}: an Int tensor takes an integer scalar, got {value!r}")
        return int(value)
    return bool(value)


def is_scalar(value) -> bool:
    return isinstance(value, int | float | bool | np.number | np.bool_)


def kind_error(op: str, tensor, expected) -> TypeError:
    names = "/".join(k.value for k in expected)
    return TypeError(
        f"{op} is not defined for a {tensor.kind.tensor_kind.value} tensor (it takes {names})"
    )


__all__ = ["TensorBase", "AutodiffDevice"]


def data_arg(data):
    """from_data's data: nested lists, numpy arrays, scalars, or another tensor's values."""
    return data.to_numpy() if isinstance(data, TensorBase) else data


def dims_arg(tensor, dims) -> tuple:
    dims = tuple(dim_arg(tensor, d) for d in dims)
    if len(set(dims)) != len(dims):
        raise ValueError(f"dims {list(dims)} repeat a dim")
    return dims


def view_shape_arg(tensor, shape) -> tuple:
    """A new shape for the tensor's elements; one -1 is inferred."""
    shape = tuple(int(s) for s in ((shape,) if isinstance(shape, int) else shape))
    numel = tensor.numel()
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"reshape: {list(shape)} may hold one -1 and no other negative size")
    known = 1
    for s in shape:
        known *= s if s != -1 else 1
    if -1 in shape:
        if known == 0 or numel % known:
            raise ValueError(f"reshape: cannot infer -1 in {list(shape)} for {numel} elements")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise ValueError(
            f"reshape: {list(shape)} holds {known} elements but the tensor has {numel} "
            f"(shape {list(tensor.shape)})"
        )
    return shape


def slices_arg(tensor, slices) -> tuple:
    """burn's `SliceArg`, resolved: one (start, end, step) per dim with 0 <= start <= end <=
    size, the dims after the given entries taken whole.

    An entry is an int i (row i, the dim kept with size 1, as burn's `Slice::index`), None (the
    whole dim), a Python `slice` (Python's meaning: `slice(3, 0, -1)` is 3, 2, 1), or a
    `(start, end[, step])` tuple with burn's meaning: the range start..end (negative bounds
    count from the end, `end` None is the end), walked backwards when the step is negative:
    `(0, 5, -1)` is 4, 3, 2, 1, 0 (burn's `s![0..5;-1]`)."""
    if not isinstance(slices, list | tuple):
        slices = [slices]
    shape = tensor.shape
    if len(slices) > len(shape):
        raise ValueError(
            f"slice: {len(slices)} entries for a tensor of rank {len(shape)} (shape "
            f"{list(shape)}); give at most one per dim"
        )
    resolved = []
    for dim, size in enumerate(shape):
        entry = slices[dim] if dim < len(slices) else None
        resolved.append(_resolve_slice(entry, dim, size))
    return tuple(resolved)


def _resolve_slice(entry, dim: int, size: int) -> tuple:
    if entry is None:
        return (0, size, 1)
    if isinstance(entry, int | np.integer) and not isinstance(entry, bool):
        index = int(entry) + size if entry < 0 else int(entry)
        if not 0 <= index < size:
            raise IndexOutOfRange(
                f"index {int(entry)} is out of range for dim {dim} of size {size}"
            )
        return (index, index + 1, 1)
    if isinstance(entry, slice):
        if entry.step == 0:
            raise ValueError(f"slice: dim {dim} has a step of 0; a step is non-zero")
        start, stop, step = entry.indices(size)
        if step > 0:
            return (start, max(start, stop), step)
        # Python walks start, start + step, ... while > stop: burn's range stop+1..start+1
        # walked backwards
        return (stop + 1, max(stop + 1, start + 1), step)
    if isinstance(entry, list | tuple) and len(entry) in (2, 3):
        start, end = entry[0], entry[1]
        step = entry[2] if len(entry) == 3 else 1
        if step == 0:
            raise ValueError(f"slice: dim {dim} has a step of 0; a step is non-zero")
        start = _clamp(0 if start is None else start, size)
        end = size if end is None else _clamp(end, size)
        return (start, max(start, end), int(step))
    raise TypeError(
        f"slice: entry {entry!r} for dim {dim} is not an int, None, a slice or a "
        "(start, end[, step]) tuple"
    )


def _clamp(index, size: int) -> int:
    """burn's `convert_signed_index`: negative counts from the end; clamped into 0..=size."""
    index = int(index)
    return max(size + index, 0) if index < 0 else min(index, size)


def update_arg(update) -> IndexingUpdateOp:
    return IndexingUpdateOp.of(update)


def distribution_arg(distribution):
    from runtime.distribution import Distribution

    if distribution is None:
        return Distribution.default()
    if not isinstance(distribution, Distribution):
        raise TypeError("distribution= takes a Distribution, e.g. Distribution.normal(0.0, 1.0)")
    return distribution


def tensors_arg(tensors) -> list:
    tensors = list(tensors)
    if not tensors:
        raise ValueError("expected at least one tensor")
    first = tensors[0]
    for other in tensors[1:]:
        same_kind("cat", first, other)
    return tensors


def expect_kind(op: str, tensor, kind: TensorKind) -> None:
    if not isinstance(tensor, TensorBase) or tensor.kind.tensor_kind is not kind:
        got = (
            tensor.kind.tensor_kind.value
            if isinstance(tensor, TensorBase)
            else type(tensor).__name__
        )
        raise TypeError(f"{op}: expected a {kind.value} tensor, got {got}")


def dtype_error(op: str, dtype, kinds) -> TypeError:
    names = "/".join(k.value for k in kinds)
    return TypeError(f"{op} makes {names} tensors; dtype {dtype} is not one of them")


def check_dtype(op: str, dtype, supported: tuple) -> None:
    """An op that supports fewer dtypes than its kind has (ops.yaml `dtypes`)."""
    if str(dtype) not in supported:
        raise TypeError(f"{op} does not support {dtype}; it takes {', '.join(supported)}")
