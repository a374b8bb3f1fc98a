"""The generator on a small fixture catalogue: validation, determinism, staleness, diffs."""

import ast
import difflib
import functools
import pickle
import re
import shutil
import sys
from pathlib import Path

import pytest

import background
from burnpy.codegen.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
MINI = Path(__file__).parent / "fixtures" / "mini.yaml"
MUL_ENTRY = """  - name: float_mul
    kind: float
    args: [lhs: float, rhs: float]
    returns: float
    routing: tensor
    autodiff: memory_bound
    method: mul
    operator: [__mul__]
    doc: Element-wise product.
"""


def generate(ops: Path, out: Path, *extra) -> int:
    return main([*extra, "--ops", str(ops), "--out", str(out)])


def snapshot(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*.py"))}


@pytest.fixture(scope="module")
def mini_tree(tmp_path_factory) -> Path:
    """mini.yaml generated once (the package, and docs/ops.md beside it), for the tests that
    read it; one that changes it takes a copy (`mini_out`)."""
    out = tmp_path_factory.mktemp("mini") / "out"
    assert generate(MINI, out) == 0
    return out


@pytest.fixture
def mini_out(mini_tree, tmp_path) -> Path:
    """A fresh copy of the generated mini tree at tmp_path/out, its docs/ops.md beside it."""
    shutil.copytree(mini_tree.parent, tmp_path, dirs_exist_ok=True)
    return tmp_path / "out"


def test_regeneration_is_byte_identical(tmp_path):
    assert generate(MINI, tmp_path / "a") == 0
    first = snapshot(tmp_path / "a")
    assert generate(MINI, tmp_path / "a") == 0  # header hashes match: black is skipped
    assert snapshot(tmp_path / "a") == first
    assert generate(MINI, tmp_path / "b") == 0  # from nothing: black runs
    assert snapshot(tmp_path / "b") == first


def test_generated_files_say_they_are_generated(mini_tree):
    for path, content in snapshot(mini_tree).items():
        assert content.startswith(
            b"# @generated from mini.yaml by `python -m codegen`; do not edit."
        )
        ast.parse(content)  # valid Python


def test_check_catches_a_hand_edit(mini_out, capsys):
    out = mini_out
    assert generate(MINI, out, "--check") == 0
    target = out / "dispatch" / "float_ops.py"
    target.write_text(target.read_text().replace("ctx = lhs.context", "ctx = rhs.context"))
    capsys.readouterr()
    assert generate(MINI, out, "--check") == 1
    captured = capsys.readouterr()
    assert (
        "-        ctx = rhs.context" in captured.out
        and "+        ctx = lhs.context" in captured.out
    )
    assert "make generate" in captured.err


def test_check_catches_a_stale_tree(mini_tree, tmp_path):
    out = mini_tree
    changed = tmp_path / "ops.yaml"
    changed.write_text(MINI.read_text().replace("Element-wise e^x.", "e to the x."))
    assert generate(changed, out, "--check") == 1


def _body(content: bytes) -> list[str]:
    return content.decode().splitlines()[1:]  # past the header (source name and hashes)


def test_adding_one_op_changes_only_that_ops_lines(mini_tree, tmp_path):
    before, after = mini_tree, tmp_path / "after"
    grown = tmp_path / "mini.yaml"
    new_entry = (
        MUL_ENTRY.replace("float_mul", "float_div")
        .replace("method: mul", "method: div")
        .replace("__mul__", "__truediv__")
        .replace("product", "quotient")
    )
    grown.write_text(MINI.read_text().replace(MUL_ENTRY, MUL_ENTRY + "\n" + new_entry))
    generate(grown, after)
    old, new = snapshot(before), snapshot(after)
    changed = {path for path in new if _body(old[path]) != _body(new[path])}
    # the new function and the __all__ index; the new method; the new AutodiffOp; its recorder
    # and the line binding it in the Autodiff specialization; its kernel's declaration
    assert changed == {
        Path("dispatch/float_ops.py"),
        Path("inner.py"),
        Path("tensor.py"),
        Path("catalogue.py"),
        Path("recorders.py"),
        Path("autodiff.py"),
    }
    for path in changed:
        a, b = _body(old[path]), _body(new[path])
        blocks = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
        edits = [op for op in blocks if op[0] != "equal"]
        assert all(tag == "insert" for tag, *_ in edits), f"{path}: lines changed, not only added"
        for _, _, _, start, end in edits:  # each inserted block is about the new op only
            assert any("div" in line.lower() for line in b[start:end]), b[start:end]
        assert len(edits) <= 2, f"{path}: {len(edits)} separate insertions"


def test_changing_one_rule_changes_only_that_ops_recorder(mini_tree, tmp_path, monkeypatch):
    """A rule's signature decides what its op's recorder saves: a rule that also asks for the
    output changes float_mul's recorder and the line binding it, nothing else."""
    from burnpy.runtime.autodiff.rules.elementwise import ElementwiseRules

    before, after = mini_tree, tmp_path / "after"
    lhs_vjp, _ = ElementwiseRules.float_mul
    monkeypatch.setattr(ElementwiseRules, "float_mul", (lhs_vjp, lambda g, lhs, out: g * lhs))
    generate(MINI, after)
    old, new = snapshot(before), snapshot(after)
    changed = {path for path in new if _body(old[path]) != _body(new[path])}
    assert changed == {Path("recorders.py"), Path("autodiff.py")}
    a, b = _body(old[Path("recorders.py")]), _body(new[Path("recorders.py")])
    touched = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            touched |= {_enclosing(b, j) for j in range(j1, max(j2, j1 + 1))}
    assert touched == {"record_float_mul"}
    a, b = _body(old[Path("autodiff.py")]), _body(new[Path("autodiff.py")])
    added = "\n".join(line for line in difflib.ndiff(a, b) if line.startswith("+ "))
    assert added.count(" = self.") == 1 and "self.float_mul = " in added  # black may wrap it
    assert 'recorders.record_float_mul, ("rhs", "lhs", "out")' in added


def _enclosing(lines: list[str], index: int) -> str:
    """The top-level definition a line of a generated file belongs to."""
    for line in reversed(lines[: index + 1]):
        if line.startswith("def "):
            return line[4:].split("(")[0]
    return "<module>"


BAD_CATALOGUES = {
    "unknown key": (
        MUL_ENTRY,
        MUL_ENTRY + "    colour: blue\n",
        r"mini\.yaml:\d+: float_mul: unknown key `colour`; write one of",
    ),
    "duplicate op": (
        MUL_ENTRY,
        MUL_ENTRY + "\n" + MUL_ENTRY,
        r"float_mul: duplicate op: already defined at line \d+; remove or rename one",
    ),
    "unknown kind": (
        "    kind: float\n    args: [lhs: float, rhs: float]",
        "    kind: complex\n    args: [lhs: float, rhs: float]",
        r"float_mul: unknown kind 'complex'; write one of float, int, bool",
    ),
    "unknown argument type": (
        "args: [lhs: float, rhs: float]",
        "args: [lhs: float, rhs: quaternion]",
        r"float_mul: argument `rhs` has unknown type 'quaternion'; write one of",
    ),
    "missing field": (
        "    doc: Element-wise product.\n",
        "",
        r"float_mul: missing `doc`; add `doc: \.\.\.`",
    ),
    "malformed YAML": (
        "args: [lhs: float, rhs: float]",
        "args: [lhs: float, rhs: float",
        r"mini\.yaml:\d+: malformed YAML",
    ),
    "routing does not fit": (
        "    routing: tensor\n    autodiff: memory_bound\n    method: mul",
        "    routing: creation\n    autodiff: memory_bound\n    method: mul",
        r"float_mul: routing `creation` does not fit: a creation op takes a `device` argument and no tensors",
    ),
    "operator on two methods of one kind": (
        MUL_ENTRY,
        MUL_ENTRY + "\n" + MUL_ENTRY.replace("float_mul", "float_div").replace("mul\n", "div\n"),
        r"float_div: operator __mul__ already routes float tensors to method `mul`; "
        r"claim __mul__ from one method per kind",
    ),
    "differentiable without a rule": (
        MUL_ENTRY,
        MUL_ENTRY
        + "\n"
        + MUL_ENTRY.replace("float_mul", "float_times").replace("mul\n", "times\n"),
        r"float_times: is differentiable but has no backward rule; add `float_times = \(one VJP",
    ),
    "operator on ops of two arities": (
        "    method: exp\n",
        "    method: exp\n    operator: [__mul__]\n",
        r"float_exp: operator __mul__ is also float_mul's, which takes 2 arguments",
    ),
    "missing checkpoint class": (
        "    autodiff: memory_bound\n    method: mul",
        "    method: mul",
        r"float_mul: a float op with a float result must say how it checkpoints; add `autodiff: memory_bound`",
    ),
    "untracked with a checkpoint class": (
        "    autodiff: memory_bound\n    method: mul",
        "    autodiff: memory_bound\n    untracked: true\n    method: mul",
        r"float_mul: only a float op with a float result, with no `autodiff` and no `composite`, "
        r"can be untracked \(no gradient flows through it\); remove `untracked`",
    ),
    "keeps on a multi-output op": (
        "    returns: float\n    routing: tensor\n    autodiff: memory_bound\n    method: mul",
        "    returns: [float, int]\n    routing: tensor\n    autodiff: compute_bound\n"
        "    keeps: product\n    method: mul",
        r"float_mul: only a differentiable op with one float result keeps values for its "
        r"backward; remove `keeps`",
    ),
    "untracked as a string": (
        "    autodiff: memory_bound\n    method: mul",
        '    untracked: "yes"\n    method: mul',
        r"float_mul: `untracked` is 'yes', not a YAML boolean; write true or false",
    ),
    "data_dependent as a string": (
        "    autodiff: memory_bound\n    method: mul",
        "    autodiff: memory_bound\n    data_dependent: 1\n    method: mul",
        r"float_mul: `data_dependent` is 1, not a YAML boolean; write true or false",
    ),
    "memory-bound multi-output": (
        "    returns: float\n    routing: tensor\n    autodiff: memory_bound\n    method: mul",
        "    returns: [float, int]\n    routing: tensor\n    autodiff: memory_bound\n    method: mul",
        r"float_mul: a multi-output op cannot be recomputed for one of its outputs; write `autodiff: compute_bound`",
    ),
    "a list input recomputed": (
        "args: [lhs: float, rhs: float]",
        "args: [lhs: tensors, rhs: float]",
        r"float_mul: an op over a `tensors` list cannot be recomputed; write `autodiff: compute_bound`",
    ),
}

EXP_ENTRY = """  - name: float_exp
    kind: float
    args: [tensor: float]
    returns: float
    routing: tensor
    autodiff: memory_bound
    method: exp
    doc: Element-wise e^x.
"""
ELEM_ARGS = "args: [lhs: float, rhs: scalar]"
NUMPY_BACKEND = """  - name: numpy
    variant: NumPy
    module: burnpy.runtime.backends.numpy
    devices: [cpu]
"""
MOVES = """  - name: float_to_device
    kind: float
    args: [tensor: float, target: device]
    returns: float
    routing: move
    autodiff: compute_bound
    method: to_device
    doc: The tensor on a device.

  - name: int_to_device
    kind: int
    args: [tensor: int, device: device]
    returns: int
    routing: move
    method: to_device
    doc: The tensor on a device.

  - name: bool_to_device"""
BOMB = "    test: {ref: tensor, a: &a [x, x], b: &b [*a, *a], c: &c [*b, *b], d: [*c, *c]}\n"


def _exp(old: str, new: str) -> tuple[str, str]:
    """An edit of the float_exp entry."""
    return EXP_ENTRY, EXP_ENTRY.replace(old, new)


def _test(metadata: str) -> tuple[str, str]:
    """float_exp with this `test:` line."""
    return EXP_ENTRY, EXP_ENTRY + f"    test: {metadata}\n"


BAD_CATALOGUES |= {
    # kernels and backends
    "no kernel": (
        "  - name: bool_not\n",
        "  - name: int_frobnicate\n    kind: int\n    args: [tensor: int]\n    returns: int\n"
        "    routing: tensor\n    doc: Frobnicates.\n\n  - name: bool_not\n",
        r"int_frobnicate: no kernel on backend numpy: neither the shared kernels nor "
        r"burnpy\.runtime\.backends\.numpy define `int_frobnicate`; define "
        r"`def int_frobnicate\(self, tensor\)` in a mixin of runtime/backends/kernels/",
    ),
    "backend module that does not exist": (
        "module: burnpy.runtime.backends.numpy",
        "module: burnpy.runtime.backends.nothing",
        r"backend numpy: module 'burnpy\.runtime\.backends\.nothing' does not exist; write the dotted "
        r"name of a module that defines BACKEND",
    ),
    "backend module without BACKEND": (
        "module: burnpy.runtime.backends.numpy",
        "module: burnpy.runtime.device",
        r"backend numpy: module 'burnpy\.runtime\.device' defines no `BACKEND = SomeBackend\(\)`",
    ),
    "no backends": (
        "backends:\n" + NUMPY_BACKEND,
        "backends: []\n",
        r"mini\.yaml:\d+: `backends` must be a non-empty list; write `backends:` then `- \.\.\.`",
    ),
    "a backend that is not a mapping": (
        NUMPY_BACKEND,
        "  - numpy\n",
        r"mini\.yaml:3: a backend must be a mapping, not 'numpy'; write `- \{name: numpy",
    ),
    # the op list
    "no ops": (
        MINI.read_text()[MINI.read_text().index("\nops:") :],
        "\nops: []\n",
        r"mini\.yaml:\d+: `ops` must be a non-empty list",
    ),
    "an op entry that is not a mapping": (
        MUL_ENTRY,
        "  - just_a_name\n\n" + MUL_ENTRY,
        r"mini\.yaml:\d+: an op entry must be a mapping, not 'just_a_name'; start it with",
    ),
    "unknown top-level key": (
        "\nops:\n",
        "\ncolours: [blue]\nops:\n",
        r"mini\.yaml:\d+: unknown key `colours`; write one of backends, ops",
    ),
    "duplicate key names its op": (
        *_exp("    kind: float\n", "    kind: float\n    kind: int\n"),
        r"float_exp: key `kind` appears twice \(first at line \d+\); keep one of them",
    ),
    # names
    "full-width letter in a name": (
        *_exp("name: float_exp", "name: float_\uff45xp"),
        r"float_\uff45xp: `name` 'float_\uff45xp' is not ASCII \(Python reads it as "
        r"'float_exp'\); write a name of ASCII letters",
    ),
    "ligature in an argument name": (
        "args: [lhs: float, rhs: float]",
        "args: [\ufb01: float, fi: float]",
        r"float_mul: argument name '\ufb01' is not ASCII \(Python reads it as 'fi'\)",
    ),
    "a Python keyword as a name": (
        *_exp("name: float_exp", "name: lambda"),
        r"lambda: `name` 'lambda' is a Python keyword",
    ),
    "op named DISABLED": (
        "  - name: bool_not\n",
        "  - name: DISABLED\n",
        r"DISABLED: the name `DISABLED` is taken: generated/dispatch/bool_ops\.py:\d+ imports "
        r"it; rename the op",
    ),
    "op named Tensor": (
        "  - name: bool_not\n",
        "  - name: Tensor\n",
        r"Tensor: the name `Tensor` is taken: generated/\S+\.py:\d+ (imports|defines) it; "
        r"rename the op",
    ),
    "op named BACKENDS": (
        "  - name: bool_not\n",
        "  - name: BACKENDS\n",
        r"BACKENDS: the name `BACKENDS` is taken: generated/dispatch/bool_ops\.py:\d+ imports it",
    ),
    "op named like a dispatch module": (
        "  - name: bool_not\n",
        "  - name: float_ops\n",
        r"float_ops: the name `float_ops` is taken: generated/dispatch/__init__\.py:\d+ imports it",
    ),
    "argument named B": (
        ELEM_ARGS,
        "args: [lhs: float, B: scalar]",
        r"float_greater_elem: argument `B` is its dispatch function's local in the generated "
        r"code; rename the argument",
    ),
    "argument named ctx": (
        ELEM_ARGS,
        "args: [lhs: float, ctx: scalar]",
        r"float_greater_elem: argument `ctx` is its dispatch function's local in the generated "
        r"code",
    ),
    "argument named like another's primitive": (
        ELEM_ARGS,
        "args: [lhs: float, lhs_: scalar]",
        r"float_greater_elem: argument `lhs_` is its dispatch function's `lhs` in the generated "
        r"code",
    ),
    "argument named like a global": (
        ELEM_ARGS,
        "args: [lhs: float, Tensor: scalar]",
        r"float_greater_elem: argument `Tensor` collides with the generated code: .* the "
        r"module imports or defines `Tensor`",
    ),
    # methods
    "method replacing Tensor.backward": (
        *_exp("method: exp", "method: backward"),
        r"float_exp: method `backward` would replace Tensor\.backward, which the runtime defines "
        r"\(TensorBase\.backward, tensor\.py:\d+\); pick another method name",
    ),
    "method replacing Tensor.shape": (
        *_exp("method: exp", "method: shape"),
        r"float_exp: method `shape` would replace Tensor\.shape, which the runtime defines",
    ),
    "special method name": (
        *_exp("method: exp", "method: __init__"),
        r"float_exp: method `__init__` is a special name; Python operators come from `operator:",
    ),
    "operator without a method": (
        "    method: mul\n    operator: [__mul__]\n",
        "    operator: [__mul__]\n",
        r"float_mul: an operator needs a method; add `method: <name>`",
    ),
    "unknown operator": (
        "operator: [__mul__]",
        "operator: [__mull__]",
        r"float_mul: unknown operator '__mull__'; did you mean `__mul__`\? else write a list "
        r"of __add__",
    ),
    "a method's odd one out is blamed": (
        "  - name: bool_to_device",
        MOVES,
        r"float_to_device: method `to_device` is also int_to_device's, with other parameters; "
        r"give it the same parameters \(device\)",
    ),
    # static
    "static on an op with a receiver": (
        *_exp("    method: exp\n", "    method: exp\n    static: true\n"),
        r"float_exp: `static: true` on an op with a receiver: its method is called on its first "
        r"tensor; remove `static`",
    ),
    "static as a string": (
        "    static: true\n",
        '    static: "false"\n',
        r"float_zeros: `static` is 'false', not a YAML boolean; write true or false",
    ),
    "constructor method without static": (
        "    static: true\n",
        "",
        r"float_zeros: method `zeros` has no tensor to be called on: it is a constructor; add "
        r"`static: true`",
    ),
    "static without a method": (
        "    method: into_float\n",
        "    static: true\n",
        r"int_into_float: `static` without a `method`; add `method:` or remove `static`",
    ),
    # test metadata
    "test ref naming a missing argument": (
        *_test('{ref: "np.exp(x)"}'),
        r"float_exp: `test\.ref` names `x`, which is not an argument of the op; name the "
        r"arguments \(tensor\) or np, special, updated, refs, dtype",
    ),
    "test key typo": (
        *_test('{ref: "np.exp(tensor)", shape: [[[2, 3]]]}'),
        r"float_exp: unknown `test` key `shape`; did you mean `shapes`\? else write one of "
        r"ref, shapes, domain, signed, integers, compare, or an argument's name \(tensor\)",
    ),
    "test without ref": (
        *_test("{shapes: [[[2, 3]]]}"),
        r"float_exp: `test` needs `ref`, a numpy expression as a string",
    ),
    "test that is not a mapping": (
        *_test('"np.exp(tensor)"'),
        r"float_exp: `test` must be a mapping",
    ),
    "test ref that is not an expression": (
        *_test('{ref: "np.exp("}'),
        r"float_exp: `test\.ref` is not a Python expression",
    ),
    "test compare unknown": (
        *_test('{ref: "np.exp(tensor)", compare: values}'),
        r"float_exp: unknown `test\.compare` 'values'; write `compare: shape`",
    ),
    "test shapes not a list": (
        *_test('{ref: "np.exp(tensor)", shapes: 3}'),
        r"float_exp: `test\.shapes` must be a list of samples",
    ),
    # YAML
    "YAML anchor": (
        *_exp("doc: Element-wise e^x.", "doc: &d Element-wise e^x."),
        r"mini\.yaml:\d+: YAML anchor `&d`: anchors and aliases are not allowed; write each "
        r"value out in full",
    ),
    "YAML alias bomb": (
        EXP_ENTRY,
        EXP_ENTRY + BOMB,
        r"mini\.yaml:\d+: YAML anchor `&a`: anchors and aliases are not allowed",
    ),
    # autodiff and composites
    "unknown checkpoint class": (
        "    autodiff: memory_bound\n    method: exp",
        "    autodiff: fast\n    method: exp",
        r"float_exp: unknown autodiff 'fast'; write one of memory_bound, compute_bound",
    ),
    "composite and autodiff": (
        *_exp(
            "    autodiff: memory_bound\n",
            "    autodiff: memory_bound\n    composite: float_mul(tensor, tensor)\n",
        ),
        r"float_exp: a composite op differentiates through its parts; remove `autodiff`",
    ),
    "composite calling an unknown op": (
        *_exp("    autodiff: memory_bound\n", "    composite: float_frob(tensor)\n"),
        r"float_exp: composite calls float_frob, which is not a catalogue op",
    ),
    "a bool op declared differentiable": (
        "    method: bool_not\n",
        "    method: bool_not\n    autodiff: memory_bound\n",
        r"bool_not: only a float op with a float result can be differentiable; remove `autodiff`",
    ),
    # arguments and options
    "dtypes of another kind": (
        *_exp("    method: exp\n", "    method: exp\n    dtypes: [int32]\n"),
        r"float_exp: 'int32' is not a float dtype; list some of float32",
    ),
    "an optional non-tensor": (
        ELEM_ARGS,
        "args: [lhs: float, rhs: dim?]",
        r"float_greater_elem: argument `rhs`: only a tensor may be optional, not 'dim'",
    ),
    "keyword naming no argument": (
        *_exp("    method: exp\n", "    method: exp\n    keyword: nope\n"),
        r"float_exp: `keyword` names 'nope', not an argument",
    ),
}


@pytest.mark.parametrize("case", BAD_CATALOGUES, ids=list(BAD_CATALOGUES))
def test_a_bad_catalogue_is_rejected_with_its_line_and_nothing_is_written(
    case, mini_out, tmp_path, capsys
):
    old, new, message = BAD_CATALOGUES[case]
    source = MINI.read_text()
    assert old in source
    bad = tmp_path / "mini.yaml"
    bad.write_text(source.replace(old, new, 1))
    out = mini_out
    before = snapshot(out)
    assert generate(bad, out) == 2
    err = capsys.readouterr().err
    assert re.search(message, err), err
    line = int(re.search(r"mini\.yaml:(\d+):", err).group(1))
    assert 1 <= line <= len(bad.read_text().splitlines())
    assert "nothing was written" in err
    assert snapshot(out) == before


def test_the_line_points_at_the_offending_key(tmp_path, capsys):
    bad = tmp_path / "mini.yaml"
    bad.write_text(MINI.read_text().replace(MUL_ENTRY, MUL_ENTRY + "    colour: blue\n"))
    generate(bad, tmp_path / "out")
    line = int(re.search(r"mini\.yaml:(\d+):", capsys.readouterr().err).group(1))
    assert bad.read_text().splitlines()[line - 1].strip() == "colour: blue"


GATHER_ENTRY = """
  - name: float_gather
    kind: float
    args: [dim: dim, tensor: float, indices: indices]
    returns: float
    routing: tensor
    autodiff: compute_bound
    method: gather
    doc: Gather along dim.
"""


def test_a_method_is_called_on_the_first_tensor_even_after_a_dim(tmp_path):
    """burn puts `dim` before the tensor in gather/scatter: the method's `self` is the first
    tensor argument, wherever it stands, and indices are checked to be Int."""
    catalogue = tmp_path / "mini.yaml"
    catalogue.write_text(MINI.read_text() + GATHER_ENTRY)
    assert generate(catalogue, tmp_path / "out") == 0
    tensor = (tmp_path / "out" / "tensor.py").read_text()
    assert "def gather(self, dim: int, indices: Tensor) -> Tensor:" in tensor
    assert 'expect_kind("gather", indices, INT)' in tensor
    assert 'return float_gather(dim_of("gather", "dim", self, dim), self, indices)' in tensor


def test_the_committed_tree_is_in_sync():
    assert main(["--check", "--ops", str(ROOT / "ops.yaml"), "--out", str(ROOT / "generated")]) == 0


@functools.cache
def _import_statements(path: Path) -> tuple:
    """(node, at the module's top) of each import statement of `path`: imports are statements,
    so only statements' bodies are gone through, not every expression's nodes."""
    found = []

    def visit(statements, top):
        for node in statements:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append((node, top))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit(inner, False)

    visit(ast.parse(path.read_text()).body, True)
    return tuple(found)


def _imports(path: Path, full=False) -> set:
    names = set()
    for node, _ in _import_statements(path):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names if full else {_room(name) for name in names}


def _room(module: str) -> str:
    """The part of the project a module belongs to: `generated`, `runtime` and `codegen` are
    burnpy's subpackages (`burnpy.runtime.device` is in `runtime`), the rest of burnpy is `burnpy`,
    any other module is its top-level package."""
    top, _, rest = module.partition(".")
    inner = rest.split(".")[0]
    return inner if top == "burnpy" and inner in ("generated", "runtime", "codegen") else top


# What codegen may import of the runtime: its leaf tables
# (docs/design.md#what-codegen-reads-of-the-runtime): an op's autodiff identity and its rule
# (runtime/autodiff/ops.py, which reads the rule tables), the dtype table and the check of an
# `intsN` value.
# Backends, TensorBase and the shape contracts' names it reads as source (codegen/kernels.py),
# never importing them.
RUNTIME_TABLES = {
    "burnpy.runtime.autodiff.ops",
    "burnpy.runtime.dtypes",
    "burnpy.runtime.autodiff.rules",
    "burnpy.runtime.values",
}
# Inside runtime, each layer imports only the layers before it (and its own modules):
RUNTIME_LAYERS = (
    # leaves: errors, the small values every layer names, the activity told to a recorder
    ("burnpy.runtime.errors", "burnpy.runtime.indexing", "burnpy.runtime.values", "burnpy.runtime.distribution",
     "burnpy.runtime.activity", "burnpy.runtime.dtypes", "burnpy.runtime.quantization"),
    ("burnpy.runtime.backends",),  # the inner backends, their kernels and their registry
    ("burnpy.runtime.device",),
    ("burnpy.runtime.dispatch",),  # the dispatch core types the generated routing uses
    ("burnpy.runtime.autodiff",),  # the Autodiff decorator: graph, steps, rules, recorders' helpers
    # the routing table and the substitution seam: joins the two above; a package's own routing
    ("burnpy.runtime.routing", "burnpy.runtime.extension"),
    # what users call through: argument checks, shape contracts, composed methods, TensorBase
    ("burnpy.runtime.arguments", "burnpy.runtime.contracts", "burnpy.runtime.composed", "burnpy.runtime.loss",
     "burnpy.runtime.tensor"),
)  # fmt: skip
# The leaves of the autodiff package, which codegen reads: they import nothing of its engine.
AUTODIFF_LEAVES = ("burnpy.runtime.autodiff.ops", "burnpy.runtime.autodiff.rules")


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    return f"burnpy.{name}"


def _runtime_imports(path: Path) -> dict:
    """Each runtime module `path` imports (`from burnpy.runtime.x import y` names runtime.x.y when
    that is a module), with whether the import sits inside a function or class."""
    found = {}
    for node, top in _import_statements(path):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in _RUNTIME else node.module
                for a in node.names
            ]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.split(".")[0] == "runtime":
                found[name] = found.get(name, False) or not top
    return found


