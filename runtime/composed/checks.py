"""Argument checks of the composed methods: each error names the method and the argument.

What counts as an int and how a wrong kind is fixed are runtime/arguments.py's rules, shared
with the generated methods; these add the composed methods' own questions (a dim among `rank`
dims, a count, a rank)."""

import numpy as np

from burnpy.runtime.arguments import CONVERT, is_int, what

__all__ = ["count", "index", "indices", "is_int", "kind", "rank_at_least", "scalar"]


def index(method: str, name: str, value, rank: int) -> int:
    """A dim index into `rank` dims, negative counting from the end."""
    if not is_int(value):
        raise TypeError(f"{method}: {name} must be an int, got {what(value)}")
    if not -rank <= value < rank:
        raise ValueError(
            f"{method}: {name}={int(value)} is out of range for {rank} dims "
            f"(valid: {-rank}..{rank - 1})"
        )
    return int(value) % rank


def indices(method: str, name: str, values, rank: int) -> list:
    if is_int(values) or not hasattr(values, "__iter__"):
        raise TypeError(f"{method}: {name} must be a sequence of ints, got {what(values)}")
    return [index(method, name, v, rank) for v in values]


def count(method: str, name: str, value, minimum: int = 0) -> int:
    """A non-negative (or at least `minimum`) int: a size, a length, a number of parts."""
    if not is_int(value):
        raise TypeError(f"{method}: {name} must be an int, got {what(value)}")
    if value < minimum:
        raise ValueError(f"{method}: {name} must be at least {minimum}, got {int(value)}")
    return int(value)


def scalar(method: str, name: str, value):
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise TypeError(f"{method}: {name} must be a number, got {what(value)}")
    return value


def kind(method: str, tensor, kinds) -> None:
    """The tensor's kind is one of `kinds` (runtime.arguments' FLOAT/INT/BOOL)."""
    if tensor.kind.tensor_kind not in kinds:
        names = " or ".join(k.value for k in kinds)
        raise TypeError(
            f"{method}: needs a {names} tensor, got a {tensor.kind.tensor_kind.value} tensor; "
            f"convert it with `{CONVERT[kinds[0]]}`"
        )


def rank_at_least(method: str, tensor, rank: int) -> None:
    if tensor.ndim < rank:
        raise ValueError(
            f"{method}: needs a tensor of rank >= {rank}, got shape {list(tensor.shape)}"
        )
