"""The signature of a call: what a recording depends on, and the inputs bound from the call.

A signature is the structure of the arguments with, for each tensor, its kind, autodiff context,
dtype, shape, device and requirement; for a module, the type, mode and settings of each of its
modules and the same facts of each parameter and buffer; for an optimiser, its type, settings
and the structure of its state for the parameters of the modules passed. Numbers are not part of
it: a float or int argument, an optimiser's float settings and the numbers in its state are
inputs. An int that shapes a tensor (a size, a slice bound, `range(n)`) specialises through a
guard on its value, checked before a replay (burnpy.capture.recorder), not through the
signature. Bools, strings and an optimiser's other settings are part of it.
"""

from burnpy.capture.recorder import CaptureError
from burnpy.capture.trees import _MODULE_INTERNAL, _SETTINGS, Fragment, Tree
from burnpy.nn.module import Module, _flatten, is_float
from burnpy.optim.optimizer import Optimizer
from burnpy.generated import Tensor
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import Requirement
from burnpy.runtime.backends.registry import backend_for

_CONSTANTS = (int, bool, str, type(None))
_DEVICE_OF: dict = {}  # variant -> its backend's device_of, found once
_GRAD, _TRACKED = Requirement.Grad, Requirement.GradInBackward


class Signature:
    """A hashable description of one call's arguments; prints what it holds."""

    __slots__ = ("key", "text")

    def __init__(self, key: tuple, text: str):
        self.key = key
        self.text = text

    def __eq__(self, other):
        return isinstance(other, Signature) and other.key == self.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"Signature({self.text})"


