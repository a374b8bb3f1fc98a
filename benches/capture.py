"""Capture: a step recorded once and replayed as generated code, against the same step eager,
hand-written numpy and PyTorch eager, all at one thread in this process.

Rows: the MLP 784-256-256-10 forward + backward at batch 1 and 64 (loss and the six gradients);
the digits CNN training step (forward, backward, Adam) at batch 32; a char-level transformer
training step (2 pre-norm blocks, d_model 64, 4 heads, context 64, batch 16, Adam). Before
anything is timed, the captured step is checked to give exactly the eager step's values, and
the eager step to agree with numpy's (MLP) or PyTorch's (CNN, transformer) first loss.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import numpy as np  # noqa: E402

from benches import workloads  # noqa: E402
from benches.timing import Column, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture, nn, optim  # noqa: E402
from burnpy.nn.functional import cross_entropy, gelu  # noqa: E402
from generated import Device, Tensor  # noqa: E402

TARGETS = {"mlp:1": ("numpy", 1.15), "mlp:64": ("numpy", 1.05), "cnn": ("eager", 1.0)}
TARGETS["transformer"] = ("PyTorch", 1.0)  # captured / the named column
LOSS_RTOL = 1e-4


def _torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


# -- the MLP ---------------------------------------------------------------------------------


def mlp_step(x, labels, params):
    """Forward + backward: the loss and the gradients of the parameters."""
    W1, b1, W2, b2, W3, b3 = params
    h1 = (x @ W1 + b1).relu()
    h2 = (h1 @ W2 + b2).relu()
    loss = (h2 @ W3 + b3).log_softmax(1).gather(1, labels).mean().neg()
    grads = loss.backward()
    return loss, [p.grad(grads) for p in params]


def mlp_columns(problem, torch) -> dict:
    device = Device.numpy().autodiff()
    x = Tensor.from_data(problem.x, device=device)
    labels = Tensor.from_data(problem.labels.reshape(-1, 1), device=device)
    params = [Tensor.from_data(p, device=device).require_grad() for p in problem.params]
    captured = capture(mlp_step)
    eager_loss, eager_grads = mlp_step(x, labels, params)
    for _ in range(2):  # the recording, then a replay
        loss, grads = captured(x, labels, params)
        same = np.array_equal(loss.to_numpy(), eager_loss.to_numpy()) and all(
            np.array_equal(a.to_numpy(), b.to_numpy()) for a, b in zip(grads, eager_grads)
        )
        if not same:
            raise BenchMismatch(f"MLP batch {problem.batch}: captured differs from eager")
    reference = workloads.numpy_mlp_step(problem, workloads.numpy_dot_for(problem.batch))
    workloads.check_mlp_step(
        "eager",
        problem.batch,
        eager_loss.to_numpy(),
        [g.to_numpy() for g in eager_grads],
        reference,
    )
    dot = workloads.numpy_dot_for(problem.batch)
    columns = {
        "numpy": Column(
            "step(problem, dot)", {"step": workloads.numpy_mlp_step, "problem": problem, "dot": dot}
        ),
        "eager": Column(
            "step(x, labels, params)",
            {"step": mlp_step, "x": x, "labels": labels, "params": params},
        ),
        "captured": Column(
            "step(x, labels, params)",
            {"step": captured, "x": x, "labels": labels, "params": params},
        ),
    }
    if torch is not None:
        tx = torch.from_numpy(problem.x)
        tlabels = torch.from_numpy(problem.labels)
        tparams = [torch.from_numpy(p.copy()).requires_grad_() for p in problem.params]

        def torch_step():
            W1, b1, W2, b2, W3, b3 = tparams
            h1 = torch.relu(tx @ W1 + b1)
            h2 = torch.relu(h1 @ W2 + b2)
            loss = torch.nn.functional.cross_entropy(h2 @ W3 + b3, tlabels)
            return loss, torch.autograd.grad(loss, tparams)

        columns["PyTorch"] = Column("step()", {"step": torch_step})
    return columns


# -- the digits CNN --------------------------------------------------------------------------


def train_step(model, opt, x, y, lr):
    loss = cross_entropy(model(x), y)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def cnn_columns(torch) -> dict:
    from examples.digits_cnn import DigitsCNN, torch_model

    device = Device.numpy().autodiff()
    rng = np.random.default_rng(0)
    images = rng.random((32, 1, 8, 8), dtype=np.float32)
    targets = rng.integers(0, 10, 32)
    x = Tensor.from_data(images, device=device)
    y = Tensor.from_data(targets, device=device)

    def model():
        Device.numpy().seed(0)
        return DigitsCNN(Device.numpy()).to_device(device)

    eager_model, captured_model = model(), model()
    eager_opt, captured_opt = optim.Adam(3e-3), optim.Adam(3e-3)
    captured = capture(train_step)
    net = torch_model(eager_model) if torch is not None else None
    first = train_step(eager_model, eager_opt, x, y, 3e-3).to_numpy()
    for _ in range(3):  # the first step, the recording of a step with state, then a replay
        if not np.array_equal(captured(captured_model, captured_opt, x, y, 3e-3).to_numpy(), first):
            raise BenchMismatch("digits CNN: the captured step differs from the eager one")
        first = train_step(eager_model, eager_opt, x, y, 3e-3).to_numpy()
    namespace = {"step": train_step, "x": x, "y": y}
    columns = {
        "eager": Column("step(m, o, x, y, 3e-3)", {**namespace, "m": eager_model, "o": eager_opt}),
        "captured": Column(
            "step(m, o, x, y, 3e-3)",
            {**namespace, "step": captured, "m": captured_model, "o": captured_opt},
        ),
    }
    if torch is not None:
        topt = torch.optim.Adam(net.parameters(), lr=3e-3, eps=1e-5)
        tx, ty = torch.from_numpy(images), torch.from_numpy(targets)
        expected = torch.nn.functional.cross_entropy(net(tx), ty).item()
        ours = cross_entropy(model()(x), y).item()
        if abs(expected - ours) > LOSS_RTOL * abs(expected):
            raise BenchMismatch(f"digits CNN: loss {ours} but PyTorch's {expected}")

        def torch_step():
            topt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(tx), ty)
            loss.backward()
            topt.step()
            return loss

        columns["PyTorch"] = Column("step()", {"step": torch_step})
    return columns


# -- a char-level transformer ----------------------------------------------------------------

VOCAB, D_MODEL, HEADS, CONTEXT, BATCH, BLOCKS = 65, 64, 4, 64, 16, 2


class Block(nn.Module):
    """A pre-norm transformer block: causal self-attention, then a 4x GELU MLP."""

    def __init__(self, device):
        super().__init__()
        self.norm_1 = nn.LayerNorm(D_MODEL, device=device)
        self.query = nn.Linear(D_MODEL, D_MODEL, device=device)
        self.key = nn.Linear(D_MODEL, D_MODEL, device=device)
        self.value = nn.Linear(D_MODEL, D_MODEL, device=device)
        self.output = nn.Linear(D_MODEL, D_MODEL, device=device)
        self.norm_2 = nn.LayerNorm(D_MODEL, device=device)
        self.up = nn.Linear(D_MODEL, 4 * D_MODEL, device=device)
        self.down = nn.Linear(4 * D_MODEL, D_MODEL, device=device)

    def forward(self, x, mask):
        batch, time, _ = x.shape
        h = self.norm_1(x)
        heads = [batch, time, HEADS, D_MODEL // HEADS]
        q, k, v = (
            lin(h).reshape(heads).swap_dims(1, 2) for lin in (self.query, self.key, self.value)
        )
        scores = (q @ k.swap_dims(2, 3)) * (D_MODEL // HEADS) ** -0.5
        attention = scores.mask_fill(mask, -1e9).softmax(3)
        y = (attention @ v).swap_dims(1, 2).reshape([batch, time, D_MODEL])
        x = x + self.output(y)
        return x + self.down(gelu(self.up(self.norm_2(x))))


class CharTransformer(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, D_MODEL, device=device)
        self.position = nn.Embedding(CONTEXT, D_MODEL, device=device)
        self.blocks = [Block(device) for _ in range(BLOCKS)]
        self.norm = nn.LayerNorm(D_MODEL, device=device)
        self.head = nn.Linear(D_MODEL, VOCAB, device=device)

    def forward(self, tokens, positions, mask):
        x = self.embedding(tokens) + self.position(positions)
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.norm(x))


def transformer_step(model, opt, tokens, positions, mask, targets, lr):
    logits = model(tokens, positions, mask).reshape([-1, VOCAB])
    loss = cross_entropy(logits, targets)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def torch_transformer(model: CharTransformer, torch):
    """The same forward over torch tensors holding `model`'s weights ([in, out] layout)."""
    weights = {
        name: torch.from_numpy(t.to_numpy().copy()).requires_grad_()
        for name, t in model.named_parameters()
    }
    F = torch.nn.functional

    def linear(prefix, x):
        return x @ weights[f"{prefix}.weight"] + weights[f"{prefix}.bias"]

    def norm(prefix, x):
        return F.layer_norm(x, (D_MODEL,), weights[f"{prefix}.gamma"], weights[f"{prefix}.beta"])

    def forward(tokens, positions, mask):
        x = weights["embedding.weight"][tokens] + weights["position.weight"][positions]
        for i in range(BLOCKS):
            p = f"blocks.{i}."
            h = norm(p + "norm_1", x)
            heads = (*x.shape[:2], HEADS, D_MODEL // HEADS)
            q, k, v = (
                linear(p + n, h).reshape(heads).transpose(1, 2) for n in ("query", "key", "value")
            )
            scores = (q @ k.transpose(2, 3)) * (D_MODEL // HEADS) ** -0.5
            attention = scores.masked_fill(mask, -1e9).softmax(3)
            y = (attention @ v).transpose(1, 2).reshape(x.shape)
            x = x + linear(p + "output", y)
            x = x + linear(p + "down", F.gelu(linear(p + "up", norm(p + "norm_2", x))))
        return linear("head", norm("norm", x))

    return forward, list(weights.values())


def transformer_columns(torch, batch: int = BATCH, context: int = CONTEXT) -> dict:
    device = Device.numpy().autodiff()
    rng = np.random.default_rng(0)
    tokens_np = rng.integers(0, VOCAB, (batch, context))
    targets_np = rng.integers(0, VOCAB, batch * context)
    positions_np = np.broadcast_to(np.arange(context), (batch, context)).copy()
    mask_np = np.triu(np.ones((context, context), dtype=bool), 1)
    inputs = {
        "tokens": Tensor.from_data(tokens_np, device=device),
        "positions": Tensor.from_data(positions_np, device=device),
        "mask": Tensor.from_data(mask_np, device=device),
        "targets": Tensor.from_data(targets_np, device=device),
    }

    def model():
        Device.numpy().seed(0)
        return CharTransformer(Device.numpy()).to_device(device)

    eager_model, captured_model = model(), model()
    eager_opt, captured_opt = optim.Adam(1e-3), optim.Adam(1e-3)
    captured = capture(transformer_step)
    reference = model()
    for _ in range(3):
        eager = transformer_step(eager_model, eager_opt, **inputs, lr=1e-3).to_numpy()
        if not np.array_equal(
            captured(captured_model, captured_opt, **inputs, lr=1e-3).to_numpy(), eager
        ):
            raise BenchMismatch("transformer: the captured step differs from the eager one")
    statement = "step(m, o, tokens, positions, mask, targets, 1e-3)"
    columns = {
        "eager": Column(
            statement, {**inputs, "step": transformer_step, "m": eager_model, "o": eager_opt}
        ),
        "captured": Column(
            statement, {**inputs, "step": captured, "m": captured_model, "o": captured_opt}
        ),
    }
    if torch is not None:
        forward, weights = torch_transformer(reference, torch)
        t_inputs = [torch.from_numpy(a) for a in (tokens_np, positions_np, mask_np)]
        t_targets = torch.from_numpy(targets_np)
        expected = torch.nn.functional.cross_entropy(
            forward(*t_inputs).reshape(-1, VOCAB), t_targets
        ).item()
        ours = cross_entropy(
            reference(inputs["tokens"], inputs["positions"], inputs["mask"]).reshape([-1, VOCAB]),
            inputs["targets"],
        ).item()
        if abs(expected - ours) > LOSS_RTOL * abs(expected):
            raise BenchMismatch(f"transformer: loss {ours} but PyTorch's {expected}")
        topt = torch.optim.Adam(weights, lr=1e-3, eps=1e-5)

        def torch_step():
            topt.zero_grad()
            logits = forward(*t_inputs).reshape(-1, VOCAB)
            loss = torch.nn.functional.cross_entropy(logits, t_targets)
            loss.backward()
            topt.step()
            return loss

        columns["PyTorch"] = Column("step()", {"step": torch_step})
    return columns


# -- the table -------------------------------------------------------------------------------


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:8.2f} ms"


def main() -> dict:
    torch = _torch()
    rows = {}
    for batch in workloads.MLP_BATCHES:
        problem = workloads.mlp_problem(batch)
        rows[f"mlp:{batch}"] = measure(mlp_columns(problem, torch), "captured")
    rows["cnn"] = measure(cnn_columns(torch), "captured", repeats=11)
    rows["transformer"] = measure(transformer_columns(torch), "captured", repeats=7)
    names = {
        "mlp:64": "MLP 784-256-256-10 fwd+bwd, batch 64",
        "mlp:1": "MLP 784-256-256-10 fwd+bwd, batch 1",
        "cnn": "digits CNN step (Adam), batch 32",
        "transformer": "char transformer step (Adam)",
    }
    print("capture: a step recorded once, replayed as generated code (one thread; median time;")
    print("ratios: the column's time over captured's, median of per-round ratios)")
    print(f"{'step':40} {'column':9} {'time':>11} {'x captured':>10}")
    for key, row in rows.items():
        for column, seconds in row.seconds.items():
            ratio = row.ratios[column]
            print(f"{names[key]:40} {column:9} {fmt(seconds):>11} {ratio:10.2f}")
        against, target = TARGETS[key]
        if against in row.ratios:
            value = 1.0 / row.ratios[against]  # captured over the named column
            verdict = "met" if value <= target else "MISSED"
            print(f"{'':40} target: captured <= {target}x {against}: {value:.2f}x, {verdict}")
    return rows


if __name__ == "__main__":
    main()
