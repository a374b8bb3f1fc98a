"""Capture: a step recorded once and replayed as generated code, against the same step eager,
hand-written numpy and PyTorch eager, all at one thread in this process.

Rows: the MLP 784-256-256-10 forward + backward at batch 1 and 64 (loss and the six gradients);
the digits CNN training step (forward, backward, Adam) at batch 32; the char-level transformer
training step of examples/char_transformer.py (benches/char_step.py: 2 pre-norm blocks, d_model
64, 4 heads, context 64, batch 16, AdamW with per-parameter clipping). Before anything is
timed, the captured step is checked to give exactly the eager step's values, and the eager step
to agree with numpy's (MLP) or PyTorch's (CNN: the first loss; transformer: three steps' losses).
A second table gives the compiled replay's drift from the uncompiled one over 20 training steps
(the MLP's gradients applied by SGD in numpy), float32 and float64, against capture's bounds
(benches/accuracy.py).
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import numpy as np  # noqa: E402

from benches import accuracy, char_step, ours, workloads  # noqa: E402
from benches.timing import Column, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture, optim  # noqa: E402
from burnpy.nn.functional import cross_entropy  # noqa: E402
from examples import char_transformer as example  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

# row -> (the column a ratio is over, {column: the most that ratio may be})
TARGETS = {
    "mlp:1": ("numpy", {"captured": 1.15, "compiled": 1.10}),
    "mlp:64": ("numpy", {"captured": 1.05, "compiled": 1.02}),
    "cnn": ("eager", {"captured": 1.0}),
    "transformer": ("PyTorch", {"captured": 1.0, "compiled": 1.0}),
}


def _torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


# -- the MLP ---------------------------------------------------------------------------------


def mlp_columns(problem, torch) -> dict:
    mlp = ours.MLP(problem, Device.numpy())
    x, labels, params = mlp.x, mlp.labels, mlp.params
    captured = capture(ours.mlp_step)
    compiled = capture(ours.mlp_step, compile=True)
    eager_loss, eager_grads = ours.mlp_step(x, labels, params)
    for _ in range(2):  # the recording, then a replay
        loss, grads = captured(x, labels, params)
        same = np.array_equal(loss.to_numpy(), eager_loss.to_numpy()) and all(
            np.array_equal(a.to_numpy(), b.to_numpy()) for a, b in zip(grads, eager_grads)
        )
        if not same:
            raise BenchMismatch(f"MLP batch {problem.batch}: captured differs from eager")
        loss, grads = compiled(x, labels, params)
        close = np.allclose(loss.to_numpy(), eager_loss.to_numpy(), rtol=1e-5) and all(
            np.allclose(a.to_numpy(), b.to_numpy(), rtol=1e-4, atol=1e-6)
            for a, b in zip(grads, eager_grads)
        )
        if not close:
            raise BenchMismatch(f"MLP batch {problem.batch}: compiled differs from eager")
    reference = workloads.numpy_mlp_step(problem, workloads.numpy_dot_for(problem.batch))
    workloads.check_mlp_step(
        "eager",
        problem.batch,
        eager_loss.to_numpy(),
        [g.to_numpy() for g in eager_grads],
        reference,
    )
    columns = {
        "numpy": workloads.numpy_mlp_column(problem),
        "eager": Column(
            "step(x, labels, params)",
            {"step": ours.mlp_step, "x": x, "labels": labels, "params": params},
        ),
        "captured": Column(
            "step(x, labels, params)",
            {"step": captured, "x": x, "labels": labels, "params": params},
        ),
        "compiled": Column(
            "step(x, labels, params)",
            {"step": compiled, "x": x, "labels": labels, "params": params},
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


def cnn_columns(torch) -> dict:
    from examples.digits_cnn import make_model, step_loss, torch_model

    device = Device.numpy().autodiff()
    rng = np.random.default_rng(0)
    images = rng.random((32, 1, 8, 8), dtype=np.float32)
    targets = rng.integers(0, 10, 32)
    x = Tensor.from_data(images, device=device)
    y = Tensor.from_data(targets, device=device)

    eager_model, captured_model = make_model(device, 0), make_model(device, 0)
    eager_opt, captured_opt = optim.Adam(3e-3), optim.Adam(3e-3)
    captured = capture(step_loss)
    net = torch_model(eager_model) if torch is not None else None
    first = step_loss(eager_model, eager_opt, 3e-3, x, y).to_numpy()
    for _ in range(3):  # the first step, the recording of a step with state, then a replay
        if not np.array_equal(captured(captured_model, captured_opt, 3e-3, x, y).to_numpy(), first):
            raise BenchMismatch("digits CNN: the captured step differs from the eager one")
        first = step_loss(eager_model, eager_opt, 3e-3, x, y).to_numpy()
    namespace = {"step": step_loss, "x": x, "y": y}
    columns = {
        "eager": Column("step(m, o, 3e-3, x, y)", {**namespace, "m": eager_model, "o": eager_opt}),
        "captured": Column(
            "step(m, o, 3e-3, x, y)",
            {**namespace, "step": captured, "m": captured_model, "o": captured_opt},
        ),
    }
    if torch is not None:
        topt = torch.optim.Adam(net.parameters(), lr=3e-3, eps=1e-5)
        tx, ty = torch.from_numpy(images), torch.from_numpy(targets)
        expected = torch.nn.functional.cross_entropy(net(tx), ty).item()
        ours = cross_entropy(make_model(device, 0)(x), y).item()
        workloads.check_losses({"digits CNN, eager": [ours], "PyTorch": [expected]})

        def torch_step():
            topt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(tx), ty)
            loss.backward()
            topt.step()
            return loss

        columns["PyTorch"] = Column("step()", {"step": torch_step})
    return columns


# -- the char-level transformer ---------------------------------------------------------------


def transformer_columns(torch, batch: int = char_step.BATCH, context: int = char_step.CONTEXT):
    """examples/char_transformer.py's training step (AdamW, per-parameter clipping), eager and
    captured from the same weights, and its PyTorch twin: three steps each, captured == eager
    bit for bit and both at PyTorch's losses, before anything is timed."""
    args = char_step.arguments(batch, context)
    inputs, targets = next(char_step.batches(args))
    clip = char_step.CLIP_NORM
    (eager_model, eager_opt), (captured_model, captured_opt) = (
        char_step.ours("numpy", args, clip) for _ in range(2)
    )
    device = eager_model.devices()[0]
    x, y = (Tensor.from_data(a, device=device) for a in (inputs, targets))
    compiled_model, compiled_opt = char_step.ours("numpy", args, clip)
    captured = capture(example.step_loss)
    compiled = capture(example.step_loss, compile=True)
    losses = {"eager": [], "compiled": []}
    for _ in range(3):  # the first step, the recording of a step with state, then a replay
        eager = example.step_loss(eager_model, eager_opt, args.lr, x, y).to_numpy()
        if not np.array_equal(
            captured(captured_model, captured_opt, args.lr, x, y).to_numpy(), eager
        ):
            raise BenchMismatch("transformer: the captured step differs from the eager one")
        losses["eager"].append(float(eager.reshape(())))
        loss = compiled(compiled_model, compiled_opt, args.lr, x, y).to_numpy()
        losses["compiled"].append(float(loss.reshape(())))
    namespace = {"lr": args.lr, "x": x, "y": y}
    statement = "step(m, o, lr, x, y)"
    columns = {
        "eager": Column(
            statement, {**namespace, "step": example.step_loss, "m": eager_model, "o": eager_opt}
        ),
        "captured": Column(
            statement, {**namespace, "step": captured, "m": captured_model, "o": captured_opt}
        ),
        "compiled": Column(
            statement, {**namespace, "step": compiled, "m": compiled_model, "o": compiled_opt}
        ),
    }
    if torch is not None:
        net, topt = char_step.theirs(args)

        def torch_step():
            return example.torch_train_step(net, topt, args.lr, inputs, targets, clip)

        losses["PyTorch"] = [torch_step() for _ in range(3)]
        workloads.check_losses(losses)
        columns["PyTorch"] = Column("step()", {"step": torch_step})
    return columns


