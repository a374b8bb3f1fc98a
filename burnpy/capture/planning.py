"""Memory planning of a compiled capture: the buffer each fused kernel writes into.

Arrays that share memory are one *buffer* here (a reshape or a transpose is a view of its
input's buffer), found from the recording's real arrays (numpy's `.base`, torch's storage). A
buffer is the step's own when no input of the step and no result it returns is in it; it is dead
once the last reader of every value in it has run. Each output of a fused kernel is then written
into, in this order of preference:

1. an input of that same call whose buffer dies there (the kernel works in place: each fused
   kernel reads an element, or a row, before it writes it);
2. a dead buffer of the same dtype and size (`out = dead.reshape(shape)`);
3. a new one (`empty(shape, dtype)`).

The plan's peak is the largest total size of the step's own buffers alive at once, over the
kernels in order, results included (inputs excluded: they exist before the step); the same
count over the recorded calls, each result in its own new array and freed after its last
reader, is the eager step's. A kernel's own scratch memory (numpy's temporaries inside a
backend kernel) is in neither.
"""

import sys
from dataclasses import dataclass
from enum import Enum

import numpy as np

from burnpy.capture.recorder import EntryKind, Value


def _root(data):
    """(key, nbytes, is_whole) of the memory `data` lives in: is_whole when `data` is all of it,
    C-contiguous (so that it can be written as any array of that size)."""
    if type(data) is np.ndarray:
        root = data
        while type(root.base) is np.ndarray:
            root = root.base
        whole = data.flags.c_contiguous and data.nbytes == root.nbytes
        return id(root), root.nbytes, whole and root.base is None
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(data, torch.Tensor):
        storage = data.untyped_storage()
        whole = data.is_contiguous() and data.nbytes == storage.nbytes()
        return storage.data_ptr(), storage.nbytes(), whole
    return id(data), getattr(data, "nbytes", 0), False


def values_in(value, into: list) -> list:
    """The Values inside `value` (nested tuples, lists, dicts), appended to `into`."""
    kind = type(value)
    if kind is Value:
        into.append(value)
    elif kind in (tuple, list):
        for item in value:
            values_in(item, into)
    elif kind is dict:
        for item in value.values():
            values_in(item, into)
    return into


class Flow:
    """Who makes and who reads each value of a list of tape entries: the one index of the data
    flow that the compiler's passes share (a pass that rewrites the entries makes a new one)."""

    def __init__(self, entries: list):
        self.maker: dict[str, int] = {}  # value name -> index of the entry whose result it is
        self.readers: dict[str, int] = {}  # value name -> how many entries read it
        for index, entry in enumerate(entries):
            for read in {v.name for v in values_in((entry.args, entry.kwargs), [])}:
                self.readers[read] = self.readers.get(read, 0) + 1
            if type(entry.out) is Value:
                self.maker[entry.out.name] = index

    def read_once(self, value, kept: set) -> bool:
        """Whether `value` is read by one entry alone and not returned (`kept`)."""
        return value.name not in kept and self.readers.get(value.name) == 1


class Place(Enum):
    """Where a fused kernel's output goes."""

    NEW = "new"  # an array of its own
    REUSE = "reuse"  # the array of `holder`, a dead or dying value whose array is its buffer
    OWNED = "owned"  # over input `holder`'s array, when the replay finds it owned by the
    # module or optimiser alone (else an array of its own)


@dataclass(frozen=True)
class Buffer:
    place: Place
    holder: str | None = None  # the value whose array it takes (REUSE, OWNED)


class Plan:
    """Where each fused output goes (`buffers`: value name -> its Buffer), the inputs written
    over (`owned`, in order), and the peak bytes with and without the plan (with: the owned
    inputs written over)."""

    def __init__(self, buffers: dict, planned: int, eager: int, owned: list):
        self.buffers = buffers
        self.planned = planned
        self.eager = eager
        self.owned = owned


