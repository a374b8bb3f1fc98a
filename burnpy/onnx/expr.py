"""The importer's expression: what a translation answers, a small typed tree of names,
literals, attribute reads, calls, operators, subscripts and lists (the shape of Python's own
`ast`), never text. The writer renders it (`render`), constant folding evaluates it on arrays
(`evaluate`): the same tree either way, and no text derived from a model is ever parsed.

Safe by construction: a `Name` is an ASCII identifier that is not a keyword (the importer mints
the names of a model's values, burnpy/onnx/emit.py#identifier); an attribute read names an
identifier that does not start with `_`; a `Lit` holds a number, a bool, None or a str and is
rendered by `repr` (a non-finite float as `float("inf")`). So whatever a model's names,
attributes and strings hold, they reach the generated code only as a minted identifier or a
literal.

Translations build trees with Python's own syntax: an `Expr`'s attribute is an `Attr`,
calling one is a `Call`, `+ - * / & | ^ < <= > >=`, unary `-` and `[...]` build the
operator and subscript nodes, and a plain number, str, bool, None, list or tuple given as an
operand becomes a literal (`lift`)."""

from __future__ import annotations

import keyword
import math
import operator
from dataclasses import dataclass
from enum import Enum

from burnpy.onnx.errors import Refusal


class Operator(Enum):
    """The binary operators an expression uses; the value is its Python spelling."""

    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    AND = "&"
    OR = "|"
    XOR = "^"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="


COMPARISONS = (Operator.LT, Operator.LE, Operator.GT, Operator.GE)
# Python's binding strength of each operator (higher binds tighter).
PRECEDENCE = {
    Operator.LT: 3, Operator.LE: 3, Operator.GT: 3, Operator.GE: 3,
    Operator.OR: 4, Operator.XOR: 5, Operator.AND: 6,
    Operator.ADD: 7, Operator.SUB: 7, Operator.MUL: 8, Operator.DIV: 8,
}  # fmt: skip
UNARY, POSTFIX, ATOM = 9, 10, 11
APPLY = {
    Operator.ADD: operator.add, Operator.SUB: operator.sub, Operator.MUL: operator.mul,
    Operator.DIV: operator.truediv, Operator.AND: operator.and_, Operator.OR: operator.or_,
    Operator.XOR: operator.xor, Operator.LT: operator.lt, Operator.LE: operator.le,
    Operator.GT: operator.gt, Operator.GE: operator.ge,
}  # fmt: skip


def is_identifier(text: str) -> bool:
    """An ASCII Python identifier that is not a keyword (soft keywords included)."""
    return (
        isinstance(text, str)
        and text.isascii()
        and text.isidentifier()
        and not keyword.iskeyword(text)
        and not keyword.issoftkeyword(text)
    )


class Expr:
    """Base of the expression nodes; Python's operators build the tree."""

    __slots__ = ()

    def __getattr__(self, attr: str) -> Attr:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return Attr(self, attr)

    def __call__(self, *args, **kwargs) -> Call:
        return Call(self, tuple(lift(a) for a in args), tuple((k, lift(v)) for k, v in kwargs.items()))  # fmt: skip

    def __getitem__(self, index) -> Subscript:
        parts = index if isinstance(index, tuple) else (index,)
        return Subscript(self, tuple(_index(p) for p in parts))

    def __iter__(self):
        raise TypeError("an expression is not iterable")

    def __bool__(self):
        raise TypeError("an expression has no truth value until it runs")

    def __neg__(self) -> Neg:
        return Neg(self)

    def __add__(self, other):
        return BinOp(Operator.ADD, self, lift(other))

    def __radd__(self, other):
        return BinOp(Operator.ADD, lift(other), self)

    def __sub__(self, other):
        return BinOp(Operator.SUB, self, lift(other))

    def __rsub__(self, other):
        return BinOp(Operator.SUB, lift(other), self)

    def __mul__(self, other):
        return BinOp(Operator.MUL, self, lift(other))

    def __rmul__(self, other):
        return BinOp(Operator.MUL, lift(other), self)

    def __truediv__(self, other):
        return BinOp(Operator.DIV, self, lift(other))

    def __rtruediv__(self, other):
        return BinOp(Operator.DIV, lift(other), self)

    def __and__(self, other):
        return BinOp(Operator.AND, self, lift(other))

    def __or__(self, other):
        return BinOp(Operator.OR, self, lift(other))

    def __xor__(self, other):
        return BinOp(Operator.XOR, self, lift(other))

    def __lt__(self, other):
        return BinOp(Operator.LT, self, lift(other))

    def __le__(self, other):
        return BinOp(Operator.LE, self, lift(other))

    def __gt__(self, other):
        return BinOp(Operator.GT, self, lift(other))

    def __ge__(self, other):
        return BinOp(Operator.GE, self, lift(other))


