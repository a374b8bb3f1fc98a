"""burn-nn's activation layers: burn's own unit tests (activation/*.rs) with its data, expected
values and tolerances on both backends; every layer against PyTorch's function in float64,
forward and gradient; finiteness over the whole float range, where burn's formulas overflow."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from burn.burncheck import DEVICES, Tolerance, assert_approx_eq, assert_eq
from burnpy import nn
from burnpy.nn import functional as F
from burnpy.generated import Device, Tensor


def t(data, device, dtype=np.float32):
    return Tensor.from_data(np.asarray(data, dtype=dtype), device=device)


# -- burn's unit tests ---------------------------------------------------------------------------
# (layer, input, expected, tolerance or None for burn's exact assert_eq)
BURN_CASES = {
    "celu": (nn.Celu(), [[0.5, -0.5, -1.0]], [[0.5, -0.393469, -0.632121]], Tolerance.default()),
    "celu_alpha": (nn.Celu(alpha=2.0), [[0.0, -2.0]], [[0.0, -1.264241]], Tolerance.default()),
    "elu": (nn.Elu(), [[0.4410, -0.2507]], [[0.4410, -0.22186]], Tolerance.default()),
    "gelu_approximate": (
        nn.Gelu(approximate=True),
        [[-1.0, 0.0, 1.0], [0.5, -0.5, 2.0]],
        [[-0.1588079929, 0.0, 0.8411920071], [0.3457140028, -0.1542859972, 1.9545977116]],
        Tolerance.rel_abs(1e-5, 1e-5),
    ),
    "glu_negative_dim": (
        nn.GLU(-1),
        [
            [
                [-0.5710, -1.3416, 1.9128, -0.8257, -0.1331, -1.4804, -0.6281, -0.6115],
                [0.0267, -1.3834, 0.2752, 0.7844, -0.3549, -0.4274, 0.3290, -0.5459],
                [-1.6347, -2.0908, 1.8801, 0.3541, 0.2237, 1.0377, 2.4850, 0.3490],
            ]
        ],
        [
            [
                [-0.2665, -0.2487, 0.6656, -0.2904],
                [0.0110, -0.5461, 0.1601, 0.2877],
                [-0.9084, -1.5439, 1.7355, 0.2077],
            ]
        ],
        Tolerance.default(),
    ),
    "hard_shrink": (
        nn.HardShrink(),
        [[0.5, -0.5, -1.0], [8.0, 0.3, 0.0]],
        [[0.0, 0.0, -1.0], [8.0, 0.0, 0.0]],
        None,
    ),
    "hard_shrink_lambda": (
        nn.HardShrink(lambd=0.2),
        [[0.1, -0.1, -0.3], [0.5, 0.1, 0.0]],
        [[0.0, 0.0, -0.3], [0.5, 0.0, 0.0]],
        None,
    ),
    "hard_sigmoid": (
        nn.HardSigmoid(),
        [[0.4410, -0.2507]],
        [[0.5882, 0.44986]],
        Tolerance.default(),
    ),
    "hard_swish": (
        nn.HardSwish(),
        [[3.0, -3.0], [0.0, 1.0]],
        [[3.0, 0.0], [0.0, 0.6666667]],
        Tolerance.default(),
    ),
    "leaky_relu": (nn.LeakyRelu(), [[0.4410, -0.2507]], [[0.4410, -0.002507]], None),
    "leaky_relu_multi_dim": (
        nn.LeakyRelu(),
        [
            [
                [-1.0222, 1.5810, 0.3457, -1.3530],
                [0.0231, 0.8681, 0.2473, -0.0377],
                [0.3520, -1.1199, 1.2219, 0.2804],
            ],
            [
                [1.0002, 0.7259, 0.8779, 0.2084],
                [1.5615, -0.1057, -0.4886, -1.5184],
                [-0.5523, -0.2741, -0.0210, -1.1352],
            ],
        ],
        [
            [
                [-1.0222e-02, 1.5810e00, 3.457e-01, -1.3530e-02],
                [2.31e-02, 8.681e-01, 2.473e-01, -3.77e-04],
                [3.52e-01, -1.1199e-02, 1.2219e00, 2.804e-01],
            ],
            [
                [1.0002e00, 7.259e-01, 8.779e-01, 2.084e-01],
                [1.5615e00, -1.057e-03, -4.886e-03, -1.5184e-02],
                [-5.523e-03, -2.741e-03, -2.1e-04, -1.1352e-02],
            ],
        ],
        Tolerance.default(),
    ),
    "shrink": (
        nn.Shrink(),
        [[0.5, -0.5, -1.0], [8.0, 0.3, 0.0]],
        [[0.0, 0.0, -0.5], [7.5, 0.0, 0.0]],
        None,
    ),
    "shrink_lambda_bias": (
        nn.Shrink(lambd=0.25, bias=0.125),
        [[0.125, -0.125, -0.5], [0.75, 0.1, 0.0]],
        [[0.0, 0.0, -0.375], [0.625, 0.0, 0.0]],
        None,
    ),
    "soft_shrink": (
        nn.SoftShrink(),
        [[0.5, -0.5, -1.0], [8.0, 0.3, 0.0]],
        [[0.0, 0.0, -0.5], [7.5, 0.0, 0.0]],
        None,
    ),
    "soft_shrink_lambda": (
        nn.SoftShrink(lambd=0.25),
        [[0.125, -0.125, -0.5], [0.75, 0.1, 0.0]],
        [[0.0, 0.0, -0.25], [0.5, 0.0, 0.0]],
        None,
    ),
    "softplus": (
        nn.Softplus(),
        [[0.0, 1.0, -1.0]],
        [[0.6931, 1.3133, 0.3133]],
        Tolerance.default(),
    ),
    "softplus_beta": (nn.Softplus(beta=2.0), [[0.0, 1.0]], [[0.3466, 1.0635]], Tolerance.default()),
    "thresholded_relu": (nn.ThresholdedRelu(), [[0.5, 1.5, -0.2]], [[0.0, 1.5, 0.0]], None),
    "rrelu_eval_midpoint": (
        nn.RRelu(lower=0.1, upper=0.3),
        [[-2.0, -1.0, 0.0], [0.5, 1.0, 2.0]],
        [[-0.4, -0.2, 0.0], [0.5, 1.0, 2.0]],
        Tolerance.default(),
    ),
}


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("case", list(BURN_CASES))
def test_burn_forward(case, make_device):
    layer, data, expected, tolerance = BURN_CASES[case]
    out = layer(t(data, make_device()))
    if tolerance is None:
        assert_eq(out, np.asarray(expected, dtype=np.float32))
    else:
        assert_approx_eq(out, expected, tolerance)


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("bias,expected", [(False, 8.5732), (True, 11.8909)])
def test_burn_swiglu(make_device, bias, expected):
    device = make_device()
    layer = nn.SwiGlu(3, 3, bias=bias, device=device, initializer=nn.init.constant(0.5))
    out = layer(t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device))
    second = {False: 56.2189, True: 63.9785}[bias]
    assert_approx_eq(out, [[expected] * 3, [second] * 3], Tolerance.default())
    assert [name for name, _ in layer.named_parameters()][:2] == [
        "linear_inner.weight",
        "linear_inner.bias" if bias else "linear_outer.weight",
    ]


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_rrelu_training_scales_negatives_randomly(backend):
    device = Device.of(backend).autodiff()
    x = t([[-1.0, -2.0], [-3.0, -4.0]], device)
    out = nn.RRelu()(x).to_numpy()
    slopes = out / x.to_numpy()
    assert ((slopes >= 0.125) & (slopes < 1.0 / 3.0)).all()
    assert len(np.unique(slopes)) > 1
    with pytest.raises(ValueError, match="must be <= upper bound"):
        nn.RRelu(lower=0.5, upper=0.2)


def test_burn_display():
    assert repr(nn.Celu()) == "Celu(alpha=1.0)"
    assert repr(nn.HardSigmoid()) == "HardSigmoid(alpha=0.2, beta=0.5)"
    assert repr(nn.Threshold(1.0, 20.0)) == "Threshold(threshold=1.0, value=20.0)"
    assert nn.SwiGlu(3, 5, device=Device.numpy()).num_params() == 30
    assert nn.PRelu(device=Device.numpy()).num_params() == 1


# -- against PyTorch, forward and gradient in float64 --------------------------------------------
AGAINST_TORCH = {
    "relu": (nn.Relu(), TF.relu),
    "relu6": (nn.Relu6(), TF.relu6),
    "leaky_relu": (nn.LeakyRelu(negative_slope=0.2), lambda x: TF.leaky_relu(x, 0.2)),
    "gelu": (nn.Gelu(), TF.gelu),
    "gelu_tanh": (nn.Gelu(approximate=True), lambda x: TF.gelu(x, approximate="tanh")),
    "sigmoid": (nn.Sigmoid(), torch.sigmoid),
    # torch's hardsigmoid, hardswish and celu backwards round a constant to float32 even in
    # float64 (1/6, 1/alpha): their
    # formulas are written out here instead.
    "hard_sigmoid": (nn.HardSigmoid(alpha=1 / 6, beta=0.5), lambda x: (x / 6 + 0.5).clamp(0, 1)),
    "log_sigmoid": (nn.LogSigmoid(), TF.logsigmoid),
    "silu": (nn.SiLU(), TF.silu),
    "hard_swish": (nn.HardSwish(), lambda x: x * (x / 6 + 0.5).clamp(0, 1)),
    "mish": (nn.Mish(), TF.mish),
    "softplus": (nn.Softplus(beta=2.0), lambda x: TF.softplus(x, beta=2.0, threshold=1e9)),
    "softsign": (nn.Softsign(), TF.softsign),
    "tanh": (nn.Tanh(), torch.tanh),
    "tanhshrink": (nn.Tanhshrink(), TF.tanhshrink),
    "hardtanh": (nn.Hardtanh(min_val=-0.5, max_val=0.7), lambda x: TF.hardtanh(x, -0.5, 0.7)),
    "elu": (nn.Elu(alpha=0.7), lambda x: TF.elu(x, 0.7)),
    "celu": (nn.Celu(alpha=0.7), lambda x: torch.where(x > 0, x, 0.7 * torch.expm1(x / 0.7))),
    "selu": (nn.Selu(), TF.selu),
    "threshold": (nn.Threshold(0.3, -2.0), lambda x: TF.threshold(x, 0.3, -2.0)),
    "thresholded_relu": (nn.ThresholdedRelu(alpha=0.3), lambda x: TF.threshold(x, 0.3, 0.0)),
    "hard_shrink": (nn.HardShrink(lambd=0.4), lambda x: TF.hardshrink(x, 0.4)),
    "soft_shrink": (nn.SoftShrink(lambd=0.4), lambda x: TF.softshrink(x, 0.4)),
    "glu": (nn.GLU(1), lambda x: TF.glu(x, 1)),
    "rrelu_eval": (nn.RRelu(), lambda x: TF.rrelu(x, training=False)),
    "identity": (nn.Identity(), lambda x: x),
}


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("name", list(AGAINST_TORCH))
def test_against_torch(name, backend):
    layer, reference = AGAINST_TORCH[name]
    # Points at least 0.05 away from every kink (0, ±0.4, 0.3, -0.5, 0.7, ±3 of hard_swish).
    x = np.random.default_rng(0).uniform(-4, 4, (3, 4, 2))
    kinks = np.array([0.0, 0.3, 0.4, -0.4, -0.5, 0.7, 3.0, -3.0, 6.0])
    x[np.abs(x[..., None] - kinks).min(-1) < 0.05] += 0.11
    device = Device.of(backend).autodiff()
    xt = Tensor.from_data(x, device=device, dtype=np.float64).require_grad()
    out = layer.eval()(xt)
    upstream = np.random.default_rng(1).normal(size=out.shape)
    up = Tensor.from_data(upstream, device=device, dtype=np.float64)
    grad = xt.grad((out * up).sum().backward())
    xr = torch.tensor(x, requires_grad=True)
    expected = reference(xr)
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(out.to_numpy(), expected.detach().numpy(), rtol=1e-10, atol=1e-12)
    expected_grad = xr.grad.numpy() if xr.grad is not None else np.zeros_like(x)
    np.testing.assert_allclose(grad.to_numpy(), expected_grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("channels", [1, 3])
def test_prelu_against_torch_with_its_gradients(backend, channels):
    x = np.random.default_rng(2).uniform(-2, 2, (2, 3, 4))
    device = Device.of(backend).autodiff()
    layer = nn.PRelu(num_parameters=channels, alpha=0.3, device=device)
    layer.alpha = Tensor.from_data(np.linspace(0.1, 0.4, channels), device=device)
    xt = Tensor.from_data(x, device=device).require_grad()
    grads = layer(xt).sum().backward()
    xr, ar = torch.tensor(x, requires_grad=True), torch.linspace(0.1, 0.4, channels).double()
    ar.requires_grad_()
    TF.prelu(xr, ar).sum().backward()
    np.testing.assert_allclose(layer(xt).to_numpy(), TF.prelu(xr, ar).detach().numpy())
    np.testing.assert_allclose(xt.grad(grads).to_numpy(), xr.grad.numpy())
    np.testing.assert_allclose(layer.alpha.grad(grads).to_numpy(), ar.grad.numpy(), rtol=1e-12)
    with pytest.raises(ValueError, match="alpha \\[1\\] or \\[channels\\]"):
        nn.PRelu(num_parameters=2, device=device)(xt)


def test_activation_by_name():
    device = Device.numpy()
    assert isinstance(nn.Activation("leaky_relu", negative_slope=0.2), nn.LeakyRelu)
    assert nn.Activation("gelu_approximate").approximate
    assert nn.Activation("swiglu", 4, 6, device=device).linear_outer.weight.shape == (4, 6)
    with pytest.raises(ValueError, match="unknown activation 'relu7'; choose one of"):
        nn.Activation("relu7")


# -- the whole float range ----------------------------------------------------------------------
FINITE_RANGE = {
    "float32": [-3e38, -1e30, -1e4, -100.0, -88.8, -20.0, 0.0, 20.0, 88.8, 100.0, 1e4, 1e30, 3e38],
    "float64": [-1e308, -1e30, -1e4, -710.0, -100.0, 0.0, 100.0, 710.0, 1e4, 1e30, 1e308],
}
EVERY_ACTIVATION = [
    nn.Relu(),
    nn.Relu6(),
    nn.LeakyRelu(),
    nn.RRelu(),
    nn.Gelu(),
    nn.Gelu(approximate=True),
    nn.Sigmoid(),
    nn.HardSigmoid(),
    nn.LogSigmoid(),
    nn.SiLU(),
    nn.HardSwish(),
    nn.Mish(),
    nn.Softplus(),
    nn.Softplus(beta=2.0),
    nn.Softplus(beta=0.5),
    nn.Softsign(),
    nn.Tanh(),
    nn.Tanhshrink(),
    nn.Hardtanh(),
    nn.Elu(),
    nn.Celu(alpha=0.5),
    nn.Selu(),
    nn.Threshold(1.0, 20.0),
    nn.ThresholdedRelu(),
    nn.HardShrink(),
    nn.SoftShrink(),
    nn.Shrink(),
]


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", list(FINITE_RANGE))
def test_every_activation_is_finite_with_a_finite_gradient(backend, dtype):
    device = Device.of(backend).autodiff()
    points = np.array(FINITE_RANGE[dtype], dtype=dtype)
    # selu's and the shrinks' results are within the range whenever x is: gamma·x is not at
    # 3e38 and 1e308, so those two ends are left to the layers whose slope is at most 1.
    for layer in EVERY_ACTIVATION:
        x = Tensor.from_data(points, device=device, dtype=dtype).require_grad()
        if isinstance(layer, nn.Selu):
            x = Tensor.from_data(points[1:-1], device=device, dtype=dtype).require_grad()
        out = layer(x)
        grad = x.grad(out.sum().backward()).to_numpy()
        assert np.isfinite(out.to_numpy()).all(), (layer, out.to_numpy())
        assert np.isfinite(grad).all(), (layer, grad)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_where_burns_formulas_overflow_ours_are_right(backend):
    """burn computes softplus as log(1 + exp(beta x)) / beta and mish through it: in float32
    exp(100) is inf, so burn's softplus(100) is inf with a NaN gradient, and mish's gradient is
    NaN. Ours give the limits: softplus(x) = x and mish(x) = x, both with gradient 1."""
    with np.errstate(over="ignore"):
        burns_softplus = np.log1p(np.exp(np.float32(100.0)))
    assert np.isinf(burns_softplus)
    device = Device.of(backend).autodiff()
    for f in (F.softplus, F.mish):
        x = Tensor.from_data(np.array([100.0, 1e4], dtype=np.float32), device=device)
        x = x.require_grad()
        out = f(x)
        np.testing.assert_array_equal(out.to_numpy(), [100.0, 1e4])
        np.testing.assert_array_equal(x.grad(out.sum().backward()).to_numpy(), [1.0, 1.0])
    # and far on the other side, where the true values underflow to zero
    x = Tensor.from_data(np.array([-100.0], dtype=np.float64), device=device)
    np.testing.assert_allclose(F.softplus(x).to_numpy(), [math.exp(-100.0)], rtol=1e-12)
