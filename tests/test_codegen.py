"""The generator on a small fixture catalogue: validation, determinism, staleness, diffs."""

import ast
import difflib
import re
from pathlib import Path

import pytest

from codegen.__main__ import main
from runtime.backends.kernels.unary import NAMESPACE_KERNELS

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


def test_regeneration_is_byte_identical(tmp_path):
    assert generate(MINI, tmp_path / "a") == 0
    first = snapshot(tmp_path / "a")
    assert generate(MINI, tmp_path / "a") == 0  # header hashes match: black is skipped
    assert snapshot(tmp_path / "a") == first
    assert generate(MINI, tmp_path / "b") == 0  # from nothing: black runs
    assert snapshot(tmp_path / "b") == first


def test_generated_files_say_they_are_generated(tmp_path):
    generate(MINI, tmp_path / "out")
    for path, content in snapshot(tmp_path / "out").items():
        assert content.startswith(
            b"# @generated from mini.yaml by `python -m codegen`; do not edit."
        )
        ast.parse(content)  # valid Python


def test_check_catches_a_hand_edit(tmp_path, capsys):
    out = tmp_path / "out"
    generate(MINI, out)
    assert generate(MINI, out, "--check") == 0
    target = out / "dispatch" / "float_ops.py"
    target.write_text(target.read_text().replace("ctx = lhs.context", "ctx = rhs.context"))
    capsys.readouterr()
    assert generate(MINI, out, "--check") == 1
    captured = capsys.readouterr()
    assert "-    ctx = rhs.context" in captured.out and "+    ctx = lhs.context" in captured.out
    assert "make generate" in captured.err


def test_check_catches_a_stale_tree(tmp_path):
    out = tmp_path / "out"
    generate(MINI, out)
    changed = tmp_path / "ops.yaml"
    changed.write_text(MINI.read_text().replace("Element-wise e^x.", "e to the x."))
    assert generate(changed, out, "--check") == 1


def _body(content: bytes) -> list[str]:
    return content.decode().splitlines()[1:]  # past the header (source name and hashes)


