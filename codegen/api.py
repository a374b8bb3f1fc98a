"""Names, signatures, argument lists and statements, computed from the model for the templates.

All the decisions live here; the templates only lay the pieces out (torchgen's rule).
"""

import ast
from dataclasses import dataclass

from codegen.model import INTS, SCALAR_TYPES, Backend, Catalogue, Op
from codegen.recorders import Input, Recorded, RecorderSource, recorder_source
from runtime.autodiff.backend import MOVE_ACROSS

KIND_CONST = {"float": "FLOAT", "int": "INT", "bool": "BOOL"}
PLAIN_KIND = {"float": "Float", "int": "Int", "bool": "Bool"}
# The kind of a tensor argument's type: indices are Int tensors (of any int dtype).
TENSOR_KIND = {"float": "float", "int": "int", "bool": "bool", "indices": "int"}
ACCESSOR = {t: f"as_{kind}" for t, kind in TENSOR_KIND.items()}


# -- type annotations ----------------------------------------------------------------------------
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
    "ints1": "int | Sequence[int]",
    "ints2": "int | Sequence[int]",
    "ints3": "int | Sequence[int]",
    "choice": "str",
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
    "ints1": "tuple[int]",
    "ints2": "tuple[int, int]",
    "ints3": "tuple[int, int, int]",
}


def annotated(arg, types: dict, default: str | None = None) -> str:
    """`name: type` (`= default`): an optional argument may be None."""
    kind = types[arg.type]
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


# -- dispatch functions ----------------------------------------------------------------------


@dataclass(frozen=True)
class Arm:
    """One backend's branch of a dispatch function."""

    variant: str
    plain: list[str]  # statements under DispatchAutodiffContext.Disabled
    autodiff: list[str]  # statements under Enabled, once AD (the specialization) is chosen


@dataclass(frozen=True)
class DispatchFunction:
    name: str
    kind: str
    template: str  # which routing shape lays it out
    params: str  # annotated
    doc: str
    merge: str  # the expression merging every tensor input's context
    selector: str  # the argument whose kind (or device) picks the backend
    arms: tuple[Arm, ...]
    composite: str | None
    returns: str = "Tensor"
    checked: str = ""  # check_contract's first arguments: the op, its contract
    arguments: str = ""  # every argument by name, for check_contract


def dispatch_groups(catalogue: Catalogue) -> list[str]:
    """The dispatch modules, `<group>_ops.py`: one per kind, and one per function module
    (module ops are float ops, grouped apart as burn's ModuleOps trait is)."""
    kinds = [k for k in ("float", "int", "bool") if any(_group(op) == k for op in catalogue.ops)]
    functions = sorted({op.function for op in catalogue.ops if op.function})
    return kinds + functions


def _group(op: Op) -> str:
    return op.function or op.kind


def dispatch_functions(catalogue: Catalogue, group: str) -> list[DispatchFunction]:
    return [_dispatch(op, catalogue.backends) for op in catalogue.ops if _group(op) == group]


def _dispatch(op: Op, backends) -> DispatchFunction:
    params = ", ".join(annotated(a, DISPATCH_TYPES) for a in op.args)
    doc = op.doc
    if op.composite:
        return DispatchFunction(
            op.name, op.kind, "composite", params, doc, "", "", (), op.composite, returns(op)
        )
    tensors = op.tensor_args
    if op.routing == "creation":
        selector = next(a.name for a in op.args if a.type == "device")
        template = "creation_float" if op.kind == "float" else "creation_plain"
        merge = ""
    else:
        first = tensors[0]
        selector = f"{first.name}[0]" if first.type == "tensors" else first.name
        merge = _merge(op)
        if op.routing == "move":
            template = "move"
        elif op.routing == "conversion" and op.returns == ("float",):
            template = "leaf"
        elif op.kind == "float":
            template = "autodiff"
        else:
            template = "plain"
    arms = tuple(_arm(op, b, selector) for b in backends)
    checked = arguments = ""
    if op.routing == "tensor" and (op.contract or any(a.type in ("dim", "dims") for a in op.args)):
        checked = f'"{op.name}", ' + (f'"{op.contract}"' if op.contract else "None")
        arguments = ", ".join(f"{a.name}={a.name}" for a in op.args)
    return DispatchFunction(
        op.name,
        op.kind,
        template,
        params,
        doc,
        merge,
        selector,
        arms,
        None,
        returns(op),
        checked,
        arguments,
    )


