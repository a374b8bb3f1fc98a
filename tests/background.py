"""Work a test waits for, started as soon as the run's tests are known.

The suite runs in one process, on one core; a test whose work is child processes of its own
(the ONNX node suite, the two ranks of burnpy.distributed) queues them from the hook that sees
the selected tests (tests/conftest.py calls a test module's `start_in_background(config,
names)` with the names of its selected tests). The jobs run one after another, in the order
queued, on the second core meanwhile; a job waited for before its turn starts at once. The
modules that wait run last (tests/conftest.py orders them), so that the test process has the
other modules to run while the queue works. Each job
is bounded in time; when the session ends, whatever still runs is killed and the job's folder
removed: nothing is left behind. With TESTS_IN_BACKGROUND=0 in the environment, each job runs
only when its test waits for it, in the test's own time (to compare, or to debug one).
"""

import inspect
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

if __name__ != "background":  # (the queue is this module's state: one copy of it, one queue)
    raise ImportError(
        f"tests/background.py imported as {__name__}: import it as `background` (tests/ is on "
        "sys.path), or its jobs go to a queue of their own that no thread runs"
    )


@dataclass
class Job:
    """Child processes run together, the time they are given and their folder (which holds
    each one's output, `output<i>.log`, and whatever else they write)."""

    commands: list
    limit_s: float
    folder: Path
    popen: dict
    processes: list = field(default_factory=list)
    started: float = 0.0
    ended: bool = False  # the session ended: never start
    lock: threading.Lock = field(default_factory=threading.Lock)

    def launch(self) -> None:
        with self.lock:
            if self.processes or self.ended:
                return
            self.started = time.monotonic()
            for index, command in enumerate(self.commands):
                with open(self.folder / f"output{index}.log", "w") as log:
                    self.processes.append(
                        subprocess.Popen(
                            command, stdout=log, stderr=subprocess.STDOUT, **self.popen
                        )
                    )

    def wait(self) -> list:
        """Wait for every child (started now if its turn has not come; killed past the
        limit); their exit codes."""
        self.launch()
        for process in self.processes:
            left = self.limit_s - (time.monotonic() - self.started)
            try:
                process.wait(timeout=max(left, 0.1))
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        return [process.returncode for process in self.processes]

    def output(self, index: int) -> str:
        return (self.folder / f"output{index}.log").read_text()

    def kill(self) -> None:
        with self.lock:
            self.ended = True
            for process in self.processes:
                if process.poll() is None:
                    process.kill()
                    process.wait()


_QUEUE: list = []
_QUEUED = threading.Condition()


def _run_queue() -> None:
    while True:
        with _QUEUED:
            while not _QUEUE:
                _QUEUED.wait()
            job = _QUEUE.pop(0)
        job.wait()


def start(config, commands, limit_s: float, **popen) -> Job:
    """Queue a job of one child per command (`commands(folder)`: their argv, given the job's
    folder); `popen`: Popen's keywords (env, cwd)."""
    folder = Path(tempfile.mkdtemp(prefix="background-"))
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    job = Job(commands(folder), limit_s, folder, popen)
    config.add_cleanup(job.kill)  # (cleanups run last first: before the folder's removal)
    if os.environ.get("TESTS_IN_BACKGROUND") == "0":  # each job runs when its test waits
        return job
    with _QUEUED:
        if not any(thread.name == "background" for thread in threading.enumerate()):
            threading.Thread(target=_run_queue, name="background", daemon=True).start()
        _QUEUE.append(job)
        _QUEUED.notify()
    return job


def tests_taking(namespace: dict, fixture: str) -> set:
    """The names of the test functions of a module (its `globals()`) that take `fixture`."""
    return {
        name
        for name, test in namespace.items()
        if name.startswith("test_")
        and inspect.isfunction(test)
        and fixture in inspect.signature(test).parameters
    }
