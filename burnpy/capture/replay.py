"""`capture(fn)`: a step recorded on its first call for a signature, replayed after.

The recording run is the eager step itself, over recording backends (burnpy.capture.recorder);
its tape becomes one generated function (burnpy.capture.writer). A replay binds the inputs from
the call, runs that function, and puts the outputs back: the step's results as new tensors
(without a graph: the step's backward ran inside it), Gradients keyed by the input leaves' node
ids, the module's parameters and buffers as new leaves under their ParamIds, and the
optimiser's state. The first call goes through the same write-back, so it returns what a replay
returns.
"""

import collections
import contextlib
import functools
import inspect
import itertools
import sys
import time
import warnings

from burnpy.capture import toolchain, updates
from burnpy.capture.compiler import compile_step
from burnpy.capture.recorder import (
    CaptureError,
    Integer,
    Number,
    RecordingBackend,
    Tape,
    Value,
    constants_dropped,
)
from burnpy.capture.location import located
from burnpy.capture.signature import Arguments, Signature
from burnpy.capture.toolchain import CompilerMissing
from burnpy.capture.writer import write
from burnpy.optim.optimizer import _sole_array
from burnpy.generated import Tensor
from burnpy.generated.backends import BACKENDS
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import Requirement
from burnpy.runtime.autodiff.tensor import AutodiffTensor
from burnpy.runtime.backends.registry import backend_for

_FILES = itertools.count()
# How many signatures a captured step keeps recordings for by default: a model called with
# inputs of many shapes (a sequence length per batch) holds this many, the least recently
# used dropped first.
MAX_SIGNATURES = 16
_RECORDING: list = []  # the step being recorded, if any (a captured step it calls runs eagerly)


def capture(
    fn=None,
    *,
    fallback: bool = False,
    compile: bool = False,
    max_signatures: int = MAX_SIGNATURES,
):
    """Record `fn` once per signature and replay the recording after: `@capture`, or
    `capture(fn, fallback=True)` to run eagerly (warning once) a step that cannot be recorded,
    `capture(fn, compile=True)` to replay it with fused C kernels and planned memory. The
    recordings of at most `max_signatures` signatures are kept, the least recently used
    dropped first."""
    if fn is None:
        return functools.partial(
            capture, fallback=fallback, compile=compile, max_signatures=max_signatures
        )
    return CapturedStep(fn, fallback, compile, max_signatures)


class Recording:
    """One generated function and how to put its outputs back."""

    __slots__ = (
        "signature",
        "source",
        "function",
        "compiled",
        "owned",
        "results",
        "modules",
        "optimizers",
    )

    def __init__(self, signature, source, compiled, inputs, owned, results, modules, optimizers):
        self.signature = signature
        self.compiled = compiled  # a compiler.Compiled, or None
        self.source = source if compiled is None else compiled.source
        self.function = self.source.function
        # the inputs (positions) the function's updates may write over, when owned
        names = [v.name for v in inputs]
        owned = owned if compiled is None else compiled.owned
        self.owned = [names.index(n) for n in owned]
        self.results = _builder(results)  # builds the step's results
        self.modules = modules  # per module, per entry: None (unchanged) or its tensor's spec
        # per optimiser, per parameter: None or [(state key, its builder)]
        self.optimizers = [
            [None if s is None else [(key, _builder(b)) for key, b in s] for s in states]
            for states in optimizers
        ]

    def finish(self, arguments: Arguments, outputs):
        """Put `outputs` back, in order: the results, the modules' entries, the optimisers'
        state; returns the results."""
        values = iter(outputs)
        results = self.results(values, arguments)
        for (_, entries), specs in zip(arguments.modules, self.modules):
            for (owner, path, _), spec in zip(entries, specs):
                if spec is not None:
                    owner._set_local(path, _tensor(spec, next(values)))
        for (optimizer, _, _), states in zip(arguments.optimizers, self.optimizers):
            for pid, state in zip(arguments.param_ids, states):
                if state is not None:
                    optimizer.state[pid] = {key: build(values, arguments) for key, build in state}
        return results


