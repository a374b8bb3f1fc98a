"""Records: named arrays in a safetensors file, keyed by dotted name, and the check that a record
fits a module's tensors.

The file's metadata holds the parameters' ids (burn's records carry ParamIds too), so a model
loaded in a new process matches an optimiser state saved with it. `Module.save` and `Module.load`
write and read records; this module knows files and arrays, not modules.
"""

import json
from typing import NamedTuple

import numpy as np
from safetensors.numpy import save

from burnpy import files

_IDS = "burnpy.param_ids"


class IncompatibleKeys(NamedTuple):
    """What a load left alone (PyTorch's `load_state_dict` result): the module's names the
    source lacked, and the source's names the module lacks."""

    missing_keys: list
    unexpected_keys: list


def write(path, arrays: dict, param_ids: dict) -> None:
    """Write `arrays` (dotted name -> array) and the parameters' ids (dotted name -> ParamId)."""
    tensors = {name: np.ascontiguousarray(array) for name, array in arrays.items()}
    files.write_bytes(path, save(tensors, metadata={_IDS: json.dumps(param_ids)}))


def read(path) -> tuple[dict, dict]:
    """(dotted name -> array, dotted name -> ParamId) of a record; a file without ids (one
    PyTorch wrote) has none."""
    with files.open_safetensors(path, "a record") as f:
        metadata = f.metadata() or {}
        arrays = {key: f.get_tensor(key) for key in f.keys()}
    try:
        return arrays, json.loads(metadata.get(_IDS, "{}"))
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: its {_IDS!r} metadata is not JSON ({error}); the file was not written by "
            "Module.save, or was altered"
        ) from error


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
        if array.dtype != tensor.dtype:
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
