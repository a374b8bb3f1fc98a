"""Joining the process group (`init`) and leaving it (`shutdown`): the rendezvous, and the
backward hook that reduces distributed parameters' gradients while a group is joined."""

import datetime
import os

import torch.distributed as dist

from burnpy.distributed.gradients import GradientSync
from burnpy.distributed.group import DistributedError, joined
from burnpy.runtime.autodiff import hooks


def init(*, rank=None, world_size=None, init_method=None, backend="gloo", timeout_s=30):
    """Join the process group; returns this process's rank.

    Under `torchrun` every argument may be left out: the rank, the world size and the
    rendezvous come from its environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Without
    it, pass all three, e.g. `init_method="tcp://10.0.0.1:29500"`. `backend` is "gloo" (CPU
    tensors, both backends) or "nccl" (CUDA tensors of the Torch backend). Every collective,
    the rendezvous included, fails with DistributedError after `timeout_s` seconds instead of
    waiting for ever.
    """
    if dist.is_initialized():
        raise RuntimeError(
            "distributed.init(): this process already joined a group; call "
            "distributed.shutdown() first to join another"
        )
    env = os.environ
    if rank is None and "RANK" in env:
        rank = int(env["RANK"])
    if world_size is None and "WORLD_SIZE" in env:
        world_size = int(env["WORLD_SIZE"])
    if init_method is None and "MASTER_ADDR" in env and "MASTER_PORT" in env:
        init_method = "env://"
    if rank is None or world_size is None or init_method is None:
        raise ValueError(
            "distributed.init() needs rank, world_size and init_method (e.g. "
            "'tcp://127.0.0.1:29500'), or to run under torchrun, which sets RANK, WORLD_SIZE, "
            "MASTER_ADDR and MASTER_PORT"
        )
    if not (isinstance(world_size, int) and world_size >= 1):
        raise ValueError(f"distributed.init(): world_size must be an int >= 1, got {world_size!r}")
    if not (isinstance(rank, int) and 0 <= rank < world_size):
        raise ValueError(
            f"distributed.init(): rank must be an int in [0, {world_size}), got {rank!r}"
        )
    if backend not in ("gloo", "nccl"):
        raise ValueError(f"distributed.init(): backend must be 'gloo' or 'nccl', got {backend!r}")
    if not timeout_s > 0:
        raise ValueError(f"distributed.init(): timeout_s must be positive, got {timeout_s!r}")
    try:
        dist.init_process_group(
            backend,
            init_method=init_method,
            rank=rank,
            world_size=world_size,
            timeout=datetime.timedelta(seconds=timeout_s),
        )
    except (RuntimeError, ValueError) as error:
        raise DistributedError(
            f"init: rank {rank} of {world_size} could not meet its peers at {init_method} "
            f"within {timeout_s} s: {error}"
        ) from error
    joined.update(timeout_s=timeout_s, hook=GradientSync())
    hooks.register(joined["hook"])
    return rank


def shutdown() -> None:
    """Leave the group (backward stops reducing gradients); nothing happens outside a group."""
    hook = joined.pop("hook", None)
    if hook is not None:
        hooks.unregister(hook)
    joined.clear()
    if dist.is_initialized():
        dist.destroy_process_group()
