"""burnpy.distributed: training on several processes, one machine or many, over torch.distributed
(gloo on CPU, NCCL for CUDA tensors), launched by `torchrun`.

    distributed.init()                 # rank, world size and rendezvous from torchrun's environment
    model = distributed.replicate(model)
    for epoch in range(epochs):
        for i in distributed.shard_indices(len(items), seed=0, epoch=epoch): ...
        grads = loss.backward()        # returns with every parameter's gradient averaged
    distributed.shutdown()

`replicate` marks every parameter as distributed (`Tensor.set_distributed_params`) and copies rank
0's values to every rank. From then on each backward pass all-reduces a marked parameter's
gradient (the mean over the ranks) as soon as no remaining step can add to it, asynchronously,
while the rest of backward runs; `backward()` returns once every reduction has finished. Every
rank must run the same model code, so that they reduce the same parameters in the same order.

A peer that dies, or a collective that does not complete within `init(timeout_s=...)`, raises
`DistributedError` naming the operation and the ranks.
"""

from burnpy.distributed.collectives import all_reduce, broadcast
from burnpy.distributed.data_parallel import replicate, shard_indices
from burnpy.distributed.group import DistributedError, barrier, is_initialized, rank, world_size
from burnpy.distributed.membership import init, shutdown

__all__ = [
    "DistributedError",
    "all_reduce",
    "barrier",
    "broadcast",
    "init",
    "is_initialized",
    "rank",
    "replicate",
    "shard_indices",
    "shutdown",
    "world_size",
]
