"""Kernels of embedding, linear, the convolutions, unfold4d and fold4d, on both backends:
forward values against direct loops written here (burn-ndarray's definitions), every VJP of the
rules table against central finite differences of the forward kernel in float64, and a few
against torch.nn.functional where its semantics are burn's."""

import itertools

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from burnpy.generated import Device, Tensor, module
from burnpy.runtime.backends import torch_conv
from kernelcheck import BACKENDS, NUMPY, TORCH, check_vjps, run, to_backend, to_numpy

# -- independent references (direct loops) ---------------------------------------------------


def reference_conv(x, weight, bias, stride, padding, dilation, groups, padding_end):
    end = padding if padding_end is None else padding_end
    xp = np.pad(x, [(0, 0), (0, 0), *zip(padding, end)])
    kernel = weight.shape[2:]
    size = [
        (n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(xp.shape[2:], kernel, stride, dilation)
    ]
    per_in, per_out = x.shape[1] // groups, weight.shape[0] // groups
    out = np.zeros((x.shape[0], weight.shape[0], *size))
    for o in range(weight.shape[0]):
        channels = slice(o // per_out * per_in, (o // per_out + 1) * per_in)
        for pos in itertools.product(*map(range, size)):
            for k in itertools.product(*map(range, kernel)):
                at = tuple(p * s + kk * d for p, s, kk, d in zip(pos, stride, k, dilation))
                out[(slice(None), o, *pos)] += (
                    xp[(slice(None), channels, *at)] @ weight[(o, slice(None), *k)]
                )
    if bias is not None:
        out += bias.reshape(-1, *[1] * len(kernel))
    return out


def reference_conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups):
    kernel = weight.shape[2:]
    size = [
        (n - 1) * s + d * (k - 1) + 1 + po - 2 * p
        for n, k, s, p, po, d in zip(x.shape[2:], kernel, stride, padding, padding_out, dilation)
    ]
    per_in, per_out = x.shape[1] // groups, weight.shape[1]
    out = np.zeros((x.shape[0], per_out * groups, *size))
    for ic in range(x.shape[1]):
        group = ic // per_in
        for oc in range(per_out):
            for pos in itertools.product(*map(range, x.shape[2:])):
                for k in itertools.product(*map(range, kernel)):
                    at = [
                        i * s + kk * d - p
                        for i, s, kk, d, p in zip(pos, stride, k, dilation, padding)
                    ]
                    if all(0 <= a < n for a, n in zip(at, size)):
                        out[(slice(None), group * per_out + oc, *at)] += (
                            x[(slice(None), ic, *pos)] * weight[(ic, oc, *k)]
                        )
    if bias is not None:
        out += bias.reshape(-1, *[1] * len(kernel))
    return out


def reference_unfold(x, kernel, stride, padding, dilation):
    xp = np.pad(x, [(0, 0), (0, 0), *zip(padding, padding)])
    size = [
        (n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(xp.shape[2:], kernel, stride, dilation)
    ]
    out = np.zeros((x.shape[0], x.shape[1] * kernel[0] * kernel[1], size[0] * size[1]))
    for c, kh, kw, oh, ow in itertools.product(
        range(x.shape[1]), range(kernel[0]), range(kernel[1]), range(size[0]), range(size[1])
    ):
        row = (c * kernel[0] + kh) * kernel[1] + kw
        value = xp[:, c, oh * stride[0] + kh * dilation[0], ow * stride[1] + kw * dilation[1]]
        out[:, row, oh * size[1] + ow] = value
    return out


def reference_fold(x, output_size, kernel, stride, padding, dilation):
    size = [
        (n + 2 * p - d * (k - 1) - 1) // s + 1
        for n, k, s, p, d in zip(output_size, kernel, stride, padding, dilation)
    ]
    channels = x.shape[1] // (kernel[0] * kernel[1])
    out = np.zeros(
        (x.shape[0], channels, output_size[0] + 2 * padding[0], output_size[1] + 2 * padding[1])
    )
    for c, kh, kw, oh, ow in itertools.product(
        range(channels), range(kernel[0]), range(kernel[1]), range(size[0]), range(size[1])
    ):
        row = (c * kernel[0] + kh) * kernel[1] + kw
        out[:, c, oh * stride[0] + kh * dilation[0], ow * stride[1] + kw * dilation[1]] += x[
            :, row, oh * size[1] + ow
        ]
    return out[
        :, :, padding[0] : padding[0] + output_size[0], padding[1] : padding[1] + output_size[1]
    ]


# -- cases -----------------------------------------------------------------------------------

# (spatial size, kernel, stride, padding, dilation, groups, padding_end)
CONV_CASES = [
    ((7,), (3,), (1,), (1,), (1,), 1, None),
    ((9,), (2,), (2,), (0,), (3,), 2, (2,)),
    ((5, 6), (3, 2), (1, 1), (1, 0), (1, 1), 1, None),
    ((6, 7), (2, 3), (2, 1), (1, 2), (2, 1), 2, (0, 1)),
    ((5, 5), (3, 3), (2, 2), (1, 1), (1, 1), 1, (2, 0)),
    ((4, 5, 4), (2, 2, 3), (1, 2, 1), (1, 0, 1), (1, 1, 1), 2, None),
    ((3, 4, 3), (2, 2, 2), (1, 1, 1), (0, 1, 1), (1, 2, 1), 1, (1, 0, 1)),
    ((6, 5), (2, 3), (1, 1), (0, 2), (2, 1), 2, (1, 0)),  # stride 1 (wide col2im), groups, dilation
    ((5,), (2,), (1,), (2,), (1,), 1, None),  # stride 1, padding wider than the kernel reaches
    ((6, 7), (1, 1), (2, 2), (0, 0), (1, 1), 2, None),  # 1x1 stride 2: no columns
    ((9,), (1,), (2,), (0,), (1,), 1, (1,)),  # 1x1, a padding at the end it does not reach
    ((4, 3), (1, 1), (1, 1), (0, 0), (2, 1), 1, None),  # 1x1 stride 1: the input itself
]

# (spatial size, kernel, stride, padding, padding_out, dilation, groups)
TRANSPOSE_CASES = [
    ((5,), (3,), (2,), (1,), (1,), (1,), 1),
    ((4,), (2,), (2,), (0,), (3,), (2,), 2),  # padding_out > stride: legal in burn
    ((3, 4), (3, 2), (2, 1), (1, 0), (1, 0), (1, 2), 1),
    ((4, 3), (2, 3), (1, 2), (0, 1), (2, 2), (1, 1), 2),  # padding_out >= stride
    ((3, 3, 2), (2, 2, 2), (2, 1, 1), (0, 1, 0), (1, 0, 0), (1, 1, 2), 1),
    ((3, 4), (3, 2), (1, 1), (1, 0), (0, 1), (2, 1), 1),
    ((3, 4), (1, 1), (2, 2), (0, 0), (1, 0), (1, 1), 2),  # 1x1 stride 2: no columns
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CONV_CASES, ids=str)
def test_conv(backend, case):
    B = BACKENDS[backend]
    size, kernel, stride, padding, dilation, groups, padding_end = case
    n = len(size)
    rng = np.random.default_rng(len(size) * 7 + groups)
    x = rng.standard_normal((2, 2 * groups, *size))
    weight = rng.standard_normal((3 * groups, 2, *kernel))
    bias = rng.standard_normal(3 * groups)
    options = (stride, padding, dilation, groups, padding_end)
    expected = reference_conv(x, weight, bias, *options)
    np.testing.assert_allclose(run(B, f"conv{n}d", x, weight, bias, *options), expected, atol=1e-12)
    names = ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end")
    check_vjps(B, f"conv{n}d", names, (x, weight, bias, *options), rng, names[:3])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CONV_CASES, ids=str)
@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_the_joint_backward_gives_burns_three_kernels_gradients(backend, case):
    """conv{n}d_backward, which the rule calls (NumPy widens the output gradient once for the
    input's and the weight's), bitwise what burn's three kernels give, for every set of wanted
    gradients; with an inf in the weight too (NumPy's input gradient then goes exactly)."""
    B = BACKENDS[backend]
    size, kernel, stride, padding, dilation, groups, padding_end = case
    n = len(size)
    rng = np.random.default_rng(len(size) * 3 + groups)
    x = rng.standard_normal((2, 2 * groups, *size))
    options = (stride, padding, dilation, groups, padding_end)
    for weight_scale in (1.0, np.inf):  # (an inf times the padding's zeros: NaN, warned of)
        weight = rng.standard_normal((3 * groups, 2, *kernel))
        weight.flat[0] *= weight_scale
        out = run(B, f"conv{n}d", x, weight, None, *options)
        args = [to_backend(B, a) for a in (x, weight, rng.standard_normal(out.shape))]
        expected = (
            getattr(B, f"conv{n}d_x_backward")(*args, *options),
            getattr(B, f"conv{n}d_weight_backward")(*args, *options),
            getattr(B, f"conv{n}d_bias_backward")(args[2]),
        )
        for wanted in itertools.product((False, True), repeat=3):
            got = getattr(B, f"conv{n}d_backward")(*args, *options, wanted)
            for want, grad, reference in zip(wanted, got, expected):
                if want:
                    np.testing.assert_array_equal(to_numpy(grad), to_numpy(reference))
                else:
                    assert grad is None


def _torch_conv_by_product(size, kernel, stride, padding, dilation, padding_end, channels, seed):
    """The torch backend's 2-d convolution and its three gradients against the direct loops and
    finite differences, and its joint backward bitwise its separate kernels'."""
    options = (stride, padding, dilation, 1, padding_end)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, channels, *size))
    weight = rng.standard_normal((3, channels, *kernel))
    bias = rng.standard_normal(3)
    expected = reference_conv(x, weight, bias, *options)
    np.testing.assert_allclose(
        run(TORCH, "conv2d", x, weight, bias, *options), expected, atol=1e-10
    )
    names = ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end")
    check_vjps(TORCH, "conv2d", names, (x, weight, bias, *options), rng, names[:3])
    args = [torch.from_numpy(a) for a in (x, weight, rng.standard_normal(expected.shape))]
    joint = TORCH.conv2d_backward(*args, *options, (True, True, False))
    np.testing.assert_array_equal(joint[0], TORCH.conv2d_x_backward(*args, *options))
    np.testing.assert_array_equal(joint[1], TORCH.conv2d_weight_backward(*args, *options))


