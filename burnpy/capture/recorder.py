"""Recording a step: its first run, with every inner-backend kernel call written on a tape.

While a step is recorded each backend it uses is substituted (`BACKENDS.substitute`) by a
`RecordingBackend` over the real one. Every primitive the step sees is a `Value`: the backend's
array, wrapped, so the data flow between calls is explicit (no guessing by identity) and what the
runtime does to primitives outside kernels (a backward rule's `g * rhs`, the gradient sums of the
backward pass) is recorded too, as Python operators. Every number the step takes (its float and
int arguments, the optimiser's rates and state) is a `Number`: a float whose arithmetic is
recorded, so a learning rate that changes every step is an input of the generated code, not a
constant; a branch on a number (`if lr > 0`, `int(x)`) becomes a guard, checked before a replay.
An int is an `Integer`, whose every use as an int (a size, an index, `range(n)`) is a guard.

Each Value knows what its data depends on (`roots`): a value computed from constants and
shapes only (`x.shape` as a tensor, the Gather, Concat and arithmetic on it) is the same at
every replay with the recording's signature (which holds every input's shape), so reading it
(`to_numpy()`, `int(t)`: a shape computed at run time) is allowed and its value becomes a
constant of the recording; an int or bool buffer of a module passed in (an imported model's
constants) may take part too, its values then guarded before each replay. What cannot be replayed
raises CaptureError: reading a value that depends on the data (an argument's values, a float
number, a random draw) and the ops whose result shape depends on the data.
"""

import keyword
import operator
import sys
from enum import Enum

import numpy as np

from burnpy.generated.catalogue import AUTODIFF_OPS
from burnpy.generated.inner import DATA_DEPENDENT
from burnpy.runtime.activity import ACTIVITY
from burnpy.runtime.extension import Extension

# The forward an op that keeps values for its backward runs when it is recorded: its op's.
KEEPING_FORWARDS = {f"{op.name}_keeping": op.name for op in AUTODIFF_OPS if op.keeps}
# What a backend answers about a primitive without computing: constants of the recording.
QUERIES = {"dtype", "device_of", "native_device", "native_dtype"}
_PREFIXES = ("float_", "int_", "bool_")
# A Value's `roots` when its data may differ from replay to replay.
VARIES = None
# Kernels that write into their first argument.
WRITES_FIRST = {"index_update"}


class CaptureError(RuntimeError):
    """A step does something a recording cannot replay: it reads a value, or runs an op whose
    result shape depends on the data. `capture(fn, fallback=True)` runs such a step eagerly."""


def _array_types() -> tuple:
    types = [np.ndarray, np.generic]
    torch = sys.modules.get("torch")
    if torch is not None:
        types.append(torch.Tensor)
    return tuple(types)


class EntryKind(Enum):
    """What a line of the tape is, and so what its `target` is."""

    CALL = "call"  # a backend kernel: target its name
    OP = "op"  # a Python operator or an array method on Values: target its symbol
    FUNCTION = "function"  # a library function (numpy's, torch's), a package's kernel
    INPLACE = "inplace"  # an augmented or item assignment: target `+=`, `[]=`, ...
    SCALAR = "scalar"  # number arithmetic: target its symbol
    GUARD = "guard"  # a branch on numbers (target its symbol) or a check of an input's values
    # the compiler's (burnpy.capture.compiler)
    FUSED = "fused"  # a fused C kernel: target its burnpy.capture.fusion.Fused call
    BUFFER = "buffer"  # the array a fused kernel writes into: target its planning.Place
    ALIAS = "alias"  # a value that is another's array itself: target None


class Entry:
    """One line of the tape: its kind, target and arguments (see EntryKind); `out` is the
    result's structure (Values, or constants), `label` the catalogue op or rule, `phase`
    forward / backward / update, `backend` the variant of a kernel's backend."""

    __slots__ = ("kind", "target", "args", "kwargs", "out", "label", "phase", "backend")

    def __init__(self, kind, target, args, kwargs, out, label, phase, backend=None):
        self.kind = kind
        self.target = target
        self.args = args
        self.kwargs = kwargs
        self.out = out
        self.label = label
        self.phase = phase
        self.backend = backend


