"""Speed: this project against raw numpy and PyTorch CPU, side by side, with their targets.

Rows: the 8x8 float32 ops on the plain device and tracked on the autodiff device under both
checkpointing strategies; the MLP step at batch 64 and 1; the codegen. Columns: raw numpy, ours,
PyTorch eager (in its own process, see benches/torch_column.py), and our torch backend when the
tree has one, with its ratio to PyTorch eager and its targets. Every ratio is a time over raw
numpy's time measured in the same process, so "ours / PyTorch" is the ratio of the two processes'
ratios, and "on torch/PyTorch" a ratio of two ratios from the PyTorch worker's process. Nothing
is timed before every column has been checked to compute what raw numpy computes. Both
processes run one thread (numpy's BLAS, torch's pool), as every bench here does.
"""

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benches import ours, workloads
from benches.memory import THREAD_VARIABLES
from benches.timing import REPEATS, Column, OtherLoad, Row, measure
from benches.workloads import BenchMismatch, FloorMoved
from burnpy import Device, set_num_threads

ROOT = Path(__file__).resolve().parent.parent
CODEGEN_RUNS = 3
CODEGEN_TARGET = 3.0  # seconds, for each of a full regenerate and --check
PLAIN_TARGET, TRACKED_TARGET, MLP_TARGET = 0.6, 0.95, 1.0  # ours / PyTorch
# ours on torch / PyTorch: our dispatch and autodiff over the same kernels
ON_TORCH_OP_TARGET = 1.3
ON_TORCH_MLP_TARGETS = {64: 1.1}  # by batch; batch 1 is measured, with no target

STRATEGY_LABELS = {"plain": "plain", "tracked": "tracked NoCkpt", "balanced": "tracked Balanced"}
# our column -> (PyTorch's column, our torch backend's column, target) in the PyTorch worker
OP_COUNTERPARTS = {
    "plain": ("torch", "ours_plain", PLAIN_TARGET),
    "tracked": ("torch_tracked", "ours_tracked", TRACKED_TARGET),
    "balanced": ("torch_tracked", "ours_balanced", TRACKED_TARGET),
}


def check_ours(a, b, problems) -> None:
    """Our NumPy-backend columns against raw numpy, before anything is timed."""
    ours.check("ours", Device.numpy(), a, b, problems)


def run_torch_worker() -> tuple[dict | None, str | None]:
    """(the worker's result, None), or (None, why there is no PyTorch column)."""
    if importlib.util.find_spec("torch") is None:
        return None, "torch is not installed (pip install .[torch])"
    with tempfile.TemporaryDirectory() as tmp:
        result_path = os.path.join(tmp, "torch.json")
        proc = subprocess.run(
            [sys.executable, "-m", "benches.torch_column", result_path],
            cwd=ROOT,
            env={**os.environ, **{name: "1" for name in THREAD_VARIABLES}},
            stderr=subprocess.PIPE,
            text=True,
        )
        if proc.returncode != 0:
            raise BenchMismatch(f"the PyTorch worker failed:\n{proc.stderr.strip()}")
        with open(result_path, encoding="utf-8") as f:
            return json.load(f), None


def time_ours(a, b, problems) -> dict:
    rows = {}
    numpy_namespace = {"np": np, "a": a, "b": b}
    for op, (numpy_stmt, _) in workloads.OPS.items():
        columns = {"numpy": Column(numpy_stmt, numpy_namespace)}
        for name, device in ours.strategies(Device.numpy()).items():
            columns[name] = ours.op_column(op, device, a, b)
        rows[f"op:{op}"] = measure(columns, "numpy")
    for problem in problems:
        columns = {
            "numpy": workloads.numpy_mlp_column(problem),
            "ours": ours.MLP(problem, Device.numpy()).column(),
        }
        rows[f"mlp:{problem.batch}"] = measure(columns, "numpy")
    return rows


def codegen_seconds(args_for_run) -> tuple[float, str]:
    """Median wall time of `python -m codegen ARGS` (a fresh interpreter, as `make` runs it)."""
    times, note = [], ""
    for run in range(CODEGEN_RUNS):
        with tempfile.TemporaryDirectory() as tmp:
            args = args_for_run(Path(tmp))
            started = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "codegen", *args], cwd=ROOT, capture_output=True, text=True
            )
            times.append(time.perf_counter() - started)
        if proc.returncode != 0:
            note = f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1]}"
    return statistics.median(times), note


# -- the table --------------------------------------------------------------------------------


def fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= 0.9995 * scale:  # what rounds to 1000 of a unit shows as 1 of the next
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_cell(row: Row | None, column: str) -> str:
    if row is None or column not in row.seconds:
        return "n/a"
    return f"{fmt_time(row.seconds[column]):>9} {row.ratios[column]:5.2f}x"


class Table:
    HEADER = (
        "work",
        "raw numpy",
        "ours (x numpy)",
        "PyTorch (x numpy)",
        "ours/PyTorch",
        "target",
        "ours on torch (x numpy)",
        "on torch/PyTorch",
        "target",
    )

    def __init__(self):
        self.lines = [self.HEADER]
        self.targets = []  # (work, met, value, target)

    def add(self, *cells: str) -> None:
        self.lines.append(cells)

    def target(self, work: str, value: float | None, target: float, unit: str = "x") -> str:
        if value is None:
            return "n/a (no PyTorch)"
        self.targets.append((work, value <= target, value, target))
        return f"<={target:g}{unit} {'met' if value <= target else 'MISSED'}"

    def failed(self, work: str, target: float, unit: str = "x") -> str:
        """The target of work that did not complete (a command that exited non-zero): missed,
        whatever its time."""
        self.targets.append((work, False, float("nan"), target))
        return f"<={target:g}{unit} FAILED"

    def render(self) -> str:
        widths = [max(len(line[i]) for line in self.lines) for i in range(len(self.HEADER))]
        text = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in self.lines]
        text.insert(1, "-" * len(text[0]))
        return "\n".join(text)


