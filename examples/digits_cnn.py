"""A small CNN trained on scikit-learn's handwritten digits (1,797 8x8 images) with burnpy.

    python examples/digits_cnn.py                  # NumPy backend; ends with "test accuracy: NN.NN%"
    python examples/digits_cnn.py --device torch   # the same model on the Torch backend
    python examples/digits_cnn.py --checkpointing  # Balanced gradient checkpointing
    python examples/digits_cnn.py --resume runs/a  # saves every epoch; run again to continue
    python examples/digits_cnn.py --plot loss.png  # loss and accuracy curves (matplotlib)
    python examples/digits_cnn.py --compare        # the same training in PyTorch, side by side
    python examples/digits_cnn.py --capture        # each step recorded once, replayed as code
    python examples/digits_cnn.py --quantize       # then its weights quantized to 8 bits (Q8S)
    torchrun --standalone --nproc-per-node 2 examples/digits_cnn.py --distributed
                                                   # data-parallel on 2 processes (the Learner)

The data is split 80/20 by a seeded permutation; the model is conv(1->16, 3x3)-relu-maxpool(2),
conv(16->32, 3x3)-relu, linear(512->10), trained with Adam under a cosine learning-rate schedule.
Needs the `examples` extra (scikit-learn, tqdm; matplotlib for --plot), and torch for
`--device torch`, `--compare` and `--distributed`.
"""

import argparse
import contextlib
import itertools
import json
import math
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: find burnpy and generated
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import burnpy  # noqa: E402
import burnpy.threads  # noqa: E402
from burnpy import capture, data, files, nn, optim  # noqa: E402
from burnpy.nn.functional import cross_entropy  # noqa: E402
from burnpy.train import Learner, Output  # noqa: E402
from examples.quantization_report import QUANT_VALUES, quantization_report  # noqa: E402
from burnpy.generated import Device  # noqa: E402


class DigitsCNN(nn.Module):
    """conv-relu-pool, conv-relu, linear: [batch, 1, 8, 8] images to [batch, 10] logits."""

    def __init__(self, device):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1, device=device)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1, device=device)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(32 * 4 * 4, 10, device=device)

    def forward(self, images):
        x = self.pool(self.conv1(images).relu())
        x = self.conv2(x).relu()
        return self.fc(self.flatten(x))


# -- data and set-up, shared by the PyTorch comparison and benches/training.py ---------------------


def load_split(seed: int, subset: int | None = None) -> tuple:
    """(train, test) lists of (image [1, 8, 8] float32 in [0, 1], label): a seeded 80/20
    split of the first `subset` images (all of them by default)."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]
    items = list(zip(images, digits.target.astype(np.int64)))[:subset]
    return tuple(data.random_split(items, [0.8, 0.2], seed=seed))


def make_device(backend: str, checkpointing: bool):
    device = (Device.torch() if backend == "torch" else Device.numpy()).autodiff()
    return device.gradient_checkpointing() if checkpointing else device


def make_model(device, seed: int) -> DigitsCNN:
    """The model's initial weights depend on `seed` only, whatever the backend."""
    Device.numpy().seed(seed)
    return DigitsCNN(Device.numpy()).to_device(device)


def make_training(args, device, train):
    """The model, optimiser, learning-rate scheduler and loader of a run."""
    model = make_model(device, args.seed)
    loader = data.DataLoader(train, args.batch_size, shuffle=True, seed=args.seed, device=device)
    scheduler = optim.lr.Cosine(args.lr, args.epochs * len(loader))
    return model, optim.Adam(args.lr), scheduler, loader


def step_loss(model, opt, lr, images, labels):
    """One training step; returns the loss tensor."""
    loss = cross_entropy(model(images), labels)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def train_step(model, opt, lr, images, labels) -> float:
    return step_loss(model, opt, lr, images, labels).item()


def captured_train_step():
    """train_step as burnpy.capture replays it: recorded on its first call for a batch shape,
    then generated straight-line code (the loss is read after the step, not inside it)."""
    step = capture(step_loss)
    return lambda model, opt, lr, images, labels: step(model, opt, lr, images, labels).item()


def accuracy(model, items, device) -> float:
    """The share of `items` the model classifies right, computed without autodiff."""
    images, labels = data.default_collate(items, device.inner())
    predicted = model.valid()(images).argmax(1).reshape([-1])
    return (predicted == labels).float().mean().item()