class Tape:
    """The calls of one recording, in order, and the values that flow between them."""

    def __init__(self):
        self.entries: list[Entry] = []
        self.counts: dict[str, int] = {}
        self.array_types = _array_types()
        self.keep = []  # every real result, alive until the tape is dropped
        self.reserved: set[str] = set()  # the inputs' names, bound before any other
        self.closed = False  # the recording is over: Values that escaped it are plain arrays
        self.guarded: set[str] = set()  # the inputs whose values a replay checks (read_value)

    # -- names ---------------------------------------------------------------------------------
    def name(self, base: str) -> str:
        while True:
            count = self.counts.get(base, 0)
            self.counts[base] = count + 1
            name = f"{base}_{count}"
            if name not in self.reserved:
                return name

    def input_name(self, name: str) -> str:
        name = "".join(c if c.isalnum() else "_" for c in name)
        if not name.isidentifier() or keyword.iskeyword(name):
            name = f"arg_{name}"
        while name in self.reserved:
            name += "_"
        self.reserved.add(name)
        return name

    def bind(self, data, name: str, constant: bool = False) -> "Value":
        """The Value of an input array, named after its argument; `constant`: a module's int
        or bool buffer, whose values a shape may depend on (guarded when read)."""
        self.keep.append(data)
        value = Value(data, self, self.input_name(name), VARIES)
        if constant:
            value.roots = frozenset((value,))
        return value

    def reserve(self, plain, name: str) -> "Number":
        """The Number (an Integer for an int) of an input number, named after its argument."""
        return _traced(plain)(plain, self, self.input_name(name))

    def value(self, data, base: str, roots=VARIES) -> "Value":
        self.keep.append(data)
        return Value(data, self, self.name(base), roots)

    def number(self, plain, base: str) -> "Number":
        return _traced(plain)(plain, self, self.name(base))

    # -- wrapping ------------------------------------------------------------------------------
    def wrap(self, result, base: str, roots=VARIES):
        """A call's result with every array in it a new Value depending on `roots`."""
        if isinstance(result, self.array_types):
            return self.value(result, base, roots)
        if type(result) in (tuple, list):
            return type(result)(self.wrap(item, base, roots) for item in result)
        return result

    # -- what a value depends on -----------------------------------------------------------------
    def read_value(self, value: "Value", what: str) -> None:
        """Allow `what` to read `value` while the step is recorded, as a constant of the
        recording: when it depends only on shapes and constants (the signature fixes them), or
        also on modules' int and bool buffers, whose values each replay then checks first.
        Anything else raises CaptureError."""
        if value.roots is VARIES:
            made = self.producer(value)
            raise CaptureError(_reads(what, made or f"the step's input {value.name}"))
        for root in value.roots:
            if root.name not in self.guarded:
                self.guarded.add(root.name)
                recorded = _host_bytes(root.data)
                self.entries.append(
                    Entry(EntryKind.GUARD, same_values, (root, recorded), {}, True, None, "numbers")
                )

    # -- recording -----------------------------------------------------------------------------
    def kernel(self, backend, name: str, kernel, args, kwargs):
        if name in DATA_DEPENDENT:
            raise _data_dependent(name)
        if name == "to_numpy":  # a constant of the recording, or refused
            self.read_value(args[0], ACTIVITY.user_call or "to_numpy()")
            return kernel(*unwrap(args), **unwrap(kwargs))
        args, kwargs = self.resolve(args), self.resolve(kwargs)
        result = kernel(*unwrap(args), **unwrap(kwargs))
        if name in QUERIES:
            return result
        base = _base(name)
        roots = VARIES if "random" in name else _roots((args, kwargs))
        if name in WRITES_FIRST:  # its target holds what was written into it too
            args[0].roots = roots
        elif kwargs.get("in_place"):  # an optimiser's update writes into its state
            for value in _values((args, kwargs)):
                value.roots = roots
        out = self.wrap(result, base, roots)
        if isinstance(out, (bool, int, float)):  # a kernel that answers with a value
            if roots is VARIES:
                raise CaptureError(_reads(f"{name}()", self.producer(args[0]) if args else None))
            for value in _values((args, kwargs)):
                self.read_value(value, f"{name}()")
            return out
        label = ACTIVITY.origin or KEEPING_FORWARDS.get(name, name)
        self.entries.append(
            Entry(
                EntryKind.CALL,
                name,
                args,
                kwargs,
                out,
                label,
                ACTIVITY.phase.value,
                backend.variant,
            )
        )
        return out

    def operation(self, symbol: str, args, result, base: str):
        if self.closed:
            return result
        args = self.resolve(args)
        out = self.wrap(result, base, _roots(args))
        self.entries.append(Entry(EntryKind.OP, symbol, args, {}, out, *_told()))
        return out

    def function(self, function, args, kwargs, base: str, label: str | None = None):
        """A library function (numpy's, torch's) called on recorded values; `label`: the op
        it runs for, when the runtime does not tell (a package's kernel in its forward)."""
        if self.closed:
            return function(*unwrap(args), **unwrap(kwargs))
        args, kwargs = self.resolve(args), self.resolve(kwargs)
        result = function(*unwrap(args), **unwrap(kwargs))
        roots = _roots((args, kwargs))
        for value in _values(kwargs.get("out")):  # a ufunc writing into a recorded value
            value.roots = roots
        out = self.wrap(result, base.strip("_") or "call", roots)
        told, phase = _told()
        self.entries.append(
            Entry(EntryKind.FUNCTION, function, args, kwargs, out, told or label, phase)
        )
        return out

    def producer(self, value) -> str | None:
        """What made `value`: the label of the tape entry whose result it is."""
        for entry in reversed(self.entries):
            out = entry.out
            if any(v is value for v in _values(out)):
                return entry.label or entry.target
        return None

    def inplace(self, symbol: str, args):
        if self.closed:
            return
        args = self.resolve(args)
        target = args[0]
        target.roots = _roots(args)  # what it held, and what was written into it
        self.entries.append(Entry(EntryKind.INPLACE, symbol, args, {}, None, *_told()))

    def scalar(self, symbol: str, args, plain):
        out = self.number(plain, _SCALAR_NAMES.get(symbol, "number"))
        self.entries.append(Entry(EntryKind.SCALAR, symbol, args, {}, out, None, "numbers"))
        return out

    def guard(self, symbol: str, args, outcome):
        self.entries.append(Entry(EntryKind.GUARD, symbol, args, {}, outcome, None, "numbers"))
        return outcome

    def resolve(self, value):
        """`value` with each Integer in it guarded and replaced by its int. An Integer that
        reaches an array (a kernel's argument, an operator on a Value) is an int-only use: a
        size, a dim, an index (a scalar operand reaches a kernel as a float Number, converted
        by `burnpy.runtime.arguments.as_float`)."""
        kind = type(value)
        if kind is Integer:
            return self.guard("int", (value,), value.plain)
        if kind in (tuple, list):
            return kind(self.resolve(item) for item in value)
        if kind is dict:
            return {key: self.resolve(item) for key, item in value.items()}
        if kind is slice:
            return slice(*(self.resolve(v) for v in (value.start, value.stop, value.step)))
        return value


