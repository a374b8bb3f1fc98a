"""The small checks every entry's fields go through: known keys, names, choices, field types."""

import keyword
import unicodedata

from burnpy.codegen.load import plain
from burnpy.codegen.validate.report import Problems, Where, suggest


def check_keys(problems: Problems, where: Where, keys: dict) -> None:
    """Every key of the entry is known (a misspelt one gets the nearest), every required one
    is there; each mistake is reported."""
    entry = where.entry
    for key, line in entry.key_lines.items():
        if key not in keys:
            problems.add(
                where.error(
                    line,
                    f"unknown key `{key}`",
                    suggest(key, keys, f"write one of {', '.join(keys)}"),
                )
            )
    for key, required in keys.items():
        if required and key not in entry.value:
            problems.add(where.error(None, f"missing `{key}`", f"add `{key}: ...`"))


def identifier(where: Where, key) -> str:
    value = where.entry.value[key]
    problem = name_problem(value)
    if problem:
        raise where.error(
            key, f"`{key}` {value!r} {problem}", "write a name of ASCII letters, digits and _"
        )
    return value


def name_problem(value) -> str | None:
    """Why `value` cannot be a name in the generated code, or None. Names are ASCII: Python
    reads identifiers NFKC-normalised, so `float_ｅxp` (a full-width letter) would be float_exp
    and `ﬁ` would be fi, overwriting another op or argument."""
    if not isinstance(value, str) or not value.isidentifier():
        return "is not a Python name"
    if keyword.iskeyword(value):
        return "is a Python keyword"
    if not value.isascii():
        normalised = unicodedata.normalize("NFKC", value)
        return f"is not ASCII (Python reads it as {normalised!r})"
    return None


def choice(where: Where, key, choices) -> str:
    value = plain(where.entry.value[key])
    if not isinstance(value, str) or value not in choices:
        raise where.error(
            key,
            f"unknown {key} {value!r}",
            suggest(value, choices, f"write one of {', '.join(choices)}"),
        )
    return value


def text(where: Where, key, example: str) -> str:
    """A field that must be a string (`doc`, `composite`, a backend's `module`)."""
    value = where.entry.value[key]
    if not isinstance(value, str) or not value.strip():
        problem = (
            f"`{key}` is empty"
            if isinstance(value, str)
            else f"`{key}` must be a string, not {plain(value)!r}"
        )
        raise where.error(
            key,
            problem,
            f"write `{key}: {example}` (quote it if it holds `: ` or starts with `[`)",
        )
    return value
