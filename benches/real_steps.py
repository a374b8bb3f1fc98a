"""Training steps of real architectures (benches/real_models.py), ours against PyTorch eager and
torch.compile, with peak memory per column.

Rows, float32, at one thread (numpy's BLAS and torch's pool) and then at two
(`burnpy.set_num_threads(2)`, which sets torch's too), each in its own subprocess:

- resnet18: torchvision's ResNet-18 structure, 10 classes, batch 16 of 3x64x64 images, SGD
  with momentum 0.9 (dampening 0, PyTorch's) and weight decay 5e-4;
- gpt2: a GPT-2-like decoder, 2 layers, d 128, 4 heads, context 128, batch 8, vocab 1000, the
  tanh GELU, a tied head, AdamW.

Columns: ours on the NumPy and on the Torch backend, each eager, captured (`capture(step)`)
and compiled (`capture(step, compile=True)`: n/a where this tree's capture has no `compile`);
PyTorch eager (the reference) and `torch.compile` of the same module. Every column starts from
the same weights and batch, and its first three losses must be PyTorch eager's before anything
is timed. Times are medians of interleaved repeats (benches/timing.py), ratios within a repeat;
peak memory is that of one step on top of what was held before (examples/digits_cnn.py's
`peak_bytes`); a compiled column's `compile_seconds`, its first call's compile with an empty
kernel cache. The load average is printed beside the table: the machine may be shared.
Under each row, the share of PyTorch's step that its products (BLAS, oneDNN's convolutions)
and its fused attention take in its own profiler: a floor no fusion lowers, for any column that
makes the same products with a BLAS as fast.
A second table gives the compiled replay's drift from the uncompiled one over 20 training steps
on the NumPy backend, float32 and float64, against capture's bounds (benches/accuracy.py).
Run `python benches/real_steps.py [--threads N] [resnet18|gpt2]` (or `make bench`); the targets
are those at one thread.
"""

import inspect
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches.memory import run_worker  # noqa: E402

