"""The process group as collectives see it: who we are in it (`rank`, `world_size`), running a
collective in it, and the error every failed collective becomes (`DistributedError`). Joining
and leaving it are burnpy.distributed.membership's."""

import torch.distributed as dist

# The group's settings while one is joined: the timeout, for the error messages, and the hook
# that reduces distributed parameters' gradients (burnpy.distributed.gradients).
joined: dict = {}


class DistributedError(RuntimeError):
    """A collective operation failed: a peer died or did not answer within the timeout."""


def is_initialized() -> bool:
    return dist.is_initialized()


def rank() -> int:
    """This process's rank; 0 outside a group."""
    return dist.get_rank() if dist.is_initialized() else 0


def world_size() -> int:
    """The number of processes in the group; 1 outside a group."""
    return dist.get_world_size() if dist.is_initialized() else 1


def barrier() -> None:
    """Wait until every rank has reached this point."""
    collective("barrier", dist.barrier)


def collective(operation: str, run, *args, **kwargs):
    """`run(*args, **kwargs)` inside the group, its failure raised as DistributedError."""
    if not dist.is_initialized():
        raise RuntimeError(
            f"distributed.{operation}() needs a process group: call distributed.init() first"
        )
    try:
        return run(*args, **kwargs)
    except RuntimeError as error:
        raise failure(operation, error) from error


def failure(operation: str, error: BaseException) -> DistributedError:
    """The DistributedError of `operation` failing on this rank."""
    me, size = rank(), world_size()
    peers = [str(r) for r in range(size) if r != me]
    named = f"rank{'s' if len(peers) > 1 else ''} {', '.join(peers)}"
    return DistributedError(
        f"{operation} failed on rank {me} of {size} (peers: {named}; timeout "
        f"{joined.get('timeout_s')} s): {error}"
    )
