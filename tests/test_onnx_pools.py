"""burnpy.onnx's n-d pooling (MaxPool, AveragePool, LpPool of any rank, dilated, padded on one
side, of ints, MaxPool's Indices, MaxUnpool), Col2Im of n-d images, GatherND over batch dims,
the scatters' mul / min / max reductions, TensorScatter, BatchNormalization in training mode and
BitCast: values against onnx's reference evaluator on both backends, and the 3-d pools'
gradients against float64 finite differences."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from onnx_node import central_differences  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
TYPES = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int64: TensorProto.INT64, np.uint8: TensorProto.UINT8, np.int32: TensorProto.INT32, np.bool_: TensorProto.BOOL}  # fmt: skip


def model(op: str, inputs: list, outputs: int = 1, opset: int = 22, **attributes):
    """One `op` node over the given arrays as graph inputs (their types and shapes declared);
    its outputs' types are left to inference."""
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op, names, [f"y{j}" for j in range(outputs)], name="n", **attributes)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info(n, TYPES[a.dtype.type], a.shape) for n, a in zip(names, inputs)],  # fmt: skip
        [helper.make_tensor_value_info(f"y{j}", TensorProto.UNDEFINED, None) for j in range(outputs)],  # fmt: skip
    )
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return onnx.shape_inference.infer_shapes(built, strict_mode=True)


def check(built, inputs, device, rtol=1e-5, atol=1e-6):
    expected = ReferenceEvaluator(built).run(None, {f"x{i}": a for i, a in enumerate(inputs)})
    got = importer.load(built, device=DEVICES[device]())(*inputs)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        g = g.to_numpy()
        assert g.shape == e.shape
        if e.dtype.kind == "f":
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(g.astype(e.dtype), e)


