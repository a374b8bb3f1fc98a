"""Interleaved timing: every column of a row is timed in turn within each repeat.

This machine changes speed between runs (and sometimes within one), so a column's absolute time
means little on its own; its time divided by raw numpy's time *in the same repeat* holds steady.
Each repeat times every column once (a timeit loop of N calls, N calibrated per column so a
loop lasts about `min_time`), alternating the order between repeats so that no column always
runs right after another; the report is the median over the repeats, of the times and of the
per-repeat ratios to the reference column.

A process that holds two thread pools (the PyTorch worker: numpy's OpenBLAS and torch's OpenMP)
passes `settle`: OpenBLAS's idle threads keep spinning (sched_yield) for 2^28 cycles, about
0.1 s, after a multi-threaded BLAS call, and over a 2-core machine that halves the next
column's speed. Sleeping `settle` seconds after the columns that wake them lets them park.

The cyclic garbage collector stays on (timeit turns it off by default): collecting the objects a
graph leaves behind is part of what a library costs its user.
"""

import gc
import os
import statistics
import time
import timeit
from dataclasses import dataclass

REPEATS = 21
MIN_TIME = 0.01  # seconds per timed loop
EVERY = object()  # settle's column: every column


@dataclass(frozen=True)
class Column:
    """A statement to time and the names it uses."""

    stmt: str
    namespace: dict


@dataclass(frozen=True)
class Row:
    seconds: dict  # column -> median seconds per call
    ratios: dict  # column -> median over repeats of (its time / the reference column's time)

    def to_json(self) -> dict:
        return {"seconds": self.seconds, "ratios": self.ratios}

    @classmethod
    def from_json(cls, data: dict) -> "Row":
        return cls(data["seconds"], data["ratios"])


def _timer(column: Column) -> timeit.Timer:
    return timeit.Timer(column.stmt, setup="gc.enable()", globals={**column.namespace, "gc": gc})


def _calls_per_loop(timer: timeit.Timer, min_time: float) -> int:
    """timeit's autorange with a chosen duration (its own is fixed at 0.2 s)."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= min_time:
            return number
        number = max(number * 2, int(number * min_time / max(elapsed, 1e-9) * 1.2))


def measure(
    columns: dict,
    reference: str,
    repeats: int = REPEATS,
    min_time: float = MIN_TIME,
    settle: tuple[str, float] | None = None,
) -> Row:
    """Time every column `repeats` times, interleaved; ratios are to `reference`'s time.
    `settle=(column, seconds)`: sleep that long after each of that column's loops (after every
    column's with `EVERY`)."""
    timers = {name: _timer(column) for name, column in columns.items()}
    numbers = {name: _calls_per_loop(timer, min_time) for name, timer in timers.items()}
    gc.collect()
    samples = {name: [] for name in timers}
    order = list(timers)
    for repeat in range(repeats):
        for name in order if repeat % 2 == 0 else reversed(order):
            samples[name].append(timers[name].timeit(numbers[name]) / numbers[name])
            if settle and settle[0] in (name, EVERY):
                time.sleep(settle[1])
    reference_samples = samples[reference]
    return Row(
        seconds={name: statistics.median(s) for name, s in samples.items()},
        ratios={
            name: statistics.median(t / r for t, r in zip(s, reference_samples))
            for name, s in samples.items()
        },
    )


class OtherLoad:
    """How much CPU other processes used while we ran (Linux only): the figures mean little if
    another job shared this machine's cores during the run."""

    def __init__(self):
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float] | None:
        """(seconds every CPU spent busy, seconds this process and its children used)."""
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = [int(v) for v in f.readline().split()[1:]]
        except OSError:
            return None
        busy = sum(fields[:8]) - fields[3] - fields[4]  # all time but idle and iowait
        ours = sum(
            getattr(os.times(), name)
            for name in ("user", "system", "children_user", "children_system")
        )
        return busy / os.sysconf("SC_CLK_TCK"), ours

    def share(self, wall: float) -> float | None:
        """The fraction of all CPUs' time over `wall` seconds that other processes used."""
        end = self._sample()
        if self.start is None or end is None or wall <= 0:
            return None
        others = (end[0] - self.start[0]) - (end[1] - self.start[1])
        return max(0.0, others / (wall * (os.cpu_count() or 1)))
