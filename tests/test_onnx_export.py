"""burnpy.onnx.export: models recorded and lowered by the catalogue's `onnx:` keys, run by
onnxruntime and onnx's reference evaluator against burnpy's own outputs; every kernel without a
lowering named at once; the `onnx:` key validated; ONNX's node suite in reverse."""

import re
import sys
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx.reference import ReferenceEvaluator  # noqa: E402
from onnx.reference.op_run import OpRun  # noqa: E402

import background  # noqa: E402
import hf_exports  # noqa: E402
import node_suite  # noqa: E402
from burnpy import Device, Tensor, nn  # noqa: E402
from burnpy.generated import Distribution  # noqa: E402
from burnpy import onnx as burnpy_onnx  # noqa: E402
from burnpy.codegen.load import load  # noqa: E402
from burnpy.codegen.validate import CatalogueErrors, validate  # noqa: E402
from burnpy.generated import module  # noqa: E402
from burnpy.onnx import export  # noqa: E402
from burnpy.onnx.exporter import suite  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
# The reverse node suite: at least these imported cases pass when exported (docs/onnx.md)
EXPORT_PASSING = {"onnxruntime": 1796, "reference": 1803}


def run_onnxruntime(proto, **inputs):
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, inputs)


class GatherElements(OpRun):
    """GatherElements for the reference evaluator, whose own goes through np.choose, which
    takes at most 64 choices along the axis (BERT gathers along 128 positions)."""

    def _run(self, data, indices, axis=None):
        indices = np.where(indices < 0, indices + data.shape[axis], indices)
        return (np.take_along_axis(data, indices, axis=axis),)


def run_reference(proto, **inputs):
    return ReferenceEvaluator(proto, new_ops=[GatherElements]).run(None, inputs)


class SmallCnn(nn.Module):
    """Conv, eval-mode batch norm, ReLU, max pool, adaptive pool, flatten, linear."""

    def __init__(self, device):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, device=device)
        self.norm = nn.BatchNorm(4, device=device)
        self.fc = nn.Linear(4 * 2 * 2, 5, device=device)

    def forward(self, x):
        x = module.max_pool2d(self.norm(self.conv(x)).relu(), 2, stride=2)
        x = module.adaptive_avg_pool2d(x, 2)
        return self.fc(x.reshape([x.shape[0], -1])).softmax(1)


def _agree(expected, *actual):
    for got in actual:
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("device", DEVICES)
def test_a_cnn_exports_with_a_dynamic_batch_and_runs_as_burnpy_does(device, tmp_path):
    dev = DEVICES[device]()
    model = SmallCnn(dev).eval()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    path = tmp_path / "cnn.onnx"
    proto = export(model, (x,), path, dynamic_axes={"x": {0: "batch"}, "output": {0: "batch"}})
    assert onnx.load(str(path)) == proto
    onnx.checker.check_model(proto, full_check=True)
    names = {i.name for i in proto.graph.initializer}
    assert {"conv.weight", "conv.bias", "fc.weight", "fc.bias", "norm.running_mean"} <= names
    assert [i.name for i in proto.graph.input] == ["x"]
    for batch in (2, 5):
        x = rng.standard_normal((batch, 3, 8, 8)).astype(np.float32)
        expected = model(Tensor.from_data(x, device=dev)).to_numpy()
        _agree(expected, run_onnxruntime(proto, x=x)[0], run_reference(proto, x=x)[0])


def test_a_function_of_tensors_exports_with_its_names():
    def gate(x, y):
        return (x * y.sigmoid()).sum_dim(1), x.matmul(y.T)

    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal((3, 4)).astype(np.float32) for _ in range(2))
    proto = export(gate, (x, y), output_names=["gated", "product"])
    assert [o.name for o in proto.graph.output] == ["gated", "product"]
    got = run_onnxruntime(proto, x=x, y=y)
    _agree((x / (1 + np.exp(-y))).sum(1, keepdims=True), got[0])
    _agree(x @ y.T, got[1])


def test_the_exported_file_imports_back_to_the_same_outputs():
    dev = Device.numpy()
    model = SmallCnn(dev).eval()
    x = np.random.default_rng(2).standard_normal((3, 3, 8, 8)).astype(np.float32)
    proto = export(model, (x,))
    again = burnpy_onnx.load(proto)
    expected = model(Tensor.from_data(x, device=dev)).to_numpy()
    np.testing.assert_allclose(again(x).to_numpy(), expected, rtol=1e-5, atol=1e-6)


def test_every_kernel_without_a_lowering_is_named_at_once_and_nothing_is_written(tmp_path):
    def model(x):
        return x.atan2(x.exp()) + x.cummin(0)

    path = tmp_path / "m.onnx"
    with pytest.raises(burnpy_onnx.UnsupportedError) as raised:
        export(model, (np.ones((2, 3), np.float32),), path)
    problems = raised.value.problems
    assert [p.split(":")[0] for p in problems] == ["float_atan2", "float_cummin"]
    assert "nothing was written" in str(raised.value)
    assert list(tmp_path.iterdir()) == []


def test_an_input_read_as_data_is_refused_and_one_read_as_a_shape_is_fixed():
    def reads_data(x):
        return Tensor.from_data(x.to_numpy() * 2)

    with pytest.raises(burnpy_onnx.UnsupportedError, match="reads the values of input x"):
        export(reads_data, (np.ones((3, 4), np.float32),))

    def reshapes(x, shape):
        return x.reshape([int(d) for d in shape.to_numpy()])

    x, shape = np.arange(6, dtype=np.float32), np.array([2, 3], np.int64)
    with pytest.warns(UserWarning, match="reads the value of shape"):
        proto = export(reshapes, (x, shape))
    assert [i.name for i in proto.graph.input] == ["x"]
    np.testing.assert_array_equal(run_onnxruntime(proto, x=x)[0], x.reshape(2, 3))


