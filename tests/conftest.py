import difflib
import gc
import os
import pickle
import sys
from pathlib import Path

# One thread for numpy's BLAS, OpenMP and torch (the child processes too), as the examples and
# the benches run, unless the environment chose: the suite's arrays are small, and on cores that
# other work shares, a second BLAS thread mostly spins waiting.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import pytest  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

import background  # noqa: E402

threadpool_limits(limits=int(os.environ["OPENBLAS_NUM_THREADS"]), user_api="blas")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout under test, before any installed copy


@pytest.fixture(scope="module")
def own_heap():
    """The objects alive before a module's tests run are moved out of the collector's view
    (gc.freeze) until they end: introspect's walks over every live object (live_nodes,
    saved_bytes) then see what these tests made, not the whole suite's heap, and a graph left
    by an earlier module cannot fail them."""
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(scope="session")
def digits_smoke() -> dict:
    """One smoke run of examples/digits_cnn.py (`args`: one epoch on 200 images, then its weights
    quantized) that plots and, with torch, trains the PyTorch twin too, for every check of such
    a run: what it printed, the accuracy it returned and the plot's path. It runs in a child
    process started with the session (tests/background.py)."""
    job = _STARTED["digits smoke"]
    assert job.wait() == [0], job.output(0)
    run = pickle.loads((job.folder / "run").read_bytes())
    return {"args": DIGITS_SMOKE, "plot": job.folder / "loss.png", **run}


# what the smoke run's child runs: the example's main, its printed lines and accuracy pickled
DIGITS_SMOKE_RUN = """
import contextlib, io, pickle, sys
from examples import digits_cnn
out = io.StringIO()
with contextlib.redirect_stdout(out):
    accuracy = digits_cnn.main(sys.argv[2:])
with open(sys.argv[1], "wb") as f:
    pickle.dump({"out": out.getvalue().splitlines(), "accuracy": accuracy}, f)
"""
_STARTED = {}


def _start_digits_smoke(config) -> None:
    compare = ["--compare"] if _have("torch") else []

    def command(folder):
        args = DIGITS_SMOKE + compare + ["--plot", str(folder / "loss.png")]
        return [[sys.executable, "-c", DIGITS_SMOKE_RUN, str(folder / "run"), *args]]

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    _STARTED["digits smoke"] = background.start(config, command, 300, cwd=ROOT, env=env)


DIGITS_SMOKE = ["--subset", "200", "--epochs", "1", "--quantize"]


def _have(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# -- work started early: a module's `start_in_background(config, names)`, given the names of its
# selected tests, starts the child processes they will wait for (see tests/background.py)
def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    if any("digits_smoke" in getattr(item, "fixturenames", ()) for item in session.items):
        _start_digits_smoke(session.config)
    selected = {}
    for item in session.items:
        name = getattr(item, "originalname", item.name)
        selected.setdefault(getattr(item, "module", None), []).append(name)
    for module, names in selected.items():
        start = getattr(module, "start_in_background", None)
        if start is not None:
            start(session.config, names)


# -- one op's tests: `pytest --op float_mul` (`make test-op OP=float_mul`) -----------------------
def pytest_addoption(parser):
    parser.addoption(
        "--op",
        metavar="NAME",
        help="run only the tests parametrised by the catalogue op NAME (its spec-driven checks "
        "on every backend and dtype, and every other test that takes it as `op`)",
    )


def _op_name(item) -> str | None:
    op = getattr(item, "callspec", None) and item.callspec.params.get("op")
    return getattr(op, "name", op) if op is not None else None


def pytest_collection_modifyitems(config, items):
    # The modules whose tests wait for work of the background queue run last, in the order
    # their work is queued: the queue is busy from the start, and the test process runs the
    # other modules meanwhile rather than wait.
    items.sort(key=lambda item: hasattr(getattr(item, "module", None), "start_in_background"))
    name = config.getoption("--op")
    if name is None:
        return
    kept = [item for item in items if _op_name(item) == name]
    if not kept:
        known = sorted({n for n in map(_op_name, items) if isinstance(n, str)})
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise pytest.UsageError(f"--op {name}: no test is parametrised by an op of that name{hint}")
    config.hook.pytest_deselected(items=[item for item in items if _op_name(item) != name])
    items[:] = kept