@pytest.mark.parametrize("case", [c for c in CONV_CASES if len(c[0]) == 2 and c[5] == 1], ids=str)
def test_torch_convolutions_as_one_product_of_windows(case, monkeypatch):
    """Every 2-d case of one group through the windows' product (the kernels' choice widened)."""
    monkeypatch.setattr(torch_conv, "FEW_POSITIONS", 10**6)
    monkeypatch.setattr(torch_conv, "LONG_WINDOW", 0)
    size, kernel, stride, padding, dilation, _, padding_end = case
    _torch_conv_by_product(size, kernel, stride, padding, dilation, padding_end, 2, seed=9)


@pytest.mark.parametrize(
    "size, stride",
    [((2, 2), (1, 1)), ((4, 4), (2, 2)), ((3, 4), (2, 3))],
    ids=["last stage", "its downsampling", "uneven"],
)
def test_torch_convolutions_of_few_positions_take_one_product(size, stride):
    """ResNet's last stage on 64x64 images: 2x2 positions, windows of 256 channels x 3x3."""
    out_size = [(n + 2 - 3) // s + 1 for n, s in zip(size, stride)]
    x, weight = torch.zeros(1, 256, *size, dtype=torch.float64), torch.zeros(3, 256, 3, 3)
    assert torch_conv.few_positions(x, weight, 1, out_size)
    assert not torch_conv.few_positions(x, weight, 2, out_size)  # (groups: mkldnn's)
    assert not torch_conv.few_positions(x, weight[:, :200], 1, out_size)  # (short windows)
    _torch_conv_by_product(size, (3, 3), stride, (1, 1), (1, 1), None, 256, seed=10)
    # a batch of no images: no values, each of its shape
    g = torch.zeros(0, 3, *out_size, dtype=torch.float64)
    x, weight = x[:0], weight.double()
    options = (stride, (1, 1), (1, 1), 1, None)
    assert TORCH.conv2d(x, weight, None, *options).shape == g.shape
    x_grad, weight_grad, _ = TORCH.conv2d_backward(x, weight, g, *options, (True, True, False))
    assert x_grad.shape == x.shape
    np.testing.assert_array_equal(weight_grad, np.zeros(weight.shape))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", TRANSPOSE_CASES, ids=str)
def test_conv_transpose(backend, case):
    B = BACKENDS[backend]
    size, kernel, stride, padding, padding_out, dilation, groups = case
    n = len(size)
    rng = np.random.default_rng(len(size) * 5 + groups)
    x = rng.standard_normal((2, 2 * groups, *size))
    weight = rng.standard_normal((2 * groups, 3, *kernel))
    bias = rng.standard_normal(3 * groups)
    options = (stride, padding, padding_out, dilation, groups)
    expected = reference_conv_transpose(x, weight, bias, *options)
    got = run(B, f"conv_transpose{n}d", x, weight, bias, *options)
    np.testing.assert_allclose(got, expected, atol=1e-12)
    names = ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups")
    check_vjps(B, f"conv_transpose{n}d", names, (x, weight, bias, *options), rng, names[:3])


@pytest.mark.parametrize("backend", BACKENDS)
def test_conv_without_bias_and_float32(backend):
    B = BACKENDS[backend]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 4, 6, 5)).astype(np.float32)
    weight = rng.standard_normal((6, 2, 3, 3)).astype(np.float32)
    got = getattr(B, "conv2d")(
        to_backend(B, x), to_backend(B, weight), None, (1, 2), (1, 1), (1, 1), 2, None
    )
    assert to_numpy(got).dtype == np.float32
    expected = reference_conv(
        x.astype(np.float64), weight.astype(np.float64), None, (1, 2), (1, 1), (1, 1), 2, None
    )
    np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-5, atol=1e-5)


