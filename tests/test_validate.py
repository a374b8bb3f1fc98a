"""`python -m codegen validate` on small fixture catalogues (tests/fixtures/mistakes/), one per
kind of mistake: each is found before anything runs, named with file:line, the nearest valid
name offered for a misspelt one; one run reports every mistake of a catalogue, sorted by line."""

import re
from pathlib import Path

import pytest

from burnpy.codegen.__main__ import main
from burnpy.runtime.autodiff.rules.elementwise import ElementwiseRules

FIXTURES = Path(__file__).parent / "fixtures"
MISTAKES = FIXTURES / "mistakes"


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the fixture holding `text` (the mistake the test planted)."""
    lines = path.read_text().splitlines()
    (number,) = [i for i, line in enumerate(lines, 1) if text in line]
    return number


def validate(path: Path, capsys) -> list[str]:
    """The error lines of `validate` (which must fail), the summary line checked."""
    assert main(["validate", "--ops", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    count = f"{len(errors)} mistakes" if len(errors) > 1 else "1 mistake"
    assert lines[-1] == f"{count}; nothing was written"
    return errors


# fixture -> (the text on the line to blame, the message after "<file>:<line>: ")
ONE_MISTAKE = {
    "ref_attribute": (
        "np.logaddexpp",
        "float_exp: `test.ref` calls `np.logaddexpp`, which np does not define; did you mean "
        "`np.logaddexp`?",
    ),
    "ref_submodule": (
        "np.linalg.normm",
        "float_exp: `test.ref` calls `np.linalg.normm`, which np.linalg does not define; did you "
        "mean `np.linalg.norm`?",
    ),
    "shapes_arity": (
        "shapes:",
        "float_exp: `test.shapes` sample 1 gives 2 shapes, but the op takes 1 tensor (tensor); "
        "write one shape per tensor argument, in order",
    ),
    "doc_type": (
        "doc:",
        "float_exp: `doc` must be a string, not ['Element-wise', 'e^x']",
    ),
    "key_typo": ("methd:", "float_exp: unknown key `methd`; did you mean `method`?"),
    "kind_typo": ("kind: flaot", "float_exp: unknown kind 'flaot'; did you mean `float`?"),
    "type_typo": (
        "tensor: flaot",
        "float_exp: argument `tensor` has unknown type 'flaot'; did you mean `float`?",
    ),
    "composite_typo": (
        "composite:",
        "float_exp_twice: composite calls float_expp, which is not a catalogue op; did you "
        "mean `float_exp`?",
    ),
    "ints_default": (
        "defaults:",
        "conv2d: `defaults`: `stride` takes an int or 2 ints, got 3: [1, 1, 1]; write an int or "
        "2 ints",
    ),
    "ints_test": (
        "stride: [2, 1.5]",
        "conv2d: `test`: `stride` takes an int or 2 ints, got [2, 1.5] (list)",
    ),
    "kernel_typo": (
        "name: bool_nott",
        "bool_nott: no kernel on backend numpy: neither the shared kernels nor "
        "burnpy.runtime.backends.numpy define `bool_nott`; did you mean `bool_not`?",
    ),
}


@pytest.mark.parametrize("fixture", ONE_MISTAKE)
def test_each_kind_of_mistake_is_found_with_its_line(fixture, capsys):
    path = MISTAKES / f"{fixture}.yaml"
    planted, message = ONE_MISTAKE[fixture]
    (error,) = validate(path, capsys)
    assert error.startswith(f"error: {path}:{line_of(path, planted)}: {message}"), error


def test_three_mistakes_are_reported_by_one_run_sorted_by_line(capsys):
    path = MISTAKES / "three_mistakes.yaml"
    errors = validate(path, capsys)
    expected = [
        (line_of(path, "np.expp"), "float_exp: `test.ref` calls `np.expp`"),
        (line_of(path, "memory_boundd"), "float_log: unknown autodiff 'memory_boundd'; did you"),
        (line_of(path, "[[[2, 3], [3]]]"), "float_sqrt: `test.shapes` sample 1 gives 2 shapes"),
    ]
    assert [line for line, _ in expected] == sorted(line for line, _ in expected)
    assert len(errors) == 3, errors
    for error, (line, message) in zip(errors, expected):
        assert error.startswith(f"error: {path}:{line}: {message}"), error


def test_a_missing_rule_and_a_missing_kernel_are_reported_together(capsys):
    path = MISTAKES / "rule_and_kernel.yaml"
    errors = validate(path, capsys)
    assert len(errors) == 2, errors
    assert errors[0].startswith(
        f"error: {path}:{line_of(path, 'name: float_frobnicate')}: float_frobnicate: no kernel "
        "on backend numpy"
    )
    assert errors[1].startswith(
        f"error: {path}:{line_of(path, 'autodiff:')}: float_frobnicate: is differentiable but "
        "has no backward rule"
    )


def _exp_calling_a_misspelt_kernel(B, g, tensor):
    return g * B.float_expp(tensor)


def test_a_rule_calling_a_kernel_no_backend_has_is_found_in_its_source(monkeypatch, capsys):
    """Read from the rule's source: the mistake is named at the rule's own file and line."""
    monkeypatch.setattr(ElementwiseRules, "float_exp", (_exp_calling_a_misspelt_kernel,))
    (error,) = validate(FIXTURES / "mini.yaml", capsys)
    source = Path(__file__)
    line = _exp_calling_a_misspelt_kernel.__code__.co_firstlineno + 1
    assert re.match(
        rf"error: \S*{source.name}:{line}: the rule of float_exp: calls `B\.float_expp`, which backend "
        r"numpy does not define; did you mean `float_exp`\?",
        error,
    ), error


def _exp_naming_out(g, out):
    return g * out


def test_a_rule_in_two_tables_is_reported_naming_both(monkeypatch, capsys):
    """An op's rule is the row named as it in one table: a second row is a mistake."""
    from burnpy.runtime.autodiff.rules.activation import ActivationRules

    monkeypatch.setattr(ActivationRules, "float_exp", (_exp_naming_out,), raising=False)
    (error,) = validate(FIXTURES / "mini.yaml", capsys)
    line = _exp_naming_out.__code__.co_firstlineno
    assert re.match(
        rf"error: \S*test_validate\.py:{line}: a second rule of float_exp, ActivationRules\."
        r"float_exp, beside ElementwiseRules\.float_exp \(\S*rules/elementwise\.py\); keep "
        r"the row in the table of its category only",
        error,
    ), error


