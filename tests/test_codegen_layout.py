"""The generator lays out most long statements itself (burnpy.codegen.layout): each must come
out as black formats it, at any width, and whatever it does not know must go to black."""

import random

import black
import pytest

from burnpy.codegen import layout
from burnpy.codegen.render import MODE, format_all

WIDTHS = (100, 72, 48)

# Statements of each shape the layout handles, long enough to break at the widths above.
STATEMENTS = [
    # a call: on one line, its arguments on the next, one per line, nested breaks
    'TABLE_ENTRY = declaration("float_add", ("lhs", "rhs"), (Input("lhs", 0), Input("rhs", 1)), Role.RECORD, memory_bound=True, c="{lhs} + {rhs}")',
    "short = f(a, b)",
    'CLIP: Op[Callable[[Tensor, Any], Tensor]] = Op("clip_by_norm", ("grad", "threshold"), (Input("grad", 0),), Role.UNTRACKED)',
    # a literal: exploded once it breaks, a lone item kept whole where it fits
    'LOWERINGS = {"float_add": (("lhs", "rhs"), {"op": "Add", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}), "float_exp": (("tensor",), {"op": "Exp", "inputs": [{"arg": "tensor"}], "attributes": {"alpha": -1.5, "beta": None, "flag": True}})}',
    'ONE = [{"a_long_key": "a long value", "another_key": ("x", "y", "z"), "third": 1234567}]',
    'SINGLE = ({"a_long_key": "a long value", "another_key": 12345678, "third": (1, 2)},)',
    'NAMES = {"aaaaaaaaaaaa", "bbbbbbbbbbbbbbb", "cccccccccccccccc", "dddddddddddddddd", "eeeeeeeeeeeee"}',
    # expressions taken whole inside a call; a return; a bare tuple that gets parentheses
    "out_node = new_node(parents=(a.id,) if tracked else (), order=order + 1, id=next_id(), shapes=(lhs.shape, rhs.shape), flag=not done, index=values[0])",
    "return build(first_argument_value, second_argument_value, keyword=third_argument_value + 1)",
    "out.kind, out.primitive, out.context = B.Float, B.inner.conv2d(x_, weight_, bias_, stride, padding), ctx",
    "call_with_a_long_name_of_its_own(first_argument_value, second_argument_value, third_value)",
]

HEADERS = [
    "def float_add(self, lhs: Primitive, rhs: Primitive) -> Primitive:",
    "def conv2d(self, x: Primitive, weight: Primitive, bias: Primitive | None, stride: tuple[int, int], padding: tuple[int, int], groups: int = 1) -> Primitive:",
    "def float_slice(self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...]) -> Primitive:",
    "def one_argument_with_a_long_name(the_only_argument: dict[str, int]) -> None:",
    "@classmethod\ndef from_parts(cls, first, *rest, keyword_only=None, another: int = 3, **options) -> Holder:",
    "@functools.cache\ndef keywords_only(*, alpha: float = 0.5, beta: float = -1.0, gamma: bool = False) -> tuple:",
]

# What black lays out by rules the layout does not follow: it must answer None.
REFUSED = [
    "value = compute(first_argument, second)  # a comment that makes the line too long to fit",
    'TABLE = {"first": ("aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbb"), "second": ("c", "d"),}',
    "value = make(first_argument_value, second_argument_value, (third, fourth),)",
    "VALUE = function_name(argument_one, argument_two)[first_index:second_index] ** exponent_value",
    'TEXT = call("a string holding \\"quotes\\" that black may requote", "another long string")',
    "pair_one, pair_two = first_function(argument_number_one), second_function(argument_two)",
    "result = [transform(item, with_a_keyword=True) for item in a_long_sequence_of_items_to_map]",
    "if some_condition_that_is_long(argument_number_one) and another_condition(argument_two):",
]


def _black(text: str, width: int) -> str:
    """black's output in the generator's mode (its target version adds a trailing comma after
    `**kwargs`), at `width`."""
    mode = black.Mode(line_length=width, target_versions=MODE.target_versions)
    return black.format_str(text, mode=mode).rstrip("\n")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("text", STATEMENTS)
def test_a_statement_is_laid_out_as_black_lays_it_out(text, width):
    laid_out = layout.statement(text, width)
    assert laid_out is not None
    assert laid_out == _black(text, width)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("text", HEADERS)
def test_a_functions_header_is_laid_out_as_black_lays_it_out(text, width):
    laid_out = layout.header(text, width)
    assert laid_out is not None
    assert laid_out == _black(text + "\n    pass", width).removesuffix("\n    pass")


@pytest.mark.parametrize("text", REFUSED)
def test_what_black_lays_out_otherwise_is_left_to_black(text):
    assert layout.statement(text, 60) is None and layout.header(text, 60) is None


def _random_value(rng: random.Random, depth: int) -> str:
    """A random expression of the shapes the layout handles: literals, names, calls."""
    leaves = ['"alpha"', '"a longer string value"', "12345", "-0.25", "None", "True", "name"]
    leaves += ["module.attribute", "count + 1", "x if flag else y", "items[0]"]
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves)
    items = [_random_value(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    kind = rng.choice(["tuple", "list", "dict", "call", "call"])
    if kind == "tuple":
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if kind == "list":
        return f"[{', '.join(items)}]"
    if kind == "dict":
        return "{" + ", ".join(f'"key_{i}": {v}' for i, v in enumerate(items)) + "}"
    arguments = [*items[:2], *(f"keyword_{i}={v}" for i, v in enumerate(items[2:]))]
    return f"{rng.choice(['make', 'module.make'])}({', '.join(arguments)})"


def test_random_values_are_laid_out_as_black_lays_them_out_or_left_to_it():
    rng = random.Random(7)
    broken = 0
    for case in range(150):
        text = f"value_{case} = {_random_value(rng, 5)}"
        width = rng.choice(WIDTHS)
        laid_out = layout.statement(text, width)
        if laid_out is not None:
            broken += "\n" in laid_out
            assert laid_out == _black(text, width), text
    assert broken > 40  # a third of them break, in every way it knows


def test_the_generator_gives_black_only_what_the_layout_leaves():
    """format_all: statements laid out here and by black together make black's file."""
    long = [text for text in STATEMENTS + REFUSED[:3] if len(text) > MODE.line_length]
    header = "class Holder:\n    " + HEADERS[1].replace("(self, ", "(\n        self, ")
    source = "\n\n".join(["import numpy as np", *long, header + "\n        return None"])
    source = source.replace("return build", "build")  # (a `return` outside a function)
    expected = black.format_str(source, mode=MODE)
    assert expected != source and format_all({"a.py": source})["a.py"] == expected
