"""The Tensor class's methods (generated/tensor.py): each routes by the receiver's kind."""

from dataclasses import dataclass

from burnpy.codegen.api.types import (
    KIND_ARG,
    KIND_CONST,
    REFUSALS,
    TENSOR_KIND,
    USER_TYPES,
    annotated,
    contract_of,
    narrowed,
    quoted,
    returns,
    tuple_literal,
)
from burnpy.codegen.model import SCALAR_TYPES, Arg, ArgKind, Catalogue, Kind, Op, Role, Routing


@dataclass(frozen=True)
class Method:
    name: str
    static: bool
    signature: str
    doc: str
    body: list[str]
    operators: tuple[str, ...]
    alias: str | None = None  # the dispatch function the method is, if it only forwards to it
    returns: str = "Tensor"
    # the decorator that runs its plain arm in C (runtime/plain_arm.py), if it has one
    plain_arm: str | None = None

    @property
    def alias_value(self) -> str:
        """What an alias method is set to: its dispatch function, wrapped if it runs plain."""
        return f"{self.plain_arm}({self.alias})" if self.plain_arm else str(self.alias)


def tensor_methods(catalogue: Catalogue) -> list[Method]:
    groups: dict[str, list[Op]] = {}
    claims: dict[str, dict[str, list[Op]]] = {}  # operator -> method -> the ops claiming it
    for op in catalogue.ops:
        if op.method:
            groups.setdefault(op.method, []).append(op)
        for operator in op.operators:
            claims.setdefault(operator, {}).setdefault(op.method, []).append(op)
    routed = {operator: by_method for operator, by_method in claims.items() if len(by_method) > 1}
    methods = []
    for name, ops in groups.items():
        aliases = dict.fromkeys(o for op in ops for o in op.operators if o not in routed)
        methods.append(_method(name, ops, tuple(aliases), _dim_form(name, ops, groups)))
    return methods + [_routed_operator(o, by_method) for o, by_method in routed.items()]


def _routed_operator(operator: str, by_method: dict[str, list[Op]]) -> Method:
    """A dunder claimed by methods of different kinds: it calls the one of the receiver's kind."""
    first = next(iter(by_method.values()))[0]
    params = [a.name for a in _rest(first)]
    body = ["kind = self.kind.tensor_kind"]
    kinds = {}
    for method, ops in by_method.items():
        for kind in dict.fromkeys(op.kind for op in ops):
            kinds[KIND_CONST[kind]] = method
            body += [
                f"if kind is {KIND_CONST[kind]}:",
                f"    return self.{method}({', '.join(params)})",
            ]
    body.append(f'raise kind_error("{operator}", self, {tuple_literal(kinds)})')
    doc = "Routes by kind: " + ", ".join(f"{k.lower()} -> {m}" for k, m in kinds.items()) + "."
    signature = ", ".join(["self", *(f"{p}: Tensor | float" for p in params)])
    return Method(operator, False, signature, doc, body, ())


@dataclass(frozen=True)
class DimForm:
    """A reduction over every element (`sum`) whose catalogue also reduces along a dim
    (`sum_dim`): PyTorch's `t.sum(0)` is answered with the burnpy call."""

    method: str
    with_indices: str | None  # PyTorch's (values, indices) form, where the catalogue has one


def _dim_form(name: str, ops: list[Op], groups: dict[str, list[Op]]) -> DimForm | None:
    if ops[0].static or _rest(ops[0]) or f"{name}_dim" not in groups:
        return None
    with_indices = f"{name}_dim_with_indices"
    return DimForm(f"{name}_dim", with_indices if with_indices in groups else None)