# -- the compiled replay's drift over training steps -------------------------------------------


def transformer_train(compile: bool, dtype: str, nudge: bool):
    """The char transformer trained accuracy.STEPS steps on one batch by its captured step
    (compiled or not): (losses, final parameters)."""
    args = char_step.arguments()
    inputs, targets = next(char_step.batches(args))
    model, opt = char_step.ours("numpy", args, char_step.CLIP_NORM)
    model = model.cast(dtype)
    if nudge:
        accuracy.nudge_first_weight(model)
    device = model.devices()[0]
    x, y = (Tensor.from_data(a, device=device) for a in (inputs, targets))
    step = capture(example.step_loss, compile=compile)
    losses = [float(step(model, opt, args.lr, x, y).item()) for _ in range(accuracy.STEPS)]
    return losses, accuracy.parameters(model)


def mlp_trainer(batch: int, lr=0.1, sizes=workloads.MLP_SIZES, steps=accuracy.STEPS):
    """A `train` for benches.accuracy: the MLP step's captured forward + backward (compiled or
    not), its gradients applied by plain SGD in numpy between steps."""

    def train(compile: bool, dtype: str, nudge: bool):
        problem = workloads.mlp_problem(batch, sizes, dtype=np.dtype(dtype).type)
        params = [p.copy() for p in problem.params]
        if nudge:
            params[0].flat[0] = np.nextafter(params[0].flat[0], np.inf)
        device = Device.numpy().autodiff()
        x, labels = (Tensor.from_data(a, device=device) for a in (problem.x, problem.labels))
        step = capture(ours.mlp_step, compile=compile)
        losses = []
        for _ in range(steps):
            tensors = [Tensor.from_data(p, device=device).require_grad() for p in params]
            loss, grads = step(x, labels, tensors)
            losses.append(float(loss.item()))
            params = [p - p.dtype.type(lr) * g.to_numpy() for p, g in zip(params, grads)]
        return losses, params

    return train


