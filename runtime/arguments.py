"""The argument checks and conversions the generated Tensor methods apply: what a user may
pass (lists or tuples, negative dims, any numpy-dtype spelling, Python scalars) becomes what
the dispatch functions take, or a TypeError / ValueError that says what was expected.

The home of every argument check: the composed methods (runtime/composed/checks.py) and the
burnpy layers use its rules (`is_int`, `what`) and its table of fixes (`CONVERT`), so a value
is judged, and a mistake worded, the same way everywhere."""

import math
import sys

import numpy as np

from burnpy.runtime.device import Device
from burnpy.runtime.dispatch import CONVERT, DispatchTensor, TensorKind
from burnpy.runtime.dtypes import DTYPES
from burnpy.runtime.distribution import Distribution
from burnpy.runtime.errors import IndexOutOfRange
from burnpy.runtime.indexing import IndexingUpdateOp
from burnpy.runtime.quantization.scheme import QuantScheme
from burnpy.runtime.values import is_int, what

FLOAT, INT, BOOL = TensorKind.Float, TensorKind.Int, TensorKind.Bool
# Each kind's default dtype: the first of its dtypes.
DEFAULT_DTYPE = {
    TensorKind(kind.capitalize()): np.dtype(names[0]) for kind, names in DTYPES.items()
}
# The supported dtypes, in the order messages list them, and their kinds.
SUPPORTED_DTYPES = {
    name: TensorKind(kind.capitalize()) for kind, names in DTYPES.items() for name in names
}
# bfloat16 is numpy's through ml_dtypes, which takes a second to import, so it is imported when
# first needed: to parse the name "bfloat16", or to know a dtype not found here (an array of
# bfloat16 exists only once ml_dtypes is imported).
_KINDS = {np.dtype(name): kind for name, kind in SUPPORTED_DTYPES.items() if name != "bfloat16"}


def supported_kind(dtype: np.dtype) -> TensorKind | None:
    """The kind of a supported numpy dtype; None for another."""
    kind = _KINDS.get(dtype)
    if kind is None and "ml_dtypes" in sys.modules:
        kind = _with_bfloat16().get(dtype)
    return kind


def _with_bfloat16() -> dict:
    import ml_dtypes  # registers bfloat16 with numpy: np.dtype("bfloat16")

    _KINDS[np.dtype(ml_dtypes.bfloat16)] = FLOAT
    return _KINDS


def _parse_dtype(dtype) -> np.dtype:
    try:
        return np.dtype(dtype)
    except TypeError:
        if "ml_dtypes" in sys.modules:
            raise
    _with_bfloat16()  # "bfloat16" parses once ml_dtypes is imported
    return np.dtype(dtype)


def dtype_arg(dtype, default_kind: TensorKind | None = None) -> np.dtype:
    """A supported numpy dtype from anything numpy.dtype() takes."""
    if dtype is None:
        return DEFAULT_DTYPE[default_kind or FLOAT]
    try:
        resolved = _parse_dtype(dtype)
    except TypeError as error:
        raise TypeError(f"{dtype!r} is not a dtype: {error}") from None
    if supported_kind(resolved) is None:
        names = ", ".join(SUPPORTED_DTYPES)
        raise TypeError(f"dtype {resolved} is not supported; use one of {names}")
    return resolved


def kind_of_dtype(dtype: np.dtype) -> TensorKind:
    """The kind of a supported dtype."""
    return supported_kind(dtype)


def device_arg(device) -> "Device":
    if device is None:
        return Device.numpy()
    if not isinstance(device, Device):
        raise TypeError(f"device= takes a Device, got {type(device).__name__}; e.g. Device.numpy()")
    return device


def shape_of(op: str, name: str, shape) -> tuple:
    """A shape: a sequence of ints (a bare int is a 1-d shape), none negative."""
    if is_int(shape):
        shape = (shape,)
    if not isinstance(shape, list | tuple) or not all(is_int(s) for s in shape):
        raise TypeError(f"{op}: `{name}` is a list or tuple of ints, got {what(shape)}")
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"{op}: `{name}` has no negative sizes, got {list(shape)}")
    if math.prod(shape) * 8 > sys.maxsize:  # beyond the address space, whatever the dtype
        raise MemoryError(
            f"{op}: a tensor of shape {list(shape)} ({math.prod(shape)} elements) is larger "
            "than this machine can address"
        )
    return shape


