"""Read ops.yaml into Python values, remembering the line of every entry and key."""

import re
from dataclasses import dataclass

import yaml

# A section comment: `  # -- reductions (the reduced dim is kept) ------`; its title is the
# text before any parenthesis.
SECTION = re.compile(r"^\s*# -- ([^(]+?)\s*(\(.*)?-*$")


class CatalogueError(Exception):
    """A bad catalogue: where (file:line), which op, what is wrong, and what to write instead."""

    def __init__(self, path: str, line: int, op: str | None, problem: str, fix: str = ""):
        self.path, self.line, self.op, self.problem, self.fix = path, line, op, problem, fix
        where = f"{path}:{line}: " + (f"{op}: " if op else "")
        super().__init__(where + problem + (f"; {fix}" if fix else ""))


@dataclass
class Located:
    """A YAML mapping with the line (1-based) of the mapping and of each key."""

    value: dict
    line: int
    key_lines: dict
    sections: tuple = ()  # the root's (line, title) of every section comment, in order

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class Items(list):
    """A YAML sequence with the line (1-based) of each item."""

    lines: tuple = ()

    def line_of(self, index: int) -> int:
        return self.lines[index]


@dataclass(frozen=True)
class Where:
    """Where a check looks: the file, the entry (for its keys' lines) and the op's name."""

    path: str
    entry: Located | None = None
    op: str | None = None

    def line(self, at) -> int:
        """The line of key `at` of the entry (the entry's own line if it lacks the key), or
        `at` itself when it is a line number."""
        if isinstance(at, int):
            return at
        if self.entry is None:
            return 0
        return self.entry.line_of(at) if at else self.entry.line

    def error(self, at, problem: str, fix: str = "") -> CatalogueError:
        return CatalogueError(self.path, self.line(at), self.op, problem, fix)


def load(path: str):
    try:
        with open(path, "rb") as file:
            raw = file.read()
    except OSError as error:
        raise Where(path).error(
            0, f"cannot read the catalogue: {error.strerror}", "check the path"
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise Where(path).error(
            line,
            f"the catalogue is not UTF-8 (byte {raw[error.start]:#04x} at offset {error.start})",
            "save the file as UTF-8",
        ) from None
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise Where(path).error(
            line,
            f"malformed YAML: {getattr(error, 'problem', error)}",
            "fix the YAML syntax (indentation, quoting, brackets)",
        ) from None
    if "&" in text:  # an anchor, even one no alias uses, is refused like its aliases
        for token in yaml.scan(text, Loader=LOADER):
            if isinstance(token, yaml.AnchorToken):
                raise Where(path).error(
                    token.start_mark.line + 1,
                    f"YAML anchor `&{token.value}`: anchors and aliases are not allowed",
                    "write each value out in full",
                )
    if node is None:
        raise Where(path).error(1, "the catalogue is empty", "write `backends:` and `ops:`")
    root = _convert(path, node, None)
    if isinstance(root, Located):
        root.sections = tuple(
            (number, match.group(1))
            for number, text in enumerate(text.splitlines(), 1)
            if (match := SECTION.match(text))
        )
    return root


def _convert(path, node, op):
    """Python values of a node tree (anchors were refused: no node is reached twice); `op` is
    the name of the entry being read, for messages."""
    if isinstance(node, yaml.MappingNode):
        op = next(
            (
                v.value
                for k, v in node.value
                if isinstance(k, yaml.ScalarNode)
                and k.value == "name"
                and isinstance(v, yaml.ScalarNode)
            ),
            op,
        )
        value, key_lines = {}, {}
        for key_node, value_node in node.value:
            key = _convert(path, key_node, op)
            if not isinstance(key, str):
                raise Where(path, None, op).error(
                    key_node.start_mark.line + 1, f"key {key!r} is not a string"
                )
            if key in value:
                raise Where(path, None, op).error(
                    key_node.start_mark.line + 1,
                    f"key `{key}` appears twice (first at line {key_lines[key]})",
                    "keep one of them",
                )
            value[key] = _convert(path, value_node, op)
            key_lines[key] = key_node.start_mark.line + 1
        return Located(value, node.start_mark.line + 1, key_lines)
    if isinstance(node, yaml.SequenceNode):
        items = Items(_convert(path, item, op) for item in node.value)
        items.lines = tuple(item.start_mark.line + 1 for item in node.value)
        return items
    return _SCALARS.construct_object(node, deep=True)


_SCALARS = yaml.constructor.SafeConstructor()
# libyaml's parser when PyYAML was built with it: faster, the same nodes and marks
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def plain(value):
    """A Located tree as plain dicts and lists (for test metadata)."""
    if isinstance(value, Located):
        return {k: plain(v) for k, v in value.value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
