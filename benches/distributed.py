"""Data-parallel training of the digits CNN (examples/digits_cnn.py) on 1 and 2 processes.

Two processes are started here with one BLAS thread (and one torch thread) each, join a gloo
group on 127.0.0.1, and time, in turn within each repeat (this machine's speed drifts between
repeats more than within one, so ratios are taken within a repeat and the report is their
median):

- training items per second, global batch 32, Adam, on the 1,438 training images: on 2
  processes each rank takes 16 images of its shard a step, its parameters marked as distributed
  (burnpy.distributed); on 1 process rank 0 trains an unmarked copy on 32 images a step while
  rank 1 waits. The same for PyTorch: DistributedDataParallel on 2 processes, the plain model
  on 1, from the same weights and batches;
- backward on 2 processes, with the parameters marked (their gradients all-reduced while
  backward runs) and without (no reduction), and the same reductions alone (started and waited
  for as backward does, with nothing to overlap): the share of them that backward hides is
  1 - (with - without) / alone; at the training step's 16 images a rank, and at 256, where
  backward takes longer than the reductions.

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
REPEATS = 9
BACKWARD_REPEATS = 51
BACKWARD_BATCHES = (16, 256)  # images a rank: the training step's, and one whose backward is long
LIMIT_S = 400  # the run of both processes, start-up included
COLUMNS = (("ours", 1), ("ours", 2), ("PyTorch", 1), ("PyTorch", 2))


def worker(rank: int, port: int) -> None:
    import copy

    import torch

    from burnpy import data, distributed, optim
    from burnpy.distributed.gradients import GradientSync
    from examples import digits_cnn as example
    from burnpy import Device

    torch.set_num_threads(1)
    distributed.init(rank=rank, world_size=2, init_method=f"tcp://127.0.0.1:{port}")
    train, _ = example.load_split(0)
    device = Device.numpy().autodiff()
    base = example.make_model(device, 0)

    def batches(indices, size):
        return [
            data.default_collate([train[i] for i in indices[b * size : (b + 1) * size]], device)
            for b in range(STEPS)
        ]

    order = distributed.shard_indices(len(train), seed=0, epoch=0)
    runs = {  # column -> (model, optimiser, batches), on the ranks that train in it
        ("ours", 2): (distributed.replicate(copy.deepcopy(base)), optim.Adam(3e-3), order),
    }
    if rank == 0:
        everything = [i for pair in zip(*[iter(order)] * 16) for i in pair]  # any 32-image mix
        runs["ours", 1] = (copy.deepcopy(base), optim.Adam(3e-3), everything)
    for (name, world), (model, opt, indices) in list(runs.items()):
        ours = batches(indices, GLOBAL_BATCH // world)
        theirs = [tuple(torch.from_numpy(t.to_numpy()) for t in b) for b in ours]
        runs[name, world] = (model, opt, ours)
        net = example.torch_model(base)
        if world == 2:
            net = torch.nn.parallel.DistributedDataParallel(net)
        runs["PyTorch", world] = (net, torch.optim.Adam(net.parameters(), 3e-3, eps=1e-5), theirs)

    def train_steps(column):
        if column not in runs:
            return  # rank 1 while rank 0 trains alone
        model, opt, steps = runs[column]
        step = example.train_step if column[0] == "ours" else example.torch_train_step
        for images, labels in steps:
            step(model, opt, 3e-3, images, labels)

    def timed(column) -> float:
        distributed.barrier()
        start = time.perf_counter()
        train_steps(column)
        distributed.barrier()
        return time.perf_counter() - start

    for column in COLUMNS:
        timed(column)  # warm-up
    items_per_second = {column: [] for column in COLUMNS}
    for repeat in range(REPEATS):
        turn = COLUMNS[repeat % 4 :] + COLUMNS[: repeat % 4]
        for column in turn:
            items_per_second[column].append(STEPS * GLOBAL_BATCH / timed(column))
    result = {f"{n} {w} items/s": statistics.median(v) for (n, w), v in items_per_second.items()}
    for name in ("ours", "PyTorch"):
        ratios = [b / a for a, b in zip(items_per_second[name, 1], items_per_second[name, 2])]
        result[f"{name} 2 vs 1"] = statistics.median(ratios)
    for world in (1, 2):
        pairs = zip(items_per_second["ours", world], items_per_second["PyTorch", world])
        result[f"ours/PyTorch {world}"] = statistics.median(a / b for a, b in pairs)

    marked = runs["ours", 2][0]
    plain = copy.deepcopy(marked)  # fresh leaves: the same parameters, not marked

    def backward_seconds(model, images, labels) -> float:
        loss = example.cross_entropy(model(images), labels)
        distributed.barrier()
        start = time.perf_counter()
        loss.backward()
        return time.perf_counter() - start

    def reductions_alone(leaves) -> float:
        distributed.barrier()
        start = time.perf_counter()
        reductions = GradientSync().begin(None)
        for node, grad in leaves:
            reductions.complete(node, grad)
        reductions.finish()
        return time.perf_counter() - start

    for batch in BACKWARD_BATCHES:
        images, labels = data.default_collate([train[i] for i in order[:batch]], device)
        grads = example.cross_entropy(plain(images), labels).backward()
        leaves = [
            (m.primitive.node, p.grad(grads).primitive)
            for m, p in zip(marked.parameters(), plain.parameters())
        ]
        timings = {"with": [], "without": [], "alone": []}
        for _ in range(BACKWARD_REPEATS):
            timings["with"].append(backward_seconds(marked, images, labels))
            timings["without"].append(backward_seconds(plain, images, labels))
            timings["alone"].append(reductions_alone(leaves))
        for key, values in timings.items():
            result[f"backward {batch} {key} ms"] = 1e3 * statistics.median(values)
        hidden = [1 - (w - o) / a for w, o, a in zip(*timings.values())]
        result[f"backward {batch} hidden"] = statistics.median(hidden)
    result["parameters"] = marked.num_params()
    distributed.shutdown()
    if rank == 0:
        print(json.dumps(result))


def launch() -> dict:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, **ENVIRONMENT, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, __file__, "--worker", str(port)]
    procs = [
        subprocess.Popen(command + [str(rank)], stdout=subprocess.PIPE, text=True, env=env)
        for rank in range(2)
    ]
    try:
        outputs = [proc.communicate(timeout=LIMIT_S)[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if any(proc.returncode for proc in procs):
        raise RuntimeError(f"a rank failed: {outputs}")
    return json.loads(outputs[0].splitlines()[-1])


def table(result: dict) -> str:
    lines = [
        f"data-parallel digits CNN ({result['parameters']} parameters), global batch "
        f"{GLOBAL_BATCH}, gloo on 127.0.0.1, 1 thread per process; medians of {REPEATS} x "
        f"{STEPS} steps",
        f"{'':<28}{'1 process':>12}{'2 processes':>14}{'2 vs 1':>9}",
    ]
    for name, label in (("ours", "ours (NumPy) items/s"), ("PyTorch", "PyTorch items/s (DDP)")):
        one, two = result[f"{name} 1 items/s"], result[f"{name} 2 items/s"]
        lines.append(f"{label:<28}{one:>12,.0f}{two:>14,.0f}{result[f'{name} 2 vs 1']:>8.2f}x")
    one, two = result["ours/PyTorch 1"], result["ours/PyTorch 2"]
    lines.append(f"{'ours / PyTorch':<28}{one:>11.2f}x{two:>13.2f}x")
    lines.append(
        f"backward on 2 processes, medians of {BACKWARD_REPEATS} (ms): without reductions, with "
        "them, the reductions alone, and the share of them hidden behind backward"
    )
    for batch in BACKWARD_BATCHES:
        without, with_, alone = (
            result[f"backward {batch} {key} ms"] for key in ("without", "with", "alone")
        )
        lines.append(
            f"  {batch:>3} images a rank{without:>10.2f}{with_:>10.2f}{alone:>10.2f}"
            f"{result[f'backward {batch} hidden']:>10.0%}"
        )
    return "\n".join(lines)


def main() -> dict:
    result = launch()
    print(table(result))
    return result


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        port, rank = (int(a) for a in sys.argv[2:4])
        worker(rank, port)
    else:
        main()