def _base(kernel: str) -> str:
    for prefix in _PREFIXES:
        if kernel.startswith(prefix):
            return kernel[len(prefix) :]
    return kernel


def _roots(args):
    """What a result computed from `args` depends on: the union of their Values' roots;
    VARIES when one of them varies or a float number (an input of the function) is among
    them."""
    roots = frozenset()
    for item in _leaves(args):
        if type(item) is not Value or item.roots is VARIES:  # a float number is an input
            return VARIES
        roots |= item.roots
    return roots


def _leaves(value):
    """The Values and Numbers inside a call's arguments."""
    kind = type(value)
    if kind is Value or kind is Number or kind is Integer:
        yield value
    elif kind in (tuple, list):
        for item in value:
            yield from _leaves(item)
    elif kind is dict:
        for item in value.values():
            yield from _leaves(item)
    elif kind is slice:
        yield from _leaves((value.start, value.stop, value.step))


def _host_bytes(array) -> bytes:
    """An array's values as bytes in C order, read on the host (a numpy array, a torch tensor
    on any device)."""
    if type(array) is not np.ndarray and not isinstance(array, np.generic):
        array = array.numpy() if array.is_cpu else array.cpu().numpy()  # (a backend's: no grad)
    return array.tobytes()


def same_values(array, recorded: bytes) -> bool:
    """Whether `array` holds the values it held when it was recorded (its shape and dtype are
    the signature's): the guard of a module's buffer that a shape was computed from."""
    if type(array) is np.ndarray:
        return array.tobytes() == recorded
    return _host_bytes(array) == recorded