def _merge(op: Op) -> str:
    tensors = op.tensor_args
    single = [a for a in tensors if a.type != "tensors"]
    lists = [a for a in tensors if a.type == "tensors"]
    if lists:
        # n-ary ops merge every element's context too (DESIGN §4a)
        first = single[0].name + ".context" if single else "DISABLED"
        return f"merge_contexts({first}, {lists[0].name})"
    expr = f"{single[0].name}.context"
    if len(single) == 2 and not single[1].optional:  # the hot binary case: shared contexts
        other = f"{single[1].name}.context"  # need no merge call
        return f"{expr} if {other} is {expr} else {expr}.merge({other})"
    for arg in single[1:]:
        # an absent optional tensor has no context: Disabled, the identity of merge
        context = f"{arg.name}.context"
        if arg.optional:
            context = f"DISABLED if {arg.name} is None else {context}"
        expr += f".merge({context})"
    return expr


def _arm(op: Op, backend: Backend, selector: str) -> Arm:
    """A backend's statements: each tensor input bound to `<name>_`, its primitive (or its
    AutodiffTensor), then the call of the inner backend (or the Autodiff specialization)."""
    variant = backend.variant

    # The common case is an identity test on the shared kind; the accessor handles the rest (a
    # constant to lift, another backend or kind to report). It is told the backend the op runs
    # on and, if it is not the input itself, the input that chose it: a tensor of another
    # backend raises an error that names both devices.
    def routed(name):
        return f'"{variant}"' if name == selector else f'"{variant}", {selector}'

    def plain_arg(arg):
        n = arg.name
        if arg.type == "tensors":
            return f"[t.{ACCESSOR[op.kind]}({routed(None)}) for t in {n}]"
        if arg.type in ACCESSOR:
            kind = PLAIN_KIND[TENSOR_KIND[arg.type]]
            return (
                f"{n}.primitive if {n}.kind is B.{kind} else {n}.{ACCESSOR[arg.type]}({routed(n)})"
            )
        if arg.type == "device":
            return f"{n}.inner"
        return n

    def autodiff_arg(arg):
        n = arg.name
        if arg.type == "tensors":
            return f"[t.lift(AD, {selector}) for t in {n}]"
        if arg.type == "float":
            lift = f"AD, {selector}" if n != selector else "AD"
            return f"{n}.primitive if {n}.kind is B.Autodiff else {n}.lift({lift})"
        return plain_arg(arg)

    def statements(expression, call_of, wrap, primitive="") -> list[str]:
        bindings, names = [], []
        for arg in op.args:
            value = expression(arg)
            if arg.optional:
                value = f"None if {arg.name} is None else ({value})"
            if arg.type in ACCESSOR or arg.type == "tensors":
                bindings.append(f"{arg.name}_ = {value}")
                names.append(f"{arg.name}_")
            else:
                names.append(value)
        return (
            bindings
            + _dtype_checks(op, primitive)
            + wrap(f"{call_of}.{op.name}({', '.join(names)})")
        )

    def plain(wrap):
        return statements(plain_arg, "B.inner", wrap)

    def autodiff(wrap):
        return statements(autodiff_arg, "AD", wrap, primitive=".primitive")

    if op.routing == "creation":
        if op.kind == "float":
            return Arm(
                variant,
                plain(lambda call: [f"return Tensor(B.Float, {call}, DISABLED)"]),
                autodiff(lambda call: [f"return Tensor(B.Autodiff, {call}, ctx)"]),
            )
        context = f"context_of({_device_name(op)})"
        kind = PLAIN_KIND[op.kind]
        return Arm(variant, plain(lambda call: [f"return Tensor(B.{kind}, {call}, {context})"]), [])
    if op.routing == "conversion" and op.returns == ("float",):
        return Arm(
            variant,
            plain(lambda call: [f"return Tensor(B.Float, {call}, ctx)"]),
            autodiff(lambda call: [f"return Tensor(B.Autodiff, {call}, ctx)"]),
        )
    if op.routing == "move":
        return Arm(variant, [], [])
    return Arm(
        variant,
        plain(lambda call: _returns(op, call, autodiff=False)),
        autodiff(lambda call: _returns(op, call, autodiff=True)) if op.kind == "float" else [],
    )