def _method(
    name: str, ops: list[Op], operators: tuple[str, ...], dim_form: DimForm | None = None
) -> Method:
    first = ops[0]
    doc = _doc(ops)
    if first.static:
        return _static_method(name, ops, doc, operators)
    params = _rest(first)
    if dim_form:
        return _whole_reduction(name, ops, doc, operators, dim_form)
    if len(ops) == 1 and not params and first.args[0] is first.receiver and not narrowed(first):
        # A method that would only pass `self` to one dispatch function is that function: one
        # call instead of two (a tensor of another kind meets the routing's clear TypeError).
        arm = _plain_arm_of(ops)
        return Method(name, False, "self", doc, [], operators, alias=first.name, plain_arm=arm)
    plain = _plain_path(ops)
    body = [*plain, f"kind = {'own' if plain else 'self.kind'}.tensor_kind"]
    scalar_ops = [op for op in ops if _rest(op) and _rest(op)[0].type in SCALAR_TYPES]
    tensor_ops = [op for op in ops if op not in scalar_ops]
    widen = (params[0].name,) if scalar_ops and tensor_ops else ()
    signature = ", ".join(["self", *_params(params, op=first, widen=widen)])
    if scalar_ops and tensor_ops:
        second = params[0].name
        # `type(x) is Tensor` first: an isinstance test against TensorBase, whose metaclass is
        # not `type`, goes through __instancecheck__
        body.append(f"if type({second}) is Tensor or isinstance({second}, TensorBase):")
        body += ["    " + line for line in _kind_branches(name, tensor_ops)]
        body.append("else:")
        body += ["    " + line for line in _kind_branches(name, scalar_ops)]
    else:
        body += _kind_branches(name, ops)
    kinds = tuple_literal(dict.fromkeys(KIND_CONST[op.kind] for op in ops))
    body.append(f'raise kind_error("{name}", self, {kinds})')
    arm = _plain_arm_of(ops)
    return Method(
        name, False, signature, doc, body, operators, returns=returns(first), plain_arm=arm
    )


def _whole_reduction(name, ops, doc, operators, dim_form: DimForm) -> Method:
    """A reduction over every element; a dim given to it (PyTorch's habit) is refused with the
    dim form's name, at no cost to a call without one."""
    with_indices = f'"{dim_form.with_indices}"' if dim_form.with_indices else "None"
    plain = _plain_path(ops)
    body = [
        "if dim or keywords:",
        f'    raise given_a_dim("{name}", "{dim_form.method}", {with_indices}, dim, keywords)',
        *plain,
        f"kind = {'own' if plain else 'self.kind'}.tensor_kind",
        *_kind_branches(name, ops),
    ]
    kinds = tuple_literal(dict.fromkeys(KIND_CONST[op.kind] for op in ops))
    body.append(f'raise kind_error("{name}", self, {kinds})')
    signature = "self, *dim: int, **keywords: int"
    arm = _plain_arm_of(ops)
    return Method(
        name, False, signature, doc, body, operators, returns=returns(ops[0]), plain_arm=arm
    )


def _plain_path(ops: list[Op]) -> list[str]:
    """The commonest call of a method, run by the method itself: its float op over plain float
    tensors of the receiver's very kind (one backend), untracked, of one dtype object, is the
    routing's Disabled arm, the kernel alone; one frame instead of two, and no routing by
    kind. Anything else (another kind, a context to merge, dtypes to compare, a quantized
    operand) goes on to the routing, whose checks and messages are the op's."""
    op = _plain_op(ops)
    if op is None:
        return []
    tensors = ["self", *(a.name for a in _rest(op))]
    names = [f"{a.name}_" for a in op.args]
    test = ["inner is not None"]
    test += [f"type({t}) is Tensor and {t}.kind is own" for t in tensors[1:]]
    test += [f"{t}.context is DISABLED" for t in tensors]
    arguments = ", ".join(f"{a.name}={t}" for a, t in zip(op.args, tensors))
    arm = [
        "try:",
        f"    out_ = inner.{op.name}({', '.join(names)})",
        f"except ({', '.join(REFUSALS)}) as error:",
        f"    check_contract({contract_of(op)}, error, {arguments})",
        "    raise",
        "out = new_tensor(Tensor)",
        "out.kind, out.primitive, out.context = own, out_, DISABLED",
        "return out",
    ]
    if len(names) > 1:  # an identity test: equal dtypes that are two objects take the routing
        same = " and ".join(f"{names[0]}.dtype is {n}.dtype" for n in names[1:])
        arm = [f"if {same}:", *(f"    {line}" for line in arm)]
    what = "plain float tensors of one backend" if len(names) > 1 else "a plain float tensor"
    return [
        "own = self.kind",
        "inner = own.plain_inner",
        f"if {' and '.join(test)}:",
        f"    # {what}, untracked: {op.name}'s Disabled arm, run here",
        f"    {', '.join(names)} = {', '.join(f'{t}.primitive' for t in tensors)}",
        *(f"    {line}" for line in arm),
    ]


