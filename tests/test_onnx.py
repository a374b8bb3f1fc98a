"""burnpy.onnx: the importer against ONNX's own node test suite (the suite's expected outputs),
and its API against onnxruntime: load, generate (deterministic, readable, reloadable), the
command line, refusals that name every node, external data."""

import importlib.util
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from safetensors import safe_open  # noqa: E402

import background  # noqa: E402
import node_suite  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.onnx import conformance  # noqa: E402
from burnpy.generated import Device, QuantValue, Tensor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}


def small_cnn(batch="batch") -> onnx.ModelProto:
    """Conv -> BatchNorm -> Relu -> MaxPool -> Flatten -> Gemm, with a dynamic batch."""
    rng = np.random.default_rng(0)

    def init(name, *shape):
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], name="/conv/Conv", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "bn.scale", "bn.bias", "bn.mean", "bn.var"], ["b"], name="/bn/BatchNormalization"),
        helper.make_node("Relu", ["b"], ["r"], name="/relu/Relu"),
        helper.make_node("MaxPool", ["r"], ["p"], name="/pool/MaxPool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Flatten", ["p"], ["f"], name="/Flatten"),
        helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["logits"], name="/fc/Gemm", transB=1),
    ]  # fmt: skip
    var = numpy_helper.from_array(rng.uniform(0.5, 2, 4).astype(np.float32), "bn.var")
    inits = [
        init("conv.weight", 4, 3, 3, 3),
        init("conv.bias", 4),
        init("bn.scale", 4),
        init("bn.bias", 4),
        init("bn.mean", 4),
        var,
        init("fc.weight", 5, 4 * 4 * 4),
        init("fc.bias", 5),
    ]
    graph = helper.make_graph(
        nodes,
        "small_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 3, 8, 8])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [batch, 5])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def onnxruntime_outputs(model, *inputs):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    return session.run(None, dict(zip(names, inputs)))


# The node suite runs in a child process, started with the session (tests/node_suite.py): onnx
# builds its 1,884 cases in Python (a file in pytest's cache keeps them), and they run.
_STARTED = {}


def start_in_background(config, names):
    if "test_the_command_line_generates" in names:  # `python -m burnpy.onnx`, a fresh process

        def command(folder):
            onnx.save(small_cnn(), folder / "m.onnx")
            return [[sys.executable, "-m", "burnpy.onnx", str(folder / "m.onnx"), "--out", str(folder / "out"), "--name", "net"]]  # fmt: skip

        env = {"PYTHONPATH": str(ROOT), "PATH": ""}
        _STARTED["command line"] = background.start(config, command, 120, cwd=ROOT, env=env)
    if "test_the_node_suite" in names:
        node_suite.start(config)


def test_the_node_suite():
    """Every case of onnx's node suite passes or is refused at load: nothing mismatches,
    nothing raises while running."""
    results = node_suite.results()["imported"]
    by_result = {
        r: sorted(n for n, (_, res, _) in results.items() if res == r) for r in conformance.RESULTS
    }
    assert by_result["error"] == [], [results[n] for n in by_result["error"]]
    assert by_result["mismatch"] == [], [results[n] for n in by_result["mismatch"]]
    assert len(results) == 1884
    assert len(by_result["pass"]) >= conformance.PASSING
    passing_ops = {op for op, res, _ in results.values() if res == "pass"}
    assert len(passing_ops) >= conformance.PASSING_OPS
    docs = (ROOT / "docs" / "onnx.md").read_text()
    assert (
        f"{conformance.BEGIN}\n{conformance.supported_table(results)}\n{conformance.END}" in docs
    ), "docs/onnx.md: run `python -m burnpy.onnx.conformance --runners ours --write-docs docs/onnx.md`"


@pytest.mark.parametrize("device", DEVICES)
def test_load_runs_as_onnxruntime_does(device):
    model = small_cnn()
    x = np.random.default_rng(1).standard_normal((2, 3, 8, 8)).astype(np.float32)
    (expected,) = onnxruntime_outputs(model, x)
    imported = importer.load(model, device=DEVICES[device]())
    out = imported(x)
    assert isinstance(out, Tensor) and out.device() == DEVICES[device]()
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-4, atol=1e-5)
    # the batch dim stays dynamic; inputs may be Tensors, positional or by keyword
    x3 = np.random.default_rng(2).standard_normal((3, 3, 8, 8)).astype(np.float32)
    out3 = imported(x=Tensor.from_data(x3, device=DEVICES[device]()))
    np.testing.assert_allclose(
        np.asarray(out3), onnxruntime_outputs(model, x3)[0], rtol=1e-4, atol=1e-5
    )


