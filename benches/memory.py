"""Peak extra memory and time of forward + backward: NoCheckpointing, Balanced, hand-written numpy.

Two workloads:

- mlp: 20 layers of `tanh(x @ W + b) * 0.9` at batch 4096, width 256 (float32), loss = sum. The
  activations (4 MiB each) dominate; weights and their gradients are 256 KiB per layer.
- chain: 50 steps of `y = tanh(y) * 1.01` on 1,000,000 float32 (4 MB per value), loss = sum.

Each (workload, column) runs in a fresh subprocess so peaks cannot interfere: one warm-up run,
then the median time of a few untraced runs, then one run under tracemalloc (numpy reports its
buffers to it) for the peak of memory allocated on top of the inputs and parameters, gradients
included. Run `python benches/memory.py` (or `make bench`).

Why Balanced saves nothing on the chain: every op of it is memory-bound, so the forward pass
keeps nothing but x. The first backward step, tanh's, needs its output, which is recomputed
from x through the whole chain; and every tanh output is needed again by its own backward step
a little later, so the checkpointer must hold all 50 of them until then (each `tanh * 1.01`
output goes as soon as the next tanh is computed). The peak is NoCheckpointing's, reached in
backward instead of forward, for one more forward pass of time. burn's checkpointer does the
same (docs/semantics.md#gradient-checkpointing). Balanced pays where a compute-bound op breaks
the chain, as the matmuls do in the mlp: each layer keeps the matmul's output and recomputes
three cheap ops.
"""

import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

LAYERS, BATCH, WIDTH, SCALE = 20, 4096, 256, 0.9
DEPTH, SIZE, FACTOR = 50, 1_000_000, 1.01
COLUMNS = ("NoCheckpointing", "Balanced", "numpy")
TIMED_RUNS = 5


# -- the workloads: each returns the gradients it computed, so they count in the peak ----------


def mlp_inputs():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, WIDTH), dtype=np.float32)
    weights = [
        rng.standard_normal((WIDTH, WIDTH), dtype=np.float32) / np.float32(np.sqrt(WIDTH))
        for _ in range(LAYERS)
    ]
    biases = [rng.standard_normal(WIDTH, dtype=np.float32) * np.float32(0.1) for _ in range(LAYERS)]
    return x, weights, biases


def chain_inputs():
    return (np.random.default_rng(0).standard_normal(SIZE, dtype=np.float32),)


def mlp_numpy(x, weights, biases):
    inputs, outputs = [], []  # what backward needs: each layer's input and tanh output
    for w, b in zip(weights, biases):
        inputs.append(x)
        t = np.tanh(x @ w + b)
        outputs.append(t)
        x = t * np.float32(SCALE)
    del x, t  # the loss is sum(x): its gradient is ones, whatever x holds
    g = np.full((BATCH, WIDTH), SCALE, dtype=np.float32)  # d loss / d t of the last layer
    grads = []
    for w in reversed(weights):
        t = outputs.pop()
        g = g * (1 - t * t)
        del t
        x = inputs.pop()
        grads.append((x.T @ g, g.sum(0)))
        del x
        if inputs:
            g = (g @ w.T) * np.float32(SCALE)
    return grads


def chain_numpy(x):
    outputs = []
    y = x
    for _ in range(DEPTH):
        t = np.tanh(y)
        outputs.append(t)
        y = t * np.float32(FACTOR)
    del y, t
    g = np.full(SIZE, FACTOR, dtype=np.float32)
    while outputs:
        t = outputs.pop()
        g = g * (1 - t * t)
        del t
        if outputs:
            g = g * np.float32(FACTOR)
    return g


def mlp_autodiff(device):
    from burnpy import Tensor

    def prepare(x, weights, biases):
        x = Tensor.from_data(x, device=device)
        weights = [Tensor.from_data(w, device=device).require_grad() for w in weights]
        biases = [Tensor.from_data(b, device=device).require_grad() for b in biases]
        return x, weights, biases

    def loss(x, weights, biases):
        for w, b in zip(weights, biases):
            x = (x.matmul(w) + b).tanh() * SCALE
        return x.sum()

    def run(x, weights, biases):
        grads = loss(x, weights, biases).backward()
        return [(w.grad(grads), b.grad(grads)) for w, b in zip(weights, biases)]

    return prepare, run


def chain_autodiff(device):
    from burnpy import Tensor

    def prepare(x):
        return (Tensor.from_data(x, device=device).require_grad(),)

    def loss(y):
        for _ in range(DEPTH):
            y = y.tanh() * FACTOR
        return y.sum()

    def run(x):
        return x.grad(loss(x).backward())

    return prepare, run


