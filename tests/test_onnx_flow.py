"""burnpy.onnx's control flow: If, Loop and Scan become Python's `if` and `while` in the generated
`forward`, with their subgraphs written nested like the main graph; values against onnxruntime
on both backends, gradients through the path taken against float64 finite differences."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from onnx_node import central_differences  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F, F64, B, I64 = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.BOOL, TensorProto.INT64


def if_model(elem=F) -> onnx.ModelProto:
    """y = if sum(x) > 0: x * w (w an outer initializer) else: sin(x) + x."""
    then = helper.make_graph(
        [helper.make_node("Mul", ["x", "w"], ["t"], name="then/Mul")],
        "then",
        [],
        [helper.make_tensor_value_info("t", elem, [3])],
    )
    orelse = helper.make_graph(
        [
            helper.make_node("Sin", ["x"], ["s"], name="else/Sin"),
            helper.make_node("Add", ["s", "x"], ["e"], name="else/Add"),
        ],
        "else",
        [],
        [helper.make_tensor_value_info("e", elem, [3])],
    )
    dtype = np.float32 if elem == F else np.float64
    graph = helper.make_graph(
        [
            helper.make_node("ReduceSum", ["x"], ["total"], name="sum", keepdims=0),
            helper.make_node("Greater", ["total", "zero"], ["positive"], name="test"),
            helper.make_node("If", ["positive"], ["y"], name="choose", then_branch=then, else_branch=orelse),  # fmt: skip
        ],
        "branchy",
        [helper.make_tensor_value_info("x", elem, [3])],
        [helper.make_tensor_value_info("y", elem, [3])],
        [
            numpy_helper.from_array(np.array([2.0, -1.0, 0.5], dtype), "w"),
            numpy_helper.from_array(np.array(0.0, dtype), "zero"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def loop_model(elem=F) -> onnx.ModelProto:
    """Loop `n` times: h = tanh(h * w + x) carried, each step's h collected (a scan output)."""
    body = helper.make_graph(
        [
            helper.make_node("Mul", ["h_in", "w"], ["hw"], name="body/Mul"),
            helper.make_node("Add", ["hw", "x"], ["pre"], name="body/Add"),
            helper.make_node("Tanh", ["pre"], ["h_out"], name="body/Tanh"),
            helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body/Identity"),
            helper.make_node("Identity", ["h_out"], ["h_step"], name="body/Step"),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", I64, []),
            helper.make_tensor_value_info("cond_in", B, []),
            helper.make_tensor_value_info("h_in", elem, [3]),
        ],
        [
            helper.make_tensor_value_info("cond_out", B, []),
            helper.make_tensor_value_info("h_out", elem, [3]),
            helper.make_tensor_value_info("h_step", elem, [3]),
        ],
    )
    dtype = np.float32 if elem == F else np.float64
    graph = helper.make_graph(
        [helper.make_node("Loop", ["n", "", "h0"], ["h", "hs"], name="recur", body=body)],
        "loopy",
        [helper.make_tensor_value_info("x", elem, [3]), helper.make_tensor_value_info("h0", elem, [3])],  # fmt: skip
        [helper.make_tensor_value_info("h", elem, [3]), helper.make_tensor_value_info("hs", elem, [None, 3])],  # fmt: skip
        [
            numpy_helper.from_array(np.array([0.5, -0.7, 0.9], dtype), "w"),
            numpy_helper.from_array(np.array(4, np.int64), "n"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def scan_model() -> onnx.ModelProto:
    """A running sum over the rows of x, scanned in reverse, each partial sum doubled."""
    body = helper.make_graph(
        [
            helper.make_node("Add", ["acc_in", "row"], ["acc_out"], name="body/Add"),
            helper.make_node("Add", ["acc_out", "acc_out"], ["twice"], name="body/Twice"),
        ],
        "body",
        [helper.make_tensor_value_info("acc_in", F, [2]), helper.make_tensor_value_info("row", F, [2])],  # fmt: skip
        [helper.make_tensor_value_info("acc_out", F, [2]), helper.make_tensor_value_info("twice", F, [2])],  # fmt: skip
    )
    node = helper.make_node(
        "Scan", ["acc0", "x"], ["acc", "partial"], name="scan", body=body, num_scan_inputs=1,
        scan_input_directions=[1], scan_output_axes=[1],
    )  # fmt: skip
    graph = helper.make_graph(
        [node],
        "scanny",
        [helper.make_tensor_value_info("acc0", F, [2]), helper.make_tensor_value_info("x", F, [4, 2])],  # fmt: skip
        [helper.make_tensor_value_info("acc", F, [2]), helper.make_tensor_value_info("partial", F, [2, 4])],  # fmt: skip
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def onnxruntime(model, *inputs):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))


def outputs(result):
    return [r.to_numpy() for r in (result if isinstance(result, tuple) else (result,))]


X_POS = np.array([0.3, 0.8, -0.2], np.float32)
X_NEG = np.array([-0.3, 0.1, -0.9], np.float32)
H0 = np.array([0.1, -0.2, 0.3], np.float32)
CASES = {
    "if then": (if_model, [X_POS]),
    "if else": (if_model, [X_NEG]),
    "loop": (loop_model, [X_POS, H0]),
    "scan": (scan_model, [H0[:2], np.arange(8, dtype=np.float32).reshape(4, 2)]),
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CASES)
def test_control_flow_runs_as_onnxruntime_does(case, device):
    build, inputs = CASES[case]
    model = build()
    imported = importer.load(model, device=DEVICES[device]())
    for got, want in zip(outputs(imported(*inputs)), onnxruntime(model, *inputs), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_control_flow_reads_as_python():
    """The If is an `if`/`else` holding each branch's nodes under their comments; the Loop a
    `while` that carries its value and collects each step's."""
    text = importer.load(if_model()).source
    assert (
        "        # If choose\n        if ops.truth(positive):\n            # Mul then/Mul\n" in text
    )
    assert "        else:\n            # Sin else/Sin\n" in text
    loop_text = importer.load(loop_model()).source
    assert "while going and step < trip_count:" in loop_text
    assert "            # Tanh body/Tanh\n" in loop_text
    assert "h_step_steps.append(h_step)" in loop_text


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", ["if then", "if else", "loop"])
def test_gradients_follow_the_path_taken(case, device):
    """d sum(outputs) / d x through the branch taken or every iteration, in float64, against
    finite differences of onnxruntime's own float64 run."""
    build, inputs = CASES[case]
    model = build(F64)
    inputs = [np.asarray(i, np.float64) for i in inputs]
    imported = importer.load(model, device=DEVICES[device]().autodiff())
    x = Tensor.from_data(inputs[0], device=DEVICES[device]().autodiff(), dtype="float64").require_grad()  # fmt: skip
    total = None
    for out in imported(x, *inputs[1:]) if case == "loop" else (imported(x),):
        total = out.sum() if total is None else total + out.sum()
    grads = total.backward()
    expected = central_differences(
        lambda v: sum(float(o.sum()) for o in onnxruntime(model, v, *inputs[1:])), inputs[0]
    )
    np.testing.assert_allclose(x.grad(grads).to_numpy(), expected, rtol=1e-6, atol=1e-8)


def test_a_subgraph_refusal_names_the_inner_node():
    model = if_model()
    then = next(a for a in model.graph.node[2].attribute if a.name == "then_branch")
    then.g.node[0].op_type = "ImageDecoder"  # not written
    with pytest.raises(importer.UnsupportedError, match=r"If node 'choose'.*subgraph.*ImageDecoder node 'then/Mul'"):  # fmt: skip
        importer.load(model)


def test_capture_refuses_a_branch_on_data():
    """Which branch runs depends on x's values: capture refuses it, naming the read."""
    from burnpy import capture

    imported = importer.load(if_model())
    step = capture(lambda v: imported(v))
    with pytest.raises(capture.CaptureError):
        step(Tensor.from_data(X_POS, device=Device.numpy()))


def test_a_name_defined_in_two_graphs_is_refused():
    """Two branches each defining `t` would share one Python variable: refused, naming it."""
    model = if_model()
    orelse = next(a for a in model.graph.node[2].attribute if a.name == "else_branch")
    orelse.g.node[1].output[0] = "t"
    orelse.g.output[0].name = "t"
    with pytest.raises(importer.UnsupportedError, match=r"value 't' is defined in more than one graph"):  # fmt: skip
        importer.load(model)


@pytest.mark.parametrize("device", DEVICES)
def test_a_condition_known_at_import_leaves_the_branch_taken(device):
    """An If on a constant (an exporter's test of a static shape) is the branch taken, written
    in place: no `if`, nothing read at run time, so capture records it."""
    model = if_model()
    model.graph.node[1].op_type = "Less"  # sum(x) < 0 ...
    model.graph.node[0].input[0] = "zero"  # ... of a constant: known at import, False
    imported = importer.load(model, device=DEVICES[device]())
    assert "if " not in imported.source and "# Sin else/Sin" in imported.source
    assert "# Mul then/Mul" not in imported.source
    (want,) = onnxruntime(model, X_POS)
    np.testing.assert_allclose(imported(X_POS).to_numpy(), want, rtol=1e-6)


def test_an_if_on_constants_folds_to_its_value():
    """Both the condition and the branch taken known at import: the If's output is a constant
    the rest of the graph folds with (here, a Reshape's shape)."""

    def branch(name, dims):
        shape = numpy_helper.from_array(np.array(dims, np.int64), f"{name}_value")
        return helper.make_graph(
            [helper.make_node("Constant", [], [f"{name}_out"], name=f"{name}/Constant", value=shape)],  # fmt: skip
            name,
            [],
            [helper.make_tensor_value_info(f"{name}_out", I64, [2])],
        )

    graph = helper.make_graph(
        [
            helper.make_node("If", ["flag"], ["dims"], name="pick", then_branch=branch("wide", [1, 6]), else_branch=branch("tall", [6, 1])),  # fmt: skip
            helper.make_node("Reshape", ["x", "dims"], ["y"], name="reshape"),
        ],
        "folding",
        [helper.make_tensor_value_info("x", F, [2, 3])],
        [helper.make_tensor_value_info("y", F, None)],
        [numpy_helper.from_array(np.array(False), "flag")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    imported = importer.load(model)
    assert "y = x.reshape([6, 1])" in imported.source and "If" not in imported.source
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (want,) = onnxruntime(model, x)
    np.testing.assert_array_equal(imported(x).to_numpy(), want)


# -- sequences ---------------------------------------------------------------------------------


def sequence_model() -> onnx.ModelProto:
    """x split into rows, one erased, y inserted at the front, the rows joined on a new axis;
    also the count and the row at -1."""
    graph = helper.make_graph(
        [
            helper.make_node("SplitToSequence", ["x"], ["rows"], name="split", axis=0, keepdims=0),
            helper.make_node("SequenceErase", ["rows", "one"], ["fewer"], name="erase"),
            helper.make_node("SequenceInsert", ["fewer", "y", "zero"], ["more"], name="insert"),
            helper.make_node("ConcatFromSequence", ["more"], ["joined"], name="join", axis=0, new_axis=1),  # fmt: skip
            helper.make_node("SequenceLength", ["more"], ["count"], name="count"),
            helper.make_node("SequenceAt", ["more", "last"], ["final"], name="at"),
            helper.make_node("SequenceConstruct", ["y", "final"], ["pair"], name="pair"),
        ],
        "listy",
        [helper.make_tensor_value_info("x", F, [4, 3]), helper.make_tensor_value_info("y", F, [3])],
        [
            helper.make_tensor_value_info("joined", F, None),
            helper.make_tensor_value_info("count", I64, []),
            helper.make_tensor_value_info("final", F, [3]),
            helper.make_tensor_sequence_value_info("pair", F, [3]),
        ],
        [
            numpy_helper.from_array(np.array(1, np.int64), "one"),
            numpy_helper.from_array(np.array(0, np.int64), "zero"),
            numpy_helper.from_array(np.array(-1, np.int64), "last"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize("device", DEVICES)
def test_sequences_are_python_lists(device):
    model = sequence_model()
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = np.array([-1.0, -2.0, -3.0], np.float32)
    imported = importer.load(model, device=DEVICES[device]())
    joined, count, final, pair = imported(x, y)
    want = onnxruntime(model, x, y)
    np.testing.assert_array_equal(joined.to_numpy(), want[0])
    np.testing.assert_array_equal(count.to_numpy(), want[1])
    np.testing.assert_array_equal(final.to_numpy(), want[2])
    assert isinstance(pair, list) and len(pair) == len(want[3])
    for got, expected in zip(pair, want[3]):
        np.testing.assert_array_equal(got.to_numpy(), expected)
    assert "fewer = ops.sequence_erase(rows, self.one)" in imported.source


def test_a_sequence_position_out_of_range_is_an_index_error():
    model = sequence_model()
    model.graph.initializer[2].CopyFrom(numpy_helper.from_array(np.array(-9, np.int64), "last"))
    imported = importer.load(model)
    with pytest.raises(IndexError, match="position -9 is outside a sequence of 4 tensors"):
        imported(np.zeros((4, 3), np.float32), np.zeros(3, np.float32))


def test_sequence_map_runs_its_body_per_position():
    """SequenceMap is a loop over the positions, its outputs lists; against onnxruntime."""
    body = helper.make_graph(
        [helper.make_node("Mul", ["item", "scale"], ["scaled"], name="body/Mul")],
        "body",
        [helper.make_tensor_value_info("item", F, [None]), helper.make_tensor_value_info("scale", F, [1])],  # fmt: skip
        [helper.make_tensor_value_info("scaled", F, [None])],
    )
    graph = helper.make_graph(
        [
            helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"], name="split"),
            helper.make_node("SequenceMap", ["parts", "s"], ["mapped"], name="map", body=body),
            helper.make_node("ConcatFromSequence", ["mapped"], ["y"], name="join", axis=0),
        ],
        "mapped",
        [helper.make_tensor_value_info("x", F, [5]), helper.make_tensor_value_info("s", F, [1])],
        [helper.make_tensor_value_info("y", F, [5])],
        [numpy_helper.from_array(np.array([2, 3], np.int64), "sizes")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x, s = np.arange(5, dtype=np.float32), np.array([3.0], np.float32)
    imported = importer.load(model)
    assert "while step < sequence_length:" in imported.source
    np.testing.assert_array_equal(imported(x, s).to_numpy(), onnxruntime(model, x, s)[0])


@pytest.mark.parametrize("device", DEVICES)
def test_scan_gradients_reach_every_slice(device):
    """d sum(outputs) / d x through a Scan, against finite differences of onnxruntime."""
    model = scan_model()
    acc0, x = (np.asarray(v, np.float64) for v in CASES["scan"][1])
    for value in list(model.graph.input) + list(model.graph.output):
        value.type.tensor_type.elem_type = F64
    for graph_value in list(model.graph.node[0].attribute[0].g.input) + list(model.graph.node[0].attribute[0].g.output):  # fmt: skip
        graph_value.type.tensor_type.elem_type = F64
    dev = DEVICES[device]().autodiff()
    imported = importer.load(model, device=dev)
    xt = Tensor.from_data(x, device=dev, dtype="float64").require_grad()
    acc, partial = imported(acc0, xt)
    grads = (acc.sum() + (partial * partial).sum()).backward()
    expected = central_differences(
        lambda v: sum(float((o * (o if k else 1)).sum()) for k, o in enumerate(onnxruntime(model, acc0, v))),  # fmt: skip
        x,
    )
    np.testing.assert_allclose(xt.grad(grads).to_numpy(), expected, rtol=1e-6, atol=1e-6)


# -- optionals ---------------------------------------------------------------------------------


def test_optionals_are_none_or_the_value():
    """An optional input is None or its tensor; OptionalHasElement says which, against
    onnxruntime; OptionalGetElement of an empty one raises."""
    optional_type = helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2]))
    graph = helper.make_graph(
        [
            helper.make_node("OptionalHasElement", ["maybe"], ["has"], name="has"),
            helper.make_node("OptionalGetElement", ["maybe"], ["got"], name="get"),
        ],
        "optionals",
        [helper.make_value_info("maybe", optional_type)],
        [helper.make_tensor_value_info("has", B, []), helper.make_tensor_value_info("got", F, [2])],  # fmt: skip
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    imported = importer.load(model)
    value = np.array([1.5, -2.0], np.float32)
    has, got = imported(value)
    want_has, want_got = onnxruntime(model, value)
    assert has.to_numpy() == want_has
    np.testing.assert_array_equal(got.to_numpy(), want_got)
    with pytest.raises(ValueError, match="OptionalGetElement of an empty optional"):
        imported(None)