@dataclass(frozen=True, eq=False)
class Name(Expr):
    """A variable of the generated code: a minted identifier or one of the file's own."""

    id: str

    def __post_init__(self):
        if not is_identifier(self.id):
            raise ValueError(f"{self.id!r} is not an ASCII identifier (names are minted)")


@dataclass(frozen=True, eq=False)
class Lit(Expr):
    """A literal: a number, a bool, None or a str, written by `repr` (`ascii`: a str's
    characters outside ASCII escaped)."""

    value: int | float | bool | str | None

    def __post_init__(self):
        if not (self.value is None or type(self.value) in (int, float, bool, str)):
            raise TypeError(f"a literal is a number, bool, str or None, not {type(self.value).__name__}")  # fmt: skip


@dataclass(frozen=True, eq=False)
class Attr(Expr):
    obj: Expr
    attr: str

    def __post_init__(self):
        if not is_identifier(self.attr) or self.attr.startswith("__"):
            raise ValueError(f"{self.attr!r} cannot be read as an attribute")


@dataclass(frozen=True, eq=False)
class Call(Expr):
    func: Expr
    args: tuple  # Exprs
    kwargs: tuple  # (identifier, Expr) pairs

    def __post_init__(self):
        for key, _ in self.kwargs:
            if not is_identifier(key):
                raise ValueError(f"{key!r} is not a keyword argument's name")


@dataclass(frozen=True, eq=False)
class BinOp(Expr):
    op: Operator
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, eq=False)
class Slice(Expr):
    """`start:stop:step` inside a subscript; each part an Expr or None."""

    start: Expr | None
    stop: Expr | None
    step: Expr | None


@dataclass(frozen=True, eq=False)
class Subscript(Expr):
    obj: Expr
    index: tuple  # Exprs and Slices


@dataclass(frozen=True, eq=False)
class ListOf(Expr):
    items: tuple


@dataclass(frozen=True, eq=False)
class TupleOf(Expr):
    items: tuple


def lift(value) -> Expr:
    """`value` as an expression: an Expr as it is, a plain value as a literal (numpy's
    scalars as Python's), a list or tuple item by item."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, list):
        return ListOf(tuple(lift(v) for v in value))
    if isinstance(value, tuple):
        return TupleOf(tuple(lift(v) for v in value))
    if hasattr(value, "item") and getattr(value, "ndim", None) == 0:  # a numpy scalar
        value = value.item()
    if value is None or type(value) in (int, float, bool, str):
        return Lit(value)
    raise Refusal(f"the value {str(value)[:60]!r} ({type(value).__name__}) is not a number, bool or string")  # fmt: skip


def ints(values) -> ListOf:
    """A literal list of ints."""
    return ListOf(tuple(Lit(int(v)) for v in values))


def _index(part) -> Expr:
    if isinstance(part, slice):
        return Slice(*(None if p is None else lift(p) for p in (part.start, part.stop, part.step)))
    return lift(part)


# -- rendering ---------------------------------------------------------------------------------


def render(expr: Expr) -> str:
    """The Python text of `expr`, parenthesised where Python's precedence needs it."""
    return _render(expr)[0]


def _literal(value) -> tuple:
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")', POSTFIX
    text = ascii(value)  # repr, non-ASCII characters escaped: the file stays ASCII
    if isinstance(value, int | float) and not isinstance(value, bool):
        return text, (UNARY if text.startswith("-") else ATOM)
    return text, ATOM