def drifts() -> dict:
    """row -> the compiled replay's drift from the uncompiled one, float32 then float64."""
    trainers = {f"mlp:{batch}": mlp_trainer(batch) for batch in workloads.MLP_BATCHES}
    trainers["transformer"] = transformer_train
    return {key: accuracy.drifts(train) for key, train in trainers.items()}


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
    drifted = drifts()
    names = {
        "mlp:64": "MLP 784-256-256-10 fwd+bwd, batch 64",
        "mlp:1": "MLP 784-256-256-10 fwd+bwd, batch 1",
        "cnn": "digits CNN step (Adam), batch 32",
        "transformer": "char transformer step (AdamW, clipped)",
    }
    print("capture: a step recorded once, replayed as generated code (one thread; median time;")
    print("ratios: the column's time over captured's, median of per-round ratios)")
    print(f"{'step':40} {'column':9} {'time':>11} {'x captured':>10}")
    for key, row in rows.items():
        for column, seconds in row.seconds.items():
            ratio = row.ratios[column]
            print(f"{names[key]:40} {column:9} {fmt(seconds):>11} {ratio:10.2f}")
        against, targets = TARGETS[key]
        for column, target in targets.items():
            if against in row.ratios and column in row.ratios:
                value = row.ratios[column] / row.ratios[against]  # over the named column
                verdict = "met" if value <= target else "MISSED"
                print(f"{'':40} target: {column} <= {target}x {against}: {value:.2f}x, {verdict}")
    print()
    print(accuracy.HEADER)
    for key, found in drifted.items():
        name = {"transformer": "char transformer"}.get(key, f"MLP, batch {key[4:]}")
        print("\n".join(accuracy.lines(name, found)))
    print(accuracy.LEGEND)
    return rows


if __name__ == "__main__":
    main()
