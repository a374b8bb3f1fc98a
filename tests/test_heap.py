"""glibc's malloc keeps a step's freed buffers once told so (runtime/backends/heap.py, as the
NumPy backend loads), unless the environment configures malloc itself. Read from glibc itself
(`mallinfo2`: the heap it still holds once the buffers are freed) and from the kernel (the page
faults of the rounds after a first), in a fresh process each."""

import ctypes
import os
import subprocess
import sys

import pytest

ROUNDS, HELD = 10, 32
MIB = 1 << 20

# a step's temporaries: 32 buffers of 1 MiB alive together, then freed together
PROGRAM = f"""
import ctypes, resource, sys
import numpy as np
from burnpy.runtime.backends import heap

class Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Mallinfo2
told = heap.keep_freed_memory() if sys.argv[1] == "told" else None
def rounds():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range({ROUNDS}):
        held = [np.ones(1 << 18, np.float32) for _ in range({HELD})]
        del held
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
rounds()
print(told, rounds(), libc.mallinfo2().fordblks)
"""

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="glibc's malloc only (2.33 on): other C libraries keep their own rules",
)


def run(mode, **environment) -> tuple[str, int, int]:
    """(whether heap told glibc, page faults over the rounds after a first, free bytes glibc
    still holds after them)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env.pop("GLIBC_TUNABLES", None)
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    told, faults, kept = done.stdout.split()[-3:]
    return told, int(faults), int(kept)


def test_glibc_by_default_hands_the_freed_buffers_back():
    assert run("plain")[2] < HELD * MIB // 2


def test_told_glibc_keeps_the_freed_buffers_and_takes_no_page_again():
    told, faults, kept = run("told")
    assert told == "True" and kept >= HELD * MIB and faults < ROUNDS * HELD


def test_a_malloc_variable_in_the_environment_leaves_glibc_as_it_configures():
    # glibc's own default threshold, set by the user: every buffer mapped and unmapped again
    told, faults, kept = run("told", MALLOC_TRIM_THRESHOLD_="131072")
    assert told == "False" and kept < HELD * MIB // 2 and faults > ROUNDS * HELD * 128


def test_the_numpy_backend_tells_glibc_as_it_loads():
    code = (
        "import burnpy.runtime.backends.heap as heap; calls = []\n"
        "heap.keep_freed_memory = lambda: calls.append(1)\n"
        "import burnpy.runtime.backends.numpy; print(len(calls))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split()[-1] == "1", done.stderr