_TO_BYTES = np.ndarray.tobytes


def same_values_of(recorded: list, *arrays) -> bool:
    """`same_values` of each array and its recorded bytes: numpy arrays' bytes read in one C
    loop (a replay of an imported model checks dozens of buffers)."""
    try:
        return list(map(_TO_BYTES, arrays)) == recorded
    except TypeError:  # a torch tensor among them
        return all(map(same_values, arrays, recorded))


def _values(value):
    """The Values inside a call's arguments."""
    kind = type(value)
    if kind is Value:
        yield value
    elif kind in (tuple, list):
        for item in value:
            yield from _values(item)
    elif kind is dict:
        for item in value.values():
            yield from _values(item)


def unwrap(value):
    """The real arrays and numbers inside a call's arguments."""
    kind = type(value)
    if kind is Value:
        return value.data
    if kind is Number or kind is Integer:
        return value.plain
    if kind in (tuple, list):
        return kind(unwrap(item) for item in value)
    if kind is dict:
        return {key: unwrap(item) for key, item in value.items()}
    return value


def _told() -> tuple:
    """(label, phase) of what runs outside kernels now, as the runtime tells it
    (runtime.activity): a rule's step, the gradient sums; None in an op's forward."""
    return ACTIVITY.origin, ACTIVITY.phase.value


def _reads(what: str, producer: str | None = None) -> str:
    of = ""
    if producer:
        of = f" ({producer})" if producer.startswith("the ") else f" (the output of {producer})"
    return (
        f"{what} reads a tensor's value{of} while the step is recorded, but a replay runs no "
        f"Python between its kernels, and this value depends on the data (an argument's "
        f"values, a float number or a random draw), not only on shapes and constants; return "
        f"the tensor from the step and read it afterwards, or use capture(fn, fallback=True) "
        f"to run such a step eagerly"
    )


def constants_dropped(entries: list, outputs: list) -> list:
    """`entries` without the calls that computed, from shapes and constants only, values that
    nothing after them reads nor the step returns: what was left of a shape read while the
    step was recorded (it is a constant of the recording now), which a replay need not compute
    again. Calls that may write into their arguments stay."""
    read = {id(value) for value in _values(outputs)}
    kept = []
    for entry in reversed(entries):
        made = list(_values(entry.out))
        constant = (
            entry.kind in (EntryKind.CALL, EntryKind.OP)
            and made
            and all(value.roots is not VARIES for value in made)
            and not entry.kwargs.get("in_place")
            and not (entry.kind is EntryKind.OP and entry.target.endswith("_"))  # torch's `add_`
        )
        if constant and not any(id(value) in read for value in made):
            continue
        kept.append(entry)
        read.update(id(value) for value in _values((entry.args, entry.kwargs)))
    kept.reverse()
    return kept