def _render(expr: Expr) -> tuple:
    """(text, precedence) of `expr`."""
    if isinstance(expr, Name):
        return expr.id, ATOM
    if isinstance(expr, Lit):
        return _literal(expr.value)
    if isinstance(expr, Attr):
        return f"{_operand(expr.obj)}.{expr.attr}", POSTFIX
    if isinstance(expr, Call):
        args = [render(a) for a in expr.args] + [f"{k}={render(v)}" for k, v in expr.kwargs]
        return f"{_operand(expr.func)}({', '.join(args)})", POSTFIX
    if isinstance(expr, Subscript):
        index = ", ".join(render(p) for p in expr.index) if expr.index else "()"
        return f"{_operand(expr.obj)}[{index}]", POSTFIX
    if isinstance(expr, Slice):
        parts = ["" if p is None else render(p) for p in (expr.start, expr.stop, expr.step)]
        return (":".join(parts) if expr.step is not None else ":".join(parts[:2])), ATOM
    if isinstance(expr, BinOp):
        level = PRECEDENCE[expr.op]
        left, left_level = _render(expr.left)
        right, right_level = _render(expr.right)
        chained = expr.op in COMPARISONS
        if left_level < level or (chained and left_level <= level):
            left = f"({left})"
        if right_level <= level:
            right = f"({right})"
        return f"{left} {expr.op.value} {right}", level
    if isinstance(expr, Neg):
        text, level = _render(expr.operand)
        return f"-({text})" if level <= UNARY else f"-{text}", UNARY
    if isinstance(expr, ListOf):
        return f"[{', '.join(render(i) for i in expr.items)}]", ATOM
    if isinstance(expr, TupleOf):
        items = [render(i) for i in expr.items]
        return (f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"), ATOM
    raise TypeError(f"not an expression: {expr!r}")


def _operand(expr: Expr) -> str:
    """`expr` as the object of an attribute read, a call or a subscript."""
    text, level = _render(expr)
    number = isinstance(expr, Lit) and type(expr.value) in (int, float)
    return text if level >= POSTFIX and not number else f"({text})"


def render_targets(expr: Expr) -> str:
    """A tuple of values written without its parentheses (`a, b = ...`'s right side)."""
    if isinstance(expr, TupleOf) and len(expr.items) > 1:
        return ", ".join(render(i) for i in expr.items)
    return render(expr)


# -- evaluation ---------------------------------------------------------------------------------


def evaluate(expr: Expr, scope: dict):
    """The value of `expr` with its names bound by `scope`: the tree walked, nothing parsed."""
    if isinstance(expr, Name):
        return scope[expr.id]
    if isinstance(expr, Lit):
        return expr.value
    if isinstance(expr, Attr):
        return getattr(evaluate(expr.obj, scope), expr.attr)
    if isinstance(expr, Call):
        args = [evaluate(a, scope) for a in expr.args]
        kwargs = {k: evaluate(v, scope) for k, v in expr.kwargs}
        return evaluate(expr.func, scope)(*args, **kwargs)
    if isinstance(expr, Subscript):
        index = tuple(evaluate(p, scope) for p in expr.index)
        return evaluate(expr.obj, scope)[index[0] if len(index) == 1 else index]
    if isinstance(expr, Slice):
        return slice(*(None if p is None else evaluate(p, scope) for p in (expr.start, expr.stop, expr.step)))  # fmt: skip
    if isinstance(expr, BinOp):
        return APPLY[expr.op](evaluate(expr.left, scope), evaluate(expr.right, scope))
    if isinstance(expr, Neg):
        return -evaluate(expr.operand, scope)
    if isinstance(expr, ListOf):
        return [evaluate(i, scope) for i in expr.items]
    if isinstance(expr, TupleOf):
        return tuple(evaluate(i, scope) for i in expr.items)
    raise TypeError(f"not an expression: {expr!r}")


def uses(expr: Expr, name: str) -> bool:
    """Whether `expr` reads the variable `name`."""
    if isinstance(expr, Name):
        return expr.id == name
    if isinstance(expr, Lit) or expr is None:
        return False
    if isinstance(expr, Attr):
        return uses(expr.obj, name)
    if isinstance(expr, Call):
        return uses(expr.func, name) or any(uses(a, name) for a in expr.args) or any(uses(v, name) for _, v in expr.kwargs)  # fmt: skip
    if isinstance(expr, Subscript):
        return uses(expr.obj, name) or any(uses(p, name) for p in expr.index)
    if isinstance(expr, Slice):
        return any(uses(p, name) for p in (expr.start, expr.stop, expr.step))
    if isinstance(expr, BinOp):
        return uses(expr.left, name) or uses(expr.right, name)
    if isinstance(expr, Neg):
        return uses(expr.operand, name)
    return any(uses(i, name) for i in expr.items)
