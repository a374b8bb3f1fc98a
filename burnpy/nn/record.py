"""Records: a module's parameters and buffers in a safetensors file, keyed by dotted name.

The file's metadata holds the parameters' ids (burn's records carry ParamIds too), so a model
loaded in a new process matches an optimiser state saved with it.
"""

import json
from typing import NamedTuple

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save_file

from generated import Tensor

_IDS = "burnpy.param_ids"


class IncompatibleKeys(NamedTuple):
    """What a load left alone (PyTorch's `load_state_dict` result): the module's names the
    source lacked, and the source's names the module lacks."""

    missing_keys: list
    unexpected_keys: list


def save(module, path) -> None:
    tensors = {}
    ids = {}
    for name, owner, local, tensor, is_param in module._entries():
        tensors[name] = np.ascontiguousarray(tensor.to_numpy())
        if is_param:
            ids[name] = owner._param_ids[local]
    save_file(tensors, str(path), metadata={_IDS: json.dumps(ids)})


def _read(path) -> tuple[dict, dict]:
    with safe_open(str(path), framework="numpy") as f:
        metadata = f.metadata() or {}
        return {key: f.get_tensor(key) for key in f.keys()}, metadata


def load(module, path):
    arrays, metadata = _read(path)
    _assign(module, arrays, f"{path}")
    ids = json.loads(metadata.get(_IDS, "{}"))
    for name, owner, local, _, is_param in module._entries():
        if is_param and name in ids:
            owner._param_ids[local] = ids[name]
    return module


def _assign(module, arrays: dict, source: str, strict: bool = True) -> IncompatibleKeys:
    """Put `arrays` into the module's tensors, in place, after checking names, dtypes and
    shapes: nothing changes unless every array fits. `strict=False` loads the names both sides
    have and leaves the others (the result lists them)."""
    entries = list(module._entries())
    expected = [name for name, *_ in entries]
    missing = [name for name in expected if name not in arrays]
    unexpected = [name for name in arrays if name not in expected]
    if strict and (missing or unexpected):
        raise ValueError(
            f"{source} does not match the module: missing keys {missing}, unexpected keys "
            f"{unexpected}; pass strict=False to load the keys both have"
        )
    entries = [entry for entry in entries if entry[0] in arrays]
    for name, _, _, tensor, _ in entries:
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

    names = {(id(owner), local): name for name, owner, local, *_ in entries}

    def replace(owner, local, tensor):
        name = names.get((id(owner), local))
        if name is None:  # not in the source (strict=False): kept
            return tensor
        device = tensor.device()
        fresh = Tensor.from_data(arrays[name], device=device.inner(), dtype=tensor.dtype)
        fresh = fresh.to_device(device) if device.is_autodiff() else fresh
        return fresh.require_grad() if tensor.is_require_grad() else fresh

    module._map_tensors(replace)
    return IncompatibleKeys(missing, unexpected)


def load_pytorch(module, path, key_map=None, strict=True):
    """Load a safetensors file of a PyTorch `state_dict` into the same architecture, in place.
    `strict=False` loads the keys both have and skips the others (an extra buffer, a head the
    module does not have).

    `key_map` (PyTorch's name -> ours) is applied first. Then, as burn-import's PyTorch adapter
    does: Linear weights are transposed ([out, in] -> [in, out]); a norm's `weight`/`bias` are
    its `gamma`/`beta`; BatchNorm's `num_batches_tracked` has no counterpart and is dropped.
    Returns the module."""
    from burnpy.nn.linear import Linear
    from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm

    arrays, _ = _read(path)
    if key_map:
        arrays = {key_map.get(key, key): value for key, value in arrays.items()}
    owners = {}
    for prefix, child in module.named_modules():
        owners[prefix] = child
    adapted = {}
    for key, array in arrays.items():
        owner_name, _, leaf = key.rpartition(".")
        owner = owners.get(owner_name + "." if owner_name else "")
        if isinstance(owner, BatchNorm | LayerNorm | GroupNorm):
            if leaf == "num_batches_tracked" and isinstance(owner, BatchNorm):
                continue
            leaf = {"weight": "gamma", "bias": "beta"}.get(leaf, leaf)
        elif isinstance(owner, Linear) and leaf == "weight":
            array = np.ascontiguousarray(array.T)
        adapted[f"{owner_name}.{leaf}" if owner_name else leaf] = array
    _assign(module, adapted, f"{path}", strict)
    return module
