"""The quantized ops (generated/dispatch/quantized_ops.py), the float ops' selection of them,
and their Tensor methods: every statement decided here, by each q-op's role and its arguments'
types (codegen/model.py's QOp).

burn's QTensorOps defaults become Tensor-level code over the dispatch functions, as burn's
macros are code over `Self::dequantize`, `B::float_<op>` and `Self::quantize_dynamic`: so they
route, and differentiate on an autodiff device, as every float op does.
"""

from dataclasses import dataclass

from burnpy.codegen.api.tensor import Method, _convert, _params
from burnpy.codegen.api.types import DISPATCH_TYPES, annotated
from burnpy.codegen.model import (
    QUANTIZED_ARGS,
    Arg,
    ArgKind,
    Catalogue,
    Kind,
    Op,
    QOp,
    QResult,
    QRole,
    Routing,
)

QUANTIZED_TYPES = {
    **DISPATCH_TYPES,
    ArgKind.QFLOAT: "Tensor",
    ArgKind.PRIMITIVE: "Tensor",
    ArgKind.QTENSORS: "list[Tensor]",
    ArgKind.SCHEME: "QuantScheme",
    ArgKind.DATA: "object",
}
RESULT_TYPES = {QResult.DATA: "tuple[np.ndarray, np.ndarray]", QResult.FLAG: "bool"}
ROLE_COMMENTS = {
    QRole.QUANT: "dequant_op_quant!: dequantize, the float op, quantize again",
    QRole.FLOW: "dequant_op_flow!: dequantize, the float op, quantized again if the device propagates",
    QRole.FLOAT: "dequantize, the float op: its result is not a float",
}


@dataclass(frozen=True)
class QFunction:
    name: str
    params: str
    returns: str
    doc: str
    body: tuple[str, ...]


def quantized_functions(catalogue: Catalogue) -> list[QFunction]:
    return [_function(q) for q in catalogue.quantized]


def _returns(q: QOp) -> str:
    if len(q.returns) == 1:
        return RESULT_TYPES.get(q.returns[0], "Tensor")
    return f"tuple[{', '.join(RESULT_TYPES.get(r, 'Tensor') for r in q.returns)}]"


def _function(q: QOp) -> QFunction:
    params = ", ".join(annotated(a, QUANTIZED_TYPES) for a in q.args)
    if q.role is QRole.COMPOSITE:
        body = (f"return {q.composite}",)
    elif q.role in (QRole.REQUIRED, QRole.KERNEL):
        body = _kernel_call(q)
    else:
        body = _default(q)
    return QFunction(q.name, params, _returns(q), q.doc, body)


def _kernel_call(q: QOp) -> tuple[str, ...]:
    """A kernel of the inner backend, on the quantized primitive; by what the arguments are: a
    device alone makes a tensor, a quantized tensor with a device moves it, a float tensor is
    quantized, a plain-or-quantized one dequantized."""
    types = [a.type for a in q.args]
    first = q.args[0].name
    call = f"B.inner.{q.name}"
    if ArgKind.DEVICE in types and ArgKind.QFLOAT not in types:  # a new tensor on a device
        names = ", ".join(a.name + (".inner" if a.type is ArgKind.DEVICE else "") for a in q.args)
        return (
            "B: Backend = getattr(BACKENDS, device.variant)",
            f"return Tensor(B.QFloat, {call}({names}), context_of(device))",
        )
    lines = [f"B: Backend = getattr(BACKENDS, {first}.kind.variant)"]
    if ArgKind.DEVICE in types:  # a move: within a backend, or across two through the data
        return (
            *lines,
            "T: Backend = getattr(BACKENDS, device.variant)",
            f"{first}_ = {first}.as_quantized()",
            "if T is B:",
            f"    moved = {call}({first}_, device.inner)",
            "else:  # between backends, through the values and scales",
            f"    values, scales = B.inner.q_into_data({first}_)",
            f"    moved = T.inner.q_from_data(values, scales, {first}_.scheme, {first}_.shape, device.inner)",
            "return Tensor(T.QFloat, moved, context_of(device))",
        )
    args = []
    for a in q.args:
        if a.type is ArgKind.FLOAT:  # quantizing reads the float values: the history is dropped
            args.append(f"{a.name}.float_data({'' if a.name == first else first})")
        elif a.type is ArgKind.QFLOAT:
            args.append(f"{a.name}.as_quantized()")
        elif a.type is ArgKind.PRIMITIVE:
            args.append(f"{a.name}.primitive")
        else:
            args.append(a.name)
    out = f"{call}({', '.join(args)})"
    if ArgKind.PRIMITIVE in types:  # dequantize: a plain float tensor is already its value
        lines += [
            f"if {first}.kind is not B.QFloat:",
            f"    return {first}",
            f"out = {out}",
            f"if {first}.context is DISABLED:",
            "    return Tensor(B.Float, out, DISABLED)",
            f"AD = B.Balanced if {first}.context.strategy is BALANCED else B.NoCheckpointing",
            f"return Tensor(B.Autodiff, AD.from_inner(out), {first}.context)  # a new leaf",
        ]
        return tuple(lines)
    if q.returns == (QResult.DATA,):
        return (*lines, f"return {out}")
    return (*lines, f"return Tensor(B.QFloat, {out}, {first}.context)")


