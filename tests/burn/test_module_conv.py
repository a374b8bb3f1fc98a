"""burn's tests of conv1d/2d/3d, conv_transpose1d/2d/3d, unfold4d and fold4d (burn-backend-tests
tensor/float/module/ and autodiff/), through `burnpy.generated.module`, with burn's data, expected values
and tolerances, on both backends and, for gradients, under both checkpointing strategies.

burn has no autodiff test of unfold4d or fold4d: their gradients are checked here against central
finite differences in float64 instead."""

import numpy as np
import pytest

from burn_conv_cases import (
    CONV1D,
    CONV1D_GRADS,
    CONV2D,
    CONV2D_GRADS,
    CONV3D,
    CONV3D_GRADS,
    CONV_TRANSPOSE1D,
    CONV_TRANSPOSE1D_GRADS,
    CONV_TRANSPOSE2D,
    CONV_TRANSPOSE2D_GRADS,
    CONV_TRANSPOSE3D,
    CONV_TRANSPOSE3D_GRADS,
    FOLD4D,
    UNFOLD4D,
)
from burncheck import (
    AUTODIFF_DEVICES,
    DEVICES,
    Tolerance,
    arange,
    assert_approx_eq,
    assert_eq,
)
from burnpy.generated import Device, Tensor, module

CONV = {1: module.conv1d, 2: module.conv2d, 3: module.conv3d}
CONV_TRANSPOSE = {
    1: module.conv_transpose1d,
    2: module.conv_transpose2d,
    3: module.conv_transpose3d,
}
SIZE_NAMES = {1: ["length"], 2: ["height", "width"], 3: ["depth", "height", "width"]}


def per_dim(fields, name, n):
    """One of burn's spatial options as a list: `name: [a, b]`, `name: a` (1-d), or
    `name_1: a, name_2: b`."""
    if name in fields:
        value = fields[name]
        return list(value) if isinstance(value, list) else [value] * n
    return [fields[f"{name}_{i + 1}"] for i in range(n)]


def spatial_size(fields, n):
    if "size" in fields:
        return per_dim(fields, "size", n)
    return [fields[name] for name in SIZE_NAMES[n]]


def channels(fields):
    if "channels" in fields:
        return fields["channels"]
    return fields["channels_in"], fields["channels_out"]


