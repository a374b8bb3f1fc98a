"""Milliseconds per training step of the character-level transformer
(examples/char_transformer.py: 2 pre-norm layers, d_model 64, 4 heads, d_ff 256, batch 16 of 64
characters, AdamW).

Three columns train the same model from the same initial weights on the same batches: ours on
the NumPy and on the Torch backend, and PyTorch's eager autograd (torch.nn's
TransformerEncoderLayer). They run in one subprocess at one thread, in rounds of a few steps
per column, in an order that alternates between rounds; each column's ratio to PyTorch is taken
within the round and the report is the median over the rounds. Before timing, every column takes
three steps from the initial weights and must give PyTorch's losses.

Run `python benches/char_transformer.py` (or `make bench`).
"""

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches import char_step, workloads  # noqa: E402
from benches.memory import run_worker  # noqa: E402

COLUMNS = ("numpy", "torch", "PyTorch")
REFERENCE = "PyTorch"
ROUNDS = 9
STEPS_PER_ROUND = 5
CHECK_STEPS = 3


def trainer(column: str, args):
    """(step, model, optimiser, batches) of one column, from the initial weights of
    `args.seed`: the example's own training step, on numpy batches."""
    from examples import char_transformer as example

    if column == REFERENCE:
        net, opt = char_step.theirs(args)
        return example.torch_train_step, net, opt, char_step.batches(args)
    model, opt = char_step.ours(column, args)
    return example.train_step, model, opt, char_step.batches(args)


def first_losses(column, args) -> list:
    step, model, opt, batches = trainer(column, args)
    return [step(model, opt, args.lr, *next(batches)) for _ in range(CHECK_STEPS)]


def measure() -> dict:
    """In the worker: check and time every column; returns the results."""
    import torch

    torch.set_num_threads(1)
    args = char_step.arguments()
    workloads.check_losses({column: first_losses(column, args) for column in COLUMNS}, REFERENCE)

    runs = {column: trainer(column, args) for column in COLUMNS}

    def steps(column) -> float:
        step, model, opt, batches = runs[column]
        start = time.perf_counter()
        for _ in range(STEPS_PER_ROUND):
            step(model, opt, args.lr, *next(batches))
        return (time.perf_counter() - start) / STEPS_PER_ROUND

    for column in COLUMNS:  # warm-up
        steps(column)
    seconds = {column: [] for column in COLUMNS}
    ratios = {column: [] for column in COLUMNS}
    for round_ in range(ROUNDS):
        order = COLUMNS if round_ % 2 == 0 else COLUMNS[::-1]
        times = {column: steps(column) for column in order}
        for column in COLUMNS:
            seconds[column].append(times[column])
            ratios[column].append(times[column] / times[REFERENCE])
    return {
        column: {
            "ms": 1000 * statistics.median(seconds[column]),
            "best": 1000 * min(seconds[column]),
            "ratio": statistics.median(ratios[column]),
        }
        for column in COLUMNS
    }


def table(results: dict) -> str:
    head = f"{'char transformer step, 1 thread':<34}{'ms/step':>9}{'vs PyTorch':>12}{'best ms':>9}"
    lines = [head, "-" * len(head)]
    for column in COLUMNS:
        row = results[column]
        name = "PyTorch eager" if column == REFERENCE else f"ours, {column}"
        lines.append(f"{name:<34}{row['ms']:>9.1f}{row['ratio']:>11.2f}x{row['best']:>9.1f}")
    lines.append(
        f"\n{ROUNDS} rounds of {STEPS_PER_ROUND} steps, medians; "
        f"losses of the first {CHECK_STEPS} steps agree"
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
