"""Differentiability: which ops must say how they checkpoint, and their backward rules."""

from codegen.load import CatalogueError
from codegen.model import Op
from runtime.autodiff.rules import Rule


def check_autodiff(path, entry, op: Op) -> None:
    differentiable_shape = (
        op.kind == "float" and "float" in op.returns and op.routing in ("tensor", "move")
    )
    line = entry.line_of("autodiff")
    if op.composite and op.autodiff:
        raise CatalogueError(
            path,
            line,
            op.name,
            "a composite op differentiates through its parts",
            "remove `autodiff`",
        )
    if op.autodiff and not differentiable_shape:
        raise CatalogueError(
            path,
            line,
            op.name,
            "only a float op with a float result can be differentiable",
            "remove `autodiff`",
        )
    if differentiable_shape and not op.autodiff and not op.composite:
        raise CatalogueError(
            path,
            entry.line,
            op.name,
            "a float op with a float result must say how it checkpoints",
            "add `autodiff: memory_bound` (cheap to recompute) or `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and any(a.optional for a in op.args):
        raise CatalogueError(
            path,
            line,
            op.name,
            "an op with an optional tensor cannot be recomputed",
            "write `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and len(op.returns) > 1:
        raise CatalogueError(
            path,
            line,
            op.name,
            "a multi-output op cannot be recomputed for one of its outputs",
            "write `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and any(a.type == "tensors" for a in op.args):
        # burn's cat has a custom step that checkpoints nothing; a recipe over a list of inputs
        # is not supported by the Checkpointer
        raise CatalogueError(
            path,
            line,
            op.name,
            "an op over a `tensors` list cannot be recomputed",
            "write `autodiff: compute_bound`",
        )


def check_rule(path, entry, op: Op) -> None:
    """A differentiable primitive has a backward rule whose VJPs fit its arguments."""
    names = tuple(a.name for a in op.float_args)
    try:
        Rule(op.name, tuple(a.name for a in op.args), names, multi_output=len(op.returns) > 1)
    except LookupError:
        raise CatalogueError(
            path,
            entry.line_of("autodiff"),
            op.name,
            "is differentiable but has no backward rule",
            f"add `{op.name}: (one VJP per float input {list(names)},)` to a table in "
            "runtime/autodiff/rules/, or make it a `composite`",
        ) from None
    except ValueError as error:
        raise CatalogueError(
            path, entry.line_of("autodiff"), op.name, str(error), "fix the rule or the entry"
        ) from None
