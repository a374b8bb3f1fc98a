"""Differentiability: which ops must say how they checkpoint, and their backward rules."""

import difflib
import inspect
import os

from burnpy.codegen.model import ArgKind, AutodiffClass, Kind, Op, Routing
from burnpy.codegen.validate.report import Where
from burnpy.runtime.autodiff.ops import AutodiffRole, rule_for
from burnpy.runtime.autodiff.rules import Joint, RuleError, tables_of


def check_autodiff(where: Where, op: Op) -> None:
    differentiable_shape = (
        op.kind is Kind.FLOAT
        and Kind.FLOAT in op.returns
        and op.routing in (Routing.TENSOR, Routing.MOVE)
    )
    if op.untracked:
        if op.autodiff or op.composite or not differentiable_shape:
            raise where.error(
                "untracked",
                "only a float op with a float result, with no `autodiff` and no `composite`, "
                "can be untracked (no gradient flows through it)",
                "remove `untracked`, or the `autodiff` or `composite` key",
            )
        return
    if op.composite and op.autodiff:
        raise where.error(
            "autodiff", "a composite op differentiates through its parts", "remove `autodiff`"
        )
    if op.autodiff and not differentiable_shape:
        raise where.error(
            "autodiff",
            "only a float op with a float result can be differentiable",
            "remove `autodiff`",
        )
    if differentiable_shape and not op.autodiff and not op.composite:
        raise where.error(
            None,
            "a float op with a float result must say how it checkpoints",
            "add `autodiff: memory_bound` (cheap to recompute) or `autodiff: compute_bound`, "
            "or `untracked: true` if no gradient flows through it",
        )
    if op.keeps and (not op.autodiff or op.returns != (Kind.FLOAT,)):
        raise where.error(
            "keeps",
            "only a differentiable op with one float result keeps values for its backward",
            "remove `keeps`",
        )
    if op.keeps in {a.name for a in op.args}:
        raise where.error(
            "keeps", f"`keeps` names {op.keeps!r}, an argument of the op", "pick another name"
        )
    if op.autodiff is not AutodiffClass.MEMORY_BOUND:
        return
    if any(a.optional for a in op.args):
        problem = "an op with an optional tensor cannot be recomputed"
    elif len(op.returns) > 1:
        problem = "a multi-output op cannot be recomputed for one of its outputs"
    elif any(a.type is ArgKind.TENSORS for a in op.args):
        # burn's cat has a custom step that checkpoints nothing; a recipe over a list of inputs
        # is not supported by the Checkpointer
        problem = "an op over a `tensors` list cannot be recomputed"
    else:
        return
    raise where.error("autodiff", problem, "write `autodiff: compute_bound`")


def check_rule(where: Where, op: Op) -> None:
    """A differentiable primitive has a backward rule whose VJPs fit its arguments. A rule's
    mistake is reported at the line of the VJP at fault, in its rule file."""
    described = op.autodiff_op
    if described is None or described.role is not AutodiffRole.RECORD:
        return  # (check_autodiff reports a composite or a non-float op that claims a rule)
    names = described.input_names
    first, *others = ([op.rule_table] if op.rules else tables_of(op.name)) or [None]
    if others:  # blamed where the second row's function is written, as a VJP's mistake is
        row = getattr(others[0], op.name)
        functions = (row.fn,) if isinstance(row, Joint) else row
        problem = (
            f"a second rule of {op.name}, {others[0].__name__}.{op.name}, beside "
            f"{first.__name__}.{op.name} ({_shown(inspect.getsourcefile(first))})"
        )
        fix = "keep the row in the table of its category only"
        if not functions:
            raise where.error("autodiff", problem, fix)
        path, line = _source_line(functions[0])
        raise Where(path).error(line, problem, fix)
    try:
        rule_for(described)
    except LookupError:
        raise where.error(
            "autodiff",
            "is differentiable but has no backward rule",
            f"add `{op.name} = (one VJP per float input {list(names)},)` to "
            + (
                f"{op.rules.__module__}.{op.rules.__name__}"
                if op.rules
                else "the table of its category in runtime/autodiff/rules/"
            )
            + ", or make it a `composite`",
        ) from None
    except RuleError as error:
        fix = error.fix
        if error.unknown:
            close = difflib.get_close_matches(error.unknown, error.allowed, 1, 0.6)
            close = close or [a for a in error.allowed if error.unknown.startswith(a)]
            if close:  # (`output` for `out`: a prefix is close enough)
                fix = f"did you mean `{close[0]}`? else {fix[0].lower()}{fix[1:]}"
        if error.function is None:
            raise where.error("autodiff", error.problem, fix) from None
        path, line = _source_line(error.function)
        raise Where(path).error(line, error.problem, fix) from None


def _source_line(function) -> tuple[str, int]:
    """Where a rule's function is written: its file (relative to the working directory when
    inside it) and line."""
    return _shown(inspect.getsourcefile(function)), function.__code__.co_firstlineno


def _shown(path: str | None) -> str:
    """A source file as the user reads it: relative to the working directory when inside it."""
    if path is None:
        return "<unknown>"
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
