"""The backward hook that reduces distributed parameters' gradients (registered by `init`).

As soon as a marked leaf's gradient is complete, an asynchronous sum over the ranks starts on a
private copy of it, while backward goes on with the other steps; the pass's `finish`, before
`backward()` returns, waits for every reduction and divides by the world size (gloo has no mean).
"""

import torch.distributed as dist

from burnpy.distributed.collectives import writable_buffer
from burnpy.distributed.group import failure, world_size


class GradientSync:
    def wants(self, node) -> bool:
        return node.distributed_params is not None

    def begin(self, backend) -> "_Reductions":
        return _Reductions()


class _Reductions:
    """The reductions of one backward pass, in the order they started (the same on every rank,
    since every rank runs the same graph)."""

    def __init__(self):
        self.pending = []  # (param_id, work, view)

    def complete(self, node, grad):
        buffer, view = writable_buffer(grad)
        operation = f"all_reduce of the gradient of parameter {node.distributed_params}"
        try:
            work = dist.all_reduce(view, op=dist.ReduceOp.SUM, async_op=True)
        except RuntimeError as error:
            raise failure(operation, error) from error
        self.pending.append((operation, work, view))
        return buffer

    def finish(self) -> None:
        size = world_size()
        pending, self.pending = self.pending, []
        error = None
        for operation, work, view in pending:
            try:
                work.wait()
            except RuntimeError as failed:
                error = error or failure(operation, failed)
                continue
            view /= size
        if error is not None:
            raise error