ROWS = {
    "resnet18": "ResNet-18, SGD momentum, batch 16, 3x64x64",
    "gpt2": "GPT-2 (2 layers, d 128, seq 128, batch 8), AdamW",
}
COLUMNS = (
    "numpy eager",
    "numpy captured",
    "numpy compiled",
    "torch eager",
    "torch captured",
    "torch compiled",
    "PyTorch",
    "torch.compile",
)
REFERENCE = "PyTorch"
TARGETS = {  # (row, column) -> the most its ratio to PyTorch eager may be
    ("resnet18", "numpy eager"): 1.3,
    ("resnet18", "numpy compiled"): 1.0,
    ("resnet18", "torch compiled"): 0.9,
    ("gpt2", "numpy eager"): 1.5,
    ("gpt2", "numpy compiled"): 0.7,
    ("gpt2", "torch compiled"): 1.0,
}
# PyTorch's ops whose self time is a product (BLAS, or oneDNN's convolutions) or its fused
# attention (two products around a softmax): work no fusion removes, so their share of
# PyTorch's step is the floor of a column that makes the same products with a BLAS as fast
PRODUCTS = frozenset(
    {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::mkldnn_convolution"}
    | {"aten::convolution_backward"}
)
ATTENTION = "aten::_scaled_dot_product_"
PROFILED_STEPS = 5
CHECKED_STEPS = 3
REPEATS = 7
THREAD_SETTLE = 0.3  # seconds, after each column's loop at more than one thread (see measure_row)

RESNET = {"classes": 10, "batch": 16, "size": 64, "lr": 0.01, "momentum": 0.9, "decay": 5e-4}
GPT = {"vocab": 1000, "context": 128, "d_model": 128, "heads": 4, "layers": 2, "batch": 8}
GPT_OPT = {"lr": 3e-4, "decay": 0.01}


def step(model, opt, lr, x, y):
    """One training step on our side; returns the loss tensor (captured as it is)."""
    from burnpy.nn.functional import cross_entropy

    logits = model(x)
    if logits.ndim == 3:
        logits = logits.reshape([-1, logits.shape[-1]])
    loss = cross_entropy(logits, y.reshape([-1]))
    opt.step(model, loss.backward(), lr=lr)
    return loss


def compiles() -> bool:
    """Whether this tree's capture compiles (`capture(fn, compile=True)`)."""
    from burnpy.capture import capture

    return "compile" in inspect.signature(capture).parameters


# -- the columns ------------------------------------------------------------------------------


def _data(row):
    import numpy as np

    rng = np.random.default_rng(1)
    if row == "resnet18":
        r = RESNET
        x = rng.standard_normal((r["batch"], 3, r["size"], r["size"])).astype(np.float32)
        return x, rng.integers(0, r["classes"], r["batch"])
    g = GPT
    ids = rng.integers(0, g["vocab"], (g["batch"], g["context"] + 1))
    return ids[:, :-1], ids[:, 1:]


def _models(row, torch, backend):
    """(torch module, our model on `backend`'s autodiff device) holding the same weights."""
    from benches import real_models
    from burnpy import Device

    device = (Device.torch() if backend == "torch" else Device.numpy()).autodiff()
    if row == "resnet18":
        return real_models.resnet18_pair(torch, RESNET["classes"], device)
    Device.numpy().seed(0)
    g = GPT
    ours = real_models.GPT2(
        g["vocab"], g["context"], g["d_model"], g["heads"], g["layers"], device=Device.numpy()
    )
    return real_models.torch_gpt2(torch, ours), ours.to_device(device)


def _our_optimiser(row):
    from burnpy import optim

    if row == "resnet18":
        r = RESNET
        return optim.SGD(r["lr"], momentum=r["momentum"], dampening=0.0, weight_decay=r["decay"])
    return optim.AdamW(GPT_OPT["lr"], weight_decay=GPT_OPT["decay"])


def _torch_optimiser(row, torch, net):
    """torch's optimiser over `net`, with our optimiser's rule and settings (burn's epsilon)."""
    if row == "resnet18":
        r = RESNET
        return torch.optim.SGD(
            net.parameters(), lr=r["lr"], momentum=r["momentum"], weight_decay=r["decay"]
        )
    o = GPT_OPT
    return torch.optim.AdamW(net.parameters(), lr=o["lr"], eps=1e-5, weight_decay=o["decay"])


def columns(row: str, torch) -> dict:
    """column -> (step thunk returning the loss, on torch, the captured step or None), or None
    where it is n/a."""
    from burnpy.capture import capture
    from burnpy import Tensor

    inputs, targets = _data(row)
    lr = RESNET["lr"] if row == "resnet18" else GPT_OPT["lr"]
    result = {}
    for backend in ("numpy", "torch"):
        for mode in ("eager", "captured", "compiled"):
            name = f"{backend} {mode}"
            if mode == "compiled" and not compiles():
                result[name] = None
                continue
            _, model = _models(row, torch, backend)
            opt = _our_optimiser(row)
            device = model.devices()[0]
            x, y = (Tensor.from_data(a, device=device) for a in (inputs, targets))
            fn = {"eager": step, "captured": capture(step)}.get(mode)
            fn = fn or capture(step, compile=True)
            thunk = lambda f=fn, m=model, o=opt, x=x, y=y: f(m, o, lr, x, y)  # noqa: E731
            result[name] = (thunk, backend, fn if mode == "compiled" else None)
    tx, ty = torch.from_numpy(inputs), torch.from_numpy(targets).reshape(-1)
    for name, compiled in ((REFERENCE, False), ("torch.compile", True)):
        net, _ = _models(row, torch, "numpy")
        opt = _torch_optimiser(row, torch, net)
        forward = torch.compile(net) if compiled else net

        def torch_step(forward=forward, opt=opt):
            opt.zero_grad(set_to_none=True)
            logits = forward(tx)
            loss = torch.nn.functional.cross_entropy(logits.reshape(len(ty), -1), ty)
            loss.backward()
            opt.step()
            return loss

        result[name] = (torch_step, "PyTorch", None)
    return result


def _loss(value) -> float:
    return float(value.item())


def check(row: str, cols: dict) -> None:
    """Every column's first loss is PyTorch eager's (the same weights, batch and rule), and a
    captured or compiled column's first three losses are its eager column's (captured: bit for
    bit; compiled: to 1e-5, as capture promises)."""
    from benches.workloads import BenchMismatch, check_losses

    losses = {
        name: [float(column[0]().item()) for _ in range(CHECKED_STEPS)]
        for name, column in cols.items()
        if column is not None
    }
    check_losses({name: got[:1] for name, got in losses.items()}, REFERENCE)
    for name, got in losses.items():
        backend, _, mode = name.partition(" ")
        eager = losses.get(f"{backend} eager")
        if mode not in ("captured", "compiled") or eager is None:
            continue
        tolerance = 0.0 if mode == "captured" else 1e-5
        for index, (a, b) in enumerate(zip(got, eager)):
            if abs(a - b) > tolerance * abs(b):
                raise BenchMismatch(
                    f"{row}: {name}'s loss of step {index + 1} is {a!r}, the eager step's {b!r}"
                )


# -- the compiled replay's drift over training steps -------------------------------------------


def drift_row(row: str) -> list:
    """The compiled NumPy step's drift from the uncompiled one over accuracy.STEPS steps, in
    float32 and float64 (benches/accuracy.py)."""
    import torch

    from benches import accuracy
    from burnpy.capture import capture
    from burnpy import Tensor

    torch.set_num_threads(1)
    inputs, targets = _data(row)
    lr = RESNET["lr"] if row == "resnet18" else GPT_OPT["lr"]

    def train(compile, dtype, nudge):
        _, model = _models(row, torch, "numpy")
        model = model.cast(dtype)
        if nudge:
            accuracy.nudge_first_weight(model)
        device = model.devices()[0]
        data = inputs.astype(dtype) if inputs.dtype.kind == "f" else inputs
        x, y = (Tensor.from_data(a, device=device) for a in (data, targets))
        opt, fn = _our_optimiser(row), capture(step, compile=compile)
        losses = [_loss(fn(model, opt, lr, x, y)) for _ in range(accuracy.STEPS)]
        return losses, accuracy.parameters(model)

    return [vars(d) for d in accuracy.drifts(train)]


# -- the worker ---------------------------------------------------------------------------------


def measure_row(row: str, threads: int) -> dict:
    import torch

    import burnpy
    from benches.timing import EVERY, Column, OtherLoad, measure
    from examples.digits_cnn import peak_bytes

    burnpy.set_num_threads(threads)  # (as the environment chose: the user's way, both at once)
    assert burnpy.get_num_threads() == threads == torch.get_num_threads()
    # an empty kernel cache: each compiled column's first call compiles cold
    cache = tempfile.TemporaryDirectory(prefix="burnpy-bench-")  # (removed as the worker ends)
    os.environ["BURNPY_CACHE"] = cache.name
    load = OtherLoad()
    start = os.times().elapsed
    cols = columns(row, torch)
    check(row, cols)
    live = {name: column for name, column in cols.items() if column is not None}
    timed = {name: Column("run()", {"run": run}) for name, (run, _, _) in live.items()}
    # with threads, the idle threads of one column's pool (numpy's OpenBLAS, torch's OpenMP)
    # spin a while after its loop, on the cores the next column's threads need
    settle = (EVERY, THREAD_SETTLE) if threads > 1 else None
    measured = measure(timed, REFERENCE, repeats=REPEATS, min_time=0.05, settle=settle)
    cells = {
        name: {
            "seconds": measured.seconds[name],
            "ratio": measured.ratios[name],
            "peak": peak_bytes(run, on != "numpy"),
            "compile": None if captured is None else captured.compile_seconds,
        }
        for name, (run, on, captured) in live.items()
    }
    floor = product_shares(torch, live[REFERENCE][0])
    share = load.share(os.times().elapsed - start)
    return {"cells": cells, "floor": floor, "others": share, "loadavg": os.getloadavg()}


def product_shares(torch, run) -> dict:
    """{"products": share, "attention": share} of `run`'s time (PyTorch's step), from its
    profiler's self times: see PRODUCTS."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as profiled:
        start = time.perf_counter()
        for _ in range(PROFILED_STEPS):
            run()
        elapsed = time.perf_counter() - start
    # the profiler's times are microseconds
    events = ((e.key, e.self_cpu_time_total * 1e-6) for e in profiled.key_averages())
    return shares(events, elapsed)


def shares(events, elapsed: float) -> dict:
    """The shares of `elapsed` seconds that the (op name, self seconds) `events` of products
    and of attention take."""
    products = attention = 0.0
    for name, seconds in events:
        products += seconds if name in PRODUCTS else 0.0
        attention += seconds if name.startswith(ATTENTION) else 0.0
    return {"products": products / elapsed, "attention": attention / elapsed}


def table(results: dict, threads: int = 1) -> str:
    step = f"step (f32, {threads} thread{'s' if threads > 1 else ''})"
    head = (
        f"{step:<50}{'column':<16}{'ms':>9}{'ratio':>8}{'peak MiB':>10}"
        f"{'compile s':>10}  target"
    )
    lines = [head, "-" * len(head)]
    for row, result in results.items():
        cells = result["cells"]
        for index, name in enumerate(COLUMNS):
            title = ROWS[row] if index == 0 else ""
            cell = cells.get(name)
            if cell is None:
                lines.append(f"{title:<50}{name:<16}{'n/a':>9}{'n/a':>8}{'n/a':>10}{'':>10}")
                continue
            limit = TARGETS.get((row, name)) if threads == 1 else None
            verdict = "(reference)" if name == REFERENCE else ""
            if limit is not None:
                verdict = f"<= {limit}x: {'met' if cell['ratio'] <= limit else 'MISSED'}"
            lines.append(
                f"{title:<50}{name:<16}{cell['seconds'] * 1e3:>9.1f}{cell['ratio']:>7.2f}x"
                f"{cell['peak'] / 2**20:>10.1f}{_seconds(cell.get('compile')):>10}  {verdict}"
            )
        floor = result["floor"]
        lines.append(
            f"{'':<50}(PyTorch's step, profiled: products {floor['products']:.2f} and attention "
            f"{floor['attention']:.2f} of its time, a floor no fusion lowers)"
        )
        others = result["others"]
        load = ", ".join(f"{v:.2f}" for v in result["loadavg"])
        share = "?" if others is None else f"{others:.0%}"
        lines.append(f"{'':<50}(load average {load}; other processes' CPU share {share})")
    return "\n".join(lines)


def _seconds(value) -> str:
    return "" if value is None else f"{value:.2f}"


def drift_table(drifts: dict) -> str:
    from benches import accuracy

    lines = [accuracy.HEADER]
    for row, found in drifts.items():
        name = {"resnet18": "ResNet-18", "gpt2": "GPT-2"}[row]
        lines += accuracy.lines(name, [accuracy.Drift(**d) for d in found])
    return "\n".join([*lines, accuracy.LEGEND])


def main(rows=tuple(ROWS), threads=(1, 2)) -> dict:
    """thread count -> row -> the worker's result, each count's table printed as it comes."""
    results = {}
    for count in threads:
        results[count] = {row: run_worker(__file__, row, str(count), threads=count) for row in rows}
        print(table(results[count], count), end="\n\n")
    if compiles():
        print(drift_table({row: run_worker(__file__, "drift", row) for row in rows}))
    return results


if __name__ == "__main__":
    if sys.argv[1:3] == ["--measure", "drift"]:
        print(json.dumps(drift_row(sys.argv[3])))
    elif sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure_row(sys.argv[2], int(sys.argv[3]))))
    elif sys.argv[1:2] == ["--threads"]:
        main(tuple(sys.argv[3:]) or tuple(ROWS), (int(sys.argv[2]),))
    else:
        main(tuple(sys.argv[1:]) or tuple(ROWS))
