"""An entry's `test:` metadata, read by the spec-driven suite (tests/opinfo.py).

`ref` is parsed, not run: it may name only the op's arguments, Python's builtins and the names
the suite binds (REFERENCE_NAMES), and every attribute it takes of a module (`np.logaddexp`,
`special.erf`, `refs.conv`) must exist there. `shapes` gives each sample one shape per tensor
argument, in order (a list of shapes for a `tensors` list, null for an optional tensor left out).
"""

import ast
import builtins
import functools
import importlib
import inspect
from pathlib import Path
from types import MappingProxyType

from burnpy.codegen.load import Located, plain
from burnpy.codegen.model import TEST_KEYS, ArgKind, OpTest
from burnpy.codegen.validate.options import check_ints
from burnpy.codegen.validate.report import Where, nearest, suggest

# What a `ref` expression may name besides the op's arguments and Python's builtins: the
# spec-driven suite (tests/opinfo.py) evaluates it with these bound.
REFERENCE_NAMES = ("np", "special", "updated", "refs", "dtype")
# The suite's own reference functions: read from source (codegen does not import the tests).
REFS = Path(__file__).resolve().parents[2] / "tests" / "refs.py"
BUILTINS = frozenset(dir(builtins))
# The libraries the suite binds by name, imported to check the attributes a `ref` takes.
MODULES = {"np": "numpy", "special": "scipy.special"}


def check_test(where: Where, test, args) -> OpTest:
    """The spec-driven suite's metadata: known keys, a `ref` naming only what it gets, samples
    with a shape per tensor argument."""
    if not isinstance(test, Located):
        raise where.error(
            "test",
            "`test` must be a mapping",
            'e.g. `test: {ref: "np.exp(tensor)", shapes: [[[2, 3]]]}`',
        )
    at = Where(where.path, test, where.op)
    names = [a.name for a in args]
    for key, line in test.key_lines.items():
        if key not in TEST_KEYS and key not in names:
            raise at.error(
                line,
                f"unknown `test` key `{key}`",
                suggest(
                    key,
                    [*TEST_KEYS, *names],
                    f"write one of {', '.join(TEST_KEYS)}, or an argument's name "
                    f"({', '.join(names)})",
                ),
            )
    ref = test.value.get("ref")
    _check_ref(at, ref, names)
    for arg in args:
        value = plain(test.value.get(arg.name))
        if arg.type is ArgKind.INTS and value is not None:
            check_ints(at, arg.name, "test", arg, value)
    compare = test.value.get("compare")
    if "compare" in test.value and compare != "shape":
        raise at.error(
            "compare",
            f"unknown `test.compare` {compare!r}",
            "write `compare: shape` (only the shape is deterministic) or leave it out",
        )
    shapes = plain(test.value.get("shapes"))
    if "shapes" in test.value:
        _check_shapes(at, shapes, [a for a in args if a.is_tensor])
    domain = plain(test.value.get("domain"))
    if "domain" in test.value and not (
        isinstance(domain, list) and len(domain) == 2 and all(_number(d) for d in domain)
    ):
        raise at.error("domain", f"`test.domain` is {domain!r}", "write `domain: [lo, hi]`")
    for key in ("signed", "integers"):
        if not isinstance(test.value.get(key, False), bool):
            raise at.error(key, f"`test.{key}` must be true or false", f"write `{key}: true`")
    return OpTest(
        ref=ref,
        shapes=_tuples(shapes),
        domain=_tuples(domain),
        signed=test.value.get("signed", False),
        integers=test.value.get("integers", False),
        compare=compare,
        arguments=MappingProxyType(
            {name: plain(test.value[name]) for name in names if name in test.value}
        ),
    )