def _dtype_checks(op: Op, primitive: str) -> list[str]:
    """Tensors of the op's own kind must share a dtype (no silent promotion, DESIGN §4a): an
    identity test on the dtypes; check_dtypes passes equal dtypes that are distinct objects and
    raises for different ones. `primitive` reaches an AutodiffTensor's primitive."""
    same_kind = [a for a in op.args if a.type == op.kind] or [None]
    first, *others = same_kind
    lines = []
    for other in others:
        a, b = f"{first.name}_{primitive}", f"{other.name}_{primitive}"
        present = f"{other.name}_ is not None and " if other.optional else ""
        lines += [
            f"if {present}{a}.dtype is not {b}.dtype:",
            f'    check_dtypes("{op.name}", B.inner, {a}, {b})',
        ]
    return lines


def _device_name(op: Op) -> str:
    return next(a.name for a in op.args if a.type == "device")


def _returns(op: Op, call: str, autodiff: bool) -> list[str]:
    def kind_of(result):
        if result == "float":
            return "B.Autodiff" if autodiff else "B.Float"
        return f"B.{PLAIN_KIND[result]}"

    if len(op.returns) == 1:
        return [f"return Tensor({kind_of(op.returns[0])}, {call}, ctx)"]
    names = [f"out{i}" for i in range(len(op.returns))]
    wrapped = ", ".join(f"Tensor({kind_of(r)}, {n}, ctx)" for r, n in zip(op.returns, names))
    return [f"{', '.join(names)} = {call}", f"return ({wrapped})"]


# -- public functions (generated/module.py) ----------------------------------------------------


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
    params, keyword_only = [], False
    for arg in op.args:
        if arg.name == op.keyword:
            params.append("*")
            keyword_only = True
        default = op.defaults.get(arg.name)
        has_default = arg.name in op.defaults or arg.optional
        params.append(annotated(arg, USER_TYPES, repr(default) if has_default else None))
    first = op.tensor_args[0].name
    checks = [
        f"{a.name} = dtype_arg({a.name}, {KIND_CONST[op.kind]})"
        for a in op.args
        if a.type == "dtype"
    ]
    if narrowed(op):  # (the first tensor is checked before its dtype is read)
        checks.append(f'tensor_arg("{op.name}", "{first}", {first}, {KIND_CONST[op.kind]})')
        checks.append(f'check_dtype("{op.name}", {first}.dtype, {_tuple(map(repr, op.dtypes))})')
    call = f"{op.name}({', '.join(_function_arg(op, a, first) for a in op.args)})"
    return Function(op.name, ", ".join(params), op.doc, checks, call, returns(op))


def _function_arg(op: Op, arg, first: str) -> str:
    """A function's argument checked and converted: the function's name and the argument's are
    in every message."""
    t, n = arg.type, arg.name
    where = f'"{op.name}", "{n}"'
    if t in TENSOR_KIND:
        check = "optional_tensor_arg" if arg.optional else "tensor_arg"
        return f"{check}({where}, {n}, {KIND_CONST[TENSOR_KIND[t]]})"
    if t in INTS:
        check = "optional_ints_arg" if arg.optional else "ints_arg"
        return f"{check}({where}, {n}, {INTS[t]}{_nonzero(op, n)})"
    if t == "choice":
        return f"choice_arg({where}, {n}, {_tuple(map(repr, op.choices[n]))})"
    if t == "dim":
        return f"dim_of({where}, {first}, {n})"
    if t in ("real", "number"):
        return f"real_arg({where}, {n}{_optional(arg)})"
    if t == "integer":
        return f"integer_arg({where}, {n}{_nonzero(op, n)}{_optional(arg)})"
    if t == "flag":
        return f"flag_arg({where}, {n})"
    return n