WORKLOADS = {
    "mlp": (
        f"(a) {LAYERS} x [matmul, +bias, tanh, *{SCALE}], batch {BATCH}, width {WIDTH}",
        mlp_inputs,
        mlp_numpy,
        mlp_autodiff,
    ),
    "chain": (
        f"(b) {DEPTH} x [y = tanh(y) * {FACTOR}] on {SIZE:,} f32",
        chain_inputs,
        chain_numpy,
        chain_autodiff,
    ),
}


def measure(workload: str, column: str) -> dict:
    """Peak extra bytes and median seconds of one (workload, column), in this process."""
    _, make_inputs, numpy_run, autodiff_run = WORKLOADS[workload]
    inputs = make_inputs()
    if column == "numpy":
        run = numpy_run
    else:
        from burnpy import Device

        device = Device.numpy().autodiff()
        if column == "Balanced":
            device = device.gradient_checkpointing()
        prepare, run = autodiff_run(device)
        inputs = prepare(*inputs)
    run(*inputs)  # warm-up: imports, caches, the specialization
    times = []
    for _ in range(TIMED_RUNS):
        start = time.perf_counter()
        run(*inputs)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    run(*inputs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"peak": peak, "time": statistics.median(times)}


# What every measuring subprocess runs under, the same for the three columns, so that the times
# compare what the library does rather than what the machine does around it:
# - BLAS on one thread: on a shared 2-core machine a multi-threaded matmul's time swings 5x from
#   run to run with the load of other processes, single-threaded it stays within a few percent;
# - glibc's malloc as a user's process has it: burnpy's NumPy backend tells it to keep freed
#   memory as it loads (runtime/backends/heap.py), and a column without burnpy runs glibc's
#   default.
# tracemalloc's peaks depend on neither.
ENVIRONMENT = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def run_worker(script, *args, threads=1):
    """`python script --measure *args` under ENVIRONMENT (with `threads` BLAS and OpenMP
    threads), this checkout first on the path; the JSON its last line of output holds."""
    counts = {name: str(threads) for name in THREAD_VARIABLES}
    output = subprocess.run(
        [sys.executable, str(script), "--measure", *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **ENVIRONMENT, **counts, "PYTHONPATH": str(ROOT)},
    ).stdout
    return json.loads(output.splitlines()[-1])


def measure_in_subprocess(workload: str, column: str) -> dict:
    return run_worker(__file__, workload, column)


TARGETS = {  # (workload, ratio) -> the most it may be
    ("mlp", "NoCheckpointing/numpy peak"): 1.05,
    ("chain", "NoCheckpointing/numpy peak"): 1.05,
    ("mlp", "Balanced/NoCheckpointing peak"): 0.6,
    ("mlp", "Balanced/NoCheckpointing time"): 1.5,
}


def table(results: dict) -> str:
    """One line per workload (peak MiB and seconds per column), then the ratios, each against
    its target where the issue sets one."""
    head = f"{'workload':<58}" + "".join(f"{c + ' MiB':>20}{'s':>7}" for c in COLUMNS)
    lines = [head, "-" * len(head)]
    for workload, (title, *_) in WORKLOADS.items():
        row = results[workload]
        cells = "".join(f"{row[c]['peak'] / 2**20:>20.1f}{row[c]['time']:>7.2f}" for c in COLUMNS)
        lines.append(f"{title:<58}{cells}")
    lines.append("")
    for workload in WORKLOADS:
        row = results[workload]
        none, balanced, numpy = (row[c] for c in COLUMNS)
        ratios = {
            "NoCheckpointing/numpy peak": none["peak"] / numpy["peak"],
            "Balanced/NoCheckpointing peak": balanced["peak"] / none["peak"],
            "Balanced/NoCheckpointing time": balanced["time"] / none["time"],
        }
        for name, ratio in ratios.items():
            line = f"{workload:<6} {name:<30} {ratio:6.3f}x"
            limit = TARGETS.get((workload, name))
            if limit is not None:
                line += f"  (target <= {limit}x: {'met' if ratio <= limit else 'MISSED'})"
            lines.append(line)
    return "\n".join(lines)


def main() -> dict:
    results = {w: {c: measure_in_subprocess(w, c) for c in COLUMNS} for w in WORKLOADS}
    print(table(results))
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure(sys.argv[2], sys.argv[3])))
    else:
        main()
