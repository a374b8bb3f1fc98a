"""Writing a recorded step as one straight-line Python function.

The function takes the step's inputs (tensor primitives and numbers) as parameters and returns
its outputs as a tuple. First the number arithmetic and the guards (a guard that fails returns
None before any kernel ran: the step is recorded again); then the kernels in recorded order,
each a global of the function bound to the inner backend's method, each value named after the op
that made it (`matmul_3`), a comment per line naming the catalogue op or backward rule, and a
`del` once a value's last reader has run. Formatted with black when black is installed, and
registered with linecache so that a traceback through it shows its lines.
"""

import linecache
import math
import re
import types

from burnpy.capture.planning import Place
from burnpy.capture.recorder import EntryKind, Integer, Number, Value, same_values, same_values_of
from burnpy.capture.updates import InPlace

_BINARY = {
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "@",
    "&",
    "|",
    "^",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
}
_PHASES = {
    "forward": "forward",
    "backward": "backward (the rules' kernels, in the order the backward pass ran them)",
    "update": "optimiser update",
}


class Source:
    """A written step: its text, the file name it is registered under, and its function."""

    def __init__(self, text: str, filename: str, function):
        self.text = text
        self.filename = filename
        self.function = function


class _Writer:
    def __init__(self, backends: dict):
        self.backends = backends  # variant -> the real inner backend
        self.namespace: dict = {}
        self.constants: dict = {}  # id -> name, for objects that have no literal
        self.kernels: dict = {}  # (variant, kernel) -> global name

    def kernel(self, variant: str, name: str) -> str:
        key = (variant, name)
        global_name = self.kernels.get(key)
        if global_name is None:
            global_name = name if len(self.backends) == 1 else f"{variant.lower()}_{name}"
            self.namespace[global_name] = getattr(self.backends[variant], name)
            self.kernels[key] = global_name
        return global_name

    def function(self, function) -> str:
        """A library function's global: `numpy_add`, `torch_where`, `numpy_add_at`."""
        name = self.constants.get(id(function))
        if name is None:
            module = (getattr(function, "__module__", None) or "numpy").split(".")[0]
            owner = getattr(function, "__self__", None)  # a ufunc's method: np.add.at
            if isinstance(owner, types.ModuleType):  # a C function's module: np.ascontiguousarray
                owner = None
            parts = [module, getattr(owner, "__name__", None), function.__name__]
            name = "_".join(p for p in parts if isinstance(p, str))
            self.namespace[name] = function
            self.constants[id(function)] = name
        return name

    def constant(self, value) -> str:
        name = self.constants.get(id(value))
        if name is None:
            base = getattr(value, "name", None) if not callable(value) else None
            base = base if isinstance(base, str) and base.isidentifier() else type(value).__name__
            base = "".join(c if c.isalnum() else "_" for c in str(base).lower())
            name = f"{base}_const"
            count = 0
            while name in self.namespace:
                count += 1
                name = f"{base}_const{count}"
            self.namespace[name] = value
            self.constants[id(value)] = name
        return name

    def expr(self, value) -> str:
        kind = type(value)
        if kind is Value or kind is Number or kind is Integer:
            return value.name
        if kind is InPlace:  # decided at each replay (burnpy.capture.updates)
            return value.expression()
        if kind is str and value.isprintable() and '"' not in value and "\\" not in value:
            return f'"{value}"'  # as black quotes it
        if value is None or kind is bool or kind is int or kind is str:
            return repr(value)
        if kind is float:
            return repr(value) if math.isfinite(value) else f'float("{value}")'
        if kind is tuple:
            items = ", ".join(self.expr(v) for v in value)
            return f"({items},)" if len(value) == 1 else f"({items})"
        if kind is list:
            return "[" + ", ".join(self.expr(v) for v in value) + "]"
        if kind is dict:
            return (
                "{" + ", ".join(f"{self.expr(k)}: {self.expr(v)}" for k, v in value.items()) + "}"
            )
        if kind is slice:
            return (
                f"slice({self.expr(value.start)}, {self.expr(value.stop)}, {self.expr(value.step)})"
            )
        if value is Ellipsis:
            return "..."
        return self.constant(value)

    def call_args(self, args, kwargs) -> str:
        parts = [self.expr(a) for a in args]
        parts += [f"{key}={self.expr(v)}" for key, v in kwargs.items()]
        return ", ".join(parts)

    def target(self, out) -> str | None:
        """The left side of an assignment of `out`, or None when it is not assigned; a tuple
        inside a tuple (what a keeping forward returns) is unpacked where it holds a Value."""
        if type(out) is Value:
            return out.name
        if not _holds_value(out):
            return None
        parts = [self.target(v) if _holds_value(v) else "_" for v in out]
        parts = [
            f"({p})" if type(v) in (tuple, list) and p != "_" else p for p, v in zip(parts, out)
        ]
        return ", ".join(parts) + ("," if len(out) == 1 else "")

    def statement(self, entry) -> str:
        kind, target, args = entry.kind, entry.target, entry.args
        if kind is EntryKind.CALL:
            return f"{self.kernel(entry.backend, target)}({self.call_args(args, entry.kwargs)})"
        if kind is EntryKind.FUNCTION:
            return f"{self.function(target)}({self.call_args(args, entry.kwargs)})"
        if (
            kind is EntryKind.FUSED
        ):  # a compiled kernel (burnpy.capture.compiler), outputs in its args
            return f"{target.name}({self.call_args(args, {})})"
        if (
            kind is EntryKind.BUFFER
        ):  # the array a fused kernel writes into (burnpy.capture.planning)
            shape = self.expr(tuple(entry.out.shape))
            if target is Place.NEW:
                return f"empty({shape}, {entry.out.dtype})"
            if target is Place.OWNED:  # an input, when the replay found it owned
                holder, position = args
                return f"{holder.name} if owned[{position}] else empty({shape}, {entry.out.dtype})"
            holder = args[0]
            return (
                holder.name
                if holder.shape == entry.out.shape
                else f"{holder.name}.reshape({shape})"
            )
        if kind is EntryKind.ALIAS:
            return args[0].name
        if kind in (EntryKind.OP, EntryKind.SCALAR):
            return self.operation(target, args)
        if target == "[]=":
            obj, key, value = args
            return f"{obj.name}[{self.expr(key)}] = {self.expr(value)}"
        return f"{args[0].name} {target} {self.expr(args[1])}"  # an augmented assignment

    def operation(self, symbol: str, args) -> str:
        if symbol in _BINARY:
            return f"{self.expr(args[0])} {symbol} {self.expr(args[1])}"
        if symbol == "u-":
            return f"-{self.expr(args[0])}"
        if symbol == "u+":
            return f"+{self.expr(args[0])}"
        if symbol == "~":
            return f"~{self.expr(args[0])}"
        if symbol == "abs":
            return f"abs({self.expr(args[0])})"
        if symbol == "[]":
            return f"{self.expr(args[0])}[{self.expr(args[1])}]"
        if len(args) == 1:  # an attribute (.T)
            return f"{self.expr(args[0])}{symbol}"
        obj, call_args, kwargs = args
        return f"{self.expr(obj)}{symbol}({self.call_args(call_args, kwargs)})"

    def buffers_guard(self, entries: list) -> str:
        """The lines of the guard of the values of several modules' buffers, in one call (each
        buffer once)."""
        checked = {}
        for entry in entries:
            checked.setdefault(entry.args[0].name, entry.args)
        recorded = self.constant([values for _, values in checked.values()])
        self.namespace[same_values_of.__name__] = same_values_of
        call = f"{same_values_of.__name__}({recorded}, {', '.join(checked)})"
        lines = _laid_out(call, 96) or [call]  # (as black lays out `if not call:`)
        lines = [f"if not {lines[0]}", *lines[1:-1], f"{lines[-1]}:", "    return None"]
        return ["    " + line for line in lines]

    def guard(self, entry) -> str:
        symbol, args, outcome = entry.target, entry.args, entry.out
        if symbol in _BINARY:
            test = f"({self.expr(args[0])} {symbol} {self.expr(args[1])})"
        elif symbol == "round":
            test = f"round({self.expr(args[0])}, {self.expr(args[1])})"
        elif callable(symbol):  # a module buffer's values (recorder.same_values)
            test = f"{symbol.__name__}({self.expr(args[0])}, {self.expr(args[1])})"
            self.namespace[symbol.__name__] = symbol
        else:
            test = f"{symbol}({self.expr(args[0])})"
        if type(outcome) is bool:
            return f"if {test} is not {outcome!r}:"
        return f"if {test} != {self.expr(outcome)}:"


