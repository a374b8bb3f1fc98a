"""Loading a PyTorch `state_dict` (saved as safetensors) into the same architecture, as
burn-import's PyTorch adapter does."""

import fnmatch

import numpy as np

from burnpy.nn import record
from burnpy.nn.linear import Linear
from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm


def load_pytorch(module, path, key_map=None, strict=True, keep_layout=None):
    """Load a safetensors file of a PyTorch `state_dict` into the same architecture, in place.
    `strict=False` loads the keys both have and skips the others (an extra buffer, a head the
    module does not have).

    `key_map` (PyTorch's name -> ours) is applied first. Then: Linear weights are transposed
    ([out, in] -> [in, out]), but for the keys `keep_layout` names: a glob pattern or a list of
    them (`"h.*.attn.c_attn.weight"`), or a predicate of the key, matched against the file's
    keys; for weights stored as [in, out] already, as HuggingFace's `Conv1D` (GPT-2) stores
    them. A norm's `weight`/`bias` are its `gamma`/`beta`; BatchNorm's `num_batches_tracked` has
    no counterpart and is dropped. Returns the module."""
    arrays, _ = record.read(path)
    keeps = _layout_kept(keep_layout)
    owners = dict(module.named_modules())
    tensors = {name: tensor for name, tensor in module.state_tensors()}
    adapted = {}
    for file_key, array in arrays.items():
        key = key_map.get(file_key, file_key) if key_map else file_key
        owner_name, _, leaf = key.rpartition(".")
        owner = owners.get(owner_name + "." if owner_name else "")
        if isinstance(owner, BatchNorm | LayerNorm | GroupNorm):
            if leaf == "num_batches_tracked" and isinstance(owner, BatchNorm):
                continue
            leaf = {"weight": "gamma", "bias": "beta"}.get(leaf, leaf)
        elif isinstance(owner, Linear) and leaf == "weight" and not keeps(file_key):
            expected = tensors[key].shape if key in tensors else None
            if expected is not None and tuple(array.shape[::-1]) != tuple(expected):
                raise ValueError(
                    f"{path}: {file_key} holds shape {list(array.shape)} (PyTorch's Linear "
                    f"layout [out, in], transposed on load), the module's {key} is "
                    f"{list(expected)} [in, out]; a weight the file stores as [in, out] already "
                    f"(HuggingFace's Conv1D) loads with keep_layout={file_key!r} (or a glob of "
                    "such keys)"
                )
            array = np.ascontiguousarray(array.T)
        adapted[f"{owner_name}.{leaf}" if owner_name else leaf] = array
    module.load_arrays(adapted, f"{path}", strict)
    return module


def _layout_kept(keep_layout):
    """keep_layout as a predicate of a file's key."""
    if keep_layout is None:
        return lambda key: False
    if callable(keep_layout):
        return keep_layout
    patterns = [keep_layout] if isinstance(keep_layout, str) else list(keep_layout)
    if not all(isinstance(p, str) for p in patterns):
        raise TypeError(
            "load_pytorch: keep_layout is a glob pattern, a list of them, or a predicate of the "
            f"key; got {keep_layout!r}"
        )
    return lambda key: any(fnmatch.fnmatchcase(key, p) for p in patterns)
