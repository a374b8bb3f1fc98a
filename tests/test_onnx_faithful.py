"""An imported model behaves as the source model: a graph input's static dims are checked when
the model is called (as onnxruntime checks them); scalar constants and the initializers ONNX
reads as constants are buffers, not parameters; an exporter's aliases of one initializer are
reported, and can be untied; bool masks go through GatherND / Gather / Where / Expand; a model
cast to another float dtype takes its inputs in that dtype.

transformers' own BertModel and GPT2LMHeadModel (benches/transformer_exports.py: small configs,
seeded, no download), exported by both of torch's exporters, equal onnxruntime and take Adam
steps."""

import warnings
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import background  # noqa: E402
import hf_exports as hf_exports_job  # noqa: E402
from benches import transformer_exports  # noqa: E402
from burnpy import nn, optim  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F, B, I64 = TensorProto.FLOAT, TensorProto.BOOL, TensorProto.INT64


def value(name, shape, kind=F):
    return helper.make_tensor_value_info(name, kind, shape)


def model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "faithful", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def array(name, values, dtype=np.float32):
    return numpy_helper.from_array(np.asarray(values, dtype=dtype), name)


def session(source):
    data = source if isinstance(source, str) else source.SerializeToString()
    return ort.InferenceSession(data, providers=["CPUExecutionProvider"])


# -- static dims -----------------------------------------------------------------------------


def two_inputs():
    return model(
        [helper.make_node("Add", ["x", "y"], ["out"], name="add")],
        [value("x", [2, 3]), value("y", ["n", 3])],
        [value("out", [2, 3])],
    )


@pytest.mark.parametrize("device", DEVICES)
def test_a_static_dim_is_checked_when_the_model_is_called(device):
    proto = two_inputs()
    imported = importer.load(proto, device=DEVICES[device]())
    good = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(imported(good, np.ones((1, 3), np.float32)).to_numpy(), 2 * good)
    for x, y in [(np.ones((4, 3)), np.ones((1, 3))), (np.ones(2), np.ones((1, 3))), (good, np.ones((2, 3, 1)))]:  # fmt: skip
        x, y = x.astype(np.float32), y.astype(np.float32)
        with pytest.raises(Exception):  # onnxruntime refuses it too
            session(proto).run(None, {"x": x, "y": y})
        with pytest.raises(ValueError, match="input '[xy]' has shape .* the model declares"):
            imported(x, y)
    with pytest.raises(ValueError, match=r"input 'x' has shape \[5\], but the model declares \[2, 3\]"):  # fmt: skip
        imported(np.ones(5, np.float32), good)
    tensor = Tensor.from_data(np.ones((3, 3), np.float32), device=DEVICES[device]())
    with pytest.raises(ValueError, match=r"input 'x' has shape \[3, 3\], but the model declares \[2, 3\]"):  # fmt: skip
        imported(tensor, good)


def test_a_five_element_input_to_a_declared_two_is_refused():
    proto = model([helper.make_node("Neg", ["x"], ["y"], name="neg")], [value("x", [2])], [value("y", [2])])  # fmt: skip
    with pytest.raises(Exception):
        session(proto).run(None, {"x": np.ones(5, np.float32)})
    with pytest.raises(ValueError, match=r"input 'x' has shape \[5\], but the model declares \[2\]"):  # fmt: skip
        importer.load(proto)(np.ones(5, np.float32))


def test_a_dynamic_dim_stays_free():
    proto = model(
        [helper.make_node("Relu", ["x"], ["y"], name="r")],
        [value("x", ["batch", None, 4])],
        [value("y", ["batch", None, 4])],
    )
    imported = importer.load(proto)
    for shape in [(1, 1, 4), (7, 5, 4)]:
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        np.testing.assert_array_equal(imported(x).to_numpy(), session(proto).run(None, {"x": x})[0])
    with pytest.raises(ValueError, match=r"declares \[\?, \?, 4\]"):
        imported(np.ones((1, 1, 5), np.float32))


# -- parameters and buffers ------------------------------------------------------------------