class CapturedStep:
    """A step function, recorded once per signature and replayed as generated code."""

    def __init__(self, fn, fallback: bool, compile: bool = False, max_signatures=MAX_SIGNATURES):
        if type(max_signatures) is not int or max_signatures < 1:
            raise ValueError(
                f"capture: max_signatures must be an int of at least 1, got {max_signatures!r}"
            )
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.fallback = fallback
        self.compile = compile
        self._parameters = inspect.signature(fn)
        # A function of plain positional parameters (and maybe `*rest` after them) binds a
        # positional call by zip: cheaper than Signature.bind, which a replay would otherwise
        # pay on every call.
        parameters = list(self._parameters.parameters.values())
        last = parameters[-1] if parameters else None
        self._rest = last.name if last is not None and last.kind is last.VAR_POSITIONAL else None
        named = parameters[:-1] if self._rest is not None else parameters
        plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in named)
        self._names = tuple(p.name for p in named) if plain else None
        self.max_signatures = max_signatures
        # signature key -> [Recording], each with its own guards; the most recently used last
        self._recordings: collections.OrderedDict = collections.OrderedDict()
        self._eager: set = set()  # keys that could not be recorded (fallback=True)
        self._warned = False
        self._compile_warned = False
        self.signatures: list[Signature] = []
        self._trees: dict = {}  # argument name -> its module's walk at the last call

    def __call__(self, *args, **kwargs):
        if _RECORDING:  # called by a step being recorded: its kernels are that step's
            return self.fn(*args, **kwargs)
        names = self._names
        if names is not None and not kwargs and len(args) == len(names):
            arguments = dict(zip(names, args))
        elif names is not None and not kwargs and self._rest and len(args) > len(names):
            arguments = dict(zip(names, args))
            arguments[self._rest] = args[len(names) :]  # (as bind gives it: a tuple)
        else:
            arguments = self._parameters.bind(*args, **kwargs).arguments
        walked = Arguments(arguments, trees=self._trees)
        key = tuple(walked.key)
        recordings = self._recordings.get(key)
        if recordings is not None:
            self._recordings.move_to_end(key)
        for recording in recordings or ():
            if recording.owned:  # an update writes over what the step alone holds
                owned = _owned(walked, recording.owned)  # (before the call's arguments hold
                outputs = recording.function(*walked.values, owned)  # the arrays once more)
            else:
                outputs = recording.function(*walked.values)
            if outputs is not None:  # None: a guard on the numbers failed
                return recording.finish(walked, outputs)
        if key in self._eager:
            return self.fn(*args, **kwargs)
        return self._record(arguments, walked, args, kwargs)

    def source(self, signature: Signature | None = None) -> str:
        """The generated source of the latest recording, or of `signature`'s latest."""
        return self._latest(signature).source.text

    def kernels(self, signature: Signature | None = None) -> str:
        """The C source of the fused kernels the latest compiled recording (or `signature`'s)
        calls, each headed by a comment naming the catalogue ops it fuses."""
        compiled = self._compiled(signature)
        return "\n".join(compiled.kernels.values())

    def memory(self, signature: Signature | None = None) -> "Memory":
        """The peak memory of the latest compiled recording (or `signature`'s), in bytes:
        `planned` with its buffers reused, `eager` with every result a new array."""
        plan = self._compiled(signature).plan
        return Memory(plan.planned, plan.eager)

    @property
    def compile_seconds(self) -> float:
        """How long compiling the latest recording took, in seconds: its passes, writing its
        function, and building those of its kernels not yet built on this machine (the kernel
        cache's): what `compile=True` added to the call that recorded it."""
        return self._compiled(None).seconds

    def _latest(self, signature):
        if not self.signatures:
            raise LookupError(f"{self.__name__} has not been called yet: nothing is recorded")
        signature = self.signatures[-1] if signature is None else signature
        recordings = self._recordings.get(signature.key)
        if not recordings:
            raise LookupError(f"{self.__name__} has no recording for {signature!r}")
        return recordings[-1]

    def _compiled(self, signature):
        recording = self._latest(signature)
        if recording.compiled is None:
            why = (
                "it was not compiled (see the warning it gave)"
                if self.compile
                else "it is captured without compile=True"
            )
            raise LookupError(f"{self.__name__} has no fused kernels or memory plan: {why}")
        return recording.compiled

    # -- recording -----------------------------------------------------------------------------
    def _record(self, arguments: dict, walked: Arguments, args, kwargs):
        if self.compile:  # (a setup the compile would refuse is said before the step runs)
            toolchain.check_setup()
        tape = Tape()
        stand_ins: list = []  # per input: its Value's tensor, or its Number
        values: list = []  # per input: the Value or Number the generated function binds

        def wrap(index):
            return stand_ins[index]

        # a module's int and bool buffers (an imported model's constants) may shape tensors
        held = {index for _, entries in walked.modules for _, _, index in entries}
        for index, (name, value, tensor) in enumerate(
            zip(walked.names, walked.values, walked.tensors)
        ):
            if tensor is None:
                number = tape.reserve(value, name)
                stand_ins.append(number)
                values.append(number)
            else:
                value = tape.bind(value, name, index in held and tensor.dtype.kind in "biu")
                values.append(value)
                stand_ins.append(_stand_in(tensor, value))
        recorded = Arguments(arguments, wrap)
        restore = _install(walked, stand_ins)
        variants = sorted({t.kind.variant for t in walked.tensors if t is not None})
        backends = {variant: backend_for(variant) for variant in variants}
        try:
            _RECORDING.append(self)
            with contextlib.ExitStack() as stack:
                for variant, inner in backends.items():
                    stack.enter_context(BACKENDS.substitute(variant, RecordingBackend(inner, tape)))
                bound = inspect.BoundArguments(self._parameters, recorded.rebuilt)
                result = self.fn(*bound.args, **bound.kwargs)
            _RECORDING.pop()
            outputs, specs = _collect(result, walked, stand_ins)
        except CaptureError as error:
            del _RECORDING[:]
            restore()
            if not self.fallback:
                where = located(error.__traceback__)
                if where:
                    error.args = (f"{error}\n  {where}",)
                raise
            self._eager.add(tuple(walked.key))
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"capture: {self.__name__} cannot be recorded, so it runs eagerly "
                    "(fallback=True)",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return self.fn(*args, **kwargs)
        except BaseException:
            del _RECORDING[:]
            restore()
            raise
        finally:
            tape.closed = True  # a Value the step kept (a memo) acts as its array from now on
        restore()
        tape.entries = constants_dropped(tape.entries, outputs)
        signature = walked.signature()
        name = _identifier(self.__name__)
        filename = f"<capture {name} #{next(_FILES)}>"
        owned: list = []  # the inputs the updates may write over, when the replay finds them owned
        entries = updates.in_place(tape.entries, values, outputs, backends, owned)
        extra = ("owned",) if owned else ()
        source = write(name, entries, values, outputs, backends, filename, extra=extra)
        compiled = (
            self._compile(name, tape, values, outputs, backends, source, owned)
            if self.compile
            else None
        )
        recording = Recording(signature, source, compiled, values, owned, *specs)
        self._recordings.setdefault(signature.key, []).append(recording)
        self._recordings.move_to_end(signature.key)
        if signature not in self.signatures:
            self.signatures.append(signature)
        while len(self._recordings) > self.max_signatures:
            dropped, _ = self._recordings.popitem(last=False)
            self.signatures = [s for s in self.signatures if s.key != dropped]
        results = [_real(v) for v in outputs]
        # The tape and its Values refer to each other: emptied now, the recording's arrays go
        # at once, not at some later garbage collection (the first replay's updates can then
        # find the parameters the recording made owned, and write over them)
        tape.entries.clear()
        tape.keep.clear()
        return recording.finish(walked, results)

    def _compile(self, name, tape, values, outputs, backends, source, owned):
        """The compiled function of a recording, or None (with a warning, once) when it cannot
        be compiled: the uncompiled replay runs then."""
        started = time.perf_counter()
        try:
            compiled = compile_step(
                name,
                tape,
                values,
                outputs,
                backends,
                f"{source.filename[:-1]} compiled>",
                source.function,
                owned,
            )
            compiled.seconds = time.perf_counter() - started
            return compiled
        except CompilerMissing as error:
            reason = f"{error}"
        except Exception as error:  # a compile failure never fails the step
            reason = f"compiling it failed ({type(error).__name__}: {error})"
        if not self._compile_warned:
            self._compile_warned = True
            warnings.warn(
                f"capture: {self.__name__} replays uncompiled: {reason}",
                RuntimeWarning,
                stacklevel=4,
            )
        return None


