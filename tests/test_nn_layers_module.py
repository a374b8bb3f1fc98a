"""Layers built on generated.module: forward against loops in numpy and against PyTorch with
copied weights, on both backends, plain and autodiff; gradients against finite differences;
BatchNorm's train/eval behaviour."""

import math

import numpy as np
import pytest

from burnpy import nn
from burnpy.generated import Device, Tensor
from seq_check import assert_parameter_gradients_match, to_float64

pytest.importorskip("burnpy.generated.module")

try:
    import torch
except ImportError:
    torch = None

BACKENDS = ["numpy"] + (["torch"] if torch is not None else [])
DEVICES = [(b, ad) for b in BACKENDS for ad in (False, True)]
TOL = dict(rtol=1e-4, atol=1e-5)
RNG = np.random.default_rng(0)


def device_of(backend, autodiff=False):
    d = Device.numpy() if backend == "numpy" else Device.torch()
    return d.autodiff() if autodiff else d


def data(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def conv2d_reference(x, w, b, stride, pad_start, pad_end, dilation, groups):
    n, c_in, h, wd = x.shape
    c_out, c_group, kh, kw = w.shape
    xp = np.zeros((n, c_in, h + pad_start[0] + pad_end[0], wd + pad_start[1] + pad_end[1]))
    xp[:, :, pad_start[0] : pad_start[0] + h, pad_start[1] : pad_start[1] + wd] = x
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, c_out, oh, ow))
    per_out = c_out // groups
    for i in range(n):
        for o in range(c_out):
            g = o // per_out
            for y in range(oh):
                for z in range(ow):
                    acc = 0.0 if b is None else b[o]
                    for c in range(c_group):
                        for p in range(kh):
                            for q in range(kw):
                                acc += (
                                    xp[
                                        i,
                                        g * c_group + c,
                                        y * stride[0] + p * dilation[0],
                                        z * stride[1] + q * dilation[1],
                                    ]
                                    * w[o, c, p, q]
                                )
                    out[i, o, y, z] = acc
    return out


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_linear(backend, autodiff):
    d = device_of(backend, autodiff)
    layer = nn.Linear(3, 2, device=d)
    assert layer.weight.shape == (3, 2) and layer.bias.shape == (2,)
    x = data(4, 3)
    w, b = layer.weight.to_numpy(), layer.bias.to_numpy()
    expected = [
        [sum(x[i, k] * w[k, j] for k in range(3)) + b[j] for j in range(2)] for i in range(4)
    ]
    np.testing.assert_allclose(layer(Tensor.from_data(x, device=d)).to_numpy(), expected, **TOL)
    bound = 1 / math.sqrt(3)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    if torch is not None:
        ref = torch.nn.Linear(3, 2)
        with torch.no_grad():
            ref.weight.copy_(torch.tensor(w.T))
            ref.bias.copy_(torch.tensor(b))
        np.testing.assert_allclose(
            layer(Tensor.from_data(x, device=d)).to_numpy(), ref(torch.tensor(x)).detach(), **TOL
        )
    assert nn.Linear(3, 2, bias=False, device=d).bias is None


@pytest.mark.parametrize("backend,autodiff", DEVICES)
@pytest.mark.parametrize(
    "kwargs,pads",
    [
        (dict(), ((0, 0), (0, 0))),
        (dict(stride=2, padding=1), ((1, 1), (1, 1))),
        (dict(padding=(1, 0), dilation=2), ((1, 0), (1, 0))),
        (dict(padding="same", stride=1), ((1, 1), (1, 1))),
        (dict(groups=2, padding="valid"), ((0, 0), (0, 0))),
    ],
)
def test_conv2d(backend, autodiff, kwargs, pads):
    d = device_of(backend, autodiff)
    layer = nn.Conv2d(2, 4, 3, device=d, **kwargs)
    x = data(1, 2, 5, 6)
    w, b = layer.weight.to_numpy(), layer.bias.to_numpy()
    stride = (kwargs.get("stride", 1),) * 2
    dilation = (kwargs.get("dilation", 1),) * 2
    expected = conv2d_reference(
        x, w, b, stride, pads[0], pads[1], dilation, kwargs.get("groups", 1)
    )
    np.testing.assert_allclose(layer(Tensor.from_data(x, device=d)).to_numpy(), expected, **TOL)
    if torch is not None:
        ref = torch.nn.Conv2d(2, 4, 3, **kwargs)
        with torch.no_grad():
            ref.weight.copy_(torch.tensor(w))
            ref.bias.copy_(torch.tensor(b))
        np.testing.assert_allclose(expected, ref(torch.tensor(x)).detach(), **TOL)


