"""An install claims one name: `burnpy`, with the generated package, the runtime and the
generator inside it, and folders named like them in the user's working directory change nothing
(tests/install_check.py does the building and installing, in the background queue)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import background

ROOT = Path(__file__).resolve().parent.parent
_STARTED = {}


def start_in_background(config, names):
    def install(folder):
        return [[sys.executable, str(ROOT / "tests" / "install_check.py"), str(folder)]]

    _STARTED["install"] = background.start(config, install, 120, cwd=ROOT)


def _seen() -> dict:
    job = _STARTED["install"]
    assert job.wait() == [0], job.output(0)
    return json.loads(job.output(0).splitlines()[-1])


def test_a_wheel_puts_burnpy_and_nothing_else_in_site_packages():
    assert _seen()["site"] == ["bin", "burnpy", "burnpy-0.1.0.dist-info"]


def test_folders_named_like_burnpys_parts_in_the_working_directory_change_nothing():
    seen = _seen()
    for install in ("wheel", "editable"):
        assert seen[install]["tops"] == [], install  # no top-level generated/runtime/codegen loaded
        assert seen[install]["generated"].endswith(
            os.path.join("burnpy", "generated", "__init__.py")
        )
    assert seen["wheel"]["file"].startswith(str(Path(_STARTED["install"].folder)))
    assert seen["editable"]["file"] == str(ROOT / "burnpy" / "__init__.py")


def test_the_generator_runs_from_a_wheel():
    assert _seen()["codegen"].startswith("usage: burnpy-codegen")


def test_the_old_top_level_names_say_the_new_spelling():
    for old, new in (("generated", "burnpy.generated"), ("runtime", "burnpy.runtime")):
        done = subprocess.run(
            [sys.executable, "-c", f"import {old}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert done.returncode == 1
        assert (
            f"ImportError: import the {'generated package' if old == 'generated' else 'runtime'} as {new}"
            in done.stderr
        )


def test_a_package_generates_its_own_ops_and_calls_them_from_a_wheel():
    """examples/myops without its generated folder: `python -m burnpy.codegen --package`
    writes it, the `burnpy-codegen` script finds it current, and its op differentiates."""
    assert _seen()["package"] == "2.0"
