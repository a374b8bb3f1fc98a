"""The dispatch functions of generated/<group>_ops.py: one backend-generic routing per op.

Each function finds its backend's DispatchBackend (`B`) at call time through
`burnpy.generated.backends.BACKENDS`, by the variant of the tensor (or device) that picks it, and then
routes once for every backend; only a move between two backends differs from a move within one.
"""

from dataclasses import dataclass

from burnpy.codegen.api.quantized import Selection, selections
from burnpy.codegen.api.types import (
    ACCESSOR,
    DISPATCH_TYPES,
    PLAIN_KIND,
    TENSOR_KIND,
    annotated,
    contract_of,
    returns,
)
from burnpy.codegen.model import ArgKind, Catalogue, Kind, Op, Role, Routing

# the names a dispatch function binds besides its arguments (dispatch.py.jinja's merged context
# `ctx`, backend `B`, specialization `AD`, a move's target `T`, a refusal's `error`) and
# `<tensor>_` for each tensor argument: an argument named so is refused
# (codegen/validate/names.py)
LOCALS = ("ctx", "B", "AD", "T", "error")


@dataclass(frozen=True)
class DispatchFunction:
    name: str
    kind: Kind
    role: Role  # which routing shape lays it out
    params: str  # annotated
    doc: str
    merge: str  # the expression merging every tensor input's context
    selector: str  # the argument whose kind (or device) picks the backend
    plain: tuple[str, ...]  # statements under DispatchAutodiffContext.Disabled
    autodiff: tuple[str, ...]  # statements under Enabled, once AD (the specialization) is chosen
    composite: str | None
    returns: str = "Tensor"
    checked: str = ""  # check_contract's first arguments: the op, its contract
    arguments: str = ""  # every argument by name, for check_contract
    # the statements that hand quantized operands to the q-op this op selects (api/quantized.py),
    # asked up front; empty when none, or when the first tensor's binding asks the test
    select: tuple[str, ...] = ()
    quantized: bool = False  # whether the function may call a q-op

    @property
    def accessor(self) -> str:
        """DispatchTensor's method giving a tensor of the function's kind (`as_int`)."""
        return ACCESSOR[self.kind]

    @property
    def plain_kind(self) -> str:
        """The DispatchBackend's tensor kind of the function's kind (`Int`)."""
        return PLAIN_KIND[self.kind]

    @property
    def layout(self) -> str:
        """The template's macro that lays the routing out (dispatch.py.jinja's LAYOUTS)."""
        if self.role is Role.MOVE:
            return "move_float" if self.kind is Kind.FLOAT else "move_plain"
        return LAYOUTS[self.role]


# The routing's layout for each role: a conversion to float routes as a float op does (its
# result a new leaf, which the Autodiff specialization makes)
LAYOUTS = {
    Role.COMPOSITE: "composite",
    Role.CREATION_FLOAT: "creation_float",
    Role.CREATION_PLAIN: "creation_plain",
    Role.PLAIN: "plain",
    Role.AUTODIFF: "autodiff",
    Role.LEAF: "autodiff",
}


def dispatch_groups(catalogue: Catalogue) -> list[str]:
    """The dispatch modules, `<group>_ops.py`: one per kind, and one per function module
    (module ops are float ops, grouped apart as burn's ModuleOps trait is)."""
    kinds = [k.value for k in Kind if any(op.group == k.value for op in catalogue.ops)]
    functions = sorted({op.function for op in catalogue.ops if op.function})
    return kinds + functions


def dispatch_functions(catalogue: Catalogue, group: str) -> list[DispatchFunction]:
    select = selections(catalogue)
    return [dispatch_function(op, select.get(op.name)) for op in catalogue.ops if op.group == group]


def dispatch_function(op: Op, selection: Selection | None = None) -> DispatchFunction:
    params = ", ".join(annotated(a, DISPATCH_TYPES) for a in op.args)
    quantized = selection is not None
    if op.composite:
        first = op.tensor_args[0].name if selection else ""
        return DispatchFunction(
            op.name, op.kind, op.role, params, op.doc, "", first, (), (), op.composite,
            returns(op), select=selection.lines if selection else (), quantized=quantized,
        )  # fmt: skip
    if op.routing is Routing.CREATION:
        selector = next(a.name for a in op.args if a.type is ArgKind.DEVICE)
        merge = ""
    else:
        first = op.tensor_args[0]
        selector = f"{first.name}[0]" if first.type is ArgKind.TENSORS else first.name
        merge = _merge(op)
    # a test that needs the first tensor quantized waits for its binding: on the common path
    # (a plain float, an AutodiffTensor) it is never asked
    folded = selection if selection and selection.first_required and op.role in FOLDS else None
    plain, autodiff = _statements(op, selector, folded)
    select = selection.lines if selection and not folded else ()
    checked = arguments = ""
    if op.routing is Routing.TENSOR:  # a kernel's refusal, whatever the op, is said in our words
        checked = contract_of(op)
        arguments = ", ".join(f"{a.name}={a.name}" for a in op.args)
    return DispatchFunction(
        op.name,
        op.kind,
        op.role,
        params,
        op.doc,
        merge,
        selector,
        plain,
        autodiff,
        None,
        returns(op),
        checked,
        arguments,
        select,
        quantized,
    )


def _merge(op: Op) -> str:
    tensors = op.tensor_args
    single = [a for a in tensors if a.type is not ArgKind.TENSORS]
    lists = [a for a in tensors if a.type is ArgKind.TENSORS]
    if lists:
        # an n-ary op merges every element's context too: one autodiff element makes it tracked
        # (docs/design.md#the-generated-code-contract)
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