def test_conv2d_same_with_even_kernel_pads_at_the_end():
    d = Device.numpy()
    layer = nn.Conv2d(1, 1, 2, padding="same", bias=False, device=d)
    x = data(1, 1, 4, 4)
    out = layer(Tensor.from_data(x, device=d)).to_numpy()
    assert out.shape == (1, 1, 4, 4)
    expected = conv2d_reference(x, layer.weight.to_numpy(), None, (1, 1), (0, 0), (1, 1), (1, 1), 1)
    np.testing.assert_allclose(out, expected, **TOL)


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_conv1d(backend, autodiff):
    d = device_of(backend, autodiff)
    layer = nn.Conv1d(2, 3, 3, stride=2, padding=1, device=d)
    x = data(2, 2, 7)
    w, b = layer.weight.to_numpy(), layer.bias.to_numpy()
    expected = conv2d_reference(x[:, :, None], w[:, :, None], b, (1, 2), (0, 1), (0, 1), (1, 1), 1)[
        :, :, 0
    ]
    np.testing.assert_allclose(layer(Tensor.from_data(x, device=d)).to_numpy(), expected, **TOL)


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_conv_transpose2d(backend, autodiff):
    d = device_of(backend, autodiff)
    layer = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, padding_out=1, device=d)
    assert layer.weight.shape == (2, 3, 3, 3)
    x = data(1, 2, 3, 3)
    w, b = layer.weight.to_numpy(), layer.bias.to_numpy()
    full = np.zeros((1, 3, (3 - 1) * 2 + 3 + 1, (3 - 1) * 2 + 3 + 1))
    for c in range(2):
        for o in range(3):
            for y in range(3):
                for z in range(3):
                    full[0, o, y * 2 : y * 2 + 3, z * 2 : z * 2 + 3] += x[0, c, y, z] * w[c, o]
    expected = full[:, :, 1:7, 1:7] + b[None, :, None, None]
    np.testing.assert_allclose(layer(Tensor.from_data(x, device=d)).to_numpy(), expected, **TOL)
    if torch is not None:
        ref = torch.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
        with torch.no_grad():
            ref.weight.copy_(torch.tensor(w))
            ref.bias.copy_(torch.tensor(b))
        np.testing.assert_allclose(expected, ref(torch.tensor(x)).detach(), **TOL)


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_pools(backend, autodiff):
    d = device_of(backend, autodiff)
    x = data(1, 2, 5, 5)
    t = Tensor.from_data(x, device=d)
    out = nn.MaxPool2d(2)(t).to_numpy()
    expected = np.array(
        [
            [
                [
                    [x[0, c, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2].max() for j in range(2)]
                    for i in range(2)
                ]
                for c in range(2)
            ]
        ]
    )
    np.testing.assert_allclose(out, expected, **TOL)
    out = nn.AvgPool2d(3, stride=2, padding=1)(t).to_numpy()
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.array(
        [
            [
                [
                    [padded[0, c, 2 * i : 2 * i + 3, 2 * j : 2 * j + 3].sum() / 9 for j in range(3)]
                    for i in range(3)
                ]
                for c in range(2)
            ]
        ]
    )
    np.testing.assert_allclose(out, expected, **TOL)
    out = nn.AdaptiveAvgPool2d((2, 1))(t).to_numpy()
    expected = np.stack([x[..., 0:3, :].mean((-2, -1)), x[..., 2:5, :].mean((-2, -1))], -1)[
        ..., None
    ]
    np.testing.assert_allclose(out, expected, **TOL)
    if torch is not None:
        tx = torch.tensor(x)
        np.testing.assert_allclose(
            nn.MaxPool2d(3, stride=2, padding=1, dilation=1)(t).to_numpy(),
            torch.nn.MaxPool2d(3, stride=2, padding=1)(tx),
            **TOL,
        )
        np.testing.assert_allclose(
            nn.AvgPool2d(2, stride=1, count_include_pad=False, padding=1)(t).to_numpy(),
            torch.nn.AvgPool2d(2, stride=1, padding=1, count_include_pad=False)(tx),
            **TOL,
        )