_RUNTIME = {_module_name(p) for p in (ROOT / "runtime").rglob("*.py")}


def _layer(module: str) -> int:
    for rank, layer in enumerate(RUNTIME_LAYERS):
        if any(module == m or module.startswith(m + ".") for m in layer):
            return rank
    raise AssertionError(f"{module} is in no layer of RUNTIME_LAYERS")


def test_codegen_compares_and_keys_the_catalogues_enums_as_enums():
    """Past the validator's reading of ops.yaml's text (codegen/validate/, whose keys and raw
    values are strings), no string spelled as a member of the catalogue's enums is compared
    (`==`, `in`) or used as a table's key: `op.kind is Kind.FLOAT`, `{ArgKind.DIM: ...}`."""
    from burnpy.codegen import model

    enums = (model.Kind, model.Routing, model.AutodiffClass, model.ArgKind, model.Role,
             model.QRole, model.QResult)  # fmt: skip
    spelled = {member.value for enum in enums for member in enum}

    def spelling(node):
        return isinstance(node, ast.Constant) and node.value in spelled

    found = []
    for path in sorted((ROOT / "codegen").rglob("*.py")):
        if "validate" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    items = (
                        side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                    )
                    found += [(path.name, node.lineno) for item in items if spelling(item)]
            elif isinstance(node, ast.Dict):
                found += [(path.name, node.lineno) for key in node.keys if key and spelling(key)]
    assert not found, found