def test_a_model_that_branches_on_an_input_is_refused_not_exported_on_one_path():
    """An imported If whose condition is an input: fixing the condition would write a file that
    computes the branch taken for every input."""
    h = onnx.helper
    branch = {
        name: h.make_graph(
            [h.make_node(op, ["x"], [f"{name}_y"])],
            name,
            [],
            [h.make_tensor_value_info(f"{name}_y", onnx.TensorProto.FLOAT, [3])],
        )
        for name, op in (("then", "Relu"), ("otherwise", "Neg"))
    }
    graph = h.make_graph(
        [
            h.make_node(
                "If", ["cond"], ["y"], then_branch=branch["then"], else_branch=branch["otherwise"]
            )
        ],
        "branches",
        [
            h.make_tensor_value_info("cond", onnx.TensorProto.BOOL, []),
            h.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3]),
        ],
        [h.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3])],
    )
    model = burnpy_onnx.load(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]))
    x = np.array([-1.0, 0.5, 2.0], np.float32)
    np.testing.assert_array_equal(model(np.array(False), x).to_numpy(), -x)  # it runs eagerly
    with pytest.raises(burnpy_onnx.UnsupportedError, match="reads the values of input cond"):
        export(model, (np.array(True), x))


def test_bad_arguments_are_named():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="opset 9"):
        export(lambda x: x.exp(), (x,), opset=9)
    with pytest.raises(ValueError, match="not inputs or outputs"):
        export(lambda x: x.exp(), (x,), dynamic_axes={"y": {0: "batch"}})
    with pytest.raises(ValueError, match="input_names"):
        export(lambda x: x.exp(), (x,), input_names=["a", "b"])


def _catalogue(onnx_line: str) -> str:
    return f"""
backends:
  - name: numpy
    variant: NumPy
    module: burnpy.runtime.backends.numpy
    devices: [cpu]
ops:
  - name: float_exp
    kind: float
    args: [tensor: float]
    returns: float
    routing: tensor
    autodiff: memory_bound
    method: exp
    doc: e to the x.
    {onnx_line}
"""


@pytest.mark.parametrize(
    "line, message",
    [
        ("onnx: Exp(x)", "names 'x', which is not an argument"),
        ("onnx: Exp(tensor, to=tensor)", "attribute to of Exp is the tensor tensor"),
        ("onnx: {function: no_such}", "names no function 'no_such'"),
        ("onnx: {function: conv, op: Exp}", "is not `{function: NAME}`"),
        ("onnx: Exp(tensor", "does not parse"),
    ],
)
def test_a_wrong_onnx_key_is_named_with_its_line(tmp_path, line, message):
    path = tmp_path / "ops.yaml"
    path.write_text(_catalogue(line))
    with pytest.raises(CatalogueErrors) as raised:
        validate(str(path), load(str(path)))
    assert message in str(raised.value)
    assert "ops.yaml:16: float_exp" in str(raised.value)


def test_every_operator_and_attribute_a_lowering_names_is_onnx_s():
    from burnpy.generated.onnx import LOWERINGS

    def nodes(node):
        yield node
        for item in node["inputs"]:
            if isinstance(item, dict) and "op" in item:
                yield from nodes(item)

    for op, (_, lowering) in LOWERINGS.items():
        if "function" in lowering:
            continue
        for node in nodes(lowering):
            schema = onnx.defs.get_schema(node["op"])  # raises for an unknown operator
            assert set(node["attributes"]) <= set(schema.attributes), (op, node["op"])


def test_explain_and_the_op_reference_show_the_lowering(capsys):
    from burnpy.codegen.__main__ import main

    assert main(["explain", "leaky_relu", "--ops", str(ROOT / "ops.yaml")]) == 0
    shown = capsys.readouterr().out
    assert "onnx:\n  `LeakyRelu(tensor, alpha=negative_slope)`" in shown
    reference = (ROOT / "docs" / "ops.md").read_text()
    assert "| conv2d | `lowerings.conv` |" in reference
    assert "| float_atan2 | — |" in reference


def test_the_docs_export_example_runs(tmp_path, monkeypatch):
    text = (ROOT / "docs" / "onnx.md").read_text()
    code = re.search(r"## Export\n.*?```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/onnx.md", "exec"), {})  # noqa: S102 (the page's own example)
    assert (tmp_path / "mlp.onnx").is_file()


# The node suite in reverse runs in a child process queued with the session (tests/background.py)
_STARTED = {}


def _command_lines(folder):
    export = [sys.executable, "-m", "burnpy.onnx", "export", "tiny_factory:make"]
    return [
        export + ["--args", "2x3,3x4", "--out", str(folder / "m.onnx"), "--dynamic-batch"],
        export + ["--args", "2y3", "--out", str(folder / "bad.onnx")],
    ]


def start_in_background(config, names):
    if "test_the_export_command_line_writes_a_factory_s_model" in names:  # a fresh process
        env = {"PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}", "PATH": ""}
        _STARTED["command line"] = background.start(config, _command_lines, 120, cwd=ROOT, env=env)
    if background.tests_taking(globals(), "exported") & {*names}:
        hf_exports.MADE.start(config)
    if "test_the_node_suite_in_reverse" in names:
        node_suite.start(config, reverse=True)


def test_the_node_suite_in_reverse():
    """Every case the importer passes, exported again: none wrong, at least the documented
    passes, and docs/onnx.md's table current."""
    results = node_suite.results()["exported"]
    for runner, by_case in results.items():
        wrong = [n for n, (_, r, _) in by_case.items() if r == "mismatch"]
        assert wrong == [], (runner, wrong)
        passing = sum(r == "pass" for _, r, _ in by_case.values())
        assert passing >= EXPORT_PASSING[runner], runner
    assert suite.summary(results) in (ROOT / "docs" / "onnx.md").read_text()


def _real_models(device):
    from benches.real_models import GPT2, ResNet18
    from examples.char_transformer import CharTransformer

    rng = np.random.default_rng(3)
    return {
        "resnet18": (
            ResNet18(10, device=device).eval(),
            lambda b: rng.standard_normal((b, 3, 32, 32)).astype(np.float32),
        ),
        "gpt2": (
            GPT2(100, 32, 64, 4, 2, device=device).eval(),
            lambda b: rng.integers(0, 100, (b, 16)).astype(np.int64),
        ),
        "char transformer": (
            CharTransformer(50, context=32, dropout=0.0, device=device).eval(),
            lambda b: rng.integers(0, 50, (b, 16)).astype(np.int64),
        ),
    }


