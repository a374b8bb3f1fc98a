"""burnpy.onnx against models made to attack it: a model's names, attributes and strings
never become code, its declared sizes never allocate at import, and its external data is read
only from where the caller said. Every payload would only create a marker file; each test
asserts the marker never appears and the import is either refused with a clear error or
computes what onnxruntime computes, on both backends."""

import ast
import importlib.util
import math
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device  # noqa: E402
from burnpy.onnx import emit, expr, ir  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
# Every line break Python's tokenizer or str.splitlines knows.
LINE_BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]  # fmt: skip


@pytest.fixture
def marker(tmp_path):
    return tmp_path / "PWNED"


def touch(marker) -> str:
    return f'__import__("pathlib").Path({str(marker)!r}).touch()'


def payloads(marker) -> list:
    """Text that runs `touch` if it lands in code, a comment or a docstring unescaped."""
    code = touch(marker)
    found = [f'x"""\n{code}\n"""', f"x'''\n{code}\n'''", f"x\\\n{code}", f"x\\"]
    found += [f"x{brk}{code}{brk}#" for brk in LINE_BREAKS]
    return found


def relu_model(graph="g", input_name="X", output_name="Y", node_name="relu", dim=2):
    node = helper.make_node("Relu", [input_name], [output_name], name=node_name)
    graph = helper.make_graph(
        [node],
        graph,
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, [dim, 3])],
        [helper.make_tensor_value_info(output_name, TensorProto.FLOAT, [dim, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def imported_file(path: Path):
    """The module `generate` wrote, imported as a user would."""
    spec = importlib.util.spec_from_file_location(f"hostile_{path.parent.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_generated(model, out: Path, marker, x, expected):
    """`generate` writes a file that parses as exactly the importer's own layout (a docstring,
    three imports, the class), imports without side effects and computes `expected`."""
    path = importer.generate(model, out, name="m")
    text = path.read_text()
    tree = ast.parse(text)
    kinds = [type(s).__name__ for s in tree.body]
    assert kinds == ["Expr", "ImportFrom", "ImportFrom", "ImportFrom", "ClassDef"], kinds
    assert [f.name for f in tree.body[-1].body if isinstance(f, ast.FunctionDef)] == [
        "__init__",
        "forward",
    ]
    generated = imported_file(path)
    instance = generated.Model(Device.numpy())
    instance.load(path.with_suffix(".safetensors"))
    np.testing.assert_allclose(instance(x).to_numpy(), expected)
    assert not marker.exists()
    return text


# -- no model text becomes code -------------------------------------------------------------


@pytest.mark.parametrize("where", ["graph", "input_name", "output_name", "node_name", "dim"])
def test_names_holding_code_stay_names(tmp_path, marker, where):
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    for i, payload in enumerate(payloads(marker)):
        model = relu_model(**{where: payload})
        for device in DEVICES.values():
            out = importer.load(model, device=device())(x)
            np.testing.assert_array_equal(out.to_numpy(), np.maximum(x, 0))
        text = check_generated(model, tmp_path / f"{where}{i}", marker, x, np.maximum(x, 0))
        assert not any(line.lstrip().startswith("__import__") for line in text.splitlines())
    assert not marker.exists()


@pytest.mark.parametrize("brk", LINE_BREAKS)
def test_a_node_name_with_a_line_break_stays_in_its_comment(tmp_path, marker, brk):
    model = relu_model(node_name=f"relu{brk}{touch(marker)}")
    x = np.array([[-1, 2, 3], [4, -5, 6]], np.float32)
    text = check_generated(model, tmp_path / "out", marker, x, np.maximum(x, 0))
    comment = next(line for line in text.splitlines() if line.strip().startswith("# Relu"))
    assert "touch()" in comment  # the payload is in the comment, escaped, on one line


def softmax_with(axis_attribute, constant_input: bool):
    node = helper.make_node("Softmax", ["X"], ["Y"], name="softmax_node")
    node.attribute.append(axis_attribute)
    nodes = [node]
    inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])]
    if constant_input:
        value = numpy_helper.from_array(np.ones((2, 3), np.float32))
        nodes.insert(0, helper.make_node("Constant", [], ["X"], value=value))
        inputs = []
    graph = helper.make_graph(
        nodes, "g", inputs, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("constant_input", [False, True], ids=["input", "constant"])
def test_a_string_where_an_int_attribute_belongs_is_refused_naming_the_node(
    tmp_path, marker, constant_input
):
    payload = f"-1 if {touch(marker)} else -1"
    model = softmax_with(helper.make_attribute("axis", payload), constant_input)
    for attempt in (lambda: importer.load(model), lambda: importer.generate(model, tmp_path)):
        with pytest.raises(
            importer.UnsupportedError,
            match="softmax_node.*Mismatched attribute type in 'softmax_node : axis'",
        ):
            attempt()
    with pytest.raises(ir.Refusal, match="softmax_node.*'axis' is a string"):
        ir.parse(model)  # the importer's own check, behind onnx's checker
    assert not marker.exists()
    assert list(tmp_path.iterdir()) == []


def resize_model(mode: str, constant_input: bool):
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    node = helper.make_node("Resize", ["X", "", "scales"], ["Y"], name="resize_node", mode=mode)
    nodes, inits = [node], [scales]
    inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 2, 2])]
    if constant_input:
        inits.append(numpy_helper.from_array(np.ones((1, 1, 2, 2), np.int64), "Xi"))
        nodes.insert(0, helper.make_node("Cast", ["Xi"], ["X"], to=TensorProto.FLOAT))
        inputs = []
    graph = helper.make_graph(
        nodes, "g", inputs, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], inits
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.mark.parametrize("constant_input", [False, True], ids=["input", "constant"])
def test_a_quote_in_a_string_attribute_is_refused_naming_the_node(tmp_path, marker, constant_input):
    model = resize_model(f'linear", {touch(marker)}, "', constant_input)
    with pytest.raises(importer.UnsupportedError, match="resize_node.*Resize mode"):
        importer.generate(model, tmp_path / "out")
    assert not marker.exists()
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)  # the same model, honest, computes
    expected = ort.InferenceSession(resize_model("linear", False).SerializeToString()).run(
        None, {"X": x}
    )[0]
    for device in DEVICES.values():
        out = importer.load(resize_model("linear", False), device=device())(x)
        np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-6)


