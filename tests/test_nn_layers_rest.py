"""The rest of burn-nn's layers: InstanceNorm, RmsNorm, LocalResponseNorm, Conv3d,
ConvTranspose1d/3d, DeformConv2d, the 1d and 3d pools, Interpolate1d/2d, Unfold4d/Fold4d,
PixelShuffle/Unshuffle, CosineSimilarity, PairwiseDistance, GaussianNoise: burn's unit tests
with its data and tolerances on both backends, each against PyTorch's layer with copied
weights, and parameter gradients against PyTorch's (and central differences for the norms)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from burn.burncheck import DEVICES, Tolerance, assert_approx_eq, assert_eq
from burnpy import nn
from burnpy.generated import Device, Tensor


def t(data, device, dtype=np.float32):
    return Tensor.from_data(np.asarray(data, dtype=dtype), device=device)


# -- burn's unit tests ---------------------------------------------------------------------------
@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_rms_norm_forward(make_device):
    d = make_device()
    out = nn.RmsNorm(3, epsilon=1e-5, device=d)(t(np.arange(9.0).reshape(3, 3), d))
    expected = [[0.0, 0.7746, 1.5492], [0.7348, 0.9798, 1.2247], [0.8514, 0.9933, 1.1352]]
    assert_approx_eq(out, expected, Tolerance.default())
    assert nn.RmsNorm(6, device=d).num_params() == 6


@pytest.mark.parametrize("make_device", DEVICES)
def test_rms_norm_float16_squares_in_float32(make_device):
    """300² overflows float16 (its largest is 65504): the mean of squares is taken in float32,
    as burn does, and the result is float16 again."""
    d = make_device()
    layer = nn.RmsNorm(3, device=d)
    layer.gamma = layer.gamma.cast(np.float16)
    x = Tensor.from_data(np.array([[300.0, 400.0, 500.0]]), device=d, dtype=np.float16)
    out = layer(x)
    assert out.dtype == np.float16
    expected = np.array([300.0, 400.0, 500.0]) / np.sqrt((300**2 + 400**2 + 500**2) / 3 + 1e-5)
    np.testing.assert_allclose(out.to_numpy()[0], expected, rtol=2e-3)


INSTANCE_CASES = {
    False: (
        [
            [
                [-0.3034, 0.2726, -0.9659],
                [-1.1845, 1.4078, 0.9774],
                [0.3963, -1.3738, 1.4125],
                [1.0682, 0.3604, 0.3985],
                [-0.4957, -0.4461, -0.9721],
                [1.5157, -0.1546, -0.5596],
            ],
            [
                [-1.6698, -0.4040, -0.7927],
                [0.3736, -0.0975, -0.1351],
                [-0.9461, 0.5461, -0.6334],
                [-1.0919, -0.1158, 0.1213],
                [-0.9535, 0.1281, 0.4372],
                [-0.2845, 0.3488, 0.5641],
            ],
        ],
        [
            [
                [0.0569, 1.1952, -1.2522],
                [-1.3971, 0.8883, 0.5088],
                [0.2183, -1.3192, 1.1009],
                [1.4126, -0.7649, -0.6477],
                [0.5999, 0.8091, -1.409],
                [1.39, -0.4696, -0.9205],
            ],
            [
                [-1.3492, 1.0417, 0.3075],
                [1.411, -0.6243, -0.7867],
                [-0.9363, 1.386, -0.4497],
                [-1.3899, 0.4692, 0.9208],
                [-1.3822, 0.4319, 0.9503],
                [-1.3714, 0.3868, 0.9846],
            ],
        ],
    ),
    True: (
        [
            [
                [0.3345, 0.4429, 0.6639],
                [0.5041, 0.4175, 0.8437],
                [0.6159, 0.3758, 0.4071],
                [0.5417, 0.5785, 0.7671],
                [0.3837, 0.9883, 0.0420],
                [0.4808, 0.8989, 0.6144],
            ],
            [
                [0.3930, 0.2098, 0.0602],
                [0.2298, 0.9425, 0.0333],
                [0.7409, 0.8172, 0.8879],
                [0.4846, 0.0486, 0.2029],
                [0.6741, 0.9765, 0.6864],
                [0.2827, 0.5534, 0.2125],
            ],
        ],
        [
            [
                [-1.06458, -0.2738, 1.33838],
                [-0.45848, -0.92929, 1.38777],
                [1.40388, -0.84877, -0.55511],
                [-0.88515, -0.51245, 1.3976],
                [-0.22397, 1.32124, -1.09727],
                [-1.05468, 1.34316, -0.28848],
            ],
            [
                [1.26372, -0.08229, -1.18144],
                [-0.44049, 1.38403, -0.94354],
                [-1.23828, 0.03109, 1.2072],
                [1.32524, -1.08999, -0.23524],
                [-0.75061, 1.4132, -0.66259],
                [-0.45469, 1.38697, -0.93228],
            ],
        ],
    ),
}


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("affine", [False, True])
def test_burn_instance_norm(make_device, affine):
    d = make_device()
    data, expected = INSTANCE_CASES[affine]
    layer = nn.InstanceNorm(6, affine=affine, device=d)
    assert_approx_eq(layer(t(data, d)), expected, Tolerance.default())
    assert layer.num_params() == (12 if affine else 0)


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_local_response_norm(make_device):
    d = make_device()
    out = nn.LocalResponseNorm(2)(
        t(
            [
                [
                    [[0.3367, 0.1288], [0.2345, 0.2303]],
                    [[-1.1229, -0.1863], [2.2082, -0.6380]],
                    [[0.4617, 0.2674], [0.5349, 0.8094]],
                ]
            ],
            d,
        )
    )
    expected = [
        [
            [[0.3367, 0.1288], [0.2345, 0.2303]],
            [[-1.1228, -0.1863], [2.2078, -0.6380]],
            [[0.4616, 0.2673], [0.5348, 0.8093]],
        ]
    ]
    assert_approx_eq(out, expected, Tolerance.rel_abs(5e-3, 1e-4))
    # an even size takes the channel after: c0 -> avg(1, 4), c1 -> avg(4, 16), c2 -> avg(16, 0)
    asymmetric = nn.LocalResponseNorm(2, alpha=1.0, beta=1.0, k=0.0)(t([[[1.0], [2.0], [4.0]]], d))
    assert_approx_eq(asymmetric, [[[0.4], [0.2], [0.5]]], Tolerance.rel_abs(1e-5, 1e-6))
    with pytest.raises(ValueError, match="rank >= 3"):
        nn.LocalResponseNorm(3)(t([[1.0, 2.0]], d))
    with pytest.raises(ValueError, match="greater than 0"):
        nn.LocalResponseNorm(0)


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_similarity_and_distance(make_device):
    d = make_device()
    x1, x2 = t([[1.0, 0.0], [1.0, 1.0]], d), t([[1.0, 0.0], [0.0, 1.0]], d)
    for dim in (1, -1):
        out = nn.CosineSimilarity(dim=dim)(x1, x2)
        assert_approx_eq(out, [1.0, 0.707107], Tolerance.default())
    x1, x2 = t([[1.0, 2.0], [3.0, 4.0]], d), t([[1.0, 1.0], [0.0, 0.0]], d)
    assert_approx_eq(nn.PairwiseDistance()(x1, x2), [1.0, 5.0], Tolerance.default())
    assert_approx_eq(nn.PairwiseDistance(p=1.0)(x1, x2), [1.0, 7.0], Tolerance.default())
    assert repr(nn.CosineSimilarity(dim=-1, eps=0.5)) == "CosineSimilarity(dim=-1, eps=0.5)"


PIXELS = [
    [[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]
    + [
        [[8.0, 9.0], [10.0, 11.0]],
        [[12.0, 13.0], [14.0, 15.0]],
    ]
]


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_pixel_shuffle(make_device):
    d = make_device()
    x = t(PIXELS, d)
    shuffled = nn.PixelShuffle(2)(x)
    expected = [
        [
            [
                [0.0, 4.0, 1.0, 5.0],
                [8.0, 12.0, 9.0, 13.0],
                [2.0, 6.0, 3.0, 7.0],
                [10.0, 14.0, 11.0, 15.0],
            ]
        ]
    ]
    assert_approx_eq(shuffled, expected, Tolerance.default())
    assert_eq(nn.PixelUnshuffle(2)(shuffled), np.asarray(PIXELS, dtype=np.float32))
    assert_eq(nn.PixelShuffle(2)(nn.PixelUnshuffle(2)(x)), np.asarray(PIXELS, dtype=np.float32))
    nine = t(np.arange(9.0).reshape(1, 9, 1, 1), d)
    assert_eq(nn.PixelUnshuffle(3)(nn.PixelShuffle(3)(nine)), nine.to_numpy())
    with pytest.raises(ValueError, match="divisible by upscale_factor\\^2 \\(4\\)"):
        nn.PixelShuffle(2)(nine)


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_interpolate1d(make_device):
    d = make_device()
    x = Tensor.random([2, 3, 4], device=d)
    assert nn.Interpolate1d(output_size=8)(x).shape == (2, 3, 8)
    assert nn.Interpolate1d(scale_factor=0.5)(x).shape == (2, 3, 2)
    assert nn.Interpolate1d(scale_factor=1.5)(x).shape == (2, 3, 6)
    assert nn.Interpolate1d(output_size=6, mode="linear")(x).shape == (2, 3, 6)
    with pytest.raises(ValueError, match="either output_size or scale_factor"):
        nn.Interpolate1d()


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_gaussian_noise(backend):
    ad, plain = Device.of(backend).autodiff(), Device.of(backend)
    noise = nn.GaussianNoise(0.5)
    ones = np.ones((100, 100), dtype=np.float32)
    noisy = noise(Tensor.from_data(ones, device=ad)).to_numpy()
    assert not np.array_equal(noisy, ones)
    assert abs((noisy - 1).std() - 0.5) < 0.02  # 10,000 draws: > 4 standard errors
    np.testing.assert_array_equal(noise(Tensor.from_data(ones, device=plain)).to_numpy(), ones)
    np.testing.assert_array_equal(noise.eval()(Tensor.from_data(ones, device=ad)).to_numpy(), ones)
    with pytest.raises(ValueError, match="required to be non-negative"):
        nn.GaussianNoise(-0.5)


def test_normalization_by_name():
    d = Device.numpy()
    assert isinstance(nn.Normalization("layer", 6, device=d), nn.LayerNorm)
    group = nn.Normalization("group", 6, num_groups=3, device=d)
    assert (group.num_groups, group.num_channels) == (3, 6)
    assert nn.Normalization("instance", 6, affine=False, device=d).gamma is None
    assert nn.Normalization("rms", 4, device=d).gamma.shape == (4,)
    assert nn.Normalization("batch", 5, device=d).running_mean.shape == (5,)
    assert isinstance(nn.Normalization("identity", 5), nn.Identity)
    with pytest.raises(ValueError, match="unknown normalization 'weight'"):
        nn.Normalization("weight", 5)


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_pool1d_padding(make_device):
    d = make_device()
    for pool in (nn.MaxPool1d, nn.AvgPool1d):
        assert pool(2, stride=1, padding="same")(Tensor.ones([1, 2, 5], device=d)).shape == (
            1,
            2,
            5,
        )
        four = Tensor.ones([1, 2, 4], device=d)
        assert pool(3, stride=1, padding=[1, 2])(four).shape == (1, 2, 5)  # Explicit(1, 2)
        assert pool(3, stride=1, padding=[2, 2])(four).shape == (1, 2, 6)
        assert pool(1).stride == (1,) and pool(2).stride == (2,)
    # the asymmetric pad of a max pool is -inf, so the edges keep their own maxima
    x = t([[[3.0, -1.0, 2.0, -4.0]]], d)
    assert_eq(nn.MaxPool1d(3, stride=1, padding=[1, 2])(x), [[[3.0, 3.0, 2.0, 2.0, -4.0]]])


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_conv_initializers_and_checks(make_device):
    d = make_device()
    d.seed(0)
    # default kaiming_uniform(1/sqrt(3)): U(±sqrt(groups / fan_in))
    cases = [
        (nn.Conv3d(5, 1, [5, 5, 5], device=d), 5 * 125),
        (nn.ConvTranspose1d(5, 1, 5, device=d), 1 * 5),
        (nn.ConvTranspose3d(5, 1, [5, 5, 5], device=d), 1 * 125),
        (nn.DeformConv2d(5, 1, [5, 5], device=d), 5 * 25),
    ]
    for layer, fan_in in cases:
        weight = layer.weight.to_numpy()
        bound = np.sqrt(1.0 / fan_in)
        assert (np.abs(weight) < bound).all() and np.abs(weight).max() > 0.8 * bound
    zeros = nn.Conv3d(5, 2, [5, 5, 5], device=d, initializer=nn.init.zeros())
    assert not zeros.weight.to_numpy().any()
    fan_out = nn.init.kaiming_uniform(1 / np.sqrt(3), fan_out_only=True)
    nn.Conv3d(4, 4, [1, 1, 1], groups=4, initializer=fan_out, device=d)
    nn.DeformConv2d(4, 4, [1, 1], weight_groups=4, initializer=fan_out, device=d)
    assert nn.ConvTranspose1d(5, 2, 5, device=d).num_params() == 52
    with pytest.raises(ValueError, match="divisible by the number of groups"):
        nn.DeformConv2d(1, 4, [1, 1], weight_groups=4, device=d)
    with pytest.raises(ValueError, match="Same padding with an even kernel size"):
        nn.DeformConv2d(4, 4, [2, 2], padding="same", device=d)
    with pytest.raises(ValueError, match="padding must be an int"):
        nn.MaxPool1d(2, padding=[1, 2, 3])


# -- against PyTorch with copied weights, float64, values and gradients ----------------------------
def f64(array, device):
    return Tensor.from_data(array, device=device, dtype=np.float64)


LAYERS = {
    # name: (ours(device), torch layer, input shape, [(our param, torch param, transpose?)])
    "conv3d": (
        lambda d: nn.Conv3d(2, 4, [2, 3, 2], stride=[1, 2, 1], padding=1, groups=2, device=d),
        lambda: torch.nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), padding=1, groups=2),
        (2, 2, 4, 5, 3),
        [("weight", "weight"), ("bias", "bias")],
    ),
    "conv3d_same": (
        lambda d: nn.Conv3d(2, 3, 3, padding="same", device=d),
        lambda: torch.nn.Conv3d(2, 3, 3, padding="same"),
        (1, 2, 4, 3, 3),
        [("weight", "weight"), ("bias", "bias")],
    ),
    "conv_transpose1d": (
        lambda d: nn.ConvTranspose1d(
            4, 6, 3, stride=2, padding=1, padding_out=1, groups=2, device=d
        ),
        lambda: torch.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
        (2, 4, 5),
        [("weight", "weight"), ("bias", "bias")],
    ),
    "conv_transpose3d": (
        lambda d: nn.ConvTranspose3d(2, 3, [2, 2, 3], stride=2, dilation=[1, 2, 1], device=d),
        lambda: torch.nn.ConvTranspose3d(2, 3, (2, 2, 3), stride=2, dilation=(1, 2, 1)),
        (1, 2, 3, 2, 3),
        [("weight", "weight"), ("bias", "bias")],
    ),
    "max_pool1d": (
        lambda d: nn.MaxPool1d(3, stride=2, padding=1, dilation=2),
        lambda: torch.nn.MaxPool1d(3, stride=2, padding=1, dilation=2),
        (2, 3, 9),
        [],
    ),
    "avg_pool1d": (
        lambda d: nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False),
        lambda: torch.nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False),
        (2, 3, 8),
        [],
    ),
    "adaptive_avg_pool1d": (
        lambda d: nn.AdaptiveAvgPool1d(3),
        lambda: torch.nn.AdaptiveAvgPool1d(3),
        (2, 3, 7),
        [],
    ),
    "adaptive_avg_pool3d": (
        lambda d: nn.AdaptiveAvgPool3d([2, 3, 1]),
        lambda: torch.nn.AdaptiveAvgPool3d((2, 3, 1)),
        (1, 2, 5, 4, 3),
        [],
    ),
    "instance_norm": (
        lambda d: nn.InstanceNorm(3, device=d),
        lambda: torch.nn.InstanceNorm2d(3, affine=True),
        (2, 3, 4, 2),
        [("gamma", "weight"), ("beta", "bias")],
    ),
    "rms_norm": (
        lambda d: nn.RmsNorm(5, epsilon=1e-6, device=d),
        lambda: torch.nn.RMSNorm(5, eps=1e-6),
        (2, 3, 5),
        [("gamma", "weight")],
    ),
    "local_response_norm": (
        lambda d: nn.LocalResponseNorm(3, alpha=0.5, beta=0.6, k=1.5),
        lambda: torch.nn.LocalResponseNorm(3, alpha=0.5, beta=0.6, k=1.5),
        (2, 5, 3),
        [],
    ),
    "interpolate1d_linear": (
        lambda d: nn.Interpolate1d(output_size=7, mode="linear"),
        lambda: lambda x: TF.interpolate(x, size=7, mode="linear", align_corners=True),
        (2, 3, 4),
        [],
    ),
    "interpolate2d_cubic": (
        lambda d: nn.Interpolate2d(scale_factor=[1.5, 2.0], mode="cubic"),
        lambda: lambda x: TF.interpolate(x, size=(6, 6), mode="bicubic", align_corners=True),
        (1, 2, 4, 3),
        [],
    ),
    "interpolate2d_nearest": (
        lambda d: nn.Interpolate2d(output_size=[5, 2]),
        lambda: lambda x: TF.interpolate(x, size=(5, 2), mode="nearest"),
        (1, 2, 3, 4),
        [],
    ),
    "unfold4d": (
        lambda d: nn.Unfold4d([2, 3], stride=[1, 2], padding=1, dilation=[2, 1]),
        lambda: torch.nn.Unfold((2, 3), stride=(1, 2), padding=1, dilation=(2, 1)),
        (2, 3, 5, 6),
        [],
    ),
    "fold4d": (
        lambda d: nn.Fold4d([4, 5], [2, 2], stride=[2, 1]),
        lambda: torch.nn.Fold((4, 5), (2, 2), stride=(2, 1)),
        (2, 12, 8),
        [],
    ),
    "pixel_shuffle": (
        lambda d: nn.PixelShuffle(2),
        lambda: torch.nn.PixelShuffle(2),
        (2, 8, 2, 3),
        [],
    ),
    "pixel_unshuffle": (
        lambda d: nn.PixelUnshuffle(2),
        lambda: torch.nn.PixelUnshuffle(2),
        (2, 2, 4, 6),
        [],
    ),
}


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("name", list(LAYERS))
def test_against_torch(name, backend):
    make, make_theirs, shape, params = LAYERS[name]
    device = Device.of(backend).autodiff()
    torch.manual_seed(0)
    theirs = make_theirs()
    if isinstance(theirs, torch.nn.Module):
        theirs = theirs.double()
    ours = make(device)
    rng = np.random.default_rng(1)
    for our_name, their_name in params:
        value = getattr(theirs, their_name).detach().numpy() + rng.normal(size=1) * 0.1
        getattr(theirs, their_name).data = torch.tensor(value)
        setattr(ours, our_name, f64(value, device))
    x = rng.normal(size=shape)
    xt = f64(x, device).require_grad()
    out = ours(xt)
    xr = torch.tensor(x, requires_grad=True)
    expected = theirs(xr)
    np.testing.assert_allclose(out.to_numpy(), expected.detach().numpy(), rtol=1e-9, atol=1e-12)
    upstream = rng.normal(size=out.shape)
    grads = (out * f64(upstream, device)).sum().backward()
    (expected * torch.tensor(upstream)).sum().backward()
    np.testing.assert_allclose(xt.grad(grads).to_numpy(), xr.grad.numpy(), rtol=1e-8, atol=1e-11)
    for our_name, their_name in params:
        np.testing.assert_allclose(
            getattr(ours, our_name).grad(grads).to_numpy(),
            getattr(theirs, their_name).grad.numpy(),
            rtol=1e-8,
            atol=1e-11,
            err_msg=our_name,
        )


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_deform_conv2d_against_torchvision_formula(backend):
    """With zero offsets and a unit mask, a deformable convolution is the plain convolution:
    checked against PyTorch's conv2d, values and the weight's gradient."""
    device = Device.of(backend).autodiff()
    layer = nn.DeformConv2d(4, 6, 3, padding=1, weight_groups=2, offset_groups=2, device=device)
    weight = np.random.default_rng(2).normal(size=(6, 2, 3, 3))
    layer.weight = f64(weight, device)
    layer.bias = f64(np.arange(6.0), device)
    x = np.random.default_rng(3).normal(size=(1, 4, 5, 5))
    offset = f64(np.zeros((1, 2 * 2 * 9, 5, 5)), device)
    mask = f64(np.ones((1, 2 * 9, 5, 5)), device)
    out = layer(f64(x, device), offset, mask)
    wr = torch.tensor(weight, requires_grad=True)
    expected = TF.conv2d(torch.tensor(x), wr, torch.arange(6.0).double(), padding=1, groups=2)
    np.testing.assert_allclose(out.to_numpy(), expected.detach().numpy(), rtol=1e-9, atol=1e-12)
    grads = out.sum().backward()
    expected.sum().backward()
    np.testing.assert_allclose(layer.weight.grad(grads).to_numpy(), wr.grad.numpy(), rtol=1e-9)
    assert layer.weight.shape == (6, 2, 3, 3)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_cosine_similarity_and_pairwise_distance_against_torch(backend):
    device = Device.of(backend).autodiff()
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    for ours, theirs in (
        (nn.CosineSimilarity(), lambda x, y: TF.cosine_similarity(x, y, dim=1)),
        (nn.PairwiseDistance(p=3.0), lambda x, y: TF.pairwise_distance(x, y, p=3.0)),
    ):
        xt = f64(a, device).require_grad()
        out = ours(xt, f64(b, device))
        xr = torch.tensor(a, requires_grad=True)
        expected = theirs(xr, torch.tensor(b))
        np.testing.assert_allclose(out.to_numpy(), expected.detach().numpy(), rtol=1e-9)
        grads = out.sum().backward()
        expected.sum().backward()
        np.testing.assert_allclose(xt.grad(grads).to_numpy(), xr.grad.numpy(), rtol=1e-8)


@pytest.mark.parametrize(
    "make,shape",
    [
        (lambda d: nn.RmsNorm(3, device=d), (2, 3)),
        (lambda d: nn.InstanceNorm(2, device=d), (2, 2, 3)),
    ],
    ids=["rms_norm", "instance_norm"],
)
def test_norm_parameter_gradients_against_finite_differences(make, shape):
    device = Device.numpy().autodiff()
    layer = make(device)
    rng = np.random.default_rng(7)
    x = f64(rng.normal(size=shape), device)
    w = f64(rng.normal(size=shape), device)
    params = {name: rng.normal(size=p.shape) for name, p in layer.named_parameters()}

    def loss(values):
        for name, value in values.items():
            setattr(layer, name, f64(value, device).require_grad())
        return (layer(x) * w).sum()

    grads = loss(params).backward()
    analytic = {name: getattr(layer, name).grad(grads).to_numpy() for name in params}
    for name in params:
        numeric = np.zeros_like(params[name])
        for index in np.ndindex(numeric.shape):
            values = []
            for step in (1e-6, -1e-6):
                moved = {k: v.copy() for k, v in params.items()}
                moved[name][index] += step
                values.append(loss(moved).item())
            numeric[index] = (values[0] - values[1]) / 2e-6
        np.testing.assert_allclose(analytic[name], numeric, rtol=1e-6, atol=1e-9, err_msg=name)