@pytest.mark.parametrize("backend,autodiff", DEVICES)
def test_embedding_and_layer_norm(backend, autodiff):
    d = device_of(backend, autodiff)
    emb = nn.Embedding(5, 3, device=d)
    idx = np.array([[0, 4], [2, 2]])
    out = emb(Tensor.from_data(idx, device=d)).to_numpy()
    np.testing.assert_array_equal(out, emb.weight.to_numpy()[idx])
    norm = nn.LayerNorm(3, device=d)
    norm.gamma = Tensor.from_data([1.0, 2.0, 0.5], device=d)
    norm.beta = Tensor.from_data([0.0, -1.0, 1.0], device=d)
    x = data(2, 3)
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-5) * [1.0, 2.0, 0.5] + [0.0, -1.0, 1.0]
    np.testing.assert_allclose(norm(Tensor.from_data(x, device=d)).to_numpy(), expected, **TOL)


@pytest.mark.parametrize("backend", BACKENDS)
def test_batch_norm_train_and_eval(backend):
    ad = device_of(backend, True)
    bn = nn.BatchNorm(2, momentum=0.1, device=ad)
    assert [n for n, _ in bn.named_parameters()] == ["gamma", "beta"]
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var"]
    x = data(4, 2, 3) * 2 + 1
    out = bn(Tensor.from_data(x, device=ad)).to_numpy()
    mean, var = x.mean((0, 2)), x.var((0, 2))
    expected = (x - mean[None, :, None]) / np.sqrt(var[None, :, None] + 1e-5)
    np.testing.assert_allclose(out, expected, **TOL)
    np.testing.assert_allclose(bn.running_mean.to_numpy(), 0.1 * mean, **TOL)
    np.testing.assert_allclose(bn.running_var.to_numpy(), 0.9 + 0.1 * var, **TOL)  # biased
    running = (bn.running_mean.to_numpy(), bn.running_var.to_numpy())
    bn.eval()
    out = bn(Tensor.from_data(x, device=ad)).to_numpy()
    expected = (x - running[0][None, :, None]) / np.sqrt(running[1][None, :, None] + 1e-5)
    np.testing.assert_allclose(out, expected, **TOL)
    np.testing.assert_array_equal(bn.running_mean.to_numpy(), running[0])  # untouched
    plain = bn.train().valid()  # inner device: running statistics even in training mode
    plain(Tensor.from_data(x, device=ad.inner()))
    np.testing.assert_array_equal(plain.running_mean.to_numpy(), running[0])


def test_gradients_of_every_parameter_match_finite_differences():
    ad = Device.numpy().autodiff()
    ad.seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 2, 2, device=ad),
        nn.GroupNorm(1, 2, device=ad),
        nn.Tanh(),
        nn.Flatten(),
        nn.Linear(8, 3, device=ad),
        nn.LayerNorm(3, device=ad),
    )
    model = to_float64(model, ad)
    x = Tensor.from_data(RNG.normal(size=(2, 1, 3, 3)), device=ad)
    weights = Tensor.from_data(RNG.normal(size=(2, 3)))

    def loss():
        return (model(x) * weights).sum()

    assert_parameter_gradients_match(model, loss, ad)