def _plain_arm_of(ops: list[Op]) -> str | None:
    """The decorator of a method that runs a plain arm (`_plain_path`): the same arm in C."""
    op = _plain_op(ops)
    return _plain_arm(op) if op else None


def _plain_op(ops: list[Op]) -> Op | None:
    return next((op for op in ops if _runs_plain(op)), None)


def _plain_arm(op: Op) -> str:
    return f'plain_arm("{op.name}", {1 + len(_rest(op))})'


def _runs_plain(op: Op) -> bool:
    """Is `op` a float op of float tensors only (the receiver and at most one more), whose
    Disabled arm is the inner kernel over the primitives, its one float result wrapped?"""
    others = _rest(op)
    return (
        op.role is Role.AUTODIFF
        and op.routing is Routing.TENSOR
        and op.returns == (Kind.FLOAT,)
        and op.args[0] is op.receiver
        and not narrowed(op)
        and len(others) <= 1
        and all(a.type is ArgKind.FLOAT and not a.optional for a in others)
    )


def _rest(op: Op) -> list:
    """A method's parameters: every argument but the receiver (`self`)."""
    return [a for a in op.args if a is not op.receiver]


def _doc(ops: list[Op]) -> str:
    if len(ops) == 1:
        return ops[0].doc
    lines = [f"{op.name}: {op.doc}" for op in ops]
    return "Routes by kind:\n\n" + "\n".join(f"        - {line}" for line in lines) + "\n        "


def _kind_branches(method: str, ops: list[Op]) -> list[str]:
    lines = []
    for op in ops:
        rest = _rest(op)
        args = ["self" if a is op.receiver else _convert(method, op, a) for a in op.args]
        # a tensor of the receiver's very kind (backend, variant) needs no check here: the
        # dispatch function checks the dtypes it reads anyway; any other meets same_kind
        checks = [
            line
            for a in rest
            if a.type is KIND_ARG[op.kind]
            for line in (
                f"if type({a.name}) is not Tensor or {a.name}.kind is not self.kind:",
                f'    same_kind("{method}", self, {a.name})',
            )
        ] + [
            f'expect_kind("{method}", {a.name}, {KIND_CONST[TENSOR_KIND[a.type]]})'
            for a in rest
            if a.type in TENSOR_KIND and a.type is not KIND_ARG[op.kind]
        ]
        # a conversion's dtypes are its result's (ops.yaml `dtypes`), not the receiver's
        if narrowed(op) and op.routing is not Routing.CONVERSION:
            checks.append(
                f'check_dtype("{op.name}", self.dtype, {tuple_literal(map(quoted, op.dtypes))})'
            )
        lines.append(f"if kind is {KIND_CONST[op.kind]}:")
        lines += [f"    {c}" for c in checks]
        lines.append(f"    return {op.name}({', '.join(args)})")
    return lines


def _convert(method: str, op: Op, arg, receiver: str = "self") -> str:
    """The expression that turns a user's argument into what the dispatch function takes;
    `receiver` is the tensor that dims and slices refer to."""
    t, n = arg.type, arg.name
    result_kind = op.returns[0]
    where = f'"{method}", "{n}"'
    return {
        ArgKind.SCALAR: f'scalar_for("{method}", {receiver}, {n})',
        ArgKind.NUMBER: f"real_arg({where}, {n})",
        ArgKind.INTEGER: f"integer_arg({where}, {n})",
        ArgKind.FLAG: f"flag_arg({where}, {n})",
        ArgKind.DIM: f"dim_of({where}, {receiver}, {n})",
        ArgKind.DIMS: f"dims_of({where}, {receiver}, {n})",
        ArgKind.SHAPE: f"shape_of({where}, {n})",
        ArgKind.VIEW_SHAPE: f"view_shape_of({where}, {receiver}, {n})",
        ArgKind.SLICES: f'slices_arg("{method}", {receiver}, {n})',
        ArgKind.UPDATE: f"update_arg({n})",
        ArgKind.DEVICE: f"device_arg({n}).device",
        ArgKind.DTYPE: f"dtype_arg({n}, {KIND_CONST[result_kind]})",
        ArgKind.DISTRIBUTION: f"distribution_arg({n})",
        ArgKind.TENSORS: f"tensors_of({where}, {n})",
        ArgKind.CHOICE: (
            f"choice_arg({where}, {n}, {tuple_literal(map(quoted, op.choices.get(n, ())))})"
        ),
    }.get(t, n)