@pytest.mark.parametrize("backend", DEVICES)
@pytest.mark.parametrize("name", ["resnet18", "gpt2", "char transformer"])
def test_real_models_export_with_a_dynamic_batch_and_import_back(name, backend):
    """onnxruntime and the reference evaluator equal burnpy at two batch sizes; the exported
    file, imported again, gives the same outputs."""
    dev = DEVICES[backend]()
    model, make = _real_models(dev)[name]
    axes = {"x": {0: "batch"}, "output": {0: "batch"}}
    proto = export(model, (make(2),), input_names=["x"], dynamic_axes=axes)
    again = burnpy_onnx.load(proto)
    for batch in (2, 3):
        x = make(batch)
        expected = model(Tensor.from_data(x, device=dev)).to_numpy()
        _agree(expected, run_onnxruntime(proto, x=x)[0], run_reference(proto, x=x)[0])
        _agree(expected, again(x).to_numpy())


def test_a_quantized_model_exports_as_qdq_with_int8_weights():
    """Each Q8S parameter is an int8 initializer read by DequantizeLinear: the reference
    evaluator equals burnpy; onnxruntime, which runs such a pattern on int8 kernels, agrees
    within one quantization step."""
    from burnpy.generated import QuantScheme, QuantStore, QuantValue
    from examples.digits_cnn import DigitsCNN

    dev = Device.numpy()
    scheme = QuantScheme().with_store(QuantStore.NATIVE).with_value(QuantValue.Q8S)
    model = DigitsCNN(dev).eval().quantize_weights(nn.Quantizer(scheme=scheme))
    x = np.random.default_rng(4).random((4, 1, 8, 8)).astype(np.float32)
    proto = export(model, (x,), dynamic_axes={"images": {0: "batch"}})
    weights = {i.name: i for i in proto.graph.initializer}
    assert weights["conv1.weight"].data_type == onnx.TensorProto.INT8
    assert sum(n.op_type == "DequantizeLinear" for n in proto.graph.node) == 6
    expected = model(Tensor.from_data(x, device=dev)).to_numpy()
    _agree(expected, run_reference(proto, images=x)[0])
    step = max(float(onnx.numpy_helper.to_array(i)) for n, i in weights.items() if "scale" in n)
    assert np.abs(run_onnxruntime(proto, images=x)[0] - expected).max() <= step


def test_an_imported_torchvision_model_fine_tuned_one_step_exports_back():
    """mobilenet_v3_small from torchvision, imported, one SGD step with momentum, exported
    with a dynamic batch: onnxruntime equals burnpy at two batch sizes."""
    import io

    torch = pytest.importorskip("torch")
    from benches.real_models import register_torchvision_schemas, torchvision_mobilenet_v3_small

    register_torchvision_schemas(torch)  # (before torchvision loads: its extension may not)
    pytest.importorskip("torchvision")
    from burnpy import optim
    from burnpy.nn.functional import cross_entropy

    net = torchvision_mobilenet_v3_small(torch, 10).eval()
    buffer = io.BytesIO()
    axes = {"x": {0: "batch"}, "y": {0: "batch"}}
    example = torch.randn(1, 3, 32, 32)
    torch.onnx.export(
        net, (example,), buffer, dynamo=False, opset_version=17, input_names=["x"],
        output_names=["y"], dynamic_axes=axes,
    )  # fmt: skip
    dev = Device.numpy().autodiff()
    with pytest.warns(UserWarning):  # torch's exporter writes equal biases once
        model = burnpy_onnx.load(buffer.getvalue(), device=dev)
    rng = np.random.default_rng(5)
    x = Tensor.from_data(rng.standard_normal((4, 3, 32, 32)).astype(np.float32), device=dev)
    labels = Tensor.from_data(rng.integers(0, 10, 4), device=dev)
    optim.SGD(0.05, momentum=0.9).step(model, cross_entropy(model(x), labels).backward(), lr=0.05)
    model = model.eval()
    proto = export(model, (x.to_numpy(),), input_names=["x"], dynamic_axes={"x": {0: "batch"}})
    for batch in (2, 3):
        xb = rng.standard_normal((batch, 3, 32, 32)).astype(np.float32)
        _agree(model(xb).to_numpy(), run_onnxruntime(proto, x=xb)[0])


@pytest.fixture(scope="module")
def exported() -> Path:
    """transformers' BERT and GPT-2 exported by torch (tests/hf_exports.py)."""
    return hf_exports.MADE.folder()


def test_transformers_bert_imported_and_fine_tuned_one_step_exports_back(exported):
    """transformers' BertModel exported by torch, imported, one SGD step with momentum,
    exported with a dynamic batch: onnxruntime and the reference evaluator equal burnpy at two
    batch sizes (the attention mask BERT builds from its input's shape is computed at run
    time, not fixed at the recorded batch), and the file imported again gives the same
    outputs."""
    from benches import transformer_exports as models
    from burnpy import optim

    dev = Device.numpy().autodiff()
    model = burnpy_onnx.load(exported / "bert-legacy.onnx", device=dev, untie=True)
    ids, mask = (Tensor.from_data(a, device=dev) for a in models.inputs(4, 8, seed=1).values())
    last, pooled = model(ids, mask)
    loss = last.square().mean() + pooled.square().mean()
    optim.SGD(0.05, momentum=0.9).step(model, loss.backward(), lr=0.05)
    model = model.eval()
    names = ["input_ids", "attention_mask"]
    proto = export(
        model,
        tuple(models.inputs(2, 8).values()),
        input_names=names,
        output_names=["last_hidden_state", "pooler_output"],
        dynamic_axes={name: {0: "batch"} for name in names},
    )
    assert "Range" in {n.op_type for n in proto.graph.node}
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    evaluator = ReferenceEvaluator(proto, new_ops=[GatherElements])
    again = burnpy_onnx.load(proto)
    for batch in (2, 3):
        feed = models.inputs(batch, 8, seed=batch)
        expected = [out.to_numpy() for out in model(*feed.values())]
        runs = [session.run(None, feed), evaluator.run(None, feed)]
        runs.append([out.to_numpy() for out in again(*feed.values())])
        for outputs in runs:
            assert len(outputs) == 2
            for got, want in zip(outputs, expected):
                _agree(want, got)