def test_adding_one_op_changes_only_that_ops_lines(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    generate(MINI, before)
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
    # the new function and the __all__ index; the new method; the new AutodiffOp; its recorders
    # and their RECORDERS line
    assert changed == {
        Path("dispatch/float_ops.py"),
        Path("tensor.py"),
        Path("catalogue.py"),
        Path("recorders.py"),
    }
    for path in changed:
        a, b = _body(old[path]), _body(new[path])
        blocks = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
        edits = [op for op in blocks if op[0] != "equal"]
        assert all(tag == "insert" for tag, *_ in edits), f"{path}: lines changed, not only added"
        for _, _, _, start, end in edits:  # each inserted block is about the new op only
            assert any("div" in line for line in b[start:end]), b[start:end]
        assert len(edits) <= 2, f"{path}: {len(edits)} separate insertions"


def test_changing_one_rule_changes_only_that_ops_recorder(tmp_path, monkeypatch):
    """A rule's signature decides what its op's recorder saves: a rule that also asks for the
    output changes float_mul's recorders and RECORDERS line, nothing else."""
    from runtime.autodiff import rules

    before, after = tmp_path / "before", tmp_path / "after"
    generate(MINI, before)
    lhs_vjp, _ = rules.RULES["float_mul"]
    monkeypatch.setitem(rules.RULES, "float_mul", (lhs_vjp, lambda g, lhs, out: g * lhs))
    generate(MINI, after)
    old, new = snapshot(before), snapshot(after)
    changed = {path for path in new if _body(old[path]) != _body(new[path])}
    assert changed == {Path("recorders.py")}
    a, b = _body(old[Path("recorders.py")]), _body(new[Path("recorders.py")])
    touched = set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            touched |= {_enclosing(b, j) for j in range(j1, max(j2, j1 + 1))}
    assert touched == {"record_float_mul", "record_float_mul_balanced", "RECORDERS"}
    assert any('"float_mul": Recorders(' in line and '"out"' in line for line in b)


def _enclosing(lines: list[str], index: int) -> str:
    """The top-level definition a line of a generated file belongs to."""
    for line in reversed(lines[: index + 1]):
        if line.startswith("def "):
            return line[4:].split("(")[0]
        if line.startswith("RECORDERS"):
            return "RECORDERS"
    return "<module>"


THREE_BACKENDS = """backends:
  - {name: numpy, variant: NumPy, module: runtime.backends.numpy, devices: [cpu]}
  - {name: torch, variant: Torch, module: runtime.backends.torch, devices: [cpu, cuda], extra: torch}
  - {name: other, variant: Other, module: runtime.backends.numpy, devices: [cpu]}
"""


def _arms(function: ast.FunctionDef) -> set:
    """The routing of a dispatch function: (source, target) variant pairs of its nested
    `if <x>.variant == "V"` tests (a plain op has no target: None)."""

    def variant_tests(body):
        for node in body:
            test = getattr(node, "test", None)
            if isinstance(node, ast.If) and isinstance(test, ast.Compare):
                if isinstance(test.left, ast.Attribute) and test.left.attr == "variant":
                    yield node, test.comparators[0].value

    pairs = set()
    for outer, source in variant_tests(function.body):
        targets = [target for _, target in variant_tests(outer.body)] or [None]
        pairs |= {(source, target) for target in targets}
    return pairs


def test_every_function_has_an_arm_per_backend_and_moves_cover_every_pair(tmp_path):
    """Adding a backend is a catalogue entry: N arms in every function, N x N moves."""
    text = MINI.read_text()
    three = tmp_path / "mini.yaml"
    three.write_text(
        text[: text.index("backends:")] + THREE_BACKENDS + text[text.index("\nops:") :]
    )
    generate(three, tmp_path / "out")
    variants = {"NumPy", "Torch", "Other"}
    functions = {}
    for path in (tmp_path / "out" / "dispatch").glob("*_ops.py"):
        tree = ast.parse(path.read_text())
        functions |= {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for name in ("float_zeros", "float_mul", "float_exp", "int_into_float", "bool_not"):
        assert _arms(functions[name]) == {(v, None) for v in variants}, name
    assert _arms(functions["bool_to_device"]) == {(a, b) for a in variants for b in variants}
    registered = (tmp_path / "out" / "backends.py").read_text()
    assert all(f'register_backend("{v}"' in registered for v in variants)


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
        r"float_times: is differentiable but has no backward rule; add `float_times: \(one VJP",
    ),
    "a rule asking for what the op lacks": (
        "  - name: float_mul\n    kind: float\n    args: [lhs: float, rhs: float]",
        "  - name: float_mul\n    kind: float\n    args: [lhs: float, other: float]",
        r"float_mul: a VJP of float_mul asks for \['rhs'\], which the op does not have",
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


@pytest.mark.parametrize("case", BAD_CATALOGUES, ids=list(BAD_CATALOGUES))
def test_a_bad_catalogue_is_rejected_with_its_line_and_nothing_is_written(case, tmp_path, capsys):
    old, new, message = BAD_CATALOGUES[case]
    source = MINI.read_text()
    assert old in source
    bad = tmp_path / "mini.yaml"
    bad.write_text(source.replace(old, new, 1))
    out = tmp_path / "out"
    generate(MINI, out)
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
    assert "def gather(self, dim, indices):" in tensor
    assert 'expect_kind("gather", indices, INT)' in tensor
    assert "return float_gather(dim_arg(self, dim), self, indices)" in tensor


def test_the_committed_tree_is_in_sync():
    assert main(["--check", "--ops", str(ROOT / "ops.yaml"), "--out", str(ROOT / "generated")]) == 0


def _imports(path: Path, full=False) -> set:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names if full else {name.split(".")[0] for name in names}


# what codegen may import of the runtime: its declarative tables (DESIGN §2): the backward rules,
# the runtime's own recorded op, and the kernels bound from the array namespace. (Backends and
# TensorBase it reads as source, codegen/kernels.py, never importing their libraries.)
RUNTIME_TABLES = {
    "runtime.autodiff.rules",
    "runtime.autodiff.backend",
    "runtime.backends.kernels.unary",
}


def test_the_layering_rule():
    """runtime imports neither generated nor codegen; generated imports runtime (and itself);
    codegen never imports generated, and of the runtime only its rule and op tables."""
    for path in (ROOT / "runtime").rglob("*.py"):
        assert not _imports(path) & {"generated", "codegen"}, path
    for path in (ROOT / "generated").rglob("*.py"):
        assert not _imports(path) & {"codegen"}, path
    for path in (ROOT / "codegen").rglob("*.py"):
        assert "generated" not in _imports(path), path
        runtime = {m for m in _imports(path, full=True) if m.split(".")[0] == "runtime"}
        assert runtime <= RUNTIME_TABLES, (path, runtime - RUNTIME_TABLES)


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


def test_the_generated_tree_is_black_stable():
    """The generator runs black only on definitions holding a line over the limit (the
    templates write black's style): the whole tree must come out of black unchanged."""
    import black

    from codegen.render import MODE

    for path in sorted((ROOT / "generated").rglob("*.py")):
        body = path.read_text().partition("\n")[2]
        assert black.format_str(body, mode=MODE) == body, f"{path} is not in black's style"


def test_a_long_line_is_broken_by_black(tmp_path, monkeypatch):
    """A catalogue whose names make a line too long still comes out in black's style."""
    import black

    from codegen.render import MODE
    from runtime.autodiff import rules

    long_name = "float_exponential_of_every_element_of_the_tensor"
    monkeypatch.setitem(rules.RULES, long_name, rules.RULES["float_exp"])
    monkeypatch.setitem(NAMESPACE_KERNELS, long_name, "exp")  # its kernel: the namespace's exp
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


def test_check_catches_a_stale_op_reference(tmp_path, capsys):
    """docs/ops.md is written beside the package and checked like it."""
    out = tmp_path / "out"
    generate(MINI, out)
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
        "`float_mul(lhs: float, rhs: float) -> float` | float: float32, float64, float16 | "
        "memory-bound | numpy |"
    )
    assert rows["float_zeros"] == (
        "| `float_zeros` | A float tensor of zeros. | "
        "`Tensor.zeros(shape, *, device=None, dtype=None)` | "
        "`float_zeros(shape: shape, device: device, dtype: dtype) -> float` | "
        "float: float32, float64, float16 | — | numpy |"
    )
    assert rows["float_square"] == (
        "| `float_square` | Element-wise x * e^x, \\| included. | `t.square()` | "
        "`float_square(tensor: float) -> float` | float: float32, float64 | "
        "through `float_mul`, `float_exp` | numpy |"
    )
    assert rows["bool_not"].endswith("| bool: bool | — | numpy |")
    section = page[page.index("## derived") :]
    assert "| `float_square` |" in section and "| `float_mul` |" not in section
