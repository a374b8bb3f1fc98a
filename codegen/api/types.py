"""What every product shares: the kinds' names, the annotation tables, signatures' pieces."""

import ast

from burnpy.codegen.model import ArgKind, Kind, Op, Routing
from burnpy.runtime.dtypes import DTYPES

KIND_CONST = {Kind.FLOAT: "FLOAT", Kind.INT: "INT", Kind.BOOL: "BOOL"}
PLAIN_KIND = {Kind.FLOAT: "Float", Kind.INT: "Int", Kind.BOOL: "Bool"}
ACCESSOR = {kind: f"as_{kind}" for kind in Kind}  # DispatchTensor's method giving that kind
# The kind of a tensor argument's type: indices are Int tensors (of any int dtype).
TENSOR_KIND = {
    ArgKind.FLOAT: Kind.FLOAT,
    ArgKind.INT: Kind.INT,
    ArgKind.BOOL: Kind.BOOL,
    ArgKind.INDICES: Kind.INT,
}
# The exceptions by which a kernel refuses its inputs: the routing says why (check_contract).
REFUSALS = ("ValueError", "RuntimeError", "IndexError", "MemoryError")
# The type of an argument that is a tensor of a kind itself (not indices)
KIND_ARG = {Kind.FLOAT: ArgKind.FLOAT, Kind.INT: ArgKind.INT, Kind.BOOL: ArgKind.BOOL}

# What each argument type is as a user passes it (Tensor methods, module functions), and as a
# dispatch function takes it (checked and converted by the method or function).
USER_TYPES = {
    ArgKind.FLOAT: "Tensor",
    ArgKind.INT: "Tensor",
    ArgKind.BOOL: "Tensor",
    ArgKind.INDICES: "Tensor",
    ArgKind.TENSORS: "Sequence[Tensor]",
    ArgKind.SCALAR: "float",
    ArgKind.NUMBER: "float",
    ArgKind.REAL: "float",
    ArgKind.INTEGER: "int",
    ArgKind.FLAG: "bool",
    ArgKind.DIM: "int",
    ArgKind.DIMS: "Sequence[int]",
    ArgKind.SHAPE: "Sequence[int] | int",
    ArgKind.VIEW_SHAPE: "Sequence[int] | int",
    ArgKind.SLICES: "Sequence[object] | object",
    ArgKind.UPDATE: "IndexingUpdateOp | str",
    ArgKind.DEVICE: "Device | None",
    ArgKind.DTYPE: "DTypeLike | None",
    ArgKind.DISTRIBUTION: "Distribution | None",
    ArgKind.DATA: "object",
    ArgKind.INTS: "int | Sequence[int]",
    ArgKind.CHOICE: "str",
    ArgKind.SCHEME: "QuantScheme",
}
DISPATCH_TYPES = {
    **USER_TYPES,
    ArgKind.TENSORS: "list[Tensor]",
    ArgKind.DIMS: "tuple[int, ...]",
    ArgKind.SHAPE: "tuple[int, ...]",
    ArgKind.VIEW_SHAPE: "tuple[int, ...]",
    ArgKind.SLICES: "tuple[tuple[int, int, int], ...]",
    ArgKind.UPDATE: "IndexingUpdateOp",
    ArgKind.DEVICE: "DispatchDevice",
    ArgKind.DTYPE: "np.dtype",
    ArgKind.DISTRIBUTION: "Distribution",
    ArgKind.INTS: "tuple[{ints}]",  # as many ints as the argument's arity
}


def annotated(arg, types: dict, default: str | None = None) -> str:
    """`name: type` (`= default`): an optional argument may be None."""
    kind = types[arg.type].format(ints=", ".join(["int"] * (arg.arity or 0)))
    if arg.optional and "None" not in kind:
        kind += " | None"
    return f"{arg.name}: {kind}" + (f" = {default}" if default is not None else "")


def call_parameters(signature: str) -> list[str]:
    """A signature's parameters as a call shows them: names and defaults, no annotations."""
    args = ast.parse(f"def f({signature}): pass").body[0].args
    positional, keyword = args.args, args.kwonlyargs
    defaults = [None] * (len(positional) - len(args.defaults)) + args.defaults
    out = [_parameter(a, d) for a, d in zip(positional, defaults)]
    if keyword:
        out.append("*")
    return out + [_parameter(a, d) for a, d in zip(keyword, args.kw_defaults)]


def _parameter(arg, default) -> str:
    return arg.arg if default is None else f"{arg.arg}={ast.unparse(default)}"


def returns(op: Op) -> str:
    """The return annotation: one Tensor, or a tuple of them."""
    if len(op.returns) == 1:
        return "Tensor"
    return f"tuple[{', '.join('Tensor' for _ in op.returns)}]"


def narrowed(op: Op) -> bool:
    """Does the op support fewer dtypes than its kind has? Then its method checks them."""
    of = op.returns[0] if op.routing in (Routing.CREATION, Routing.CONVERSION) else op.kind
    return op.dtypes != DTYPES[of]


def quoted(text: str) -> str:
    """`text` as a string literal in black's quotes: double, unless it holds a double quote."""
    literal = repr(text)
    return f'"{literal[1:-1]}"' if literal[0] == "'" and '"' not in literal else literal


def tuple_literal(items) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def contract_of(op: Op) -> str:
    """check_contract's first arguments for `op`: its name and its shape contract."""
    return f'"{op.name}", ' + (f'"{op.contract}"' if op.contract else "None")