def _nonzero(op: Op, name: str) -> str:
    return ", nonzero=True" if name in op.nonzero else ""


def _optional(arg) -> str:
    return ", optional=True" if arg.optional else ""


# -- backends ------------------------------------------------------------------------------


def backend_registrations(catalogue: Catalogue) -> list[str]:
    """The arguments of each backend's `register_backend(...)` call."""

    def quoted(text: str) -> str:
        return f'"{text}"'

    return [
        ", ".join(
            [
                quoted(b.variant),
                quoted(b.name),
                quoted(b.module),
                _tuple(map(quoted, b.devices)),
                f"extra={quoted(b.extra) if b.extra else None}",
            ]
        )
        for b in catalogue.backends
    ]


# -- autodiff metadata ---------------------------------------------------------------------


@dataclass(frozen=True)
class AutodiffEntry:
    name: str
    args: str  # a tuple literal of the argument names
    float_inputs: str  # a tuple literal of positions
    role: str
    memory_bound: bool
    outputs: int

    @property
    def fields(self) -> str:
        """The AutodiffOp call's arguments, the defaults left out (one short line per op)."""
        fields = [f'"{self.name}"', self.args, self.float_inputs, f'"{self.role}"']
        if self.memory_bound:
            fields.append("memory_bound=True")
        if self.outputs != 1:
            fields.append(f"outputs={self.outputs}")
        return ", ".join(fields)


def _role(op: Op) -> str | None:
    """How the Autodiff specialization implements a float op (None: it passes through)."""
    if op.composite:
        return None
    if op.routing == "creation" and op.kind == "float":
        return "leaf"
    if op.routing == "conversion" and op.returns == ("float",):
        return "leaf"
    if op.kind == "float" and op.routing in ("tensor", "conversion", "move"):
        return "record" if op.autodiff else "forward"
    return None


def autodiff_entries(catalogue: Catalogue) -> list[AutodiffEntry]:
    """Every float op the Autodiff specialization implements, and how."""
    entries = []
    for op in catalogue.ops:
        role = _role(op)
        if role is None:
            continue
        positions = [i for i, a in enumerate(op.args) if a in op.float_args]
        entries.append(
            AutodiffEntry(
                op.name,
                _tuple(repr(a.name) for a in op.args),
                _tuple(str(p) for p in positions) if role != "leaf" else "()",
                role,
                op.autodiff == "memory_bound",
                len(op.returns),
            )
        )
    return entries


# -- autodiff recorders ------------------------------------------------------------------------


def recorded_ops(catalogue: Catalogue) -> list[Recorded]:
    """Every op the Autodiff decorator records: the differentiable entries, and the runtime's
    move between backends (no entry of its own: float_to_device routes to it)."""
    ops = [
        Recorded(
            op.name,
            tuple(a.name for a in op.args),
            tuple(Input(a.name, a.optional, a.type == "tensors") for a in op.float_args),
            op.returns,
            op.autodiff == "memory_bound",
        )
        for op in catalogue.ops
        if _role(op) == "record"
    ]
    move = MOVE_ACROSS
    inputs = tuple(Input(move.args[i]) for i in move.float_inputs)
    return ops + [Recorded(move.name, move.args, inputs, ("float",), False)]


def recorder_sources(catalogue: Catalogue) -> list[RecorderSource]:
    return [recorder_source(op) for op in recorded_ops(catalogue)]


def _tuple(items) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


# -- Tensor methods ------------------------------------------------------------------------


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
        methods.append(_method(name, ops, tuple(aliases)))
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
    body.append(f'raise kind_error("{operator}", self, {_tuple(kinds)})')
    doc = "Routes by kind: " + ", ".join(f"{k.lower()} -> {m}" for k, m in kinds.items()) + "."
    signature = ", ".join(["self", *(f"{p}: Tensor | float" for p in params)])
    return Method(operator, False, signature, doc, body, ())