class RecordingBackend:
    """The inner backend as a recorded step sees it: every kernel call goes on the tape."""

    def __init__(self, inner, tape: Tape):
        self._inner = inner
        self._tape = tape
        self.variant = inner.variant
        self.name = inner.name

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr
        tape, inner = self._tape, self._inner

        def kernel(*args, **kwargs):
            return tape.kernel(inner, name, attr, args, kwargs)

        setattr(self, name, kernel)  # later lookups of this kernel find it directly
        return kernel

    def extended(self, kernels: type) -> "RecordingExtension":
        """A package's kernels (burnpy.runtime.extension) as a recorded step sees them."""
        return RecordingExtension(kernels(self._inner), self)


def _data_dependent(name: str) -> CaptureError:
    called = ACTIVITY.user_call or f"{_base(name)}()"
    return CaptureError(
        f"{called} runs {name}, which makes a result whose shape depends on the values, so a "
        "replay could not reuse what follows; compute it outside the captured step, or use "
        "capture(fn, fallback=True) to run such a step eagerly"
    )


class RecordingExtension:
    """A package's kernels while a step is recorded: each of its own kernels is one call on the
    tape (replayed as that call, on the real arrays); what they take of the backend (a rule's
    `B.float_mul`) is the recording backend's."""

    def __init__(self, extension, recording: RecordingBackend):
        self._extension = extension
        self._recording = recording
        self._own = {n for n in dir(type(extension)) if not n.startswith("_")} - set(dir(Extension))
        self.variant = extension.variant
        self.name = extension.name
        self.xp = extension.xp

    def __getattr__(self, name):
        if name not in self._own:
            return getattr(self._recording, name)
        if name in self._extension.data_dependent:
            raise _data_dependent(name)
        attr, tape = getattr(self._extension, name), self._recording._tape

        def kernel(*args, **kwargs):
            return tape.function(attr, args, kwargs, name, label=name)

        setattr(self, name, kernel)  # later lookups of this kernel find it directly
        return kernel


class Value:
    """A primitive while a step is recorded: the real array (`data`) and its name on the tape.
    Operators and array methods on it run on the array and are recorded."""

    __slots__ = ("data", "tape", "name", "roots")

    def __init__(self, data, tape: Tape, name: str, roots=VARIES):
        self.data = data
        self.tape = tape
        self.name = name
        # VARIES, or the inputs (modules' int and bool buffers) it was computed from, besides
        # shapes and constants: what reading it makes the recording depend on
        self.roots = roots

    # plain facts about the array: constants of the recording (shapes specialise)
    @property
    def shape(self):
        return self.data.shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    def __len__(self):
        return len(self.data)

    def __getattr__(self, name):
        if self.tape.closed:  # kept after its recording (a memo): the array itself
            return getattr(self.data, name)
        if name.startswith("__"):
            # numpy and torch probe protocols (__array_interface__, ...) by attribute: answering
            # them would hand over the data unrecorded; without them they call __array__
            if name.startswith("__dlpack"):
                raise CaptureError(_reads("exporting a tensor through DLPack"))
            raise AttributeError(name)
        attr = getattr(self.data, name)
        if callable(attr):
            return lambda *args, **kwargs: self._method(name, attr, args, kwargs)
        if isinstance(attr, self.tape.array_types):  # .T, .mT
            return self.tape.operation("." + name, (self,), attr, name.strip("_") or "attr")
        return attr

    def _method(self, name, method, args, kwargs):
        if name in ("item", "tolist", "numpy", "cpu"):
            self.tape.read_value(self, f"{name}()")
            return method(*unwrap(args), **unwrap(kwargs))
        result = method(*unwrap(args), **unwrap(kwargs))
        entry_args = (self, args, kwargs)
        if result is None or name.endswith("_"):  # a method writing into the array
            self.roots = _roots(self.tape.resolve(entry_args))
        return self.tape.operation("." + name, entry_args, result, name)

    def __getitem__(self, key):
        return self.tape.operation("[]", (self, key), self.data[unwrap(key)], "item")

    def __setitem__(self, key, value):
        self.data[unwrap(key)] = unwrap(value)
        self.tape.inplace("[]=", (self, key, value))

    # numpy's and torch's functions called on a Value (outside kernels): recorded as calls
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        function = ufunc if method == "__call__" else getattr(ufunc, method)
        return self.tape.function(function, inputs, kwargs, ufunc.__name__)

    def __array_function__(self, function, types, args, kwargs):
        return self.tape.function(function, args, kwargs, function.__name__)

    @classmethod
    def __torch_function__(cls, function, types, args=(), kwargs=None):
        tape = next(_values(args)).tape
        return tape.function(function, args, kwargs or {}, getattr(function, "__name__", "call"))

    # reading values: refused while the step is recorded; a Value kept after its recording
    # (the tape closed) reads its array
    def __iter__(self):
        if not self.tape.closed:
            self.tape.read_value(self, "iterating over a tensor")
        return iter(self.data)

    def __array__(self, dtype=None, copy=None):
        if not self.tape.closed:
            self.tape.read_value(self, "converting a tensor to numpy")
        return np.asarray(self.data, dtype=dtype)

    def __bool__(self):
        if not self.tape.closed:
            self.tape.read_value(self, "bool(tensor)")
        return bool(self.data)

    def __float__(self):
        if not self.tape.closed:
            self.tape.read_value(self, "float(tensor)")
        return float(self.data)

    def __int__(self):
        if not self.tape.closed:
            self.tape.read_value(self, "int(tensor)")
        return int(self.data)

    __index__ = __int__

    def __repr__(self):
        return f"Value({self.name}, shape={tuple(self.shape)}, dtype={self.dtype})"


