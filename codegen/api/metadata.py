"""What the runtime reads of the catalogue: the backends' registrations, the Autodiff
specialization's table of ops, and the recorders of the differentiable ones (generated/backends.py,
generated/catalogue.py, generated/recorders.py)."""

import dataclasses
from dataclasses import dataclass

from burnpy.codegen.api.types import quoted, tuple_literal
from burnpy.codegen.kernels import NoBackend, read_backend
from burnpy.codegen.model import Catalogue
from burnpy.codegen.recorders import Recorder, recorder
from burnpy.runtime.autodiff.ops import MOVE_ACROSS, AutodiffOp, AutodiffRole, rule_for

# -- backends ----------------------------------------------------------------------------------


def backend_registrations(catalogue: Catalogue) -> list[str]:
    """The arguments of each backend's `register_backend(...)` call."""
    return [
        ", ".join(
            [
                quoted(b.variant),
                quoted(b.name),
                quoted(b.module),
                tuple_literal(map(quoted, b.devices)),
                f"extra={quoted(b.extra) if b.extra else None}",
            ]
        )
        for b in catalogue.backends
    ]


@dataclass(frozen=True)
class BackendClasses:
    """What a dispatch function's `B.inner` is to a type checker: one of these classes."""

    imports: tuple[tuple[str, str], ...]  # (module, class) of each backend's BACKEND
    union: str  # `NumPyBackend | TorchBackend`


def backend_classes(catalogue: Catalogue) -> BackendClasses:
    """Read from each backend's source; a backend whose module defines no BACKEND is left out
    (the validator reports it)."""
    found = []
    for backend in catalogue.backends:
        try:
            found.append((backend.module, read_backend(backend.module).class_name))
        except NoBackend:
            pass
    return BackendClasses(tuple(found), " | ".join(name for _, name in found) or "object")


# -- autodiff metadata -------------------------------------------------------------------------


def autodiff_ops(catalogue: Catalogue) -> list[AutodiffOp]:
    """Every float op the Autodiff specialization implements, and how."""
    return [op.autodiff_op for op in catalogue.ops if op.autodiff_op is not None]


@dataclass(frozen=True)
class Described:
    """An op's constant in generated/catalogue.py."""

    constant: str  # FLOAT_MUL
    type: str  # AutodiffOp[<its signature>]
    literal: str  # the AutodiffOp call that rebuilds it


@dataclass(frozen=True)
class DescribedOps:
    """generated/catalogue.py: the rule tables its descriptions name, and the descriptions."""

    tables: tuple[tuple[str, str], ...]  # (module, class) of each table named, sorted
    entries: tuple[Described, ...]


def described_ops(catalogue: Catalogue) -> DescribedOps:
    entries, tables = [], set()
    for op in catalogue.ops:
        described = op.autodiff_op
        if described is None:
            continue
        table = op.rule_table if described.rule is not None else None
        if table is not None:
            tables.add((table.__module__, table.__name__))
        entries.append(
            Described(
                constant(described),
                f"AutodiffOp[{signature(described)}]",
                autodiff_literal(described, table),
            )
        )
    return DescribedOps(tuple(sorted(tables)), tuple(entries))


def constant(op: AutodiffOp) -> str:
    return op.name.upper()


def signature(op: AutodiffOp) -> str:
    """What the Autodiff specialization's attribute for `op` is to a type checker: a callable
    of its arguments, a float input an AutodiffTensor (None where optional, a list for a
    `tensors` list), to its results, a float one an AutodiffTensor."""
    inputs = {i.position: i for i in op.inputs}
    params = []
    for position in range(len(op.args)):
        input_ = inputs.get(position)
        if input_ is None:
            params.append("Any")
        elif input_.many:
            params.append("list[AutodiffTensor]")
        else:
            params.append("AutodiffTensor | None" if input_.optional else "AutodiffTensor")
    results = ["AutodiffTensor" if i in op.float_outputs else "Any" for i in range(op.outputs)]
    result = results[0] if len(results) == 1 else f"tuple[{', '.join(results)}]"
    return f"Callable[[{', '.join(params)}], {result}]"


def autodiff_literal(op: AutodiffOp, table: type | None) -> str:
    """The AutodiffOp call that rebuilds `op` in generated/catalogue.py, defaults left out; its
    rule named as its table's attribute (`rule=ElementwiseRules.float_mul`), which an editor
    goes to."""
    inputs = []
    for i in op.inputs:
        flags = [", optional=True"] * i.optional + [", many=True"] * i.many
        inputs.append(f'FloatInput("{i.name}", {i.position}{"".join(flags)})')
    fields = [
        f'"{op.name}"',
        tuple_literal(f'"{a}"' for a in op.args),
        tuple_literal(inputs),
        f"AutodiffRole.{op.role.name}",
    ]
    defaults = {f.name: f.default for f in dataclasses.fields(AutodiffOp) if f.init}
    for name in ("memory_bound", "float_outputs", "outputs", "keeps", "c"):
        value = getattr(op, name)
        if value != defaults[name]:
            if isinstance(value, tuple):
                value = tuple_literal(map(str, value))
            elif isinstance(value, str):
                value = f'"{value}"'
            fields.append(f"{name}={value}")
    if table is not None:
        fields.append(f"rule={table.__name__}.{op.name}")
    return f"AutodiffOp({', '.join(fields)})"


# How the specialization builds each role's attribute (runtime/autodiff/backend.py)
BUILDERS = {
    AutodiffRole.LEAF: "leaf",
    AutodiffRole.FORWARD: "forward_only",
    AutodiffRole.UNTRACKED: "untracked",
    AutodiffRole.RECORD: "recorded",
}


@dataclass(frozen=True)
class Binding:
    """One line of the generated specialization's `__init__`: `self.<name> = self.<builder>(
    <arguments>)`."""

    name: str
    builder: str
    arguments: str


def autodiff_bindings(catalogue: Catalogue) -> list[Binding]:
    bindings = []
    for op in [*autodiff_ops(catalogue), MOVE_ACROSS]:
        described = "MOVE_ACROSS" if op is MOVE_ACROSS else f"ops.{constant(op)}"
        arguments = [described]
        if op.role is AutodiffRole.RECORD:  # its recorder, and the order of what it saves
            saved = tuple_literal(f'"{name}"' for name in rule_for(op).saved)
            arguments += [f"recorders.record_{op.name}", saved]
        bindings.append(Binding(op.name, BUILDERS[op.role], ", ".join(arguments)))
    return bindings


# -- autodiff recorders ------------------------------------------------------------------------


def recorded_ops(catalogue: Catalogue) -> list[AutodiffOp]:
    """Every op the Autodiff decorator records: the differentiable entries, and the runtime's
    move between backends (no entry of its own: float_to_device routes to it)."""
    ops = [op for op in autodiff_ops(catalogue) if op.role is AutodiffRole.RECORD]
    return ops + [MOVE_ACROSS]


def recorders(catalogue: Catalogue) -> list[Recorder]:
    return [recorder(op) for op in recorded_ops(catalogue)]
