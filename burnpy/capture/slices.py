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
"""

import math

from burnpy.capture.named import Recorded
from burnpy.capture.planning import Flow, values_in
from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.generated import catalogue as ops

SLICE_ASSIGN, ZEROS = Recorded(ops.FLOAT_SLICE_ASSIGN), Recorded(ops.FLOAT_ZEROS)
NAMED = (SLICE_ASSIGN, ZEROS)  # (burnpy.capture.named.check)


def _index(slices):
    """The slices (start, end, step) of a slice_assign as Python slices, or None unless each
    is a forward range of step 1."""
    if type(slices) is not tuple:
        return None
    index = []
    for item in slices:
        if type(item) is not tuple or len(item) != 3 or any(type(n) is not int for n in item):
            return None
        start, end, step = item
        if step != 1 or not 0 <= start <= end:
            return None
        index.append(slice(start, end, 1))
    return tuple(index)


def _disjoint(a, b) -> bool:
    """Whether two boxes of slices (of one shape) share no element."""
    return any(x.stop <= y.start or y.stop <= x.start for x, y in zip(a, b))


def rewrite(calls: list, flow: Flow, kept: set) -> list:
    """`calls` (a recording's kernel and operator entries) with each sum of slice gradients
    written as one buffer; the others as they are."""
    made, readers = flow.maker, flow.readers

    def piece(value, once=True):
        """(zeros call, slice_assign call, index) when `value` is a slice's gradient (`once`:
        read by one call and not returned)."""
        if type(value) is not Value or value.name not in made:
            return None
        if once and (value.name in kept or readers.get(value.name) != 1):
            return None
        assign = calls[made[value.name]]
        if assign.kind is not EntryKind.CALL or assign.target != SLICE_ASSIGN.name:
            return None
        if assign.kwargs or len(assign.args) != 3:
            return None
        zeros, slices, _ = assign.args
        box = _index(slices)
        if box is None or type(zeros) is not Value or readers.get(zeros.name) != 1:
            return None
        if zeros.name in kept or zeros.name not in made:
            return None
        first = calls[made[zeros.name]]
        if first.kind is not EntryKind.CALL or first.target != ZEROS.name:
            return None
        return made[zeros.name], made[value.name], box

    replaced: dict = {}  # index -> the entries that stand for it ([] drops it)
    for index, entry in enumerate(calls):
        if entry.kind is not EntryKind.OP or entry.target != "+" or type(entry.out) is not Value:
            continue
        total = entry.out
        pieces = [piece(v) for v in entry.args]
        later = []  # the `total += slice gradient` entries
        for position in range(index + 1, len(calls)):
            other = calls[position]
            reads = [v for v in values_in((other.args, other.kwargs), []) if v is total]
            if not reads:
                continue
            if other.kind is EntryKind.INPLACE and other.target == "+=" and other.args[0] is total:
                found = piece(other.args[1])
                if found is not None:
                    pieces.append(found)
                    later.append(position)
                    continue
            break  # (read otherwise: the sum is complete)
        if None in pieces or len(pieces) < 2 or any(i in replaced for p in pieces for i in p[:2]):
            continue
        shape = tuple(total.data.shape)
        if any(tuple(calls[p[1]].out.data.shape) != shape for p in pieces):
            continue
        boxes = [p[2] for p in pieces]
        if len(shape) != len(boxes[0]) or not all(
            _disjoint(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]
        ):
            continue
        if math.prod(shape) == 0:
            continue
        first = min(p[0] for p in pieces)  # (before every slice's assignment)
        zeros = calls[first]
        label = "the slices' gradients, summed into one buffer"
        replaced[first] = [
            Entry(
                EntryKind.CALL,
                zeros.target,
                zeros.args,
                zeros.kwargs,
                total,
                label,
                zeros.phase,
                zeros.backend,
            )
        ]
        for zeros_at, assign_at, box in pieces:
            assign = calls[assign_at]
            replaced.setdefault(zeros_at, [])
            value = assign.args[2]
            replaced[assign_at] = [
                Entry(
                    EntryKind.INPLACE,
                    "[]=",
                    (total, box, value),
                    {},
                    None,
                    assign.label,
                    assign.phase,
                )
            ]
        replaced[index] = []
        for position in later:
            replaced[position] = []
    # and a slice's gradient alone: its zeros are its own, written into where they are made
    for index, entry in enumerate(calls):
        if (
            index in replaced
            or entry.kind is not EntryKind.CALL
            or entry.target != SLICE_ASSIGN.name
        ):
            continue
        found = piece(entry.out, once=False)
        if found is None or found[0] in replaced:
            continue
        zeros = calls[found[0]]
        out = entry.out
        replaced[found[0]] = [
            Entry(
                EntryKind.CALL,
                zeros.target,
                zeros.args,
                zeros.kwargs,
                out,
                entry.label,
                zeros.phase,
                zeros.backend,
            )
        ]
        replaced[index] = [
            Entry(
                EntryKind.INPLACE,
                "[]=",
                (out, found[2], entry.args[2]),
                {},
                None,
                None,
                entry.phase,
            )
        ]
    if not replaced:
        return calls
    result = []
    for index, entry in enumerate(calls):
        result.extend(replaced.get(index, [entry]))
    return result
