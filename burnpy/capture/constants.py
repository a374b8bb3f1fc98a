"""The calls whose results are the same at every replay, computed once: their recorded arrays.

An imported model computes much from its constants: index arithmetic on its int buffers, a
causal mask from a Range, shapes gathered from a Shape. The recorder tracks what each value
depends on (`Value.roots`): the empty set for shapes and constants alone, the module's int and
bool buffers it was computed from otherwise, or VARIES. A value that does not vary holds at
every replay the array it held when recorded, as long as those buffers hold the same values:
its call is dropped from the compiled function, the value becomes a global of it bound to
that array, and a replay checks the buffers' values before any kernel runs (recording again
if they changed), as it checks a buffer a shape was read from:

    reshape_7 = int_reshape(from_data_3, (1, 64))   # no longer a line of the function

A buffer is checked by comparing its bytes: one over GUARDED_BYTES is not worth checking at
every replay, and what is computed from it stays in the function.

The arrays must be the ones each call made, unchanged since: a value some call writes into (in
place, through `out=`, or an update), or one sharing memory with such a value, is not folded,
nor is a value the step returns (each replay returns arrays of its own), nor one of another
backend than NumPy (whose arrays this pass can tell apart by memory).
"""

import numpy as np

from burnpy.capture.planning import values_in
from burnpy.capture.recorder import VARIES, WRITES_FIRST, EntryKind, Value

# the tape entries that compute without writing into their arguments
_PURE = (EntryKind.CALL, EntryKind.OP, EntryKind.FUNCTION)
GUARDED_BYTES = 4096  # the largest buffer a replay checks for the sake of constants


def fold(calls: list, guarded: set, kept: set) -> tuple[list, list, list]:
    """(`calls` without those whose results are constants of the recording, those results:
    the Values to bind as globals, the buffers a replay must now check); `guarded`: the names
    of the buffers a replay checks already, `kept`: the names of what the step returns."""
    written = _written(calls)
    if any(type(w.data) is not np.ndarray for w in written):  # (memory this pass cannot compare)
        return calls, [], []
    remaining, folded, checked = [], [], {}
    for entry in calls:
        results = values_in(entry.out, [])
        if (
            entry.kind in _PURE
            and not _writes(entry)
            and results
            and all(_constant(v, guarded, kept, written) for v in results)
        ):
            folded += results
            for value in results:
                checked.update((r.name, r) for r in value.roots if r.name not in guarded)
        else:
            remaining.append(entry)
    return remaining, folded, list(checked.values())


def _constant(value: Value, guarded: set, kept: set, written: list) -> bool:
    return (
        value.roots is not VARIES
        and all(r.name in guarded or r.data.nbytes <= GUARDED_BYTES for r in value.roots)
        and value.name not in kept
        and type(value.data) is np.ndarray
        and not any(np.may_share_memory(value.data, w.data) for w in written)
    )


def _writes(entry) -> bool:
    """Whether the entry writes into an array it is given."""
    if entry.kind is EntryKind.CALL:
        return entry.target in WRITES_FIRST or bool(entry.kwargs.get("in_place"))
    return entry.kind is EntryKind.FUNCTION and "out" in entry.kwargs


def _written(calls: list) -> list:
    """The Values some entry writes into."""
    found: list = []
    for entry in calls:
        if entry.kind is EntryKind.INPLACE:
            found.append(entry.args[0])
        elif _writes(entry):
            if entry.kind is EntryKind.FUNCTION:
                values_in(entry.kwargs["out"], found)
            elif entry.target in WRITES_FIRST:
                found.append(entry.args[0])
            else:  # an optimiser's update: its state
                values_in((entry.args, entry.kwargs), found)
    return [v for v in found if type(v) is Value]
