"""The README's snippets run, each as a reader would paste it into a fresh interpreter; its copy
of `python -m codegen stats` is current; and the texts for users speak of the library, not of how
it was built."""

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

import background
from fresh import Job, results, start_fresh

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)
# the libraries the snippets import, imported once for all of them (see fresh.py)
WARM = [
    "numpy",
    "scipy.special",
    "scipy.linalg",
    "ml_dtypes",
    "sklearn.datasets",
    "torch",
    "burnpy.generated",
]


def _runs(code: str) -> bool:
    return not code.startswith("def ")  # a listing of generated code, not a program


_STARTED = {}


def start_in_background(config, names):
    """Every snippet, run in a child of one interpreter queued with the session."""
    if background.tests_taking(globals(), "ran") & {*names}:
        folder = Path(tempfile.mkdtemp(prefix="snippets-"))
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
        jobs = [
            Job(f"snippet{i}", str(folder / f"snippet{i}"), code=code)
            for i, code in enumerate(SNIPPETS)
            if _runs(code)
        ]
        for job in jobs:
            os.mkdir(job.cwd)
        _STARTED["snippets"] = (start_fresh(config, jobs, warm=WARM), jobs)


@pytest.fixture(scope="module")
def ran() -> dict:
    """Every snippet run once, each in a fresh process of its own and its own directory:
    {code: (its result, its directory)}."""
    started, jobs = _STARTED["snippets"]
    done = results(started)
    return {job.code: (done[job.name], Path(job.cwd)) for job in jobs}


def run(ran: dict, code: str) -> str:
    """What the snippet printed; it must have run without an error."""
    done = ran[code][0]
    assert done.returncode == 0, f"README snippet failed:\n{code}\n{done.stderr}"
    return done.stdout


def snippet(heading: str) -> str:
    """The first Python snippet after `heading`."""
    return re.search(r"```python\n(.*?)```", README[README.index(heading) :], re.S).group(1)


def test_the_catalogue_section_has_its_markers():
    """`make generate` fills the block between them (`python -m codegen --check`, in
    tests/test_codegen.py, finds it stale); without them it would fill nothing."""
    assert re.search(r"<!-- stats: begin -->\n```\n.*?```\n<!-- stats: end -->", README, re.S)


@pytest.mark.parametrize("code", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_every_python_snippet_runs(code, ran):
    if not _runs(code):  # a listing of generated code: the generator's very lines
        generated = (ROOT / "generated" / "dispatch" / "float_ops.py").read_text()
        assert code in generated
        return
    out = run(ran, code)
    if "print(w.grad(grads).to_numpy())" in code:
        assert out.startswith("[[3. 3.]\n [3. 3.]]\nTrue True True Disabled")


def test_the_usage_snippet_says_what_it_prints():
    assert "print(w.grad(grads).to_numpy())            # [[3. 3.] [3. 3.]]" in README


def test_the_quick_start_trains_a_classifier(ran):
    out = run(ran, snippet("## Quick start"))
    accuracy = float(re.fullmatch(r"test accuracy: (\d+\.\d\d)%\n", out).group(1))
    assert accuracy >= 95.0
    # seeded: the figure its comment states (a BLAS of another machine may sum in another order)
    stated = re.search(r"  # (\d+\.\d\d)%, every run", snippet("## Quick start")).group(1)
    assert abs(accuracy - float(stated)) <= 0.6


def test_the_model_definition_prints_what_its_comments_say(ran):
    code = snippet("## Models and training")
    out = run(ran, code).splitlines()
    # Each print's comment gives its output (or its start, before "...").
    expected = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 3
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix("...]").removesuffix(", ")), (line, comment)
    assert (ran[code][1] / "digits_cnn.safetensors").exists()


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


def test_the_layers_snippet_prints_what_its_comments_say(ran):
    code = snippet("The layers are burn-nn's")
    out = run(ran, code).splitlines()
    expected = re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M)
    assert out == expected


def test_the_module_ops_snippet_prints_what_its_comments_say(ran):
    code = snippet("## Module ops")
    out = run(ran, code).splitlines()
    expected = re.findall(r"^print\(.*\)\s+# (.*)$", code, re.M)
    assert out == expected


def test_the_sequence_models_snippet_prints_what_its_comments_say(ran):
    code = snippet("### Sequence models")
    out = run(ran, code).splitlines()
    expected = re.findall(r"^print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 3
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix("...]").removesuffix(", ")), (line, comment)


def test_the_coming_from_pytorch_snippet_prints_what_its_comments_say(ran):
    code = snippet("### Coming from PyTorch")
    out = run(ran, code).splitlines()
    expected = re.findall(r"^\s*print\(.*\)  # (.*)$", code, re.M)
    assert len(out) == len(expected) == 5
    for line, comment in zip(out, expected):
        assert line.startswith(comment.removesuffix(" ...").removesuffix(" (torch's)")), line


def test_the_bad_file_snippet_prints_what_its_comment_says(ran):
    code = snippet("Every file the project writes")
    (line,) = run(ran, code).splitlines()
    (comment,) = re.findall(r"^\s*print\(.*\)  # (.*)$", code, re.M)
    assert line.startswith(comment.removesuffix(" ...")) and "(Error while" in line
