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


def load(path: str):
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise CatalogueError(
            path, 0, None, f"cannot read the catalogue: {error.strerror}"
        ) from None
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        raise CatalogueError(
            path,
            line,
            None,
            f"malformed YAML: {getattr(error, 'problem', error)}",
            "fix the YAML syntax (indentation, quoting, brackets)",
        ) from None
    if node is None:
        raise CatalogueError(
            path, 1, None, "the catalogue is empty", "write `backends:` and `ops:`"
        )
    root = _convert(path, node)
    if isinstance(root, Located):
        root.sections = tuple(
            (number, match.group(1))
            for number, text in enumerate(text.splitlines(), 1)
            if (match := SECTION.match(text))
        )
    return root


def _convert(path, node):
    if isinstance(node, yaml.MappingNode):
        value, key_lines = {}, {}
        for key_node, value_node in node.value:
            key = _convert(path, key_node)
            if not isinstance(key, str):
                raise CatalogueError(
                    path, key_node.start_mark.line + 1, None, f"key {key!r} is not a string"
                )
            if key in value:
                raise CatalogueError(
                    path,
                    key_node.start_mark.line + 1,
                    None,
                    f"key `{key}` appears twice",
                    "keep one of them",
                )
            value[key] = _convert(path, value_node)
            key_lines[key] = key_node.start_mark.line + 1
        return Located(value, node.start_mark.line + 1, key_lines)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(path, item) for item in node.value]
    return _SCALARS.construct_object(node, deep=True)


_SCALARS = yaml.constructor.SafeConstructor()
# libyaml's parser when PyYAML was built with it: 10x faster, the same nodes and marks
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def plain(value):
    """A Located tree as plain dicts and lists (for test metadata)."""
    if isinstance(value, Located):
        return {k: plain(v) for k, v in value.value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