def infer_data_dtype(data, dtype) -> np.dtype:
    """from_data: Python floats -> float32, ints -> int64, bools -> bool; arrays keep theirs."""
    if isinstance(data, DispatchTensor):
        return data.dtype if dtype is None else dtype_arg(dtype)
    try:
        array = np.asarray(data)
    except ValueError:
        raise ValueError(
            "from_data: the nested lists are ragged; every list along a dim must have the same "
            "length"
        ) from None
    resolved = dtype_arg(dtype) if dtype is not None else _data_dtype(data, array)
    if resolved.kind == "i" and array.dtype.kind in "uiO" and array.size:
        info = np.iinfo(resolved)
        flat = list(array.flat) if array.dtype.kind == "O" else None  # ints beyond 64 bits
        low, high = (min(flat), max(flat)) if flat is not None else (array.min(), array.max())
        if not info.min <= low <= high <= info.max:
            raise OverflowError(
                f"from_data: the value {high if high > info.max else low} does not fit {resolved} "
                f"({info.min}..{info.max})"
            )
    return resolved


def _data_dtype(data, array) -> np.dtype:
    if isinstance(data, np.ndarray | np.generic) and supported_kind(array.dtype) is not None:
        return array.dtype
    if array.dtype.kind == "b":
        return DEFAULT_DTYPE[BOOL]
    if array.dtype.kind in "iuO" and all(is_int(v) for v in array.flat):
        return DEFAULT_DTYPE[INT]
    if array.dtype.kind == "f":
        return DEFAULT_DTYPE[FLOAT]
    raise TypeError(
        f"from_data: cannot make a tensor from {type(data).__name__} data of dtype {array.dtype}"
    )


def fill_dtype(op: str, value, dtype) -> np.dtype:
    if not isinstance(value, int | float | bool | np.number | np.bool_):
        raise TypeError(f"{op}: `fill_value` takes a number, got {what(value)}")
    if dtype is not None:
        return dtype_arg(dtype)
    if isinstance(value, bool | np.bool_):
        return DEFAULT_DTYPE[BOOL]
    if is_int(value):
        return DEFAULT_DTYPE[INT]
    return DEFAULT_DTYPE[FLOAT]


def same_kind(op: str, lhs, rhs) -> None:
    """Two tensors in one op: same kind and same dtype, no silent promotion."""
    if not isinstance(rhs, DispatchTensor):
        raise TypeError(f"{op}: expected a Tensor, got {type(rhs).__name__}")
    lk, rk = lhs.kind, rhs.kind
    if lk is rk:  # the common case: one shared kind (same backend, same variant)
        if lk.is_autodiff:
            if lhs.primitive.primitive.dtype is rhs.primitive.primitive.dtype:
                return
        elif lhs.primitive.dtype is rhs.primitive.dtype:
            return
    if lk.tensor_kind is rk.tensor_kind:
        a = lhs.primitive.primitive if lk.is_autodiff else lhs.primitive
        b = rhs.primitive.primitive if rk.is_autodiff else rhs.primitive
        if a.dtype is b.dtype or a.dtype == b.dtype or lhs.dtype == rhs.dtype:
            return  # (tensors of two backends meet the dispatch layer's clearer error)
        raise TypeError(
            f"{op}: dtypes differ ({lhs.dtype} and {rhs.dtype}); "
            f"convert one with `t.cast('{lhs.dtype}')`"
        )
    raise TypeError(
        f"{op}: cannot mix a {lk.tensor_kind.value} tensor with a {rk.tensor_kind.value} "
        f"tensor; convert one with `{CONVERT[lk.tensor_kind]}`"
    )


def scalar_for(op: str, tensor, value):
    """A Python scalar cast to the tensor's kind (no NEP 50 upcast); an int that does not fit
    the tensor's int dtype is an OverflowError on every backend (numpy raises, torch wraps)."""
    kind = tensor.kind.tensor_kind
    if not is_scalar(value) or (kind is not BOOL and isinstance(value, bool | np.bool_)):
        expected = "True or False" if kind is BOOL else "a real number"
        raise TypeError(f"{op}: expected a Tensor or {expected}, got {what(value)}")
    if kind is FLOAT:
        return as_float(value)
    if kind is INT:
        if isinstance(value, float | np.floating) and not float(value).is_integer():
            raise TypeError(f"{op}: an Int tensor takes an integer scalar, got {value!r}")
        value = int(value)
        if not -(2**31) <= value < 2**31:  # the common case needs no dtype lookup
            info = np.iinfo(tensor.dtype)
            if not info.min <= value <= info.max:
                raise OverflowError(
                    f"{op}: {value} does not fit the tensor's dtype {tensor.dtype} "
                    f"({info.min}..{info.max}); cast the tensor with `t.cast('int64')`"
                )
        return value
    return bool(value)


