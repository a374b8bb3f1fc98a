"""The recorded kernels the compiler knows, as references to the catalogue's ops.

A recorded call names the backend method it ran: an op's own kernel (`softmax`), the forward of
an op that keeps values for its backward (`layer_norm_keeping`, ops.yaml's `keeps:`) or a
kernel of its backward rule (`layer_norm_backward`). The compiler's passes and fused kernels
name such kernels as `Recorded` objects made from the op's constant in generated/catalogue.py,
never as strings: an op renamed in ops.yaml is an AttributeError when the compiler is imported,
and `check` tells, for any catalogue (a user's, a scratch one in a test), each reference it
lacks, so that a fusion never stops silently.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole


class Part(Enum):
    """Which of an op's kernels a recorded call ran: the suffix of its name."""

    OP = ""
    KEEPING = "_keeping"
    BACKWARD = "_backward"


@dataclass(frozen=True)
class Recorded:
    """One kernel of a catalogue op, as the tape names it (`Entry.target`)."""

    op: AutodiffOp
    part: Part = Part.OP

    @property
    def name(self) -> str:
        return self.op.name + self.part.value


def keeping(op: AutodiffOp) -> Recorded:
    return Recorded(op, Part.KEEPING)


def backward(op: AutodiffOp) -> Recorded:
    return Recorded(op, Part.BACKWARD)


class CatalogueMismatch(RuntimeError):
    """The compiler names a kernel the catalogue does not define."""


def missing(references: Iterable[Recorded], ops: Mapping[str, AutodiffOp]) -> list[str]:
    """What each of `references` lacks in `ops` (a catalogue's AutodiffOps by name): the op, its
    keeping forward (no `keeps:`) or its backward rule (not differentiable)."""
    problems = []
    for reference in references:
        op = ops.get(reference.op.name)
        if op is None:
            problems.append(f"{reference.name}: no op {reference.op.name!r} in the catalogue")
        elif reference.part is Part.KEEPING and op.keeps is None:
            problems.append(f"{reference.name}: {op.name!r} keeps nothing for its backward")
        elif reference.part is Part.BACKWARD and op.role is not AutodiffRole.RECORD:
            problems.append(f"{reference.name}: {op.name!r} has no backward rule")
    return problems


def check(references: Iterable[Recorded], ops: Mapping[str, AutodiffOp], where: str) -> None:
    """Raise CatalogueMismatch naming every reference `ops` lacks (`where`: the catalogue)."""
    problems = missing(references, ops)
    if problems:
        raise CatalogueMismatch(
            f"burnpy.capture's compiler names kernels {where} does not define:\n  "
            + "\n  ".join(problems)
            + "\nrename them in burnpy/capture (fusion.py, chains.py, slices.py) with the op"
        )
