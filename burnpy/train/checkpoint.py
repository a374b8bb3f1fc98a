"""A Learner's checkpoints: after every epoch, the model, the optimiser's state and the run's
position (the scheduler's, the loader's, early stopping's, the metrics so far), in one folder
per epoch; `learner.json`, written last and renamed into place, names the latest complete one.
"""

import json
import shutil
from pathlib import Path

_KEPT = 2  # the latest epochs whose folders stay on disk


class Checkpoints:
    def __init__(self, directory):
        self.directory = Path(directory)
        self.index = self.directory / "learner.json"

    def exists(self) -> bool:
        return self.index.exists()

    def save(self, epoch: int, model, optimizer, state: dict) -> None:
        folder = self.directory / f"epoch-{epoch}"
        folder.mkdir(parents=True, exist_ok=True)
        model.save(folder / "model.safetensors")
        optimizer.save(folder / "optimizer.safetensors")
        partial = self.directory / "learner.json.partial"
        partial.write_text(json.dumps({"epoch": epoch, **state}))
        partial.replace(self.index)
        stale = self.directory / f"epoch-{epoch - _KEPT}"
        if stale.exists():
            shutil.rmtree(stale)

    def load(self, model, optimizer) -> dict:
        """Restore the model and optimiser of the latest epoch in place; returns the state
        saved with them."""
        if not self.exists():
            raise FileNotFoundError(
                f"resume=True, but {self.directory} holds no checkpoint (no learner.json); "
                "run fit() without resume first"
            )
        state = json.loads(self.index.read_text())
        folder = self.directory / f"epoch-{state['epoch']}"
        model.load(folder / "model.safetensors")
        optimizer.load(folder / "optimizer.safetensors")
        return state

    def log(self, record: dict) -> None:
        """Append one epoch's metrics to log.jsonl."""
        with open(self.directory / "log.jsonl", "a") as log:
            log.write(json.dumps(record) + "\n")