def test_the_layering_rule():
    """runtime <- generated <- burnpy: runtime imports neither generated, burnpy nor codegen;
    generated imports runtime (and itself), never burnpy; burnpy never imports codegen;
    codegen never imports generated or burnpy, and of the runtime only its leaf tables. Inside
    runtime, each module imports only its own layer and those below (RUNTIME_LAYERS), at the
    top of the module (an import inside a function is how a cycle hides)."""
    for path in (ROOT / "runtime").rglob("*.py"):
        assert not _imports(path) & {"generated", "burnpy", "codegen"}, path
        module = _module_name(path)
        for imported, hidden in _runtime_imports(path).items():
            assert not hidden, f"{module} imports {imported} inside a function"
            assert _layer(imported) <= _layer(module), f"{module} imports {imported}, above it"
            if module.startswith(AUTODIFF_LEAVES) and imported.startswith(
                "burnpy.runtime.autodiff"
            ):
                assert imported.startswith(AUTODIFF_LEAVES), f"{module} imports {imported}"
    for path in (ROOT / "generated").rglob("*.py"):
        assert not _imports(path) & {"burnpy", "codegen"}, path
    for path in (ROOT / "burnpy").rglob("*.py"):
        if path.relative_to(ROOT / "burnpy").parts[0] not in ("generated", "runtime", "codegen"):
            assert "codegen" not in _imports(path), path
    for path in (ROOT / "codegen").rglob("*.py"):
        assert not _imports(path) & {"generated", "burnpy"}, path
        runtime = {m for m in _imports(path, full=True) if _room(m) == "runtime"}
        assert runtime <= RUNTIME_TABLES, (path, runtime - RUNTIME_TABLES)