def _exp_naming_output(g, output):  # `out` is the name of the op's output
    return g * output


def test_mistakes_of_the_catalogue_and_of_a_rule_file_are_reported_by_one_run(
    monkeypatch, tmp_path, capsys
):
    """A catalogue with one mistake and a rule file with another: both reported, each at its
    own file and line, the VJP parameter's nearest valid name suggested; and a rule left with
    one VJP too many by an entry's changed argument type."""
    monkeypatch.setattr(ElementwiseRules, "float_exp", (_exp_naming_output,))
    mini = (FIXTURES / "mini.yaml").read_text()
    bad = tmp_path / "mini.yaml"
    bad.write_text(
        mini.replace("    method: exp\n", "    method: exp\n    colour: blue\n").replace(
            "args: [lhs: float, rhs: float]", "args: [lhs: float, rhs: number]"
        )
    )
    errors = validate(bad, capsys)
    assert len(errors) == 3, errors
    text = "\n".join(errors)
    assert re.search(rf"error: {bad}:\d+: float_exp: unknown key `colour`", text), text
    line = _exp_naming_output.__code__.co_firstlineno
    assert re.search(
        rf"error: \S*test_validate\.py:{line}: a VJP of float_exp takes `output`, which the op "
        r"does not have; did you mean `out`\? else a VJP may name only B, g, out, tensor, ",
        text,
    ), text
    assert re.search(
        r"error: \S*rules/elementwise\.py:\d+: the rule of float_mul has 2 VJPs but the op has "
        r"1 float input \['lhs'\]; write one VJP per float input, in order",
        text,
    ), text


def test_the_committed_catalogue_is_valid(capsys):
    assert main(["validate", "--ops", str(Path(__file__).parents[1] / "ops.yaml")]) == 0


