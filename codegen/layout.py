"""Black's layout of the statements the templates write most, computed without black: an
assignment, a `return` or a call whose value is made of calls, literals, names and attributes
(a catalogue declaration, the exporter's table of lowerings), and a function's header.

For these black's rules are few. A line that fits stays. Otherwise it breaks after its last
opening bracket: the contents go one indent deeper and the closing bracket gets a line of its
own. A literal's contents (a tuple, list, set or dict of two items or more) then take a line
per item, each with a trailing comma; a call's arguments stay on one line where they fit
there, else take a line per argument the same way; a lone item that does not fit breaks the
same way itself. A header's parameters go on the next line where they fit there (a lone one
with a trailing comma), else one per line, `**kwargs` with a trailing comma too: the
generator's black targets Python 3.11.

Anything else answers None, and black formats the statement: an operator, a comment, a string
black would quote otherwise, a trailing comma or parentheses black would treat otherwise, a
line that must break before its last bracket. A test compares the two on each shape handled.
"""

import ast
import dataclasses
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Leaf:
    """What never breaks: a name, a dotted name, a number, a string."""

    text: str


@dataclass(frozen=True)
class Item:
    prefix: str  # "", a keyword's `name=`, a dict entry's `"key": `
    node: "Leaf | Brackets"


@dataclass(frozen=True)
class Brackets:
    """A call (`head` its function) or a literal, with its items."""

    head: str
    open: str
    close: str
    items: tuple[Item, ...]
    literal: bool
    one_tuple: bool = False
    bare: bool = False  # a statement's tuple without parentheses, until it breaks


class _Unsupported(Exception):
    """A statement black lays out by rules this module does not follow."""


def statement(text: str, width: int) -> str | None:
    """`text`, one statement at no indent, as black lays it out at `width`; None where black's
    rules for it are not the ones this follows."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) != 1:
        return None
    try:
        prefix, value = _head(tree.body[0])
        node = _node(value)
    except _Unsupported:
        return None
    if _bare(value):
        node = dataclasses.replace(node, bare=True)
    if not _same(text, prefix + _flat(node)):
        return None  # a comment, a trailing comma, parentheses or quotes black would keep
    lines = _lines(prefix, node, "", 0, width)
    return None if lines is None else "\n".join(lines)


def header(text: str, width: int) -> str | None:
    """A function's header, `text` (its decorators and its `def` line, at no indent), as black
    lays it out at `width`: the line that fits, else its parameters on the next line, else
    one per line. None where black's rules for it are not the ones this follows."""
    try:
        tree = ast.parse(text + "\n    pass")
    except SyntaxError:
        return None
    function = tree.body[0]
    if len(tree.body) != 1 or type(function) is not ast.FunctionDef:
        return None
    try:
        decorators = [f"@{_dotted(d)}" for d in function.decorator_list]
        parameters = _parameters(function.args)
        returns = "" if function.returns is None else f" -> {_annotation(function.returns)}"
    except _Unsupported:
        return None
    head, tail = f"def {function.name}(", f"){returns}:"
    flat = [*decorators, head + ", ".join(parameters) + tail]
    if not _same(text, "\n".join(flat)):
        return None
    if all(len(line) <= width for line in flat):
        return "\n".join(flat)
    # a lone parameter gets a trailing comma when it breaks; several on one line do not
    one_line = "    " + ", ".join(parameters) + ("," if len(parameters) == 1 else "")
    body = [one_line] if len(one_line) <= width else [f"    {p}," for p in parameters]
    lines = [*decorators, head, *body, tail]
    return "\n".join(lines) if parameters and all(len(line) <= width for line in lines) else None