class Memory(tuple):
    """A compiled step's peak memory in bytes: (planned, eager)."""

    __slots__ = ()

    def __new__(cls, planned: int, eager: int):
        return super().__new__(cls, (planned, eager))

    planned = property(lambda self: self[0])
    eager = property(lambda self: self[1])

    def __repr__(self):
        return f"Memory(planned={self.planned}, eager={self.eager})"

    def __str__(self):
        return (
            f"planned peak {self.planned / 2**20:.2f} MiB "
            f"(the eager step's {self.eager / 2**20:.2f} MiB)"
        )


def _owned(walked: Arguments, positions: list) -> tuple:
    """For each input at `positions` (a module's parameter, an optimiser's state): whether
    nothing but its module or optimiser holds it, so that writing over its array changes no
    tensor anyone kept (the test burnpy.optim makes before updating in place)."""
    return tuple(_sole(walked.tensors[p], walked.values[p]) for p in positions)


def _sole(tensor, array) -> bool:
    """Whether `tensor`, what it wraps and `array` are held by nothing else: Python's reference
    counts say it, counting the module's or optimiser's slot and the Arguments' lists."""
    if tensor is None or sys.getrefcount(tensor) > 4:  # its slot, walked.tensors, argument, own
        return False
    primitive = tensor.primitive
    if primitive is not array:  # an autodiff primitive: held by its Tensor alone
        if sys.getrefcount(primitive) > 3 or primitive.primitive is not array:
            return False
    del primitive  # (not counted below)
    return _sole_array(array, 3)  # its holder, walked.values, this function's argument


