"""The optimisers' updates of a replay, in place when nothing else holds their buffers.

Eagerly, an optimiser updates a parameter and its state in place (`in_place=True`) when nothing
but the module and the optimiser holds them (burnpy.optim). While a step is recorded the arrays
belong to the tape, so the update is recorded out of place. This pass gives each recorded
update call that could write over its inputs an `in_place` argument decided at each replay:
`owned[0] and owned[1]`, `owned` being what the replay found of those inputs before the call
(burnpy.capture.replay: the same reference-count test as the optimisers': a buffer of its own,
held by its module or optimiser alone). Whether anything inside the step reads them after the
call is decided here, once: a call may write over its inputs when nothing after it reads their
buffers (no later kernel, no view, no result of the step) and none of its other arguments is
in them. In place and out of place give the same bits.
"""

import functools
import inspect

from burnpy.capture.planning import _root, values_in
from burnpy.capture.recorder import Entry, EntryKind, Value


class InPlace:
    """The `in_place` argument of a recorded update: true at a replay when each input at
    `positions` (in the replay's `owned` tuple) was found owned."""

    __slots__ = ("positions",)

    def __init__(self, positions: tuple[int, ...]):
        self.positions = positions

    def expression(self) -> str:
        return " and ".join(f"owned[{p}]" for p in self.positions)


@functools.cache
def _parameters(backend: type, kernel: str) -> tuple[str, ...] | None:
    """The parameter names of `backend`'s `kernel` (`self` left out), or None where it has no
    `in_place` parameter."""
    try:
        names = tuple(inspect.signature(getattr(backend, kernel)).parameters)
    except (AttributeError, TypeError, ValueError):  # (torch's builtins have no signature)
        return None
    names = names[1:] if names[:1] == ("self",) else names
    return names if "in_place" in names else None


def in_place(entries: list, inputs: list, outputs, backends: dict, owned: list) -> list:
    """`entries` with each update call that may write over its inputs given its `in_place`
    argument; the inputs that decides on are appended to `owned` (names, each once), whose
    positions the arguments name. An update call is a kernel call taking `in_place`, its first
    argument (the parameter) an input of the step."""
    input_names = {v.name for v in inputs if type(v) is Value}
    reads = [{_root(v.data)[0] for v in values_in((e.args, e.kwargs, e.out), [])} for e in entries]
    after: list = [set() for _ in entries]  # per entry: the buffers read by the ones after it
    later: set = {_root(v.data)[0] for v in values_in(outputs, [])}
    for index in range(len(entries) - 1, -1, -1):
        after[index] = set(later)
        later |= reads[index]
    rewritten = []
    for index, entry in enumerate(entries):
        names = None
        if entry.kind is EntryKind.CALL and entry.backend in backends:
            names = _parameters(type(backends[entry.backend]), entry.target)
        if names is None or len(entry.args) > len(names) or names[-1] != "in_place":
            rewritten.append(entry)
            continue
        arguments = dict(zip(names, entry.args)) | entry.kwargs
        if arguments.get("in_place", False) is not False:
            rewritten.append(entry)
            continue
        values = values_in(arguments, [])
        written = [v for v in values if v.name in input_names]
        keys = {_root(v.data)[0] for v in written}
        others = {_root(v.data)[0] for v in values if v.name not in input_names}
        if (
            not any(v is arguments.get(names[0]) for v in written)  # (the parameter: an input)
            or keys & after[index]
            or keys & others
        ):
            rewritten.append(entry)
            continue
        for value in written:
            if value.name not in owned:
                owned.append(value.name)
        flag = InPlace(tuple(owned.index(v.name) for v in written))
        args, kwargs = entry.args, {**entry.kwargs, "in_place": flag}
        if len(args) > names.index("in_place"):  # (passed by position: the last one)
            args = args[: names.index("in_place")]
        rewritten.append(
            Entry(
                entry.kind,
                entry.target,
                args,
                kwargs,
                entry.out,
                entry.label,
                entry.phase,
                entry.backend,
            )
        )
    return rewritten