_OPERATORS = {
    "+": ("add", operator.add),
    "-": ("sub", operator.sub),
    "*": ("mul", operator.mul),
    "/": ("div", operator.truediv),
    "//": ("floordiv", operator.floordiv),
    "%": ("mod", operator.mod),
    "**": ("pow", operator.pow),
    "@": ("matmul", operator.matmul),
    "&": ("and", operator.and_),
    "|": ("or", operator.or_),
    "^": ("xor", operator.xor),
    "<": ("lt", operator.lt),
    "<=": ("le", operator.le),
    ">": ("gt", operator.gt),
    ">=": ("ge", operator.ge),
    "==": ("eq", operator.eq),
    "!=": ("ne", operator.ne),
}
_DUNDERS = {
    "+": "add",
    "-": "sub",
    "*": "mul",
    "/": "truediv",
    "//": "floordiv",
    "%": "mod",
    "**": "pow",
    "@": "matmul",
    "&": "and",
    "|": "or",
    "^": "xor",
}
_COMPARISONS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
_UNARY = {
    "neg": ("u-", operator.neg, "neg"),
    "pos": ("u+", operator.pos, "pos"),
    "invert": ("~", operator.invert, "invert"),
    "abs": ("abs", abs, "abs"),
}
_SCALAR_NAMES = {symbol: base for symbol, (base, _) in _OPERATORS.items()}
_SCALAR_NAMES.update({"u-": "neg", "abs": "abs"})


def _value_binary(symbol, reflected):
    base, fn = _OPERATORS[symbol]

    def method(self, other):
        a, b = (other, self) if reflected else (self, other)
        return self.tape.operation(symbol, (a, b), fn(unwrap(a), unwrap(b)), base)

    return method


def _value_inplace(symbol):
    _, fn = _OPERATORS[symbol]
    in_place = getattr(operator, "i" + fn.__name__.strip("_"))

    def method(self, other):
        result = in_place(self.data, unwrap(other))
        if result is self.data:
            self.tape.inplace(symbol + "=", (self, other))
            return self
        return self.tape.operation(symbol, (self, other), result, _OPERATORS[symbol][0])

    return method


def _value_unary(symbol, fn, base):
    def method(self):
        return self.tape.operation(symbol, (self,), fn(self.data), base)

    return method


