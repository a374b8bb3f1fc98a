"""`all_reduce` and `broadcast` of a Tensor, and the buffers torch.distributed works on: a
NumPy-backend array reaches torch through `torch.from_numpy`, which shares its memory."""

import numpy as np
import torch
import torch.distributed as dist

from burnpy.distributed.group import collective, world_size
from burnpy.generated import Tensor

_OPS = {  # gloo has no mean: a sum, divided by the world size
    "sum": dist.ReduceOp.SUM,
    "mean": dist.ReduceOp.SUM,
    "max": dist.ReduceOp.MAX,
    "min": dist.ReduceOp.MIN,
}


def writable_buffer(primitive):
    """(buffer, view): a C-contiguous copy of a backend primitive that nothing else refers to,
    and the torch tensor sharing its memory (the buffer itself for the Torch backend). Copied
    because a primitive may be an alias (a broadcast view, another tensor's data) that a
    collective must not write into."""
    if isinstance(primitive, torch.Tensor):
        buffer = primitive.clone(memory_format=torch.contiguous_format)
        return buffer, buffer
    buffer = np.array(primitive, order="C", copy=True)
    return buffer, torch.from_numpy(buffer)


def all_reduce(tensor, op: str = "sum"):
    """The element-wise `op` ("sum", "mean", "max" or "min") of `tensor` over every rank, as a
    new tensor on `tensor`'s device (on an autodiff device, an untracked leaf)."""
    _check(tensor, "all_reduce")
    if op not in _OPS:
        raise ValueError(f"all_reduce(): op must be one of {', '.join(_OPS)}, got {op!r}")
    if op == "mean" and not np.issubdtype(tensor.dtype, np.floating):
        raise TypeError(
            f"all_reduce(op='mean') needs a float tensor, got {tensor.dtype}; cast it with "
            "`.float()`"
        )
    buffer, view = writable_buffer(tensor.inner_primitive())
    collective("all_reduce", dist.all_reduce, view, op=_OPS[op])
    if op == "mean":
        view /= world_size()
    return Tensor.from_dlpack(buffer, device=tensor.device())


def broadcast(tensor, src: int = 0):
    """Rank `src`'s `tensor` on every rank, as a new tensor on `tensor`'s device; every rank
    passes a tensor of the same shape and dtype."""
    _check(tensor, "broadcast")
    size = world_size()
    if not (isinstance(src, int) and 0 <= src < size):
        raise ValueError(f"broadcast(): src must be a rank in [0, {size}), got {src!r}")
    buffer, view = writable_buffer(tensor.inner_primitive())
    collective("broadcast", dist.broadcast, view, src=src)
    return Tensor.from_dlpack(buffer, device=tensor.device())


def _check(tensor, operation: str) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"{operation}() takes a Tensor, got {type(tensor).__name__}")
    if tensor.dtype == np.bool_:
        raise TypeError(f"{operation}() takes a Float or Int tensor; cast a Bool one with `.int()`")
