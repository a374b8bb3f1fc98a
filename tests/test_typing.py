"""Static typing as a user meets it: mypy over a typed user's script and the examples reports
nothing, and it does see the Tensor methods (a misspelt one and a wrong argument are caught)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["tests/fixtures/typed_user.py", "examples"]
MISTAKES = """\
from generated import Device, Tensor

x = Tensor.ones([2, 2], device=Device.numpy())
y: Tensor = x.relu().exp()
x.reluu()
x.sum_dim("1")
"""


def test_mypy_finds_no_error_in_user_code_and_sees_every_tensor_method(tmp_path):
    pytest.importorskip("mypy")  # the `dev` extra
    mistakes = tmp_path / "mistakes.py"
    mistakes.write_text(MISTAKES)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *CHECKED, mistakes],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert [e.split(": error:")[0] for e in errors] == [
        f"{mistakes}:5",
        f"{mistakes}:6",
    ], run.stdout
    assert '"Tensor" has no attribute "reluu"' in errors[0]
    assert 'Argument 1 to "sum_dim" of "Tensor" has incompatible type "str"' in errors[1]
