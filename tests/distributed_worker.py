"""One rank of the two-process runs of tests/test_distributed.py (not collected by pytest).

    python tests/distributed_worker.py RANK WORLD PORT,PORT,PORT,PORT OUT_DIR

Runs every scenario in one process (torch's start-up is the cost of a rank), storing what each
one computed in OUT_DIR/rank<RANK>.pkl after each scenario, so that the test compares it with
its references, even when a later scenario fails. One scenario runs examples/digits_cnn.py as
`torchrun` starts it: as `__main__`, told its rank, world and rendezvous by the environment.
The last scenarios break the group on purpose: a peer that does not answer (timeout) and a
peer that is killed.
"""

import contextlib
import io
import os
import pickle
import runpy
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from burnpy import data, distributed, nn, optim, train  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

# The data of the gradient scenario, the same on every rank: each takes its half of the batch.
BATCH = 8
RNG = np.random.default_rng(42)
X = RNG.standard_normal((BATCH, 4))
Y = RNG.standard_normal((BATCH, 3))
PARAMS = {
    "w1": RNG.standard_normal((4, 6)),
    "b1": RNG.standard_normal(6),
    "w2": RNG.standard_normal((6, 3)),
    "c": RNG.standard_normal(3),  # not distributed: its gradient stays this rank's own
}
DISTRIBUTED = ("w1", "b1", "w2")


def loss_of(p, x, y):
    """mean((tanh(x w1 + b1) w2 + c - y)^2) + 0.01 |w1|^2: w1 has two consumers, and tanh and
    exp are recomputed under Balanced checkpointing."""
    h = (x.matmul(p["w1"]) + p["b1"]).tanh()
    out = h.matmul(p["w2"]) + p["c"]
    return ((out - y) * (out - y)).mean() + (p["w1"] * p["w1"]).sum() * 0.01


def devices():
    for backend in ("numpy", "torch"):
        base = (Device.numpy() if backend == "numpy" else Device.torch()).autodiff()
        for strategy, device in (
            ("NoCheckpointing", base),
            ("Balanced", base.gradient_checkpointing()),
        ):
            yield backend, strategy, device


