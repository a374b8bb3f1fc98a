"""Code run as a fresh interpreter runs it, many pieces for the start-up of one.

`start_fresh(config, jobs, warm=...)` queues one Python process (a background job of the
session, tests/background.py) that imports the `warm` modules (the libraries the pieces share:
numpy, scipy, torch, ...), then forks a child per job, two at a time: each child runs its code (or script, with its argv) as `__main__` in its own working
directory, with its own stdout and stderr, as `python -c code` or `python script` would, but
without paying for those imports again. Importing a library leaves no state a piece could see,
so what a piece prints is what a fresh process prints.
"""

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Job:
    name: str
    cwd: str
    code: str | None = None  # `python -c code`
    script: str | None = None  # or `python script *argv`
    argv: tuple[str, ...] = ()


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


def start_fresh(config, jobs: list[Job], warm=(), limit_s: float = 300):
    """Queue the interpreter that runs every job; `results` waits for it."""
    import background  # (the runner below is also this file run as a script)

    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    request = {"warm": list(warm), "jobs": [job.__dict__ for job in jobs]}

    def command(folder):
        (folder / "request.json").write_text(json.dumps(request))
        return [[sys.executable, __file__, str(folder / "request.json"), str(folder / "done")]]

    return background.start(config, command, limit_s, env=env)


def results(started) -> dict[str, Done]:
    """The jobs' results by name, once the interpreter that ran them has ended."""
    assert started.wait() == [0], started.output(0)
    done = json.loads((started.folder / "done").read_text())
    return {name: Done(**result) for name, result in done.items()}


# -- the interpreter that forks the children ---------------------------------------------------
def _child(job: dict, out: str, err: str) -> None:
    import runpy
    import traceback
    import types

    code = 0
    try:
        os.chdir(job["cwd"])
        for fd, path in ((1, out), (2, err)):
            os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        if job["script"] is not None:
            sys.argv = [job["script"], *job["argv"]]
            sys.path[0] = os.path.dirname(os.path.abspath(job["script"]))
            runpy.run_path(job["script"], run_name="__main__")
        else:
            sys.argv = ["-c"]
            sys.path[0] = ""
            main = sys.modules["__main__"] = types.ModuleType("__main__")
            exec(compile(job["code"], "<string>", "exec"), main.__dict__)
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _serve() -> None:
    import importlib
    import tempfile

    request = json.loads(Path(sys.argv[1]).read_text())
    for module in request["warm"]:
        importlib.import_module(module)
    results, running = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        pending = list(enumerate(request["jobs"]))
        while pending or running:
            while pending and len(running) < 2:
                i, job = pending.pop(0)
                out, err = os.path.join(tmp, f"{i}.out"), os.path.join(tmp, f"{i}.err")
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _child(job, out, err)
                running[pid] = (job["name"], out, err)
            pid, status = os.wait()
            name, out, err = running.pop(pid)
            results[name] = {
                "returncode": os.waitstatus_to_exitcode(status),
                "stdout": Path(out).read_text(),
                "stderr": Path(err).read_text(),
            }
    Path(sys.argv[2]).write_text(json.dumps(results))


if __name__ == "__main__":
    _serve()
