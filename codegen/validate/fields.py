"""The small checks every entry's fields go through: known keys, names, choices."""

import keyword
import unicodedata

from codegen.load import CatalogueError, Located


def check_keys(path, entry: Located, keys: dict, op) -> None:
    for key, line in entry.key_lines.items():
        if key not in keys:
            raise CatalogueError(
                path, line, op, f"unknown key `{key}`", f"write one of {', '.join(keys)}"
            )
    for key, required in keys.items():
        if required and key not in entry.value:
            raise CatalogueError(path, entry.line, op, f"missing `{key}`", f"add `{key}: ...`")


def identifier(path, entry: Located, key, op) -> str:
    value = entry.value[key]
    problem = name_problem(value)
    if problem:
        raise CatalogueError(
            path,
            entry.line_of(key),
            op,
            f"`{key}` {value!r} {problem}",
            "write a name of ASCII letters, digits and _",
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


def choice(path, entry: Located, key, choices, op) -> str:
    value = entry.value[key]
    if value not in choices:
        raise CatalogueError(
            path,
            entry.line_of(key),
            op,
            f"unknown {key} {value!r}",
            f"write one of {', '.join(choices)}",
        )
    return value
