"""ONNX's node suite, run once per session in the background for the two tests that judge it:
the importer's result of every case (tests/test_onnx.py) and, when the suite in reverse is
selected too, each passing case exported and run again (tests/test_onnx_export.py). The import
runs once for both (burnpy.onnx.conformance.run_export)."""

import pickle
import sys
from pathlib import Path

import background

ROOT = Path(__file__).resolve().parent.parent
LIMIT_S = 900
SUITE = """
import pickle, sys
from pathlib import Path
from burnpy.onnx import conformance
folder, cache = Path(sys.argv[1]), sys.argv[2] or None
if (folder / "reverse").exists():
    imported = {}
    exported = conformance.run_export(cache, imported=imported)
else:
    imported, exported = conformance.run(["ours"], cache)["ours"], None
with open(folder / "results", "wb") as f:
    pickle.dump({"imported": imported, "exported": exported}, f)
"""
_STARTED: dict = {}


def start(config, reverse: bool = False) -> None:
    """Queue the suite, once however many modules ask; `reverse`: export the cases too (asked
    before the job starts: every module asks while the session's tests are collected)."""
    if "suite" not in _STARTED:
        built = Path(sys.prefix) / "onnx-node-cases"  # (`make install` builds the cases there)
        store = getattr(config, "cache", None)  # else pytest's cache, unless disabled
        if built.is_dir():
            cache = str(built)
        else:
            cache = str(store.mkdir("onnx-node-cases")) if store is not None else ""
        _STARTED["suite"] = background.start(
            config,
            lambda folder: [[sys.executable, "-c", SUITE, str(folder), cache]],
            LIMIT_S,
            cwd=ROOT,
        )
    if reverse:
        (_STARTED["suite"].folder / "reverse").touch()


def results() -> dict:
    """{"imported": {case: (op type, result, detail)}, "exported": {runner: {case: ...}} or
    None}, once the job has run."""
    job = _STARTED["suite"]
    assert job.wait() == [0], job.output(0)
    return pickle.loads((job.folder / "results").read_bytes())
