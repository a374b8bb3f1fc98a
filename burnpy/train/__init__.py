"""burnpy.train: burn-train's Learner, the training loop written once.

    learner = train.Learner(model, optimizer, step_fn, lr_scheduler=scheduler,
                            checkpoint_dir="runs/a", early_stopping=train.EarlyStopping())
    summary = learner.fit(train_loader, valid_loader, epochs=10)   # resume=True continues a run

`step_fn(model, batch)` returns a `train.Output(loss, output, targets)`. Each epoch shows a
progress bar (with tqdm installed), prints its metrics, writes them to `log.jsonl` and saves a
checkpoint in `checkpoint_dir`. After `burnpy.distributed.init()` the same `fit` trains
data-parallel: each rank takes its shard of every loader, the model is replicated, metrics are
reduced over the ranks, and rank 0 prints, logs and saves.
"""

from burnpy.train.early_stopping import EarlyStopping
from burnpy.train.learner import Learner, Output
from burnpy.train.metrics import Summary

__all__ = ["EarlyStopping", "Learner", "Output", "Summary"]
