"""Module ops: ours on NumPy, ours on Torch and PyTorch eager, side by side, at one thread.

Rows: conv2d forward + backward on x [64, 16, 14, 14] with a [32, 16, 3, 3] kernel, padding 1;
max_pool2d 2x2 forward + backward on the same x; a small CNN training step (conv-relu-pool twice,
linear, log-softmax cross-entropy) at batch 64 on 1x28x28. Every backward is seeded with ones
(burn's `backward()` on a non-scalar output) and reads every input's gradient.

PyTorch and our torch backend are timed in a process of their own (`python -m benches.modules
WORKER RESULT.json`), ours on NumPy in this one. Both processes also time the same raw numpy
float32 GEMM (the conv's forward GEMM, [12544, 144] @ [144, 32]) interleaved with their columns:
each column's time over that anchor's, taken repeat by repeat, makes the two processes'
figures comparable on a machine whose speed drifts. Before timing, the worker checks that all
three columns compute the same outputs and gradients.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from benches.timing import REPEATS, Column, OtherLoad, Row, measure
from benches.workloads import BenchMismatch, assert_same
from burnpy import Device, Tensor, module

ROOT = Path(__file__).resolve().parent.parent
NUMPY_TARGET, TORCH_TARGET = 2.0, 1.2  # ours / PyTorch: ours on NumPy (every row), on Torch (convs)
EXIT_MISMATCH = 3
RTOL, ATOL_SCALE = 1e-4, 1e-5  # float32, summed in different orders by the three columns
ROWS = {
    "conv2d": "conv2d 3x3 pad 1, [64,16,14,14] -> 32 ch: fwd + bwd",
    "max_pool2d": "max_pool2d 2x2, [64,16,14,14]: fwd + bwd",
    "cnn": "CNN step (2x conv-relu-pool, linear, CE), batch 64, 1x28x28",
}
TORCH_TARGET_ROWS = ("conv2d",)


def inputs() -> dict:
    rng = np.random.default_rng(0)

    def normal(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return {
        "x": normal(64, 16, 14, 14),
        "weight": normal(32, 16, 3, 3, scale=1 / 12),
        "bias": normal(32),
        "images": normal(64, 1, 28, 28),
        "labels": rng.integers(0, 10, 64),
        "anchor": normal(12544, 144),
        # conv 1 -> 8, conv 8 -> 16, linear 16*7*7 -> 10 ([d_in, d_out], burn's layout)
        "cnn": [
            normal(8, 1, 3, 3, scale=1 / 3),
            normal(8, scale=0.1),
            normal(16, 8, 3, 3, scale=1 / 8.5),
            normal(16, scale=0.1),
            normal(784, 10, scale=1 / 28),
            normal(10, scale=0.1),
        ],
    }


def anchor_column(data) -> Column:
    b = np.ascontiguousarray(data["weight"].reshape(32, 144).T)
    return Column("a @ b", {"a": data["anchor"], "b": b})


# -- ours (any Device) ------------------------------------------------------------------------


class Ours:
    """The three workloads through `burnpy.generated.module` on an autodiff device."""

    def __init__(self, data, device: Device):
        device = device.autodiff()

        def leaf(array):
            return Tensor.from_data(array, device=device).require_grad()

        self.x, self.weight, self.bias = (leaf(data[k]) for k in ("x", "weight", "bias"))
        self.images = Tensor.from_data(data["images"], device=device)
        self.labels = Tensor.from_data(data["labels"].reshape(-1, 1), device=device)
        self.params = [leaf(p) for p in data["cnn"]]

    def conv2d(self):
        out = module.conv2d(self.x, self.weight, self.bias, padding=1)
        grads = out.backward()
        return out, [t.grad(grads) for t in (self.x, self.weight, self.bias)]

    def max_pool2d(self):
        out = module.max_pool2d(self.x, 2)
        grads = out.backward()
        return out, [self.x.grad(grads)]

    def cnn(self):
        w1, b1, w2, b2, w3, b3 = self.params
        h = module.max_pool2d(module.conv2d(self.images, w1, b1, padding=1).relu(), 2)
        h = module.max_pool2d(module.conv2d(h, w2, b2, padding=1).relu(), 2)
        logits = module.linear(h.reshape([64, 784]), w3, b3)
        loss = logits.log_softmax(1).gather(1, self.labels).mean().neg()
        grads = loss.backward()
        return loss, [p.grad(grads) for p in self.params]

    def results(self, row) -> list:
        out, grads = getattr(self, row)()
        return [out.to_numpy(), *(g.to_numpy() for g in grads)]

    def column(self, row) -> Column:
        return Column("step()", {"step": getattr(self, row)})


def time_columns(columns_per_row: dict, data) -> dict:
    """Each row's columns timed with the anchor, interleaved; ratios are to the anchor."""
    rows = {}
    with threadpool_limits(1):
        for row, columns in columns_per_row.items():
            columns = {"anchor": anchor_column(data), **columns}
            rows[row] = measure(columns, "anchor").to_json()
    return rows


# -- the PyTorch worker -----------------------------------------------------------------------


