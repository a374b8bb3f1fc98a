"""`Learner`: burn-train's training loop: epochs of steps, validation, metrics, checkpoints,
resuming, early stopping; data-parallel when a `burnpy.distributed` group is joined."""

import math
import sys
import time
from typing import NamedTuple

import numpy as np

from burnpy import threads
from burnpy.train.checkpoint import Checkpoints
from burnpy.train.metrics import METRICS, Meter, Summary, describe
from burnpy.train.progress import progress_bar
from burnpy.generated import Device, Tensor


class Output(NamedTuple):
    """What a step function returns: the loss to minimise and, for the accuracy metric, the
    model's output (class scores on the last dim) and the targets (class indices)."""

    loss: Tensor
    output: Tensor | None = None
    targets: Tensor | None = None


class Learner:
    """Trains `model` in place with `optimizer`, one `step_fn(model, batch) -> Output` per
    batch; the learning rate of each step is `lr_scheduler.step()` (the optimiser's own without
    one). `metrics` are among "loss" and "accuracy"; `checkpoint_dir` holds the checkpoints and
    the log; `early_stopping` is a `train.EarlyStopping`."""

    def __init__(
        self,
        model,
        optimizer,
        step_fn,
        *,
        lr_scheduler=None,
        metrics=METRICS,
        checkpoint_dir=None,
        early_stopping=None,
    ):
        unknown = [m for m in metrics if m not in METRICS]
        if unknown:
            raise ValueError(
                f"Learner: unknown metrics {unknown}; choose among {list(METRICS)} (the learning "
                "rate and items per second are always recorded)"
            )
        self.model = model
        self.optimizer = optimizer
        self.step_fn = step_fn
        self.lr_scheduler = lr_scheduler
        self.metrics = tuple(metrics)
        self.checkpoint_dir = checkpoint_dir
        self.early_stopping = early_stopping

    def can_resume(self) -> bool:
        """Whether `checkpoint_dir` holds a checkpoint that `fit(..., resume=True)` continues."""
        return self.checkpoint_dir is not None and Checkpoints(self.checkpoint_dir).exists()

    def fit(self, train_loader, valid_loader, epochs: int, *, resume: bool = False) -> Summary:
        """Train until `epochs` epochs have run in all (counting those of a resumed run) or
        early stopping ends it; returns the Summary, which rank 0 also prints. `valid_loader`
        may be None. With `resume=True` the run continues from the latest checkpoint; in a
        group, rank 0 writes the checkpoints and every rank reads them, so on several machines
        `checkpoint_dir` must be a folder they all see."""
        group = _group()
        lead = group is None or group.rank() == 0
        checkpoints = Checkpoints(self.checkpoint_dir) if self.checkpoint_dir else None
        if resume and checkpoints is None:
            raise ValueError("fit(resume=True) needs the Learner's checkpoint_dir")
        self._check_early_stopping(valid_loader is not None)
        if len(train_loader) == 0:
            raise ValueError(
                f"fit: the training loader yields no batch ({len(train_loader.dataset)} items, "
                f"batch_size {train_loader.batch_size}, drop_last {train_loader.drop_last}); "
                "give it items (or a batch_size no larger than their number with drop_last)"
            )
        threads.use_default()
        history, stopped = [], None
        early = self.early_stopping
        best = None  # the best epoch's arrays, when early stopping restores them
        if resume:
            state = checkpoints.load(self.model, self.optimizer)
            if lead:
                checkpoints.tidy(state)
            if self.lr_scheduler is not None:
                self.lr_scheduler.load_record(state["lr_scheduler"])
            if early is not None and state["early_stopping"] is not None:
                early.load_record(state["early_stopping"])
            train_loader.load_record(state["loader"])
            history, stopped = state["history"], state["stopped_early"]
        elif checkpoints is not None and lead:
            checkpoints.start()
        if group is not None:
            group.replicate(self.model)
        for epoch in range(len(history), epochs):
            if stopped:
                break
            record = self._epoch(epoch, epochs, train_loader, valid_loader, group, lead)
            history.append(record)
            if early is not None and early.update(record):
                stopped = early.reason()
            keep_best = early is not None and early.restore_best and early.improved
            if keep_best:
                best = self.model.state_dict()
            if lead:
                print(describe(record))
                if checkpoints is not None:
                    if keep_best:
                        checkpoints.save_best(self.model, self.optimizer)
                    state = self._state(train_loader, history, stopped)
                    checkpoints.save(epoch + 1, self.model, self.optimizer, state)
        if group is not None:
            group.barrier()  # rank 0's files are complete before any rank reads them
        if early is not None and early.restore_best and early.best_epoch is not None:
            restored = self._restore_best(best, checkpoints)
            if lead and restored:
                print(
                    f"restored the weights of epoch {early.best_epoch}, the best "
                    f"{early.metric} ({early.best:.4g})"
                )
        summary = Summary(history, stopped)
        if lead:
            print(summary)
        return summary

    def _restore_best(self, best, checkpoints) -> bool:
        """Put the best epoch's weights into the model: this run's copy, or (after a resume)
        the checkpoint's `best/`."""
        if best is not None:
            self.model.load_arrays(best, "the best epoch's weights")
            return True
        return checkpoints is not None and checkpoints.load_best(self.model)

    def _state(self, loader, history, stopped) -> dict:
        scheduler, early = self.lr_scheduler, self.early_stopping
        return {
            "lr_scheduler": scheduler.to_record() if scheduler is not None else None,
            "early_stopping": early.to_record() if early is not None else None,
            "loader": loader.to_record(),
            "history": history,
            "stopped_early": stopped,
        }

    def _check_early_stopping(self, validates: bool) -> None:
        if self.early_stopping is None:
            return
        splits = ("train", "valid") if validates else ("train",)
        names = [f"{split}_{m}" for split in splits for m in self.metrics]
        names += ["lr", "items_per_second"]
        if self.early_stopping.metric not in names:
            raise ValueError(
                f"EarlyStopping watches {self.early_stopping.metric!r}, which this fit does not "
                f"record; it records {names}"
            )

    def _epoch(self, epoch, epochs, train_loader, valid_loader, group, lead) -> dict:
        start = time.perf_counter()
        self.model.train()
        meter = Meter()
        lr = self.optimizer.lr
        batches, count = _batches(train_loader, epoch, group)
        bar = progress_bar(count, f"epoch {epoch + 1}/{epochs}", lead)
        for batch in batches:
            if self.lr_scheduler is not None:
                lr = self.lr_scheduler.step()
            output = self.step_fn(self.model, batch)
            self.optimizer.step(self.model, output.loss.backward(), lr=lr)
            meter.add(output, self.metrics)
            bar.update()
            if "loss" in self.metrics:
                bar.set_postfix(loss=f"{meter.loss / meter.items:.4f}", refresh=False)
        bar.close()
        seconds = time.perf_counter() - start
        if group is not None:
            # Rank 0's buffers (batch-norm statistics, from its own shards) become everyone's,
            # as DistributedDataParallel does; the parameters are already the same.
            group.replicate(self.model)
        sums = _reduce(meter.sums(), group)
        record = {"epoch": epoch + 1, **Meter.results("train", sums, self.metrics)}
        if valid_loader is not None:
            model = self.model.valid()
            meter = Meter()
            for batch in _batches(valid_loader, epoch, group)[0]:
                meter.add(self.step_fn(model, _inner(batch)), self.metrics)
            record.update(Meter.results("valid", _reduce(meter.sums(), group), self.metrics))
        record["lr"] = lr
        record["items_per_second"] = float(sums[0]) / seconds
        record["seconds"] = time.perf_counter() - start
        return record