def test_the_generator_loads_no_runtime_module_beyond_its_tables():
    """`python -m codegen validate` (every check of the catalogue) loads of the runtime only
    the leaf tables and what they import: not the runtime's dtypes (ml_dtypes), the backends
    or the engine."""
    job = _STARTED["validate"]
    assert job.wait() == [0], job.output(0)
    loaded = set(job.output(0).split("\n")[-2].split())
    allowed = {*RUNTIME_TABLES, "runtime", "burnpy.runtime.autodiff", "burnpy.runtime.indexing"}
    extra = {
        m for m in loaded if m not in allowed and not m.startswith("burnpy.runtime.autodiff.rules")
    }
    assert not extra, extra  # (ml_dtypes, the runtime's dtypes, among them)


# a fresh `python -m codegen validate`, started with the session, printing the modules it loaded
VALIDATE_LOADS = (
    "import sys; from burnpy.codegen.__main__ import main; main(['validate']); "
    "print(' '.join(m for m in sys.modules if m.startswith(('runtime', 'ml_dtypes'))))"
)


def test_burnpy_modules_import_each_other_without_a_cycle():
    """No two burnpy modules depend on each other, through top-level or function-level imports
    (a cycle loads only by deferring an import into a function)."""
    package = ROOT / "burnpy"
    graph = {}
    for path in package.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        graph[name] = {
            (
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in _MODULES
                else node.module
            )
            for node, _ in _import_statements(path)
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("burnpy")
            for alias in node.names
        }

    def visit(name, trail):
        assert name not in trail, " -> ".join([*trail, name])
        for other in graph.get(name, ()):
            if other != name and not name.startswith(other + "."):  # a package's own __init__
                visit(other, [*trail, name])

    for name in graph:
        visit(name, [])


