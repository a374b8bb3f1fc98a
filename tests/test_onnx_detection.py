"""burnpy.onnx's operators whose output's shape follows the data (NonMaxSuppression, Unique):
run eagerly on both backends against onnxruntime; a detection head (boxes and scores ->
NonMaxSuppression -> Gather of the kept boxes) against onnxruntime, its gradient against
numpy's; `burnpy.capture` refuses them, naming the generated line and the ONNX node."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from burnpy import capture  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def run_ort(proto, feeds: dict) -> list:
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def ours(proto, device, *inputs) -> list:
    model = importer.load(proto, device=device)
    out = model(*inputs)
    return [t.to_numpy() for t in (out if isinstance(out, tuple) else (out,))]


def nms_model(center: int, with_score_threshold: bool) -> onnx.ModelProto:
    inputs = ["boxes", "scores", "most", "iou"] + (["least"] if with_score_threshold else [])
    graph = helper.make_graph(
        [helper.make_node("NonMaxSuppression", inputs, ["selected"], name="nms", center_point_box=center)],  # fmt: skip
        "nms",
        [
            helper.make_tensor_value_info("boxes", F, [2, 12, 4]),
            helper.make_tensor_value_info("scores", F, [2, 3, 12]),
        ],
        [helper.make_tensor_value_info("selected", I64, ["k", 3])],
        [
            numpy_helper.from_array(np.array([4], np.int64), "most"),
            numpy_helper.from_array(np.array([0.3], np.float32), "iou"),
            numpy_helper.from_array(np.array([0.25], np.float32), "least"),
        ][: len(inputs) - 2],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])


def random_boxes(rng, count: int, center: int) -> np.ndarray:
    """Boxes in a 4 x 4 field, crowded enough that many overlap."""
    lo = rng.uniform(0, 3, (count, 2))
    size = rng.uniform(0.3, 1.5, (count, 2))
    if center:
        return np.concatenate([lo + size / 2, size], 1).astype(np.float32)
    corners = np.concatenate([lo, lo + size], 1)
    flip = rng.random(count) < 0.5  # either pair of opposite corners
    corners[flip] = corners[flip][:, [2, 3, 0, 1]]
    return corners.astype(np.float32)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("center", [0, 1])
@pytest.mark.parametrize("threshold", [False, True], ids=["all", "score_threshold"])
def test_non_max_suppression_equals_onnxruntime(device, center, threshold):
    rng = np.random.default_rng(center + 2 * threshold)
    boxes = np.stack([random_boxes(rng, 12, center) for _ in range(2)])
    scores = rng.random((2, 3, 12)).astype(np.float32)
    scores[0, 0, 5] = scores[0, 0, 7]  # equal scores: the lower box index first
    proto = nms_model(center, threshold)
    (expected,) = run_ort(proto, {"boxes": boxes, "scores": scores})
    (got,) = ours(proto, DEVICES[device](), boxes, scores)
    assert got.dtype == np.int64 and len(expected) > 6
    np.testing.assert_array_equal(got, expected)


def unique_model(axis, ordered: int) -> onnx.ModelProto:
    attrs = {"sorted": ordered} if axis is None else {"sorted": ordered, "axis": axis}
    graph = helper.make_graph(
        [helper.make_node("Unique", ["x"], ["y", "first", "inverse", "counts"], name="u", **attrs)],  # fmt: skip
        "unique",
        [helper.make_tensor_value_info("x", F, [4, 3])],
        [
            helper.make_tensor_value_info("y", F, None),
            *(helper.make_tensor_value_info(n, I64, ["k"]) for n in ("first", "inverse", "counts")),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("ordered", [1, 0])
def test_unique_equals_onnxruntime_and_its_values_differentiate(device, axis, ordered):
    x = np.array([[2, 1, 2], [0, 5, 0], [2, 1, 2], [3, 1, 3]], np.float32)
    proto = unique_model(axis, ordered)
    expected = run_ort(proto, {"x": x})
    dev = DEVICES[device]()
    got = ours(proto, dev, x)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    # the values are x's entries at their first positions: d sum(y * w) / dx puts w there
    model = importer.load(proto, device=dev.autodiff())
    xt = Tensor.from_data(x, device=dev.autodiff()).require_grad()
    y, first = model(xt)[:2]
    w = np.arange(1, y.numel() + 1, dtype=np.float32).reshape(y.shape)
    grads = (y * Tensor.from_data(w, device=dev.autodiff())).sum().backward()
    expected_grad = np.zeros_like(x)
    positions = first.to_numpy()
    if axis is None:
        expected_grad.reshape(-1)[positions] = w
    else:
        np.moveaxis(expected_grad, axis, 0)[positions] = np.moveaxis(w, axis, 0)
    np.testing.assert_array_equal(xt.grad(grads).to_numpy(), expected_grad)


def detection_head() -> onnx.ModelProto:
    """features [1, 10, 6] -> boxes (MatMul, around one anchor box) and class scores (MatMul, Sigmoid, Transpose) ->
    NonMaxSuppression -> the kept boxes (Gather of the selected rows' box index) and their
    scores (GatherND)."""
    rng = np.random.default_rng(7)
    w_box = rng.normal(0, 0.15, (6, 4)).astype(np.float32)
    w_cls = rng.normal(0, 1.0, (6, 2)).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["features", "w_box"], ["offsets"], name="box_head"),
        helper.make_node("Add", ["offsets", "anchor"], ["boxes"], name="anchored"),
        helper.make_node("MatMul", ["features", "w_cls"], ["logits"], name="class_head"),
        helper.make_node("Sigmoid", ["logits"], ["probs"], name="sigmoid"),
        helper.make_node("Transpose", ["probs"], ["scores"], name="to_classes", perm=[0, 2, 1]),
        helper.make_node(
            "NonMaxSuppression",
            ["boxes", "scores", "most", "iou", "least"],
            ["selected"],
            name="nms",
        ),
        helper.make_node("Gather", ["selected", "two"], ["box_index"], name="box_index", axis=1),
        helper.make_node("Squeeze", ["boxes", "zero"], ["boxes_2d"], name="squeeze"),
        helper.make_node("Gather", ["boxes_2d", "box_index"], ["kept"], name="kept", axis=0),
        helper.make_node("GatherND", ["scores", "selected"], ["kept_scores"], name="kept_scores"),
    ]
    graph = helper.make_graph(
        nodes,
        "head",
        [helper.make_tensor_value_info("features", F, [1, 10, 6])],
        [
            helper.make_tensor_value_info("kept", F, ["k", 4]),
            helper.make_tensor_value_info("kept_scores", F, ["k"]),
            helper.make_tensor_value_info("selected", I64, ["k", 3]),
        ],
        [
            numpy_helper.from_array(w_box, "w_box"),
            numpy_helper.from_array(w_cls, "w_cls"),
            numpy_helper.from_array(np.array([0, 0, 2, 2], np.float32), "anchor"),
            numpy_helper.from_array(np.array([5], np.int64), "most"),
            numpy_helper.from_array(np.array([0.4], np.float32), "iou"),
            numpy_helper.from_array(np.array([0.3], np.float32), "least"),
            numpy_helper.from_array(np.array(2, np.int64), "two"),
            numpy_helper.from_array(np.array([0], np.int64), "zero"),
        ],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(proto, full_check=True)
    return proto


def features() -> np.ndarray:
    return np.random.default_rng(3).normal(0, 1, (1, 10, 6)).astype(np.float32)


@pytest.mark.parametrize("device", DEVICES)
def test_a_detection_head_equals_onnxruntime_and_its_kept_boxes_differentiate(device):
    proto, x = detection_head(), features()
    kept, kept_scores, selected = run_ort(proto, {"features": x})
    assert 3 <= len(selected) < 10  # some boxes kept, some suppressed or below the threshold
    got = ours(proto, DEVICES[device](), x)
    np.testing.assert_array_equal(got[2], selected)
    np.testing.assert_allclose(got[0], kept, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got[1], kept_scores, rtol=1e-6, atol=1e-6)
    # sum(kept) over w_box: each kept row's features, summed, under every box coordinate
    dev = DEVICES[device]().autodiff()
    model = importer.load(proto, device=dev)
    out = model(x)
    grads = out[0].sum().backward()
    expected = np.repeat(x[0, selected[:, 2]].sum(0)[:, None], 4, axis=1)
    np.testing.assert_allclose(model.w_box.grad(grads).to_numpy(), expected, rtol=1e-5)


def test_capture_refuses_non_max_suppression_naming_the_onnx_node():
    model = importer.load(detection_head())
    x = Tensor.from_data(features())
    with pytest.raises(capture.CaptureError, match="depends on the data") as raised:
        capture(lambda model, x: model(x))(model, x)
    where = str(raised.value).splitlines()[-1]
    assert "(ONNX node NonMaxSuppression nms)" in where
    assert where.endswith("ops.non_max_suppression(boxes, scores, 5, 0.4000000059604645, 0.30000001192092896, False)")  # fmt: skip


def test_capture_refuses_unique_naming_the_onnx_node():
    model = importer.load(unique_model(None, 1))
    x = Tensor.from_data(np.ones((4, 3), np.float32))
    with pytest.raises(capture.CaptureError, match="depends on the data") as raised:
        capture(lambda model, x: model(x))(model, x)
    assert "(ONNX node Unique u): y, first, inverse, counts = ops.unique(x, None, True)" in str(
        raised.value
    )