def is_scalar(value) -> bool:
    return isinstance(value, int | float | bool | np.number | np.bool_)


def kind_error(op: str, tensor, expected) -> TypeError:
    names = "/".join(k.value for k in expected)
    return TypeError(
        f"{op} is not defined for a {tensor.kind.tensor_kind.value} tensor (it takes {names})"
    )


def data_arg(data):
    """from_data's data: nested lists, numpy arrays, scalars, or another tensor's values."""
    return data.to_numpy() if isinstance(data, DispatchTensor) else data


def dims_of(op: str, name: str, tensor, dims) -> tuple:
    if not isinstance(dims, list | tuple):
        raise TypeError(f"{op}: `{name}` is a list or tuple of dims, got {what(dims)}")
    dims = tuple(dim_of(op, name, tensor, d) for d in dims)
    if len(set(dims)) != len(dims):
        raise ValueError(f"{op}: `{name}` {list(dims)} repeats a dim")
    return dims


def view_shape_of(op: str, name: str, tensor, shape) -> tuple:
    """A new shape for the tensor's elements; one -1 is inferred."""
    if is_int(shape):
        shape = (shape,)
    if not isinstance(shape, list | tuple) or not all(is_int(s) for s in shape):
        raise TypeError(f"{op}: `{name}` is a list or tuple of ints, got {what(shape)}")
    shape = tuple(int(s) for s in shape)
    numel = tensor.numel()
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise ValueError(f"{op}: {list(shape)} may hold one -1 and no other negative size")
    known = 1
    for s in shape:
        known *= s if s != -1 else 1
    if -1 in shape:
        if known == 0 or numel % known:
            raise ValueError(f"{op}: cannot infer -1 in {list(shape)} for {numel} elements")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise ValueError(
            f"{op}: {list(shape)} holds {known} elements but the tensor has {numel} "
            f"(shape {list(tensor.shape)})"
        )
    return shape


def slices_arg(op: str, tensor, slices) -> tuple:
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
            f"{op}: {len(slices)} entries for a tensor of rank {len(shape)} (shape "
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
    if is_int(entry):
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
    if distribution is None:
        return Distribution.default()
    if not isinstance(distribution, Distribution):
        raise TypeError("distribution= takes a Distribution, e.g. Distribution.normal(0.0, 1.0)")
    return distribution


def tensors_of(op: str, name: str, tensors) -> list:
    """A list or tuple of one or more tensors of one kind and dtype."""
    if not isinstance(tensors, list | tuple):
        raise TypeError(f"{op}: `{name}` is a list or tuple of Tensors, got {what(tensors)}")
    if not tensors:
        raise ValueError(f"{op}: `{name}` needs at least one tensor, got an empty list")
    for i, t in enumerate(tensors):
        if not isinstance(t, DispatchTensor):
            raise TypeError(f"{op}: `{name}[{i}]` is not a Tensor but {what(t)}")
    first = tensors[0]
    for other in tensors[1:]:
        same_kind(op, first, other)
    return list(tensors)


def expect_kind(op: str, tensor, kind: TensorKind) -> None:
    if not isinstance(tensor, DispatchTensor) or tensor.kind.tensor_kind is not kind:
        got = (
            tensor.kind.tensor_kind.value
            if isinstance(tensor, DispatchTensor)
            else type(tensor).__name__
        )
        article = "an" if kind is TensorKind.Int else "a"
        raise TypeError(f"{op}: expected {article} {kind.value} tensor, got {got}")


def given_a_dim(
    method: str, dim_form: str, with_indices: str | None, args: tuple, keywords: dict
) -> TypeError:
    """PyTorch's `t.sum(0)` on a reduction over every element: the error names the burnpy call
    that takes a dim."""
    given = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in keywords.items()]
    dim = next(iter([*args, *keywords.values()]))
    dim = dim if isinstance(dim, int) else "dim"
    message = (
        f"{method}() reduces every element and takes no argument, got ({', '.join(given)}); "
        f"along a dim call `t.{dim_form}({dim})`, which keeps the dim as burn does "
        f"(`t.{dim_form}({dim}).squeeze_dim({dim})` drops it)"
    )
    if with_indices:
        message += f"; `t.{with_indices}({dim})` gives PyTorch's (values, indices)"
    return TypeError(message)


def dtype_error(op: str, dtype, kinds) -> TypeError:
    names = "/".join(k.value for k in kinds)
    return TypeError(f"{op} makes {names} tensors; dtype {dtype} is not one of them")