_MODULES = {
    ".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "burnpy").rglob("*.py")
}


def test_stats_counts_entries_by_their_ops_yaml_section(tmp_path, capsys):
    """An entry's category is the `# -- title (notes) ---` comment above it; entries above the
    first comment fall back to their routing."""
    sectioned = tmp_path / "mini.yaml"
    sectioned.write_text(
        MINI.read_text().replace(MUL_ENTRY, "  # -- products (x) ---\n" + MUL_ENTRY)
    )
    capsys.readouterr()
    assert main(["stats", "--ops", str(sectioned)]) == 0
    table = capsys.readouterr().out.split("\n\n")[1]
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()}
    # columns: float int bool total memory compute derived
    assert rows["creation"] == ["1", "0", "0", "1", "0", "0", "0"]
    assert rows["products"] == ["3", "1", "2", "6", "2", "0", "0"]
    assert rows["total"] == ["4", "1", "2", "7", "2", "0", "0"]


# black over the whole generated tree, a child process started with the session
# (tests/background.py): it prints each file black would change.
BLACK_STABLE = """
from pathlib import Path
import black
from burnpy.codegen.render import MODE
for path in sorted(Path("generated").rglob("*.py")):
    body = path.read_text().partition("\\n")[2]
    if black.format_str(body, mode=MODE) != body:
        print(path, "is not in black's style")
"""
BLACK_LIMIT_S = 300
# `explain` of every op `list` shows, in a child process started with the session
EXPLAIN_ALL = """
import pickle, sys
from pathlib import Path
from burnpy.codegen import review
from burnpy.codegen.__main__ import checked
root = Path(sys.argv[1])
catalogue, _ = checked(str(root / "ops.yaml"))
names = [row.split()[0] for row in review.listing(catalogue)[1:-1]]
found = {
    "names": names,
    "ops": [op.name for op in catalogue.ops],
    "autodiff": {op.name: bool(op.autodiff) for op in catalogue.ops},
    "text": {name: review.explain(catalogue, name, root / "generated") for name in names},
}
with open(sys.argv[2], "wb") as f:
    pickle.dump(found, f)
"""
_STARTED = {}


