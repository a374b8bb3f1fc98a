"""A module tree's walk, kept by a captured step and reused at its next call while the tree
holds what it held (burnpy.capture.signature walks it afresh otherwise).

A reuse reads again, in a few C loops, all that the walk's result depends on: per module its
attributes' names and types, its settings' values, which tensors and modules it holds (their
ids: the tree holds the modules, so theirs are theirs alone; a step so keeps the modules of its
last call alive until a call with others), its buffers' names and parameter ids; per tensor its
kind, context, dtype, shape and device. A tree is not kept where that would not be enough: a module
holding a list, tuple or dict (whose items change without an assignment), an autodiff tensor
(whose requirement the walk reads too), tensors of several backends.
"""

import operator

from burnpy.generated import Tensor
from burnpy.nn.module import Module

_SETTINGS = (int, float, bool, str, type(None))  # a module's settings that shape its forward
_CONTAINERS = (list, tuple, dict)
_MODULE_INTERNAL = ("_param_ids", "_buffers", "_grad_off")
_ROLE = operator.attrgetter("kind", "context")
_PRIMITIVE = operator.attrgetter("primitive")
_LAYOUT = operator.attrgetter("shape", "dtype")


class Fragment:
    """The part of a signature's key that one module tree makes, hashed once (a replay looks
    the key up at every call)."""

    __slots__ = ("items", "hash")

    def __init__(self, items: tuple):
        self.items = items
        self.hash = hash(items)

    def __hash__(self):
        return self.hash

    def __eq__(self, other):
        return self is other or (
            type(other) is Fragment and other.hash == self.hash and other.items == self.items
        )


class _Held:
    """What one module of a kept tree held: its attributes' names and types, where its tensors
    and modules sit (and their ids), where its settings sit (and their values), its buffers'
    names and its parameter ids."""

    __slots__ = (
        "module",
        "keys",
        "types",
        "objects",
        "ids",
        "settings",
        "values",
        "buffers",
        "pids",
    )

    def __init__(self, module, state: dict):
        values = list(state.values())
        self.module = module
        self.keys = tuple(state)
        self.types = list(map(type, values))
        objects = [
            i for i, t in enumerate(self.types) if t is Tensor or isinstance(values[i], Module)
        ]
        self.objects = _picker(objects)
        self.ids = list(map(id, self.objects(values)))
        settings = [i for i, t in enumerate(self.types) if t in _SETTINGS]
        self.settings = _picker(settings)
        self.values = self.settings(values)
        self.buffers = set(module._buffers)
        self.pids = dict(module._param_ids)

    def holds(self, values: list) -> bool:
        """Whether the module, whose attributes are `values` now, holds what it held (the same
        modules: they are alive, held here; tensors of the same ids, whose facts the tree
        reads again)."""
        return (
            list(map(type, values)) == self.types
            and list(map(id, self.objects(values))) == self.ids
            and self.settings(values) == self.values
            and self.module._buffers == self.buffers
            and self.module._param_ids == self.pids
        )


class Tree:
    """One module argument's walk (under its argument name, from its input position on): the
    key fragment, the inputs' names, the parameter ids, and what the tensors were."""

    __slots__ = (
        "start",
        "root_type",
        "held",
        "order",
        "flat",
        "entries",
        "fragment",
        "names",
        "param_ids",
        "roles",
        "layouts",
        "devices",
        "device_of",
    )

    @classmethod
    def of(cls, module, visited, entries, walked, starts, fragment, device_of) -> "Tree | None":
        """The tree of a walk of `module` that visited the modules `visited` (in order) and
        found the tensors of `entries` ((owner, path, input index) each), the inputs and
        parameter ids of `walked` from `starts` on (their positions before the walk); None
        where it cannot be kept."""
        start, first_id = starts
        tensors = walked.tensors[start:]
        if len(tensors) != len(entries) or any(t.kind.is_autodiff for t in tensors):
            return None
        if len({t.kind.variant for t in tensors}) > 1:
            return None
        held, position = [], {}
        for child in visited:
            state = vars(child)
            for key, value in state.items():
                if key in _MODULE_INTERNAL or type(value) is Tensor or isinstance(value, Module):
                    continue
                if isinstance(value, _CONTAINERS) or isinstance(value, Tensor):
                    return None
            position.setdefault(id(child), len(held))
            held.append(_Held(child, state))
        tree = cls()
        tree.start = start
        tree.root_type = type(module)
        tree.held = held
        keys = [h.keys for h in held]
        tree.order = [
            (position[id(owner)], keys[position[id(owner)]].index(path))
            for owner, path, _ in entries
        ]
        tree.flat = _picker([p for _, p in tree.order]) if len(held) == 1 else None
        tree.entries = entries
        tree.fragment = fragment
        tree.names = walked.names[start:]
        tree.param_ids = walked.param_ids[first_id:]
        primitives = list(map(_PRIMITIVE, tensors))
        tree.roles = list(map(_ROLE, tensors))
        tree.layouts = list(map(_LAYOUT, primitives))
        tree.device_of = device_of
        tree.devices = list(map(device_of, primitives))
        return tree

    def reuse(self, module, start: int):
        """(tensors, their primitives, entries) of `module`'s tree as the walk would find them
        now, or None where the walk may find something else."""
        if start != self.start or module is not self.held[0].module:
            return None
        if type(module) is not self.root_type:  # (a child's type is its parent's to check)
            return None
        states = []
        for held in self.held:
            state = vars(held.module)
            values = list(state.values())
            if tuple(state) != held.keys or not held.holds(values):
                return None
            states.append(values)
        if self.flat is not None:
            tensors = self.flat(states[0])
        else:
            tensors = [states[m][p] for m, p in self.order]
        if list(map(_ROLE, tensors)) != self.roles:
            return None
        primitives = list(map(_PRIMITIVE, tensors))
        if (
            list(map(_LAYOUT, primitives)) != self.layouts
            or list(map(self.device_of, primitives)) != self.devices
        ):
            return None
        return tensors, primitives, self.entries


def _picker(positions: list):
    """The function giving the items of a list at `positions`, as a tuple (one C call)."""
    if len(positions) > 1:
        return operator.itemgetter(*positions)
    if positions:
        (only,) = positions
        return lambda values: (values[only],)
    return lambda values: ()
