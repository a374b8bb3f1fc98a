"""Data-parallel training of the digits CNN (examples/digits_cnn.py) on 1 and 2 processes.

Each process is started here with one BLAS thread (and one torch thread), joins a gloo group on
127.0.0.1 and trains on its shard of the 1,438 training images with a global batch of 32 (16 a
rank on 2 processes), Adam. Reported, by rank 0, as medians over the repeats:

- training items per second: ours (NumPy backend, burnpy.distributed) and PyTorch's
  DistributedDataParallel on the same model, weights and batches, timed in turn in each repeat;
- backward on 2 processes: its time with the parameters marked as distributed (their gradients
  all-reduced while backward runs) and without (no reduction), and the time the same reductions
  take alone, one blocking `all_reduce` after another; the share of that time that backward
  hides is 1 - (with - without) / alone (the asynchronous reductions also overlap each other).

Run `python benches/distributed.py` (or `make bench`).
"""

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches.memory import ENVIRONMENT  # noqa: E402

GLOBAL_BATCH = 32
STEPS = 20  # training steps per timed loop
REPEATS = 7
BACKWARD_REPEATS = 21
LIMIT_S = 300  # a run of both processes, start-up included


def worker(rank: int, world: int, port: int) -> None:
    import copy

    import numpy as np
    import torch

    from burnpy import data, distributed, optim
    from examples import digits_cnn as example
    from generated import Device

    torch.set_num_threads(1)
    distributed.init(rank=rank, world_size=world, init_method=f"tcp://127.0.0.1:{port}")
    batch = GLOBAL_BATCH // world
    train, _ = example.load_split(0)
    indices = distributed.shard_indices(len(train), seed=0, epoch=0)
    shards = [indices[b * batch : (b + 1) * batch] for b in range(len(indices) // batch)]
    device = Device.numpy().autodiff()
    model = distributed.replicate(example.make_model(device, 0))
    ours = [data.default_collate([train[i] for i in shard], device) for shard in shards]
    theirs = [tuple(torch.from_numpy(t.to_numpy()) for t in b) for b in ours]

    opt = optim.Adam(3e-3)
    net = torch.nn.parallel.DistributedDataParallel(example.torch_model(model))
    torch_opt = torch.optim.Adam(net.parameters(), lr=3e-3, eps=1e-5)

    def our_steps():
        for images, labels in ours[:STEPS]:
            example.train_step(model, opt, 3e-3, images, labels)

    def torch_steps():
        for images, labels in theirs[:STEPS]:
            example.torch_train_step(net, torch_opt, 3e-3, images, labels)

    def timed(run) -> float:
        distributed.barrier()
        start = time.perf_counter()
        run()
        distributed.barrier()
        return time.perf_counter() - start

    timed(our_steps), timed(torch_steps)  # warm-up
    seconds = {"ours": [], "PyTorch": []}
    for repeat in range(REPEATS):
        order = (("ours", our_steps), ("PyTorch", torch_steps))
        for name, run in order if repeat % 2 == 0 else order[::-1]:
            seconds[name].append(timed(run))
    result = {
        f"{name} items/s": STEPS * GLOBAL_BATCH / statistics.median(times)
        for name, times in seconds.items()
    }

    plain = copy.deepcopy(model)  # fresh leaves: the same parameters, not marked
    images, labels = ours[0]

    def backward_seconds(of) -> float:
        loss = example.cross_entropy(of(images), labels)
        distributed.barrier()
        start = time.perf_counter()
        loss.backward()
        return time.perf_counter() - start

    with_reductions, without = [], []
    for _ in range(BACKWARD_REPEATS):
        with_reductions.append(backward_seconds(model))
        without.append(backward_seconds(plain))
    loss = example.cross_entropy(plain(images), labels)
    grads = loss.backward()
    gradients = [p.grad(grads) for p in plain.parameters()]

    def reduce_alone() -> float:
        distributed.barrier()
        start = time.perf_counter()
        for g in gradients:
            distributed.all_reduce(g, "mean")
        return time.perf_counter() - start

    alone = [reduce_alone() for _ in range(BACKWARD_REPEATS)]
    result["backward ms with reductions"] = 1e3 * statistics.median(with_reductions)
    result["backward ms without"] = 1e3 * statistics.median(without)
    result["reductions alone ms"] = 1e3 * statistics.median(alone)
    result["parameters"] = int(sum(np.prod(p.shape) for p in model.parameters()))
    distributed.shutdown()
    if rank == 0:
        print(json.dumps(result))


def launch(world: int) -> dict:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, **ENVIRONMENT, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, __file__, "--worker", str(world), str(port)]
    procs = [
        subprocess.Popen(command + [str(rank)], stdout=subprocess.PIPE, text=True, env=env)
        for rank in range(world)
    ]
    try:
        outputs = [proc.communicate(timeout=LIMIT_S)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if any(proc.returncode for proc in procs):
        raise RuntimeError(f"a rank of the {world}-process run failed: {outputs}")
    return json.loads(outputs[0].splitlines()[-1])


def table(one: dict, two: dict) -> str:
    lines = [
        f"data-parallel digits CNN ({two['parameters']} parameters), global batch {GLOBAL_BATCH}, "
        f"gloo on 127.0.0.1, 1 thread per process; medians of {REPEATS} x {STEPS} steps",
        f"{'':<28}{'1 process':>12}{'2 processes':>14}{'2 vs 1':>9}",
    ]
    for name in ("ours", "PyTorch"):
        a, b = one[f"{name} items/s"], two[f"{name} items/s"]
        label = "ours (NumPy) items/s" if name == "ours" else "PyTorch DDP items/s"
        lines.append(f"{label:<28}{a:>12,.0f}{b:>14,.0f}{b / a:>8.2f}x")
    ratios = [run["ours items/s"] / run["PyTorch items/s"] for run in (one, two)]
    lines.append(f"{'ours / PyTorch':<28}{ratios[0]:>11.2f}x{ratios[1]:>13.2f}x")
    with_, without, alone = (
        two[key]
        for key in ("backward ms with reductions", "backward ms without", "reductions alone ms")
    )
    hidden = 1 - (with_ - without) / alone
    lines.append(
        f"backward on 2 processes (median of {BACKWARD_REPEATS}): {without:.2f} ms without "
        f"reductions, {with_:.2f} ms with; the reductions alone take {alone:.2f} ms, "
        f"{hidden:.0%} of it hidden behind backward"
    )
    return "\n".join(lines)


def main() -> dict:
    one, two = launch(1), launch(2)
    print(table(one, two))
    return {"1 process": one, "2 processes": two}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        world, port, rank = (int(a) for a in sys.argv[2:5])
        worker(rank, world, port)
    else:
        main()