def start_in_background(config, names):
    if "test_explain_answers_for_every_listed_op" in names:

        def command(folder):
            return [[sys.executable, "-c", EXPLAIN_ALL, str(ROOT), str(folder / "explained")]]

        _STARTED["explain"] = background.start(config, command, 300, cwd=ROOT)
    if "test_the_generated_tree_is_black_stable" in names:
        command = [sys.executable, "-c", BLACK_STABLE]
        _STARTED["black"] = background.start(config, lambda _: [command], BLACK_LIMIT_S, cwd=ROOT)
    if "test_the_generator_loads_no_runtime_module_beyond_its_tables" in names:
        command = [sys.executable, "-c", VALIDATE_LOADS]
        _STARTED["validate"] = background.start(config, lambda _: [command], 120, cwd=ROOT)


def test_the_generated_tree_is_black_stable():
    """The generator runs black only on definitions holding a line over the limit (the
    templates write black's style): the whole tree must come out of black unchanged."""
    job = _STARTED["black"]
    assert job.wait() == [0] and job.output(0) == "", job.output(0)


def test_a_long_line_is_broken_by_black(tmp_path, monkeypatch):
    """A catalogue whose names make a line too long still comes out in black's style."""
    import black

    from burnpy.codegen.kernels import read_backend
    from burnpy.codegen.render import MODE
    from burnpy.runtime.autodiff.rules.elementwise import ElementwiseRules

    long_name = "float_exponential_of_every_element_of_the_tensor"
    monkeypatch.setattr(ElementwiseRules, long_name, ElementwiseRules.float_exp, raising=False)
    from burnpy.codegen.validate import backends

    def with_long_kernel(module):  # its kernel on every backend: float_exp's
        source = read_backend(module)
        source.kernels[long_name] = source.kernels["float_exp"]
        return source

    monkeypatch.setattr(backends, "read_backend", with_long_kernel)
    long_doc = MINI.read_text().replace(
        "  - name: float_exp\n", "  - name: float_exponential_of_every_element_of_the_tensor\n"
    )
    ops = tmp_path / "mini.yaml"
    ops.write_text(long_doc)
    assert generate(ops, tmp_path / "out") == 0
    text = (tmp_path / "out" / "dispatch" / "float_ops.py").read_text().partition("\n")[2]
    assert "float_exponential_of_every_element_of_the_tensor" in text
    assert black.format_str(text, mode=MODE) == text
    assert max(map(len, text.splitlines())) <= MODE.line_length


# Code in black's style but for a few long lines, each of a kind the generator formats by
# itself (a statement in a method, a call in a branch, a header with decorators, a class's
# attribute, a module-level assignment) or sends whole (an `elif`'s header).
STYLED_BUT_LONG = """\
import numpy as np

TABLE = {"first": ("aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbb"), "second": ("cccccccccccccccccccc", 'd')}


class Holder:
    \"\"\"A class.\"\"\"

    pairs = [("eeeeeeeeeeeeeeeeeeee", "ffffffffffffffffffff"), ("gggggggggggggggggggg", "hhhhhhhhhhhhhhh")]

    @staticmethod
    @some_decorator(option_one="iiiiiiiiiiiiiiiiiiii", option_two="jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj")
    def method(argument_number_one, argument_number_two, argument_number_three, argument_four):
        value = compute(argument_number_one, argument_number_two) + compute(argument_number_three, 1)
        if value:  # a comment
            return other_function(argument_number_one, argument_four, keyword_argument=value, more=2)
        return value


def branches(x):
    if x == 1:
        return 1
    elif x == some_long_function_name(argument_number_one, argument_number_two, argument_number_three):
        return 2
    return 3
"""


def test_each_long_statement_is_formatted_as_black_formats_the_whole_file():
    import black

    from burnpy.codegen.render import MODE, format_all

    files = format_all({"a.py": STYLED_BUT_LONG})
    assert files["a.py"] == black.format_str(STYLED_BUT_LONG, mode=MODE)
    assert files["a.py"] != STYLED_BUT_LONG


def test_check_catches_a_stale_op_reference(mini_out, tmp_path, capsys):
    """docs/ops.md is written beside the package and checked like it."""
    out = mini_out
    page = tmp_path / "docs" / "ops.md"
    assert generate(MINI, out, "--check") == 0
    page.write_text(page.read_text().replace("Element-wise product.", "Product."))
    capsys.readouterr()
    assert generate(MINI, out, "--check") == 1
    captured = capsys.readouterr()
    assert "-| `float_mul` | Product." in captured.out and "docs/ops.md" in captured.err
    page.unlink()
    assert generate(MINI, out, "--check") == 1
    assert generate(MINI, out) == 0 and generate(MINI, out, "--check") == 0


SQUARE_ENTRY = """
  # -- derived ---
  - name: float_square
    kind: float
    args: [tensor: float]
    returns: float
    routing: tensor
    composite: float_mul(tensor, float_exp(tensor))
    method: square
    dtypes: [float32, float64]
    doc: Element-wise x * e^x, | included.
"""


def test_the_op_reference_has_a_row_per_op_under_its_section(tmp_path):
    ops = tmp_path / "mini.yaml"
    ops.write_text(MINI.read_text() + SQUARE_ENTRY)
    assert generate(ops, tmp_path / "out") == 0
    page = (tmp_path / "docs" / "ops.md").read_text()
    assert page.startswith("<!-- @generated from mini.yaml by `python -m codegen`")
    contents = [line for line in page.splitlines() if line.startswith("- [")]
    assert contents == [
        "- [creation](#creation) (1)",
        "- [n-ary](#n-ary) (1)",
        "- [unary](#unary) (3)",
        "- [conversion](#conversion) (1)",
        "- [move](#move) (1)",
        "- [derived](#derived) (1)",
    ]
    rows = {
        line.split(" | ")[0][3:-1]: line for line in page.splitlines() if line.startswith("| `")
    }
    assert len(rows) == 8
    assert rows["float_mul"] == (
        "| `float_mul` | Element-wise product. | `t.mul(rhs)` `t * rhs` | "
        "`float_mul(lhs: float, rhs: float) -> float` | float: float32, float64, float16, bfloat16 | "
        "memory-bound | numpy |"
    )
    assert rows["float_zeros"] == (
        "| `float_zeros` | A float tensor of zeros. | "
        "`Tensor.zeros(shape, *, device=None, dtype=None)` | "
        "`float_zeros(shape: shape, device: device, dtype: dtype) -> float` | "
        "float: float32, float64, float16, bfloat16 | — | numpy |"
    )
    assert rows["float_square"] == (
        "| `float_square` | Element-wise x * e^x, \\| included. | `t.square()` | "
        "`float_square(tensor: float) -> float` | float: float32, float64 | "
        "through `float_mul`, `float_exp` | numpy |"
    )
    assert rows["bool_not"].endswith("| bool: bool | — | numpy |")
    section = page[page.index("## derived") :]
    assert "| `float_square` |" in section and "| `float_mul` |" not in section


