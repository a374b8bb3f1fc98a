"""`Module`: burn's Module derive, found at run time from a module's attributes.

A float tensor attribute is a parameter (burn's `Param`), unless it was registered as a buffer
(burn's `RunningState`); Int and Bool tensors are buffers. Child modules and tensors may also sit
in lists, tuples and dicts, named by index or key. Every parameter has a `param_id` (burn's
`ParamId`), kept by its place in the module, so it survives optimiser steps, moves and loads.
"""

import copy
import secrets
from typing import TYPE_CHECKING, Self

import numpy as np

from burnpy.nn import record
from burnpy.generated import Tensor
from burnpy.runtime.dispatch import TensorKind

# The module's own bookkeeping: never parameters, children or buffers.
_INTERNAL = ("_param_ids", "_buffers", "_grad_off", "training")
_FLOAT = TensorKind.Float


def new_param_id() -> int:
    """A fresh ParamId: random 63 bits, as burn draws its ids, so ids loaded from a file do not
    collide with ids made in this process."""
    return secrets.randbits(63)


def is_float(tensor) -> bool:
    return tensor.kind.tensor_kind is _FLOAT  # bfloat16 too, which numpy does not call floating


_SCALARS = frozenset({int, float, str, bool, type(None)})


def _flatten(path, value):
    """(path, value) for each tensor or module inside `value`, in order."""
    if type(value) in _SCALARS:  # (most attributes: a capture walks them at every call)
        return
    if isinstance(value, (Tensor, Module)):
        yield path, value
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _flatten(f"{path}.{index}", item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(f"{path}.{key}", item)


def _replace(container, keys, value):
    """`container` with the item at `keys` replaced: lists and dicts in place, tuples rebuilt."""
    if not keys:
        return value
    head, rest = keys[0], keys[1:]
    if isinstance(container, dict):
        key = next(k for k in container if str(k) == head)
        container[key] = _replace(container[key], rest, value)
        return container
    index = int(head)
    if isinstance(container, list):
        container[index] = _replace(container[index], rest, value)
        return container
    items = list(container)
    items[index] = _replace(items[index], rest, value)
    return type(container)(items)


# PyTorch's Module names -> what burnpy calls
_HABITS = {
    "zero_grad": "nothing: `loss.backward()` returns fresh Gradients each time",
    "to": "model.to_device(device), or model.cast(dtype)",
    "cuda": 'model.to_device(Device.torch("cuda"))',
    "cpu": "model.to_device(Device.numpy()) (or Device.torch())",
    "requires_grad_": "parameters on an autodiff device require grad already; "
    "model.no_grad() turns that off",
    "children": "model.modules() (every module under it, itself first)",
    "named_children": "model.named_modules()",
    "register_parameter": "an attribute: a float tensor attribute is a parameter",
    "register_module": "an attribute: a Module attribute is a child",
    "add_module": "an attribute: a Module attribute is a child",
    "half": 'model.cast("float16")',
    "double": 'model.cast("float64")',
    "float": 'model.cast("float32")',
    "apply": "a loop over model.modules()",
}


class Module:
    """Base class of layers and models. Subclasses call `super().__init__()` first, then assign
    parameters (float tensors), buffers (`register_buffer`) and child modules as attributes, and
    define `forward`; calling the module runs `forward`."""

    def __init__(self):
        object.__setattr__(self, "_param_ids", {})  # local path -> ParamId
        object.__setattr__(self, "_buffers", set())  # attribute names registered as buffers
        object.__setattr__(self, "_grad_off", set())  # local paths of params marked no_grad
        object.__setattr__(self, "training", True)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # -- attributes ---------------------------------------------------------------------------
    if not TYPE_CHECKING:  # type checkers keep flagging names that do not exist

        def __getattr__(self, name):
            """Only reached for a name the module lacks: a PyTorch name says the burnpy call."""
            message = f"{type(self).__name__!r} object has no attribute {name!r}"
            if name in _HABITS:
                message += f"; burnpy's equivalent: {_HABITS[name]}"
            raise AttributeError(message)

    def __setattr__(self, name, value):
        if "_param_ids" not in self.__dict__:
            raise TypeError(
                f"{type(self).__name__}.__init__ must call super().__init__() before assigning "
                f"attributes (assigning {name!r})"
            )
        if name not in _INTERNAL and name not in self._buffers:
            for path, item in list(_flatten(name, value)):
                if self._is_param(path, item):
                    value = _replace(value, path.split(".")[1:], self._as_param(path, item))
        object.__setattr__(self, name, value)

    def register_buffer(self, name: str, tensor) -> None:
        """Make `name` a buffer: saved in records, moved with the module, never optimised."""
        self._buffers.add(name)
        object.__setattr__(self, name, tensor)

    def _is_param(self, path, value) -> bool:
        return (
            isinstance(value, Tensor)
            and is_float(value)
            and path.split(".")[0] not in self._buffers
        )

    def _as_param(self, path, tensor):
        """A parameter on an autodiff device is a Grad leaf (burn's `Param::from_tensor`), but a
        quantized one, which is not trained."""
        self._param_ids.setdefault(path, new_param_id())
        if (
            tensor.is_autodiff()
            and path not in self._grad_off
            and not tensor.is_quantized()
            and not tensor.is_require_grad()
        ):
            return tensor.detach().require_grad()
        return tensor

    def _local(self):
        """(local path, value) of this module's own tensors and children, in definition order."""
        for name, value in vars(self).items():
            if name not in _INTERNAL:
                yield from _flatten(name, value)

    def _set_local(self, path, value) -> None:
        name, *keys = path.split(".")
        object.__setattr__(self, name, _replace(getattr(self, name), keys, value))

    # -- the tree -----------------------------------------------------------------------------
    def named_modules(self, prefix: str = ""):
        """(dotted name, module) of this module and every module under it, in order."""
        yield prefix, self
        for path, value in self._local():
            if isinstance(value, Module):
                yield from value.named_modules(f"{prefix}{path}.")

    def modules(self) -> list:
        return [m for _, m in self.named_modules()]

    def _entries(self, prefix: str = ""):
        """(dotted name, owner, local path, tensor, is_param) for every tensor, depth first in
        definition order."""
        for path, value in self._local():
            if isinstance(value, Module):
                yield from value._entries(f"{prefix}{path}.")
            else:
                yield prefix + path, self, path, value, self._is_param(path, value)

    def _parameter_entries(self):
        """(dotted name, owner, local path, tensor) of each parameter once: a tensor assigned
        to two attributes (tied weights) is one parameter, under its first name."""
        seen = set()
        for name, owner, path, tensor, is_param in self._entries():
            if is_param and id(tensor) not in seen:
                seen.add(id(tensor))
                yield name, owner, path, tensor

    def named_parameters(self) -> list:
        return [(name, t) for name, _, _, t in self._parameter_entries()]

    def parameters(self) -> list:
        return [t for _, _, _, t in self._parameter_entries()]

    def param_ids(self) -> list:
        return [owner._param_ids[path] for _, owner, path, _ in self._parameter_entries()]

    def state_tensors(self) -> list:
        """(dotted name, tensor) of every parameter and buffer, as records key them."""
        return [(name, t) for name, _, _, t, _ in self._entries()]

    def named_buffers(self) -> list:
        return [(name, t) for name, _, _, t, is_param in self._entries() if not is_param]

    def num_params(self) -> int:
        """The number of scalars in the parameters (burn's `num_params`)."""
        return sum(t.numel() for t in self.parameters())

    def map_parameters(self, fn) -> Self:
        """Replace every parameter by `fn(name, param_id, tensor)`, in place, keeping its id;
        the tensor given back is stored as it is. Returns the module."""
        done = {}  # id of a tensor -> (its ParamId, what fn gave): tied weights map once
        for name, owner, path, tensor, is_param in list(self._entries()):
            if is_param:
                if id(tensor) not in done:
                    done[id(tensor)] = owner._param_ids[path], fn(
                        name, owner._param_ids[path], tensor
                    )
                owner._param_ids[path], mapped = done[id(tensor)]
                owner._set_local(path, mapped)
        return self

    def _map_tensors(self, fn) -> Self:
        """Replace every tensor (parameters and buffers) by `fn(owner, local path, tensor)`,
        once per tensor: a tensor held by two attributes stays one tensor."""
        done = {}
        for _, owner, path, tensor, _ in list(self._entries()):
            if id(tensor) not in done:
                done[id(tensor)] = fn(owner, path, tensor)
            owner._set_local(path, done[id(tensor)])
        return self

    # -- quantization (burnpy.nn.quantize) -------------------------------------------------------
    def quantize_weights(self, quantizer) -> Self:
        """Quantize the float parameters `quantizer` (an `nn.Quantizer`) selects, in place, each
        keeping its ParamId (burn's `quantize_weights`); returns the module. The module runs as
        before, on values rounded to the scheme; a quantized parameter takes no gradient."""
        named = self.named_parameters()
        quantizer.check_names([name for name, _ in named])
        for name, tensor in named:  # (all checked before any changes)
            if quantizer.selects(name):
                quantizer.check_finite(name, tensor)
        return self.map_parameters(
            lambda name, _, tensor: (
                quantizer.quantize(tensor) if quantizer.selects(name) else tensor
            )
        )

    def dequantize_weights(self, dtype="float32") -> Self:
        """Every quantized parameter back to a float tensor of `dtype` holding its dequantized
        values, in place (a Grad leaf again on an autodiff device); returns the module."""

        def dequantize(owner, path, tensor):
            if not tensor.is_quantized():
                return tensor
            floats = tensor.dequantize(dtype=dtype)
            return owner._as_param(path, floats) if owner._is_param(path, tensor) else floats

        return self._map_tensors(dequantize)

    def is_quantized(self) -> bool:
        """Whether any parameter is quantized."""
        return any(t.is_quantized() for t in self.parameters())

    # -- devices and modes --------------------------------------------------------------------
    def to_device(self, device) -> Self:
        """Move every parameter and buffer to `device`, in place; returns the module. On an
        autodiff device the parameters are Grad leaves (but those marked by `no_grad`)."""

        def move(owner, path, tensor):
            moved = tensor.to_device(device)
            return owner._as_param(path, moved) if owner._is_param(path, tensor) else moved

        return self._map_tensors(move)

    def devices(self) -> list:
        """The distinct devices of the module's tensors, in order."""
        found = []
        for _, _, _, tensor, _ in self._entries():
            if tensor.device() not in found:
                found.append(tensor.device())
        return found

    def no_grad(self) -> Self:
        """Mark every parameter as not requiring a gradient (burn's `no_grad`)."""
        done = {}
        for _, owner, path, tensor, is_param in list(self._entries()):
            if is_param:
                owner._grad_off.add(path)
                if id(tensor) not in done:
                    done[id(tensor)] = tensor.set_require_grad(False)
                owner._set_local(path, done[id(tensor)])
        return self

    def train(self, mode: bool = True) -> Self:
        """Training mode: dropout and batch statistics act, on an autodiff device."""
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Self:
        return self.train(False)

    def valid(self) -> Self:
        """A copy on the inner device, detached, for inference (burn's `valid`)."""
        return copy.deepcopy(self)._map_tensors(lambda owner, path, tensor: tensor.inner())

    # -- copies -------------------------------------------------------------------------------
    # Pickle and deepcopy carry each tensor as its values, device and Grad mark (a fresh leaf:
    # no graph, no node id travels; Tensor.__reduce__), once per tensor object, so tied
    # weights stay tied in the copy.
    def __getstate__(self):
        return dict(vars(self))

    def __setstate__(self, state):
        for name, value in state.items():
            object.__setattr__(self, name, value)

    # -- records (burnpy.nn.record) -------------------------------------------------------------
    def save(self, path) -> None:
        """Write the parameters and buffers to a safetensors file, keyed by dotted name; a
        quantized parameter as its integer values and scales (burnpy.nn.record)."""
        entries = list(self._entries())
        arrays = {name: _record_value(tensor) for name, _, _, tensor, _ in entries}
        first = {}  # id of a tensor -> its ParamId: tied weights are saved under one
        ids = {
            name: first.setdefault(id(tensor), owner._param_ids[local])
            for name, owner, local, tensor, p in entries
            if p
        }
        record.write(path, arrays, ids)

    def load(self, path) -> Self:
        """Load a file written by `save` in place, with the parameters' ids; returns the
        module. The record decides what each tensor is: a quantized one in the file becomes a
        quantized parameter, a float one a float parameter."""
        arrays, ids = record.read(path)
        self.load_arrays(arrays, f"{path}")
        for name, owner, local, _, is_param in self._entries():
            if is_param and name in ids:
                owner._param_ids[local] = ids[name]
        return self

    def load_arrays(
        self, arrays: dict, source: str = "the arrays", strict: bool = True
    ) -> record.IncompatibleKeys:
        """Put `arrays` (dotted name -> array) into the module's tensors, in place, keeping
        their devices and Grad marks; nothing changes unless every name (with `strict`), dtype
        and shape fits. `source` names them in the error. `strict=False` loads the names both
        sides have and keeps the others; the result lists the names only one side has."""
        entries = list(self._entries())
        result = record.check(arrays, {name: t for name, _, _, t, _ in entries}, source, strict)
        names = {(id(owner), local): name for name, owner, local, *_ in entries}

        def replace(owner, local, tensor):
            name = names[id(owner), local]
            if name not in arrays:  # strict=False and not in the source: kept
                return tensor
            device, array = tensor.device(), arrays[name]
            if isinstance(array, record.Quantized):
                fresh = Tensor.from_quantized(
                    array.values, array.scales, array.scheme, device=device.inner()
                )
            else:
                dtype = array.dtype if tensor.is_quantized() else tensor.dtype
                fresh = Tensor.from_data(array, device=device.inner(), dtype=dtype)
            fresh = fresh.to_device(device) if device.is_autodiff() else fresh
            if fresh.is_quantized():  # not trained: no Grad leaf
                return fresh
            if tensor.is_quantized() and owner._is_param(local, tensor):
                return owner._as_param(local, fresh)  # a float parameter again: a Grad leaf
            return fresh.require_grad() if tensor.is_require_grad() else fresh

        self._map_tensors(replace)
        return result

    # -- state dicts (PyTorch's habit) ----------------------------------------------------------
    def state_dict(self) -> dict:
        """Every parameter and buffer as a numpy array (a copy), keyed by dotted name in
        definition order (PyTorch's `state_dict`); a quantized parameter as its dequantized
        float32 values."""
        return {
            name: (tensor.dequantize() if tensor.is_quantized() else tensor).to_numpy()
            for name, _, _, tensor, _ in self._entries()
        }

    def load_state_dict(self, state_dict, strict: bool = True):
        """Load `state_dict` (dotted name -> numpy array or Tensor) in place, keeping devices,
        param ids and Grad leaves; returns `(missing_keys, unexpected_keys)`. With `strict` a
        name on one side only raises, naming it; dtypes and shapes must match either way, and
        nothing changes unless every loaded value fits."""
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"load_state_dict takes a dict of name -> array, got {type(state_dict).__name__}"
            )
        arrays = {k: np.asarray(v) for k, v in state_dict.items()}
        return self.load_arrays(arrays, "the state dict", strict)

    def cast(self, dtype) -> "Module":
        """Every float parameter and buffer cast to `dtype` (e.g. "float64", "bfloat16"), in
        place, keeping param ids and Grad leaves; returns the module. Quantized parameters stay
        as they are (their scheme decides their values)."""

        def cast(owner, path, tensor):
            if not is_float(tensor) or tensor.is_quantized():
                return tensor
            cast = tensor.cast(dtype)
            return owner._as_param(path, cast) if owner._is_param(path, tensor) else cast

        return self._map_tensors(cast)

    # -- display ------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The layer's configuration, shown after its name."""
        return ""

    def __repr__(self):
        head = type(self).__name__ + (f"({self.extra_repr()})" if self.extra_repr() else "")
        lines = []
        for path, value in self._local():
            if isinstance(value, Module):
                child = repr(value).replace("\n", "\n  ")
                lines.append(f"  {path}: {child}")
            else:
                role = "param" if self._is_param(path, value) else "buffer"
                dtype = _quantized_repr(value.scheme()) if value.is_quantized() else value.dtype
                lines.append(f"  {path}: {role} {list(value.shape)} {dtype}")
        if not lines:
            return head
        return head + " {\n" + "\n".join(lines) + "\n}"


def _record_value(tensor):
    """What a record holds of `tensor`: its values, or a quantized tensor's integer values,
    scales and scheme."""
    if not tensor.is_quantized():
        return tensor.to_numpy()
    return record.Quantized(tensor.quantized_values(), tensor.quantized_scales(), tensor.scheme())


def _quantized_repr(scheme) -> str:
    """A quantized tensor's type as `repr` shows it: `quantized Q8S QuantLevel.tensor()`."""
    return f"quantized {scheme.value.name} {scheme.level!r}"
