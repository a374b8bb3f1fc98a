"""Tensor methods and what ties entries together: method names, constructors, the parameters
and kinds of ops sharing a method, operators, and the ops a composite calls."""

import ast
import functools

from burnpy.codegen.kernels import class_attributes
from burnpy.codegen.model import SCALAR_TYPES, ArgKind, Op, Routing
from burnpy.codegen.validate.report import Problems, Where, suggest


def check_method_name(where: Where, method) -> None:
    if method.startswith("__") and method.endswith("__"):
        raise where.error(
            "method",
            f"method `{method}` is a special name",
            "Python operators come from `operator: [__add__, ...]`; pick a plain method name",
        )
    defined = tensor_base_attributes().get(method)
    if defined is not None:
        raise where.error(
            "method",
            f"method `{method}` would replace Tensor.{method}, which the runtime defines "
            f"({defined.qualname}, {defined.path.name}:{defined.line})",
            "pick another method name",
        )


@functools.cache
def tensor_base_attributes() -> dict:
    """What runtime/tensor.py's TensorBase (the generated Tensor's base) defines, by name."""
    return class_attributes("burnpy.runtime.tensor", "TensorBase")


def check_static(where: Where, op: Op) -> None:
    """`static: true`: the method is a constructor, called on the class (Tensor.zeros, and
    Tensor.cat over a list); every other method is called on its first tensor argument."""
    tensors = op.tensor_args
    constructor = (
        op.routing is Routing.CREATION or bool(tensors) and tensors[0].type is ArgKind.TENSORS
    )
    if op.static and not op.method:
        raise where.error(
            "static", "`static` without a `method`", "add `method:` or remove `static`"
        )
    if op.static and not constructor:
        raise where.error(
            "static",
            "`static: true` on an op with a receiver: its method is called on its first tensor",
            "remove `static` (it is for creation ops and ops over a `tensors` list)",
        )
    if op.method and constructor and not op.static:
        raise where.error(
            "method",
            f"method `{op.method}` has no tensor to be called on: it is a constructor",
            "add `static: true` (Tensor.<method>(...))",
        )


def check_composite(where: Where, op: Op, names: set) -> None:
    try:
        tree = ast.parse(op.composite, mode="eval")
    except SyntaxError as error:
        raise where.error(
            "composite", f"composite is not a Python expression: {error.msg}"
        ) from None
    args = {a.name for a in op.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (
            not isinstance(node.func, ast.Name) or node.func.id not in names
        ):
            called = ast.unparse(node.func)
            raise where.error(
                "composite",
                f"composite calls {called}, which is not a catalogue op",
                suggest(called, names, "call ops of this catalogue by their names"),
            )
        if isinstance(node, ast.Name) and node.id not in names and node.id not in args:
            raise where.error(
                "composite",
                f"composite uses `{node.id}`, which is neither an argument nor an op",
                suggest(node.id, args, f"use the op's arguments ({', '.join(sorted(args))})"),
            )


def check_methods(problems: Problems, path, ops) -> None:
    """Ops sharing a Tensor method must agree on its parameters and be told apart by kind."""
    groups: dict[str, list[Op]] = {}
    for op in ops:
        if op.method:
            groups.setdefault(op.method, []).append(op)

    def shape(op):
        return op.static, tuple(a.name for a in op.args if a is not op.receiver)

    for method, members in groups.items():
        # the shape most of the members have is the method's: the odd one out is to blame
        shapes = [shape(op) for op in members]
        usual = max(shapes, key=shapes.count)
        first = members[shapes.index(usual)]
        seen = set()
        for op in members:
            where = Where(path, None, op.name)
            if shape(op) != usual:
                problems.add(
                    where.error(
                        op.line,
                        f"method `{method}` is also {first.name}'s, with other parameters",
                        f"give it the same parameters ({', '.join(usual[1])}) or another method "
                        "name",
                    )
                )
                continue
            rest = [a for a in op.args if a is not op.receiver]
            second = rest[0].type if rest and not op.static else None
            variant = (op.kind, second in SCALAR_TYPES)
            if variant in seen:
                problems.add(
                    where.error(
                        op.line,
                        f"method `{method}` already has a {op.kind} variant of this shape",
                        "give one of them another method name",
                    )
                )
            seen.add(variant)


def check_operators(problems: Problems, path, ops) -> None:
    """An operator claimed by several methods routes by kind: one method per kind, one arity."""
    claims: dict[str, list[Op]] = {}
    for op in ops:
        for operator in op.operators:
            claims.setdefault(operator, []).append(op)
    for operator, claimants in claims.items():
        first = claimants[0]
        method_of_kind = {}
        for op in claimants:
            where = Where(path, None, op.name)
            if len(op.args) != len(first.args):
                problems.add(
                    where.error(
                        op.line,
                        f"operator {operator} is also {first.name}'s, which takes "
                        f"{len(first.args)} arguments",
                        "claim it only from ops of the same arity",
                    )
                )
                continue
            method = method_of_kind.setdefault(op.kind, op.method)
            if method != op.method:
                problems.add(
                    where.error(
                        op.line,
                        f"operator {operator} already routes {op.kind} tensors to method "
                        f"`{method}`",
                        f"claim {operator} from one method per kind",
                    )
                )
