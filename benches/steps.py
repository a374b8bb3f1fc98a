"""Whole training steps, ours against PyTorch eager (or hand-written numpy), with peak memory.

Rows, float32, one thread (numpy's BLAS and torch's pool), in one subprocess:

- a small char-level transformer: 2 pre-norm blocks, d 64, 4 heads, context 64, batch 16,
  vocabulary 65; forward, cross-entropy, backward, and an AdamW step with per-parameter
  gradient clipping. Ours on the NumPy and on the Torch backend, built with the public API from
  the same initial weights as the PyTorch model;
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
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the checkout this file belongs to, before an installed copy

from benches.memory import ENVIRONMENT  # noqa: E402

VOCAB, CONTEXT, BATCH, D_MODEL, HEADS, BLOCKS = 65, 64, 16, 64, 4, 2
LR, WEIGHT_DECAY, CLIP_NORM = 1e-3, 1e-2, 1.0
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
    "transformer": f"transformer step, batch {BATCH}, context {CONTEXT}, d {D_MODEL}, AdamW",
    "mlp": "MLP 784-256-256-10 fwd+bwd, batch 64",
    "conv2d": "conv2d 3x3 [64,16,14,14] -> 32 ch, fwd+bwd",
    "layer_norm": "layer_norm [64,128,256], fwd+bwd",
}


# -- the transformer, ours: one function builds it (public API) ---------------------------------


def make_transformer(device, seed: int = 0):
    """The model on an autodiff `device`: embeddings, BLOCKS pre-norm blocks (causal multi-head
    attention, then a GELU MLP of width 4d), a final LayerNorm and the vocabulary head."""
    from burnpy import nn
    from generated import Tensor, module

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm_1 = nn.LayerNorm(D_MODEL, device=device)
            self.query = nn.Linear(D_MODEL, D_MODEL, device=device)
            self.key = nn.Linear(D_MODEL, D_MODEL, device=device)
            self.value = nn.Linear(D_MODEL, D_MODEL, device=device)
            self.out = nn.Linear(D_MODEL, D_MODEL, device=device)
            self.norm_2 = nn.LayerNorm(D_MODEL, device=device)
            self.up = nn.Linear(D_MODEL, 4 * D_MODEL, device=device)
            self.down = nn.Linear(4 * D_MODEL, D_MODEL, device=device)

        def heads(self, x):
            batch, context, _ = x.shape
            return x.reshape([batch, context, HEADS, D_MODEL // HEADS]).swap_dims(1, 2)

        def forward(self, x):
            batch, context, _ = x.shape
            h = self.norm_1(x)
            q, k, v = (self.heads(layer(h)) for layer in (self.query, self.key, self.value))
            attended = module.attention(q, k, v, is_causal=True)
            x = x + self.out(attended.swap_dims(1, 2).reshape([batch, context, D_MODEL]))
            return x + self.down(self.up(self.norm_2(x)).gelu())

    class Transformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.tokens = nn.Embedding(VOCAB, D_MODEL, device=device)
            self.positions = nn.Embedding(CONTEXT, D_MODEL, device=device)
            self.blocks = [Block() for _ in range(BLOCKS)]
            self.norm = nn.LayerNorm(D_MODEL, device=device)
            self.head = nn.Linear(D_MODEL, VOCAB, device=device)
            self.position_ids = Tensor.arange(0, CONTEXT, device=device).reshape([1, CONTEXT])

        def forward(self, tokens):
            x = self.tokens(tokens) + self.positions(self.position_ids)
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x))

    device.seed(seed)
    return Transformer()


def transformer_step(model, opt, tokens, targets):
    """One training step; returns the loss as a float."""
    from burnpy.nn.functional import cross_entropy

    logits = model(tokens)
    loss = cross_entropy(logits.reshape([BATCH * CONTEXT, VOCAB]), targets)
    opt.step(model, loss.backward())
    return loss.item()


def torch_transformer(model):
    """The same model in PyTorch, from `model`'s weights (ours are [d_in, d_out], torch's the
    transpose)."""
    import numpy as np
    import torch
    from torch import nn as tnn

    def linear(ours):
        layer = tnn.Linear(*ours.weight.shape)
        layer.weight.data = torch.from_numpy(np.array(ours.weight.to_numpy().T))
        layer.bias.data = torch.from_numpy(np.array(ours.bias.to_numpy()))
        return layer

    def layer_norm(ours):
        layer = tnn.LayerNorm(D_MODEL, eps=ours.epsilon)
        layer.weight.data = torch.from_numpy(np.array(ours.gamma.to_numpy()))
        layer.bias.data = torch.from_numpy(np.array(ours.beta.to_numpy()))
        return layer

    def embedding(ours):
        return tnn.Embedding.from_pretrained(
            torch.from_numpy(np.array(ours.weight.to_numpy())), freeze=False
        )

    class Block(tnn.Module):
        def __init__(self, ours):
            super().__init__()
            self.norm_1, self.norm_2 = layer_norm(ours.norm_1), layer_norm(ours.norm_2)
            self.query, self.key, self.value = (
                linear(ours.query),
                linear(ours.key),
                linear(ours.value),
            )
            self.out, self.up, self.down = linear(ours.out), linear(ours.up), linear(ours.down)

        def heads(self, x):
            batch, context, _ = x.shape
            return x.reshape(batch, context, HEADS, D_MODEL // HEADS).transpose(1, 2)

        def forward(self, x):
            batch, context, _ = x.shape
            h = self.norm_1(x)
            q, k, v = (self.heads(layer(h)) for layer in (self.query, self.key, self.value))
            attended = tnn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.out(attended.transpose(1, 2).reshape(batch, context, D_MODEL))
            return x + self.down(tnn.functional.gelu(self.up(self.norm_2(x))))

    class Transformer(tnn.Module):
        def __init__(self):
            super().__init__()
            self.tokens, self.positions = embedding(model.tokens), embedding(model.positions)
            self.blocks = tnn.ModuleList([Block(b) for b in model.blocks])
            self.norm, self.head = layer_norm(model.norm), linear(model.head)

        def forward(self, tokens):
            x = self.tokens(tokens) + self.positions.weight[: tokens.shape[1]]
            for block in self.blocks:
                x = block(x)
            return self.head(self.norm(x))

    return Transformer()


def torch_transformer_step(net, opt, tokens, targets):
    import torch

    opt.zero_grad(set_to_none=True)
    logits = net(tokens)
    loss = torch.nn.functional.cross_entropy(logits.reshape(BATCH * CONTEXT, VOCAB), targets)
    loss.backward()
    for p in net.parameters():  # per-parameter clipping, as burn's optimisers clip
        torch.nn.utils.clip_grad_norm_([p], CLIP_NORM)
    opt.step()
    return loss.item()


def transformer_columns():
    """column -> (step thunk, on torch), each from the same initial weights and batch."""
    import numpy as np
    import torch

    from burnpy import optim
    from generated import Device, Tensor

    rng = np.random.default_rng(0)
    text = rng.integers(0, VOCAB, (BATCH, CONTEXT + 1))
    reference = make_transformer(Device.numpy().autodiff())
    columns = {}
    for name, backend in (("ours numpy", Device.numpy()), ("ours torch", Device.torch())):
        device = backend.autodiff()
        model = make_transformer(Device.numpy().autodiff()).to_device(device)
        opt = optim.AdamW(LR, weight_decay=WEIGHT_DECAY, epsilon=1e-8, grad_clip_norm=CLIP_NORM)
        tokens = Tensor.from_data(text[:, :-1], device=device)
        targets = Tensor.from_data(text[:, 1:].reshape(-1), device=device)
        columns[name] = (
            lambda m=model, o=opt, t=tokens, y=targets: transformer_step(m, o, t, y),
            name == "ours torch",
        )
    net = torch_transformer(reference)
    opt = torch.optim.AdamW(net.parameters(), lr=LR, weight_decay=WEIGHT_DECAY, eps=1e-8)
    tokens = torch.from_numpy(text[:, :-1])
    targets = torch.from_numpy(text[:, 1:].reshape(-1))
    columns["PyTorch"] = (lambda: torch_transformer_step(net, opt, tokens, targets), True)
    return columns


# -- the kernel rows: forward + backward through the public API ---------------------------------


def _conv_step(x, weight, bias):
    from generated import module

    grads = module.conv2d(x, weight, bias, padding=1).sum().backward()
    return x.grad(grads), weight.grad(grads), bias.grad(grads)


def _torch_conv_step(x, weight, bias):
    import torch

    for t in (x, weight, bias):
        t.grad = None
    torch.nn.functional.conv2d(x, weight, bias, padding=1).sum().backward()
    return x.grad, weight.grad, bias.grad


def _norm_step(x, gamma, beta):
    from generated import module

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

    from generated import Device, Tensor

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
    from generated import Device

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


class BenchMismatch(AssertionError):
    pass


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
        output = subprocess.run(
            [sys.executable, __file__, "--measure", row],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, **ENVIRONMENT, "PYTHONPATH": str(ROOT)},
        ).stdout
        results[row] = json.loads(output.splitlines()[-1])
    print(table(results))
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure_row(sys.argv[2])))
    else:
        main(tuple(sys.argv[1:]) or tuple(TARGETS))
