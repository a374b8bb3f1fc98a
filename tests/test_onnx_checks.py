"""burnpy.onnx refuses what onnxruntime refuses: invalid models (a permutation that is not one,
an axis out of range, split sizes that do not add up, two -1 in a shape, two producers of a
name, an unknown opset, a node without outputs, an output nobody produces), and files that are
not models (empty, truncated, random, text), each with an UnsupportedError naming the node or
the file, before anything is written. A hostile attribute never runs."""

import os

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F = TensorProto.FLOAT


def value(name, shape, kind=F):
    return helper.make_tensor_value_info(name, kind, shape)


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "checked", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def onnxruntime_refuses(proto) -> str:
    with pytest.raises(Exception) as refused:
        ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return str(refused.value)


# name -> (model, what our message says); onnxruntime refuses each one too
INVALID = {
    "perm out of range": (
        model([helper.make_node("Transpose", ["x"], ["y"], name="t", perm=[5, 7])], [value("x", [2, 3])], [value("y", None)]),
        ["node name: t", "perm"],
    ),
    "perm repeats an axis": (
        model([helper.make_node("Transpose", ["x"], ["y"], name="t", perm=[0, 0])], [value("x", [2, 3])], [value("y", None)]),
        ["node name: t", "repeated"],
    ),
    "Gather axis out of range": (
        model([helper.make_node("Gather", ["x", "i"], ["y"], name="g", axis=9)], [value("x", [2, 3]), value("i", [1], TensorProto.INT64)], [value("y", None)]),
        ["node name: g", "axis"],
    ),
    "split sizes do not add up": (
        model([helper.make_node("Split", ["x", "s"], ["a", "b"], name="sp")], [value("x", [4, 3])], [value("a", None), value("b", None)], [ints("s", [1, 2])]),
        ["node name: sp", "sum of 'split'"],
    ),
    "two -1 in a shape": (
        model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], [value("x", [4, 3])], [value("y", None)], [ints("s", [-1, -1])]),
        ["node name: r", "multiple -1"],
    ),
    "two producers of one name": (
        model([helper.make_node("Relu", ["x"], ["y"], name="a"), helper.make_node("Neg", ["x"], ["y"], name="b")], [value("x", [2])], [value("y", [2])]),
        ["Neg node 'b'", "output 'y' is already produced by Relu node 'a'"],
    ),
    "a node output named as a graph input": (
        model([helper.make_node("Relu", ["x"], ["x"], name="a")], [value("x", [2])], [value("x", [2])]),
        ["Relu node 'a'", "output 'x' is already produced by the graph input"],
    ),
    "opset 99": (
        model([helper.make_node("Relu", ["x"], ["y"], name="a")], [value("x", [2])], [value("y", [2])], opset=99),
        ["opset 99 of the ai.onnx domain"],
    ),
    "a graph input declared twice": (
        model([helper.make_node("Neg", ["x"], ["y"], name="b")], [value("x", [2]), value("x", [2])], [value("y", [2])]),
        ["graph input 'x' is declared more than once"],
    ),
    "a node without outputs": (
        model([helper.make_node("Relu", ["x"], [], name="a"), helper.make_node("Neg", ["x"], ["y"], name="b")], [value("x", [2])], [value("y", [2])]),
        ["Relu node 'a': the node has no outputs"],
    ),
    "an output nobody produces": (
        model([helper.make_node("Neg", ["x"], ["y"], name="b")], [value("x", [2])], [value("z", [2])]),
        ["graph output 'z' is produced by no node"],
    ),
    "an input nobody produces": (
        model([helper.make_node("Add", ["x", "w"], ["y"], name="add")], [value("x", [2])], [value("y", [2])]),
        ["Add node 'add': input 'w' is produced by no node"],
    ),
    "an attribute of another type": (
        model([helper.make_node("Softmax", ["x"], ["y"], name="s", axis="-1")], [value("x", [2, 3])], [value("y", [2, 3])]),
        ["Softmax node 's'", "Mismatched attribute type in 's : axis'"],
    ),
    "an attribute the op does not have": (
        model([helper.make_node("Relu", ["x"], ["y"], name="r", alpha=1.0)], [value("x", [2])], [value("y", [2])]),
        ["Relu node 'r'", "Unrecognized attribute: alpha"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", INVALID)
def test_an_invalid_model_is_refused_naming_the_node_as_onnxruntime_refuses_it(case, tmp_path):
    proto, said = INVALID[case]
    onnxruntime_refuses(proto)
    with pytest.raises(importer.UnsupportedError) as refused:
        importer.load(proto)
    for words in said:
        assert words in str(refused.value)
    with pytest.raises(importer.UnsupportedError):
        importer.generate(proto, tmp_path / "out")
    assert not (tmp_path / "out").exists()


WEIGHT = numpy_helper.from_array(np.ones((4, 4, 3, 3), np.float32), "w")
IMAGE = [value("x", [1, 4, 8, 8])]
# name -> (model, what our message says); onnxruntime refuses each one, at the latest when run
FAILS_WHEN_RUN = {
    "a group that does not fit the channels": (
        model([helper.make_node("Conv", ["x", "w"], ["y"], name="c", group=3)], IMAGE, [value("y", None)], [WEIGHT]),
        "Conv node 'c' (domain ai.onnx, opset 17): the input's 4 channels do not fit the weight [4, 4, 3, 3] with group=3",
    ),
    "a kernel_shape that is not the weight's": (
        model([helper.make_node("Conv", ["x", "w"], ["y"], name="c", kernel_shape=[5, 5])], IMAGE, [value("y", None)], [WEIGHT]),
        "Conv node 'c' (domain ai.onnx, opset 17): kernel_shape [5, 5] is not the weight's spatial dims [3, 3]",
    ),
    "a block size that does not divide the channels": (
        model([helper.make_node("DepthToSpace", ["x"], ["y"], name="d", blocksize=3)], IMAGE, [value("y", None)]),
        "DepthToSpace node 'd' (domain ai.onnx, opset 17): blocksize 3 does not divide",
    ),
    "a CumSum axis out of range": (
        model([helper.make_node("CumSum", ["x", "a"], ["y"], name="cs")], IMAGE, [value("y", None)], [ints("a", 9)]),
        "CumSum node 'cs' (domain ai.onnx, opset 17): axis 9 is out of range for rank 4",
    ),
    "a LayerNormalization axis out of range": (
        model([helper.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln", axis=9)], IMAGE, [value("y", None)], [numpy_helper.from_array(np.ones(8, np.float32), "s")]),
        "LayerNormalization node 'ln' (domain ai.onnx, opset 17): attribute axis 9 is out of range",
    ),
    "a shape that does not hold the input": (
        model([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")], IMAGE, [value("y", None)], [ints("s", [7, 7])]),
        "Reshape node 'r' (domain ai.onnx, opset 17): shape [7, 7] does not hold the input's 256 elements",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", FAILS_WHEN_RUN)
def test_what_onnxruntime_refuses_when_run_is_refused_at_import(case):
    proto, said = FAILS_WHEN_RUN[case]
    with pytest.raises(Exception):
        ort_session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])  # fmt: skip
        ort_session.run(None, {"x": np.ones((1, 4, 8, 8), np.float32)})
    with pytest.raises(importer.UnsupportedError) as refused:
        importer.load(proto)
    assert said in str(refused.value)


def test_a_hostile_string_attribute_is_refused_and_never_runs(tmp_path):
    marker = tmp_path / "ran"
    payload = f'-1 if __import__("pathlib").Path({str(marker)!r}).touch() else -1'
    proto = model(
        [helper.make_node("Softmax", ["x"], ["y"], name="s", axis=payload)],
        [value("x", [2, 3])],
        [value("y", [2, 3])],
    )
    onnxruntime_refuses(proto)
    with pytest.raises(importer.UnsupportedError, match="Mismatched attribute type"):
        importer.load(proto)
    assert not marker.exists()


def test_ranges_shape_inference_cannot_see_are_checked_by_the_importer():
    """An input of unknown rank: onnx's inference cannot check a permutation against it; a
    Reshape's shape given by a Constant node; Unsqueeze axes that repeat."""
    unknown = helper.make_tensor_value_info("x", F, None)
    transpose = model([helper.make_node("Transpose", ["x"], ["y"], name="t", perm=[5, 7])], [unknown], [value("y", None)])  # fmt: skip
    with pytest.raises(importer.UnsupportedError, match=r"(?s)Transpose node 't'.*not a permutation of range\(2\)"):  # fmt: skip
        importer.load(transpose)
    unsqueeze = model([helper.make_node("Unsqueeze", ["x", "a"], ["y"], name="u")], [value("x", [2, 3])], [value("y", None)], [ints("a", [0, 0])])  # fmt: skip
    onnxruntime_refuses(unsqueeze)
    with pytest.raises(importer.UnsupportedError, match="node name: u|Unsqueeze node 'u'"):
        importer.load(unsqueeze)


def test_the_checks_pass_a_valid_model_unchanged():
    proto = model(
        [helper.make_node("Split", ["x", "s"], ["a", "b"], name="sp"), helper.make_node("Transpose", ["b"], ["t"], name="t", perm=[1, 0])],
        [value("x", [4, 3])],
        [value("a", [1, 3]), value("t", [3, 3])],
        [ints("s", [1, 3])],
    )  # fmt: skip
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    expected = session.run(None, {"x": x})
    got = importer.load(proto)(x)
    for out, want in zip(got, expected):
        np.testing.assert_array_equal(out.to_numpy(), want)


def _valid() -> bytes:
    proto = model([helper.make_node("Relu", ["x"], ["y"], name="r")], [value("x", [2])], [value("y", [2])])  # fmt: skip
    return proto.SerializeToString()


FILES = {
    "empty": lambda: b"",
    "truncated": lambda: _valid()[: len(_valid()) // 2],
    "random": lambda: np.random.default_rng(0).bytes(512),
    "text": lambda: b"ir_version: 8\ngraph { node { op_type: 'Relu' } }\n",
}


@pytest.mark.parametrize("kind", FILES)
def test_a_file_that_is_not_a_model_is_refused_naming_the_file(kind, tmp_path):
    path = tmp_path / f"{kind}.onnx"
    path.write_bytes(FILES[kind]())
    with pytest.raises(Exception):
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    with pytest.raises(importer.UnsupportedError, match="not an ONNX model") as refused:
        importer.load(path)
    assert str(path) in str(refused.value)
    with pytest.raises(importer.UnsupportedError, match=str(path)):
        importer.generate(path, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    with pytest.raises(importer.UnsupportedError, match="(?s)the model bytes: .*not an ONNX model"):
        importer.load(path.read_bytes())


@pytest.mark.parametrize("device", DEVICES)
def test_nul_in_names_and_an_initializer_named_register_buffer_load_and_compute(device):
    weights = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "register_buffer")  # fmt: skip
    proto = model(
        [
            helper.make_node("Relu", ["x\x00a"], ["y\x00"], name="r\x00n"),
            helper.make_node("Mul", ["y\x00", "register_buffer"], ["out"], name="m"),
        ],
        [value("x\x00a", [2, 3])],
        [value("out", [2, 3])],
        [weights],
    )
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x\x00a": x})
    imported = importer.load(proto, device=DEVICES[device]())
    np.testing.assert_array_equal(imported(x).to_numpy(), expected)
    assert len(imported.parameters()) == 1


def test_structure_problems_are_all_named_at_once():
    proto = model(
        [helper.make_node("Relu", ["x"], [], name="a"), helper.make_node("Neg", ["x"], ["y"], name="b"), helper.make_node("Abs", ["x"], ["y"], name="c")],
        [value("x", [2]), value("x", [2])],
        [value("y", [2]), value("z", [2])],
    )  # fmt: skip
    with pytest.raises(importer.UnsupportedError) as refused:
        importer.load(proto)
    assert len(refused.value.problems) == 4, refused.value.problems
    assert os.linesep.join(refused.value.problems).count("'") >= 8
