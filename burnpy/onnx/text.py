"""Translations of the string operators: StringConcat, StringSplit, StringNormalizer,
RegexFullMatch and Equal on strings. A string value is a NumPy array of str, never a Tensor;
each node is one call of burnpy/onnx/strings.py, its attributes given as literals (a pattern,
a delimiter, stop words: `repr`, never code)."""

from __future__ import annotations

from burnpy.onnx.emit import STRINGS, Outputs, Site
from burnpy.onnx.expr import Lit, lift


def string_concat(n: Site):
    return STRINGS.concat(n.x(0), n.x(1))


def string_split(n: Site):
    delimiter = n.attr("delimiter") or None  # "" or absent: runs of whitespace
    maxsplit = n.attr("maxsplit")
    if maxsplit is not None and maxsplit < 0:
        n.refuse(f"maxsplit must be 0 or more, not {maxsplit}")
    return Outputs(STRINGS.split(n.x(0), Lit(delimiter), Lit(maxsplit), n.device()), 2)


CASE_ACTIONS = ("NONE", "LOWER", "UPPER")


def string_normalizer(n: Site):
    action = n.attr("case_change_action", "NONE")
    if action not in CASE_ACTIONS:
        n.refuse(f"case_change_action {action!r} is not one of {', '.join(CASE_ACTIONS)}")
    shape = n.shape(0)
    if shape is not None and (len(shape) not in (1, 2) or (len(shape) == 2 and shape[0] not in (1, None))):  # fmt: skip
        n.refuse(f"StringNormalizer takes a [C] or [1, C] input, not {list(shape)}")
    stopwords = lift(list(n.attr("stopwords", ())))
    sensitive = bool(n.attr("is_case_sensitive", 0))
    return STRINGS.normalize(n.x(0), action, sensitive, stopwords)


def regex_full_match(n: Site):
    from burnpy.onnx import strings

    text = n.attr("pattern")
    if text is None:
        n.refuse("the attribute 'pattern' is required")
    try:
        strings.pattern(text)  # RE2 takes it: checked before anything is written
    except (ImportError, ValueError) as error:
        n.refuse(str(error))
    return STRINGS.full_match(n.x(0), text, n.device())


def equal(n: Site):
    """Equal of two string values (a Bool Tensor)."""
    return STRINGS.equal(n.x(0), n.x(1), n.device())
