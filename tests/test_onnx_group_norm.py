"""burnpy.onnx's GroupNormalization before opset 21 (scale and bias per group, not per channel)
against onnxruntime and onnx's reference evaluator on both backends, and its gradients against
float64 finite differences."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}


def group_norm_18(dtype=np.float32) -> onnx.ModelProto:
    """x [2, 6, 3, 2] in 3 groups, scale and bias one per group (initializers)."""
    elem = TensorProto.FLOAT if dtype == np.float32 else TensorProto.DOUBLE
    graph = helper.make_graph(
        [helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"], name="gn", num_groups=3, epsilon=1e-3)],  # fmt: skip
        "gn",
        [helper.make_tensor_value_info("x", elem, [2, 6, 3, 2])],
        [helper.make_tensor_value_info("y", elem, [2, 6, 3, 2])],
        [
            numpy_helper.from_array(np.array([0.5, -1.5, 2.0], dtype), "scale"),
            numpy_helper.from_array(np.array([0.1, 0.0, -0.3], dtype), "bias"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def x_of(dtype=np.float32) -> np.ndarray:
    return np.random.default_rng(0).normal(1.0, 2.0, (2, 6, 3, 2)).astype(dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_group_normalization_18_equals_onnxruntime_and_the_reference(device):
    proto, x = group_norm_18(), x_of()
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x": x})
    (reference,) = ReferenceEvaluator(proto).run(None, {"x": x})
    got = importer.load(proto, device=DEVICES[device]())(x).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got, reference, rtol=1e-5, atol=1e-5)


def test_group_normalization_18_gradients_equal_finite_differences():
    proto, x = group_norm_18(np.float64), x_of(np.float64)
    device = Device.numpy().autodiff()
    model = importer.load(proto, device=device)
    weights = np.random.default_rng(1).standard_normal(x.shape)
    xt = Tensor.from_data(x, device=device).require_grad()
    grads = (model(xt) * Tensor.from_data(weights, device=device)).sum().backward()

    def loss(scale_shift):
        changed = group_norm_18(np.float64)
        changed.graph.initializer[0].CopyFrom(numpy_helper.from_array(scale_shift, "scale"))
        (y,) = ReferenceEvaluator(changed).run(None, {"x": x})
        return float((y * weights).sum())

    scale = np.array([0.5, -1.5, 2.0])
    h = 1e-6
    numeric = [
        (loss(scale + h * np.eye(3)[g]) - loss(scale - h * np.eye(3)[g])) / (2 * h)
        for g in range(3)
    ]
    np.testing.assert_allclose(model.scale.grad(grads).to_numpy(), numeric, rtol=1e-5)
    for index in [(0, 0, 0, 0), (1, 3, 2, 1), (0, 5, 1, 0)]:
        bumped = x.copy()
        bumped[index] += h
        (up,) = ReferenceEvaluator(proto).run(None, {"x": bumped})
        bumped[index] -= 2 * h
        (down,) = ReferenceEvaluator(proto).run(None, {"x": bumped})
        numeric = ((up - down) * weights).sum() / (2 * h)
        np.testing.assert_allclose(xt.grad(grads).to_numpy()[index], numeric, rtol=1e-5)