def _method(name: str, ops: list[Op], operators: tuple[str, ...]) -> Method:
    first = ops[0]
    doc = _doc(ops)
    if first.static:
        return _static_method(name, ops, doc, operators)
    params = _rest(first)
    if len(ops) == 1 and not params and first.args[0] is first.receiver and not narrowed(first):
        # A method that would only pass `self` to one dispatch function is that function: one
        # call instead of two (a tensor of another kind meets the routing's clear TypeError).
        return Method(name, False, "self", doc, [], operators, alias=first.name)
    body = ["kind = self.kind.tensor_kind"]
    scalar_ops = [op for op in ops if _rest(op) and _rest(op)[0].type in SCALAR_TYPES]
    tensor_ops = [op for op in ops if op not in scalar_ops]
    widen = (params[0].name,) if scalar_ops and tensor_ops else ()
    signature = ", ".join(["self", *_params(params, op=first, widen=widen)])
    if scalar_ops and tensor_ops:
        second = params[0].name
        body.append(f"if isinstance({second}, TensorBase):")
        body += ["    " + line for line in _kind_branches(name, tensor_ops)]
        body.append("else:")
        body += ["    " + line for line in _kind_branches(name, scalar_ops)]
    else:
        body += _kind_branches(name, ops)
    kinds = _tuple(dict.fromkeys(KIND_CONST[op.kind] for op in ops))
    body.append(f'raise kind_error("{name}", self, {kinds})')
    return Method(name, False, signature, doc, body, operators, returns=returns(first))


def _rest(op: Op) -> list:
    """A method's parameters: every argument but the receiver (`self`)."""
    return [a for a in op.args if a is not op.receiver]


def narrowed(op: Op) -> bool:
    """Does the op support fewer dtypes than its kind has? Then its method checks them."""
    from codegen.validate import DTYPES

    of = op.returns[0] if op.routing in ("creation", "conversion") else op.kind
    return op.dtypes != DTYPES[of]


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
            if a.type == op.kind
            for line in (
                f"if type({a.name}) is not Tensor or {a.name}.kind is not self.kind:",
                f'    same_kind("{method}", self, {a.name})',
            )
        ] + [
            f'expect_kind("{method}", {a.name}, {KIND_CONST[TENSOR_KIND[a.type]]})'
            for a in rest
            if a.type in TENSOR_KIND and a.type != op.kind
        ]
        if narrowed(op):
            checks.append(f'check_dtype("{op.name}", self.dtype, {_tuple(map(repr, op.dtypes))})')
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
        "scalar": f'scalar_for("{method}", {receiver}, {n})',
        "number": f"real_arg({where}, {n})",
        "integer": f"integer_arg({where}, {n})",
        "flag": f"flag_arg({where}, {n})",
        "dim": f"dim_of({where}, {receiver}, {n})",
        "dims": f"dims_of({where}, {receiver}, {n})",
        "shape": f"shape_of({where}, {n})",
        "view_shape": f"view_shape_of({where}, {receiver}, {n})",
        "slices": f'slices_arg("{method}", {receiver}, {n})',
        "update": f"update_arg({n})",
        "device": f"device_arg({n}).device",
        "dtype": f"dtype_arg({n}, {KIND_CONST[result_kind]})",
        "distribution": f"distribution_arg({n})",
        "tensors": f"tensors_of({where}, {n})",
        "choice": f"choice_arg({where}, {n}, {_tuple(map(repr, op.choices.get(n, ())))})",
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
        elif arg.type == "dtype" and not static:
            default = "None"
        elif static and arg.type in ("device", "dtype"):
            if not keyword_only:
                out.append("*")
                keyword_only = True
            default = "None"
        elif arg.type in ("distribution",) or arg.optional:
            default = "None"
        elif arg.type == "flag":
            default = "False"
        elif static and arg.name == "step" and arg.type == "integer":  # arange(start, end, step=1)
            default = "1"
        param = annotated(arg, USER_TYPES, default)
        if arg.name in widen:  # the method routes a Tensor and a scalar to different ops
            param = f"{arg.name}: Tensor | float" + (f" = {default}" if default else "")
        out.append(param)
    return out