def test_strings_reach_the_generated_code_only_as_literals():
    """A literal is written by repr; a name is an ASCII identifier that is not a keyword; an
    attribute read never reaches a dunder: by construction, whatever a translation passes."""
    payload = 'a"); import os; ("'
    assert ast.literal_eval(expr.render(expr.Lit(payload))) == payload
    call = expr.Name("ops").pad(expr.Name("x"), [1, 2], payload, float("-inf"))
    tree = ast.parse(expr.render(call), mode="eval")
    assert isinstance(tree.body, ast.Call) and tree.body.args[2].value == payload
    for bad in ["a b", "ｔ", "class", "match", "x\n", "", "1x"]:
        with pytest.raises(ValueError):
            expr.Name(bad)
    with pytest.raises(ValueError):
        expr.Attr(expr.Name("x"), "__class__")
    with pytest.raises(TypeError):
        expr.Lit(object())


def test_constant_folding_walks_the_tree_and_renders_the_same_tree():
    """One tree: rendered, it is the Python a person would write (parentheses where Python's
    precedence needs them); walked over values, it computes what that Python computes."""
    x = expr.Name("x")
    tree = ((x + 1) * -x.clip(0, 2))[0, 1:] / 2 - (x > 0).astype("float32")[0, 1:]
    text = "((x + 1) * -x.clip(0, 2))[0, 1:] / 2 - (x > 0).astype('float32')[0, 1:]"
    assert expr.render(tree) == text
    values = np.array([[-1.0, 2.0, 3.0]])
    direct = ((values + 1) * -values.clip(0, 2))[0, 1:] / 2 - (values > 0).astype("float32")[0, 1:]
    np.testing.assert_array_equal(expr.evaluate(tree, {"x": values}), direct)
    for text in ["a - (b - c)", "(a - b) - c", "-(-a)", "(a < b) < c", "a * (b + c)", "a & (b | c)"]:  # fmt: skip
        a, b, c = expr.Name("a"), expr.Name("b"), expr.Name("c")
        built = {
            "a - (b - c)": a - (b - c), "(a - b) - c": (a - b) - c, "-(-a)": -(-a),
            "(a < b) < c": (a < b) < c, "a * (b + c)": a * (b + c), "a & (b | c)": a & (b | c),
        }[text]  # fmt: skip
        assert ast.dump(ast.parse(expr.render(built))) == ast.dump(ast.parse(text)), text


