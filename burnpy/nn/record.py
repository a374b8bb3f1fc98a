"""Records: named arrays in a safetensors file, keyed by dotted name, and the check that a record
fits a module's tensors.

The file's metadata holds the parameters' ids (burn's records carry ParamIds too), so a model
loaded in a new process matches an optimiser state saved with it. `Module.save` and `Module.load`
write and read records; this module knows files and arrays, not modules.

A quantized tensor is two entries: `NAME` holds its integer values (int8; 4- and 2-bit values
packed into uint32 words as burn packs them, whatever the scheme's store in memory) and `NAME.scales` its
float32 scales (one per block); the metadata `burnpy.quantized` lists the schemes
(`QuantScheme.to_record()`) and, per name, the index of its scheme and its shape. A reader that knows
nothing of quantization sees an int8 array and its scales.
"""

import json
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from safetensors.numpy import save

from burnpy import files
from burnpy.generated import QuantScheme
from burnpy.runtime.backends.kernels.quantization import grid_shape
from burnpy.runtime.quantization.packing import pack_u32, unpack_u32

_IDS = "burnpy.param_ids"
_QUANTIZED = "burnpy.quantized"
_SCALES = ".scales"


@dataclass(frozen=True)
class Quantized:
    """A quantized tensor as a record holds it: its integer values (int8, unpacked, in its
    shape), its scales (float32, one per block, in burn's grid shape) and its scheme."""

    values: np.ndarray
    scales: np.ndarray
    scheme: QuantScheme

    @property
    def shape(self) -> tuple:
        return tuple(self.values.shape)

    def stored(self) -> np.ndarray:
        """The values as the file holds them: int8, or sub-byte values packed into uint32
        words (whatever the scheme's store in memory)."""
        if self.scheme.value.bits == 8:
            return self.values.astype(np.int8)
        return pack_u32(np, self.values, self.scheme.value.bits)

    @classmethod
    def from_stored(cls, stored, scales, scheme: QuantScheme, shape) -> "Quantized":
        if stored.dtype != np.int8:
            stored = unpack_u32(np, stored, int(np.prod(shape)), scheme.value.bits)
        return cls(stored.reshape(shape), scales, scheme)


class IncompatibleKeys(NamedTuple):
    """What a load left alone (PyTorch's `load_state_dict` result): the module's names the
    source lacked, and the source's names the module lacks."""

    missing_keys: list
    unexpected_keys: list


def write(path, arrays: dict, param_ids: dict) -> None:
    """Write `arrays` (dotted name -> array or `Quantized`) and the parameters' ids (dotted
    name -> ParamId)."""
    tensors, schemes, quantized = {}, [], {}
    for name, array in arrays.items():
        if isinstance(array, Quantized):
            tensors[name] = _contiguous(array.stored())
            tensors[name + _SCALES] = _contiguous(np.asarray(array.scales, dtype=np.float32))
            if array.scheme not in schemes:
                schemes.append(array.scheme)
            quantized[name] = [schemes.index(array.scheme), list(array.shape)]
        else:
            tensors[name] = _contiguous(array)
    metadata = {_IDS: json.dumps(param_ids)}
    if quantized:
        entry = {"schemes": [s.to_record() for s in schemes], "tensors": quantized}
        metadata[_QUANTIZED] = json.dumps(entry, separators=(",", ":"))
    files.write_bytes(path, save(tensors, metadata=metadata))


def _contiguous(array) -> np.ndarray:
    """`array` in C order, keeping its shape (`np.ascontiguousarray` makes a 0-d array 1-d)."""
    array = np.asarray(array)
    return np.ascontiguousarray(array).reshape(array.shape)


def read(path) -> tuple[dict, dict]:
    """(dotted name -> array or `Quantized`, dotted name -> ParamId) of a record; a file
    without ids (one PyTorch wrote) has none."""
    with files.open_safetensors(path, "a record") as f:
        metadata = f.metadata() or {}
        arrays = {key: f.get_tensor(key) for key in f.keys()}
    ids, quantized = (_json(path, metadata, key) for key in (_IDS, _QUANTIZED))
    bad = [name for name, value in ids.items() if type(value) is not int or value < 0]
    if bad:
        raise ValueError(
            f"{path}: the parameter ids of {bad[:4]} in its {_IDS!r} metadata are not "
            "non-negative integers; the file was not written by Module.save, or was altered"
        )
    for name, entry in _quantized_entries(path, quantized, arrays):
        arrays.pop(name + _SCALES)
        arrays[name] = entry
    return arrays, ids