def constants_model():
    """A weight (a parameter), GELU's exponent and a fill value (scalars), a one-element
    scale, and a two-element exponent read only as Pow's exponent: buffers."""
    return model(
        [
            helper.make_node("MatMul", ["x", "weight"], ["h"], name="mm"),
            helper.make_node("Pow", ["h", "three"], ["cube"], name="pow"),
            helper.make_node("Mul", ["cube", "scale"], ["scaled"], name="mul"),
            helper.make_node("Pow", ["scaled", "exponents"], ["p"], name="pow2"),
            helper.make_node("Greater", ["p", "zero"], ["keep"], name="gt"),
            helper.make_node("Where", ["keep", "p", "fill"], ["y"], name="where"),
        ],
        [value("x", ["n", 3])],
        [value("y", ["n", 2])],
        [
            array("weight", np.random.default_rng(0).standard_normal((3, 2))),
            array("three", 3.0),
            array("scale", [0.5]),
            array("exponents", [1.0, 1.0]),
            array("zero", 0.0),
            array("fill", -3.4e38),
        ],
    )


def test_scalars_and_constants_become_buffers_and_parameters_says_otherwise():
    imported = importer.load(constants_model())
    assert [name for name, _ in imported.named_parameters()] == ["weight"]
    buffers = {name for name, _ in imported.state_tensors()} - {"weight"}
    assert {"three", "scale", "exponents", "fill", "zero"} >= buffers
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    (expected,) = session(constants_model()).run(None, {"x": x})
    np.testing.assert_allclose(imported(x).to_numpy(), expected, rtol=1e-6)
    chosen = importer.load(constants_model(), parameters=["weight", "scale", "exponents"])
    assert {name for name, _ in chosen.named_parameters()} == {"weight", "scale", "exponents"}
    np.testing.assert_allclose(chosen(x).to_numpy(), expected, rtol=1e-6)
    with pytest.raises(ValueError, match=r"parameters= names \['nope'\], which are not float initializers"):  # fmt: skip
        importer.load(constants_model(), parameters=["weight", "nope"])


def test_adam_leaves_the_scalar_constants_alone():
    """Adam moves every parameter by about its learning rate whatever its gradient: a fill
    value of -3.4e38 or an exponent among them would break the model."""
    device = Device.numpy().autodiff()
    imported = importer.load(constants_model(), device=device)
    before = {name: t.to_numpy().copy() for name, t in imported.state_tensors()}
    x = Tensor.from_data(np.random.default_rng(2).standard_normal((4, 3)).astype(np.float32), device=device)  # fmt: skip
    adam = optim.Adam(0.1)
    for _ in range(3):
        loss = imported(x).clamp(-10.0, 10.0).square().mean()
        adam.step(imported, loss.backward(), lr=0.1)
    for name, tensor in imported.state_tensors():
        moved = not np.array_equal(tensor.to_numpy(), before[name])
        assert moved == (name == "weight"), name


def aliased():
    """What torch's TorchScript exporter writes for two LayerNorms whose initial weights are
    equal: one initializer, and an Identity for the second's."""
    return model(
        [
            helper.make_node("Identity", ["a.weight"], ["b.weight"], name="alias"),
            helper.make_node("Mul", ["x", "a.weight"], ["h"], name="first"),
            helper.make_node("Add", ["h", "b.weight"], ["y"], name="second"),
        ],
        [value("x", [2, 3])],
        [value("y", [2, 3])],
        [array("a.weight", [1.0, 2.0, 3.0])],
    )


def test_an_exporters_aliases_are_reported_and_can_be_untied():
    x = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
    (expected,) = session(aliased()).run(None, {"x": x})
    with pytest.warns(importer.TiedParametersWarning, match=r"'a.weight' also as 'b.weight'.*untie=True"):  # fmt: skip
        tied = importer.load(aliased())
    assert len(tied.parameters()) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        untied = importer.load(aliased(), untie=True, device=Device.numpy().autodiff())
    assert {name for name, _ in untied.named_parameters()} == {"a_weight", "b_weight"}
    np.testing.assert_allclose(untied(x).to_numpy(), expected, rtol=1e-6)
    grads = untied(x).sum().backward()
    optim.SGD(0.1).step(untied, grads, lr=0.1)
    assert not np.allclose(untied.a_weight.to_numpy(), untied.b_weight.to_numpy())


