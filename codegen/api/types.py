"""What every product shares: the kinds' names, the annotation tables, signatures' pieces."""

import ast

from codegen.model import Op, Routing
from runtime.dtypes import DTYPES

KIND_CONST = {"float": "FLOAT", "int": "INT", "bool": "BOOL"}
PLAIN_KIND = {"float": "Float", "int": "Int", "bool": "Bool"}
# The kind of a tensor argument's type: indices are Int tensors (of any int dtype).
TENSOR_KIND = {"float": "float", "int": "int", "bool": "bool", "indices": "int"}
ACCESSOR = {t: f"as_{kind}" for t, kind in TENSOR_KIND.items()}

# What each argument type is as a user passes it (Tensor methods, module functions), and as a
# dispatch function takes it (checked and converted by the method or function).
USER_TYPES = {
    "float": "Tensor",
    "int": "Tensor",
    "bool": "Tensor",
    "indices": "Tensor",
    "tensors": "Sequence[Tensor]",
    "scalar": "float",
    "number": "float",
    "real": "float",
    "integer": "int",
    "flag": "bool",
    "dim": "int",
    "dims": "Sequence[int]",
    "shape": "Sequence[int] | int",
    "view_shape": "Sequence[int] | int",
    "slices": "Sequence[object] | object",
    "update": "IndexingUpdateOp | str",
    "device": "Device | None",
    "dtype": "DTypeLike | None",
    "distribution": "Distribution | None",
    "data": "object",
    "ints": "int | Sequence[int]",
    "choice": "str",
    "scheme": "QuantScheme",
}
DISPATCH_TYPES = {
    **USER_TYPES,
    "tensors": "list[Tensor]",
    "dims": "tuple[int, ...]",
    "shape": "tuple[int, ...]",
    "view_shape": "tuple[int, ...]",
    "slices": "tuple[tuple[int, int, int], ...]",
    "update": "IndexingUpdateOp",
    "device": "DispatchDevice",
    "dtype": "np.dtype",
    "distribution": "Distribution",
    "ints": "tuple[{ints}]",  # as many ints as the argument's arity
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


def tuple_literal(items) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
