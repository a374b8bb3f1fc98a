"""The dispatch functions of generated/<group>_ops.py: one arm per backend."""

from dataclasses import dataclass

from codegen.api.types import ACCESSOR, DISPATCH_TYPES, PLAIN_KIND, TENSOR_KIND, annotated, returns
from codegen.model import Backend, Catalogue, Op


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
    return [
        dispatch_function(op, catalogue.backends) for op in catalogue.ops if _group(op) == group
    ]


def dispatch_function(op: Op, backends) -> DispatchFunction:
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
        # n-ary ops merge every element's context too (docs/design.md#the-generated-code-contract)
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
    """Tensors of the op's own kind must share a dtype (no silent promotion,
    docs/design.md#the-generated-code-contract): an identity test on the dtypes; check_dtypes
    passes equal dtypes that are distinct objects and raises for different ones. `primitive` reaches an AutodiffTensor's primitive.
    """
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
