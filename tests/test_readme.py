"""The README's snippets run, each in a fresh process as a reader would paste it; its copy of
`python -m codegen stats` is current; and the texts for users speak of the library, not of how
it was built."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)


def run(code: str, cwd) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, f"README snippet failed:\n{code}\n{done.stderr}"
    return done.stdout


def snippet(heading: str) -> str:
    """The first Python snippet after `heading`."""
    return re.search(r"```python\n(.*?)```", README[README.index(heading) :], re.S).group(1)


def test_the_catalogue_section_is_current(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["stats"]) == 0
    shown = re.search(r"<!-- stats: begin -->\n```\n(.*?)```\n<!-- stats: end -->", README, re.S)
    assert shown is not None, "the README lost its stats markers"
    assert shown.group(1) == capsys.readouterr().out, "README: paste `python -m codegen stats`"


@pytest.mark.parametrize("code", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_every_python_snippet_runs(code, tmp_path):
    if code.startswith("def "):
        # a listing of generated code: the generator's very lines
        shown = code
        generated = (ROOT / "generated" / "dispatch" / "float_ops.py").read_text()
        assert shown in generated
        return
    out = run(code, tmp_path)
    if "print(w.grad(grads).to_numpy())" in code:
        assert out.startswith("[[3. 3.]\n [3. 3.]]\nTrue True True Disabled")


def test_the_usage_snippet_says_what_it_prints():
    assert "print(w.grad(grads).to_numpy())            # [[3. 3.] [3. 3.]]" in README


def test_the_quick_start_trains_a_classifier(tmp_path):
    out = run(snippet("## Quick start"), tmp_path)
    accuracy = float(re.fullmatch(r"test accuracy: (\d+\.\d\d)%\n", out).group(1))
    assert accuracy >= 95.0
    # seeded: the figure its comment states (a BLAS of another machine may sum in another order)
    stated = re.search(r"  # (\d+\.\d\d)%, every run", snippet("## Quick start")).group(1)
    assert abs(accuracy - float(stated)) <= 0.6


def test_the_model_definition_prints_what_its_comments_say(tmp_path):
    code = snippet("## Models and training")
    out = run(code, tmp_path).splitlines()
    # Each print's comment gives its output (or its start, before "...").
    expected = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 3
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix("...]").removesuffix(", ")), (line, comment)
    assert (tmp_path / "digits_cnn.safetensors").exists()


@pytest.mark.parametrize("path", ["README.md", "docs/coverage.md", "examples/demo.py"])
def test_no_development_history(path):
    text = (ROOT / path).read_text()
    for pattern in (
        r"\bissue #?\d",
        r"\bthe seed\b",
        r"\bseed's\b",
        r"\bpuzzle\b",
        r"(?-i:=true)\b",
    ):
        assert not re.search(pattern, text, re.I), (path, pattern)
    assert "Some(" not in text


def test_the_layers_snippet_prints_what_its_comments_say(tmp_path):
    code = snippet("The layers are burn-nn's")
    out = run(code, tmp_path).splitlines()
    expected = re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M)
    assert out == expected


def test_the_module_ops_snippet_prints_what_its_comments_say(tmp_path):
    code = snippet("## Module ops")
    out = run(code, tmp_path).splitlines()
    expected = re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M)
    assert out == expected


def test_the_sequence_models_snippet_prints_what_its_comments_say(tmp_path):
    code = snippet("### Sequence models")
    out = run(code, tmp_path).splitlines()
    expected = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 3
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix("...]").removesuffix(", ")), (line, comment)


def test_the_coming_from_pytorch_snippet_prints_what_its_comments_say(tmp_path):
    code = snippet("### Coming from PyTorch")
    out = run(code, tmp_path).splitlines()
    expected = re.findall(r"^\s*print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 5
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix(" ...").removesuffix(" (torch's)")), line


def test_the_bad_file_snippet_prints_what_its_comment_says(tmp_path):
    code = snippet("Every file the project writes")
    (line,) = run(code, tmp_path).splitlines()
    (comment,) = re.findall(r"^\s*print\(.*\)  # (.*)$", code, re.M)
    assert line.startswith(comment.removesuffix(" ...")) and "(Error while" in line