def test_a_file_that_is_not_utf8_is_rejected_with_its_line(tmp_path, capsys):
    bad = tmp_path / "mini.yaml"
    bad.write_bytes(MINI.read_bytes().replace(b"Element-wise e^x.", b"Element-wise \xe9^x."))
    assert generate(bad, tmp_path / "out") == 2
    err = capsys.readouterr().err
    line = next(n for n, text in enumerate(MINI.read_text().splitlines(), 1) if "e^x" in text)
    assert f"mini.yaml:{line}: the catalogue is not UTF-8 (byte 0xe9 at offset" in err
    assert "save the file as UTF-8" in err and not (tmp_path / "out").exists()


def test_a_backend_whose_library_is_missing_is_checked_and_warned_about(
    tmp_path, monkeypatch, capsys
):
    """Kernels are read from the backend's source: its library need not be installed."""
    (tmp_path / "fake_backend.py").write_text(
        "import library_that_is_not_installed\n"
        "from burnpy.runtime.backends.array import ArrayBackend\n\n\n"
        "class FakeBackend(ArrayBackend):\n"
        "    float_exp = staticmethod(library_that_is_not_installed.exp)\n\n\n"
        "BACKEND = FakeBackend()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    ops = tmp_path / "mini.yaml"
    ops.write_text(
        MINI.read_text().replace(
            "\nops:",
            "  - {name: fake, variant: Fake, module: fake_backend, devices: [cpu], "
            "extra: fake}\n\nops:",
        )
    )
    assert generate(ops, tmp_path / "out") == 0
    err = capsys.readouterr().err
    assert re.search(
        r"warning: .*mini\.yaml:\d+: backend fake: library_that_is_not_installed is not "
        r"installed; its kernels were checked from source, and its devices work after "
        r"`pip install 'burnpy\[fake\]'`",
        err,
    ), err


def test_after_a_generate_the_package_imports_and_every_op_runs(tmp_path):
    """The checks leave nothing to fail later: a fresh package from the fixture imports, and
    each of its ops runs (through its Tensor method) on plain and autodiff devices."""
    out = tmp_path / "generated"
    assert generate(MINI, out) == 0
    script = """
import numpy as np
from burnpy.generated import Device, Tensor
from burnpy.generated.backends import BACKENDS
from burnpy.runtime.dispatch import context_of
for device in (Device.numpy(), Device.numpy().autodiff()):
    x = Tensor.zeros((2, 3), device=device)                      # float_zeros
    y = (x * x).exp()                                            # float_mul, float_exp
    assert np.array_equal(y.to_numpy(), np.ones((2, 3), np.float32))
    mask = y.greater_elem(0.5)                                   # float_greater_elem
    assert mask.bool_not().to_numpy().sum() == 0                 # bool_not
    moved = mask.to_device(device)                               # bool_to_device
    assert moved.to_numpy().all()
    # the fixture has no int constructor: an Int tensor made as the dispatch layer makes one
    ints = Tensor(BACKENDS.NumPy.Int, np.array([[1, -2]]), context_of(device.device))
    floats = ints.into_float()                                   # int_into_float
    assert floats.dtype == np.float32 and floats.to_numpy().tolist() == [[1.0, -2.0]]
print("ran")
"""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.strip() == "ran", run.stderr


def test_every_command_has_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for command in ("generate", "validate", "stats", "list", "explain", "diff"):
        assert re.search(rf"^    {command} +\w", text, re.M), command
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "usage: python -m codegen " + command in capsys.readouterr().out


def test_meaningless_flags_exit_2(capsys):
    def exit_code(argv):
        try:
            return main([*argv, "--ops", str(MINI)])
        except SystemExit as exit_:  # what argparse refuses
            return exit_.code

    for argv in (["stats", "--check"], ["--check", "stats"], ["explain"], ["list", "--kind", "x"]):
        assert exit_code(argv) == 2, argv
    assert "--check applies to generate, not to stats" in capsys.readouterr().err


def test_it_never_writes_into_an_installed_package(capsys):
    import sysconfig

    site = Path(sysconfig.get_paths()["purelib"]) / "generated"
    assert main(["--ops", str(MINI), "--out", str(site)]) == 2
    assert "inside an installed package (site-packages)" in capsys.readouterr().err
    assert not site.exists()


def test_the_defaults_are_the_working_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 2
    assert "ops.yaml:0: cannot read the catalogue" in capsys.readouterr().err
    (tmp_path / "ops.yaml").write_text(MINI.read_text())
    assert main([]) == 0 and (tmp_path / "generated" / "tensor.py").exists()
    assert main(["--check"]) == 0


def test_check_prints_paths_relative_to_the_project_root(mini_out, tmp_path, capsys):
    out = mini_out
    target = out / "tensor.py"
    target.write_text(target.read_text() + "# edited\n")
    capsys.readouterr()
    assert generate(MINI, out, "--check") == 1
    text = capsys.readouterr().out
    assert "--- a/out/tensor.py\n+++ b/out/tensor.py\n" in text and str(tmp_path) not in text


def test_validate_writes_nothing(tmp_path, capsys):
    assert main(["validate", "--ops", str(MINI), "--out", str(tmp_path / "out")]) == 0
    assert "7 ops, 1 backends: valid" in capsys.readouterr().out
    assert not (tmp_path / "out").exists()


def test_list_filters(capsys):
    def listed(*filters):
        capsys.readouterr()
        assert main(["list", "--ops", str(MINI), *filters]) == 0
        return [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:-1]]

    assert listed("--kind", "bool") == ["bool_not", "bool_to_device"]
    assert listed("--differentiable", "yes") == ["float_mul", "float_exp"]
    assert listed("--category", "creation") == ["float_zeros"]
    # NumPy's own kernels (not the shared ones): creation from data, here none of the fixture's
    assert "float_zeros" not in listed("--backend", "numpy")
    assert main(["list", "--ops", str(MINI), "--backend", "cuda"]) == 2


def test_explain_shows_routing_kernels_recorder_rule_and_methods(capsys):
    assert main(["explain", "float_mul", "--ops", str(ROOT / "ops.yaml")]) == 0
    text = capsys.readouterr().out
    float_ops = (ROOT / "generated" / "dispatch" / "float_ops.py").read_text().splitlines()
    line = float_ops.index("def float_mul(lhs: Tensor, rhs: Tensor) -> Tensor:") + 1
    assert f"float_mul(lhs: Tensor, rhs: Tensor) at generated/dispatch/float_ops.py:{line}" in text
    assert "numpy: NumPyBackend.float_mul at runtime/backends/numpy.py:" in text
    assert "torch: TorchBackend.float_mul at runtime/backends/torch.py:" in text
    inner = (ROOT / "generated" / "inner.py").read_text().splitlines()
    line = inner.index("    def float_mul(self, lhs: Primitive, rhs: Primitive) -> Primitive:") + 1
    assert f"declared: InnerBackend.float_mul at generated/inner.py:{line}" in text
    assert "when `lhs` is tracked, the step saves: rhs" in text
    assert "when `rhs` is tracked, the step saves: lhs" in text
    assert "checkpoint class: memory_bound" in text
    assert "float_mul = (lambda g, rhs: g * rhs, lambda g, lhs: g * lhs)" in text
    rules = (ROOT / "runtime/autodiff/rules/elementwise.py").read_text().splitlines()
    row = rules.index("    float_mul = (lambda g, rhs: g * rhs, lambda g, lhs: g * lhs)") + 1
    described = (ROOT / "generated/catalogue.py").read_text().splitlines()
    constant = next(i for i, line in enumerate(described, 1) if line.startswith("FLOAT_MUL: "))
    assert (
        f"rule: ElementwiseRules.float_mul at runtime/autodiff/rules/elementwise.py:{row}, named "
        f"by FLOAT_MUL at generated/catalogue.py:{constant}"
    ) in text
    assert "t.mul(rhs)" in text and "t * rhs" in text
    assert main(["explain", "float_nope", "--ops", str(MINI)]) == 2


