"""Seconds per epoch and peak memory of training the digits CNN (examples/digits_cnn.py).

Five columns train the same architecture from the same initial weights on the same batches
(1,438 training images, batch 32, Adam, cosine rates): ours on the NumPy and on the Torch
backend, each without and with Balanced checkpointing, and PyTorch's eager autograd. They run
in one subprocess at one thread (numpy's BLAS and torch's pool), epoch by epoch in turn: each
round trains one epoch of every column, in an order that alternates between rounds, and each
column's ratio to PyTorch is taken within the round, since this machine's speed drifts between
rounds more than between neighbouring epochs. The report is the median over the rounds, and
the best epoch of each column (the one least disturbed by other processes) beside it.

Before timing, every column takes three steps from the initial weights and must give
PyTorch's losses. Peak memory is that of one training step once the optimiser holds its
moments, on top of what was allocated before: tracemalloc on NumPy (numpy reports its buffers
to it; it counts the graph's Python objects too), torch's profiler on the others (torch's
allocator reports to nothing else; it counts tensor storage only).

Run `python benches/training.py` (or `make bench`).
"""

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches import workloads  # noqa: E402
from benches.memory import run_worker  # noqa: E402

COLUMNS = ("numpy", "numpy Balanced", "torch", "torch Balanced", "PyTorch")
REFERENCE = "PyTorch"
ROUNDS = 15  # timed epochs per column, after one warm-up epoch
CHECK_STEPS = 3
TARGET = ("numpy", 1.5)  # ours on NumPy: at most 1.5x PyTorch's seconds per epoch


def trainer(column: str, args, train):
    """(step, model, optimiser, scheduler, loader, on_torch) of one column, from the initial
    weights of seed `args.seed`."""
    from examples import digits_cnn as example

    if column == REFERENCE:
        model = example.make_model(example.Device.numpy(), args.seed)
        net, opt, scheduler, loader = example.torch_training(args, model, train)
        return example.torch_train_step, net, opt, scheduler, loader, True
    backend, _, strategy = column.partition(" ")
    device = example.make_device(backend, checkpointing=strategy == "Balanced")
    model, opt, scheduler, loader = example.make_training(args, device, train)
    return example.train_step, model, opt, scheduler, loader, backend == "torch"


def first_losses(column, args, train) -> list:
    step, model, opt, scheduler, loader, _ = trainer(column, args, train)
    batches = iter(loader)
    return [step(model, opt, scheduler.step(), *next(batches)) for _ in range(CHECK_STEPS)]


def measure() -> dict:
    """In the worker: check, time and measure every column; returns the results."""
    import torch

    from examples import digits_cnn as example

    torch.set_num_threads(1)
    args = example.parse([])
    train, _ = example.load_split(args.seed)
    losses = {column: first_losses(column, args, train) for column in COLUMNS}
    workloads.check_losses(losses, REFERENCE)

    runs = {column: trainer(column, args, train) for column in COLUMNS}

    def epoch(column) -> float:
        step, model, opt, scheduler, loader, _ = runs[column]
        history = example.run_epochs(step, model, opt, scheduler, loader, lambda: 0.0, 1)
        return history[0]["seconds"]

    for column in COLUMNS:  # warm-up: caches, lazily built specializations
        epoch(column)
    seconds = {column: [] for column in COLUMNS}
    ratios = {column: [] for column in COLUMNS}
    for round_ in range(ROUNDS):
        order = COLUMNS if round_ % 2 == 0 else COLUMNS[::-1]
        times = {column: epoch(column) for column in order}
        for column in COLUMNS:
            seconds[column].append(times[column])
            ratios[column].append(times[column] / times[REFERENCE])

    peaks = {}
    for column in COLUMNS:
        step, model, opt, scheduler, loader, on_torch = runs[column]
        images, labels = next(iter(loader))
        lr = scheduler.step()
        peaks[column] = example.peak_bytes(
            lambda: step(model, opt, lr, images, labels), on_torch  # noqa: B023
        )
    return {
        column: {
            "seconds": statistics.median(seconds[column]),
            "best": min(seconds[column]),
            "ratio": statistics.median(ratios[column]),
            "peak": peaks[column],
            "losses": losses[column],
        }
        for column in COLUMNS
    }


def table(results: dict) -> str:
    head = (
        f"{'digits CNN, batch 32, 1 thread':<34}{'s/epoch':>9}{'vs PyTorch':>12}"
        f"{'best s':>9}{'best vs':>9}{'peak MiB':>10}"
    )
    best = results[REFERENCE]["best"]
    lines = [head, "-" * len(head)]
    for column in COLUMNS:
        row = results[column]
        name = "PyTorch eager" if column == REFERENCE else f"ours, {column}"
        lines.append(
            f"{name:<34}{row['seconds']:>9.3f}{row['ratio']:>11.2f}x{row['best']:>9.3f}"
            f"{row['best'] / best:>8.2f}x{row['peak'] / 2**20:>10.2f}"
        )
    column, limit = TARGET
    ratio = results[column]["ratio"]
    lines.append(
        f"\nours on {column} / PyTorch, per epoch: {ratio:.2f}x "
        f"(target <= {limit}x: {'met' if ratio <= limit else 'MISSED'}); "
        f"{ROUNDS} rounds, medians; losses of the first {CHECK_STEPS} steps agree"
    )
    return "\n".join(lines)


def main() -> dict:
    results = run_worker(__file__)
    print(table(results))
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure()))
    else:
        main()
