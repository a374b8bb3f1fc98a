"""Loading a PyTorch `state_dict` (saved as safetensors) into the same architecture, as
burn-import's PyTorch adapter does."""

import numpy as np

from burnpy.nn import record
from burnpy.nn.linear import Linear
from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm


def load_pytorch(module, path, key_map=None, strict=True):
    """Load a safetensors file of a PyTorch `state_dict` into the same architecture, in place.
    `strict=False` loads the keys both have and skips the others (an extra buffer, a head the
    module does not have).

    `key_map` (PyTorch's name -> ours) is applied first. Then: Linear weights are transposed
    ([out, in] -> [in, out]); a norm's `weight`/`bias` are its `gamma`/`beta`; BatchNorm's
    `num_batches_tracked` has no counterpart and is dropped. Returns the module."""
    arrays, _ = record.read(path)
    if key_map:
        arrays = {key_map.get(key, key): value for key, value in arrays.items()}
    owners = dict(module.named_modules())
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
    module.load_arrays(adapted, f"{path}", strict)
    return module