def _static_method(name, ops, doc, operators) -> Method:
    first = ops[0]
    signature = ", ".join(["cls", *_params(first.args, static=True)])
    names = {a.name: a for a in first.args}
    lists = [a for a in first.args if a.type == "tensors"]
    if lists:
        return _list_method(name, ops, doc, operators, signature, lists[0].name)
    if "data" in names:
        resolve = "dtype = infer_data_dtype(data, dtype)"
    elif "fill_value" in names:
        resolve = f'dtype = fill_dtype("{name}", fill_value, dtype)'
    else:
        resolve = f"dtype = dtype_arg(dtype, {KIND_CONST[first.kind]})"
    body = [resolve, "kind = kind_of_dtype(dtype)"]
    for op in ops:
        args = []
        for arg in op.args:
            if arg.type == "dtype":
                args.append(arg.name)
            elif arg.type == "data":
                args.append(f"data_arg({arg.name})")
            else:
                args.append(_convert(name, op, arg))
        body.append(f"if kind is {KIND_CONST[op.kind]}:")
        if narrowed(op):
            body.append(f'    check_dtype("{op.name}", dtype, {_tuple(map(repr, op.dtypes))})')
        body.append(f"    return {op.name}({', '.join(args)})")
    kinds = _tuple(KIND_CONST[op.kind] for op in ops)
    body.append(f'raise dtype_error("{name}", dtype, {kinds})')
    return Method(name, True, signature, doc, body, operators, returns=returns(ops[0]))


def _list_method(name, ops, doc, operators, signature, tensors) -> Method:
    """A static method over a list of tensors (`Tensor.cat`): routes by the first one's kind."""
    body = [
        f'{tensors} = tensors_of("{name}", "{tensors}", {tensors})',
        f"kind = {tensors}[0].kind.tensor_kind",
    ]
    for op in ops:
        args = [
            a.name if a.type == "tensors" else _convert(name, op, a, f"{tensors}[0]")
            for a in op.args
        ]
        body.append(f"if kind is {KIND_CONST[op.kind]}:")
        body.append(f"    return {op.name}({', '.join(args)})")
    kinds = _tuple(KIND_CONST[op.kind] for op in ops)
    body.append(f'raise kind_error("{name}", {tensors}[0], {kinds})')
    return Method(name, True, signature, doc, body, operators, returns=returns(ops[0]))


# -- the report ----------------------------------------------------------------------------


def stats(catalogue: Catalogue) -> list[str]:
    """Entries per category (the ops.yaml sections, in file order) and kind, and how many of
    each are differentiable primitives (memory-bound / compute-bound) or composites."""
    ops = catalogue.ops
    lines = [
        f"{len(ops)} ops in {catalogue.path}, {len(catalogue.backends)} backend(s): "
        + ", ".join(b.name for b in catalogue.backends),
        "",
    ]
    kinds = [k for k in KIND_CONST if any(op.kind == k for op in ops)]
    columns = [*kinds, "total", "memory", "compute", "derived"]
    categories = list(dict.fromkeys(op.category for op in ops))
    width = max(len(c) for c in [*categories, "category"]) + 2

    def row(label, members):
        counts = [sum(op.kind == k for op in members) for k in kinds]
        counts += [
            len(members),
            sum(op.autodiff == "memory_bound" for op in members),
            sum(op.autodiff == "compute_bound" for op in members),
            sum(bool(op.composite) for op in members),
        ]
        return label.ljust(width) + "".join(str(c).rjust(9) for c in counts)

    lines.append("category".ljust(width) + "".join(c.rjust(9) for c in columns))
    for category in categories:
        lines.append(row(category, [op for op in ops if op.category == category]))
    lines.append(row("total", ops))
    lines.append("")
    primitives = sum(op.autodiff is not None for op in ops)
    composites = sum(bool(op.composite) and "float" in op.returns for op in ops)
    lines.append(
        f"differentiable: {primitives + composites} ({primitives} primitives with a backward "
        f"rule: memory-bound {sum(op.autodiff == 'memory_bound' for op in ops)}, compute-bound "
        f"{sum(op.autodiff == 'compute_bound' for op in ops)}; {composites} derived float ops "
        "that differentiate through their parts)"
    )
    lines.append(f"with test metadata: {sum(op.test is not None for op in ops)} of {len(ops)}")
    lines.append(f"Tensor methods: {len({op.method for op in ops if op.method})}")
    return lines