def _stand_in(tensor, value: Value):
    """`tensor` with its primitive replaced by `value` (an autodiff one keeps its node)."""
    if tensor.kind.is_autodiff:
        return Tensor(tensor.kind, AutodiffTensor(value, tensor.primitive.node), tensor.context)
    return Tensor(tensor.kind, value, tensor.context)


def _install(walked: Arguments, stand_ins: list):
    """Put the stand-ins into the modules and optimisers; returns what restores them."""
    undo = []
    for _, entries in walked.modules:
        for owner, path, index in entries:
            original = walked.tensors[index]
            undo.append(functools.partial(owner._set_local, path, original))
            owner._set_local(path, stand_ins[index])
    for optimizer, settings, states in walked.optimizers:
        for key, index in settings:
            undo.append(functools.partial(setattr, optimizer, key, walked.values[index]))
            setattr(optimizer, key, stand_ins[index])
        for pid, entries in states:
            original = optimizer.state[pid]
            undo.append(functools.partial(optimizer.state.__setitem__, pid, original))
            optimizer.state[pid] = {
                key: original[key] if index is None else stand_ins[index] for key, index in entries
            }
    undo.append(lambda: _drop_new_state(walked))

    def restore():
        for step in reversed(undo):
            step()

    return restore


def _drop_new_state(walked: Arguments) -> None:
    """Forget the state a recording run gave to parameters that had none before."""
    had = {pid for _, _, states in walked.optimizers for pid, _ in states}
    for optimizer, _, _ in walked.optimizers:
        for pid in walked.param_ids:
            if pid not in had:
                optimizer.state.pop(pid, None)


