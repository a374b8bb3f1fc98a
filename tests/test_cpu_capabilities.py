"""The Torch backend's special values on every CPU capability torch offers here: torch picks
its vectorised kernels (default, AVX2, AVX-512) from the CPU, and they differ at ±inf, NaN and
near the dtype's limits, so each level runs tests/special_values_worker.py in a process of its
own, with ATEN_CPU_CAPABILITY set (tests/background.py starts them with the session)."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

import background

WORKER = Path(__file__).with_name("special_values_worker.py")
ROOT = WORKER.parent.parent
LEVELS = ("default", "avx2", "avx512")  # torch's x86 levels, lowest first
LIMIT_S = 120
# the CPU flags each level's kernels use: torch asked for a level the CPU lacks dies of SIGILL
# rather than falling back, so a level is run only where /proc/cpuinfo lists its flags
FLAGS = {"avx2": {"avx2", "fma"}, "avx512": {"avx512f", "avx512bw", "avx512vl", "avx512dq"}}

_STARTED = {}


def missing_flags(level: str) -> set:
    """The flags `level` needs that this CPU lacks (none where the CPU cannot be read)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return FLAGS.get(level, set()) - set(line.partition(":")[2].split())
    return set()


def start_in_background(config, names):
    test = "test_activations_give_burns_special_values_at_each_cpu_capability"
    if test in names and importlib.util.find_spec("torch"):
        for level in LEVELS:
            if missing_flags(level):
                continue
            env = {**os.environ, "ATEN_CPU_CAPABILITY": level, "OMP_NUM_THREADS": "1"}
            command = [sys.executable, str(WORKER)]
            _STARTED[level] = background.start(
                config, lambda _: [command], LIMIT_S, env=env, cwd=ROOT
            )


@pytest.mark.parametrize("level", LEVELS)
def test_activations_give_burns_special_values_at_each_cpu_capability(level):
    """Each activation, forward and gradient, at ±inf, NaN and values near the limits, in
    tensors of more than one element, equals the NumPy backend's (burn's values)."""
    pytest.importorskip("torch")
    if missing := missing_flags(level):
        pytest.skip(f"this CPU lacks {', '.join(sorted(missing))}: torch has no {level} here")
    job = _STARTED[level]
    assert job.wait() == [0], job.output(0)
    lines = job.output(0).splitlines()
    ran_at = lines[0].removeprefix("capability ")
    if ran_at in LEVELS and LEVELS.index(ran_at) < LEVELS.index(level):
        pytest.skip(f"this CPU offers torch {ran_at} at most, not {level}")
    assert ran_at == level, lines[0]
    disagreements = [line for line in lines[1:] if line.startswith("disagrees ")]
    assert not disagreements, "\n".join(disagreements)
