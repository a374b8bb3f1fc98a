"""What a plain Python value is, judged without numpy: the one rule for "an int", how a message
shows a value it was given, and the check of an `intsN` option (burn's `[usize; N]`). A leaf
module: the argument checks (runtime/arguments.py) use it, and the generator judges the
catalogue's defaults and test values with it, as a call would judge them."""

from numbers import Integral


def is_int(value) -> bool:
    """The one rule for "an int": a Python or numpy integer, not a bool; or a float subclass
    that answers `__index__` (a captured step's traced int, whose `__index__` records a guard:
    burnpy.capture). No real float does."""
    if type(value) is int:  # (the common case, before the ABC check)
        return True
    if isinstance(value, Integral):  # numpy's integers are Integral; its bool_ is not
        return not isinstance(value, bool)
    return isinstance(value, float) and hasattr(type(value), "__index__")


def what(value) -> str:
    """A value as a message shows what was given instead: its repr and its type."""
    return f"{value!r} ({type(value).__name__})"


def ints_arg(op: str, name: str, value, n: int, nonzero: bool = False) -> tuple:
    """An int (repeated n times) or n ints: burn's `[usize; N]` option."""
    values = (value,) * n if is_int(value) else value
    if not isinstance(values, list | tuple) or not all(is_int(v) for v in values):
        raise TypeError(f"{op}: `{name}` takes an int or {n} ints, got {what(value)}")
    if len(values) != n:
        raise ValueError(f"{op}: `{name}` takes an int or {n} ints, got {len(values)}: {value!r}")
    values = tuple(int(v) for v in values)
    if any(v < 0 for v in values):
        raise ValueError(f"{op}: `{name}` must not be negative, got {value!r}")
    if nonzero and 0 in values:
        raise ValueError(f"{op}: {name} must be non-zero, got {value!r}")
    return values


def optional_ints_arg(op: str, name: str, value, n: int, nonzero: bool = False):
    return None if value is None else ints_arg(op, name, value, n, nonzero)