def test_an_imported_model_moves_and_validates_as_any_module():
    model, x = small_cnn(), np.ones((1, 3, 8, 8), np.float32)
    trained = importer.load(model, device=Device.numpy().autodiff())
    assert trained(x).is_autodiff() and len(trained.parameters()) == 6
    inference = trained.valid()
    assert inference(x).device() == Device.numpy()
    moved = importer.load(model).to_device(Device.torch())
    assert moved(x).device() == Device.torch()
    np.testing.assert_allclose(np.asarray(moved(x)), np.asarray(inference(x)), rtol=1e-5)


def test_load_takes_a_path_bytes_or_a_model_proto(tmp_path):
    model = small_cnn()
    onnx.save(model, tmp_path / "m.onnx")
    x = np.ones((1, 3, 8, 8), np.float32)
    outs = [
        importer.load(source)(x).to_numpy()
        for source in (
            str(tmp_path / "m.onnx"),
            tmp_path / "m.onnx",
            model.SerializeToString(),
            model,
        )
    ]
    for out in outs[1:]:
        np.testing.assert_array_equal(out, outs[0])
    with pytest.raises(TypeError, match="a path, bytes or an onnx.ModelProto"):
        importer.load(42)
    with pytest.raises(FileNotFoundError):
        importer.load(tmp_path / "missing.onnx")