def test_explain_and_list_suggest_the_nearest_name(capsys):
    mini = str(FIXTURES / "mini.yaml")
    assert main(["explain", "--ops", mini, "float_mull"]) == 2
    assert re.search(r"no op 'float_mull' in .*; did you mean float_mul\b", capsys.readouterr().err)
    assert main(["explain", "--ops", mini, "bool_nott"]) == 2
    assert "did you mean bool_not?" in capsys.readouterr().err
    assert main(["list", "--ops", mini, "--backend", "numpyy"]) == 2
    assert "no backend 'numpyy'; did you mean `numpy`?" in capsys.readouterr().err
    assert main(["list", "--ops", mini, "--category", "unaryy"]) == 2
    assert "no category 'unaryy'; did you mean `unary`?" in capsys.readouterr().err


def test_the_catalogue_header_documents_every_key_and_type():
    """Each key and argument type is the head of a line of ops.yaml's header (`name *  the
    dispatch function`) or defined inline (`integer: a Python int`)."""
    from burnpy.codegen.model import ARG_TYPES, BACKEND_KEYS, OP_KEYS, TEST_KEYS

    header = (Path(__file__).parents[1] / "ops.yaml").read_text().split("\nbackends:", 1)[0]
    heads = re.findall(r"^#\s+([\w, <>?*-]+?)\s{2,}", header, re.M)
    documented = {w.strip(" *") for head in heads for w in head.split(",")}
    documented |= set(re.findall(r"(\w+): ", header))
    missing = [k for k in [*OP_KEYS, *BACKEND_KEYS, *TEST_KEYS, *ARG_TYPES] if k not in documented]
    assert not missing
    assert "<type>?" in documented


def test_the_catalogue_header_lists_exactly_the_keys_marking_the_required():
    """The keys an entry may have are its model's fields (codegen/model.py's OP_KEYS and
    BACKEND_KEYS, which the validator checks entries against); the header's `ops:` and
    `backends:` lists name each once, no other, with `*` on exactly the required ones. Its
    `test` block names exactly an op test's keys (TEST_KEYS) and `<arg>`."""
    from burnpy.codegen.model import BACKEND_KEYS, OP_KEYS, TEST_KEYS

    header = (Path(__file__).parents[1] / "ops.yaml").read_text().split("\nbackends:", 1)[0]
    backends = header.split("# `backends:` lists", 1)[1].split("# Every dispatch function", 1)[0]
    ops = header.split("# `ops:` lists the ops.", 1)[1].split("# Argument types:", 1)[0]
    for block, keys in ((backends, BACKEND_KEYS), (ops, OP_KEYS)):
        listed = re.findall(r"^#   (\w+)( \*)?\s", block, re.M)
        assert len(listed) == len({key for key, _ in listed}), "a key is listed twice"
        assert {key: bool(star) for key, star in listed} == keys
    assert BACKEND_KEYS == {
        "name": True, "variant": True, "module": True, "devices": True, "extra": False
    }  # fmt: skip
    assert OP_KEYS["name"] and not OP_KEYS["autodiff"] and "operator" in OP_KEYS
    assert "line" not in OP_KEYS and "section" not in OP_KEYS and "operators" not in OP_KEYS
    test = ops.split("#   test ", 1)[1]
    listed = re.findall(r"^#\s{16}(\S+)\s{2,}", test, re.M) + re.findall(r"; (\w+): ", test)
    assert sorted(listed) == sorted([*TEST_KEYS, "<arg>"])
    assert [key for key, required in TEST_KEYS.items() if required] == ["ref"]


def test_every_rule_row_is_the_rule_of_a_differentiable_op_of_the_catalogue():
    """A row is found by its op's name: one whose name is no recorded op (a misspelt
    `float_mull` beside `float_mul`, a rule left behind by a removed op) would never run."""
    import difflib

    from burnpy.generated import catalogue
    from burnpy.runtime.autodiff.ops import MOVE_ACROSS, AutodiffOp, AutodiffRole
    from burnpy.runtime.autodiff.rules import TABLES

    recorded = {
        op.name
        for op in vars(catalogue).values()
        if isinstance(op, AutodiffOp) and op.role is AutodiffRole.RECORD
    } | {MOVE_ACROSS.name}
    orphans = [
        f"{table.__name__}.{name} (did you mean "
        f"{difflib.get_close_matches(name, recorded, 1) or 'nothing close'}?)"
        for table in TABLES
        for name in vars(table)
        if not name.startswith("_") and name not in recorded
    ]
    assert not orphans, orphans
