"""Files the tests read that change only with the installed packages and the code that makes
them (models exported by torch): made once by `make install` beside the packages (`python
tests/<module>.py`), else one job of the session's background queue (tests/background.py), the
files in its folder."""

import hashlib
import importlib
import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import background

ROOT = Path(__file__).resolve().parent.parent
# the queue's job: `make` of its module, into the job's folder
MAKE = """
import importlib, sys
from pathlib import Path
sys.path.insert(0, "tests")
getattr(importlib.import_module(sys.argv[1]), sys.argv[2])(Path(sys.argv[3]))
"""


class MadeOnce:
    """`make(folder)`'s files, named by what makes them: the `sources` (this module's files)
    and the versions of the `packages`, so that a change to any of them makes them again."""

    def __init__(self, name: str, make, sources: tuple, packages: tuple, env: dict | None = None):
        self.name, self.make, self.sources, self.packages = name, make, sources, packages
        self.env = env or {}
        self._made = None  # the folder `make install` filled, or the queue's job

    def built(self) -> Path:
        """Where `make install` keeps them, beside the packages."""
        digest = hashlib.sha256()
        for source in self.sources:
            digest.update(Path(source).read_bytes())
        for package in self.packages:
            digest.update(metadata.version(package).encode())
        return Path(sys.prefix) / f"{self.name}-{digest.hexdigest()[:16]}"

    def start(self, config) -> None:
        """Queue the making, once however many test files ask, unless `make install` did it."""
        if self._made is None:
            if self.built().is_dir():
                self._made = self.built()
                return
            module, function = self.make.__module__, self.make.__name__

            def command(folder):
                return [[sys.executable, "-c", MAKE, module, function, str(folder)]]

            env = {**os.environ, **self.env}
            self._made = background.start(config, command, 300, cwd=ROOT, env=env)

    def folder(self) -> Path:
        if isinstance(self._made, Path):
            return self._made
        assert self._made.wait() == [0], self._made.output(0)
        return self._made.folder

    def install(self) -> None:
        """`make install`'s: made into a new folder beside the packages, moved into place whole."""
        target = self.built()
        if not target.is_dir():
            os.environ.update(self.env)
            made = Path(tempfile.mkdtemp(prefix=f".{self.name}-", dir=sys.prefix))
            self.make(made)
            os.replace(made, target)
