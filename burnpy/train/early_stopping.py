"""Early stopping: end training when a metric has not improved for `patience` epochs."""

import math


class EarlyStopping:
    """Stop once `metric` (a name of the Learner's epoch metrics, e.g. "valid_loss" or
    "valid_accuracy") has gone `patience` epochs without improving on its best by more than
    `min_delta`; `mode` is "min" (lower is better) or "max"."""

    def __init__(
        self, metric: str = "valid_loss", *, patience: int = 2, mode: str = "min", min_delta=0.0
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
        self.best = math.inf if mode == "min" else -math.inf
        self.waited = 0  # epochs since the best

    def update(self, metrics: dict) -> bool:
        """Take one epoch's metrics; True when training should stop."""
        value = metrics[self.metric]
        gain = self.best - value if self.mode == "min" else value - self.best
        if gain > self.min_delta or math.isinf(self.best):
            self.best, self.waited = value, 0
        else:
            self.waited += 1
        return self.waited >= self.patience

    def reason(self) -> str:
        return (
            f"{self.metric} did not improve on {self.best:.4g} by more than {self.min_delta:g} "
            f"for {self.patience} epoch(s)"
        )

    def to_record(self) -> dict:
        return {"best": self.best, "waited": self.waited}

    def load_record(self, record: dict) -> "EarlyStopping":
        self.best, self.waited = record["best"], record["waited"]
        return self