def check_dtype(op: str, dtype, supported: tuple) -> None:
    """An op that supports fewer dtypes than its kind has (ops.yaml `dtypes`)."""
    # A dtype's name is built by Python code in numpy (3 us, more than many kernels): each
    # (dtype, supported names) pair is judged once.
    key = (dtype, supported)
    allowed = _ALLOWED.get(key)
    if allowed is None:
        allowed = _ALLOWED[key] = str(dtype) in supported
    if not allowed:
        raise TypeError(f"{op} does not support {dtype}; it takes {', '.join(supported)}")


_ALLOWED: dict = {}  # (dtype, supported names) -> whether check_dtype lets it through


# -- checked arguments of the public functions (generated/module.py) ---------------------------
# Each takes the function's name and the argument's, so every message says where it came from.


def tensor_arg(op: str, name: str, value, kind: TensorKind):
    if not isinstance(value, DispatchTensor):
        raise TypeError(f"{op}: `{name}` must be {_a(kind)} Tensor, got {type(value).__name__}")
    if value.kind.tensor_kind is not kind:
        raise TypeError(
            f"{op}: `{name}` must be {_a(kind)} tensor, got {_a(value.kind.tensor_kind)} "
            f"tensor; convert it with `{CONVERT[kind]}`"
        )
    return value


def _a(kind: TensorKind) -> str:
    return ("an " if kind is INT else "a ") + kind.value


def optional_tensor_arg(op: str, name: str, value, kind: TensorKind):
    return None if value is None else tensor_arg(op, name, value, kind)


def choice_arg(op: str, name: str, value, choices: tuple) -> str:
    """One of burn's enum variants, as its snake-case name."""
    if not isinstance(value, str):
        raise TypeError(f"{op}: `{name}` takes one of {', '.join(choices)}, got {what(value)}")
    if value not in choices:
        raise ValueError(f"{op}: `{name}` is {value!r}; it takes one of {', '.join(choices)}")
    return value


def dim_of(op: str, name: str, tensor, dim) -> int:
    """A dim of `tensor`, negative counting from the end."""
    if not is_int(dim):
        raise TypeError(f"{op}: `{name}` takes an int dim, got {what(dim)}")
    rank = tensor.ndim
    if not -rank <= dim < max(rank, 1):
        raise IndexOutOfRange(
            f"{op}: `{name}` {dim} is out of range for a tensor of rank {rank} "
            f"(valid: {-rank}..{rank - 1})"
        )
    return int(dim) % max(rank, 1)


def real_arg(op: str, name: str, value, optional: bool = False):
    if value is None and optional:
        return None
    if not isinstance(value, int | float | np.integer | np.floating) or isinstance(value, bool):
        expected = "a real number or None" if optional else "a real number"
        raise TypeError(f"{op}: `{name}` takes {expected}, got {what(value)}")
    return as_float(value)


def as_float(value) -> float:
    """A real number as a float. A float passes as it is, and so does a subclass of float other
    than numpy's (whose float64 would promote a float32 tensor): a captured step's recorded
    number (burnpy.capture) must reach the kernel call as itself to be recorded."""
    if type(value) is float:
        return value
    if isinstance(value, float) and not isinstance(value, np.floating):
        return value * 1.0  # its own product: a traced int becomes a recorded float
    return float(value)


def integer_arg(op: str, name: str, value, nonzero: bool = False, optional: bool = False):
    if value is None and optional:
        return None
    if not is_int(value):
        expected = "an int or None" if optional else "an int"
        raise TypeError(f"{op}: `{name}` takes {expected}, got {what(value)}")
    if nonzero and value == 0:
        raise ValueError(f"{op}: {name} must be non-zero, got 0")
    return int(value)


def flag_arg(op: str, name: str, value) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{op}: `{name}` takes True or False, got {what(value)}")
    return bool(value)


def scheme_arg(method: str, scheme) -> QuantScheme:
    """A QuantScheme, as `QuantScheme()` and its `with_*` make it."""
    if not isinstance(scheme, QuantScheme):
        raise TypeError(
            f"{method}: expected a QuantScheme (e.g. `QuantScheme().with_value(QuantValue.Q8S)`), "
            f"got {what(scheme)}"
        )
    return scheme


def float_arg(method: str, name: str, tensor):
    """A Float tensor (plain or quantized)."""
    expect_kind(f"{method} `{name}`", tensor, TensorKind.Float)
    return tensor


def float_dtype_arg(method: str, dtype) -> np.dtype:
    """A supported float dtype (float32 when None)."""
    resolved = dtype_arg(dtype, FLOAT)
    if supported_kind(resolved) is not FLOAT:
        names = ", ".join(DTYPES["float"])
        raise TypeError(f"{method}: dtype {resolved} is not a float dtype; use one of {names}")
    return resolved
