"""burn's batch_norm (tensor/float/module/batch_norm.rs), layer_norm (burn-nn's LayerNorm
tests, which run the layer_norm primitive with gamma = 1, beta = 0), deform_conv2d
(tensor/float/module/deform_conv2d.rs, autodiff/deform_conv2d.rs) and grid_sample_2d
(tensor/float/ops/grid_sample.rs) tests, on both backends and both autodiff strategies, with
burn's data, expected values and tolerances. burn pins no batch_norm or grid_sample gradient:
those are checked against finite differences on burn's data."""

import numpy as np
import pytest

from burnpy.generated import Tensor, module
from signal_cases import DEFORM_FORWARD, DEFORM_GRADS_BASIC
from signal_check import (
    BACKENDS,
    BALANCED,
    PERMISSIVE,
    STRATEGIES,
    assert_approx_eq,
    autodiff_device,
    device,
    finite_difference,
)

BN_INPUT = [
    [[0.9601, 0.7277], [0.6272, 0.9034], [0.9378, 0.7230]],
    [[0.6356, 0.1362], [0.0249, 0.9509], [0.6600, 0.5945]],
]
BN_PARAMS = [[2.0, 3.0, 4.0], [0.5, -1.0, 2.0], [1.0, 2.0, 3.0], [3.0, 8.0, 15.0]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_norm_forward(backend):
    d = device(backend)
    args = [Tensor.from_data(np.float32(a), device=d) for a in (BN_INPUT, *BN_PARAMS)]
    expected = [
        [[0.4601, 0.2277], [-2.3728, -2.0966], [-0.0622, -0.2770]],
        [[0.1356, -0.3638], [-2.9751, -2.0491], [-0.3400, -0.4055]],
    ]
    out = module.batch_norm(*args, 1.0)
    assert_approx_eq(out.to_numpy(), expected, relative=1e-5, absolute=0.0)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_norm_gradients(backend, strategy):
    values = [np.float64(a) for a in (BN_INPUT, *BN_PARAMS)]
    weights = np.random.default_rng(40).standard_normal((2, 3, 2))
    d = autodiff_device(backend, strategy)
    tensors = [Tensor.from_data(a, device=d).require_grad() for a in values]
    grads = (
        (module.batch_norm(*tensors, 1.0) * Tensor.from_data(weights, device=d)).sum().backward()
    )
    for i, tensor in enumerate(tensors):

        def loss(x, i=i):
            x_, gamma, beta, mean, var = [*values[:i], x, *values[i + 1 :]]
            shape = (1, 3, 1)
            out = (x_ - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + 1.0)
            return float(((out * gamma.reshape(shape) + beta.reshape(shape)) * weights).sum())

        grad = tensor.grad(grads).to_numpy()
        np.testing.assert_allclose(grad, finite_difference(loss, values[i]), rtol=1e-6, atol=1e-8)


LN_INPUT = [[-0.6897, -2.7106, 2.2222, -1.0330, -0.8933, 1.1765, 0.0601, 1.5252, -0.3630, 0.6728]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_layer_norm_forward(backend):
    d = device(backend)
    x = Tensor.from_data(np.float32(LN_INPUT), device=d)
    gamma, beta = Tensor.ones([10], device=d), Tensor.zeros([10], device=d)
    cases = [  # layer_norm_forward, _large_epsilon, _no_bias
        (beta, 1e-5, [-0.4990, -1.9680, 1.6178, -0.7486, -0.6470, 0.8576, 0.0461, 1.1111]),
        (beta, 1e-1, [-0.4863, -1.9180, 1.5766, -0.7295, -0.6305, 0.8358, 0.0449, 1.0828]),
        (None, 1e-5, [-0.4990, -1.9680, 1.6178, -0.7486, -0.6470, 0.8576, 0.0461, 1.1111]),
    ]
    tails = {1e-5: [-0.2614, 0.4915], 1e-1: [-0.2548, 0.4790]}
    for b, eps, expected in cases:
        out = module.layer_norm(x, gamma, b, eps)
        assert_approx_eq(out.to_numpy(), [expected + tails[eps]], **BALANCED)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_layer_norm_backward(backend, strategy):
    """burn-nn layer_norm_backward: x = t1 @ t2 has rows [9, 10] and [39, 46], each normalised
    to [-1, 1], so gamma's gradient is [-2, 2], beta's [2, 2], and t1's and t2's zero."""
    d = autodiff_device(backend, strategy)
    t1 = Tensor.from_data(np.float32([[0.0, 1.0], [3.0, 4.0]]), device=d).require_grad()
    t2 = Tensor.from_data(np.float32([[6.0, 7.0], [9.0, 10.0]]), device=d).require_grad()
    gamma = Tensor.ones([2], device=d).require_grad()
    beta = Tensor.zeros([2], device=d).require_grad()
    grads = module.layer_norm(t1.matmul(t2), gamma, beta).backward()
    assert_approx_eq(gamma.grad(grads).to_numpy(), [-2.0, 2.0], **BALANCED)
    assert_approx_eq(beta.grad(grads).to_numpy(), [2.0, 2.0], **BALANCED)
    assert_approx_eq(t1.grad(grads).to_numpy(), np.zeros((2, 2)), **BALANCED)
    assert_approx_eq(t2.grad(grads).to_numpy(), np.zeros((2, 2)), **BALANCED)


def deform_arguments(case, d, *, scale_weight_and_bias, groups_key):
    """burn's DeformConv2dTestCase / Conv2dTestCase tensors: aranges, divided by their size
    (weight and bias too in the forward test, not in the backward one)."""
    kh, kw = case["kernel_size_1"], case["kernel_size_2"]
    out_h = (case["height"] + 2 * case["padding_1"] - case["dilation_1"] * (kh - 1) - 1) // case[
        "stride_1"
    ] + 1
    out_w = (case["width"] + 2 * case["padding_2"] - case["dilation_2"] * (kw - 1) - 1) // case[
        "stride_2"
    ] + 1
    og = case["offset_groups"]
    shapes = {
        "x": (case["batch_size"], case["channels_in"], case["height"], case["width"]),
        "offset": (case["batch_size"], 2 * og * kh * kw, out_h, out_w),
        "weight": (case["channels_out"], case["channels_in"] // case[groups_key], kh, kw),
        "mask": (case["batch_size"], og * kh * kw, out_h, out_w),
        "bias": (case["channels_out"],),
    }
    scaled = (
        {"x", "offset", "mask", "weight", "bias"} if scale_weight_and_bias else {"offset", "mask"}
    )
    values = {}
    for name, shape in shapes.items():
        a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        values[name] = a / np.float32(a.size) if name in scaled else a
    options = dict(
        stride=(case["stride_1"], case["stride_2"]),
        padding=(case["padding_1"], case["padding_2"]),
        dilation=(case["dilation_1"], case["dilation_2"]),
        weight_groups=case[groups_key],
        offset_groups=og,
    )
    return {k: Tensor.from_data(v, device=d) for k, v in values.items()}, options


@pytest.mark.parametrize("name", sorted(DEFORM_FORWARD))
@pytest.mark.parametrize("backend", BACKENDS)
def test_deform_conv2d_forward(backend, name):
    case = DEFORM_FORWARD[name]
    t, options = deform_arguments(
        case["case"], device(backend), scale_weight_and_bias=True, groups_key="weight_groups"
    )
    out = module.deform_conv2d(t["x"], t["offset"], t["weight"], t["mask"], t["bias"], **options)
    assert_approx_eq(out.to_numpy(), case["expected"], **PERMISSIVE)


ORDER = ("x", "offset", "weight", "mask", "bias")


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_deform_conv2d_basic_backward(backend, strategy):
    d = autodiff_device(backend, strategy)
    t, options = deform_arguments(
        DEFORM_GRADS_BASIC["case"], d, scale_weight_and_bias=False, groups_key="groups"
    )
    t = {k: v.require_grad() for k, v in t.items()}
    grads = module.deform_conv2d(*(t[k] for k in ORDER), **options).backward()
    for name in ORDER:  # burn: Tolerance::relative(0.5)
        expected = DEFORM_GRADS_BASIC["grads"][name]
        assert_approx_eq(t[name].grad(grads).to_numpy(), expected, relative=0.5, absolute=0.0)


@pytest.mark.parametrize(
    "tracked", [("x",), ("offset",), ("weight",), ("mask",), ("bias",), ("x", "mask")]
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_deform_conv2d_gradients_of_a_subset(backend, tracked):
    """The joint backward computes only the tracked inputs' gradients: each equals the one
    computed with every input tracked."""
    d = autodiff_device(backend, "autodiff")

    def grads_of(track):
        t, options = deform_arguments(
            DEFORM_GRADS_BASIC["case"], d, scale_weight_and_bias=False, groups_key="groups"
        )
        t = {k: v.require_grad() if k in track else v for k, v in t.items()}
        grads = module.deform_conv2d(*(t[k] for k in ORDER), **options).backward()
        return {k: t[k].grad(grads).to_numpy() for k in track}

    full = grads_of(ORDER)
    for name, grad in grads_of(tracked).items():
        np.testing.assert_array_equal(grad, full[name])


GS_INPUT = [[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]
GS_GRID = [[[[0.0, 0.0], [-1.0, 0.25]], [[1.0, 1.0], [0.2, -0.8]]]]
GRID_SAMPLE = {  # (grid, options, expected)
    "default": (GS_GRID, {}, [[[[4.0, 2.0625], [2.0, 1.04]]]]),
    "align_corners_border": (
        GS_GRID,
        dict(padding_mode="border", align_corners=True),
        [[[[4.0, 3.75], [8.0, 1.8]]]],
    ),
    "pad_zeros": ([[[[0.0, -2.0]]]], {}, [[[[0.0]]]]),
    "pad_border": ([[[[0.0, -2.0]]]], dict(padding_mode="border"), [[[[1.0]]]]),
    "pad_reflection": (GS_GRID, dict(padding_mode="reflection"), [[[[4.0, 4.125], [8.0, 1.3]]]]),
}


@pytest.mark.parametrize("name", sorted(GRID_SAMPLE))
@pytest.mark.parametrize("backend", BACKENDS)
def test_grid_sample_2d(backend, name):
    grid, options, expected = GRID_SAMPLE[name]
    d = device(backend)
    x = Tensor.from_data(np.float32(GS_INPUT), device=d)
    out = x.grid_sample_2d(Tensor.from_data(np.float32(grid), device=d), **options)
    assert_approx_eq(out.to_numpy(), expected, **BALANCED)


@pytest.mark.parametrize("name", ["default", "align_corners_border", "pad_reflection"])
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_grid_sample_2d_gradients(backend, strategy, name):
    """On burn's input, and its grid moved by 0.03 off the pixel centres and edges where
    bilinear sampling has kinks, against finite differences."""
    grid, options, _ = GRID_SAMPLE[name]
    values = [np.float64(GS_INPUT), np.clip(np.float64(grid) - 0.03, -0.97, 0.97)]
    weights = np.array([[[[1.0, -2.0], [0.5, 3.0]]]])
    d = autodiff_device(backend, strategy)
    x, g = (Tensor.from_data(a, device=d).require_grad() for a in values)
    grads = (x.grid_sample_2d(g, **options) * Tensor.from_data(weights, device=d)).sum().backward()
    plain = d.inner()
    for i, tensor in enumerate((x, g)):

        def loss(v, i=i):
            args = [Tensor.from_data(a, device=plain) for a in (*values[:i], v, *values[i + 1 :])]
            return float((args[0].grid_sample_2d(args[1], **options).to_numpy() * weights).sum())

        grad = tensor.grad(grads).to_numpy()
        np.testing.assert_allclose(grad, finite_difference(loss, values[i]), rtol=1e-6, atol=1e-8)
