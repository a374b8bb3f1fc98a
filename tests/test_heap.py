"""glibc's malloc keeps a step's freed buffers once told so (runtime/backends/heap.py, as the
NumPy backend loads), unless the environment configures malloc itself: counted by the kernel's
page faults, in a fresh process each."""

import ctypes
import os
import subprocess
import sys

import pytest

ROUNDS, HELD = 10, 32
PAGES = 256  # a 1 MiB buffer's 4 KiB pages

# a step's temporaries: 32 buffers of 1 MiB alive together, then freed together; glibc's
# default trims their memory off the heap's top, and the next round faults it all in again
PROGRAM = f"""
import resource, sys
import numpy as np
told = None
if sys.argv[1] == "told":
    from burnpy.runtime.backends import heap
    told = heap.keep_freed_memory()
def rounds():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range({ROUNDS}):
        held = [np.ones(1 << 18, np.float32) for _ in range({HELD})]
        del held
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
rounds()
print(told, rounds())
"""

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(ctypes.CDLL(None), "gnu_get_libc_version"),
    reason="glibc's malloc only: other C libraries keep their own rules",
)


def run(mode, **environment) -> tuple[str, int]:
    """(whether heap told glibc, page faults over the rounds after a first)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env.pop("GLIBC_TUNABLES", None)
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    told, faults = done.stdout.split()[-2:]
    return told, int(faults)


def test_glibc_by_default_faults_a_steps_buffers_in_again_every_round():
    assert run("plain")[1] > ROUNDS * HELD * PAGES // 2


def test_told_glibc_keeps_the_freed_buffers_for_the_next_round():
    told, faults = run("told")
    assert told == "True" and faults < ROUNDS * HELD * PAGES // 50


def test_a_malloc_variable_in_the_environment_leaves_glibc_as_it_configures():
    told, faults = run("told", MALLOC_TRIM_THRESHOLD_="131072")
    assert told == "False" and faults > ROUNDS * HELD * PAGES // 2


def test_the_numpy_backend_tells_glibc_as_it_loads():
    code = (
        "import sys; import burnpy.runtime.backends.heap as heap; calls = []\n"
        "heap.keep_freed_memory = lambda: calls.append(1)\n"
        "import burnpy.runtime.backends.numpy; print(len(calls))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split()[-1] == "1", done.stderr