def plan(entries, inputs, outputs) -> Plan:
    """The plan of `entries` (the compiled step's calls, the fused ones of kind FUSED), given
    the step's input Values and what it returns."""
    uses = [values_in(entry.out, values_in((entry.args, entry.kwargs), [])) for entry in entries]
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    by_name: dict[str, Value] = {}
    for index, values in enumerate(uses):
        for value in values:
            first.setdefault(value.name, index)
            last[value.name] = index
            by_name[value.name] = value
    for value in inputs:
        if type(value) is Value:
            by_name[value.name] = value
    root = {name: _root(value.data) for name, value in by_name.items()}
    input_keys = {root[v.name][0] for v in inputs if type(v) is Value}
    output_keys = {root[v.name][0] for v in values_in(outputs, []) if v.name in root}
    foreign = input_keys | output_keys
    fused_outputs = {v.name for e in entries if e.kind is EntryKind.FUSED for v in e.target.outputs}
    eager = _peak(len(entries), root, first, last, input_keys, output_keys)

    members: dict = {}  # buffer -> the names of the values in it
    holders: dict = {}  # buffer -> a value whose array is that whole buffer
    for name, (key, _, whole) in root.items():
        if name not in fused_outputs:
            members.setdefault(key, set()).add(name)
            if whole:
                holders.setdefault(key, name)
    ends = {key: max(last.get(n, -1) for n in names) for key, names in members.items()}
    buffers: dict = {}
    owned: list = []  # the inputs an update may write over, when the replay finds them owned
    moved: dict = {}  # a fused output's recorded buffer -> the buffer the plan gives it
    for index, entry in enumerate(entries):
        if entry.kind is not EntryKind.FUSED:
            continue
        arguments = {v.name for v in values_in(entry.args, [])}
        taken: set = set()
        updated = {id(o): i for o, i in entry.target.updates}
        for output in entry.target.outputs:
            recorded = root[output.name][0]
            source = updated.get(id(output))
            if source is not None and _writable_input(source, output, index, root, ends, inputs):
                # an optimiser's update over its own buffer, when the replay finds it owned
                buffers[output.name] = Buffer(Place.OWNED, source.name)
                owned.append(source.name)
                moved[recorded] = root[source.name][0]
                continue
            fits = []
            for key, holder in holders.items() if recorded not in output_keys else ():
                if key in foreign or key in taken or ends[key] > index:
                    continue
                if root[holder][1] != output.data.nbytes:
                    continue
                if by_name[holder].data.dtype != output.data.dtype:
                    continue
                read = members[key] & arguments
                if ends[key] == index and not (read and all(root[n][2] for n in read)):
                    continue  # it dies here but is not read here as a whole array
                fits.append((ends[key] != index, -ends[key], holder, key))
            if fits:
                # in place first, else the buffer that died last; among equals, by the name of
                # the value holding it (not by address: the same step plans the same way)
                key = min(fits)[-1]
                buffers[output.name] = Buffer(Place.REUSE, holders[key])
                moved[recorded] = key
            else:  # its own new array (a result of the step always is)
                key = recorded
                buffers[output.name] = Buffer(Place.NEW)
            taken.add(key)
            # the values in its recorded buffer (views of it) are in the planned one
            names = members.pop(recorded, set()) if key != recorded else set()
            members.setdefault(key, set()).update(names | {output.name})
            ends[key] = max(ends.get(key, -1), ends.pop(recorded, -1) if names else -1)
            ends[key] = max(ends[key], last.get(output.name, index))
            if key != recorded:
                holders.pop(recorded, None)
            holders[key] = output.name  # (the next to reuse it names its latest value)
            root[output.name] = (recorded, output.data.nbytes, True)
    placed = {name: (moved.get(key, key), *rest) for name, (key, *rest) in root.items()}
    planned = _peak(len(entries), placed, first, last, input_keys, output_keys)
    return Plan(buffers, planned, eager, owned)


def _writable_input(source, output, index, root, ends, inputs) -> bool:
    """Whether `output` may be written over `source`: a step input whose array is a whole
    buffer of its size and dtype, read by nothing after call `index`."""
    if not any(v is source for v in inputs) or source.name not in root:
        return False
    key, nbytes, whole = root[source.name]
    data = source.data
    return (
        whole
        and nbytes == output.data.nbytes
        and data.dtype == output.data.dtype
        and ends.get(key, -1) <= index
    )


def _peak(count, root, first, last, input_keys, output_keys) -> int:
    """The largest total size of the step's own buffers alive at once: each from the first call
    that makes a value in it to the last that reads one (a result's: to the end)."""
    start: dict = {}
    end: dict = {}
    size: dict = {}
    for name, (key, nbytes, _) in root.items():
        if key in input_keys or name not in first:
            continue
        size[key] = nbytes
        start[key] = min(start.get(key, first[name]), first[name])
        end[key] = max(end.get(key, -1), last[name])
    change = [0] * (count + 2)
    for key, begin in start.items():
        stop = count if key in output_keys else end[key]
        change[begin] += size[key]
        change[stop + 1] -= size[key]
    peak = alive = 0
    for delta in change:
        alive += delta
        peak = max(peak, alive)
    return peak