def test_conv_agrees_with_torch_functional():
    rng = np.random.default_rng(4)
    x, weight, bias = (
        rng.standard_normal((2, 4, 7, 6)),
        rng.standard_normal((6, 2, 3, 2)),
        rng.standard_normal(6),
    )
    expected = F.conv2d(
        *map(torch.from_numpy, (x, weight, bias)), (2, 1), (1, 1), (1, 2), 2
    ).numpy()
    np.testing.assert_allclose(
        NUMPY.conv2d(x, weight, bias, (2, 1), (1, 1), (1, 2), 2, None), expected, atol=1e-12
    )
    weight = rng.standard_normal((4, 3, 2, 3))
    expected = F.conv_transpose2d(
        *map(torch.from_numpy, (x, weight, bias)), (2, 1), (1, 0), (1, 0), 2, (1, 2)
    ).numpy()
    got = NUMPY.conv_transpose2d(x, weight, bias, (2, 1), (1, 0), (1, 0), (1, 2), 2)
    np.testing.assert_allclose(got, expected, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "options", [((2, 3), (1, 1), (0, 0), (1, 1)), ((3, 2), (2, 1), (1, 2), (1, 2))], ids=str
)
def test_unfold_and_fold(backend, options):
    B = BACKENDS[backend]
    kernel, stride, padding, dilation = options
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 6, 7))
    unfolded = run(B, "unfold4d", x, kernel, stride, padding, dilation)
    np.testing.assert_allclose(unfolded, reference_unfold(x, *options))
    columns = rng.standard_normal(unfolded.shape)
    folded = run(B, "fold4d", columns, (6, 7), kernel, stride, padding, dilation)
    np.testing.assert_allclose(folded, reference_fold(columns, (6, 7), *options), atol=1e-12)
    names = ("x", "kernel_size", "stride", "padding", "dilation")
    check_vjps(B, "unfold4d", names, (x, *options), rng, ("x",))
    names = ("x", "output_size", "kernel_size", "stride", "padding", "dilation")
    check_vjps(B, "fold4d", names, (columns, (6, 7), *options), rng, ("x",))


