"""The gradients of a tensor's slices, summed, as one buffer each slice is written into.

A tensor split into slices (a fused qkv projection split into q, k and v) gets, in the backward
pass, one gradient per slice: each is zeros of the whole shape with the slice's gradient
assigned into a copy of them (`float_slice_assign`, burn's slice backward), and the step then
adds them up. When the slices do not overlap, that sum is the one array of zeros with each
slice's gradient written into its own region:

    add_6 = float_zeros((8, 128, 384), "Cpu", float32_const)  # the slices' gradients, summed
    add_6[(slice(0, 8, 1), slice(0, 128, 1), slice(256, 384, 1))] = reshape_15
    ...

one fill and one copy of each slice, where the recorded calls make a fill, a copy of the zeros
and a copy of the slice per slice, and an addition per slice but one. The values are the same
(a sum with exact zeros), but for the sign of a zero: -0.0 written where the sum gives 0.0.

A slice's gradient outside such a sum is written the same way into its own zeros, where they
are made: a fill and a copy of the slice, not a copy of the zeros.
"""

import math
from dataclasses import dataclass

from burnpy.capture.named import Recorded
from burnpy.capture.planning import Flow, values_in
from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.generated import catalogue as ops

SLICE_ASSIGN, ZEROS = Recorded(ops.FLOAT_SLICE_ASSIGN), Recorded(ops.FLOAT_ZEROS)
NAMED = (SLICE_ASSIGN, ZEROS)  # (burnpy.capture.named.check)
SUMMED = "the slices' gradients, summed into one buffer"


@dataclass(frozen=True)
class _Piece:
    """A slice's gradient: the indices of its zeros call and of the slice_assign into them, and
    the slice's box (Python slices)."""

    zeros_at: int
    assign_at: int
    box: tuple


@dataclass(frozen=True)
class _Sum:
    """A sum of slice gradients: its result, its pieces, and the indices of its `+` and `+=`
    entries (the buffer written slice by slice stands for them)."""

    total: Value
    pieces: list
    adds: list


def rewrite(calls: list, flow: Flow, kept: set) -> list:
    """`calls` (a recording's kernel and operator entries) with each sum of slice gradients
    written as one buffer, and each other slice's gradient into its own zeros; the others as
    they are. `flow`: the calls' planning.Flow, `kept`: the values the step returns."""
    replaced: dict = {}  # index -> the entries that stand for it ([] drops it)
    for index in range(len(calls)):
        found = _sum_at(calls, index, flow, kept)
        if found is not None and not any(_taken(p, replaced) for p in found.pieces):
            replaced.update(_summed(calls, found))
    for index in range(len(calls)):
        found = None if index in replaced else _alone(calls, index, flow, kept)
        if found is not None and found.zeros_at not in replaced:
            replaced.update(_written_alone(calls, index, found))
    if not replaced:
        return calls
    return [new for index, entry in enumerate(calls) for new in replaced.get(index, [entry])]


# -- finding them ------------------------------------------------------------------------------


def _sum_at(calls: list, index: int, flow: Flow, kept: set) -> _Sum | None:
    """The sum of slice gradients that entry `index` starts (`a + b`, then any `+=`), when it
    has two pieces or more that fit one buffer (`_fits`); else None."""
    entry = calls[index]
    if entry.kind is not EntryKind.OP or entry.target != "+" or type(entry.out) is not Value:
        return None
    pieces = [_piece(calls, value, flow, kept) for value in entry.args]
    if None in pieces:
        return None
    more, adds = _added_later(calls, index, entry.out, flow, kept)
    found = _Sum(entry.out, pieces + more, [index, *adds])
    return found if len(found.pieces) >= 2 and _fits(calls, found) else None


def _added_later(calls: list, index: int, total: Value, flow: Flow, kept: set) -> tuple:
    """(pieces, their entries' indices) of the `total += slice gradient` entries after entry
    `index`, up to the first other read of `total`: there the sum is complete."""
    pieces, positions = [], []
    for position in range(index + 1, len(calls)):
        other = calls[position]
        if not any(v is total for v in values_in((other.args, other.kwargs), [])):
            continue
        added = other.kind is EntryKind.INPLACE and other.target == "+=" and other.args[0] is total
        piece = _piece(calls, other.args[1], flow, kept) if added else None
        if piece is None:
            break
        pieces.append(piece)
        positions.append(position)
    return pieces, positions