def _digits_step(model, opt, images, labels, lr):
    from burnpy.nn.functional import cross_entropy

    loss = cross_entropy(model(images), labels)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def _optimizer(make):
    from burnpy import optim

    if make == "sgd":
        return optim.SGD(0.01, momentum=0.9)
    clip = 0.05 if make == "adamw clipped" else None  # (every gradient of these steps clips)
    return optim.AdamW(0.01, weight_decay=1e-4, grad_clip_norm=clip)


def _run_exported_step(step, model, opt, batch: dict, lr: float, run=run_onnxruntime):
    """Export one call of `step(model, opt, *batch, lr)` (after a first step made the
    optimiser's state) and run the file once (in onnxruntime) on the model's tensors, the
    state, the batch and the numbers: its outputs by name."""
    from burnpy.onnx import export_training_step

    kind = type(opt).__name__.lower()
    feed = {f"model_{n.replace('.', '_')}": t.to_numpy() for n, t in model.state_tensors()}
    for i, pid in enumerate(model.param_ids()):
        for key, value in opt.state[pid].items():
            held = value.to_numpy() if isinstance(value, Tensor) else np.array(value)
            feed[f"{kind}_{i}_{key}"] = held
    settings = {k: v for k, v in vars(opt).items() if type(v) is float}
    feed.update({f"opt_{k}": np.array(v) for k, v in settings.items()})
    feed.update({name: t.to_numpy() for name, t in batch.items()}, lr=np.array(lr))
    proto = export_training_step(step, (model, opt, *batch.values(), lr))
    assert not any(n.domain for n in proto.graph.node)
    got = run(proto, **{i.name: feed[i.name] for i in proto.graph.input})
    return proto, dict(zip([o.name for o in proto.graph.output], got))


def _assert_the_step(got, model, opt, loss):
    """The file's loss, parameters and optimiser state equal the eager step's (float32)."""
    kind = type(opt).__name__.lower()
    np.testing.assert_allclose(got["loss"], loss, rtol=1e-5, atol=1e-6)
    for i, (name, tensor) in enumerate(model.named_parameters()):
        expected = tensor.to_numpy()
        np.testing.assert_allclose(got[f"model_{name.replace('.', '_')}_new"], expected, atol=1e-5)
        for key, value in opt.state[model.param_ids()[i]].items():
            expected = value.to_numpy() if isinstance(value, Tensor) else np.array(value)
            np.testing.assert_allclose(got[f"{kind}_{i}_{key}_new"], expected, atol=1e-5)


@pytest.mark.parametrize("backend", DEVICES)
@pytest.mark.parametrize("make", ["sgd", "adamw", "adamw clipped"])
def test_a_training_step_exports_and_one_onnxruntime_run_is_burnpys_step(make, backend):
    """The digits CNN's step (SGD with momentum, AdamW, AdamW clipping each gradient's norm),
    after a first step made the state:
    the file takes the parameters, the state, the batch and the numbers, and gives the loss
    and the updated parameters and state, equal to the eager step's."""
    from burnpy.nn.functional import cross_entropy
    from examples.digits_cnn import DigitsCNN

    dev = DEVICES[backend]().autodiff()
    model, opt = DigitsCNN(dev), _optimizer(make)
    rng = np.random.default_rng(6)
    x = Tensor.from_data(rng.random((4, 1, 8, 8)).astype(np.float32), device=dev)
    y = Tensor.from_data(rng.integers(0, 10, 4), device=dev)
    _digits_step(model, opt, x, y, 0.01)
    loss = cross_entropy(model(x), y).to_numpy()
    proto, got = _run_exported_step(_digits_step, model, opt, {"images": x, "labels": y}, 0.05)
    assert "ConvTranspose" in {n.op_type for n in proto.graph.node}
    _assert_the_step(got, model, opt, loss)


def _char_step(model, opt, inputs, targets, lr):
    from examples.char_transformer import step_loss

    return step_loss(model, opt, lr, inputs, targets)


@pytest.mark.parametrize("backend", DEVICES)
@pytest.mark.parametrize("make", ["sgd", "adamw", "adamw clipped"])
def test_the_char_transformer_s_training_step_exports(make, backend):
    """The char transformer example's step (embedding, causal attention, layer norms, GELU,
    gradient sums): one onnxruntime run equals burnpy's step."""
    from examples.char_transformer import CharTransformer, loss_of

    dev = DEVICES[backend]().autodiff()
    model, opt = CharTransformer(20, context=8, dropout=0.0, device=dev), _optimizer(make)
    rng = np.random.default_rng(7)
    x = Tensor.from_data(rng.integers(0, 20, (2, 8)), device=dev)
    y = Tensor.from_data(rng.integers(0, 20, (2, 8)), device=dev)
    _char_step(model, opt, x, y, 0.01)
    loss = loss_of(model, x, y).to_numpy()
    proto, got = _run_exported_step(_char_step, model, opt, {"inputs": x, "targets": y}, 0.05)
    ops = {n.op_type for n in proto.graph.node}
    assert {"LayerNormalization", "ScatterND", "Erf"} <= ops
    _assert_the_step(got, model, opt, loss)


class NormGelu(nn.Module):
    """Linear, layer norm, GELU, linear."""

    def __init__(self, approximate, device):
        super().__init__()
        self.inner = nn.Linear(6, 8, device=device)
        self.norm = nn.LayerNorm(8, device=device)
        self.gelu = nn.Gelu(approximate=approximate)
        self.outer = nn.Linear(8, 3, device=device)

    def forward(self, x):
        return self.outer(self.gelu(self.norm(self.inner(x))))


