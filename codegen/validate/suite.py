"""An entry's `test:` metadata, read by the spec-driven suite (tests/opinfo.py)."""

import ast
import builtins

from codegen.load import CatalogueError, Located

# `test:` keys besides the op's argument names (their values, or a tensor's data); see ops.yaml
TEST_KEYS = ("ref", "shapes", "domain", "signed", "integers", "compare")
# What a `ref` expression may name besides the op's arguments and Python's builtins: the
# spec-driven suite (tests/opinfo.py) evaluates it with these bound.
REFERENCE_NAMES = ("np", "special", "updated", "refs", "dtype")


def check_test(path, entry, name, test, args) -> None:
    """The spec-driven suite's metadata: known keys, and a `ref` naming only what it gets."""
    if not isinstance(test, Located):
        raise CatalogueError(
            path,
            entry.line_of("test"),
            name,
            "`test` must be a mapping",
            'e.g. `test: {ref: "np.exp(tensor)", shapes: [[[2, 3]]]}`',
        )
    names = [a.name for a in args]
    for key, line in test.key_lines.items():
        if key not in TEST_KEYS and key not in names:
            raise CatalogueError(
                path,
                line,
                name,
                f"unknown `test` key `{key}`",
                f"write one of {', '.join(TEST_KEYS)}, or an argument's name ({', '.join(names)})",
            )
    ref = test.value.get("ref")
    if not isinstance(ref, str):
        raise CatalogueError(
            path,
            test.line_of("ref"),
            name,
            "`test` needs `ref`, a numpy expression as a string",
            f'e.g. `ref: "np.exp({names[0] if names else "x"})"`',
        )
    try:
        tree = ast.parse(ref, mode="eval")
    except SyntaxError as error:
        raise CatalogueError(
            path,
            test.line_of("ref"),
            name,
            f"`test.ref` is not a Python expression: {error.msg}",
            "quote it as a string holding one expression",
        ) from None
    bound = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args}
    allowed = {*names, *REFERENCE_NAMES, *dir(builtins), *bound}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in allowed:
            raise CatalogueError(
                path,
                test.line_of("ref"),
                name,
                f"`test.ref` names `{node.id}`, which is not an argument of the op",
                f"name the arguments ({', '.join(names)}) or {', '.join(REFERENCE_NAMES)}",
            )
    compare = test.value.get("compare", "shape")
    if compare != "shape":
        raise CatalogueError(
            path,
            test.line_of("compare"),
            name,
            f"unknown `test.compare` {compare!r}",
            "write `compare: shape` (only the shape is deterministic) or leave it out",
        )
    if "shapes" in test.value and not isinstance(test.value["shapes"], list):
        raise CatalogueError(
            path,
            test.line_of("shapes"),
            name,
            "`test.shapes` must be a list of samples",
            "write one shape per tensor argument in each sample: `shapes: [[[2, 3], [2, 3]]]`",
        )
