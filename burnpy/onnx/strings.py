"""ONNX's string tensors in an imported model: the Tensor library has no string dtype, so a
string value is a NumPy array of Python `str` (dtype object), made and read by the functions
here, which the generated `forward` calls: a string graph input is converted by `array`, a
string constant is `constant` of a literal list, and the string operators (StringConcat,
StringSplit, StringNormalizer, RegexFullMatch, Equal on strings) take and give such arrays;
their numeric outputs (lengths, matches) are Tensors on the model's device.

RegexFullMatch's pattern comes from the model, so it runs on RE2 (the google-re2 package, the
`regex` extra), whose matching takes time linear in the text whatever the pattern (Python's
`re` backtracks, exponentially on patterns such as `(a+)+$`); its memory is capped too."""

from __future__ import annotations

import numpy as np

from burnpy.generated import Tensor

# The most memory RE2 may give one compiled pattern (its default).
PATTERN_MEMORY = 8 << 20


def array(value, name: str, shape) -> np.ndarray:
    """A string model input as an array of Python str: str, bytes (UTF-8) and arrays of
    either are taken; its shape must have the declared rank and static dims (`shape`, None
    where a dim is dynamic or the rank unknown), as onnxruntime checks them."""
    given = np.asarray(value, dtype=object)
    items = given.reshape(-1).tolist()
    for i, item in enumerate(items):
        if isinstance(item, bytes):
            items[i] = item.decode("utf-8")
        elif not isinstance(item, str):
            raise TypeError(
                f"input {name!r} is a string input: its elements must be str or bytes, not "
                f"{type(item).__name__}"
            )
    out = np.empty(given.shape, dtype=object)
    out.reshape(-1)[:] = items
    if shape is not None and (
        out.ndim != len(shape) or any(d is not None and d != g for d, g in zip(shape, out.shape))
    ):
        declared = "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"
        raise ValueError(
            f"input {name!r} has shape {list(out.shape)}, but the model declares {declared} (a "
            "'?' dim is free; the others are fixed by the model, as onnxruntime checks them)"
        )
    return out


def constant(items: list, shape: list) -> np.ndarray:
    """A string constant of the model, from its literal list of elements."""
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out.reshape(shape)


def _strings(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=object)


def equal(x: np.ndarray, y: np.ndarray, device) -> Tensor:
    """Equal of two string arrays (broadcast), a Bool Tensor on `device`."""
    same = np.equal(_strings(x), _strings(y)).astype(bool)
    return Tensor.from_data(same, device=device, dtype="bool")


def concat(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """StringConcat: each pair of elements joined (broadcast)."""
    return np.asarray(np.add(_strings(x), _strings(y)), dtype=object)


def split(x: np.ndarray, delimiter: str | None, maxsplit: int | None, device) -> tuple:
    """StringSplit: each element split at `delimiter` (None: at runs of whitespace, leading
    and trailing whitespace dropped), at most `maxsplit` times (None: every time), as
    Python's `str.split` does (an empty string is one empty piece); the pieces padded with ""
    to the longest row (a new last axis), and each element's number of pieces (an int64
    Tensor on `device`)."""
    x = _strings(x)
    limit = -1 if maxsplit is None else maxsplit
    if delimiter is None:  # leading and trailing whitespace removed, after the last split too
        rows = [s.strip().split(None, limit) for s in x.reshape(-1)]
    else:
        rows = [s.split(delimiter, limit) for s in x.reshape(-1)]
    counts = np.array([len(r) for r in rows], dtype=np.int64).reshape(x.shape)
    width = max((len(r) for r in rows), default=0)
    pieces = np.full((len(rows), width), "", dtype=object)
    for i, row in enumerate(rows):
        pieces[i, : len(row)] = row
    lengths = Tensor.from_data(counts, device=device, dtype="int64")
    return pieces.reshape(x.shape + (width,)), lengths


def normalize(x: np.ndarray, action: str, case_sensitive: bool, stopwords: list) -> np.ndarray:
    """StringNormalizer on a [C] or [1, C] array: the elements equal to a stop word (ignoring
    case unless `case_sensitive`) removed, then the others lower- or upper-cased (`action`
    LOWER, UPPER or NONE; Unicode's default case mapping); when every element is removed,
    one empty string remains."""
    x = _strings(x)
    if x.ndim not in (1, 2) or (x.ndim == 2 and x.shape[0] != 1):
        raise ValueError(f"StringNormalizer takes a [C] or [1, C] input, not {list(x.shape)}")
    if case_sensitive:
        stops = set(stopwords)
        kept = [s for s in x.reshape(-1) if s not in stops]
    else:
        stops = {w.lower() for w in stopwords}
        kept = [s for s in x.reshape(-1) if s.lower() not in stops]
    if action == "LOWER":
        kept = [s.lower() for s in kept]
    elif action == "UPPER":
        kept = [s.upper() for s in kept]
    kept = kept or [""]
    return constant(kept, [len(kept)] if x.ndim == 1 else [1, len(kept)])


def pattern(text: str):
    """`text` compiled by RE2; ImportError without google-re2, ValueError when RE2 does not
    take the pattern (a back-reference, a look-around: what would need backtracking)."""
    try:
        import re2
    except ImportError:
        raise ImportError(
            "RegexFullMatch runs on RE2 (linear-time matching of a pattern that comes from "
            "the model): pip install 'burnpy[regex]' (the google-re2 package)"
        ) from None
    options = re2.Options()
    options.log_errors = False
    options.max_mem = PATTERN_MEMORY
    try:
        return re2.compile(text, options)
    except re2.error as error:
        message = error.args[0] if error.args else error
        if isinstance(message, bytes):
            message = message.decode("utf-8", "replace")
        raise ValueError(f"RE2 does not take the pattern {text!r}: {message}") from None


def full_match(x: np.ndarray, text: str, device) -> Tensor:
    """RegexFullMatch: whether each element matches the pattern `text` whole (RE2's syntax),
    a Bool Tensor on `device`."""
    compiled = pattern(text)
    x = _strings(x)
    found = np.array([compiled.fullmatch(s) is not None for s in x.reshape(-1)], dtype=bool)
    return Tensor.from_data(found.reshape(x.shape), device=device, dtype="bool")