def _params(args, static=False, op: Op | None = None, widen=()) -> list[str]:
    """A method's parameters, annotated: a constructor's device and dtype are keyword-only, and
    so is every argument from the entry's `keyword` on; the entry's `defaults` are the defaults.
    `widen` names the parameters that take a Tensor or a scalar (the method routes by which)."""
    out, keyword_only = [], False
    for arg in args:
        if op is not None and arg.name == op.keyword:
            out.append("*")
            keyword_only = True
        default = None
        if op is not None and arg.name in op.defaults:
            default = repr(op.defaults[arg.name])
        elif arg.type is ArgKind.DTYPE and not static:
            default = "None"
        elif static and arg.type in (ArgKind.DEVICE, ArgKind.DTYPE):
            if not keyword_only:
                out.append("*")
                keyword_only = True
            default = "None"
        elif arg.type in (ArgKind.DISTRIBUTION,) or arg.optional:
            default = "None"
        elif arg.type is ArgKind.FLAG:
            default = "False"
        param = annotated(arg, USER_TYPES, default)
        if arg.name in widen:  # the method routes a Tensor and a scalar to different ops
            param = f"{arg.name}: Tensor | float" + (f" = {default}" if default else "")
        out.append(param)
    return out


def _static_method(name, ops, doc, operators) -> Method:
    first = ops[0]
    signature = ", ".join(["cls", *_params(first.args, static=True, op=first)])
    lists = [a for a in first.args if a.type is ArgKind.TENSORS]
    if lists:
        return _list_method(name, ops, doc, operators, signature, lists[0].name)
    data = next((a for a in first.args if a.type is ArgKind.DATA), None)
    deciding = _kind_deciding(ops)
    if data is not None:
        resolve = f"dtype = infer_data_dtype({data.name}, dtype)"
    elif deciding is not None:
        resolve = f'dtype = fill_dtype("{name}", {deciding.name}, dtype)'
    else:
        resolve = f"dtype = dtype_arg(dtype, {KIND_CONST[first.kind]})"
    body = [resolve, "kind = kind_of_dtype(dtype)"]
    for op in ops:
        args = []
        for arg in op.args:
            if arg.type is ArgKind.DTYPE:
                args.append(arg.name)
            elif arg.type is ArgKind.DATA:
                args.append(f"data_arg({arg.name})")
            else:
                args.append(_convert(name, op, arg))
        body.append(f"if kind is {KIND_CONST[op.kind]}:")
        if narrowed(op):
            body.append(
                f'    check_dtype("{op.name}", dtype, {tuple_literal(map(quoted, op.dtypes))})'
            )
        body.append(f"    return {op.name}({', '.join(args)})")
    kinds = tuple_literal(KIND_CONST[op.kind] for op in ops)
    body.append(f'raise dtype_error("{name}", dtype, {kinds})')
    return Method(name, True, signature, doc, body, operators, returns=returns(ops[0]))


def _kind_deciding(ops: list[Op]) -> Arg | None:
    """The argument whose type differs among the ops a constructor routes to (`full`'s fill
    value: a number makes float_full, an integer int_full): without a dtype, its value's type
    decides the kind. None when their arguments are alike."""
    for position, arg in enumerate(ops[0].args):
        if len({op.args[position].type for op in ops}) > 1:
            return arg
    return None


def _list_method(name, ops, doc, operators, signature, tensors) -> Method:
    """A static method over a list of tensors (`Tensor.cat`): routes by the first one's kind."""
    body = [
        f'{tensors} = tensors_of("{name}", "{tensors}", {tensors})',
        f"kind = {tensors}[0].kind.tensor_kind",
    ]
    for op in ops:
        args = [
            a.name if a.type is ArgKind.TENSORS else _convert(name, op, a, f"{tensors}[0]")
            for a in op.args
        ]
        body.append(f"if kind is {KIND_CONST[op.kind]}:")
        body.append(f"    return {op.name}({', '.join(args)})")
    kinds = tuple_literal(KIND_CONST[op.kind] for op in ops)
    body.append(f'raise kind_error("{name}", {tensors}[0], {kinds})')
    return Method(name, True, signature, doc, body, operators, returns=returns(ops[0]))