def _alone(calls: list, index: int, flow: Flow, kept: set) -> _Piece | None:
    """Entry `index` as a slice's gradient, whoever reads it; else None."""
    entry = calls[index]
    return _piece(calls, entry.out, flow, kept, once=False) if _is(entry, SLICE_ASSIGN) else None


def _piece(calls: list, value, flow: Flow, kept: set, once=True) -> _Piece | None:
    """`value` as a slice's gradient: a slice_assign of forward slices into zeros that nothing
    else reads (`once`: and `value` read by one call alone, not returned); else None."""
    if type(value) is not Value or value.name not in flow.maker:
        return None
    if once and not flow.read_once(value, kept):
        return None
    assign_at = flow.maker[value.name]
    assign = calls[assign_at]
    if not _is(assign, SLICE_ASSIGN) or assign.kwargs or len(assign.args) != 3:
        return None
    zeros, slices, _ = assign.args
    box = _box(slices)
    if box is None or type(zeros) is not Value or not flow.read_once(zeros, kept):
        return None
    zeros_at = flow.maker.get(zeros.name)
    if zeros_at is None or not _is(calls[zeros_at], ZEROS):
        return None
    return _Piece(zeros_at, assign_at, box)


def _is(entry: Entry, kernel: Recorded) -> bool:
    """Whether `entry` is a call of `kernel`."""
    return entry.kind is EntryKind.CALL and entry.target == kernel.name


def _box(slices):
    """The slices (start, end, step) of a slice_assign as Python slices, or None unless each
    is a forward range of step 1."""
    if type(slices) is not tuple:
        return None
    box = []
    for item in slices:
        if type(item) is not tuple or len(item) != 3 or any(type(n) is not int for n in item):
            return None
        start, end, step = item
        if step != 1 or not 0 <= start <= end:
            return None
        box.append(slice(start, end, 1))
    return tuple(box)


# -- checking them -----------------------------------------------------------------------------


def _fits(calls: list, found: _Sum) -> bool:
    """Whether the pieces can be written into one buffer: each a gradient of the total's
    (non-empty) shape, no two of their slices sharing an element."""
    shape = tuple(found.total.data.shape)
    if any(tuple(calls[p.assign_at].out.data.shape) != shape for p in found.pieces):
        return False
    boxes = [p.box for p in found.pieces]
    if len(shape) != len(boxes[0]) or math.prod(shape) == 0:
        return False
    return all(_disjoint(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def _disjoint(a, b) -> bool:
    """Whether two boxes of slices (of one shape) share no element."""
    return any(x.stop <= y.start or y.stop <= x.start for x, y in zip(a, b))


def _taken(piece: _Piece, replaced: dict) -> bool:
    """Whether a piece's calls are already rewritten (as part of an earlier sum)."""
    return piece.zeros_at in replaced or piece.assign_at in replaced


# -- writing them ------------------------------------------------------------------------------


def _summed(calls: list, found: _Sum) -> dict:
    """index -> the entries standing for it, for a sum's calls: its first zeros made as the
    total, each slice's gradient written into it; its other zeros, `+` and `+=` dropped."""
    first = min(p.zeros_at for p in found.pieces)  # (before every slice's assignment)
    replaced: dict = {i: [] for i in found.adds}
    for piece in found.pieces:
        assign = calls[piece.assign_at]
        replaced[piece.zeros_at] = []
        replaced[piece.assign_at] = [_written(found.total, piece.box, assign, assign.label)]
    replaced[first] = [_filled(calls[first], found.total, SUMMED)]
    return replaced


def _written_alone(calls: list, index: int, piece: _Piece) -> dict:
    """index -> the entries standing for it, for the slice's gradient of entry `index` alone:
    its zeros made as its result, the slice written into them."""
    assign = calls[index]
    return {
        piece.zeros_at: [_filled(calls[piece.zeros_at], assign.out, assign.label)],
        index: [_written(assign.out, piece.box, assign, None)],
    }


def _filled(zeros: Entry, out: Value, label) -> Entry:
    """The zeros call `zeros`, its result named `out`."""
    return Entry(
        EntryKind.CALL,
        zeros.target,
        zeros.args,
        zeros.kwargs,
        out,
        label,
        zeros.phase,
        zeros.backend,
    )


def _written(out: Value, box: tuple, assign: Entry, label) -> Entry:
    """`out[box] = ` the slice's gradient that slice_assign `assign` writes."""
    value = assign.args[2]
    return Entry(EntryKind.INPLACE, "[]=", (out, box, value), {}, None, label, assign.phase)