@pytest.mark.parametrize("backend", BACKENDS)
def test_embedding(backend):
    B = BACKENDS[backend]
    rng = np.random.default_rng(6)
    weights = rng.standard_normal((5, 3))
    indices = np.array([[0, 4, 4], [2, 0, 1]])
    got = run(B, "embedding", weights, indices)
    for b, s in itertools.product(range(2), range(3)):
        np.testing.assert_array_equal(got[b, s], weights[indices[b, s]])
    check_vjps(B, "embedding", ("weights", "indices"), (weights, indices), rng, ("weights",))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4)], ids=str)
def test_linear(backend, shape):
    B = BACKENDS[backend]
    rng = np.random.default_rng(7)
    x, weight, bias = (
        rng.standard_normal(shape),
        rng.standard_normal((4, 2)),
        rng.standard_normal(2),
    )
    expected = np.zeros((*shape[:-1], 2))
    for lead in itertools.product(*map(range, shape[:-1])):
        for j in range(2):
            expected[(*lead, j)] = sum(x[(*lead, i)] * weight[i, j] for i in range(4)) + bias[j]
    np.testing.assert_allclose(run(B, "linear", x, weight, bias), expected, atol=1e-12)
    np.testing.assert_allclose(run(B, "linear", x, weight, None), expected - bias, atol=1e-12)
    names = ("input", "weight", "bias")
    check_vjps(B, "linear", names, (x, weight, bias), rng, names)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_shapes_are_named(backend):
    B = BACKENDS[backend]
    x = to_backend(B, np.zeros((1, 3, 5, 5)))
    weight = to_backend(B, np.zeros((4, 2, 3, 3)))
    with pytest.raises(ValueError, match="channels"):
        B.conv2d(x, weight, None, (1, 1), (0, 0), (1, 1), 1, None)
    with pytest.raises(ValueError, match="bias"):
        B.conv2d(x[:, :2], weight, to_backend(B, np.zeros(3)), (1, 1), (0, 0), (1, 1), 1, None)
    with pytest.raises(ValueError, match="too small"):
        B.conv2d(x[:, :2, :2], weight, None, (1, 1), (0, 0), (1, 1), 1, None)
    with pytest.raises(ValueError, match="linear"):
        B.linear(x, weight[0, 0], None)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_bfloat16_conv_gradients_keep_their_dtype(backend):
    device = Device.of(backend).autodiff()
    rng = np.random.default_rng(5)
    x, weight, bias = (
        Tensor.from_data(rng.random(shape), device=device, dtype="bfloat16").require_grad()
        for shape in ((2, 3, 5, 5), (4, 3, 3, 3), (4,))
    )
    grads = module.conv2d(x, weight, bias, padding=1).sum().backward()
    assert [t.grad(grads).dtype for t in (x, weight, bias)] == ["bfloat16"] * 3