def test_a_folded_node_computes_what_onnxruntime_computes():
    """Nodes whose inputs are all constants, folded at import by walking their expression
    (calls of ops, of Tensor methods and of the builtins int and list)."""
    values = np.array([[3, 1, 2], [0, 5, 4]], np.float32)
    nodes = [
        helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(values)),
        helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(np.array([2]))),
        helper.make_node("TopK", ["c", "k"], ["top", "where"]),
        helper.make_node("Softmax", ["c"], ["soft"], axis=0),
        helper.make_node("Trilu", ["c"], ["upper"]),
        helper.make_node("Neg", ["c"], ["neg"]),
        helper.make_node("Max", ["neg", "soft"], ["max"]),
    ]
    outputs = {"top": TensorProto.FLOAT, "where": TensorProto.INT64, "upper": TensorProto.FLOAT, "max": TensorProto.FLOAT}  # fmt: skip
    graph = helper.make_graph(
        nodes, "g", [], [helper.make_tensor_value_info(o, t, None) for o, t in outputs.items()]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    imported = importer.load(model)
    assert "TopK" not in imported.source  # folded: the outputs are buffers
    expected = ort.InferenceSession(model.SerializeToString()).run(None, {})
    for got, want in zip(imported(), expected):
        np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-6)


def test_no_eval_exec_or_compile_of_derived_text_in_the_importer():
    """The importer's package runs no text through eval, exec or compile, except `load`
    running the module it has just written (every piece of it the importer's own), and
    imports no module a model names."""
    found = set()

    def visit(node, owner, path):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            owner = node.name
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in ("eval", "exec", "compile", "literal_eval", "__import__", "import_module"):  # fmt: skip
                found.add((path.name, owner, name))
        for child in ast.iter_child_nodes(node):
            visit(child, owner, path)

    for path in sorted((ROOT / "burnpy" / "onnx").glob("*.py")):
        visit(ast.parse(path.read_text()), "<module>", path)
    # (and RE2 compiling RegexFullMatch's pattern: a regular expression, never Python; and the
    # export command importing the module its user names on the command line, never a model's)
    assert sorted(set(found)) == [("__init__.py", "load", "compile"), ("__init__.py", "load", "exec"), ("__main__.py", "export_main", "import_module"), ("strings.py", "pattern", "compile")]  # fmt: skip


def test_value_names_python_would_read_alike_are_different_variables(tmp_path, marker):
    """NFKC makes `ｔ` Python's `t`: the importer mints a different name for each; fullwidth
    `ｓｅｌｆ` and `ｏｐｓ` and a superscript `²` are names like any other."""
    names = ["t", "ｔ", "ｓｅｌｆ", "ｏｐｓ", "²"]
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in names]
    nodes = [
        helper.make_node("Sub", ["t", "ｔ"], ["d"], name="sub"),
        helper.make_node("Mul", ["ｓｅｌｆ", "ｏｐｓ"], ["p"], name="mul"),
        helper.make_node("Add", ["d", "p"], ["s"], name="add"),
        helper.make_node("Add", ["s", "²"], ["Ｙ"], name="out"),
    ]
    output = [helper.make_tensor_value_info("Ｙ", TensorProto.FLOAT, [3])]
    model = helper.make_model(
        helper.make_graph(nodes, "g", inputs, output),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal(3).astype(np.float32) for _ in names]
    expected = ort.InferenceSession(model.SerializeToString()).run(None, dict(zip(names, xs)))[0]
    for device in DEVICES.values():
        out = importer.load(model, device=device())(*xs)
        np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-6)
    path = importer.generate(model, tmp_path, name="m")
    assert path.read_text().isascii()
    instance = imported_file(path).Model(Device.numpy())
    instance.load(path.with_suffix(".safetensors"))
    np.testing.assert_allclose(instance(*xs).to_numpy(), expected, rtol=1e-6)
    assert not marker.exists()