def timed_lines():
    """(work, row, our column, PyTorch's column, our torch backend's column, target, our torch
    backend's target or None) per line."""
    for op in workloads.OPS:
        for name, label in STRATEGY_LABELS.items():
            torch_column, ours_torch_column, target = OP_COUNTERPARTS[name]
            work, key = f"8x8 f32 {op}, {label}", f"op:{op}"
            yield work, key, name, torch_column, ours_torch_column, target, ON_TORCH_OP_TARGET
    for batch in workloads.MLP_BATCHES:
        numpy_call = "np.dot" if workloads.numpy_dot_for(batch) is np.dot else "@"
        work = f"MLP fwd+bwd, batch {batch} (numpy {numpy_call})"
        on_torch_target = ON_TORCH_MLP_TARGETS.get(batch)
        yield work, f"mlp:{batch}", "ours", "torch", "ours_tracked", MLP_TARGET, on_torch_target


def build_table(mine: dict, worker: dict | None) -> Table:
    table = Table()
    theirs = {k: Row.from_json(v) for k, v in worker["rows"].items()} if worker else {}
    for work, key, column, torch_column, ours_torch_column, target, on_torch in timed_lines():
        row, other = mine[key], theirs.get(key)
        versus = row.ratios[column] / other.ratios[torch_column] if other else None
        # both ratios over raw numpy come from the worker's process, as PyTorch's
        on_torch_versus = (
            other.ratios[ours_torch_column] / other.ratios[torch_column]
            if other and ours_torch_column in other.ratios
            else None
        )
        table.add(
            work,
            fmt_time(row.seconds["numpy"]),
            fmt_cell(row, column),
            fmt_cell(other, torch_column),
            f"{versus:.2f}x" if other else "n/a",
            table.target(work, versus, target),
            fmt_cell(other, ours_torch_column),
            f"{on_torch_versus:.2f}x" if on_torch_versus is not None else "n/a",
            (
                table.target(f"{work} on torch", on_torch_versus, on_torch)
                if on_torch is not None and on_torch_versus is not None
                else ""
            ),
        )
    return table


def main() -> None:
    set_num_threads(1)
    started, load = time.perf_counter(), OtherLoad()
    a, b = workloads.op_inputs()
    problems = [workloads.mlp_problem(batch) for batch in workloads.MLP_BATCHES]
    print("speed: checking that every column computes raw numpy's results ...", flush=True)
    check_ours(a, b, problems)
    print("speed: timing PyTorch (its own process) ...", flush=True)
    worker, no_torch = run_torch_worker()
    if worker:
        for batch, loss in worker["reference_losses"].items():
            workloads.assert_same(
                f"the PyTorch worker's MLP batch {batch} data",
                loss,
                workloads.numpy_mlp_step(workloads.mlp_problem(int(batch)))[0],
                1e-6,
                0.0,
            )
    print("speed: timing raw numpy and ours ...", flush=True)
    mine = time_ours(a, b, problems)
    print("speed: timing the codegen ...", flush=True)
    regenerate, regenerate_note = codegen_seconds(lambda tmp: ["--out", str(tmp / "generated")])
    check, check_note = codegen_seconds(lambda tmp: ["--check"])

    table = build_table(mine, worker)
    for work, seconds, note in (
        ("codegen: full regenerate (empty dir)", regenerate, regenerate_note),
        ("codegen: --check", check, check_note),
    ):
        table.add(
            work,
            "",
            fmt_time(seconds) + (f" ({note})" if note else ""),
            "",
            "",
            (
                table.failed(work, CODEGEN_TARGET, " s")
                if note
                else table.target(work, seconds, CODEGEN_TARGET, " s")
            ),
            "",
            "",
            "",
        )

    print()
    print(
        f"== speed: median of {REPEATS} interleaved repeats; (x numpy) = time / raw numpy's time "
        "in the same process =="
    )
    print(table.render())
    met = sum(ok for _, ok, *_ in table.targets)
    print(f"\ntargets met: {met}/{len(table.targets)}")
    print(
        f"\nnumpy {np.__version__}, {os.cpu_count()} cpus; PyTorch: "
        f"{worker['torch'] if worker else no_torch}; our loss: the fused cross-entropy"
    )
    others = load.share(time.perf_counter() - started)
    if others is not None:
        print(f"other processes used {others:.0%} of the CPUs during this run", end="")
        print(": NOT a quiet machine, the figures are unreliable" if others > 0.05 else "")
    if worker and worker["ours_on_torch_missing"]:
        print(f"ours on torch: n/a, Device.torch() fails: {worker['ours_on_torch_missing']}")
    # The per-op rows are the eager floor: the cost of the dispatch itself, which every op pays.
    moved = [
        f"{work}: {value:.2f}x (target <= {target:g}x)"
        for work, ok, value, target in table.targets
        if work.startswith("8x8") and not ok
    ]
    if moved:
        raise FloorMoved("the per-op floor moved:\n  " + "\n  ".join(moved))