def _quantized_entries(path, quantized: dict, arrays: dict):
    """(name, Quantized) of each quantized tensor the metadata lists, every part checked
    against the arrays the file holds: an error names the file and the tensor."""

    def refuse(what: str, name: str | None = None):
        where = f"{path}: " + (f"quantized tensor {name!r}: " if name else "")
        return ValueError(
            f"{where}{what} ({_QUANTIZED!r} metadata); the file was not written by "
            "Module.save, or was altered"
        )

    records, tensors = quantized.get("schemes", []), quantized.get("tensors", {})
    if not isinstance(records, list) or not isinstance(tensors, dict):
        raise refuse("`schemes` must be a list and `tensors` a dict")
    schemes = []
    for record in records:
        try:
            schemes.append(QuantScheme.from_record(record))
        except ValueError as error:
            raise refuse(f"scheme {len(schemes)}: {error}") from None
    for name, entry in tensors.items():
        if not (isinstance(entry, list) and len(entry) == 2):
            raise refuse(f"expected [scheme index, shape], got {entry!r}", name)
        index, shape = entry
        if type(index) is not int or not 0 <= index < len(schemes):
            raise refuse(f"scheme index {index!r} is not one of 0..{len(schemes) - 1}", name)
        if not isinstance(shape, list) or any(type(d) is not int or d < 0 for d in shape):
            raise refuse(f"shape {shape!r} is not a list of non-negative ints", name)
        if name not in arrays or name + _SCALES not in arrays:
            raise refuse(f"the file lacks its values or its scales ({name + _SCALES!r})", name)
        scheme, stored, scales = schemes[index], arrays[name], arrays[name + _SCALES]
        count, bits = math.prod(shape), scheme.value.bits
        words = -(-count * bits // 32)
        expected = (np.int8, count) if bits == 8 else (np.uint32, words)
        if (stored.dtype, stored.size) != expected:
            raise refuse(
                f"its values are {stored.size} {stored.dtype}, where a {scheme.value.name} "
                f"tensor of shape {shape} takes {expected[1]} {np.dtype(expected[0])}",
                name,
            )
        try:
            grid = grid_shape(tuple(shape), scheme)
        except ValueError as error:
            raise refuse(f"{error}", name) from None
        if scales.dtype != np.float32 or tuple(scales.shape) != grid:
            raise refuse(
                f"its scales are {scales.dtype} of shape {list(scales.shape)}, where its scheme "
                f"({scheme.level!r}) takes float32 of shape {list(grid)}",
                name,
            )
        if not (np.isfinite(scales) & (scales >= 0)).all():
            raise refuse("its scales must be finite and non-negative", name)
        value = Quantized.from_stored(stored, scales, scheme, shape)
        low, high = scheme.value.range
        if count and (value.values.min() < low or value.values.max() > high):
            raise refuse(f"values outside {scheme.value.name}'s range [{low}, {high}]", name)
        yield name, value


def _json(path, metadata: dict, key: str) -> dict:
    try:
        found = json.loads(metadata.get(key, "{}"))
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: its {key!r} metadata is not JSON ({error}); the file was not written by "
            "Module.save, or was altered"
        ) from error
    if not isinstance(found, dict):
        raise ValueError(
            f"{path}: its {key!r} metadata is a JSON {type(found).__name__}, not an object; "
            "the file was not written by Module.save, or was altered"
        )
    return found


def check(arrays: dict, tensors: dict, source: str, strict: bool = True) -> IncompatibleKeys:
    """Raise unless every name both `arrays` and `tensors` (dotted name -> Tensor) have holds an
    array of its tensor's dtype and shape, and, with `strict`, unless they have the same names;
    `source` names the record in the message. Returns the names only one side has."""
    missing = [name for name in tensors if name not in arrays]
    unexpected = [name for name in arrays if name not in tensors]
    if strict and (missing or unexpected):
        raise ValueError(
            f"{source} does not match the module: missing keys {missing}, unexpected keys "
            f"{unexpected}; pass strict=False to load the keys both have"
        )
    for name, tensor in tensors.items():
        if name not in arrays:
            continue
        array = arrays[name]
        # a quantized value replaces a float one and back (the record decides)
        if isinstance(array, Quantized) and tensor.tensor_kind().value != "Float":
            raise TypeError(
                f"{name}: the record holds a quantized float tensor, the module a "
                f"{tensor.tensor_kind().value} tensor"
            )
        either_quantized = isinstance(array, Quantized) or tensor.is_quantized()
        if not either_quantized and array.dtype != tensor.dtype:
            raise TypeError(
                f"{name}: the record holds dtype {array.dtype}, the module {tensor.dtype}; "
                "cast the module or the record"
            )
        if tuple(array.shape) != tuple(tensor.shape):
            raise ValueError(
                f"{name}: the record holds shape {list(array.shape)}, the module "
                f"{list(tensor.shape)}"
            )
    return IncompatibleKeys(missing, unexpected)
