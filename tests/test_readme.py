"""Every Python snippet of the README runs, each in a fresh process, as a reader would paste it."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def run(code: str, cwd) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, f"README snippet failed:\n{code}\n{done.stderr}"
    return done.stdout


def snippet(heading: str) -> str:
    """The first Python snippet after `heading`."""
    readme = (ROOT / "README.md").read_text()
    return re.search(r"```python\n(.*?)```", readme[readme.index(heading) :], re.S).group(1)


@pytest.mark.parametrize("code", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_every_python_snippet_runs(code, tmp_path):
    run(code, tmp_path)


def test_the_quick_start_trains_a_classifier(tmp_path):
    out = run(snippet("## Quick start"), tmp_path)
    accuracy = float(re.fullmatch(r"test accuracy: (\d+\.\d\d)%\n", out).group(1))
    assert accuracy >= 95.0


def test_the_model_definition_prints_what_its_comments_say(tmp_path):
    code = snippet("## Models and training")
    out = run(code, tmp_path).splitlines()
    # Each print's comment gives its output (or its start, before "...").
    expected = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 3
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix("...]").removesuffix(", ")), (line, comment)
    assert (tmp_path / "digits_cnn.safetensors").exists()