@pytest.mark.parametrize(
    "form", ["float32 kept", "float32 checkpointed", "float32 torch", "float64 computed again"]
)
def test_a_layer_norm_and_gelu_step_exports_in_each_form(form, monkeypatch):
    """The backward takes what the forward kept (the tanh GELU's slope, the norm's statistics:
    NumPy's flat, torch's [..., 1]) or computes it again: under gradient checkpointing
    (gelu_approximate_backward), and in float64, where the exact GELU keeps no slope
    (gelu_backward) and here a backend that keeps no statistics. Each exports and equals
    burnpy's step (float64 run by the reference evaluator: onnxruntime has no float64 Erf)."""
    from burnpy.nn.functional import cross_entropy
    from burnpy.runtime.backends.kernels.keeping import KeepingKernels
    from burnpy.runtime.backends.numpy import NumPyBackend

    dtype = form.split()[0]
    dev = DEVICES["torch" if form == "float32 torch" else "numpy"]().autodiff()
    if form == "float32 checkpointed":
        dev = dev.gradient_checkpointing()
    if form == "float64 computed again":
        monkeypatch.setattr(NumPyBackend, "layer_norm_keeping", KeepingKernels.layer_norm_keeping)
    model, opt = NormGelu(dtype == "float32", dev).cast(dtype), _optimizer("adamw")
    rng = np.random.default_rng(8)
    x = Tensor.from_data(rng.standard_normal((5, 6)).astype(dtype), device=dev)
    y = Tensor.from_data(rng.integers(0, 3, 5), device=dev)
    _digits_step(model, opt, x, y, 0.01)
    loss = cross_entropy(model(x), y).to_numpy()
    run = run_onnxruntime if dtype == "float32" else run_reference
    batch = {"images": x, "labels": y}
    _, got = _run_exported_step(_digits_step, model, opt, batch, 0.05, run)
    _assert_the_step(got, model, opt, loss)


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_shifts_export_as_the_kernels_shift_at_every_count(dtype):
    """Counts of the width and more, and negative ones, give 0 (left, or a non-negative right
    shift) and -1 (a negative right shift) as numpy's shifts do; ONNX's BitShift takes
    unsigned ints only."""
    width = np.dtype(dtype).itemsize * 8
    x = np.array([5, -7, 1, -1, 100, 0, -128, 77, 3, -2], dtype=dtype)
    counts = np.array([0, 1, width - 1, width, width + 3, -3, 2, 7, 64, -1], dtype=dtype)

    def shifts(a, b):
        return a << b, a >> b, a << 3, a >> 2

    proto = export(shifts, (x, counts))
    with np.errstate(all="ignore"):
        expected = [x << counts, x >> counts, x << 3, x >> 2]
    for got in (run_onnxruntime(proto, a=x, b=counts), run_reference(proto, a=x, b=counts)):
        for out, want in zip(got, expected):
            np.testing.assert_array_equal(out, want)


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("target", ["INT4", "UINT4", "INT2", "UINT2"])
def test_a_float_cast_to_a_narrow_int_imports_and_exports_as_ml_dtypes_casts(target):
    """Truncated toward zero, 0 outside the type (NaN and the infinities too): ml_dtypes'
    cast, which onnx's reference evaluator runs; the export computes it with ONNX operators."""
    import ml_dtypes

    T = onnx.TensorProto
    nodes = [
        onnx.helper.make_node("Cast", ["x"], ["n"], to=getattr(T, target)),
        onnx.helper.make_node("Cast", ["n"], ["y"], to=T.INT64),
    ]
    graph = onnx.helper.make_graph(
        nodes,
        "g",
        [onnx.helper.make_tensor_value_info("x", T.FLOAT, [12])],
        [onnx.helper.make_tensor_value_info("y", T.INT64, [12])],
    )
    source = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 25)])
    x = np.array(
        [0.3, 2.7, -2.7, 7.9, 8.0, -8.5, -9, 3.99, 15.5, np.nan, np.inf, -1e30], np.float32
    )
    expected = x.astype(getattr(ml_dtypes, target.lower())).astype(np.int64)
    np.testing.assert_array_equal(run_reference(source, x=x)[0], expected)
    model = burnpy_onnx.load(source)
    np.testing.assert_array_equal(model(x).to_numpy(), expected)
    proto = export(model, (x,), input_names=["x"])
    np.testing.assert_array_equal(run_onnxruntime(proto, x=x)[0], expected)
    np.testing.assert_array_equal(run_reference(proto, x=x)[0], expected)


EDGES = [0.3, 3.3, -2.75, 1e-4, -1e-6, 0.0, -0.0, 448, 449, 464, 500, 57344, 61440, 70000]
EDGES += [np.inf, -np.inf, np.nan, 0.0009765625, 0.00146484375, 240, 248, -63000, 6.5, 7]


def _format_samples(kind, dtype, bits=8) -> np.ndarray:
    """EDGES, every finite value of a `bits`-bit format, the midpoints between them (ties)
    and the float32 values on either side of each midpoint, as `dtype`."""
    grid = np.unique(np.arange(2**bits, dtype=np.uint8).view(kind).astype(np.float32))
    grid = grid[np.isfinite(grid)]
    ties = (grid[1:] + grid[:-1]) / 2
    near = [np.nextafter(ties, np.float32(np.inf)), np.nextafter(ties, np.float32(-np.inf))]
    values = np.concatenate([np.array(EDGES, np.float32), grid, ties, *near])
    with np.errstate(over="ignore"):  # 70000 is float16's inf
        return values.astype(dtype)


@pytest.mark.parametrize("saturate", [True, False])
@pytest.mark.parametrize(
    "fmt", ["float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz"]
)
def test_round_to_a_float8_exports_as_a_saturating_cast(fmt, saturate):
    """round_to on both backends, and its export (a Cast to the float8 type and back) in
    onnxruntime and the reference evaluator, give ml_dtypes' cast: at every value of the
    format, every tie, the range's edges, NaN and the infinities, from float32 and float16."""
    import ml_dtypes

    kind = getattr(ml_dtypes, fmt)
    top = float(ml_dtypes.finfo(kind).max)
    for dtype in (np.float32, np.float16):
        x = _format_samples(kind, dtype)
        wide = x.astype(np.float32)
        if saturate:
            wide = np.where(np.isnan(wide), wide, np.clip(wide, -top, top))
        expected = wide.astype(kind).astype(dtype)
        proto = export(lambda t: t.round_to(fmt, saturate=saturate), (x,), input_names=["x"])
        assert {n.op_type for n in proto.graph.node} == {"Cast", "Identity"}
        for make in DEVICES.values():
            own = Tensor.from_data(x, device=make(), dtype=np.dtype(dtype).name)
            got = own.round_to(fmt, saturate=saturate).to_numpy()
            np.testing.assert_array_equal(got, expected)
            number = ~np.isnan(expected)  # (-0 and 0 differ, a NaN's sign does not count)
            assert (np.signbit(got) == np.signbit(expected))[number].all()
        np.testing.assert_array_equal(run_reference(proto, x=x)[0], expected)
        # onnxruntime gives NaN, not the spec's inf, for what rounds past float8e5m2's largest
        # from below 65536 without saturating
        runtime = run_onnxruntime(proto, x=x)[0]
        if fmt == "float8_e5m2" and not saturate:
            past = (np.abs(wide) >= 61440) & (np.abs(wide) < 65536)
            assert np.isnan(runtime[past]).all()
            runtime, expected = runtime[~past], expected[~past]
        np.testing.assert_array_equal(runtime, expected)


