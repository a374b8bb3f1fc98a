"""The `onnx:` key of a catalogue entry, parsed: how the op's kernel call becomes ONNX nodes.

Two forms, both data:

- an expression over ONNX operators and the entry's argument names, `Relu(tensor)`,
  `LeakyRelu(tensor, alpha=negative_slope)`, `Reciprocal(Sqrt(tensor))`: each call is one node,
  its positional operands the node's inputs (an argument holding a tensor is that tensor, a
  number argument or a number literal a constant of the receiver's dtype), its keywords the
  node's attributes (an argument's value or a literal);
- `{function: NAME}`: the function NAME of burnpy.onnx.exporter.lowerings, for what an expression
  cannot say (a shape computed from the call's arguments, an opset-dependent form).

The expression is read with `ast` (never evaluated); generated/onnx.py holds it as plain data
(`literal`), which the exporter (burnpy/onnx/exporter/lower.py) walks.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

LOWERINGS_MODULE = "burnpy.onnx.exporter.lowerings"


@dataclass(frozen=True)
class Ref:
    """An argument of the entry, by name."""

    name: str


@dataclass(frozen=True)
class Literal:
    """A number (an input: a constant of the receiver's dtype) or a string (an attribute)."""

    value: int | float | str


@dataclass(frozen=True)
class Node:
    """One ONNX node: its operator, inputs (Nodes, Refs, Literals) and attributes."""

    op: str
    inputs: tuple
    attributes: tuple[tuple[str, Ref | Literal], ...] = ()

    def nodes(self):
        """This node and every node among its inputs."""
        yield self
        for item in self.inputs:
            if isinstance(item, Node):
                yield from item.nodes()


@dataclass(frozen=True)
class Function:
    """A lowering function of burnpy.onnx.exporter.lowerings, by name."""

    name: str


class SpecError(ValueError):
    """An `onnx:` value that does not parse; `hint` says what to write."""

    def __init__(self, problem: str, hint: str):
        super().__init__(problem)
        self.problem, self.hint = problem, hint


def parse(value, args: tuple[str, ...]) -> Node | Function:
    """The lowering an `onnx:` value says, for an entry whose arguments are named `args`."""
    if isinstance(value, dict):
        if set(value) != {"function"} or not isinstance(value["function"], str):
            raise SpecError(
                f"`onnx:` mapping {value!r} is not `{{function: NAME}}`",
                "write `onnx: {function: NAME}`, NAME a function of " + LOWERINGS_MODULE,
            )
        name = value["function"]
        if not name.isidentifier():
            raise SpecError(f"`onnx:` function {name!r} is not a name", "write a Python name")
        return Function(name)
    if not isinstance(value, str):
        raise SpecError(
            f"`onnx:` must be an expression or `{{function: NAME}}`, not {value!r}",
            "write e.g. `onnx: Relu(tensor)`",
        )
    try:
        tree = ast.parse(value, mode="eval").body
    except SyntaxError:
        raise SpecError(
            f"`onnx:` {value!r} does not parse", "write e.g. `onnx: Add(lhs, rhs)`"
        ) from None
    if not isinstance(tree, ast.Call):
        raise SpecError(f"`onnx:` {value!r} is not an operator call", "write e.g. `Relu(tensor)`")
    return _node(tree, set(args), value)


def _node(call: ast.Call, args: set, text: str) -> Node:
    if not isinstance(call.func, ast.Name):
        raise SpecError(f"`onnx:` {text!r}: call an ONNX operator by name", "e.g. `Neg(tensor)`")
    inputs = tuple(_operand(item, args, text) for item in call.args)
    attributes = []
    for keyword in call.keywords:
        if keyword.arg is None:
            raise SpecError(f"`onnx:` {text!r}: no ** in a call", "name each attribute")
        attribute = _operand(keyword.value, args, text)
        if isinstance(attribute, Node):
            raise SpecError(
                f"`onnx:` {text!r}: attribute {keyword.arg} is a node",
                "an attribute is an argument's name or a literal",
            )
        attributes.append((keyword.arg, attribute))
    return Node(call.func.id, inputs, tuple(attributes))


def _operand(item, args: set, text: str):
    if isinstance(item, ast.Call):
        return _node(item, args, text)
    if isinstance(item, ast.Name):
        if item.id not in args:
            raise SpecError(
                f"`onnx:` {text!r} names {item.id!r}, which is not an argument of the entry",
                f"use one of {', '.join(sorted(args)) or '(none)'}",
            )
        return Ref(item.id)
    if isinstance(item, ast.UnaryOp) and isinstance(item.op, ast.USub):
        inner = _operand(item.operand, args, text)
        if isinstance(inner, Literal) and isinstance(inner.value, int | float):
            return Literal(-inner.value)
    if isinstance(item, ast.Constant) and type(item.value) in (int, float, str):
        return Literal(item.value)
    raise SpecError(
        f"`onnx:` {text!r}: {ast.unparse(item)!r} is not an operator call, argument or literal",
        "write e.g. `Mul(tensor, 0.5)`",
    )


def literal(lowering: Node | Function):
    """The lowering as generated/onnx.py holds it: a node is {"op", "inputs", "attributes"},
    an argument {"arg": name}, a number a number, a string attribute {"value": text}, a
    function {"function": name}."""
    if isinstance(lowering, Function):
        return {"function": lowering.name}
    return {
        "op": lowering.op,
        "inputs": [_literal(item) for item in lowering.inputs],
        "attributes": {name: _literal(value) for name, value in lowering.attributes},
    }


def _literal(item):
    if isinstance(item, Node):
        return literal(item)
    if isinstance(item, Ref):
        return {"arg": item.name}
    return {"value": item.value} if isinstance(item.value, str) else item.value


def show(lowering: Node | Function) -> str:
    """The lowering as ops.yaml writes it."""
    if isinstance(lowering, Function):
        return f"lowerings.{lowering.name}"
    inputs = [show(i) if isinstance(i, Node) else _plain(i) for i in lowering.inputs]
    inputs += [f"{name}={_plain(value)}" for name, value in lowering.attributes]
    return f"{lowering.op}({', '.join(inputs)})"


def _plain(item) -> str:
    return item.name if isinstance(item, Ref) else repr(item.value)
