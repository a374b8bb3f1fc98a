"""Data parallelism: the same model on every rank (`replicate`), each rank its own share of the
data (`shard_indices`)."""

import numpy as np
import torch
import torch.distributed as dist

from burnpy.distributed.collectives import broadcast
from burnpy.distributed.group import collective, rank, world_size


def replicate(module):
    """Make `module` the same on every rank, in place: rank 0's parameter ids, parameters and
    buffers become everyone's, and every parameter that requires a gradient is marked as
    distributed under its ParamId, so backward averages its gradient over the ranks. Every rank
    calls it with a module of the same structure. Returns the module."""
    entries = list(module._entries())
    layout = [(name, is_param, list(t.shape), str(t.dtype)) for name, _, _, t, is_param in entries]
    ids = [owner._param_ids[local] if p else None for _, owner, local, _, p in entries]
    theirs = [layout, ids]
    collective("replicate", dist.broadcast_object_list, theirs, src=0)
    # Every rank learns whether any differs, so that all raise together instead of the others
    # waiting for broadcasts that never come.
    differs = torch.tensor([int(theirs[0] != layout)])
    collective("replicate", dist.all_reduce, differs, op=dist.ReduceOp.MAX)
    if differs.item():
        mine = {name: rest for name, *rest in layout}
        rank0 = {name: rest for name, *rest in theirs[0]}
        diff = sorted(n for n in mine.keys() | rank0.keys() if mine.get(n) != rank0.get(n))
        raise ValueError(
            f"replicate(): the modules differ between ranks (this is rank {rank()}); tensors "
            f"whose presence, role, shape or dtype differ from rank 0's: {diff or 'on another rank'}"
        )
    for (_, owner, local, _, is_param), param_id in zip(entries, theirs[1]):
        if is_param:
            owner._param_ids[local] = param_id

    def copy_rank0(owner, local, tensor):
        copied = broadcast(tensor, src=0)
        if not tensor.is_require_grad():
            return copied
        return copied.require_grad().set_distributed_params(owner._param_ids[local])

    return module._map_tensors(copy_rank0)


def shard_indices(n: int, *, seed: int, epoch: int) -> np.ndarray:
    """This rank's share of a permutation of range(n) drawn from (seed, epoch): every rank with
    the same arguments draws the same permutation and takes its own slice of n // world_size
    indices (the remainder is dropped, so that every rank runs as many steps)."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"shard_indices(): n must be a non-negative int, got {n!r}")
    size = world_size()
    share = n // size
    if n and not share:
        raise ValueError(f"shard_indices(): {n} items cannot be shared among {size} ranks")
    me = rank()
    order = np.random.default_rng([seed, epoch]).permutation(n)
    return order[me * share : (me + 1) * share]