# the roles whose routing binds the first tensor in both arms, where a selection can fold
FOLDS = (Role.AUTODIFF, Role.LEAF)


def _statements(
    op: Op, selector: str, folded: Selection | None = None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The statements under Disabled and under Enabled: each tensor input bound to `<name>_`,
    its primitive (or its AutodiffTensor), then the call of the inner backend (or of the
    Autodiff specialization) and the wrapped result. `folded`: the q-op selection the first
    tensor's binding asks when that tensor is not of the arm's kind."""

    # The common case is an identity test on the backend's shared kind; the accessor handles
    # the rest (a constant to lift, another backend or kind to report). An input other than
    # the one that chose the backend is told that one: a mismatch names both devices.
    def chooser(name):
        return "" if name == selector else selector

    def plain_arg(arg):
        n = arg.name
        if arg.type is ArgKind.TENSORS:
            return f"[t.{ACCESSOR[op.kind]}({selector}) for t in {n}]"
        if arg.type in TENSOR_KIND:
            kind = TENSOR_KIND[arg.type]
            accessor = f"{n}.{ACCESSOR[kind]}({chooser(n)})"
            return f"{n}.primitive if {n}.kind is B.{PLAIN_KIND[kind]} else {accessor}"
        if arg.type is ArgKind.DEVICE:
            return f"{n}.inner"
        return n

    def autodiff_arg(arg):
        n = arg.name
        if arg.type is ArgKind.TENSORS:
            return f"[t.lift(AD, {selector}) for t in {n}]"
        if arg.type is ArgKind.FLOAT:
            lift = f"AD, {selector}" if n != selector else "AD"
            return f"{n}.primitive if {n}.kind is B.Autodiff else {n}.lift({lift})"
        return plain_arg(arg)

    def statements(expression, call_of, wrap, primitive="", first=None):
        """`first`: the arm's kind and accessor of the first tensor, when a selection folds."""
        bindings, names = [], []
        for arg in op.args:
            value = expression(arg)
            if arg.type in TENSOR_KIND or arg.type is ArgKind.TENSORS:
                if arg.optional:
                    value = f"None if {arg.name} is None else ({value})"
                if folded and first and arg.name == selector:
                    bindings += _folded_binding(arg.name, *first, folded)
                else:
                    bindings.append(f"{arg.name}_ = {value}")
                names.append(f"{arg.name}_")
            else:
                names.append(value)
        call = f"{call_of}.{op.name}({', '.join(names)})"
        return tuple(bindings + _dtype_checks(op, primitive) + wrap(call))

    def plain(wrap):
        first = ("Float", f"{selector}.as_float()")
        return statements(plain_arg, "B.inner", wrap, first=first)

    def autodiff(wrap):
        first = ("Autodiff", f"{selector}.lift(AD)")
        return statements(autodiff_arg, "AD", wrap, primitive=".primitive", first=first)

    role = op.role
    if role is Role.MOVE:
        return (), ()
    if role is Role.CREATION_FLOAT:
        return (
            plain(lambda call: [f"return Tensor(B.Float, {call}, DISABLED)"]),
            autodiff(lambda call: [f"return Tensor(B.Autodiff, {call}, ctx)"]),
        )
    if role is Role.CREATION_PLAIN:
        context = f"context_of({selector})"
        kind = PLAIN_KIND[op.kind]
        return plain(lambda call: [f"return Tensor(B.{kind}, {call}, {context})"]), ()
    if role is Role.LEAF:
        return (
            plain(lambda call: [f"return Tensor(B.Float, {call}, ctx)"]),
            autodiff(lambda call: [f"return Tensor(B.Autodiff, {call}, ctx)"]),
        )
    return (
        plain(lambda call: _returns(op, call, autodiff=False)),
        autodiff(lambda call: _returns(op, call, autodiff=True)) if role is Role.AUTODIFF else (),
    )


def _folded_binding(name: str, kind: str, accessor: str, selection: Selection) -> list[str]:
    """The first tensor's binding with the q-op selection in its uncommon branch."""
    return [
        f"if {name}.kind is B.{kind}:",
        f"    {name}_ = {name}.primitive",
        f"elif {selection.test}:  # quantized operands: the q-op",
        f"    return {selection.call}",
        "else:",
        f"    {name}_ = {accessor}",
    ]


def _dtype_checks(op: Op, primitive: str) -> list[str]:
    """Tensors of the op's own kind must share a dtype (no silent promotion,
    docs/design.md#the-generated-code-contract): an identity test on the dtypes; check_dtypes
    passes equal dtypes that are distinct objects and raises for different ones. `primitive`
    reaches an AutodiffTensor's primitive."""
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


def _returns(op: Op, call: str, autodiff: bool) -> list[str]:
    def kind_of(result):
        if result is Kind.FLOAT:
            return "B.Autodiff" if autodiff else "B.Float"
        return f"B.{PLAIN_KIND[result]}"

    if len(op.returns) == 1:
        # the slots filled here, not by a class call: see runtime/dispatch.py's new_tensor
        return [
            "out = new_tensor(Tensor)",
            f"out.kind, out.primitive, out.context = {kind_of(op.returns[0])}, {call}, ctx",
            "return out",
        ]
    names = [f"out{i}" for i in range(len(op.returns))]
    wrapped = ", ".join(f"Tensor({kind_of(r)}, {n}, ctx)" for r, n in zip(op.returns, names))
    return [f"{', '.join(names)} = {call}", f"return ({wrapped})"]