def test_explain_answers_for_every_listed_op():
    """`explain` works on every op `list` shows, and shows each recorded op's rule: its VJPs'
    source, or its Joint rule and which inputs need only g, and what its forward keeps."""
    job = _STARTED["explain"]
    assert job.wait() == [0], job.output(0)
    found = pickle.loads((job.folder / "explained").read_bytes())
    names, text, autodiff = found["names"], found["text"], found["autodiff"]
    assert names == found["ops"]
    for name in names:
        assert text[name].startswith("entry:\n  ops.yaml:"), name
        if autodiff[name]:
            assert "VJP for `" in text[name] or "Joint rule (" in text[name], name
            assert f".{name} at runtime/autodiff/rules/" in text[name], name
    conv2d = text["conv2d"]
    assert "Joint rule: one call gives every input's gradient, told which are tracked; bias " \
        "needs only g" in conv2d  # fmt: skip
    assert "bound as AD.conv2d at generated/autodiff.py:" in conv2d
    assert "Joint rule (runtime/autodiff/rules/" in conv2d
    assert "rule: ConvRules.conv2d at runtime/autodiff/rules/conv.py:" in conv2d
    assert "when `bias` is tracked, the step saves: nothing" in conv2d
    layer_norm = text["layer_norm"]
    assert "kept: its recorded forward is the backend's `layer_norm_keeping`" in layer_norm
    assert "statistics" in layer_norm.split("when `input` is tracked, the step saves: ")[1]
    assert "not recorded: under autodiff its float result is a new untracked leaf" in (
        text["float_zeros"]
    )


def test_diff_reports_a_one_op_change(tmp_path, capsys):
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    ops = tmp_path / "mini.yaml"
    ops.write_text(MINI.read_text())
    git("init", "-q")
    git("add", "mini.yaml")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "catalogue")
    ops.write_text(MINI.read_text().replace("Element-wise e^x.", "e to the x."))
    capsys.readouterr()
    assert main(["diff", "--ops", str(ops), "--out", str(tmp_path / "out")]) == 0
    assert capsys.readouterr().out == (
        "mini.yaml since HEAD: 0 added, 0 removed, 1 changed\n"
        "~ float_exp (float, tensor): e to the x.\n"
        "    doc: 'Element-wise e^x.' -> 'e to the x.'\n"
        "    generated/dispatch/float_ops.py: float_exp\n"  # (Tensor.exp is that function)
        "other generated changes:\n"  # (the kernel's declaration repeats the op's doc)
        "    generated/inner.py: InnerBackend.float_exp\n"
    )
    assert not (tmp_path / "out").exists()
    assert main(["diff", "no-such-rev", "--ops", str(ops)]) == 2


def _dispatch_calls() -> tuple[set, set, list]:
    """What the committed dispatch functions call on `B.inner`/`T.inner` and on `AD`, and the
    annotation of every assignment of `B`/`T`."""
    inner, autodiff, annotations = set(), set(), []
    for path in sorted((ROOT / "generated" / "dispatch").glob("*_ops.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = node.func.value
                if (
                    isinstance(owner, ast.Attribute)
                    and owner.attr == "inner"
                    and isinstance(owner.value, ast.Name)
                    and owner.value.id in ("B", "T")
                ):
                    inner.add(node.func.attr)
                elif isinstance(owner, ast.Name) and owner.id == "AD":
                    autodiff.add(node.func.attr)
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    if any(isinstance(n, ast.Name) and n.id in ("B", "T") for n in names):
                        shown = (
                            ast.unparse(node.annotation) if isinstance(node, ast.AnnAssign) else ""
                        )
                        annotations.append((path.name, ast.unparse(node), shown))
    return inner, autodiff, annotations


def test_every_kernel_a_dispatch_function_calls_is_declared_and_defined_by_every_backend():
    """Go-to-definition from a dispatch function: `B` is annotated `DispatchBackend[Inner,
    Autodiff]`, `Inner` the union of the catalogue's backend classes (generated/backends.py), so
    `B.inner.<kernel>` resolves to each backend's kernel, every one of them declared in
    generated/inner.py and defined by every backend class, and `AD.<op>` to its binding in
    generated/autodiff.py."""
    import inspect
    import typing

    from burnpy.generated.autodiff import Autodiff
    from burnpy.generated.backends import BACKENDS  # (registers the backends)
    from burnpy.generated.inner import InnerBackend
    from burnpy.runtime.autodiff.backend import AutodiffDecorator
    from burnpy.runtime.backends.registry import backend_for
    from burnpy.runtime.routing import DispatchBackend, Inner, Specialization

    inner, autodiff, annotations = _dispatch_calls()
    assert "float_mul" in inner and "conv2d" in inner and "float_mul" in autodiff
    declared = {n for n, v in vars(InnerBackend).items() if inspect.isfunction(v)}
    assert inner - declared == set(), "called on B.inner but not declared by InnerBackend"
    for variant in ("NumPy", "Torch"):
        backend = type(backend_for(variant))
        missing = sorted(n for n in declared if not hasattr(backend, n))
        assert not missing, f"{backend.__name__} lacks {missing}"
    source = inspect.getsource(Autodiff.__init__)
    for name in autodiff:
        bound = f"self.{name} = self." in source
        assert bound or name in vars(AutodiffDecorator), f"AD.{name} is neither bound nor defined"
    assert annotations and all(shown == "Backend" for _, _, shown in annotations), [
        a for a in annotations if a[2] != "Backend"
    ]
    for path in (ROOT / "generated" / "dispatch").glob("*_ops.py"):
        assert "Backend = DispatchBackend[Inner, Autodiff]" in path.read_text(), path
    backends = (ROOT / "generated" / "backends.py").read_text()
    assert "Inner = NumPyBackend | TorchBackend" in backends
    assert "from burnpy.runtime.backends.numpy import NumPyBackend" in backends
    assert DispatchBackend.__parameters__ == (Inner, Specialization)
    hints = typing.get_type_hints(DispatchBackend)
    assert hints["inner"] is Inner
    assert hints["Balanced"] is hints["NoCheckpointing"] is Specialization
    assert isinstance(BACKENDS.NumPy.NoCheckpointing, Autodiff)
