"""Capture: a step recorded once and replayed as generated code, against the same step eager,
hand-written numpy and PyTorch eager, all at one thread in this process.

Rows: the MLP 784-256-256-10 forward + backward at batch 1 and 64 (loss and the six gradients);
the digits CNN training step (forward, backward, Adam) at batch 32; the char-level transformer
training step of examples/char_transformer.py (benches/char_step.py: 2 pre-norm blocks, d_model
64, 4 heads, context 64, batch 16, AdamW with per-parameter clipping). Before anything is
timed, the captured step is checked to give exactly the eager step's values, and the eager step
to agree with numpy's (MLP) or PyTorch's (CNN: the first loss; transformer: three steps' losses).
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import numpy as np  # noqa: E402

from benches import char_step, ours, workloads  # noqa: E402
from benches.timing import Column, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture, optim  # noqa: E402
from burnpy.nn.functional import cross_entropy  # noqa: E402
from examples import char_transformer as example  # noqa: E402
from generated import Device, Tensor  # noqa: E402

TARGETS = {"mlp:1": ("numpy", 1.15), "mlp:64": ("numpy", 1.05), "cnn": ("eager", 1.0)}
TARGETS["transformer"] = ("PyTorch", 1.0)  # captured and compiled / the named column


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


def compiled_accuracy(steps: int = 20) -> tuple[float, float]:
    """The char transformer trained `steps` steps by its captured and its compiled step from
    the same weights: (largest relative loss difference, largest parameter difference), checked
    against capture's promise for float32 (1e-5 relative, 1e-4)."""
    args = char_step.arguments()
    inputs, targets = next(char_step.batches(args))
    runs = []
    for compile in (False, True):
        model, opt = char_step.ours("numpy", args, char_step.CLIP_NORM)
        device = model.devices()[0]
        x, y = (Tensor.from_data(a, device=device) for a in (inputs, targets))
        step = capture(example.step_loss, compile=compile)
        losses = [float(step(model, opt, args.lr, x, y).to_numpy()[0]) for _ in range(steps)]
        runs.append((np.array(losses), [p.to_numpy() for p in model.parameters()]))
    (plain, plain_params), (losses, params) = runs
    loss_error = float(np.max(np.abs(losses - plain) / np.abs(plain)))
    param_error = max(float(np.max(np.abs(a - b))) for a, b in zip(params, plain_params))
    if loss_error > 1e-5 or param_error > 1e-4:
        raise BenchMismatch(
            f"transformer: over {steps} steps the compiled step's losses differ from the "
            f"captured step's by {loss_error:.2g} relative, its parameters by {param_error:.2g}"
        )
    return loss_error, param_error


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
    loss_error, param_error = compiled_accuracy()
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
        against, target = TARGETS[key]
        for column in ("captured", "compiled"):
            if against in row.ratios and column in row.ratios:
                value = row.ratios[column] / row.ratios[against]  # over the named column
                verdict = "met" if value <= target else "MISSED"
                print(f"{'':40} target: {column} <= {target}x {against}: {value:.2f}x, {verdict}")
    print(
        f"char transformer, 20 steps compiled against captured: losses within {loss_error:.1e} "
        f"relative (<= 1e-5), parameters within {param_error:.1e} (<= 1e-4)"
    )
    return rows


if __name__ == "__main__":
    main()
