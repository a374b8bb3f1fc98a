"""A model's call, recorded as the straight line of catalogue kernel calls it runs.

The call runs once, eagerly, over capture's recording backends (burnpy.capture.recorder): each
tensor argument and each parameter and buffer of the module is a named input of the tape, and
what the call returns is its outputs. Nothing of the model changes: its tensors are put back
as they were, whatever happens.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from burnpy.capture.recorder import CaptureError, RecordingBackend, Tape, Value, unwrap
from burnpy.generated import Tensor
from burnpy.generated.backends import BACKENDS
from burnpy.nn.module import Module
from burnpy.onnx.exporter.graph import numpy_dtype
from burnpy.runtime.autodiff.tensor import AutodiffTensor
from burnpy.runtime.backends.registry import backend_for


@dataclass
class Traced:
    """One recorded call: its tape, the inputs (name, Value), the state (dotted path, Value,
    is a parameter), the outputs (Values, in the order the call returned them) and the inputs
    whose values the call read (their names)."""

    tape: Tape
    inputs: list
    state: list
    outputs: list
    read: list


class _DataReads:
    """How many reads of data (`data_values`) are under way: a recording for export refuses
    them where they come from an input."""

    depth = 0


def data_values(x: Tensor) -> np.ndarray:
    """`x`'s values read on the host as the data an operator computes on (Unique's entries,
    NonZero's, a region's corners), not as a shape or a setting: an export fixes an input read
    as a shape, and refuses an input read so (the file would hold the example's data)."""
    _DataReads.depth += 1
    try:
        return np.asarray(x.to_numpy())
    finally:
        _DataReads.depth -= 1


class ExportTape(Tape):
    """capture's tape, but for what an export may read. A model that reads a value while it
    runs (to compute a shape, axes, a size) is exported with that value fixed: an input read
    this way (an int tensor, or a float vector of at most 8 values: what ONNX models pass as
    shapes, axes, sizes and scales), directly or through what the model computes from it,
    becomes a constant of the file (listed in `read`); a value computed from the parameters and
    constants only is folded; reading a value computed from any other input, or reading an
    input as data (`data_values`), is refused, as capture refuses it."""

    def __init__(self):
        super().__init__()
        self.inputs: dict = {}  # Value -> input name
        self.read: list = []
        # a value an imported model computes from shapes, which the file computes at run time:
        # Value -> (ONNX operator, its input Values, its attributes)
        self.at_run_time: dict = {}

    def kernel(self, backend, name, kernel, args, kwargs):
        if name != "to_numpy" or type(args[0]) is not Value:
            return super().kernel(backend, name, kernel, args, kwargs)
        value = args[0]
        if value in self.inputs:
            name = self.inputs[value]
            if _DataReads.depth or not _settles_shapes(value.data):
                raise CaptureError(
                    f"the model reads the values of input {name} "
                    f"({value.data.dtype} {list(value.data.shape)}) while it runs: an exported "
                    "file cannot hold Python that computes on them"
                )
            if name not in self.read:
                self.read.append(name)
        elif not self._fixed(value):
            return super().kernel(backend, name, kernel, args, kwargs)  # refused there
        return kernel(*unwrap(args), **unwrap(kwargs))

    def read_value(self, value, what: str) -> None:
        """item() and tolist() of a value computed from inputs that may be fixed: allowed, the
        inputs fixed; anything else as capture says."""
        if not self._fixed(value):
            super().read_value(value, what)

    def _fixed(self, value) -> bool:
        """Whether `value` may be read as a constant of the file: computed from the
        parameters and constants only (folded), or also from inputs that may be fixed (an int
        tensor, a float vector of at most 8 values), which then are (listed in `read`). Not
        when it is computed from another input, or from a random draw."""
        made = {}
        for entry in self.entries:
            for out in values_in(entry.out):
                made[out] = entry
        todo, seen, inputs = [value], set(), []
        while todo:
            current = todo.pop()
            if current in self.inputs:
                if _DataReads.depth or not _settles_shapes(current.data):
                    return False
                inputs.append(self.inputs[current])
                continue
            entry = made.get(current)
            if entry is None or id(entry) in seen:
                continue
            if "random" in str(entry.target):
                return False
            seen.add(id(entry))
            todo.extend(values_in((entry.args, entry.kwargs)))
        self.read.extend(name for name in dict.fromkeys(inputs) if name not in self.read)
        return True


def note_dims(dims: Tensor, tensor: Tensor, start: int, end) -> None:
    """`dims` (an int tensor) holds `tensor`'s dims start..end (an imported Shape)."""
    _note(dims, "Shape", [tensor], start=start, end=end)


def note_range(values: Tensor, start: Tensor, limit: Tensor, delta: Tensor) -> None:
    """`values` are an imported Range's from the scalar tensors start, limit and delta."""
    _note(values, "Range", [start, limit, delta])


def _note(result: Tensor, op: str, sources: list, **attributes) -> None:
    """While a model is traced for export, `result` is what `op` computes from `sources`: the
    file computes it so at run time, so that the size of a dynamic axis flows through what a
    model computes from its shapes (the recording holds their values). Otherwise nothing."""
    values = [_primitive(s) for s in sources]
    if all(type(v) is Value and isinstance(v.tape, ExportTape) for v in values):
        values[0].tape.at_run_time[_primitive(result)] = (op, values, attributes)


def _settles_shapes(array) -> bool:
    """Whether an input the model reads may be fixed in the file: what ONNX models pass as
    shapes, axes, sizes, pads or repeats (ints) or as Resize's scales (a few floats). A bool
    is a condition (an If's, a Loop's): fixing it would export the one path taken."""
    dtype = numpy_dtype(array)
    floating = dtype.kind == "f" or dtype.name == "bfloat16"  # (ml_dtypes' kind is "V")
    return dtype.kind in "iu" or (floating and array.ndim <= 1 and array.size <= 8)


def values_in(value):
    """The recorded Values in a call's arguments or results, nested tuples, lists and dicts
    included."""
    if type(value) is Value:
        yield value
    elif type(value) in (tuple, list):
        for item in value:
            yield from values_in(item)
    elif type(value) is dict:
        for item in value.values():
            yield from values_in(item)


def trace(model, args: tuple, names: list[str]) -> Traced:
    """Run `model(*args)` once, recorded; `names` are the inputs' names. An argument that is a
    list (a sequence) is one input per element, `NAME_0`, `NAME_1`...; None (an optional left
    empty) is no input."""
    entries = list(model._entries()) if isinstance(model, Module) else []
    tape = ExportTape()
    inputs, stand_ins, tensors = [], [], []

    def bound(name, arg):
        tensor = _as_tensor(arg, model)
        value = tape.bind(_primitive(tensor), name)
        tape.inputs[value] = name
        inputs.append((name, value))
        tensors.append(tensor)
        return _stand_in(tensor, value)

    for name, arg in zip(names, args):
        if arg is None:
            stand_ins.append(None)
        elif isinstance(arg, list):
            stand_ins.append([bound(f"{name}_{i}", item) for i, item in enumerate(arg)])
        else:
            stand_ins.append(bound(name, arg))
    state, undo = [], []
    variants = {t.kind.variant for t in tensors}
    try:
        for dotted, owner, path, tensor, is_param in entries:
            value = tape.bind(_primitive(tensor), dotted)
            state.append((dotted, value, is_param))
            undo.append((owner, path, tensor))
            owner._set_local(path, _stand_in(tensor, value))
            variants.add(tensor.kind.variant)
        with contextlib.ExitStack() as stack:
            for variant in sorted(variants):
                inner = backend_for(variant)
                stack.enter_context(BACKENDS.substitute(variant, RecordingBackend(inner, tape)))
            result = model(*stand_ins)
        outputs = _outputs(result)
    finally:
        for owner, path, tensor in reversed(undo):
            owner._set_local(path, tensor)
        tape.closed = True
    return Traced(tape, inputs, state, outputs, tape.read)


def _as_tensor(value, model) -> Tensor:
    if isinstance(value, Tensor):
        return value
    array = np.asarray(value)
    device = _device(model)
    return Tensor.from_data(array, device=device, dtype=str(array.dtype))


def _device(model):
    """Where the model's tensors are; for one without any, the device it was built for (an
    imported model's `device`, where it makes its constants)."""
    if isinstance(model, Module):
        for _, _, _, tensor, _ in model._entries():
            return tensor.device()
    return getattr(model, "device", None)


def _primitive(tensor: Tensor):
    return tensor.primitive.primitive if tensor.kind.is_autodiff else tensor.primitive


def _stand_in(tensor: Tensor, value: Value) -> Tensor:
    """`tensor` with its primitive replaced by `value` (an autodiff one keeps its node)."""
    if tensor.kind.is_autodiff:
        return Tensor(tensor.kind, AutodiffTensor(value, tensor.primitive.node), tensor.context)
    return Tensor(tensor.kind, value, tensor.context)


def _outputs(result) -> list:
    if isinstance(result, Tensor):
        return [_primitive(result)]
    if isinstance(result, (tuple, list)):
        return [value for item in result for value in _outputs(item)]
    if isinstance(result, dict):
        return [value for item in result.values() for value in _outputs(item)]
    raise TypeError(
        f"the model returned a {type(result).__name__}; an exported model returns tensors, "
        "or tuples, lists and dicts of them"
    )