def _holds_value(value) -> bool:
    kind = type(value)
    return kind is Value or kind in (tuple, list) and any(_holds_value(v) for v in value)


def _names(value, into: set) -> set:
    kind = type(value)
    if kind is Value or kind is Number or kind is Integer:
        into.add(value.name)
    elif kind in (tuple, list):
        for item in value:
            _names(item, into)
    elif kind is dict:
        for item in value.values():
            _names(item, into)
    return into


def write(
    name: str,
    entries: list,
    inputs: list,
    outputs: list,
    backends: dict,
    filename: str,
    namespace: dict | None = None,
    preamble: tuple[str, ...] = (),
    extra: tuple[str, ...] = (),
) -> Source:
    """The function `name(*inputs) -> tuple(outputs)` of a recording's entries (a Tape's).
    `inputs` are the Values and Numbers bound from the arguments, in order; `outputs` what it
    returns; parameters after the inputs' (`extra`: `owned`, which inputs the replay found
    owned, for the updates in place). A compiled step gives the globals of its kernels
    (`namespace`) and the lines that check its inputs before any kernel runs (`preamble`)."""
    writer = _Writer(backends)
    writer.namespace.update(namespace or {})
    header = f"def {name}({', '.join([*(v.name for v in inputs), *extra])}):"
    lines = [header] if len(header) <= 100 else _header_lines(header)
    numbers = [e for e in entries if e.kind in (EntryKind.SCALAR, EntryKind.GUARD)]
    kernels = [e for e in entries if e.kind not in (EntryKind.SCALAR, EntryKind.GUARD)]
    if numbers:
        lines.append("    # numbers: computed from the inputs; a guard that fails re-records")
    guards = set()
    buffers = [e for e in numbers if e.kind is EntryKind.GUARD and e.target is same_values]
    for entry in numbers:
        if len(buffers) > 1 and entry in buffers:  # (inputs: checked all at once, first)
            if entry is buffers[0]:
                lines += writer.buffers_guard(buffers)
        elif entry.kind is EntryKind.SCALAR:
            lines.append(f"    {entry.out.name} = {writer.operation(entry.target, entry.args)}")
        elif writer.guard(entry) not in guards:  # (each parameter's update asks again)
            guards.add(writer.guard(entry))
            lines.append(f"    {writer.guard(entry)}")
            lines.append("        return None")
    lines += ["    " + line for line in preamble]  # (laid out by the caller)
    # The reads of every kernel line, to release each intermediate after its last reader.
    kept = {v.name for v in inputs} | _names(outputs, set()) | set(writer.namespace)  # (globals)
    kept |= {e.out.name for e in numbers if e.kind is EntryKind.SCALAR}  # numbers cost nothing held
    last: dict[str, int] = {}
    for index, entry in enumerate(kernels):
        for used in _names((entry.args, entry.kwargs), set()) | _names(entry.out, set()):
            last[used] = index
    releases: dict[int, list] = {}
    for value, index in last.items():
        if value not in kept:
            releases.setdefault(index, []).append(value)
    phase = None
    for index, entry in enumerate(kernels):
        if entry.phase != phase:
            phase = entry.phase
            lines.append(f"    # -- {_PHASES.get(phase, phase)}")
        statement = writer.statement(entry)
        assigns = entry.kind in (
            EntryKind.CALL,
            EntryKind.OP,
            EntryKind.FUNCTION,
            EntryKind.BUFFER,
            EntryKind.ALIAS,
        )
        target = writer.target(entry.out) if assigns else None
        code = f"{target} = {statement}" if target else statement
        label = entry.label or (entry.target if entry.kind is EntryKind.CALL else None)
        lines.append(_line(f"{code}  # {label}" if label else code))
        if index in releases:
            lines.append(f"    del {', '.join(sorted(releases[index]))}")
    returned = [writer.expr(v) for v in outputs]
    lines.append(
        _line(
            f"return ({returned[0]},)" if len(returned) == 1 else f"return ({', '.join(returned)})"
        )
    )
    text = "\n".join(lines) + "\n"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    namespace = dict(writer.namespace)
    exec(compile(text, filename, "exec"), namespace)
    return Source(text, filename, namespace[name])


