"""Early stopping: end training when a metric has not improved for `patience` epochs."""

import math


class EarlyStopping:
    """Stop once `metric` (a name of the Learner's epoch metrics, e.g. "valid_loss" or
    "valid_accuracy") has gone `patience` epochs without improving on its best by more than
    `min_delta`; `mode` is "min" (lower is better) or "max". With `restore_best` the Learner
    keeps the best epoch (in `checkpoint_dir/best/` when it has one) and ends `fit` with its
    weights in the model."""

    def __init__(
        self,
        metric: str = "valid_loss",
        *,
        patience: int = 2,
        mode: str = "min",
        min_delta=0.0,
        restore_best: bool = True,
    ):
        if mode not in ("min", "max"):
            raise ValueError(f"EarlyStopping: mode must be 'min' or 'max', got {mode!r}")
        if not (isinstance(patience, int) and patience >= 1):
            raise ValueError(f"EarlyStopping: patience must be an int >= 1, got {patience!r}")
        if min_delta < 0:
            raise ValueError(f"EarlyStopping: min_delta must be >= 0, got {min_delta!r}")
        self.metric = metric
        self.patience = patience
        self.mode = mode
        self.min_delta = min_delta
        self.restore_best = bool(restore_best)
        self.best = math.inf if mode == "min" else -math.inf
        self.best_epoch = None  # the epoch (counted from 1) of the best value
        self.waited = 0  # epochs since the best
        self.improved = False  # whether the last update found a new best

    def update(self, metrics: dict) -> bool:
        """Take one epoch's metrics; True when training should stop."""
        value = metrics[self.metric]
        gain = self.best - value if self.mode == "min" else value - self.best
        self.improved = gain > self.min_delta or math.isinf(self.best)
        if self.improved:
            self.best, self.waited = value, 0
            self.best_epoch = metrics.get("epoch")
        else:
            self.waited += 1
        return self.waited >= self.patience

    def reason(self) -> str:
        return (
            f"{self.metric} did not improve on {self.best:.4g} by more than {self.min_delta:g} "
            f"for {self.patience} epoch(s)"
        )

    def to_record(self) -> dict:
        return {"best": self.best, "waited": self.waited, "best_epoch": self.best_epoch}

    def load_record(self, record: dict) -> "EarlyStopping":
        self.best, self.waited = record["best"], record["waited"]
        self.best_epoch = record.get("best_epoch")
        return self