def gradients(rank, world):
    half = slice(rank * BATCH // world, (rank + 1) * BATCH // world)
    found = {}
    for backend, strategy, device in devices():
        params = {}
        for name, value in PARAMS.items():
            leaf = Tensor.from_data(value, device=device, dtype=np.float64).require_grad()
            params[name] = (
                leaf.set_distributed_params(DISTRIBUTED.index(name))
                if name in DISTRIBUTED
                else leaf
            )
        x = Tensor.from_data(X[half], device=device, dtype=np.float64)
        y = Tensor.from_data(Y[half], device=device, dtype=np.float64)
        grads = loss_of(params, x, y).backward()
        found[backend, strategy] = {n: t.grad(grads).to_numpy() for n, t in params.items()}
    return found


def collectives(rank, world):
    found = {}
    for backend in ("numpy", "torch"):
        for device in (Device.of(backend), Device.of(backend).autodiff()):
            mine = Tensor.from_data([[rank + 1.0, -2.0 * (rank + 1)]], device=device)
            for op in ("sum", "mean", "max", "min"):
                out = distributed.all_reduce(mine, op)
                found[backend, str(device), op] = (out.to_numpy(), str(out.device()))
            ints = Tensor.from_data([rank + 1, 10 * rank], device=device)
            out = distributed.all_reduce(ints, "sum")
            found[backend, str(device), "int sum"] = (out.to_numpy(), str(out.dtype))
            for src in (0, 1):
                out = distributed.broadcast(mine, src=src)
                found[backend, str(device), f"broadcast {src}"] = (
                    out.to_numpy(),
                    str(out.device()),
                )
            found[backend, str(device), "input after"] = mine.to_numpy()
    found["shards"] = distributed.shard_indices(11, seed=5, epoch=2).tolist()
    return found


class Mlp(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.fc1 = nn.Linear(4, 16, device=device)
        self.norm = nn.BatchNorm(16, device=device)
        self.fc2 = nn.Linear(16, 3, device=device)

    def forward(self, x):
        return self.fc2(self.norm(self.fc1(x)).relu())


def optimiser_steps(rank, world):
    """Each rank builds its model from a different seed; replicate makes rank 0's everyone's,
    then five Adam steps on different data per rank."""
    found = {}
    for backend in ("numpy", "torch"):
        device = Device.of(backend).autodiff()
        Device.numpy().seed(100 + rank)
        model = Mlp(Device.numpy()).to_device(device)
        found[backend, "before"] = [p.to_numpy() for p in model.parameters()]
        distributed.replicate(model)
        found[backend, "replicated"] = [p.to_numpy() for p in model.parameters()]
        found[backend, "ids"] = model.param_ids()
        opt = optim.Adam(1e-2)
        rng = np.random.default_rng(rank)
        for _ in range(5):
            x = Tensor.from_data(rng.standard_normal((6, 4)).astype(np.float32), device=device)
            y = Tensor.from_data(rng.integers(0, 3, 6), device=device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.step(model, loss.backward())
        found[backend, "after"] = [p.to_numpy() for p in model.parameters()]
        found[backend, "marks"] = [p.distributed_params() for p in model.parameters()]
    return found


def learner(rank, world, out):
    """The Learner on two ranks: a run of 3 epochs; a run of 1 epoch resumed up to 3; early
    stopping."""
    device = Device.numpy().autodiff()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    items = list(zip(x, labels))

    def fit(directory, epochs, resume=False, early_stopping=None):
        Device.numpy().seed(7)
        model = Mlp(Device.numpy()).to_device(device)
        opt = optim.Adam(2e-2)
        scheduler = optim.lr.Step(2e-2, 4, 0.5)
        loader = data.DataLoader(items, 8, shuffle=True, seed=3, device=device)
        valid = data.DataLoader(items[:32], 8, device=device)
        learner = train.Learner(
            model,
            opt,
            classify,
            lr_scheduler=scheduler,
            checkpoint_dir=directory,
            early_stopping=early_stopping,
        )
        summary = learner.fit(loader, valid, epochs, resume=resume)
        tensors = [t.to_numpy() for t in model.parameters()]
        tensors += [t.to_numpy() for _, t in model.named_buffers()]  # batch-norm statistics
        return summary.history, summary.stopped_early, tensors

    found = {}
    found["straight"] = fit(out / "straight", 3)
    found["cut"] = fit(out / "cut", 1)
    found["resumed"] = fit(out / "cut", 3, resume=True)
    stop = train.EarlyStopping("valid_loss", patience=1, min_delta=10.0)
    found["early"] = fit(out / "early", 6, early_stopping=stop)
    return found


def classify(model, batch):
    from burnpy.nn.functional import cross_entropy

    x, y = batch
    logits = model(x)
    return train.Output(cross_entropy(logits, y), logits, y)


def example(rank, world, port, out):
    """examples/digits_cnn.py --distributed, its rank and rendezvous from torchrun's variables:
    what it printed (rank 0 only prints) and how it exited."""
    script = Path(__file__).resolve().parent.parent / "examples" / "digits_cnn.py"
    os.environ.update(RANK=str(rank), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1")
    os.environ["MASTER_PORT"] = str(port)
    sys.argv = [str(script), "--distributed", "--subset", "300", "--epochs", "3"]
    sys.argv += ["--resume", str(out)]
    printed = io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(str(script), run_name="__main__")  # (stderr: the progress bars)
    except SystemExit as exit:
        code = exit.code
    finally:
        for name in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
            del os.environ[name]
    return {"out": printed.getvalue(), "exit": code}


def timeout(rank, world):
    """Rank 1 does not join the all_reduce: rank 0's fails after the timeout."""
    if rank == 1:
        time.sleep(4.0)
        return None
    start = time.monotonic()
    try:
        distributed.all_reduce(Tensor.ones([3], device=Device.numpy()))
    except distributed.DistributedError as error:
        return {"error": str(error), "seconds": time.monotonic() - start}
    return {"error": None, "seconds": time.monotonic() - start}


def killed(rank, world):
    """Rank 1 is killed (SIGKILL) after joining: rank 0's backward fails, and does not hang."""
    import os
    import signal

    distributed.barrier()
    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.5)
    device = Device.numpy().autodiff()
    w = Tensor.ones([3], device=device).require_grad().set_distributed_params(1)
    start = time.monotonic()
    try:
        (w * w).sum().backward()
    except distributed.DistributedError as error:
        return {"error": str(error), "seconds": time.monotonic() - start}
    return {"error": None, "seconds": time.monotonic() - start}


def main(rank, world, ports, out):
    results = {}
    path = out / f"rank{rank}.pkl"

    def run(name, scenario, *args):
        try:
            results[name] = scenario(rank, world, *args)
        except Exception:
            results[name] = {"exception": traceback.format_exc()}
        path.write_bytes(pickle.dumps(results))

    url = "tcp://127.0.0.1:{}".format
    distributed.init(rank=rank, world_size=world, init_method=url(ports[0]), timeout_s=20)
    run("collectives", collectives)
    run("gradients", gradients)
    run("optimiser_steps", optimiser_steps)
    run("learner", learner, out / "learner")
    distributed.shutdown()
    run("example", example, ports[3], out / "example")
    distributed.init(rank=rank, world_size=world, init_method=url(ports[1]), timeout_s=2)
    run("timeout", timeout)
    distributed.shutdown()
    distributed.init(rank=rank, world_size=world, init_method=url(ports[2]), timeout_s=20)
    run("killed", killed)
    distributed.shutdown()


if __name__ == "__main__":
    rank, world = int(sys.argv[1]), int(sys.argv[2])
    ports = [int(p) for p in sys.argv[3].split(",")]
    main(rank, world, ports, Path(sys.argv[4]))