def _default(q: QOp) -> tuple[str, ...]:
    """burn's default: the float op on the dequantized operands."""
    quantized = q.quantized_args
    lines = [f"# {ROLE_COMMENTS[q.role]}"]
    primitive = [a for a in quantized if a.type is ArgKind.PRIMITIVE]
    if primitive:  # either operand may be plain: the last quantized one decides, as burn's
        lhs, rhs = primitive
        lines.append(f"quantized = {rhs.name} if {rhs.name}.is_quantized() else {lhs.name}")
        source = "quantized"
    else:
        first = quantized[0]
        source = f"{first.name}[0]" if first.type is ArgKind.QTENSORS else first.name

    def dequantized(a):
        if a.type is ArgKind.QTENSORS:
            return f"[dequantize(t, FLOAT32) for t in {a.name}]"
        if a.type is ArgKind.PRIMITIVE:  # to the other operand's dtype: a mixed pair matches
            other = next(p for p in primitive if p is not a)
            return f"dequantize({a.name}, {other.name}.dtype)"
        if a.type is ArgKind.QFLOAT:
            return f"dequantize({a.name}, FLOAT32)"
        return a.name

    call = f"float_ops.{q.float}({', '.join(dequantized(a) for a in q.args)})"
    if q.role is QRole.FLOAT:
        return (*lines, f"return {call}")
    lines.append(f"scheme = {source}.as_quantized().scheme")
    if len(q.returns) > 1:
        names = ["out"] + [f"out{i}" for i in range(1, len(q.returns))]
        lines.append(f"{', '.join(names)} = {call}")
        rest = ", ".join(names[1:])
        return (*lines, f"return quantize_dynamic(out, scheme), {rest}")
    lines.append(f"out = {call}")
    if q.role is QRole.QUANT:
        return (*lines, "return quantize_dynamic(out, scheme)")
    return (*lines, f"return quantize_dynamic(out, scheme) if propagates({source}) else out")


@dataclass(frozen=True)
class Selection:
    """How a float op hands quantized operands to the q-op it `routes` to (burn-tensor's
    routing): `test`, then `call`. `first_required`: the test holds only when the op's first
    tensor is quantized, so the dispatch function asks it only when that tensor is not of the
    kind the routing's arm expects (api/dispatch.py folds it there), not on every call."""

    test: str
    call: str
    first_required: bool

    @property
    def lines(self) -> tuple[str, str]:
        """The statements that select the q-op, asked up front."""
        return (f"if {self.test}:", f"    return {self.call}")


def selections(catalogue: Catalogue) -> dict[str, Selection]:
    """For each float op a q-op `routes`: the test and the call that hand quantized operands to
    the q-op. Every quantized-only operand must be quantized; of a plain-or-quantized pair,
    one."""
    found = {}
    for q in catalogue.quantized:
        if q.routes is None:
            continue
        op = catalogue.op(q.routes)
        tests = []
        alone = [a for a in q.args if a.type is ArgKind.QFLOAT]
        either = [a for a in q.args if a.type is ArgKind.PRIMITIVE]
        lists = [a for a in q.args if a.type is ArgKind.QTENSORS]
        tests += [f"{a.name}.kind is B.QFloat" for a in alone]
        tests += [f"{a.name}[0].kind is B.QFloat" for a in lists]
        if either:
            test = " or ".join(f"{a.name}.kind is B.QFloat" for a in either)
            tests.append(f"({test})" if tests else test)
        call = f"quantized_ops.{q.name}({', '.join(a.name for a in op.args)})"
        first = op.tensor_args[0].name
        first_required = not either and not lists and any(a.name == first for a in alone)
        found[op.name] = Selection(" and ".join(tests), call, first_required)
    return found


def quantized_methods(catalogue: Catalogue) -> list[Method]:
    """The Tensor methods of the q-ops that have one (quantize_dynamic, dequantize, ...)."""
    methods = []
    for q in catalogue.quantized:
        if not q.method:
            continue
        as_op = Op(q.method, Kind.FLOAT, _plain_args(q), (Kind.FLOAT,), Routing.TENSOR, q.doc,
                   q.line, defaults=q.defaults)  # fmt: skip
        receiver = None if q.static else q.args[0]
        params = [a for a in as_op.args if receiver is None or a.name != receiver.name]
        signature = ", ".join(["cls" if q.static else "self", *_params(params, q.static, as_op)])
        args = []
        for a in q.args:
            if receiver is not None and a.name == receiver.name:
                args.append("self")
            elif a.type is ArgKind.SCHEME:
                args.append(f'scheme_arg("{q.method}", {a.name})')
            elif a.type is ArgKind.DATA:
                args.append(f"np.asarray({a.name})")
            elif a.type is ArgKind.SHAPE and a.optional:
                args.append(
                    f'None if {a.name} is None else shape_of("{q.method}", "{a.name}", {a.name})'
                )
            elif a.type is ArgKind.FLOAT:
                args.append(f'float_arg("{q.method}", "{a.name}", {a.name})')
            elif a.type is ArgKind.DTYPE:  # a quantized tensor dequantizes to a float dtype
                args.append(f'float_dtype_arg("{q.method}", {a.name})')
            else:
                args.append(_convert(q.method, as_op, a))
        body = [f"return {q.name}({', '.join(args)})"]
        methods.append(Method(q.method, q.static, signature, q.doc, body, (), None, _returns(q)))
    return methods


def _plain_args(q: QOp) -> tuple[Arg, ...]:
    """The q-op's arguments as a float op's (for the shared signature helpers)."""
    return tuple(Arg(a.name, QUANTIZED_ARGS.get(a.type, a.type), a.optional) for a in q.args)
