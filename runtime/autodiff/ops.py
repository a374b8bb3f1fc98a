"""An op's autodiff identity, in one place: what the Autodiff decorator knows of a float op
(`AutodiffOp`, generated from its ops.yaml entry into generated/catalogue.py, naming its rule's
row), the one op with no entry (`MOVE_ACROSS`), and `rule_for(op)`, its backward rule compiled
against it.

The generator (its recorders, its validator, `explain`) and the runtime's Autodiff
specializations all call `rule_for`; nothing else joins an op to its rule. This module is a
leaf of the autodiff package: it imports the rule tables and nothing of the engine, so the
generator reads it without loading numpy.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from burnpy.runtime.autodiff.rules import Row, Rule
from burnpy.runtime.autodiff.rules.shape import ShapeRules


class AutodiffRole(Enum):
    """How the Autodiff decorator implements a float op."""

    RECORD = "record"  # differentiable: a node and a step
    LEAF = "leaf"  # the float result is a new untracked leaf (creation, int/bool -> float)
    FORWARD = "forward"  # no float result: runs on the inner primitives, no graph edge
    UNTRACKED = "untracked"  # float results no gradient flows through (an optimiser's update)


@dataclass(frozen=True)
class FloatInput:
    """A float input of a recorded op, at `position` among its arguments."""

    name: str
    position: int
    optional: bool = False  # may be None: no parent, no context, nothing saved
    many: bool = False  # a list of tensors (cat): each element an input of its own


# What the Autodiff specialization's attribute for an op is to a type checker: its signature
# over AutodiffTensors (generated/catalogue.py writes it for each op)
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class AutodiffOp(Generic[F]):
    """What the decorator needs to know of a float op; generated from its ops.yaml entry."""

    name: str
    args: tuple[str, ...]
    inputs: tuple[FloatInput, ...]  # its float inputs, in argument order
    role: AutodiffRole
    memory_bound: bool = False  # its checkpoint class (ops.yaml's `autodiff`)
    float_outputs: tuple[int, ...] = (0,)  # the positions of its float results
    outputs: int = 1  # how many results the op returns
    keeps: str | None = None  # what its forward keeps for the backward (`<name>_keeping`)
    # an element-wise op's C expression of one element (ops.yaml's `c:`), which a compiled
    # capture fuses (burnpy.capture.chains)
    c: str | None = None
    # its backward rule, a row of a table in runtime/autodiff/rules/ (a recorded op's; the
    # generator finds it by the op's name, and generated/catalogue.py names it)
    rule: Row | None = None

    def __hash__(self) -> int:
        # an op is a cache key (rule_for) each time a specialization is built: its name tells
        # the catalogue's ops apart without hashing every field (equality still compares all)
        return hash(self.name)

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(i.position for i in self.inputs)

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.inputs)


# to_device to another backend: no catalogue op of its own (float_to_device routes here), but a
# recorded, compute-bound op like it. Its output lives on the target backend; its step runs on
# the source backend, whose primitive the gradient must become again (the rule moves it back).
# Its signature is left open: this leaf of the package cannot name AutodiffTensor.
MOVE_ACROSS: AutodiffOp[Callable[..., Any]] = AutodiffOp(
    "move_across",
    ("tensor", "target", "device"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ShapeRules.move_across,
)


@functools.cache  # one Rule per op: every Autodiff backend built (each capture's) shares it
def rule_for(op: AutodiffOp) -> Rule:
    """The backward rule of a recorded op, checked against its arguments: LookupError when it
    has none, ValueError when its VJPs do not fit the op."""
    if op.rule is None:
        raise LookupError(
            f"{op.name} is declared differentiable in ops.yaml but has no backward rule; add a "
            "row named after it to a table in runtime/autodiff/rules/"
        )
    return Rule(op.name, op.rule, op.args, op.input_names, op.outputs > 1, kept=op.keeps)
