"""The README's snippets run, its copy of `python -m codegen stats` is current, and the texts
for users speak of the library, not of how it was built."""

import contextlib
import io
import re
from pathlib import Path

import pytest

from codegen.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_catalogue_section_is_current(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    assert main(["stats"]) == 0
    shown = re.search(r"<!-- stats: begin -->\n```\n(.*?)```\n<!-- stats: end -->", README, re.S)
    assert shown is not None, "the README lost its stats markers"
    assert shown.group(1) == capsys.readouterr().out, "README: paste `python -m codegen stats`"


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.splitlines()[0] for s in SNIPPETS])
def test_every_python_snippet_runs(snippet):
    if snippet.startswith("def "):
        # a listing of generated code: the generator's very lines, up to the elided arm
        shown = snippet.split("        ...")[0].split('    if lhs.kind.variant == "Torch"')[0]
        generated = (ROOT / "generated" / "dispatch" / "float_ops.py").read_text()
        assert shown in generated
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "README.md", "exec"), {})  # noqa: S102 - our own README
    if "print(w.grad(grads).to_numpy())" in snippet:
        assert out.getvalue().startswith("[[3. 3.]\n [3. 3.]]\nTrue True True Disabled")


def test_the_usage_snippet_says_what_it_prints():
    assert "print(w.grad(grads).to_numpy())            # [[3. 3.] [3. 3.]]" in README


@pytest.mark.parametrize("path", ["README.md", "docs/coverage.md", "examples/demo.py"])
def test_no_development_history(path):
    text = (ROOT / path).read_text()
    for pattern in (r"\bissue #?\d", r"\bthe seed\b", r"\bseed's\b", r"\bpuzzle\b", r"=true\b"):
        assert not re.search(pattern, text, re.I), (path, pattern)
    assert "Some(" not in text