def conv_case(fields, n, device, *, transposed, grad=False):
    """burn's `assert_output` / `assert_grads` inputs: arange x, weight and bias (its
    conv_transpose3d gradient tests divide x and weight by their element counts)."""
    c_in, c_out = channels(fields)
    groups = fields["groups"]
    kernel = per_dim(fields, "kernel_size", n)
    if transposed:
        weight_shape = [c_in, c_out // groups, *kernel]
    else:
        weight_shape = [c_out, c_in // groups, *kernel]
    x_shape = [fields["batch_size"], c_in, *spatial_size(fields, n)]
    scaled = transposed and grad and n == 3
    x = arange(x_shape, device, grad=grad, scaled=scaled)
    weight = arange(weight_shape, device, grad=grad, scaled=scaled)
    bias = arange([c_out], device, grad=grad)
    options = dict(
        stride=per_dim(fields, "stride", n),
        padding=per_dim(fields, "padding", n),
        dilation=per_dim(fields, "dilation", n),
        groups=groups,
    )
    if transposed:
        options["padding_out"] = per_dim(fields, "padding_out", n)
    op = (CONV_TRANSPOSE if transposed else CONV)[n]
    return (x, weight, bias), op(x, weight, bias, **options)


def cases(table, n, tolerance):
    return [
        pytest.param(fields, n, expected, tolerance, id=name) for name, fields, expected in table
    ]


FORWARD = [
    *cases(CONV1D, 1, Tolerance.relative_only(1e-5)),
    *cases(CONV2D, 2, Tolerance.default()),
    *cases(CONV3D, 3, Tolerance.relative_only(1e-5)),
]
FORWARD_TRANSPOSED = [
    *cases(CONV_TRANSPOSE1D, 1, Tolerance.default()),
    *cases(CONV_TRANSPOSE2D, 2, Tolerance.rel_abs(1e-1, 0.01)),
    *cases(CONV_TRANSPOSE3D, 3, Tolerance.default()),
]
GRADS = [
    *cases(CONV1D_GRADS, 1, Tolerance.default()),
    *cases(CONV2D_GRADS, 2, Tolerance.rel_abs(0.01, 0.01)),
    *cases(CONV3D_GRADS, 3, Tolerance.default()),
]
GRADS_TRANSPOSED = [
    *cases(CONV_TRANSPOSE1D_GRADS, 1, Tolerance.default()),
    *cases(CONV_TRANSPOSE2D_GRADS, 2, Tolerance.permissive()),
    *cases(CONV_TRANSPOSE3D_GRADS, 3, Tolerance.permissive()),
]


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("fields, n, expected, tolerance", FORWARD)
def test_conv_forward(make_device, fields, n, expected, tolerance):
    _, output = conv_case(fields, n, make_device(), transposed=False)
    assert_approx_eq(output, expected["expected"], tolerance)


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("fields, n, expected, tolerance", FORWARD_TRANSPOSED)
def test_conv_transpose_forward(make_device, fields, n, expected, tolerance):
    _, output = conv_case(fields, n, make_device(), transposed=True)
    assert_approx_eq(output, expected["expected"], tolerance)


def assert_grads(fields, n, expected, tolerance, device, *, transposed):
    """burn's `assert_grads`: the gradients of `output.backward()` (a seed of ones)."""
    (x, weight, bias), output = conv_case(fields, n, device, transposed=transposed, grad=True)
    grads = output.backward()
    assert_approx_eq(bias.grad(grads), expected["bias"], tolerance)
    assert_approx_eq(x.grad(grads), expected["x"], tolerance)
    assert_approx_eq(weight.grad(grads), expected["weight"], tolerance)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize("fields, n, expected, tolerance", GRADS)
def test_conv_grads(make_device, fields, n, expected, tolerance):
    assert_grads(fields, n, expected, tolerance, make_device(), transposed=False)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize("fields, n, expected, tolerance", GRADS_TRANSPOSED)
def test_conv_transpose_grads(make_device, fields, n, expected, tolerance):
    assert_grads(fields, n, expected, tolerance, make_device(), transposed=True)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_conv1d_backward_shape_with_remainder(make_device):
    # burn checks the shapes only; the values follow by hand: stride 4 over 11 inputs gives two
    # windows [0, 4) and [4, 8), so inputs 8..10 get no gradient and w[k] sees x[k] + x[4 + k].
    device = make_device()
    x = arange([1, 1, 11], device, grad=True)
    weight = arange([1, 1, 4], device, grad=True)
    grads = module.conv1d(x, weight, None, stride=4).sum().backward()
    assert_eq(x.grad(grads), [[[0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 0]]])
    assert_eq(weight.grad(grads), [[[4, 6, 8, 10]]])


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_conv1d_asymmetric_padding_backward_shape(make_device):
    device = make_device()
    x = Tensor.zeros([1, 32, 1600], device=device).require_grad()
    weight = Tensor.zeros([64, 32, 4], device=device).require_grad()
    output = module.conv1d(x, weight, None, padding=4, padding_end=3)
    assert output.shape == (1, 64, 1604)
    grads = output.sum().backward()
    assert x.grad(grads).shape == (1, 32, 1600)
    assert weight.grad(grads).shape == (64, 32, 4)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_conv_transpose1d_padding_out_stride1_backward_shape(make_device):
    # burn checks the shapes only; with stride 1 the padding_out column gets only the bias, so
    # the x gradient is the plain per-channel weight sum and the weight gradient sums x.
    device = make_device()
    x = arange([2, 2, 4], device, grad=True)
    weight = arange([2, 2, 3], device, grad=True)
    output = module.conv_transpose1d(x, weight, None, padding_out=1)
    assert output.shape == (2, 2, 7)
    grads = output.backward()
    w = np.arange(12.0).reshape(2, 2, 3)
    xs = np.arange(16.0).reshape(2, 2, 4)
    assert_eq(x.grad(grads), np.broadcast_to(w.sum(axis=(1, 2))[None, :, None], (2, 2, 4)))
    assert_eq(weight.grad(grads), np.broadcast_to(xs.sum(axis=(0, 2))[:, None, None], (2, 2, 3)))


# -- unfold4d and fold4d ----------------------------------------------------------------------


def unfold_options(fields):
    return dict(stride=fields["stride"], padding=fields["padding"], dilation=fields["dilation"])


def unfold4d_input(fields, device, dtype=np.float32):
    shape = [fields["batch_size"], fields["channels_in"], fields["height"], fields["width"]]
    return Tensor.from_data(np.arange(np.prod(shape), dtype=dtype).reshape(shape), device=device)


def fold4d_input(fields, device, dtype=np.float32):
    (kh, kw), (oh, ow) = fields["kernel_size"], fields["output_size"]
    (p0, p1), (s0, s1), (d0, d1) = fields["padding"], fields["stride"], fields["dilation"]
    blocks = ((oh + 2 * p0 - d0 * (kh - 1) - 1) // s0 + 1) * (
        (ow + 2 * p1 - d1 * (kw - 1) - 1) // s1 + 1
    )
    shape = [fields["batch_size"], fields["channels"] * kh * kw, blocks]
    return Tensor.from_data(np.arange(np.prod(shape), dtype=dtype).reshape(shape), device=device)


def run_unfold4d(fields, x):
    return module.unfold4d(x, fields["kernel_size"], **unfold_options(fields))


def run_fold4d(fields, x):
    return module.fold4d(x, fields["output_size"], fields["kernel_size"], **unfold_options(fields))


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("name, fields, expected", UNFOLD4D, ids=[c[0] for c in UNFOLD4D])
def test_unfold4d(make_device, name, fields, expected):
    output = run_unfold4d(fields, unfold4d_input(fields, make_device()))
    if "shape" in expected:
        assert list(output.shape) == expected["shape"]
    else:
        assert_approx_eq(output, expected["expected"], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("name, fields, expected", FOLD4D, ids=[c[0] for c in FOLD4D])
def test_fold4d(make_device, name, fields, expected):
    output = run_fold4d(fields, fold4d_input(fields, make_device()))
    if "shape" in expected:
        assert list(output.shape) == expected["shape"]
    else:
        assert_approx_eq(output, expected["expected"], Tolerance.default())


def finite_difference_grad(f, x, cotangent, eps=1e-6):
    """d<f(x), cotangent>/dx by central differences in float64."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        grad[i] = np.sum((f(x + step) - f(x - step)) * cotangent) / (2 * eps)
    return grad


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize(
    "run, make_input, table",
    [(run_unfold4d, unfold4d_input, UNFOLD4D), (run_fold4d, fold4d_input, FOLD4D)],
    ids=["unfold4d", "fold4d"],
)
def test_unfold_fold_grads_match_finite_differences(make_device, run, make_input, table):
    # burn's cases with values (not the shape-only ones), in float64 with a random cotangent.
    device, plain = make_device(), Device.numpy()
    for _, fields, expected in table:
        if "shape" in expected:
            continue
        x0 = make_input(fields, plain, np.float64).to_numpy()
        x = Tensor.from_data(x0, device=device).require_grad()
        output = run(fields, x)
        cotangent = np.random.default_rng(0).standard_normal(output.shape)
        grads = (output * Tensor.from_data(cotangent, device=device)).sum().backward()

        def forward(values):
            return run(fields, Tensor.from_data(values, device=plain)).to_numpy()

        expected_grad = finite_difference_grad(forward, x0, cotangent)
        np.testing.assert_allclose(x.grad(grads).to_numpy(), expected_grad, rtol=1e-6, atol=1e-6)