def test_the_command_line_unties(tmp_path):
    from burnpy.onnx.__main__ import main

    onnx.save(aliased(), tmp_path / "m.onnx")
    assert main([str(tmp_path / "m.onnx"), "--out", str(tmp_path / "out"), "--untie"]) == 0
    text = (tmp_path / "out" / "model.py").read_text()
    assert "self.a_weight = Tensor.zeros" in text and "self.b_weight = Tensor.zeros" in text


# -- bool tensors ----------------------------------------------------------------------------

MASK = np.array([[1, 0, 1], [0, 1, 1]], bool)
BOOL_CASES = {
    "GatherND": (
        model([helper.make_node("GatherND", ["m", "i"], ["y"], name="g")], [value("m", [2, 3], B), value("i", [2, 1], I64)], [value("y", [2, 3], B)]),
        [MASK, np.array([[1], [0]])],
    ),
    "Gather": (
        model([helper.make_node("Gather", ["m", "i"], ["y"], name="g", axis=1)], [value("m", [2, 3], B), value("i", [2], I64)], [value("y", [2, 2], B)]),
        [MASK, np.array([2, 0])],
    ),
    "Where": (
        model([helper.make_node("Where", ["m", "a", "b"], ["y"], name="w")], [value("m", [2, 3], B), value("a", [2, 3], B), value("b", [1, 3], B)], [value("y", [2, 3], B)]),
        [MASK, ~MASK, np.array([[True, False, True]])],
    ),
    "Expand": (
        model([helper.make_node("Expand", ["m", "s"], ["y"], name="e")], [value("m", [1, 3], B), value("s", [2], I64)], [value("y", None, B)]),
        [MASK[:1], np.array([2, 3])],
    ),
}  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("op", BOOL_CASES)
def test_bool_masks_move_through_gathers_where_and_expand(op, device):
    proto, inputs = BOOL_CASES[op]
    evaluator = ReferenceEvaluator(proto)  # onnxruntime has no bool Where
    (expected,) = evaluator.run(None, dict(zip(evaluator.input_names, inputs)))
    out = importer.load(proto, device=DEVICES[device]())(*inputs).to_numpy()
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, expected)


# -- a cast model ----------------------------------------------------------------------------


def mlp():
    rng = np.random.default_rng(4)
    return model(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="mm"), helper.make_node("Add", ["h", "b"], ["a"], name="add"), helper.make_node("Relu", ["a"], ["y"], name="relu")],
        [value("x", ["n", 4])],
        [value("y", ["n", 3])],
        [array("w", rng.standard_normal((4, 3))), array("b", rng.standard_normal(3))],
    )  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_a_cast_model_takes_its_inputs_in_its_dtype(dtype, device):
    x = np.random.default_rng(5).standard_normal((2, 4)).astype(np.float32)
    (expected,) = session(mlp()).run(None, {"x": x})
    imported = importer.load(mlp(), device=DEVICES[device]()).cast(dtype)
    tolerance = {"float16": 1e-2, "bfloat16": 5e-2, "float64": 1e-6}[dtype]
    for given in (x, Tensor.from_data(x, device=DEVICES[device]())):
        out = imported(given)
        assert str(out.dtype) == dtype
        np.testing.assert_allclose(out.to_numpy().astype(np.float32), expected, rtol=tolerance, atol=tolerance)  # fmt: skip


# -- transformers' GPT-2 and BERT, as both exporters write them ------------------------------


def start_in_background(config, names):
    if background.tests_taking(globals(), "hf_exports") & {*names}:
        hf_exports_job.MADE.start(config)


@pytest.fixture(scope="module")
def hf_exports() -> Path:
    return hf_exports_job.MADE.folder()