@pytest.mark.parametrize("device", DEVICES)
def test_names_never_shadow_python_the_module_or_the_generated_code(tmp_path, device):
    """Initializers and values named after a Module method, a builtin, a keyword or the
    generated file's own names are parameters and variables like any other."""
    names = ["register_buffer", "forward", "print", "list", "class", "ops", "device", "self"]
    rng = np.random.default_rng(1)
    weights = {n: rng.standard_normal(3).astype(np.float32) for n in names}
    nodes, previous = [], "x"
    for i, name in enumerate(names):
        output = names[i - 1] + "_out" if i else "Tensor"
        nodes.append(helper.make_node("Add", [previous, name], [output], name=name))
        previous = output
    model = helper.make_model(
        helper.make_graph(
            nodes,
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
            [helper.make_tensor_value_info(previous, TensorProto.FLOAT, [3])],
            [numpy_helper.from_array(w, n) for n, w in weights.items()],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    x = rng.standard_normal(3).astype(np.float32)
    expected = x + sum(weights.values())
    imported = importer.load(model, device=DEVICES[device]())
    np.testing.assert_allclose(imported(x).to_numpy(), expected, rtol=1e-5)
    assert sorted(dict(imported.named_parameters())) == sorted(f"{n}_" for n in names)


def test_naming_is_linear_in_the_number_of_values():
    """30,000 names that come out alike: each takes one probe of the taken names, not one per
    name before it."""

    class Counting(set):
        probes = 0

        def __contains__(self, item):
            Counting.probes += 1
            return super().__contains__(item)

    emitter = emit.Emitter(ir.Graph("g", (), (), {}, (), {}, {}), None)
    emitter.taken = Counting(emitter.taken)
    punctuation = "!#$%&()*+,-./:;<=>?@[]^{|}~"
    names = []
    for i in range(30_000):
        digits = ""
        while True:
            i, r = divmod(i, len(punctuation))
            digits += punctuation[r]
            if not i:
                break
        names.append(f"v{digits}")
    minted = [emitter.name_of(n) for n in names]
    assert len(set(minted)) == 30_000
    assert Counting.probes <= 2 * 30_000


# -- bounded work ---------------------------------------------------------------------------

HUGE = [10**6, 10**7]  # 10^13 elements: 40 TB as float32


def _bounded_model(op: str):
    """A tiny model asking for a HUGE value whose inputs are all constants."""
    shape = numpy_helper.from_array(np.array(HUGE, np.int64), "shape")
    one = numpy_helper.from_array(np.ones((1, 1), np.int64), "one")
    inits, nodes = [shape, one], []
    if op == "ConstantOfShape":
        nodes.append(helper.make_node(op, ["shape"], ["big"], name="huge"))
    elif op == "Expand":
        nodes.append(helper.make_node(op, ["one", "shape"], ["big"], name="huge"))
    elif op == "Tile":
        nodes.append(helper.make_node(op, ["one", "shape"], ["big"], name="huge"))
    elif op == "Range":
        inits += [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in [("start", 0), ("limit", 10**13), ("delta", 1)]]  # fmt: skip
        nodes.append(helper.make_node(op, ["start", "limit", "delta"], ["big"], name="huge"))
    elif op == "Resize":
        inits.append(numpy_helper.from_array(np.array([1, 1, 10**6, 10**6], np.int64), "sizes"))
        inits.append(numpy_helper.from_array(np.ones((1, 1, 2, 2), np.float32), "image"))
        nodes.append(helper.make_node("Identity", ["image"], ["constant_image"]))
        nodes.append(helper.make_node(op, ["constant_image", "", "", "sizes"], ["big"], name="huge"))  # fmt: skip
    elif op == "EyeLike":
        nodes.append(helper.make_node("ConstantOfShape", ["shape"], ["square"]))
        nodes.append(helper.make_node(op, ["square"], ["big"], name="huge"))
    kind = TensorProto.INT64 if op in ("Expand", "Tile", "Range") else TensorProto.FLOAT
    big = helper.make_tensor_value_info("big", kind, None)
    graph = helper.make_graph(nodes, "g", [], [big], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


@pytest.mark.parametrize("op", ["ConstantOfShape", "Expand", "Tile", "Range", "Resize", "EyeLike"])
def test_a_huge_declared_size_never_allocates_at_import(tmp_path, op):
    model = _bounded_model(op)
    tracemalloc.start()
    try:
        path = importer.generate(model, tmp_path, name="m")
        importer.load(model)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, f"{op}: {peak / 2**20:.0f} MiB at import"
    assert path.with_suffix(".safetensors").stat().st_size < 2**16
    assert "huge" in path.read_text()  # the node is a statement of forward, run at call


@pytest.mark.parametrize("device", DEVICES)
def test_a_node_above_the_folding_cap_computes_when_the_model_runs(monkeypatch, device):
    """Past the cap a node is a statement of `forward` instead of a constant: same values."""
    monkeypatch.setattr(emit, "FOLD_LIMIT", 5)
    for op in ["ConstantOfShape", "Expand", "Tile", "Range", "EyeLike"]:
        model = _bounded_model(op)
        for init in model.graph.initializer:
            if init.name == "shape":
                init.CopyFrom(numpy_helper.from_array(np.array([2, 3], np.int64), "shape"))
            if init.name == "limit":
                init.CopyFrom(numpy_helper.from_array(np.array(7, np.int64), "limit"))
        imported = importer.load(model, device=DEVICES[device]())
        assert "huge" in imported.source, op
        expected = ort.InferenceSession(model.SerializeToString()).run(None, {})[0]
        np.testing.assert_array_equal(imported().to_numpy(), expected)


def test_a_model_declaring_more_than_it_holds_is_refused(tmp_path):
    tensor = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[10**6, 10**6])
    tensor.raw_data = b"\0" * 16
    node = helper.make_node("Identity", ["w"], ["y"])
    graph = helper.make_graph(
        [node], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [tensor]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(importer.UnsupportedError, match="initializer 'w'.*too small for the declared shape"):  # fmt: skip
        importer.load(model)
    tensor.raw_data = b"\0" * 16  # past onnx's checker, the importer's own check
    with pytest.raises(ir.Refusal, match="declares 1000000000000 elements.*holds 4"):
        ir.array_of(tensor)


def test_a_constant_declaring_more_than_it_holds_is_refused_naming_the_node():
    value = TensorProto(name="v", data_type=TensorProto.FLOAT, dims=[10**6, 10**6])
    node = helper.make_node("Constant", [], ["y"], name="big_constant", value=value)
    graph = helper.make_graph(
        [node], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(importer.UnsupportedError, match="big_constant"):
        importer.load(model)


# -- external data --------------------------------------------------------------------------


def external_model(location: str, length=None):
    weight = np.arange(6, dtype=np.float32).reshape(2, 3)
    tensor = numpy_helper.from_array(weight, "w")
    tensor.ClearField("raw_data")
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in [("location", location), ("offset", "0")] + (
        [("length", str(length))] if length else []
    ):
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    node = helper.make_node("Add", ["x", "w"], ["y"], name="add")
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [tensor],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), weight


def test_external_data_is_read_only_where_the_caller_says(tmp_path, monkeypatch):
    secret = np.full(6, 7, np.float32)
    (tmp_path / "secret.bin").write_bytes(secret.tobytes())
    monkeypatch.chdir(tmp_path)
    model, _ = external_model("secret.bin")
    for given in (model, model.SerializeToString()):
        with pytest.raises(importer.UnsupportedError, match="'w'.*'secret.bin'.*base_dir="):
            importer.load(given)
        with pytest.raises(importer.UnsupportedError, match="base_dir="):
            importer.generate(given, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    x = np.ones((2, 3), np.float32)
    for device in DEVICES.values():  # the caller names the folder: read from there
        out = importer.load(model, device=device(), base_dir=tmp_path)(x)
        np.testing.assert_array_equal(out.to_numpy(), x + secret.reshape(2, 3))


def test_external_data_stays_inside_the_models_folder(tmp_path):
    (tmp_path / "secret.bin").write_bytes(np.full(6, 7, np.float32).tobytes())
    folder = tmp_path / "models"
    folder.mkdir()
    for location in ["../secret.bin", str(tmp_path / "secret.bin")]:
        model, _ = external_model(location)
        onnx.save(model, folder / "m.onnx")
        with pytest.raises(importer.UnsupportedError, match="is not a file inside"):
            importer.load(folder / "m.onnx")
    model, _ = external_model("m.data", length=10**9)
    (folder / "m.data").write_bytes(np.zeros(6, np.float32).tobytes())
    onnx.save(model, folder / "m.onnx")
    with pytest.raises(importer.UnsupportedError, match="more than its external file"):
        importer.load(folder / "m.onnx")
    model, weight = external_model("m.data")
    (folder / "m.data").write_bytes(weight.tobytes())
    onnx.save(model, folder / "m.onnx")
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(importer.load(folder / "m.onnx")(x).to_numpy(), x + weight)


def test_the_command_line_refuses_a_hostile_model_with_the_error(tmp_path, marker, capsys):
    from burnpy.onnx.__main__ import main

    onnx.save(softmax_with(helper.make_attribute("axis", touch(marker)), True), tmp_path / "m.onnx")
    assert main([str(tmp_path / "m.onnx"), "--out", str(tmp_path / "out")]) == 1
    assert "softmax_node" in capsys.readouterr().err
    assert not marker.exists() and not (tmp_path / "out").exists()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
