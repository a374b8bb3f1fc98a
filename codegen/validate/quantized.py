"""The `quantized:` entries: burn's QTensorOps, each with the routing role that makes it.

Checked here: the keys, the role and what it needs (`float` for quant / flow / float, an
expression for composite), the float op a default is made from and the one that routes to it
(both catalogue ops, whose arguments the q-op mirrors), the arguments and results, and the
names a composite calls. The kernels of the required ops are checked with every other kernel
(backends.py).
"""

import ast
from types import MappingProxyType

from burnpy.codegen.load import Located, plain
from burnpy.codegen.model import (
    KIND_RESULTS,
    QUANTIZED_ARGS,
    Arg,
    ArgKind,
    Kind,
    Op,
    QOp,
    QResult,
    QRole,
)
from burnpy.codegen.validate.fields import check_keys, choice, identifier, text
from burnpy.codegen.validate.onnx import check_onnx
from burnpy.codegen.validate.report import Problems, Where, suggest

KEYS = {
    "name": True,
    "role": True,
    "doc": True,
    "float": False,
    "routes": False,
    "args": False,
    "returns": False,
    "composite": False,
    "method": False,
    "static": False,
    "defaults": False,
    "onnx": False,
}
ROLES = tuple(QRole)
RESULTS = tuple(QResult)
# what each role's default result is when the entry does not say (FLOAT: the float op's)
DEFAULT_RESULT = {QRole.QUANT: QResult.QFLOAT, QRole.FLOW: QResult.FLOW}
# the q-op's arguments, and the float op's they mirror: a float tensor becomes a quantized one
MIRRORED = {ArgKind.FLOAT: ArgKind.QFLOAT, ArgKind.TENSORS: ArgKind.QTENSORS}
# names a composite may call besides the q-ops: a tensor's own methods
COMPOSITE_CALLS = ("numel",)


def quantized_ops(problems: Problems, path: str, entries, ops: tuple[Op, ...]) -> tuple[QOp, ...]:
    """The q-ops of `entries` (the `quantized:` list); each mistake goes to `problems`."""
    by_name = {op.name: op for op in ops}
    found = []
    for i, entry in enumerate(entries):
        qop = problems.check(_qop, path, entry, entries.line_of(i), by_name)
        if qop is not None:
            found.append(qop)
    # every entry's name, even one left out for a mistake: a composite calling it is not wrong
    names = {e.value.get("name") for e in entries if isinstance(e, Located)}
    for qop in found:
        if qop.composite:
            problems.check(_check_composite, Where(path, None, qop.name), qop, names)
    seen = {}
    for qop in found:
        if qop.name in seen or qop.name in by_name:
            problems.add(
                Where(path, None, qop.name).error(
                    qop.line, "duplicate op name", "every op and q-op has a name of its own"
                )
            )
        seen[qop.name] = qop
    routed = {}
    for qop in found:
        if qop.routes in routed:
            problems.add(
                Where(path, None, qop.name).error(
                    qop.line,
                    f"`{qop.routes}` already routes to {routed[qop.routes]}",
                    "a float op selects one q-op",
                )
            )
        routed.setdefault(qop.routes, qop.name) if qop.routes else None
    return tuple(found)


def _qop(path: str, entry, line: int, ops: dict) -> QOp:
    if not isinstance(entry, Located):
        raise Where(path).error(line, f"a q-op entry must be a mapping, not {plain(entry)!r}")
    where = Where(path, entry, entry.value.get("name"))
    problems = Problems(path)
    check_keys(problems, where, KEYS)
    problems.raise_all()
    name = identifier(where, "name")
    role = QRole(choice(where, "role", ROLES))
    doc = text(where, "doc", "The maximum.")
    float_op = _op_named(where, "float", ops)
    routes = _op_named(where, "routes", ops)
    if role in (QRole.QUANT, QRole.FLOW, QRole.FLOAT) and float_op is None:
        raise where.error("role", f"a `{role}` q-op is made from a float op", "add `float: <op>`")
    if role is not QRole.COMPOSITE and "composite" in entry.value:
        raise where.error("composite", "only a `composite` q-op has an expression")
    composite = None
    if role is QRole.COMPOSITE:
        composite = text(where, "composite", "q_swap_dims(tensor, -2, -1)")
    mirrored = float_op or routes
    if "args" in entry.value:
        args = _args(where)
    elif mirrored is not None:
        args = tuple(Arg(a.name, MIRRORED.get(a.type, a.type), a.optional) for a in mirrored.args)
    else:
        raise where.error(None, "the arguments are unknown", "add `args:` or `float:`")
    for op in (float_op, routes):
        if op is not None:
            _check_mirrors(where, args, op)
    returns = _returns(where, role, float_op)
    method = entry.value.get("method")
    defaults = entry.value.get("defaults") or {}
    if not isinstance(defaults, dict) or set(defaults) - {a.name for a in args}:
        raise where.error("defaults", "`defaults` names arguments of the q-op")
    onnx = check_onnx(where, args) if "onnx" in entry.value else None
    return QOp(
        name,
        role,
        args,
        returns,
        doc,
        entry.line,
        float=float_op.name if float_op else None,
        routes=routes.name if routes else None,
        composite=composite,
        method=method,
        static=bool(entry.value.get("static", False)),
        defaults=MappingProxyType(dict(defaults)),
        onnx=onnx,
    )