rng = np.random.default_rng(0)
X3 = rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
POOLS = {
    "max 3-d dilated, padded, ceil": ("MaxPool", dict(kernel_shape=[2, 3, 2], dilations=[2, 1, 2], pads=[1, 0, 1, 0, 1, 1], strides=[2, 2, 1], ceil_mode=1)),  # fmt: skip
    "avg 3-d dilated, pads left out": ("AveragePool", dict(kernel_shape=[2, 2, 3], dilations=[1, 2, 2], pads=[1, 1, 0, 0, 1, 2], strides=[1, 2, 2], ceil_mode=1)),  # fmt: skip
    "avg 3-d, pads counted": ("AveragePool", dict(kernel_shape=[3, 2, 2], pads=[1, 1, 1, 1, 0, 1], strides=[2, 1, 3], count_include_pad=1)),  # fmt: skip
    "lp 3-d dilated": ("LpPool", dict(kernel_shape=[2, 2, 2], dilations=[2, 1, 1], pads=[0, 1, 0, 1, 0, 1], p=3, strides=[1, 2, 2])),  # fmt: skip
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", POOLS)
def test_3d_pools_match_the_reference(case, device):
    op, attributes = POOLS[case]
    check(model(op, [X3], **attributes), [X3], device)


@pytest.mark.parametrize("device", DEVICES)
def test_lp_pool_with_ceil_mode_matches_onnxruntime(device):
    """The p-norm of each window's taps inside the input, as onnxruntime computes it (onnx's
    reference evaluator scales a mean by the kernel's size, which differs where ceil_mode's
    last window passes the padding)."""
    ort = pytest.importorskip("onnxruntime")
    attributes = dict(kernel_shape=[3, 2, 2], dilations=[1, 2, 1], pads=[1, 0, 0, 0, 1, 1], p=3, ceil_mode=1, strides=[2, 2, 2])  # fmt: skip
    built = model("LpPool", [X3], **attributes)
    session = ort.InferenceSession(built.SerializeToString(), providers=["CPUExecutionProvider"])
    got = importer.load(built, device=DEVICES[device]())(X3).to_numpy()
    np.testing.assert_allclose(got, session.run(None, {"x0": X3})[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("device", DEVICES)
def test_2d_pools_the_catalogue_does_not_take(device):
    x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    same = dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER")
    check(model("AveragePool", [x], **same), [x], device)
    check(model("AveragePool", [x], kernel_shape=[2, 2], dilations=[2, 3]), [x], device)
    ints = rng.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
    check(model("MaxPool", [ints], kernel_shape=[2, 3], pads=[1, 0, 0, 1]), [ints], device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("storage_order", [0, 1])
def test_maxpool_indices_with_pads_strides_and_dilations(storage_order, device):
    x = rng.standard_normal((2, 2, 6, 5)).astype(np.float32)
    built = model("MaxPool", [x], 2, kernel_shape=[3, 2], pads=[1, 1, 0, 1], strides=[2, 1], storage_order=storage_order)  # fmt: skip
    check(built, [x], device)
    x3 = X3[:, :, :4, :4, :5]
    check(model("MaxPool", [x3], 2, kernel_shape=[2, 2, 2], strides=[2, 1, 2], pads=[0, 1, 1, 1, 0, 0]), [x3], device)  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
def test_maxunpool_puts_the_maxima_back(device):
    x = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    pooled = ReferenceEvaluator(model("MaxPool", [x], 2, kernel_shape=[2, 2], strides=[2, 2]))
    values, indices = pooled.run(None, {"x0": x})
    check(model("MaxUnpool", [values, indices], kernel_shape=[2, 2], strides=[2, 2]), [values, indices], device)  # fmt: skip
    shape = np.array([1, 2, 5, 5], np.int64)
    built = model("MaxUnpool", [values, indices, shape], kernel_shape=[2, 2], strides=[2, 2])
    got = importer.load(built, device=DEVICES[device]())(values, indices, shape).to_numpy()
    expected = np.zeros((1, 2, 5, 5), np.float32)  # the default [4, 4] output, zeros after
    default = ReferenceEvaluator(model("MaxUnpool", [values, indices], kernel_shape=[2, 2], strides=[2, 2])).run(None, {"x0": values, "x1": indices})[0]  # fmt: skip
    expected[:, :, :4, :4] = default
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("device", DEVICES)
def test_col2im_of_a_3d_image(device):
    image, block = np.array([4, 5, 3], np.int64), np.array([2, 2, 2], np.int64)
    attributes = dict(strides=[1, 2, 1], dilations=[1, 1, 2], pads=[1, 0, 0, 0, 1, 0])
    blocks = 4 * 3 * 1
    cols = rng.standard_normal((2, 3 * 8, blocks)).astype(np.float32)
    check(model("Col2Im", [cols, image, block], opset=18, **attributes), [cols, image, block], device)  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
def test_gather_nd_over_batch_dims(device):
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    indices = rng.integers(0, 3, (2, 3, 2, 1)).astype(np.int64)
    check(model("GatherND", [x, indices], batch_dims=2, opset=13), [x, indices], device)
    pairs = rng.integers(0, 3, (2, 4, 2)).astype(np.int64)
    check(model("GatherND", [x, pairs], batch_dims=1, opset=13), [x, pairs], device)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("reduction", ["mul", "min", "max"])
def test_scatter_reductions_with_repeated_indices(reduction, device):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    indices = np.array([[0, 0, 3], [1, -4, 1], [2, 2, 2]], np.int64)
    updates = rng.standard_normal((3, 3)).astype(np.float32)
    built = model("ScatterElements", [x, indices, updates], axis=1, reduction=reduction, opset=18)
    check(built, [x, indices, updates], device)
    rows = np.array([[1], [0], [1]], np.int64)
    slices = rng.standard_normal((3, 4)).astype(np.float32)
    check(model("ScatterND", [x, rows, slices], reduction=reduction, opset=18), [x, rows, slices], device)  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter_writes_each_batch_at_its_position(mode, device):
    cache = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    update = rng.standard_normal((2, 3, 2, 4)).astype(np.float32)
    positions = np.array([3, 1] if mode == "linear" else [4, 0], np.int64)
    built = model("TensorScatter", [cache, update, positions], mode=mode, opset=24)
    check(built, [cache, update, positions], device)


@pytest.mark.parametrize("device", DEVICES)
def test_batch_norm_in_training_mode_updates_the_running_statistics(device):
    x = rng.standard_normal((4, 3, 5)).astype(np.float32)
    stats = [rng.standard_normal(3).astype(np.float32) for _ in range(3)] + [rng.random(3).astype(np.float32) + 0.5]  # fmt: skip
    built = model("BatchNormalization", [x] + stats, 3, training_mode=1, momentum=0.8, epsilon=1e-3, opset=15)  # fmt: skip
    check(built, [x] + stats, device)


BITCASTS = [
    (np.array([1.5, -0.0, np.inf, 3e-39], np.float32), TensorProto.INT32),
    (np.array([[-2.25, 1e300]], np.float64), TensorProto.UINT64),
    (np.array([-1, 2**31 - 1, -(2**31)], np.int32), TensorProto.FLOAT),
    (np.array([0, 1, 255, 128], np.uint8), TensorProto.INT8),
    (np.array([True, False]), TensorProto.UINT8),
    (np.array([4607182418800017408, -1], np.int64), TensorProto.DOUBLE),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", range(len(BITCASTS)))
def test_bitcast_reads_the_same_bits(case, device):
    x, to = BITCASTS[case]
    built = model("BitCast", [x], to=to, opset=26)
    expected = ReferenceEvaluator(built).run(None, {"x0": x})[0]
    got = importer.load(built, device=DEVICES[device]())(x).to_numpy()
    np.testing.assert_array_equal(got.astype(expected.dtype).view(np.uint8), expected.view(np.uint8))  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", POOLS)
def test_3d_pool_gradients_match_finite_differences(case, device):
    """d sum(pool(x) * w) / dx in float64, against finite differences of the reference."""
    op, attributes = POOLS[case]
    x = np.random.default_rng(1).standard_normal((1, 1, 4, 4, 5))
    built = model(op, [x], **attributes)
    reference = ReferenceEvaluator(built)
    w = np.random.default_rng(2).standard_normal(reference.run(None, {"x0": x})[0].shape)
    ad = DEVICES[device]().autodiff()
    xt = Tensor.from_data(x, device=ad, dtype="float64").require_grad()
    out = importer.load(built, device=ad)(xt)
    grads = (out * Tensor.from_data(w, device=ad, dtype="float64")).sum().backward()
    expected = central_differences(lambda v: float((reference.run(None, {"x0": v})[0] * w).sum()), x)  # fmt: skip
    np.testing.assert_allclose(xt.grad(grads).to_numpy(), expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("device", DEVICES)
def test_det_of_a_batch_of_matrices(device):
    x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
    check(model("Det", [x]), [x], device, rtol=1e-4)


def domain_model(op: str, domain: str, inputs: list, outputs: int, **attributes):
    """`op` of another domain over the given arrays (outputs' types inferred)."""
    names = [f"x{i}" for i in range(len(inputs))]
    node = helper.make_node(op, names, [f"y{j}" for j in range(outputs)], name="n", domain=domain, **attributes)  # fmt: skip
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info(n, TYPES[a.dtype.type], a.shape) for n, a in zip(names, inputs)],  # fmt: skip
        [helper.make_tensor_value_info(f"y{j}", TensorProto.UNDEFINED, None) for j in range(outputs)],  # fmt: skip
    )
    opsets = [helper.make_opsetid("", 22), helper.make_opsetid(domain, 1)]
    return onnx.shape_inference.infer_shapes(helper.make_model(graph, opset_imports=opsets))


OPTIMISERS = {
    "momentum": ("Momentum", 1, dict(alpha=0.9, beta=0.2, mode="standard", norm_coefficient=0.01)),  # fmt: skip
    "nesterov": ("Momentum", 1, dict(alpha=0.8, beta=0.5, mode="nesterov", norm_coefficient=0.1)),  # fmt: skip
    "adagrad": ("Adagrad", 1, dict(decay_factor=0.1, epsilon=1e-5, norm_coefficient=0.01)),
    "adam": ("Adam", 2, dict(alpha=0.85, beta=0.95, epsilon=1e-6, norm_coefficient=0.01, norm_coefficient_post=0.02)),  # fmt: skip
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("step", [0, 3])
@pytest.mark.parametrize("case", OPTIMISERS)
def test_training_optimisers_update_two_tensors(case, step, device):
    op, states, attributes = OPTIMISERS[case]
    r, t = np.array(0.1, np.float32), np.array(step, np.int64)
    tensors = [rng.standard_normal(s).astype(np.float32) for s in ([3], [2, 2])]
    groups = [tensors, [rng.standard_normal(x.shape).astype(np.float32) for x in tensors]]
    groups += [[rng.random(x.shape).astype(np.float32) for x in tensors] for _ in range(states)]
    inputs = [r, t] + [a for group in groups for a in group]
    built = domain_model(op, "ai.onnx.preview.training", inputs, 2 * (1 + states), **attributes)
    check(built, inputs, device)


@pytest.mark.parametrize("device", DEVICES)
def test_ml_binarizer_and_array_feature_extractor(device):
    x = rng.standard_normal((3, 5)).astype(np.float32)
    check(domain_model("Binarizer", "ai.onnx.ml", [x], 1, threshold=0.25), [x], device)
    columns = np.array([4, 0, 4], np.int64)
    check(domain_model("ArrayFeatureExtractor", "ai.onnx.ml", [x, columns], 1), [x, columns], device)  # fmt: skip


@pytest.mark.parametrize("device", DEVICES)
def test_div_of_uint64_divides_unsigned(device):
    """uint64 held as int64's bits, divided as unsigned: against numpy's uint64 division."""
    draw = np.random.default_rng(4)
    x = draw.integers(0, 2**64, 64, dtype=np.uint64)
    y = draw.integers(1, 2**64, 64, dtype=np.uint64)
    y[:24] = draw.integers(1, 1000, 24).astype(np.uint64)  # small divisors of huge values
    y[24:32] = x[24:32]  # a divisor of 2^63 and more goes in once
    y[32:40] = x[32:40] + np.uint64(1)  # or not at all
    node = helper.make_node("Div", ["x", "y"], ["z"])
    typed = [helper.make_tensor_value_info(n, TensorProto.UINT64, [64]) for n in "xyz"]
    built = helper.make_model(helper.make_graph([node], "g", typed[:2], typed[2:]), opset_imports=[helper.make_opsetid("", 14)])  # fmt: skip
    got = importer.load(built, device=DEVICES[device]())(x, y).to_numpy()
    np.testing.assert_array_equal(got.view(np.uint64), x // y)


@pytest.mark.parametrize("device", DEVICES)
def test_scan_before_opset_9_over_a_batch_of_one(device):
    """Opset 8's Scan (a leading batch dim): a running sum and its steps, against onnxruntime."""
    ort = pytest.importorskip("onnxruntime")
    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "v"], ["s_out"]), helper.make_node("Identity", ["s_out"], ["each"])],  # fmt: skip
        "body",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("s_in", "v")],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("s_out", "each")],
    )
    scan = helper.make_node("Scan", ["", "s", "xs"], ["total", "steps"], num_scan_inputs=1, directions=[1], body=body)  # fmt: skip
    graph = helper.make_graph(
        [scan],
        "g",
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 2]), helper.make_tensor_value_info("xs", TensorProto.FLOAT, [1, 4, 2])],  # fmt: skip
        [helper.make_tensor_value_info("total", TensorProto.FLOAT, [1, 2]), helper.make_tensor_value_info("steps", TensorProto.FLOAT, [1, 4, 2])],  # fmt: skip
    )
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 8)], ir_version=8)
    s, xs = np.array([[0.5, -1.0]], np.float32), rng.standard_normal((1, 4, 2)).astype(np.float32)
    total, steps = importer.load(built, device=DEVICES[device]())(s, xs)
    session = ort.InferenceSession(built.SerializeToString(), providers=["CPUExecutionProvider"])
    expected = session.run(None, {"s": s, "xs": xs})
    np.testing.assert_allclose(total.to_numpy(), expected[0], rtol=1e-6)
    np.testing.assert_allclose(steps.to_numpy(), expected[1], rtol=1e-6)