def test_several_outputs_come_back_as_a_tuple_in_the_graph_order():
    graph = helper.make_graph(
        [
            helper.make_node("TopK", ["x", "k"], ["values", "indices"], name="top", axis=-1),
            helper.make_node("Neg", ["values"], ["negated"], name="neg"),
        ],
        "two",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
        [
            helper.make_tensor_value_info("negated", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("indices", TensorProto.INT64, [2, 3]),
        ],
        [numpy_helper.from_array(np.array([3], np.int64), "k")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = np.random.default_rng(3).standard_normal((2, 5)).astype(np.float32)
    negated, indices = importer.load(model)(x)
    expected = onnxruntime_outputs(model, x)
    np.testing.assert_allclose(negated.to_numpy(), expected[0], rtol=1e-6)
    np.testing.assert_array_equal(indices.to_numpy(), expected[1])


def test_generate_writes_readable_deterministic_code_that_reloads(tmp_path):
    model = small_cnn()
    first = importer.generate(model, tmp_path / "a", name="cnn")
    second = importer.generate(model, tmp_path / "b", name="cnn")
    assert first == tmp_path / "a" / "cnn.py" and (tmp_path / "a" / "cnn.safetensors").is_file()
    text = first.read_text()
    assert text == second.read_text()
    assert (tmp_path / "a" / "cnn.safetensors").read_bytes() == (
        tmp_path / "b" / "cnn.safetensors"
    ).read_bytes()
    assert "class Model(nn.Module):" in text and "exec(" not in text and "eval(" not in text
    for op, name in (("Conv", "/conv/Conv"), ("Relu", "/relu/Relu"), ("Gemm", "/fc/Gemm")):
        assert f"# {op} {name}\n" in text
    assert "self.conv_weight = Tensor.zeros([4, 3, 3, 3]" in text  # named after the initializer
    assert "module.conv2d(x, self.conv_weight, self.conv_bias, padding=1)" in text
    spec = importlib.util.spec_from_file_location("cnn", first)
    generated_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generated_module)
    net = generated_module.Model(Device.numpy()).load(tmp_path / "a" / "cnn.safetensors")
    x = np.random.default_rng(4).standard_normal((2, 3, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(
        np.asarray(net(x)), onnxruntime_outputs(model, x)[0], rtol=1e-4, atol=1e-5
    )
    assert [n for n, _ in net.named_parameters()][:2] == ["conv_weight", "conv_bias"]


def test_the_command_line_generates():
    job = _STARTED["command line"]
    assert job.wait() == [0], job.output(0)
    assert (job.folder / "out" / "net.py").is_file()
    assert (job.folder / "out" / "net.safetensors").is_file()


def test_every_unsupported_node_is_named_at_once_and_nothing_is_written(tmp_path):
    graph = helper.make_graph(
        [
            helper.make_node("ImageDecoder", ["x"], ["d"], name="u", pixel_format="CMYK"),
            helper.make_node("Identity", ["d"], ["r"], name="fine"),
            helper.make_node("MyOp", ["r"], ["m"], name="custom", domain="com.example"),
            helper.make_node(
                "Loop", ["n", "c"], ["l"], name="loop", body=helper.make_graph([], "b", [], [])
            ),
        ],
        "bad",
        [
            helper.make_tensor_value_info("x", TensorProto.UINT8, [16]),
            helper.make_tensor_value_info("n", TensorProto.INT64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("m", TensorProto.FLOAT, [4])],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 20), helper.make_opsetid("com.example", 1)]
    )
    with pytest.raises(importer.UnsupportedError) as caught:
        importer.generate(model, tmp_path / "out", name="bad")
    error = caught.value
    assert isinstance(error, ValueError)
    text = str(error)
    assert "ImageDecoder node 'u' (domain ai.onnx, opset 20)" in text
    assert "pixel_format 'CMYK' is not one of RGB, BGR, Grayscale" in text
    assert "MyOp node 'custom' (domain com.example, opset 1)" in text
    assert "Loop node 'loop'" in text and "its body takes 0 inputs and gives 0 outputs" in text
    assert "'fine'" not in text and len(error.problems) == 3
    assert not (tmp_path / "out").exists()


def test_a_static_input_the_model_computes_is_refused_only_where_needed():
    """A Reshape whose shape is computed from a dynamic input is read when the model runs."""
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["s"], name="shape"),
            helper.make_node("Reshape", ["y", "s"], ["out"], name="reshape"),
        ],
        "dynamic",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 2]),
            helper.make_tensor_value_info("y", TensorProto.FLOAT, ["m"]),
        ],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    out = importer.load(model)(np.zeros((3, 2), np.float32), np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(out.to_numpy(), np.arange(6, dtype=np.float32).reshape(3, 2))


def test_external_data_loads_when_the_model_is_given_by_path(tmp_path):
    x = np.random.default_rng(5).standard_normal((1, 3, 8, 8)).astype(np.float32)
    (expected,) = onnxruntime_outputs(small_cnn(), x)
    onnx.save(small_cnn(), tmp_path / "ext.onnx", save_as_external_data=True, all_tensors_to_one_file=True, location="ext.data", size_threshold=0)  # fmt: skip
    assert (tmp_path / "ext.data").is_file()
    assert (tmp_path / "ext.onnx").stat().st_size < 1000  # the weights are in ext.data
    np.testing.assert_allclose(
        importer.load(tmp_path / "ext.onnx")(x).to_numpy(), expected, rtol=1e-4, atol=1e-5
    )


def test_narrow_ints_wrap_at_their_width():
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["c"], name="add"), helper.make_node("Mul", ["a", "b"], ["d"], name="mul")],
        "narrow",
        [helper.make_tensor_value_info(n, TensorProto.UINT8, [3]) for n in "ab"],
        [helper.make_tensor_value_info(n, TensorProto.UINT8, [3]) for n in "cd"],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    a, b = np.array([250, 3, 128], np.uint8), np.array([10, 4, 2], np.uint8)
    c, d = importer.load(model)(a, b)
    expected = onnxruntime_outputs(model, a, b)
    np.testing.assert_array_equal(np.asarray(c).astype(np.uint8), expected[0])
    np.testing.assert_array_equal(np.asarray(d).astype(np.uint8), expected[1])