def _op_named(where: Where, key: str, ops: dict) -> Op | None:
    name = where.entry.value.get(key)
    if name is None:
        return None
    op = ops.get(name)
    if op is None or op.kind is not Kind.FLOAT:
        floats = [n for n, o in ops.items() if o.kind is Kind.FLOAT]
        raise where.error(key, f"{name!r} is not a float op", suggest(name, floats))
    return op


def _args(where: Where) -> tuple[Arg, ...]:
    raw = where.entry.value["args"]
    if not isinstance(raw, list):
        raise where.error("args", "`args` must be a list", "write `args: [tensor: qfloat]`")
    args = []
    for item in raw:
        if not isinstance(item, Located) or len(item.value) != 1:
            raise where.error("args", f"argument {plain(item)!r} is not `name: type`")
        ((name, spelled),) = item.value.items()
        optional = isinstance(spelled, str) and spelled.endswith("?")
        spelled = spelled[:-1] if optional else spelled
        try:
            args.append(Arg(name, spelled, optional))
        except ValueError:
            kinds = [k.value for k in ArgKind]
            raise where.error(
                "args", f"argument `{name}`: unknown type {spelled!r}", suggest(spelled, kinds)
            ) from None
    return tuple(args)


def _check_mirrors(where: Where, args: tuple[Arg, ...], op: Op) -> None:
    """A q-op takes its float op's arguments in order, each float tensor as a quantized one."""
    same = len(args) == len(op.args) and all(
        a.name == b.name and (a.type is b.type or QUANTIZED_ARGS.get(a.type) is b.type)
        for a, b in zip(args, op.args)
    )
    if not same:
        spelled = ", ".join(f"{a.name}: {MIRRORED.get(a.type, a.type).value}" for a in op.args)
        raise where.error(
            "args", f"the arguments do not mirror {op.name}'s", f"write `args: [{spelled}]`"
        )


def _returns(where: Where, role: QRole, float_op: Op | None) -> tuple[QResult, ...]:
    raw = where.entry.value.get("returns")
    if raw is None:
        if role is QRole.FLOAT and float_op is not None:
            return tuple(KIND_RESULTS[k] for k in float_op.returns)
        if role in DEFAULT_RESULT and float_op is not None:
            first = DEFAULT_RESULT[role]
            return (first,) + tuple(KIND_RESULTS[k] for k in float_op.returns[1:])
        raise where.error(None, "the result is unknown", "add `returns:`")
    raw = tuple(raw) if isinstance(raw, list) else (raw,)
    wrong = next((r for r in raw if r not in RESULTS), None)
    if wrong is not None:
        raise where.error("returns", f"unknown result {wrong!r}", suggest(wrong, RESULTS))
    return tuple(QResult(r) for r in raw)


def _check_composite(where: Where, qop: QOp, names: set) -> None:
    try:
        tree = ast.parse(qop.composite, mode="eval")
    except SyntaxError as error:
        raise where.error(qop.line, f"composite is not an expression: {error.msg}") from None
    arguments = {a.name for a in qop.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id not in names:
                raise where.error(
                    qop.line,
                    f"composite calls {node.func.id!r}, not a q-op",
                    suggest(node.func.id, sorted(names)),
                )
        elif isinstance(node, ast.Attribute) and node.attr not in COMPOSITE_CALLS:
            raise where.error(qop.line, f"composite reads `.{node.attr}`", "call q-ops only")
        elif isinstance(node, ast.Name) and not (node.id in names or node.id in arguments):
            raise where.error(qop.line, f"composite names {node.id!r}: not an argument or q-op")