def test_round_to_float4_runs_on_both_backends_and_exports_on_its_grid():
    """float4e2m1: torch holds it packed only and onnxruntime has no Cast to it, so burnpy's
    torch kernel and the export round on its grid; all give ml_dtypes' cast (past 6: 6,
    saturating or not; NaN: -0)."""
    import ml_dtypes

    kind = ml_dtypes.float4_e2m1fn
    x = _format_samples(kind, np.float32, bits=4)
    for saturate in (True, False):
        wide = np.where(np.isnan(x), x, np.clip(x, -6.0, 6.0)) if saturate else x
        expected = wide.astype(kind).astype(np.float32)
        proto = export(lambda t: t.round_to("float4_e2m1fn", saturate=saturate), (x,))
        own = [Tensor.from_data(x, device=make()) for make in DEVICES.values()]
        got = [t.round_to("float4_e2m1fn", saturate=saturate).to_numpy() for t in own]
        got += [run_onnxruntime(proto, t=x)[0], run_reference(proto, t=x)[0]]
        for out in got:
            np.testing.assert_array_equal(out, expected)
            assert (np.signbit(out) == np.signbit(expected)).all()


def test_unfold_bitcast_and_training_batch_norm_export_as_numpy_computes_them():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 7, 5)).astype(np.float32)
    gamma, beta = rng.standard_normal(3).astype(np.float32), rng.standard_normal(3).astype(
        np.float32
    )

    def model(x, gamma, beta):
        out, mean, variance = module.batch_norm_training(x, gamma, beta, epsilon=1e-3)
        return x.unfold(2, 3, 2), x.unfold(-1, 5, 1), x.bitcast(), out, mean, variance

    windows = np.lib.stride_tricks.sliding_window_view
    mean, variance = x.mean((0, 2, 3)), x.var((0, 2, 3))
    shape = (1, 3, 1, 1)
    expected = [
        windows(x, 3, axis=2)[:, :, ::2],
        windows(x, 5, axis=3),
        x.view(np.int32),
        (x - mean.reshape(shape)) / np.sqrt(variance.reshape(shape) + 1e-3) * gamma.reshape(shape)
        + beta.reshape(shape),
        mean,
        variance,
    ]
    proto = export(model, (x, gamma, beta))
    feed = {"x": x, "gamma": gamma, "beta": beta}
    for got in (run_onnxruntime(proto, **feed), run_reference(proto, **feed)):
        for out, want in zip(got, expected):
            np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_bfloat16_arithmetic_onnxruntime_lacks_runs_on_float32_between_casts():
    """onnxruntime has no bfloat16 Mul, Add, Div or Expand: those nodes run on float32 between
    Casts and give ml_dtypes' bfloat16 values (burnpy's, and the reference evaluator's on the
    file). A bfloat16 sum or matrix product, which burnpy accumulates in float32 and rounds
    once, is widened too; a float16 one, accumulated in float16, is left as it is."""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((3, 4)) * 100).astype(np.float32)
    y = rng.standard_normal((1, 4)).astype(np.float32)

    def model(x, y):
        a, b = x.float("bfloat16"), y.float("bfloat16")
        return ((a * b + a) / b - b.expand([3, 4])).float("float32")

    proto = export(model, (x, y))
    made = {o: n for n in proto.graph.node for o in n.output}
    widened = [n for n in proto.graph.node if n.op_type in ("Mul", "Add", "Div", "Sub", "Expand")]
    float32 = onnx.TensorProto.FLOAT
    for node in widened:
        sources = [made[i] for i in node.input if i in made and made[i].op_type != "Constant"]
        assert sources and all(s.op_type == "Cast" and s.attribute[0].i == float32 for s in sources)
    expected = model(Tensor.from_data(x), Tensor.from_data(y)).to_numpy()
    np.testing.assert_array_equal(run_onnxruntime(proto, x=x, y=y)[0], expected)
    np.testing.assert_array_equal(run_reference(proto, x=x, y=y)[0], expected)

    w = rng.standard_normal((4, 5)).astype(np.float32)

    def sums(x, w):
        a = x.float("bfloat16")
        return a.sum().float("float32"), (a @ w.float("bfloat16")).float("float32")

    proto = export(sums, (x, w))
    made = {o: n for n in proto.graph.node for o in n.output}
    for node in [n for n in proto.graph.node if n.op_type in ("ReduceSum", "MatMul")]:
        assert made[node.input[0]].op_type == "Cast"
        assert made[node.input[0]].attribute[0].i == float32
    ours = [t.to_numpy() for t in sums(Tensor.from_data(x), Tensor.from_data(w))]
    # float64 sums of the bfloat16 values, rounded once to bfloat16 (float32 sums in any order
    # are within its half ulp of them here)
    bx, bw = (a.astype(ml_dtypes.bfloat16).astype(np.float64) for a in (x, w))
    exact = [bx.sum(), bx @ bw]
    exact = [np.asarray(e).astype(ml_dtypes.bfloat16).astype(np.float32) for e in exact]
    for got in (ours, run_onnxruntime(proto, x=x, w=w), run_reference(proto, x=x, w=w)):
        for out, want in zip(got, exact):
            np.testing.assert_array_equal(np.reshape(out, np.shape(want)), want)

    half = export(lambda x: x.float("float16").sum().float("float32"), (x,))
    made = {o: n for n in half.graph.node for o in n.output}
    (reduce,) = [n for n in half.graph.node if n.op_type == "ReduceSum"]
    assert made[reduce.input[0]].attribute[0].i == onnx.TensorProto.FLOAT16