for _symbol, _dunder in _DUNDERS.items():
    setattr(Value, f"__{_dunder}__", _value_binary(_symbol, False))
    setattr(Value, f"__r{_dunder}__", _value_binary(_symbol, True))
    setattr(Value, f"__i{_dunder}__", _value_inplace(_symbol))
for _symbol, _dunder in _COMPARISONS.items():
    setattr(Value, f"__{_dunder}__", _value_binary(_symbol, False))
for _name, (_symbol, _fn, _stem) in _UNARY.items():
    setattr(Value, f"__{_name}__", _value_unary(_symbol, _fn, _stem))
Value.__hash__ = object.__hash__


class Number(float):
    """A number the step takes (a float argument, an optimiser's rate) while it is recorded:
    its arithmetic goes on the tape as scalar lines, so the replay computes it from the inputs
    again; a comparison or a conversion (`if lr > 0`, `int(n)`) becomes a guard. `plain` is the
    value as eager Python would hold it (an Integer's is an int)."""

    __slots__ = ("plain", "tape", "name")

    def __new__(cls, plain, tape: Tape, name: str):
        number = super().__new__(cls, plain)
        number.plain = plain
        number.tape = tape
        number.name = name
        return number

    def __repr__(self):
        return repr(self.plain)

    __str__ = __repr__

    def __format__(self, spec):
        return format(self.plain, spec)

    __hash__ = float.__hash__

    def __bool__(self):
        return self.tape.guard("bool", (self,), bool(self.plain))

    def __int__(self):
        return self.tape.guard("int", (self,), int(self.plain))

    def __float__(self):
        return self.tape.guard("float", (self,), float(self.plain))

    def __round__(self, ndigits=None):
        return self.tape.guard("round", (self, ndigits), round(self.plain, ndigits))

    def __neg__(self):
        return self.tape.scalar("u-", (self,), -self.plain)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.tape.scalar("abs", (self,), abs(self.plain))


class Integer(Number):
    """An int the step takes (an int argument, an optimiser's step count) while it is recorded:
    a Number whose value is an int. Its arithmetic is recorded; every use as an int — `__index__`
    (`range(n)`, a slice of a list), `int(n)`, a size, dim or index reaching a kernel — is a guard
    on its value, so another value records again. It is a float to `isinstance`, so an int-only
    argument check sees it only through `__index__` (`burnpy.runtime.arguments.is_int`)."""

    __slots__ = ()

    def __index__(self):
        return self.tape.guard("int", (self,), self.plain)


def _traced(plain) -> type:
    return Integer if type(plain) is int else Number


_NUMBER_TYPES = (int, float, bool, Number, Integer)


def _number_binary(symbol, reflected):
    _, fn = _OPERATORS[symbol]

    def method(self, other):
        if type(other) not in _NUMBER_TYPES:
            return NotImplemented
        if symbol == "*" and type(other) is float and other == 1.0 and type(self) is Number:
            return self  # a float times 1.0 is itself: `as_float`'s conversion adds no line
        a, b = (other, self) if reflected else (self, other)
        return self.tape.scalar(symbol, (a, b), fn(unwrap(a), unwrap(b)))

    return method


def _number_comparison(symbol):
    _, fn = _OPERATORS[symbol]

    def method(self, other):
        if type(other) not in _NUMBER_TYPES:
            return NotImplemented
        return self.tape.guard(symbol, (self, other), fn(self.plain, unwrap(other)))

    return method


for _symbol in ("+", "-", "*", "/", "//", "%", "**"):
    _dunder = _DUNDERS[_symbol]
    setattr(Number, f"__{_dunder}__", _number_binary(_symbol, False))
    setattr(Number, f"__r{_dunder}__", _number_binary(_symbol, True))
for _symbol, _dunder in _COMPARISONS.items():
    setattr(Number, f"__{_dunder}__", _number_comparison(_symbol))
Number.__hash__ = Integer.__hash__ = float.__hash__