def _line(statement: str) -> str:
    """One statement of the body, indented; laid out as black lays it out when it is over 100
    columns (the others are already as black writes them, and black on a whole step takes
    seconds): the writer's usual statements by `_laid_out`, anything else by black itself."""
    if len(statement) + 4 <= 100:
        return "    " + statement
    lines = _laid_out(statement, 96)
    if lines is None:
        lines = _format(statement, 96)
    return "\n".join("    " + line for line in lines)


_NAMES = re.compile(r"[A-Za-z_]\w*(, [A-Za-z_]\w*)*")
_CALLEE = re.compile(r"[A-Za-z_]\w*\(")


def _header_lines(header: str) -> list[str]:
    """`def name(parameters):` laid out as black lays it out (as a call: `_laid_out`)."""
    lines = _laid_out(header[len("def ") : -1], 100)
    if lines is None or len(lines[0]) + len("def ") > 100:
        return _format(header + "\n    pass", 100)[:-1]
    return ["def " + lines[0], *lines[1:-1], lines[-1] + ":"]


def _laid_out(statement: str, width: int) -> list[str] | None:
    """The writer's usual statements laid out within `width` as black lays them out:
    `targets = kernel(arguments)  # label` (the arguments on a line of their own, else one per
    line with a trailing comma), `targets = a if owned[0] else b  # label` (the expression in
    parentheses on a line of its own) and `return (a, b, ...)` (one per line); None for any
    other statement, or one black would split otherwise (an argument too long for its line, a
    trailing comma already there, an unpacking)."""
    code, comment = _split_comment(statement)
    if code is None:
        return None
    if code.startswith("return (") and code.endswith(")"):
        items = _top_level(code[len("return (") : -1])
        if not items or comment or any(len(a) + 5 > width for a in items):
            return None
        return ["return (", *(f"    {a}," for a in items), ")"]
    targets, equals, call = code.partition(" = ") if " = " in code else ("", "", code)
    if targets and not _NAMES.fullmatch(targets):
        return None
    if equals and " if " in call and not _CALLEE.match(call) and not call.startswith("("):
        parts = _top_level(call)  # (a conditional expression: black keeps its parentheses)
        if parts != [call] or len(call) + 4 > width or len(targets) + 4 > width:
            return None
        return [f"{targets} = (", "    " + call, ")" + comment]
    if not _CALLEE.match(call):
        return None
    opened = call.index("(")
    arguments = _top_level(call[opened + 1 : -1]) if call.endswith(")") else None
    if not arguments or any(a.startswith("*") or not a for a in arguments):
        return None
    head, tail = f"{targets}{equals}{call[: opened + 1]}", ")" + comment
    body = ", ".join(arguments)
    if len(head) > width:
        return None
    if len(body) + 4 <= width:
        return [head, "    " + body, tail]
    if len(arguments) < 2 or any(len(a) + 5 > width for a in arguments):
        return None
    return [head, *(f"    {a}," for a in arguments), tail]