def _parameters(arguments: ast.arguments) -> list[str]:
    if arguments.posonlyargs:
        raise _Unsupported
    positional = arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    found = [_parameter(a, d) for a, d in zip(positional, defaults)]
    if arguments.vararg is not None:
        found.append("*" + _parameter(arguments.vararg, None))
    elif arguments.kwonlyargs:
        found.append("*")
    found += [_parameter(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg is not None:
        found.append("**" + _parameter(arguments.kwarg, None))
    return found


def _parameter(argument: ast.arg, default: ast.expr | None) -> str:
    """black's spacing: `name: T = value`, `name=value`."""
    text = argument.arg
    if argument.annotation is not None:
        text += ": " + _annotation(argument.annotation)
    if default is not None:
        node = _node(default)
        if type(node) is not Leaf:
            raise _Unsupported
        text += (" = " if argument.annotation is not None else "=") + node.text
    return text


def _annotation(node: ast.expr) -> str:
    """A type, as unparse writes it and black spaces it: names, subscripts, `|`, `...`."""
    for inner in ast.walk(node):
        if type(inner) is ast.Constant:
            if inner.value is not None and inner.value is not Ellipsis:
                raise _Unsupported  # (a string: unparse quotes its own way)
        elif type(inner) not in _TYPES:
            raise _Unsupported
    return ast.unparse(node)


_TYPES = frozenset({ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.BinOp, ast.BitOr, ast.Load})  # fmt: skip


def _head(statement: ast.stmt) -> tuple[str, ast.expr]:
    """What precedes the value, and the value. The value of an assignment or a `return` sits
    in black's invisible parentheses, which it drops when the value starts a line that fits."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Tuple):  # `a, b, c = ...`, unparenthesised
            names = ", ".join(_dotted(t) for t in target.elts)
            if not _bare(statement.value):
                raise _Unsupported
            return f"{names} = ", statement.value
        return f"{_dotted(target)} = ", statement.value
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        annotation = statement.annotation
        return f"{_dotted(statement.target)}: {_annotation(annotation)} = ", statement.value
    if isinstance(statement, ast.Return) and statement.value is not None:
        return "return ", statement.value
    if isinstance(statement, ast.Expr):
        return "", statement.value
    raise _Unsupported


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    raise _Unsupported


def _bare(value: ast.expr) -> bool:
    """Whether `value` is a tuple of three items or more with no parentheses of its own: black
    gives it its own when it breaks (with two, it may break the last item instead)."""
    return (
        isinstance(value, ast.Tuple)
        and len(value.elts) > 2
        and value.col_offset == value.elts[0].col_offset
    )


def _node(node: ast.expr) -> Leaf | Brackets:
    if isinstance(node, ast.Constant):
        return Leaf(_constant(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = node.operand
        if isinstance(operand, ast.Constant) and type(operand.value) in (int, float):
            return Leaf("-" + _constant(operand.value))
        raise _Unsupported
    if isinstance(node, (ast.Name, ast.Attribute)):
        return Leaf(_dotted(node))
    if isinstance(node, ast.Call):
        if any(k.arg is None for k in node.keywords):
            raise _Unsupported  # (black treats a `**` argument's trailing comma otherwise)
        items = [Item("", _node(a)) for a in node.args]
        items += [Item(f"{k.arg}=", _node(k.value)) for k in node.keywords]
        return Brackets(_dotted(node.func), "(", ")", tuple(items), literal=False)
    if isinstance(node, ast.Tuple):
        items = tuple(Item("", _node(e)) for e in node.elts)
        return Brackets("", "(", ")", items, literal=True, one_tuple=len(items) == 1)
    if isinstance(node, ast.List):
        return Brackets("", "[", "]", tuple(Item("", _node(e)) for e in node.elts), literal=True)
    if isinstance(node, ast.Set):
        return Brackets("", "{", "}", tuple(Item("", _node(e)) for e in node.elts), literal=True)
    if isinstance(node, ast.Dict):
        items = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise _Unsupported
            key_node = _node(key)
            if type(key_node) is not Leaf:
                raise _Unsupported
            items.append(Item(f"{key_node.text}: ", _node(value)))
        return Brackets("", "{", "}", tuple(items), literal=True)
    if all(type(n) in _OPAQUE or _number(n) for n in ast.walk(node)):
        return Leaf(ast.unparse(node))  # spaced as black spaces it; None where it breaks
    raise _Unsupported  # a string inside, a slice, a comprehension, a starred item, ...


# What may be inside an expression taken whole (an operator, a subscript, a call of a call):
# ast.unparse spaces these as black does, and the comparison of tokens checks the rest.
# Not a string (unparse quotes its own way), a slice or `**` (black hugs simple operands),
# a lambda or a comprehension (black reads their commas and `for`s otherwise).
_OPAQUE = frozenset(
    {
        ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.UnaryOp, ast.Subscript, ast.Call,
        ast.Attribute, ast.Name, ast.Tuple, ast.List, ast.keyword, ast.Load,
        ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.MatMult,
        ast.BitOr, ast.BitAnd, ast.BitXor, ast.LShift, ast.RShift,
        ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.Invert,
        ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
    }
)  # fmt: skip


def _constant(value) -> str:
    if type(value) is str:
        # black's quotes are double ones; a string needing an escape is left to black
        if not value.isascii() or not value.isprintable() or '"' in value or "\\" in value:
            raise _Unsupported
        return f'"{value}"'
    if value is None or type(value) in (bool, int):
        return repr(value)
    if type(value) is float and value - value == 0:  # (finite: inf and nan are no literals)
        return repr(value)
    raise _Unsupported


def _number(node: ast.AST) -> bool:
    if type(node) is not ast.Constant:
        return False
    value = node.value
    return (
        value is None or type(value) in (bool, int) or type(value) is float and value - value == 0
    )


def _flat(node: Leaf | Brackets) -> str:
    if type(node) is Leaf:
        return node.text
    inside = ", ".join(item.prefix + _flat(item.node) for item in node.items)
    if node.bare:
        return inside
    return f"{node.head}{node.open}{inside}{',' if node.one_tuple else ''}{node.close}"


def _lines(prefix: str, node, suffix: str, indent: int, width: int) -> list[str] | None:
    """`prefix node suffix` at `indent` as black's lines, or None where black would go
    another way (a line that cannot fit, a break it would make elsewhere)."""
    line = " " * indent + prefix + _flat(node) + suffix
    if len(line) <= width:
        return [line]
    if type(node) is Leaf or not node.items:
        return None
    head = " " * indent + prefix + node.head + node.open
    if len(head) > width:
        return None
    inner = indent + 4
    items = node.items
    if node.literal and len(items) > 1:
        body = _item_lines(items, inner, width)  # a literal split is a literal exploded
    else:
        one_line = " " * inner + ", ".join(i.prefix + _flat(i.node) for i in items)
        one_line += "," if node.one_tuple else ""
        if len(one_line) <= width:
            body = [one_line]
        elif len(items) == 1:  # nothing to split between: the item breaks itself
            body = _lines(
                items[0].prefix, items[0].node, "," if node.one_tuple else "", inner, width
            )
        else:
            body = _item_lines(items, inner, width)
    if body is None:
        return None
    return [head, *body, " " * indent + node.close + suffix]


def _item_lines(items, indent: int, width: int) -> list[str] | None:
    """A line per item (or the lines it breaks into), each ending with a comma."""
    lines: list[str] = []
    for item in items:
        found = _lines(item.prefix, item.node, ",", indent, width)
        if found is None:
            return None
        lines += found
    return lines


_SINGLE_QUOTED = re.compile(r"'([^'\"\\\n]*)'")
_SPACE = re.compile(r"\s+")


def _same(source: str, laid_out: str) -> bool:
    """Whether black would read `laid_out` as it reads `source`: the same characters but for
    the spaces and line breaks it decides, and for a plain string's quotes (`repr`'s single
    ones, which black makes double). A comment, a trailing comma, parentheses or a number
    spelt otherwise are a difference."""

    def bare(text: str) -> str:
        return _SPACE.sub("", _SINGLE_QUOTED.sub(r'"\1"', text))

    return bare(source) == bare(laid_out)