@pytest.mark.parametrize(
    "rank, options",
    [
        (1, dict(stride=2, padding=1, padding_end=2)),
        (2, dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=2)),
        (3, dict(padding=1)),
    ],
)
def test_a_float64_convolution_exports_as_windows_and_a_product(rank, options):
    """onnxruntime has no float64 Conv: a float64 convolution exports as gathered windows and
    one MatMul, and both runtimes compute torch's float64 convolution, at two batch sizes."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(rank)
    groups = options.get("groups", 1)
    x = rng.standard_normal((2, 4, *[7 - rank] * rank))
    weight = rng.standard_normal((6, 4 // groups, *[3] * rank))
    bias = rng.standard_normal(6)
    conv = getattr(module, f"conv{rank}d")

    def model(x, weight, bias):
        return conv(x, weight, bias, **options)

    proto = export(model, (x, weight, bias), dynamic_axes={"x": {0: "batch"}})
    assert "Conv" not in {n.op_type for n in proto.graph.node}
    torch_conv = getattr(torch.nn.functional, f"conv{rank}d")
    for batch in (x, rng.standard_normal((3, *x.shape[1:]))):
        begin, end = options.get("padding", 0), options.get("padding_end")
        padded = torch.from_numpy(batch)
        if end is not None:  # torch pads both sides alike: the uneven padding by hand
            padded = torch.nn.functional.pad(padded, (begin, end))
            begin = 0
        torch_options = {k: v for k, v in options.items() if k != "padding_end"}
        torch_options["padding"] = begin
        want = torch_conv(
            padded, torch.from_numpy(weight), torch.from_numpy(bias), **torch_options
        ).numpy()
        feed = {"x": batch, "weight": weight, "bias": bias}
        for got in (run_onnxruntime(proto, **feed), run_reference(proto, **feed)):
            np.testing.assert_allclose(got[0], want, rtol=1e-12, atol=1e-12)


def test_a_sequence_argument_is_an_input_per_element_and_none_is_no_input():
    def model(xs, skipped, y):
        assert skipped is None
        return [x * y for x in xs], xs[0] + xs[1]

    a, b, y = (np.full((2, 3), v, np.float32) for v in (1.0, 2.0, 3.0))
    proto = export(model, ([a, b], None, y))
    assert [i.name for i in proto.graph.input] == ["xs_0", "xs_1", "y"]
    assert [o.name for o in proto.graph.output] == ["output_0", "output_1", "output_2"]
    for got in (
        run_onnxruntime(proto, xs_0=a, xs_1=b, y=y),
        run_reference(proto, xs_0=a, xs_1=b, y=y),
    ):
        for out, want in zip(got, [a * y, b * y, a + b]):
            np.testing.assert_array_equal(out, want)


def test_a_value_computed_from_a_shape_input_is_read_with_that_input_fixed():
    """A size the model computes from an int input and reads (item(), to_numpy()) fixes that
    input in the file; one computed from a float tensor's values is refused."""

    def grows(x, n):
        size = int((n * 2 + 1).sum().item())
        return x.reshape([size, -1])

    x, n = np.arange(12, dtype=np.float32), np.array([1], np.int64)
    with pytest.warns(UserWarning, match="reads the value of n"):
        proto = export(grows, (x, n))
    assert [i.name for i in proto.graph.input] == ["x"]
    np.testing.assert_array_equal(run_onnxruntime(proto, x=x)[0], x.reshape(3, 4))

    def reads_data(x, n):  # (a float vector of up to 8 values would be fixed: not this matrix)
        return x.reshape([int((x.sum() + n.float()).to_numpy()[0]), -1])

    with pytest.raises(burnpy_onnx.UnsupportedError, match="reads"):
        export(reads_data, (np.ones((2, 3), np.float32), np.array([0], np.int64)))


def _one_node(op, inputs, attributes, opset, outputs=1):
    """A model of one `op` node over the named arrays of `inputs` (a None is an input left
    out), its outputs' types left to inference."""
    from onnx import helper

    names = [name if a is not None else "" for name, a in inputs]
    node = helper.make_node(op, names, [f"y{j}" for j in range(outputs)], **attributes)
    declared = [
        helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        for name, a in inputs
        if a is not None
    ]
    undefined = onnx.TensorProto.UNDEFINED
    results = [helper.make_tensor_value_info(f"y{j}", undefined, None) for j in range(outputs)]
    graph = helper.make_graph([node], "g", declared, results)
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(built, strict_mode=True)