class Arguments:
    """One call's arguments walked in a fixed order: the signature's key, the inputs (the inner
    primitive of each tensor, each number), the tensors behind them, the modules (their entries)
    and the optimisers (their float settings and, per parameter, their state)."""

    def __init__(self, arguments: dict, wrap=None, trees: dict | None = None):
        # With `wrap(index)`, the walk also rebuilds the arguments with each input replaced by
        # what wrap gives (a recording's stand-ins), in `rebuilt`. With `trees` (a captured
        # step's: argument name -> burnpy.capture.trees.Tree), a module's walk at the last call
        # is reused where it still holds, and kept for the next call.
        self.wrap = wrap
        self.trees = trees if wrap is None else None
        self.rebuilt: dict = {}
        self.key: list = []
        self.names: list[str] = []  # per input, for the generated function's parameters
        self.values: list = []  # per input
        self.tensors: list = []  # per input: the Tensor, or None for a number
        self.modules: list = []  # (module, [(owner, path, input index)])
        # (optimiser, [(setting, input index)], [(param_id, [(state key, input index | None)])])
        self.optimizers: list = []
        self.param_ids: list = []  # per module, module.param_ids()
        for name, value in arguments.items():
            self.rebuilt[name] = self._walk(name, value)
        for optimizer, _, states in self.optimizers:
            for position, pid in enumerate(self.param_ids):
                state = optimizer.state.get(pid)
                if state is None:
                    self.key.append(None)
                    continue
                self.key.append(tuple(state))
                entries = []
                for key, value in state.items():
                    index = len(self.values)
                    self._leaf(f"{type(optimizer).__name__.lower()}_{position}_{key}", value)
                    entries.append((key, index if len(self.values) > index else None))
                states.append((pid, entries))

    def signature(self) -> Signature:
        key = tuple(self.key)
        return Signature(key, _describe(self))

    # -- walking -------------------------------------------------------------------------------
    def _walk(self, name: str, value):
        if type(value) is Tensor:  # the common case first: a replay walks every call
            return self._tensor(name, value)
        if isinstance(value, Module):
            self._module(name, value)
            return value
        if isinstance(value, Optimizer):
            self._optimizer(name, value)
            return value
        if type(value) in (list, tuple):
            self.key.append((type(value), len(value)))
            walk = self._walk
            items = [walk(f"{name}_{index}", item) for index, item in enumerate(value)]
            return items if type(value) is list else tuple(items)
        if type(value) is dict:
            self.key.append((dict, tuple(value)))
            return {key: self._walk(f"{name}_{key}", item) for key, item in value.items()}
        return self._leaf(name, value)

    def _leaf(self, name: str, value):
        if isinstance(value, Tensor):
            return self._tensor(name, value)
        if type(value) is float or type(value) is int:  # (a bool is not an int here)
            self.key.append(type(value))
            return self._input(name, value, None)
        if type(value) in _CONSTANTS:
            self.key.append(value)
            return value
        elif isinstance(value, Gradients):
            raise CaptureError(
                f"capture: argument {name} is a Gradients; compute the gradients inside the "
                "captured step (call backward() there)"
            )
        else:
            raise CaptureError(
                f"capture: argument {name} is a {type(value).__name__}; a captured step takes "
                "tensors, numbers, strings, lists, tuples and dicts of them, modules and "
                "optimisers"
            )

    def _tensor(self, name: str, tensor):
        kind = tensor.kind
        primitive = tensor.primitive
        if kind.is_autodiff:
            requirement = primitive.node.requirement
            if requirement is _TRACKED:
                raise CaptureError(
                    f"capture: tensor {name} is the result of tracked ops; a captured step "
                    "takes leaves: pass `t.detach()` (or `t.detach().require_grad()`)"
                )
            grad = requirement is _GRAD  # (a bool: an Enum's hash runs in Python)
            primitive = primitive.primitive
        else:
            grad = None
        device_of = _DEVICE_OF.get(kind.variant) or _device_of(kind.variant)
        self.key.append(
            (kind, tensor.context, primitive.dtype, primitive.shape, device_of(primitive), grad)
        )
        index = len(self.values)  # _input, written out: it runs for every tensor of every call
        self.names.append(name)
        self.values.append(primitive)
        self.tensors.append(tensor)
        return primitive if self.wrap is None else self.wrap(index)

    def _input(self, name: str, value, tensor):
        index = len(self.values)
        self.names.append(name)
        self.values.append(value)
        self.tensors.append(tensor)
        return value if self.wrap is None else self.wrap(index)

    def _module(self, name: str, module: Module) -> None:
        trees = self.trees
        starts = (len(self.values), len(self.param_ids))
        tree = None if trees is None else trees.get(name)
        found = None if tree is None else tree.reuse(module, starts[0])
        if found is not None:
            tensors, primitives, entries = found
            self.key.append(tree.fragment)
            self.names += tree.names
            self.values += primitives
            self.tensors += tensors
            self.param_ids += tree.param_ids
            self.modules.append((module, entries))
            return
        entries: list = []
        visited: list = []
        first = len(self.key)
        self._module_tree(name, module, "", entries, set(), visited)
        # the tree's part of the key as one item, hashed once
        fragment = Fragment(tuple(self.key[first:]))
        del self.key[first:]
        self.key.append(fragment)
        self.modules.append((module, entries))
        if trees is not None:
            tensors = self.tensors[starts[0] :]
            device_of = _device_of(tensors[0].kind.variant) if tensors else None
            trees[name] = Tree.of(module, visited, entries, self, starts, fragment, device_of)

    def _module_tree(self, name, child, prefix: str, entries: list, seen: set, visited) -> None:
        """One walk of a module's tree: per module (each added to `visited`) its path, type
        and settings, per tensor (depth first, as `Module._entries`) its name and role, the
        parameters' ids once each (as `Module.param_ids`), the tensors as inputs."""
        visited.append(child)
        settings, local = [], []  # local: (path, tensor or module, is_param), in order
        buffers = child._buffers
        for key, value in vars(child).items():  # (one pass: `Module._local`, written out)
            kind = type(value)
            if kind is Tensor:  # the common case: a tensor held directly
                local.append((key, value, is_float(value) and key not in buffers))
            elif kind in _SETTINGS:
                if key not in _MODULE_INTERNAL:
                    settings.append((key, value))
            elif key not in _MODULE_INTERNAL:
                for path, item in _flatten(key, value):
                    local.append((path, item, child._is_param(path, item)))
        self.key.append((prefix, type(child), tuple(settings)))
        for path, value, is_param in local:
            if isinstance(value, Module):
                self._module_tree(name, value, f"{prefix}{path}.", entries, seen, visited)
                continue
            dotted = prefix + path
            self.key.append((dotted, is_param))
            if is_param and id(value) not in seen:
                seen.add(id(value))
                self.param_ids.append(child._param_ids[path])
            entries.append((child, path, len(self.values)))
            self._tensor(f"{name}_{dotted}".replace(".", "_"), value)

    def _optimizer(self, name: str, optimizer: Optimizer) -> None:
        settings = []
        self.key.append(type(optimizer))
        for key, value in vars(optimizer).items():
            if key == "state":
                continue
            if type(value) is float:
                self.key.append((key, float))
                settings.append((key, len(self.values)))
                self._input(f"{name}_{key}", value, None)
            else:
                self.key.append((key, value if type(value) in _CONSTANTS else type(value)))
        self.optimizers.append((optimizer, settings, []))


def _device_of(variant: str):
    """The device_of of `variant`'s backend (found once)."""
    device_of = _DEVICE_OF.get(variant)
    if device_of is None:
        device_of = _DEVICE_OF[variant] = backend_for(variant).device_of
    return device_of


def _describe(arguments: Arguments) -> str:
    """The arguments in short: each tensor and number, each module and optimiser as a whole."""
    owned = {index for _, entries in arguments.modules for _, _, index in entries}
    parts = []
    for module, entries in arguments.modules:
        parts.append(f"{type(module).__name__} ({len(entries)} tensors)")
    for optimizer, settings, states in arguments.optimizers:
        owned |= {index for _, index in settings}
        owned |= {index for _, entries in states for _, index in entries if index is not None}
        held = f"state for {len(states)} parameters" if states else "no state yet"
        parts.append(f"{type(optimizer).__name__} ({held})")
    for index, (name, value) in enumerate(zip(arguments.names, arguments.values)):
        if index in owned:
            continue
        if type(value) in (int, float):
            parts.append(f"{name}: {type(value).__name__}")
        else:
            parts.append(f"{name}: {value.dtype} {list(value.shape)}")
    return ", ".join(parts)