@pytest.mark.parametrize("how", transformer_exports.EXPORTERS)
@pytest.mark.parametrize("name", transformer_exports.NAMES)
def test_transformers_bert_and_gpt2_equal_onnxruntime_and_take_adam_steps(hf_exports, name, how):
    """transformers' BertModel and GPT2LMHeadModel (a padded batch: the masks' bool GatherND,
    Where on the float minimum, gelu_new's pow 3.0, erf GELU, the head tied to the embedding)."""
    path = str(hf_exports / f"{name}-{how}.onnx")
    given = transformer_exports.inputs(2, 8)
    expected = session(path).run(None, given)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", importer.TiedParametersWarning)
        for device in DEVICES.values():
            outputs = importer.load(path, device=device())(*given.values())
            outputs = outputs if isinstance(outputs, tuple) else (outputs,)
            assert len(outputs) == len(expected)
            for out, want in zip(outputs, expected):
                np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-5)
        device = Device.numpy().autodiff()
        imported = importer.load(path, device=device)

    def first(outputs):
        return outputs[0] if isinstance(outputs, tuple) else outputs

    assert all(int(np.prod(p.shape)) > 1 for p in imported.parameters())
    target = Tensor.from_data(np.random.default_rng(8).standard_normal(expected[0].shape).astype(np.float32), device=device)  # fmt: skip
    adam, losses = optim.Adam(1e-3), []
    for _ in range(3):
        loss = nn.functional.mse_loss(first(imported(*given.values())), target)
        adam.step(imported, loss.backward(), lr=1e-3)
        losses.append(loss.item())
    assert all(np.isfinite(losses)) and losses[-1] < losses[0], losses
    assert all(np.isfinite(p.to_numpy()).all() for p in imported.parameters())


def test_the_legacy_exporters_aliases_are_reported_and_untied(hf_exports):
    """The legacy exporter writes one initializer for weights of equal values (GPT-2's
    LayerNorms start at ones and zeros): untied, there is one parameter per torch parameter, and
    the head tied to the token embedding, which it writes as a transposed copy."""
    path = hf_exports / "gpt2-legacy.onnx"
    with pytest.warns(importer.TiedParametersWarning, match="'model.transformer.h.0.ln_1.weight' also as .*'model.transformer.ln_f.weight'"):  # fmt: skip
        tied = importer.load(path)
    untied = importer.load(path, untie=True)
    source = np.load(hf_exports / "gpt2.npz")
    untied_named = dict(untied.named_parameters())
    for name in source.files:
        np.testing.assert_array_equal(untied_named.pop("model_" + name.replace(".", "_")).to_numpy(), source[name])  # fmt: skip
    ((_, head),) = untied_named.items()
    np.testing.assert_array_equal(head.to_numpy(), source["transformer.wte.weight"].T)
    assert len(tied.parameters()) < len(untied.parameters())
    given = transformer_exports.inputs(2, 8).values()
    np.testing.assert_array_equal(untied(*given).to_numpy(), tied(*given).to_numpy())


@pytest.mark.parametrize("how", transformer_exports.EXPORTERS)
def test_gpt2_exported_at_one_shape_refuses_another_as_onnxruntime_does(hf_exports, how):
    path = str(hf_exports / f"gpt2-{how}-static.onnx")
    given = transformer_exports.inputs(1, 16)
    with pytest.raises(Exception):
        session(path).run(None, given)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", importer.TiedParametersWarning)
        imported = importer.load(path)
    with pytest.raises(ValueError, match=r"input 'input_ids' has shape \[1, 16\], but the model declares \[2, 8\]"):  # fmt: skip
        imported(*given.values())


def test_a_cast_gpt2_runs_in_float64(hf_exports):
    path = str(hf_exports / "gpt2-dynamo.onnx")
    given = transformer_exports.inputs(2, 8)
    (expected,) = session(path).run(None, given)
    out = importer.load(path).cast("float64")(*given.values())
    assert str(out.dtype) == "float64"
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-4, atol=1e-5)
