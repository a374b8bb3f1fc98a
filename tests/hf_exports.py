"""transformers' BERT and GPT-2 exported once for every test file that reads them
(tests/test_onnx_faithful.py, tests/test_onnx_transformers.py, tests/test_onnx_export.py): made
by `make install` beside the packages (`python tests/hf_exports.py`), else one job of the
session's background queue (tests/background.py), the files in its folder."""

import os
import sys
from pathlib import Path

import background

ROOT = Path(__file__).resolve().parent.parent
EXPORT_ALL = """
import sys
from pathlib import Path
sys.path.insert(0, "tests")
import hf_exports
hf_exports.export_all(Path(sys.argv[1]))
"""
_STARTED = {}


def export_all(folder: Path) -> None:
    """`{name}-{exporter}.onnx` with dynamic batch and sequence; GPT-2's weights (the reference
    for untying) and GPT-2 at one shape (its dims checked)."""
    import numpy as np
    import torch

    from benches import transformer_exports

    for name in transformer_exports.NAMES:
        for how in transformer_exports.EXPORTERS:
            transformer_exports.export(torch, name, how, folder / f"{name}-{how}.onnx")
    source = transformer_exports.build(torch, "gpt2")
    np.savez(folder / "gpt2.npz", **{k: v.detach().numpy() for k, v in source.named_parameters()})
    for how in transformer_exports.EXPORTERS:
        transformer_exports.export(torch, "gpt2", how, folder / f"gpt2-{how}-static.onnx", dynamic=False)  # fmt: skip


def built() -> Path:
    """Where `make install` keeps the exports, beside the packages: named by what makes them
    (this file, benches/transformer_exports.py, the versions of torch, transformers and onnx),
    so that a change to any of them makes them again."""
    import hashlib
    from importlib import metadata

    digest = hashlib.sha256()
    for source in (Path(__file__), ROOT / "benches" / "transformer_exports.py"):
        digest.update(source.read_bytes())
    for package in ("torch", "transformers", "onnx"):
        digest.update(metadata.version(package).encode())
    return Path(sys.prefix) / f"hf-exports-{digest.hexdigest()[:16]}"


def start(config) -> None:
    """Queue the exports, once however many files ask, unless `make install` made them."""
    if "exports" not in _STARTED:
        if built().is_dir():
            _STARTED["exports"] = built()
            return
        command = lambda folder: [[sys.executable, "-c", EXPORT_ALL, str(folder)]]  # noqa: E731
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}  # (the models are built from configs)
        _STARTED["exports"] = background.start(config, command, 300, cwd=ROOT, env=env)


def folder() -> Path:
    job = _STARTED["exports"]
    if isinstance(job, Path):
        return job
    assert job.wait() == [0], job.output(0)
    return job.folder


if __name__ == "__main__":  # `make install`: the exports made once, moved into place whole
    import tempfile

    target = built()
    if not target.is_dir():
        made = Path(tempfile.mkdtemp(prefix=".hf-exports-", dir=sys.prefix))
        export_all(made)
        os.replace(made, target)
