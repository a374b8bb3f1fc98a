"""Static typing as a user meets it: mypy over a typed user's script and the examples reports
nothing, and it does see the Tensor methods (a misspelt one and a wrong argument are caught);
and as a maintainer does: the Autodiff specialization's attributes (`AD.float_mul`) have their
op's signature, not Any."""

import importlib.util
import sys
from pathlib import Path

import pytest

import background

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["tests/fixtures/typed_user.py", "examples"]
MISTAKES = """\
from burnpy.generated import Device, Tensor
from burnpy.generated.autodiff import Autodiff

x = Tensor.ones([2, 2], device=Device.numpy())
y: Tensor = x.relu().exp()
x.reluu()
x.sum_dim("1")


def backward_of_a_dispatch(AD: Autodiff) -> None:
    AD.float_mul(AD.float_zeros([2], None, None), 2.0)
"""


OWN_MISTAKES = """\
from burnpy.generated import Device, Tensor
from myops import linear_gelu, logaddexp

x = Tensor.ones([2, 2], device=Device.numpy())
y: Tensor = logaddexp(linear_gelu(x, x, x), x)
logaddexp(x, 2.0)
"""


MYPY_LIMIT_S = 300
# The two checks, one after the other in one process, sharing a cache: the second reads
# burnpy's and numpy's stubs as the first left them. The cache starts as a copy of the one
# `make install` leaves beside the packages (see the Makefile), where there is one: mypy checks
# again each module whose file changed since. Each check's report goes to a file of its own.
MYPY_BOTH = """
import os, shutil, sys
from pathlib import Path
from mypy import api
folder, examples = Path(sys.argv[1]), sys.argv[2]
cache = str(folder / "cache")
if (Path(sys.prefix) / "mypy-cache").is_dir():
    shutil.copytree(Path(sys.prefix) / "mypy-cache", cache)
user = ["--exclude", "examples/myops/", *sys.argv[3:], str(folder / "mistakes.py")]
out, err, _ = api.run(["--cache-dir", cache, *user])
(folder / "user.log").write_text(out + err)
# examples/myops is a package of its own (`myops`): checked with its folder's parent as a root,
# as a user's project would be
os.environ["MYPYPATH"] = examples
out, err, _ = api.run(["--cache-dir", cache, "examples/myops", str(folder / "own_mistakes.py")])
(folder / "own.log").write_text(out + err)
"""
_STARTED = {}


def start_in_background(config, names):
    """mypy, started with the session (tests/background.py), if its test is selected."""
    if importlib.util.find_spec("mypy") is None:  # the `dev` extra: the test skips
        return

    def mypy(folder):
        (folder / "mistakes.py").write_text(MISTAKES)
        (folder / "own_mistakes.py").write_text(OWN_MISTAKES)
        return [[sys.executable, "-c", MYPY_BOTH, str(folder), str(ROOT / "examples"), *CHECKED]]

    _STARTED["mypy"] = background.start(config, mypy, MYPY_LIMIT_S, cwd=ROOT)


def mypy_report(name: str) -> tuple:
    """(the job's folder, the report of check `name`: "user" or "own")."""
    job = _STARTED["mypy"]
    assert job.wait() == [0], job.output(0)
    return job.folder, (job.folder / f"{name}.log").read_text()


def test_mypy_finds_no_error_in_user_code_and_sees_every_tensor_method():
    pytest.importorskip("mypy")  # the `dev` extra
    folder, out = mypy_report("user")
    errors = [line for line in out.splitlines() if ": error:" in line]
    mistakes = folder / "mistakes.py"
    lines = [f"{mistakes}:{line}" for line in (6, 7, 11)]
    assert [e.split(": error:")[0] for e in errors] == lines, out
    assert '"Tensor" has no attribute "reluu"' in errors[0]
    assert 'Argument 1 to "sum_dim" of "Tensor" has incompatible type "str"' in errors[1]
    assert 'Argument 2 has incompatible type "float"; expected "AutodiffTensor"' in errors[2]


def test_mypy_types_a_packages_own_ops():
    """examples/myops's generated functions are typed: mypy finds nothing in the package and
    catches a number passed for a tensor."""
    pytest.importorskip("mypy")  # the `dev` extra
    folder, out = mypy_report("own")
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert [e.split(": error:")[0] for e in errors] == [f"{folder / 'own_mistakes.py'}:6"], out
    assert 'Argument 2 to "logaddexp" has incompatible type "float"; expected "Tensor"' in out