def _collect(result, walked: Arguments, stand_ins: list):
    """The outputs of a recording run (Values, Numbers, constants) and how to put them back."""
    outputs: list = []
    node_inputs = {
        t.primitive.node.id: index
        for index, t in enumerate(walked.tensors)
        if t is not None and t.kind.is_autodiff
    }
    results = _spec(result, outputs, node_inputs)
    modules = []
    for module, entries in walked.modules:
        now = list(module._entries())
        if len(now) != len(entries):
            raise CaptureError(
                f"capture: the step changed which tensors {type(module).__name__} holds "
                f"({len(entries)} before, {len(now)} after); a replay can only update them"
            )
        specs = []
        for (_, _, _, tensor, _), (_, _, index) in zip(now, entries):
            if tensor is stand_ins[index]:
                specs.append(None)
            else:
                specs.append(_tensor_spec(tensor))
                outputs.append(_primitive(tensor))
        modules.append(specs)
    optimizers = []
    for optimizer, _, _ in walked.optimizers:
        states = []
        for pid in walked.param_ids:
            state = optimizer.state.get(pid)
            if state is None:
                states.append(None)
                continue
            states.append(
                [(key, _spec(value, outputs, node_inputs)) for key, value in state.items()]
            )
        optimizers.append(states)
    return outputs, (results, modules, optimizers)


def _spec(value, outputs: list, node_inputs: dict):
    if isinstance(value, Tensor):
        outputs.append(_primitive(value))
        return ("tensor", _tensor_spec(value))
    if type(value) in (Number, Integer):
        outputs.append(value)
        return ("output",)
    if type(value) in (int, float, bool, str, type(None)):
        return ("constant", value)
    if type(value) in (list, tuple):
        return (type(value), [_spec(item, outputs, node_inputs) for item in value])
    if type(value) is dict:
        return (dict, [(key, _spec(item, outputs, node_inputs)) for key, item in value.items()])
    if isinstance(value, Gradients):
        entries = []
        for node_id, grad in value._grads.items():
            index = node_inputs.get(node_id)
            if index is not None and type(grad) is Value:
                entries.append(index)
                outputs.append(grad)
        return ("gradients", entries)
    raise CaptureError(
        f"capture: the step returned a {type(value).__name__}; a captured step returns "
        "tensors, numbers, Gradients, and lists, tuples and dicts of them"
    )


def _tensor_spec(tensor) -> tuple:
    grad = tensor.kind.is_autodiff and tensor.primitive.node.requirement is Requirement.Grad
    return (tensor.kind, tensor.context, grad)


def _primitive(tensor):
    return tensor.primitive.primitive if tensor.kind.is_autodiff else tensor.primitive


def _tensor(spec: tuple, primitive):
    kind, context, grad = spec
    if kind.is_autodiff:
        leaf = AutodiffTensor.new(primitive)
        return Tensor(kind, leaf.require_grad() if grad else leaf, context)
    return Tensor(kind, primitive, context)


def _builder(spec):
    """`build(values, arguments)`: the object `spec` describes, from the next outputs; made
    once per recording, so a replay does not interpret the spec again."""
    tag = spec[0]
    if tag == "tensor":
        kind, context, grad = spec[1]
        if not kind.is_autodiff:
            return lambda values, arguments: Tensor(kind, next(values), context)
        if grad:
            return lambda values, arguments: Tensor(
                kind, AutodiffTensor.new(next(values)).require_grad(), context
            )
        return lambda values, arguments: Tensor(kind, AutodiffTensor.new(next(values)), context)
    if tag == "output":
        return lambda values, arguments: next(values)
    if tag == "constant":
        constant = spec[1]
        return lambda values, arguments: constant
    if tag in (list, tuple):
        items = [_builder(item) for item in spec[1]]
        return lambda values, arguments: tag([build(values, arguments) for build in items])
    if tag is dict:
        entries = [(key, _builder(item)) for key, item in spec[1]]
        return lambda values, arguments: {key: build(values, arguments) for key, build in entries}
    indices = spec[1]

    def gradients(values, arguments):
        built = Gradients()
        tensors = arguments.tensors
        for index in indices:
            built.register(tensors[index].primitive.node.id, next(values))
        return built

    return gradients


def _real(value):
    if type(value) is Value:
        return value.data
    if type(value) in (Number, Integer):
        return value.plain
    return value


def _identifier(name: str) -> str:
    name = "".join(c if c.isalnum() else "_" for c in name)
    return name if name.isidentifier() and not name[0].isdigit() else f"step_{name}"
