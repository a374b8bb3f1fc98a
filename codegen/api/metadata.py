"""What the runtime reads of the catalogue: the backends' registrations, the Autodiff
specialization's table of ops, and the recorders of the differentiable ones (generated/backends.py,
generated/catalogue.py, generated/recorders.py)."""

from dataclasses import dataclass

from codegen.api.types import tuple_literal
from codegen.model import ArgKind, AutodiffClass, Catalogue, Kind, Op, Role
from codegen.recorders import Input, Recorded, Recorder, recorder
from runtime.autodiff.backend import MOVE_ACROSS

# -- backends ----------------------------------------------------------------------------------


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
                tuple_literal(map(quoted, b.devices)),
                f"extra={quoted(b.extra) if b.extra else None}",
            ]
        )
        for b in catalogue.backends
    ]


# -- autodiff metadata -------------------------------------------------------------------------


@dataclass(frozen=True)
class AutodiffEntry:
    name: str
    args: str  # a tuple literal of the argument names
    float_inputs: str  # a tuple literal of positions
    role: str
    memory_bound: bool
    outputs: int
    keeps: str | None

    @property
    def fields(self) -> str:
        """The AutodiffOp call's arguments, the defaults left out (one short line per op)."""
        fields = [f'"{self.name}"', self.args, self.float_inputs, f'"{self.role}"']
        if self.memory_bound:
            fields.append("memory_bound=True")
        if self.outputs != 1:
            fields.append(f"outputs={self.outputs}")
        if self.keeps:
            fields.append(f'keeps="{self.keeps}"')
        return ", ".join(fields)


def _role(op: Op) -> str | None:
    """How the Autodiff specialization implements a float op (None: it passes through)."""
    role = op.role
    if role in (Role.CREATION_FLOAT, Role.LEAF):
        return "leaf"
    if role is Role.AUTODIFF or role is Role.MOVE and op.kind is Kind.FLOAT:
        if op.untracked:
            return "untracked"
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
                tuple_literal(repr(a.name) for a in op.args),
                tuple_literal(str(p) for p in positions) if role != "leaf" else "()",
                role,
                op.autodiff is AutodiffClass.MEMORY_BOUND,
                len(op.returns),
                op.keeps,
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
            tuple(Input(a.name, a.optional, a.type is ArgKind.TENSORS) for a in op.float_args),
            op.returns,
            op.autodiff is AutodiffClass.MEMORY_BOUND,
            keeps=op.keeps,
        )
        for op in catalogue.ops
        if _role(op) == "record"
    ]
    move = MOVE_ACROSS
    inputs = tuple(Input(move.args[i]) for i in move.float_inputs)
    return ops + [Recorded(move.name, move.args, inputs, ("float",), False)]


def recorders(catalogue: Catalogue) -> list[Recorder]:
    return [recorder(op) for op in recorded_ops(catalogue)]