def peak_bytes(run, on_torch: bool) -> int:
    """The most memory allocated at once by `run()` on top of what was held before.

    numpy reports its buffers to tracemalloc; torch's CPU allocator does not, so for torch the
    allocation events of its profiler are summed in order instead."""
    if not on_torch:
        tracemalloc.start()
        try:
            run()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    from torch.profiler import ProfilerActivity, profile

    with _quiet_stderr(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        run()
    events = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"]
    held = peak = 0
    for event in sorted(events, key=lambda e: e.start_ns()):
        held += event.nbytes()
        peak = max(peak, held)
    return peak


@contextlib.contextmanager
def _quiet_stderr():
    """Silence the profiler's start/stop lines, which its C++ side writes to file descriptor 2."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# -- --quantize: the trained model's weights quantized after training -----------------------------


def ptq_report(model, test, device, value: str) -> dict:
    """The trained model against its weights quantized (`--quantize`): test accuracy, record
    size and inference time on the test images."""
    images, _ = data.default_collate(test, device.inner())
    return quantization_report(
        model,
        value,
        (images,),
        lambda m: accuracy(m, test, device),
        "test accuracy",
        ".2%",
        f"inference, {len(test)} images",
    )


# -- PyTorch: the same architecture, weights, batches and schedule ---------------------------------


def torch_model(model: DigitsCNN):
    """A torch.nn.Sequential holding `model`'s weights (Linear's transposed to PyTorch's
    [out, in])."""
    import torch

    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(16, 32, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.Flatten(),
        torch.nn.Linear(32 * 4 * 4, 10),
    )
    ours = [model.conv1.weight, model.conv1.bias, model.conv2.weight, model.conv2.bias]
    ours += [model.fc.weight.transpose(), model.fc.bias]
    with torch.no_grad():
        for param, value in zip(net.parameters(), ours, strict=True):
            param.copy_(torch.from_numpy(value.to_numpy()))
    return net


def torch_training(args, model: DigitsCNN, train):
    """PyTorch's counterpart of `make_training`: Adam with the same hyper-parameters (burn's
    epsilon 1e-5), the same cosine rates, and the batches our loader draws."""
    import torch

    net = torch_model(model)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-5)
    loader = data.DataLoader(
        train,
        args.batch_size,
        shuffle=True,
        seed=args.seed,
        device=None,
        collate=lambda items, _: tuple(torch.from_numpy(np.stack(f)) for f in zip(*items)),
    )
    scheduler = optim.lr.Cosine(args.lr, args.epochs * len(loader))
    return net, opt, scheduler, loader


def torch_train_step(net, opt, lr, images, labels) -> float:
    import torch

    for group in opt.param_groups:
        group["lr"] = lr
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(images), labels)
    loss.backward()
    opt.step()
    return loss.item()


def torch_accuracy(net, items) -> float:
    import torch

    images = torch.from_numpy(np.stack([image for image, _ in items]))
    labels = torch.from_numpy(np.array([label for _, label in items]))
    with torch.no_grad():
        return (net(images).argmax(1) == labels).float().mean().item()


# -- the run ---------------------------------------------------------------------------------------


def run_epochs(step, model, opt, scheduler, loader, evaluate, epochs, first=0, bar=None, save=None):
    """Train from epoch `first` to `epochs`; returns the history: per epoch its mean loss, test
    accuracy and training seconds. `bar(epoch, batches)` makes a progress bar; `save(history)`
    runs after each epoch."""
    history = []
    for epoch in range(first, epochs):
        progress = bar(epoch, len(loader)) if bar else None
        losses = []
        start = time.perf_counter()
        for images, labels in loader:
            losses.append(step(model, opt, scheduler.step(), images, labels))
            if progress:
                progress.set_postfix(loss=f"{np.mean(losses):.4f}", refresh=False)
                progress.update()
        seconds = time.perf_counter() - start
        history.append({"loss": float(np.mean(losses)), "accuracy": evaluate(), "seconds": seconds})
        if progress:
            progress.set_postfix(
                loss=f"{np.mean(losses):.4f}", acc=f"{history[-1]['accuracy']:.2%}"
            )
            progress.close()
        if save:
            save(history)
    return history


def progress_bar(epochs: int):
    from tqdm import tqdm

    def bar(epoch, batches):
        return tqdm(total=batches, desc=f"epoch {epoch + 1:>2}/{epochs}", unit="batch")

    return bar


class Checkpoint:
    """--resume DIR: the model, optimiser, scheduler and loader positions and the history,
    written after every epoch, and read back at the start of a run."""

    def __init__(self, directory, settings: dict):
        self.directory = Path(directory)
        self.settings = settings

    def exists(self) -> bool:
        return (self.directory / "state.json").exists()

    def load(self, model, opt, scheduler, loader) -> list:
        """Restore the run in place; returns its history (one entry per finished epoch)."""
        state = json.loads((self.directory / "state.json").read_text())
        if state["settings"] != self.settings:
            raise ValueError(
                f"{self.directory} holds a run with other settings ({state['settings']}, now "
                f"{self.settings}); resume with the same ones or use another directory"
            )
        epoch = len(state["history"])
        model.load(self.directory / f"model-{epoch}.safetensors")
        opt.load(self.directory / f"optimizer-{epoch}.safetensors", model)
        scheduler.load_record(state["scheduler"])
        loader.load_record(state["loader"])
        return state["history"]

    def save(self, model, opt, scheduler, loader, history) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        epoch = len(history)
        model.save(self.directory / f"model-{epoch}.safetensors")
        opt.save(self.directory / f"optimizer-{epoch}.safetensors")
        state = {
            "settings": self.settings,
            "scheduler": scheduler.to_record(),
            "loader": loader.to_record(),
            "history": history,
        }
        # The state file is replaced last: it names an epoch whose two files are complete
        # (every file is written to a temporary and renamed into place).
        files.write_text(self.directory / "state.json", json.dumps(state))
        for name in ("model", "optimizer"):
            (self.directory / f"{name}-{epoch - 1}.safetensors").unlink(missing_ok=True)


def plot(history: list, path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed: no plot written to {path} (pip install matplotlib)")
        return
    epochs = range(1, len(history) + 1)
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    left.plot(epochs, [h["loss"] for h in history], marker="o")
    left.set(xlabel="epoch", ylabel="training loss", yscale="log")
    right.plot(epochs, [100 * h["accuracy"] for h in history], marker="o", color="tab:green")
    right.set(xlabel="epoch", ylabel="test accuracy (%)")
    figure.tight_layout()
    figure.savefig(path)
    print(f"plot: {path}")


def compare(args, train, test, ours: list) -> None:
    """Train the PyTorch twin from the same initial weights; print both side by side."""
    import torch

    net, opt, scheduler, loader = torch_training(args, make_model(Device.numpy(), args.seed), train)
    theirs = run_epochs(
        torch_train_step,
        net,
        opt,
        scheduler,
        loader,
        lambda: torch_accuracy(net, test),
        args.epochs,
    )
    ours_name = f"burnpy ({args.device}{', Balanced' if args.checkpointing else ''})"
    torch_name = f"PyTorch {torch.__version__.split('+')[0]} eager"
    rows: list[tuple[str, ...]] = [("", ours_name, torch_name)]
    for label, key, fmt in (
        ("test accuracy", "accuracy", "{:.2%}"),
        ("final loss", "loss", "{:.4f}"),
    ):
        rows.append((label, fmt.format(ours[-1][key]), fmt.format(theirs[-1][key])))
    seconds = [np.mean([h["seconds"] for h in run]) for run in (ours, theirs)]
    rows.append(("seconds per epoch", *(f"{s:.3f}" for s in seconds)))
    rows.append(("ratio to PyTorch", f"{seconds[0] / seconds[1]:.2f}x", "1.00x"))
    print(f"\nside by side ({len(ours)} epochs each; torch threads: {torch.get_num_threads()})")
    for label, a, b in rows:
        print(f"{label:<20}{a:>28}{b:>24}")


# -- --distributed: the same training on every process torchrun starts, through the Learner -------


def classify(model, batch) -> Output:
    images, labels = batch
    logits = model(images)
    return Output(cross_entropy(logits, labels), logits, labels)


def run_distributed(args) -> float:
    """Each of the N ranks trains on its shard of the data with batch_size / N images a step,
    so that a step (whose gradients are averaged over the ranks) sees batch_size images and an
    epoch has as many steps as on one process; rank 0 prints, logs and saves."""
    from burnpy import distributed

    distributed.init()
    try:
        world, lead = distributed.world_size(), distributed.rank() == 0
        if args.batch_size % world:
            raise SystemExit(f"--batch-size {args.batch_size} must be a multiple of {world}")
        train_items, test = load_split(args.seed, args.subset)
        device = make_device(args.device, args.checkpointing)
        args.batch_size //= world
        model, opt, _, loader = make_training(args, device, train_items)
        steps = math.ceil(len(train_items) // world / args.batch_size)
        scheduler = optim.lr.Cosine(args.lr, args.epochs * steps)
        if lead:
            print(f"digits: {len(train_items)} training and {len(test)} test images of 8x8")
            print(f"model: {model.num_params()} parameters on {device}, {world} processes")
        learner = Learner(model, opt, classify, lr_scheduler=scheduler, checkpoint_dir=args.resume)
        valid = data.DataLoader(test, 64, device=device)
        learner.fit(loader, valid, args.epochs, resume=learner.can_resume())
        identical = all(
            np.array_equal(
                distributed.all_reduce(p, "max").to_numpy(),
                distributed.all_reduce(p, "min").to_numpy(),
            )
            for p in model.parameters()
        )
        final = accuracy(model, test, device)
        if lead:
            print(f"parameters identical on all {world} ranks: {identical}")
            print(f"test accuracy: {100 * final:.2f}%")
        return final
    finally:
        distributed.shutdown()


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", choices=["numpy", "torch"], default="numpy")
    parser.add_argument(
        "--checkpointing", action="store_true", help="Balanced gradient checkpointing"
    )
    parser.add_argument("--resume", metavar="DIR", help="save each epoch to DIR; resume from it")
    parser.add_argument("--plot", metavar="PNG", help="plot loss and accuracy (matplotlib)")
    parser.add_argument("--compare", action="store_true", help="train in PyTorch too")
    parser.add_argument(
        "--distributed", action="store_true", help="data-parallel on the processes of torchrun"
    )
    parser.add_argument(
        "--capture", action="store_true", help="record the step once and replay it (capture)"
    )
    parser.add_argument(
        "--quantize",
        nargs="?",
        const="q8s",
        choices=sorted(QUANT_VALUES),
        help="after training, quantize the weights (default q8s) and compare with the float model",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="threads of numpy's BLAS and torch (default: 1, unless OMP_NUM_THREADS or "
        "OPENBLAS_NUM_THREADS is set)",
    )
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--subset", type=int, help="use only the first N images (smoke runs)")
    args = parser.parse_args(argv)
    if args.distributed and (args.compare or args.plot or args.capture or args.quantize):
        parser.error(
            "--compare, --plot, --capture and --quantize run on one process: leave them out with "
            "--distributed"
        )
    return args


def main(argv=None) -> float:
    args = parse(argv)
    if args.threads:
        burnpy.set_num_threads(args.threads)
    else:
        burnpy.threads.use_default()
    if args.distributed:
        return run_distributed(args)
    train, test = load_split(args.seed, args.subset)
    device = make_device(args.device, args.checkpointing)
    model, opt, scheduler, loader = make_training(args, device, train)
    print(
        f"digits: {len(train)} training and {len(test)} test images of 8x8, split seed {args.seed}"
    )
    print(f"model: {model.num_params()} parameters on {device}")

    checkpoint = None
    if args.resume:
        names = ("epochs", "batch_size", "lr", "seed", "subset")
        checkpoint = Checkpoint(args.resume, {name: getattr(args, name) for name in names})
    history = []
    if checkpoint is not None and checkpoint.exists():
        history = checkpoint.load(model, opt, scheduler, loader)
    if history:
        print(f"resumed from {args.resume} after epoch {len(history)}")

    # The peak memory of a training step, measured on a copy so the run itself is untouched; the
    # second step's, once the optimiser holds its moments.
    probe, probe_opt, _, probe_loader = make_training(args, device, train)
    batches = list(itertools.islice(probe_loader, 2))
    first, second = batches[0], batches[-1]
    train_step(probe, probe_opt, args.lr, *first)
    peak = peak_bytes(
        lambda: train_step(probe, probe_opt, args.lr, *second), args.device == "torch"
    )
    strategy = "Balanced" if args.checkpointing else "NoCheckpointing"
    print(f"peak memory of a training step ({strategy}): {peak / 2**20:.2f} MiB")

    def save(done):
        if checkpoint:
            checkpoint.save(model, opt, scheduler, loader, history + done)

    history += run_epochs(
        captured_train_step() if args.capture else train_step,
        model,
        opt,
        scheduler,
        loader,
        lambda: accuracy(model, test, device),
        args.epochs,
        first=len(history),
        bar=progress_bar(args.epochs),
        save=save,
    )
    if history:
        print(f"seconds per epoch: {np.mean([h['seconds'] for h in history]):.3f}")
    if args.plot:
        plot(history, args.plot)
    if args.compare:
        compare(args, train, test, history)
    if args.quantize:
        ptq_report(model, test, device, args.quantize)
    final = accuracy(model, test, device)
    print(f"test accuracy: {100 * final:.2f}%")
    return final


if __name__ == "__main__":
    main()
