"""burnpy.capture and shapes computed at run time: a step whose shape arithmetic depends only on
its inputs' shapes (and a module's int buffers) is captured, one recording per signature (at
most `max_signatures`, the least recently used dropped), against numpy's values; a shape that
depends on a tensor's values is refused with an error naming the line (and, for an imported
model, the ONNX node)."""

import importlib.util

import numpy as np
import pytest

from burnpy import capture, nn
from burnpy.generated import Device, Tensor

BACKENDS = ["numpy", "torch"]


def device_of(backend: str):
    if backend == "torch":
        pytest.importorskip("torch")
        return Device.torch()
    return Device.numpy()


def ints(t: Tensor) -> list:
    return [int(v) for v in t.to_numpy()]


def split_heads(recorded: list):
    """A step: x [batch, seq, 8] -> [batch, seq, 2, 4] through a shape tensor (ONNX's Shape ->
    Slice -> Concat -> Reshape), then an element-wise chain summed over the last dim; the
    shape of each x it is recorded for goes into `recorded`."""

    def step(x):
        recorded.append(x.shape)  # runs only while a signature is recorded
        size = Tensor.from_data(np.array(x.shape), device=x.device())
        heads = Tensor.from_data(np.array([2, -1]), device=x.device())
        target = Tensor.cat([size[0:2], heads], 0)
        return ((x.reshape(ints(target)) * 2.0) + 1.0).relu().sum_dim(3)

    return step


def expected_heads(x: np.ndarray) -> np.ndarray:
    return np.maximum(x.reshape(*x.shape[:2], 2, -1) * 2.0 + 1.0, 0).sum(3, keepdims=True)


def inputs(device, *shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return [(a, Tensor.from_data(a, device=device)) for a in arrays]


@pytest.mark.parametrize("compile", [False, True], ids=["replay", "compiled"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shape_computed_from_the_inputs_shapes_is_captured_once_per_signature(backend, compile):
    device = device_of(backend)
    recorded = []
    step = capture(split_heads(recorded), compile=compile)
    calls = inputs(device, (2, 3, 8), (4, 5, 8), (2, 3, 8), (4, 5, 8))
    for array, x in calls:
        out = step(x)
        np.testing.assert_allclose(out.to_numpy(), expected_heads(array), rtol=1e-6)
    assert recorded == [(2, 3, 8), (4, 5, 8)]  # each signature recorded once, then replayed
    assert len(step.signatures) == 2
    # the shape arithmetic ran while recording: its value is a constant of the recording
    for signature in step.signatures:
        source = step.source(signature)
        assert "from_data" not in source and "cat(" not in source
        if compile:
            assert step.memory(signature).planned > 0  # each recording compiled


@pytest.mark.parametrize("backend", BACKENDS)
def test_at_most_max_signatures_are_kept_the_least_recently_used_dropped(backend):
    device = device_of(backend)
    recorded = []
    step = capture(split_heads(recorded), max_signatures=2)
    (_, a), (_, b), (_, c) = inputs(device, (1, 2, 8), (2, 2, 8), (3, 2, 8))
    for x in (a, b, a, c):  # c drops b, used less recently than a
        step(x)
    assert recorded == [a.shape, b.shape, c.shape]
    assert held(step) == ["[1, 2, 8]", "[3, 2, 8]"]
    step(a)  # still held
    step(b)  # dropped: recorded again, and c (now the least recently used) dropped
    assert recorded[3:] == [b.shape]
    assert held(step) == ["[1, 2, 8]", "[2, 2, 8]"]
    with pytest.raises(ValueError, match="max_signatures must be an int of at least 1"):
        capture(split_heads(recorded), max_signatures=0)


def held(step) -> list:
    """The shape of x in each signature the step holds a recording for."""
    return [s.text.split("float32 ")[1] for s in step.signatures]


class Heads(nn.Module):
    """A module whose head count is an int buffer (as an imported model holds its constants)."""

    def __init__(self, device):
        super().__init__()
        self.register_buffer("heads", Tensor.from_data(np.array([2]), device=device))

    def forward(self, x):
        size = Tensor.from_data(np.array(x.shape), device=x.device())
        last = Tensor.from_data(np.array([-1]), device=x.device())
        return x.reshape(ints(Tensor.cat([size[0:2], self.heads, last], 0))) * 3.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shape_computed_from_a_modules_int_buffer_is_guarded_by_its_values(backend):
    device = device_of(backend)
    model = Heads(device)
    step = capture(lambda model, x: model(x))
    ((array, x),) = inputs(device, (2, 3, 8))
    for heads in (2, 2, 4, 2):
        model.heads = Tensor.from_data(np.array([heads]), device=device)
        out = step(model, x)
        np.testing.assert_array_equal(out.to_numpy(), array.reshape(2, 3, heads, -1) * 3.0)
    assert "same_values(" in step.source()
    assert len(step._recordings[step.signatures[0].key]) == 2  # one per buffer value


def reads_its_argument(x, n):  # a shape that depends on a tensor's values
    return x.reshape(n.tolist())


def line_of(code: str) -> int:
    """The line of this file holding `code`."""
    with open(__file__) as file:
        return next(number for number, text in enumerate(file, 1) if code in text)


def reads_a_random_draw(x):
    noise = Tensor.random([2], device=x.device())
    return x.reshape([x.shape[0], int((noise.sum() * 0.0).to_numpy()) + x.shape[1]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_shape_that_depends_on_values_is_refused_naming_the_line(backend):
    device = device_of(backend)
    ((_, x),) = inputs(device, (2, 3))
    n = Tensor.from_data(np.array([3, 2]), device=device)
    with pytest.raises(capture.CaptureError) as raised:
        capture(reads_its_argument)(x, n)
    message = str(raised.value)
    assert "tolist() reads a tensor's value (the step's input n)" in message
    assert "depends on the data" in message
    assert message.endswith(
        f"{__file__}, line {line_of('n.tolist()')}: return x.reshape(n.tolist())"
    )
    with pytest.raises(capture.CaptureError, match="depends on the data") as raised:
        capture(reads_a_random_draw)(x)
    assert "reads_a_random_draw" not in str(raised.value)  # the line, not the function
    assert "int((noise.sum() * 0.0).to_numpy())" in str(raised.value)


def test_an_imported_models_refusal_names_the_generated_line_and_the_onnx_node(tmp_path):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    from burnpy import onnx as importer

    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["r"], name="act"),
            helper.make_node("Reshape", ["r", "shape"], ["y"], name="the_reshape"),
        ],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4]),
            helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(proto)
    x = Tensor.from_data(np.ones((2, 4), np.float32))
    shape = Tensor.from_data(np.array([4, 2]))
    loaded = importer.load(proto)
    path = importer.generate(proto, tmp_path, name="reshaper")
    spec = importlib.util.spec_from_file_location("reshaper", path)
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    for model, filename in ((loaded, "<burnpy.onnx: the model 'g'>"), (written.Model(), str(path))):
        with pytest.raises(capture.CaptureError) as raised:
            capture(lambda model, x, shape: model(x, shape))(model, x, shape)
        where = str(raised.value).splitlines()[-1]
        line = next(
            i + 1
            for i, text in enumerate(model_source(model, path).splitlines())
            if "ops.ints(shape)" in text
        )
        assert where.startswith(f"  at {filename}, line {line} (ONNX node Reshape the_reshape)")
        assert where.endswith("ops.reshape(r, ops.ints(shape), False)")


def model_source(model, path) -> str:
    return getattr(model, "source", None) or path.read_text()