def _split_comment(statement: str) -> tuple[str | None, str]:
    """(the code, its trailing comment with the two spaces before it, or ""); the code is None
    where it has a string black would write otherwise (single quotes) or `_top_level` does not
    follow (an escape)."""
    quote = False
    for index, char in enumerate(statement):
        if char in "'\\":
            return None, ""
        if char == '"':
            quote = not quote
        elif char == "#" and not quote:
            if statement[index - 2 : index] != "  ":
                return None, ""
            return statement[: index - 2], statement[index - 2 :]
    return statement, ""


def _top_level(text: str) -> list[str] | None:
    """The comma-separated items of `text` outside its brackets and strings, or None where a
    bracket does not close where it opened, or a comma ends a bracket (black's "magic trailing
    comma" explodes those) other than a one-element tuple's, `(128,)`."""
    items, opened, quote, start, last = [], [], False, 0, ""
    for index, char in enumerate(text):
        if char == '"':
            quote = not quote
        elif quote:
            continue
        elif char in "([{":
            opened.append([char, 0])  # the bracket and the commas in it
        elif char in ")]}":
            if not opened:
                return None
            bracket, commas = opened.pop()
            if last == "," and not (bracket == "(" and commas == 1):
                return None
        elif char == ",":
            if opened:
                opened[-1][1] += 1
            else:
                items.append(text[start:index].strip())
                start = index + 1
        if not char.isspace():
            last = char
    if opened or last == ",":
        return None
    return [*items, text[start:].strip()]


def _format(text: str, width: int) -> list[str]:
    try:
        import black
    except ImportError:  # black is a development tool, not a dependency: the text stays as is
        return text.splitlines()
    return black.format_str(text, mode=black.Mode(line_length=width)).splitlines()