def _group():
    """burnpy.distributed when this process joined a group, else None; looked up without
    importing it (and torch) when the user did not."""
    module = sys.modules.get("burnpy.distributed")
    return module if module is not None and module.is_initialized() else None


def _batches(loader, epoch, group):
    """(the batches of an epoch, their number): the loader's own, or in a group this rank's
    shard of them: a shuffled loader draws its permutation from a seed rank 0 picks (from its
    own generator, so that a resumed run draws the same ones), an unshuffled one is cut into
    contiguous shares; either way every rank gets len // world_size items."""
    if group is None:
        return iter(loader), len(loader)
    n = len(loader.dataset)
    if loader.shuffle:
        seed = Tensor.from_data([int(loader.rng.integers(2**62))], device=Device.numpy())
        seed = int(group.broadcast(seed, src=0).item())
        indices = group.shard_indices(n, seed=seed, epoch=epoch)
    else:
        share = n // group.world_size()
        indices = np.arange(group.rank() * share, (group.rank() + 1) * share)
    size = loader.batch_size
    count = len(indices) // size if loader.drop_last else math.ceil(len(indices) / size)
    dataset, collate, device = loader.dataset, loader.collate, loader.device
    batches = (
        collate([dataset[int(i)] for i in indices[b * size : (b + 1) * size]], device)
        for b in range(count)
    )
    return batches, count


def _reduce(sums: np.ndarray, group) -> np.ndarray:
    if group is None:
        return sums
    total = Tensor.from_data(sums, device=Device.numpy(), dtype=np.float64)
    return group.all_reduce(total, "sum").to_numpy()


def _inner(batch):
    """A batch for the validation copy of the model, which lives on the inner device."""
    if isinstance(batch, Tensor):
        return batch.inner()
    if isinstance(batch, tuple | list):
        return type(batch)(_inner(item) for item in batch)
    return batch
