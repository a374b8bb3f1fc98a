"""The public functions of a function module (generated/module.py): checks, then the call."""

from dataclasses import dataclass

from burnpy.codegen.api.types import (
    KIND_CONST,
    TENSOR_KIND,
    USER_TYPES,
    annotated,
    narrowed,
    quoted,
    returns,
    tuple_literal,
)
from burnpy.codegen.model import ArgKind, Catalogue, Op


@dataclass(frozen=True)
class Function:
    name: str
    signature: str
    doc: str
    checks: list[str]  # statements before the call
    call: str  # the dispatch function's call, its arguments checked and converted
    returns: str


def functions(catalogue: Catalogue, module: str) -> list[Function]:
    return [_function(op) for op in catalogue.ops if op.function == module]


def _function(op: Op) -> Function:
    params = []
    for arg in op.args:
        if arg.name == op.keyword:
            params.append("*")
        default = op.defaults.get(arg.name)
        has_default = arg.name in op.defaults or arg.optional
        params.append(annotated(arg, USER_TYPES, repr(default) if has_default else None))
    first = op.tensor_args[0].name
    checks = [
        f"{a.name} = dtype_arg({a.name}, {KIND_CONST[op.kind]})"
        for a in op.args
        if a.type is ArgKind.DTYPE
    ]
    if narrowed(op):  # the first tensor is checked before its dtype is read
        checks.append(
            f'{first} = tensor_arg("{op.name}", "{first}", {first}, {KIND_CONST[op.kind]})'
        )
        dtypes = tuple_literal(f'"{d}"' for d in op.dtypes)  # black's quotes
        checks.append(f'check_dtype("{op.name}", {first}.dtype, {dtypes})')
    arguments = [_function_arg(op, a, first) for a in op.args]
    if narrowed(op):  # checked above already
        arguments[op.args.index(op.tensor_args[0])] = first
    call = f"{op.name}({', '.join(arguments)})"
    return Function(op.name, ", ".join(params), op.doc, checks, call, returns(op))


def _function_arg(op: Op, arg, first: str) -> str:
    """A function's argument checked and converted: the function's name and the argument's are
    in every message."""
    t, n = arg.type, arg.name
    where = f'"{op.name}", "{n}"'
    if t in TENSOR_KIND:
        check = "optional_tensor_arg" if arg.optional else "tensor_arg"
        return f"{check}({where}, {n}, {KIND_CONST[TENSOR_KIND[t]]})"
    if t is ArgKind.INTS:
        check = "optional_ints_arg" if arg.optional else "ints_arg"
        return f"{check}({where}, {n}, {arg.arity}{_nonzero(op, n)})"
    if t is ArgKind.CHOICE:
        return f"choice_arg({where}, {n}, {tuple_literal(map(quoted, op.choices[n]))})"
    if t is ArgKind.DIM:
        return f"dim_of({where}, {first}, {n})"
    if t in (ArgKind.REAL, ArgKind.NUMBER):
        return f"real_arg({where}, {n}{_optional(arg)})"
    if t is ArgKind.INTEGER:
        return f"integer_arg({where}, {n}{_nonzero(op, n)}{_optional(arg)})"
    if t is ArgKind.FLAG:
        return f"flag_arg({where}, {n})"
    return n


def _nonzero(op: Op, name: str) -> str:
    return ", nonzero=True" if name in op.nonzero else ""


def _optional(arg) -> str:
    return ", optional=True" if arg.optional else ""
