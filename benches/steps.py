"""Whole training steps, ours against PyTorch eager (or hand-written numpy), with peak memory.

Rows, float32, one thread (numpy's BLAS and torch's pool), in one subprocess:

- the char-level transformer of examples/char_transformer.py (benches/char_step.py): 2 pre-norm
  blocks, d 64, 4 heads, context 64, batch 16, its 103 characters; forward, cross-entropy,
  backward, and an AdamW step with per-parameter gradient clipping. Ours on the NumPy and on
  the Torch backend, from the same initial weights as its torch.nn twin;
- the MLP 784-256-256-10 at batch 64, forward + backward, against the hand-written numpy step;
- conv2d 3x3, [64, 16, 14, 14] -> 32 channels, padding 1, forward + backward (x, weight, bias);
- layer_norm over the last dim of [64, 128, 256], forward + backward (x, gamma, beta).

Every column is checked against the reference column before anything is timed (the same loss,
the same gradients). Times are medians of interleaved repeats (benches/timing.py) and each ratio
is taken within a repeat. Peak memory is that of one step on top of what was allocated before:
tracemalloc for numpy arrays, torch's profiler for torch tensors (see examples/digits_cnn.py).
Run `python benches/steps.py` (or `make bench`).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches.memory import run_worker  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402

CONV_X, CONV_OUT = (64, 16, 14, 14), 32
NORM_X = (64, 128, 256)
REPEATS = 15

# row -> (reference column, {our column: target ratio or None})
TARGETS = {
    "transformer": ("PyTorch", {"ours numpy": 1.5, "ours torch": 1.5}),
    "mlp": ("numpy", {"ours numpy": 1.10}),
    "conv2d": ("PyTorch", {"ours numpy": 2.0, "ours torch": None}),
    "layer_norm": ("PyTorch", {"ours numpy": 1.5, "ours torch": None}),
}
TITLES = {
    "transformer": "char transformer step, batch 16, context 64, AdamW",
    "mlp": "MLP 784-256-256-10 fwd+bwd, batch 64",
    "conv2d": "conv2d 3x3 [64,16,14,14] -> 32 ch, fwd+bwd",
    "layer_norm": "layer_norm [64,128,256], fwd+bwd",
}


# -- the transformer: examples/char_transformer.py's model and its PyTorch twin -------------------


def transformer_columns():
    """column -> (step thunk, on torch), each from the same initial weights and batch; AdamW
    with per-parameter clipping."""
    from benches import char_step
    from examples.char_transformer import step_loss, torch_train_step
    from burnpy import Tensor

    args = char_step.arguments()
    inputs, targets = next(char_step.batches(args))
    clip = char_step.CLIP_NORM
    columns = {}
    for name, backend in (("ours numpy", "numpy"), ("ours torch", "torch")):
        model, opt = char_step.ours(backend, args, clip)
        device = model.devices()[0]
        x, y = (Tensor.from_data(a, device=device) for a in (inputs, targets))
        columns[name] = (
            lambda m=model, o=opt, x=x, y=y: step_loss(m, o, args.lr, x, y),
            backend == "torch",
        )
    net, opt = char_step.theirs(args)
    columns["PyTorch"] = (
        lambda: torch_train_step(net, opt, args.lr, inputs, targets, grad_clip_norm=clip),
        True,
    )
    return columns


# -- the kernel rows: forward + backward through the public API ---------------------------------


def _conv_step(x, weight, bias):
    from burnpy import module

    grads = module.conv2d(x, weight, bias, padding=1).sum().backward()
    return x.grad(grads), weight.grad(grads), bias.grad(grads)


def _torch_conv_step(x, weight, bias):
    import torch

    for t in (x, weight, bias):
        t.grad = None
    torch.nn.functional.conv2d(x, weight, bias, padding=1).sum().backward()
    return x.grad, weight.grad, bias.grad


def _norm_step(x, gamma, beta):
    from burnpy import module

    grads = module.layer_norm(x, gamma, beta).sum().backward()
    return x.grad(grads), gamma.grad(grads), beta.grad(grads)


def _torch_norm_step(x, gamma, beta):
    import torch

    for t in (x, gamma, beta):
        t.grad = None
    torch.nn.functional.layer_norm(x, x.shape[-1:], gamma, beta, 1e-5).sum().backward()
    return x.grad, gamma.grad, beta.grad


def kernel_columns(step, torch_step, arrays):
    import torch

    from burnpy import Device, Tensor

    columns = {}
    for name, backend in (("ours numpy", Device.numpy()), ("ours torch", Device.torch())):
        device = backend.autodiff()
        tensors = [Tensor.from_data(a, device=device).require_grad() for a in arrays]
        columns[name] = (lambda t=tensors: step(*t), name == "ours torch")
    tensors = [torch.from_numpy(a).requires_grad_() for a in arrays]
    columns["PyTorch"] = (lambda: torch_step(*tensors), True)
    return columns


def mlp_columns():
    from benches import ours, workloads
    from burnpy import Device

    problem = workloads.mlp_problem(64)
    mlp = ours.MLP(problem, Device.numpy())
    return {
        "ours numpy": (mlp.step, False),
        "numpy": (lambda: workloads.numpy_mlp_step(problem), False),
    }


def row_columns(row: str) -> dict:
    import numpy as np

    rng = np.random.default_rng(0)
    if row == "transformer":
        return transformer_columns()
    if row == "mlp":
        return mlp_columns()
    if row == "conv2d":
        shapes = [CONV_X, (CONV_OUT, CONV_X[1], 3, 3), (CONV_OUT,)]
        arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        return kernel_columns(_conv_step, _torch_conv_step, arrays)
    shapes = [NORM_X, NORM_X[-1:], NORM_X[-1:]]
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return kernel_columns(_norm_step, _torch_norm_step, arrays)


# -- checks: every column computes what the reference computes ----------------------------------


def _flat(result) -> list:
    """A step's result (a loss, or a loss and gradients, or gradients; our tensors, torch's or
    numpy arrays) as a list of float64 arrays. Outside the timed calls: ours copy to numpy."""
    import numpy as np

    def array(value):
        if hasattr(value, "to_numpy"):
            return value.to_numpy()
        return value.detach().numpy() if hasattr(value, "detach") else value

    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], list | tuple):
        loss, grads = result  # the MLP: (loss, [grads])
        result = [loss, *grads]
    if isinstance(result, list | tuple):
        return [np.asarray(array(r), np.float64) for r in result]
    return [np.asarray(array(result), np.float64)]


def check(row: str, columns: dict) -> None:
    """The columns' first results agree with the reference's: float32 arithmetic in another
    order (the transformer: the loss of each of three steps, so the optimiser step is checked)."""
    import numpy as np

    reference = TARGETS[row][0]
    steps = 3 if row == "transformer" else 1
    results = {name: [_flat(run()) for _ in range(steps)] for name, (run, _) in columns.items()}
    expected = results[reference]
    for name, got in results.items():
        for step, (a, b) in enumerate(zip(got, expected)):
            for index, (x, y) in enumerate(zip(a, b)):
                scale = float(np.max(np.abs(y), initial=0.0))
                if not np.allclose(x, y, rtol=1e-4, atol=2e-5 * scale):
                    worst = float(np.max(np.abs(x - y)))
                    raise BenchMismatch(
                        f"{row}: {name}'s result {index} of step {step + 1} differs from "
                        f"{reference}'s by up to {worst:.3g}: the columns compute different things"
                    )


# -- the worker ---------------------------------------------------------------------------------


def measure_row(row: str) -> dict:
    import torch

    from benches.timing import Column, measure
    from examples.digits_cnn import peak_bytes

    torch.set_num_threads(1)
    columns = row_columns(row)
    check(row, columns)
    timed = {name: Column("run()", {"run": run}) for name, (run, _) in columns.items()}
    measured = measure(timed, TARGETS[row][0], repeats=REPEATS, min_time=0.05)
    return {
        name: {
            "seconds": measured.seconds[name],
            "ratio": measured.ratios[name],
            "peak": peak_bytes(run, on_torch),
        }
        for name, (run, on_torch) in columns.items()
    }


def table(results: dict) -> str:
    head = (
        f"{'step (f32, 1 thread)':<52}{'column':<12}{'ms':>8}{'ratio':>8}{'peak MiB':>10}  target"
    )
    lines = [head, "-" * len(head)]
    for row, columns in results.items():
        reference, targets = TARGETS[row]
        for index, (name, cell) in enumerate(columns.items()):
            title = TITLES[row] if index == 0 else ""
            limit = targets.get(name)
            verdict = ""
            if limit is not None:
                verdict = f"<= {limit}x: {'met' if cell['ratio'] <= limit else 'MISSED'}"
            elif name == reference:
                verdict = "(reference)"
            lines.append(
                f"{title:<52}{name:<12}{cell['seconds'] * 1e3:>8.2f}{cell['ratio']:>7.2f}x"
                f"{cell['peak'] / 2**20:>10.2f}  {verdict}"
            )
    return "\n".join(lines)


def main(rows=tuple(TARGETS)) -> dict:
    results = {}
    for row in rows:  # one subprocess per row: one row's allocations do not weigh on the next
        results[row] = run_worker(__file__, row)
    print(table(results))
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure_row(sys.argv[2])))
    else:
        main(tuple(sys.argv[1:]) or tuple(TARGETS))
