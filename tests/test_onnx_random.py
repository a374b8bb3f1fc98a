"""burnpy.onnx's random operators (RandomUniform, RandomNormal and their Like forms, Bernoulli,
Multinomial, Dropout in training mode) on both backends: shape, dtype and range, the moments of
10^4 draws against the distribution's, seeding (the device's generator, or the node's `seed`
attribute: every call the same), a model with training-mode Dropout taking an SGD step against
numpy's gradient through the mask, capture replaying fresh draws as the eager calls make them,
a training mode given as an input kept an input by capture and export; and the node suite's random-aware check, which the reference evaluator's draws pass and a wrong
dropout fails."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

ort = pytest.importorskip("onnxruntime")

from burnpy import capture, optim  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402
from burnpy.onnx import conformance  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F, F64, I32, I64, B = (TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL)  # fmt: skip


def model(nodes, inputs, outputs, inits=(), opset=17) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "random", inputs, outputs, list(inits))
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(proto, full_check=True)
    return proto


def draw_model(op: str, elem=F, shape=(100, 100), **attrs) -> onnx.ModelProto:
    node = helper.make_node(op, [], ["y"], name="draw", dtype=elem, shape=list(shape), **attrs)
    return model([node], [], [helper.make_tensor_value_info("y", elem, list(shape))])


@pytest.mark.parametrize("device", DEVICES)
def test_uniform_and_normal_draws_have_their_distributions_moments(device):
    dev = DEVICES[device]()
    uniform = importer.load(draw_model("RandomUniform", F64, low=-2.0, high=3.0), device=dev)
    y = uniform().to_numpy()
    assert y.shape == (100, 100) and y.dtype == np.float64
    assert y.min() >= -2.0 and y.max() < 3.0
    assert abs(y.mean() - 0.5) < 0.1 and abs(y.std() - 5 / np.sqrt(12)) < 0.05
    normal = importer.load(draw_model("RandomNormal", F, mean=1.0, scale=2.0), device=dev)
    y = normal().to_numpy()
    assert y.shape == (100, 100) and y.dtype == np.float32
    assert abs(y.mean() - 1.0) < 0.1 and abs(y.std() - 2.0) < 0.1


@pytest.mark.parametrize("device", DEVICES)
def test_the_device_seed_repeats_draws_and_each_call_draws_afresh(device):
    dev = DEVICES[device]()
    drawn = importer.load(draw_model("RandomNormal", shape=(4, 5)), device=dev)
    dev.seed(11)
    first, second = drawn().to_numpy(), drawn().to_numpy()
    dev.seed(11)
    np.testing.assert_array_equal(drawn().to_numpy(), first)
    assert not np.array_equal(first, second)


@pytest.mark.parametrize("device", DEVICES)
def test_a_seed_attribute_gives_the_same_draw_at_every_call_and_load(device):
    dev = DEVICES[device]()
    seeded = draw_model("RandomUniform", shape=(3, 4), seed=3.0)
    one, other = importer.load(seeded, device=dev), importer.load(seeded, device=Device.numpy())
    dev.seed(0)
    y = one().to_numpy()
    dev.seed(1)  # the device's generator plays no part
    np.testing.assert_array_equal(one().to_numpy(), y)
    np.testing.assert_array_equal(other().to_numpy(), y)
    again = importer.load(draw_model("RandomUniform", shape=(3, 4), seed=4.0), device=dev)
    assert not np.array_equal(again().to_numpy(), y)
    assert 0.0 <= y.min() and y.max() < 1.0


@pytest.mark.parametrize("device", DEVICES)
def test_the_like_forms_take_the_inputs_shape_and_the_dtype_asked_for(device):
    nodes = [
        helper.make_node("RandomUniformLike", ["x"], ["u"], name="u", dtype=F64, low=5.0, high=6.0),
        helper.make_node("RandomNormalLike", ["x"], ["n"], name="n"),
    ]
    proto = model(
        nodes,
        [helper.make_tensor_value_info("x", F, ["a", 3])],
        [helper.make_tensor_value_info("u", F64, ["a", 3]), helper.make_tensor_value_info("n", F, ["a", 3])],  # fmt: skip
    )
    u, n = importer.load(proto, device=DEVICES[device]())(np.zeros((7, 3), np.float32))
    assert u.to_numpy().dtype == np.float64 and list(u.shape) == [7, 3]
    assert 5.0 <= u.to_numpy().min() and u.to_numpy().max() < 6.0
    assert n.to_numpy().dtype == np.float32 and list(n.shape) == [7, 3]


@pytest.mark.parametrize("device", DEVICES)
def test_bernoulli_draws_0_or_1_as_often_as_p_says(device):
    p = np.repeat(np.array([0.0, 1.0, 0.3], np.float32), 10_000)
    proto = model(
        [helper.make_node("Bernoulli", ["p"], ["y"], name="coin", dtype=I32)],
        [helper.make_tensor_value_info("p", F, [30_000])],
        [helper.make_tensor_value_info("y", I32, [30_000])],
        opset=15,
    )
    y = importer.load(proto, device=DEVICES[device]())(p).to_numpy()
    assert y.dtype == np.int32 and set(np.unique(y)) <= {0, 1}
    assert (y[:10_000] == 0).all() and (y[10_000:20_000] == 1).all()
    assert abs(y[20_000:].mean() - 0.3) < 0.03


@pytest.mark.parametrize("device", DEVICES)
def test_multinomial_samples_classes_as_often_as_their_softmax(device):
    logits = np.log(np.array([[0.2, 0.5, 0.3], [0.7, 0.1, 0.2]], np.float32))
    proto = model(
        [helper.make_node("Multinomial", ["x"], ["y"], name="pick", sample_size=10_000, dtype=I64)],
        [helper.make_tensor_value_info("x", F, [2, 3])],
        [helper.make_tensor_value_info("y", I64, [2, 10_000])],
    )
    y = importer.load(proto, device=DEVICES[device]())(logits).to_numpy()
    assert y.dtype == np.int64 and y.shape == (2, 10_000)
    frequencies = np.stack([np.bincount(row, minlength=3) / 10_000 for row in y])
    np.testing.assert_allclose(frequencies, np.exp(logits), atol=0.03)


def dropout_model(ratio: float, seed=None) -> onnx.ModelProto:
    """y, mask = Dropout(x @ w, ratio, training=True): a layer that trains."""
    attrs = {} if seed is None else {"seed": seed}
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h"], name="linear"),
        helper.make_node("Dropout", ["h", "ratio", "training"], ["y", "mask"], name="drop", **attrs),  # fmt: skip
    ]
    w = np.random.default_rng(0).standard_normal((4, 300)).astype(np.float32)
    return model(
        nodes,
        [helper.make_tensor_value_info("x", F, ["n", 4])],
        [helper.make_tensor_value_info("y", F, ["n", 300]), helper.make_tensor_value_info("mask", B, ["n", 300])],  # fmt: skip
        [
            numpy_helper.from_array(w, "w"),
            numpy_helper.from_array(np.array(ratio, np.float32), "ratio"),
            numpy_helper.from_array(np.array(True), "training"),
        ],
    )


def inputs(n=40) -> np.ndarray:
    return np.random.default_rng(1).standard_normal((n, 4)).astype(np.float32)


@pytest.mark.parametrize("device", DEVICES)
def test_training_dropout_zeroes_a_ratio_of_entries_and_scales_the_rest(device):
    x = inputs()
    h = x @ numpy_helper.to_array(dropout_model(0.25).graph.initializer[0])
    y, mask = (t.to_numpy() for t in importer.load(dropout_model(0.25), device=DEVICES[device]())(x))  # fmt: skip
    assert mask.dtype == np.bool_ and abs(1 - mask.mean() - 0.25) < 0.03
    np.testing.assert_allclose(y, np.where(mask, h / 0.75, 0.0), rtol=1e-5, atol=1e-6)
    y, mask = importer.load(dropout_model(0.0), device=DEVICES[device]())(x)
    np.testing.assert_allclose(y.to_numpy(), h, rtol=1e-6)  # ratio 0: the input itself
    assert mask.to_numpy().all()


@pytest.mark.parametrize("device", DEVICES)
def test_a_model_with_training_dropout_takes_an_sgd_step_through_its_mask(device):
    dev = DEVICES[device]().autodiff()
    net = importer.load(dropout_model(0.5), device=dev)
    x, target = inputs(), np.random.default_rng(2).standard_normal((40, 300)).astype(np.float32)
    w = net.w.to_numpy().copy()
    y, mask = net(x)
    loss = (y * Tensor.from_data(target, device=dev)).sum()
    grads = loss.backward()
    # d sum(y * t) / dw = x^T (t * mask / (1 - ratio))
    expected = x.T.astype(np.float64) @ (target * mask.to_numpy() * 2.0)
    np.testing.assert_allclose(net.w.grad(grads).to_numpy(), expected, rtol=1e-4, atol=1e-4)
    optim.SGD(0.1).step(net, grads, lr=0.1)
    np.testing.assert_allclose(net.w.to_numpy(), w - 0.1 * expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("device", DEVICES)
def test_capture_replays_fresh_draws_as_the_eager_calls_make_them(device):
    dev = DEVICES[device]()
    eager, recorded = (importer.load(dropout_model(0.5), device=dev) for _ in range(2))
    x = Tensor.from_data(inputs(), device=dev)
    dev.seed(7)
    expected = [eager(x)[0].to_numpy() for _ in range(3)]
    step = capture(lambda net, x: net(x)[0])
    dev.seed(7)
    got = [step(recorded, x).to_numpy() for _ in range(3)]
    assert len(step.signatures) == 1
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    assert not np.array_equal(got[1], got[2])


@pytest.mark.parametrize("device", DEVICES)
def test_a_training_mode_input_is_a_tensor_that_capture_and_export_keep_an_input(device):
    """Dropout's training_mode as an input: the flag picks between the outcomes, so a captured
    step replays either mode by it, and an exported file takes it, running both modes."""
    nodes = [helper.make_node("Dropout", ["x", "", "training"], ["y", "mask"], name="drop")]
    proto = model(
        nodes,
        [helper.make_tensor_value_info("x", F, [3, 200]), helper.make_tensor_value_info("training", B, [])],  # fmt: skip
        [helper.make_tensor_value_info("y", F, [3, 200]), helper.make_tensor_value_info("mask", B, [3, 200])],  # fmt: skip
    )
    dev = DEVICES[device]()
    net = importer.load(proto, device=dev)
    x = np.random.default_rng(3).standard_normal((3, 200)).astype(np.float32)
    flags = {mode: Tensor.from_data(np.array(mode), device=dev) for mode in (True, False)}
    step = capture(lambda net, x, t: net(x, t))

    def holds(y, mask, training):
        if not training:
            np.testing.assert_array_equal(y, x)
            assert mask.all()
        else:
            np.testing.assert_allclose(y, np.where(mask, x * 2, 0.0), rtol=1e-6)
            assert 0.4 < mask.mean() < 0.6

    for training in (True, False, True, False):  # recorded once, replayed in both modes
        y, mask = step(net, Tensor.from_data(x, device=dev), flags[training])
        holds(y.to_numpy(), mask.to_numpy(), training)
    assert len(step.signatures) == 1
    proto = importer.export(net, (x, np.array(True)), input_names=["x", "training"])
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    for training in (True, False):
        holds(*session.run(None, {"x": x, "training": np.array(training)}), training)


def test_the_node_suites_random_check_takes_any_draw_and_refuses_a_wrong_one():
    x = inputs(6)
    suite_like = model(
        [helper.make_node("Dropout", ["x", "r", "t"], ["y", "mask"], name="drop")],
        [
            helper.make_tensor_value_info("x", F, [6, 4]),
            helper.make_tensor_value_info("r", F, []),
            helper.make_tensor_value_info("t", B, []),
        ],
        [helper.make_tensor_value_info("y", F, [6, 4]), helper.make_tensor_value_info("mask", B, [6, 4])],  # fmt: skip
    )
    feeds = [x, np.array(0.5, np.float32), np.array(True)]
    reference = ReferenceEvaluator(suite_like).run(None, dict(zip("xrt", feeds)))
    ours = [t.to_numpy() for t in importer.load(suite_like)(*feeds)]
    check = conformance.random_check("Dropout", suite_like, [(feeds, reference)], 1e-3, 1e-7)
    assert check(0, reference) == "" and check(0, ours) == ""
    assert check(0, [x, np.ones_like(ours[1])]) != ""  # kept but not scaled
    assert check(0, [ours[0], ~ours[1]]) != ""  # the mask says the opposite
    assert check(0, [ours[0].astype(np.float64), ours[1]]) != ""  # another dtype
    inference = model(
        [helper.make_node("Dropout", ["x"], ["y"], name="drop")],
        [helper.make_tensor_value_info("x", F, [6, 4])],
        [helper.make_tensor_value_info("y", F, [6, 4])],
    )
    assert conformance.random_check("Dropout", inference, [([x], [x])], 0, 0) is None