def worker(result_path: str) -> int:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    data = inputs()

    def leaf(array):
        return torch.from_numpy(array.copy()).requires_grad_()

    x, weight, bias = (leaf(data[k]) for k in ("x", "weight", "bias"))
    images, labels = torch.from_numpy(data["images"]), torch.from_numpy(data["labels"])
    params = [leaf(p) for p in data["cnn"]]

    def conv2d():
        for t in (x, weight, bias):
            t.grad = None
        out = F.conv2d(x, weight, bias, padding=1)
        out.backward(torch.ones_like(out))
        return out, [x.grad, weight.grad, bias.grad]

    def max_pool2d():
        x.grad = None
        out = F.max_pool2d(x, 2)
        out.backward(torch.ones_like(out))
        return out, [x.grad]

    def cnn():
        for p in params:
            p.grad = None
        w1, b1, w2, b2, w3, b3 = params
        h = F.max_pool2d(F.relu(F.conv2d(images, w1, b1, padding=1)), 2)
        h = F.max_pool2d(F.relu(F.conv2d(h, w2, b2, padding=1)), 2)
        loss = F.cross_entropy(F.linear(h.reshape(64, 784), w3.T, b3), labels)
        loss.backward()
        return loss, [p.grad for p in params]

    steps = {"conv2d": conv2d, "max_pool2d": max_pool2d, "cnn": cnn}
    ours_numpy, ours_torch = Ours(data, Device.numpy()), Ours(data, Device.torch())
    try:
        for row, step in steps.items():
            out, grads = step()
            expected = [out.detach().numpy(), *(g.numpy() for g in grads)]
            for label, ours in (("ours on NumPy", ours_numpy), ("ours on Torch", ours_torch)):
                for i, (got, want) in enumerate(zip(ours.results(row), expected)):
                    what = "output" if i == 0 else f"gradient {i}"
                    assert_same(f"{label} {row} {what}", got, want, RTOL, ATOL_SCALE)
    except BenchMismatch as error:
        print(f"modules worker: {error}", file=sys.stderr)
        return EXIT_MISMATCH
    columns = {
        row: {"torch": Column("step()", {"step": step}), "ours_torch": ours_torch.column(row)}
        for row, step in steps.items()
    }
    result = {
        "torch": f"{torch.__version__}, {torch.get_num_threads()} thread(s), "
        f"mkldnn {torch.backends.mkldnn.is_available()}",
        "rows": time_columns(columns, data),
    }
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


def run_worker() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        result_path = os.path.join(tmp, "modules.json")
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
        proc = subprocess.run(
            [sys.executable, "-m", "benches.modules", "WORKER", result_path],
            cwd=ROOT,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        if proc.returncode != 0:
            raise BenchMismatch(f"the modules worker failed:\n{proc.stderr.strip()}")
        with open(result_path, encoding="utf-8") as f:
            return json.load(f)


# -- the table --------------------------------------------------------------------------------


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def main() -> None:
    started, load = time.perf_counter(), OtherLoad()
    print("modules: checking, then timing PyTorch and ours on Torch (their own process) ...")
    theirs = run_worker()
    print("modules: timing ours on NumPy ...", flush=True)
    data = inputs()
    ours = Ours(data, Device.numpy())
    mine = time_columns({row: {"ours_numpy": ours.column(row)} for row in ROWS}, data)

    header = (
        "work",
        "ours NumPy",
        "ours Torch",
        "PyTorch",
        "NumPy/PyTorch",
        "target",
        "Torch/PyTorch",
        "target",
    )
    lines, met = [header], []

    def target(value, limit):
        met.append(value <= limit)
        return f"<={limit:g}x {'met' if value <= limit else 'MISSED'}"

    for row, label in ROWS.items():
        here, there = Row.from_json(mine[row]), Row.from_json(theirs["rows"][row])
        numpy_ratio = here.ratios["ours_numpy"] / there.ratios["torch"]
        torch_ratio = there.ratios["ours_torch"] / there.ratios["torch"]
        lines.append(
            (
                label,
                fmt_ms(here.seconds["ours_numpy"]),
                fmt_ms(there.seconds["ours_torch"]),
                fmt_ms(there.seconds["torch"]),
                f"{numpy_ratio:.2f}x",
                target(numpy_ratio, NUMPY_TARGET),
                f"{torch_ratio:.2f}x",
                target(torch_ratio, TORCH_TARGET) if row in TORCH_TARGET_ROWS else "",
            )
        )
    anchors = [
        Row.from_json(rows[row]).seconds["anchor"]
        for rows in (mine, theirs["rows"])
        for row in ROWS
    ]
    lines.append(
        (
            "numpy GEMM anchor (median over rows): this process, the worker",
            fmt_ms(float(np.median(anchors[: len(ROWS)]))),
            fmt_ms(float(np.median(anchors[len(ROWS) :]))),
            *[""] * 5,
        )
    )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
    text.insert(1, "-" * len(text[0]))
    print()
    print(
        f"== module ops: median of {REPEATS} interleaved repeats, 1 thread; ratios are of each "
        "process's time over the same numpy GEMM's =="
    )
    print("\n".join(text))
    print(f"\ntargets met: {sum(met)}/{len(met)}")
    blas = ", ".join(
        f"{i['internal_api']} {i.get('version')} ({i['num_threads']} threads)"
        for i in threadpool_info()
        if i["user_api"] == "blas"
    )
    print(f"numpy {np.__version__} BLAS: {blas}; PyTorch: {theirs['torch']}")
    others = load.share(time.perf_counter() - started)
    if others is not None:
        print(f"other processes used {others:.0%} of the CPUs during this run", end="")
        print(": NOT a quiet machine, the figures are unreliable" if others > 0.05 else "")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "WORKER":
        sys.exit(worker(sys.argv[2]))
    main()