def _tuples(value):
    """Lists (of lists) as tuples, for a frozen OpTest."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_ref(at: Where, ref, names) -> None:
    if not isinstance(ref, str):
        raise at.error(
            "ref",
            "`test` needs `ref`, a numpy expression as a string",
            f'e.g. `ref: "np.exp({names[0] if names else "x"})"`',
        )
    try:
        tree = ast.parse(ref, mode="eval")
    except SyntaxError as error:
        raise at.error(
            "ref",
            f"`test.ref` is not a Python expression: {error.msg}",
            "quote it as a string holding one expression",
        ) from None
    bound = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args}
    allowed = BUILTINS | {*names, *REFERENCE_NAMES, *bound}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in allowed:
            raise at.error(
                "ref",
                f"`test.ref` names `{node.id}`, which is not an argument of the op",
                suggest(
                    node.id,
                    [*names, *REFERENCE_NAMES],
                    f"name the arguments ({', '.join(names)}) or {', '.join(REFERENCE_NAMES)}",
                ),
            )
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            _check_attribute(at, node, bound)
        elif isinstance(node, ast.Attribute):
            _check_submodule(at, node, bound)


def _check_attribute(at: Where, node: ast.Attribute, bound) -> None:
    """`module.name` (and `np.linalg.name`: attributes of a submodule) must exist, for the
    modules the suite binds."""
    module = node.value.id
    if module in bound:
        return
    attributes = _attributes(module)
    if attributes is None:
        return
    if node.attr not in attributes:
        _missing(at, module, node.attr, attributes)


def _check_submodule(at: Where, node: ast.Attribute, bound) -> None:
    """`np.linalg.normm`: an attribute of a submodule of numpy or scipy.special."""
    parts = []
    inner = node
    while isinstance(inner, ast.Attribute):
        parts.insert(0, inner.attr)
        inner = inner.value
    if not isinstance(inner, ast.Name) or inner.id not in MODULES or inner.id in bound:
        return
    owner = importlib.import_module(MODULES[inner.id])
    for depth, part in enumerate(parts):
        if not hasattr(owner, part):
            _missing(at, ".".join([inner.id, *parts[:depth]]), part, dir(owner))
        owner = getattr(owner, part)
        if not inspect.ismodule(owner):
            return


def _missing(at: Where, owner: str, name: str, attributes) -> None:
    match = nearest(name, attributes)
    raise at.error(
        "ref",
        f"`test.ref` calls `{owner}.{name}`, which {owner} does not define",
        f"did you mean `{owner}.{match}`?" if match else f"name a function of {owner}",
    )


@functools.cache
def _attributes(name: str) -> frozenset | None:
    """The attributes of a module the suite binds, or None for a name bound to a value."""
    if name == "refs":
        if not REFS.exists():  # an installed package has no tests to check against
            return None
        tree = ast.parse(REFS.read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        assigned = {
            t.id
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        return frozenset(defined | assigned)
    module = MODULES.get(name)
    return frozenset(dir(importlib.import_module(module))) if module else None


def _check_shapes(at: Where, shapes, tensors) -> None:
    example = ", ".join("[2, 3]" for _ in tensors) or ""
    if not isinstance(shapes, list):
        raise at.error(
            "shapes",
            "`test.shapes` must be a list of samples",
            f"write one shape per tensor argument in each sample: `shapes: [[{example}]]`",
        )
    names = [a.name for a in tensors]
    for number, sample in enumerate(shapes, 1):
        if not isinstance(sample, list):
            raise at.error(
                "shapes",
                f"`test.shapes` sample {number} is {sample!r}, not a list of shapes",
                f"write one shape per tensor argument, in order: `[{example}]`",
            )
        if len(sample) != len(tensors):
            raise at.error(
                "shapes",
                f"`test.shapes` sample {number} gives {len(sample)} shapes, but the op takes "
                f"{len(tensors)} {'tensor' if len(tensors) == 1 else 'tensors'} "
                f"({', '.join(names)})",
                f"write one shape per tensor argument, in order: `[{example}]`",
            )
        for arg, shape in zip(tensors, sample):
            if shape is None and not arg.optional:
                raise at.error(
                    "shapes",
                    f"`test.shapes` sample {number} leaves out `{arg.name}`, which is required",
                    f"give `{arg.name}` a shape (null is for optional tensors)",
                )