def qdq_mlp() -> onnx.ModelProto:
    """A QDQ model as quantizing exporters write it: int8 weights (per output column, and per
    block of 8 rows) and an int4 one (per tensor) read through DequantizeLinear, the activation quantized to uint8 and back
    between the layers."""
    rng = np.random.default_rng(7)

    def const(name, array):
        return numpy_helper.from_array(array, name)

    nodes = [
        helper.make_node("DequantizeLinear", ["w1", "w1_scale"], ["w1f"], name="dq_w1", axis=1),
        helper.make_node("MatMul", ["x", "w1f"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["r"], name="relu"),
        helper.make_node("QuantizeLinear", ["r", "a_scale", "a_zero"], ["rq"], name="q_act"),
        helper.make_node("DequantizeLinear", ["rq", "a_scale", "a_zero"], ["rf"], name="dq_act"),
        helper.make_node("DequantizeLinear", ["w2", "w2_scale", "w2_zero"], ["w2f"], name="dq_w2", axis=0, block_size=8),
        helper.make_node("MatMul", ["rf", "w2f"], ["z"], name="fc2"),
        helper.make_node("DequantizeLinear", ["w3", "w3_scale"], ["w3f"], name="dq_w3"),
        helper.make_node("MatMul", ["z", "w3f"], ["y"], name="fc3"),
    ]  # fmt: skip
    inits = [
        const("w1", rng.integers(-128, 128, (16, 32)).astype(np.int8)),
        const("w1_scale", rng.uniform(0.01, 0.03, 32).astype(np.float32)),
        const("a_scale", np.array(0.05, np.float32)),
        const("a_zero", np.array(0, np.uint8)),
        const("w2", rng.integers(-127, 128, (32, 4)).astype(np.int8)),
        const("w2_scale", rng.uniform(0.01, 0.03, (4, 4)).astype(np.float32)),
        const("w2_zero", np.zeros((4, 4), np.int8)),
        const("w3", rng.integers(-8, 8, (4, 4)).astype(ml_dtypes.int4)),
        const("w3_scale", np.array(0.1, np.float32)),
    ]
    graph = helper.make_graph(
        nodes,
        "qdq_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


def test_a_qdq_model_keeps_its_int8_weights_quantized(tmp_path):
    model = qdq_mlp()
    x = np.random.default_rng(8).standard_normal((3, 16)).astype(np.float32)
    # onnx's reference evaluator: onnxruntime fuses QDQ into integer kernels that quantize the
    # activations too, so its values differ from the graph's by design
    (expected,) = ReferenceEvaluator(model).run(None, {"x": x})
    imported = importer.load(model)
    np.testing.assert_allclose(imported(x).to_numpy(), expected, rtol=1e-5, atol=1e-5)
    w1, w2 = imported.w1, imported.w2
    assert w1.is_quantized() and w2.is_quantized()
    assert imported.w3.scheme().value is QuantValue.Q4F
    np.testing.assert_array_equal(w1.quantized_values(), numpy_helper.to_array(model.graph.initializer[0]))  # fmt: skip
    assert w1.quantized_scales().shape == (1, 32) and w2.quantized_scales().shape == (4, 4)
    path = importer.generate(model, tmp_path, name="qdq")
    assert "self.w1.dequantize()" in path.read_text()
    with safe_open(tmp_path / "qdq.safetensors", "numpy") as f:
        assert f.get_tensor("w1").dtype == np.int8 and f.get_tensor("w1.scales").shape == (1, 32)
        assert f.get_tensor("w3").dtype == np.uint32  # 16 int4 values packed into 2 words
    spec = importlib.util.spec_from_file_location("qdq", path)
    generated_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generated_module)
    net = generated_module.Model(Device.numpy()).load(tmp_path / "qdq.safetensors")
    assert net.w2.is_quantized()
    np.testing.assert_allclose(net(x).to_numpy(), expected, rtol=1e-5, atol=1e-5)
