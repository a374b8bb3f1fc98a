"""How the validator reports: every mistake of a catalogue, at once, sorted by file and line.

A check raises `where.error(...)` (codegen/load.py's `Where`: the file, the entry and the op a
check looks at) for the first mistake it finds in what it checks (one field,
one argument, one op's rule); `Problems.check` runs a check, keeps its error and goes on, so one
run names every mistake. Names that are nearly right get the nearest valid one (`suggest`).
"""

import difflib

from burnpy.codegen.load import CatalogueError, Where

__all__ = ["CatalogueErrors", "Problems", "Where", "nearest", "suggest"]


def nearest(word, candidates) -> str | None:
    """The candidate closest to `word` (difflib's ratio, at least 0.75), or None."""
    if not isinstance(word, str):
        return None
    found = difflib.get_close_matches(word, [str(c) for c in candidates], n=1, cutoff=0.75)
    return found[0] if found else None


def suggest(word, candidates, then: str = "") -> str:
    """A fix that starts with the nearest valid name: "did you mean `kind`? <then>"."""
    match = nearest(word, candidates)
    if match is None:
        return then
    return f"did you mean `{match}`?" + (f" else {then}" if then else "")


class CatalogueErrors(CatalogueError):
    """Every mistake found in a catalogue, sorted by file and line: its message is one line per
    mistake."""

    def __init__(self, path: str, errors):
        unique = {str(e): e for e in errors}.values()  # one mistake seen by two checks
        self.errors = tuple(sorted(unique, key=lambda e: (e.path != path, e.path, e.line)))
        first = self.errors[0]
        super().__init__(first.path, first.line, first.op, first.problem, first.fix)
        self.args = ("\n".join(str(e) for e in self.errors),)


class Problems:
    """The mistakes found so far in one catalogue."""

    def __init__(self, path: str):
        self.path = path
        self.found: list[CatalogueError] = []

    def add(self, error: CatalogueError) -> None:
        if isinstance(error, CatalogueErrors):
            self.found.extend(error.errors)
        else:
            self.found.append(error)

    def check(self, check, *args, **kwargs):
        """`check(*args, **kwargs)`, or None (its error kept) if it finds a mistake."""
        try:
            return check(*args, **kwargs)
        except CatalogueError as error:
            self.add(error)
            return None

    def raise_all(self) -> None:
        """Raise CatalogueErrors if any mistake was found."""
        if self.found:
            raise CatalogueErrors(self.path, self.found)