def _data_read_cases():
    """(op, inputs with the example's data input, that input's other values, attributes, opset,
    outputs): operators whose data input (lengths, write positions) a model reads per batch
    entry."""
    rng = np.random.default_rng(5)

    def normal(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    lengths = np.array([4, 1, 3], np.int64), np.array([2, 4, 1], np.int64)
    cache, update = normal(2, 3, 5, 4), normal(2, 3, 2, 4)
    q, k, v = normal(2, 2, 3, 4), normal(2, 2, 5, 4), normal(2, 2, 5, 4)
    hidden, x = 3, normal(4, 3, 2)
    recurrent = {}
    for op, gates in (("RNN", 1), ("GRU", 3), ("LSTM", 4)):
        weights = [("w", normal(1, gates * hidden, 2)), ("r", normal(1, gates * hidden, hidden))]
        recurrent[op] = [("x", x)] + weights + [("b", normal(1, 2 * gates * hidden))]
    seq_lens = np.array([4, 2, 3], np.int32), np.array([1, 4, 2], np.int32)
    return {
        "ReverseSequence time-major": (
            "ReverseSequence", [("x", normal(4, 3, 2)), ("lens", lengths[0])], lengths[1], {}, 22, 1  # fmt: skip
        ),
        "ReverseSequence batch-major": (
            "ReverseSequence", [("x", normal(3, 4, 2)), ("lens", lengths[0])], lengths[1], {"batch_axis": 0, "time_axis": 1}, 22, 1  # fmt: skip
        ),
        "TensorScatter linear": (
            "TensorScatter", [("cache", cache), ("update", update), ("at", np.array([3, 1]))], np.array([0, 2]), {}, 24, 1  # fmt: skip
        ),
        "TensorScatter circular": (
            "TensorScatter", [("cache", cache), ("update", update), ("at", np.array([4, 0]))], np.array([3, 4]), {"mode": "circular"}, 24, 1  # fmt: skip
        ),
        "Attention nonpad_kv_seqlen": (
            "Attention", [("q", q), ("k", k), ("v", v), ("mask", None), ("pk", None), ("pv", None), ("kv_lens", np.array([5, 3]))], np.array([2, 4]), {}, 24, 1  # fmt: skip
        ),
        "Attention causal nonpad_kv_seqlen": (
            "Attention", [("q", q), ("k", k), ("v", v), ("mask", None), ("pk", None), ("pv", None), ("kv_lens", np.array([5, 3]))], np.array([3, 4]), {"is_causal": 1}, 24, 1  # fmt: skip
        ),
        **{
            f"{op} sequence_lens": (op, inputs + [("lens", seq_lens[0])], seq_lens[1], {"hidden_size": hidden}, 22, 2)  # fmt: skip
            for op, inputs in recurrent.items()
        },
    }


DATA_READS = _data_read_cases()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", DATA_READS)
def test_an_imported_op_s_data_input_stays_an_input_of_the_exported_file(case, device):
    """Lengths and write positions are data: the imported model computes with them on the
    device, so the exported file takes them (no warning that it holds the example's values)
    and gives the reference's outputs for other values."""
    op, inputs, other, attributes, opset, outputs = DATA_READS[case]
    built = _one_node(op, inputs, attributes, opset, outputs)
    given = [(name, a) for name, a in inputs if a is not None]
    names = [name for name, _ in given]
    model = burnpy_onnx.load(built, device=DEVICES[device]())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "reads the value of ..." would fix the data input
        proto = export(model, tuple(a for _, a in given), input_names=names)
    assert [i.name for i in proto.graph.input] == names
    feeds = dict(given[:-1] + [(names[-1], other)])
    if op in ("RNN", "GRU", "LSTM"):  # onnx's reference evaluator ignores their sequence_lens
        expected = run_onnxruntime(built, **feeds)
    else:
        expected = ReferenceEvaluator(built).run(None, feeds)
    imported = model(*feeds.values())
    imported = imported if isinstance(imported, tuple) else (imported,)
    for got, want in zip(run_onnxruntime(proto, **feeds), expected):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    for got, want in zip(imported, expected):
        np.testing.assert_allclose(got.to_numpy(), want, rtol=1e-5, atol=1e-5)


def test_the_export_command_line_writes_a_factory_s_model():
    """`python -m burnpy.onnx export MODULE:FACTORY --args SHAPES --out FILE`: the file runs in
    onnxruntime as numpy computes the model, at another batch size too; bad shapes are named."""
    job = _STARTED["command line"]
    assert job.wait() == [0, 2], job.output(0) + job.output(1)
    assert "'2y3' is not dims joined by x" in job.output(1)
    assert not (job.folder / "bad.onnx").exists()
    proto = onnx.load(job.folder / "m.onnx")
    rng = np.random.default_rng(6)
    for batch in (2, 5):
        x = rng.standard_normal((batch, 3)).astype(np.float32)
        y = rng.standard_normal((3, 4)).astype(np.float32)
        expected = (np.maximum(x, 0) * 2) @ y
        np.testing.assert_allclose(run_onnxruntime(proto, x=x, y=y)[0], expected, rtol=1e-5)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_draw_exports_as_onnx_s_random_ops_drawing_afresh_over_a_dynamic_batch(backend):
    """Tensor.random is RandomUniform / RandomNormal in the file: each run of a session draws
    new values of the distribution, over the batch the run is given."""
    device = DEVICES[backend]()

    def model(x):
        uniform = Tensor.random(x.shape, Distribution.uniform(-2.0, 3.0), device=x.device())
        normal = Tensor.random(x.shape, Distribution.normal(1.5, 0.5), device=x.device())
        return x + uniform, x * 0 + normal

    x = np.zeros((4, 2000), np.float32)
    proto = export(model, (Tensor.from_data(x, device=device),), dynamic_axes={"x": {0: "b"}})
    assert {"RandomUniformLike", "RandomNormalLike"} <= {n.op_type for n in proto.graph.node}
    wider = np.zeros((7, 2000), np.float32)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    first, second = session.run(None, {"x": wider}), session.run(None, {"x": wider})
    for (uniform, normal), (again, _) in zip([first], [second]):
        assert uniform.shape == normal.shape == (7, 2000)
        assert uniform.min() >= -2.0 and uniform.max() <= 3.0 and not np.array_equal(uniform, again)
        # 14000 draws: the means within 5 standard errors of the distributions'
        assert abs(uniform.mean() - 0.5) < 5 * (25 / 12 / uniform.size) ** 0.5
        assert abs(normal.mean() - 1.5) < 5 * 0.5 / normal.size**0.5
        assert abs(normal.std() - 0.5) < 0.02
    uniform, normal = run_reference(proto, x=wider)
    assert uniform.shape == (7, 2000) and -2.0 <= uniform.min() and uniform.max() <= 3.0


def test_an_input_an_operator_reads_as_data_is_refused_even_when_small():
    """Unique reads its input's entries on the host: six floats would pass for a few scales,
    but they are data, and a file holding the example's entries would ignore its input."""
    from onnx import TensorProto, helper

    node = helper.make_node("Unique", ["x"], ["y"], sorted=1)
    graph = helper.make_graph(
        [node],
        "unique",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = burnpy_onnx.load(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    )
    x = np.array([2.0, 1.0, 1.0, 3.0, 4.0, 3.0], np.float32)
    np.testing.assert_array_equal(model(Tensor.from_data(x)).to_numpy(), [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(burnpy_onnx.UnsupportedError, match="reads the values of input x"):
        export(model, (x,), input_names=["x"])


def test_bool_selections_export_as_logic_that_onnxruntime_runs():
    """onnxruntime has no bool Where: a bool mask_where and mask_fill export as And, Or, Not,
    equal to numpy's where."""
    rng = np.random.default_rng(6)
    a, b, m = (rng.random((3, 5)) < 0.5 for _ in range(3))

    def model(a, b, m):
        return a.mask_where(m, b), a.mask_fill(m, True), a.mask_fill(m, False)

    proto = export(model, (a, b, m))
    assert "Where" not in {n.op_type for n in proto.graph.node}
    expected = [np.where(m, b, a), np.where(m, True, a), np.where(m, False, a)]
    for got in (run_onnxruntime(proto, a=a, b=b, m=m), run_reference(proto, a=a, b=b, m=m)):
        for out, want in zip(got, expected):
            np.testing.assert_array_equal(out, want)
