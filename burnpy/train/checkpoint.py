"""A Learner's checkpoints: after every epoch, the model, the optimiser's state and the run's
position (the scheduler's, the loader's, early stopping's, the metrics so far), in one folder
per epoch; `learner.json` names the latest complete one.

A crash at any point leaves a run that resumes: an epoch's folder is written under a temporary
name and renamed into place only when complete; `log.jsonl` (every epoch so far) is rewritten
before the folder is published; `learner.json` is replaced last; `best/` (early stopping's best
epoch) is published the same way. Every file goes through `burnpy.files` (temporary, flush,
rename).
"""

import json
import os
import re
import shutil
from pathlib import Path

from burnpy import files

_KEPT = 2  # the latest epochs whose folders stay on disk
_EPOCH = re.compile(r"epoch-(\d+)$")


class Checkpoints:
    def __init__(self, directory):
        self.directory = Path(directory)
        self.index = self.directory / "learner.json"
        self.best = self.directory / "best"

    def exists(self) -> bool:
        return self.index.exists()

    def save(self, epoch: int, model, optimizer, state: dict) -> None:
        """Publish epoch `epoch`: the log first, then its folder, then learner.json naming
        it; folders of older epochs than the kept ones go last."""
        self.directory.mkdir(parents=True, exist_ok=True)
        log = "".join(json.dumps(record) + "\n" for record in state["history"])
        files.write_text(self.directory / "log.jsonl", log)
        self._publish(self.directory / f"epoch-{epoch}", model, optimizer)
        files.write_text(self.index, json.dumps({"epoch": epoch, **state}))
        self.remove_stale(keep=range(epoch - _KEPT + 1, epoch + 1))

    def save_best(self, model, optimizer) -> None:
        """Publish the current model and optimiser as `best/`."""
        self._publish(self.best, model, optimizer)

    def _publish(self, folder: Path, model, optimizer) -> None:
        """Write `folder` complete under a temporary name, then rename it into place; an old
        folder of that name is moved aside first and removed after."""
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = files.temporary_folder(folder, ".partial")
        try:
            model.save(partial / "model.safetensors")
            optimizer.save(partial / "optimizer.safetensors")
            old = None
            if folder.exists():
                old = files.temporary_folder(folder, ".old")
                os.replace(folder, old)  # (over the empty folder just made)
            os.replace(partial, folder)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        files.sync_directory(self.directory)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def remove_stale(self, keep) -> None:
        """Remove the epoch folders not in `keep` (a range of epochs) and what a killed run
        left half-written."""
        for path in self.directory.iterdir():
            match = _EPOCH.match(path.name)
            partial = path.name.startswith(".") and path.name.endswith((".partial", ".old"))
            if (match and int(match.group(1)) not in keep) or (partial and path.is_dir()):
                shutil.rmtree(path, ignore_errors=True)

    def start(self) -> None:
        """A new run in this folder: the old run's index and best epoch go, so nothing of it
        is resumed or restored with this run's files."""
        self.index.unlink(missing_ok=True)
        shutil.rmtree(self.best, ignore_errors=True)

    def load(self, model, optimizer) -> dict:
        """Restore the model and optimiser of the latest epoch in place; returns the state
        saved with them."""
        if not self.exists():
            raise FileNotFoundError(
                f"resume=True, but {self.directory} holds no checkpoint (no learner.json); "
                "run fit() without resume first"
            )
        try:
            state = json.loads(self.index.read_text())
        except json.JSONDecodeError as error:
            raise ValueError(
                f"{self.index} is not JSON ({error}); it was not written by a Learner, or was "
                "altered"
            ) from error
        folder = self.directory / f"epoch-{state['epoch']}"
        model.load(folder / "model.safetensors")
        optimizer.load(folder / "optimizer.safetensors", model)
        return state

    def tidy(self, state: dict) -> None:
        """After a resume: the folders of later epochs (a run killed before naming them) and
        of older ones are removed, and the log holds exactly the resumed epochs."""
        epoch = state["epoch"]
        self.remove_stale(keep=range(epoch - _KEPT + 1, epoch + 1))
        log = "".join(json.dumps(record) + "\n" for record in state["history"])
        files.write_text(self.directory / "log.jsonl", log)

    def load_best(self, model) -> bool:
        """Load `best/`'s model in place, if there is one."""
        if not (self.best / "model.safetensors").exists():
            return False
        model.load(self.best / "model.safetensors")
        return True
