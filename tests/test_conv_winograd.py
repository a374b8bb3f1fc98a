"""Winograd's F(2x2, 3x3) on the NumPy backend (runtime/backends/numpy_winograd.py), the path of a
3x3 convolution of stride 1 over enough tiles, in its forward and its gradients: values
against the direct loops of test_conv_kernels and against torch in float64, gradients against
finite differences, and every non-finite case computed the columns' way, bit for bit."""

import numpy as np
import pytest

from kernelcheck import NUMPY, check_vjps, run
from burnpy.runtime.backends import numpy_conv, numpy_winograd
from test_conv_kernels import reference_conv

pytestmark = pytest.mark.skipif(
    numpy_winograd._winograd is None, reason="built without a C compiler: no Winograd transforms"
)

NAMES = ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end")
# (batch, size, padding, padding_end): each over TILES tiles of output
CASES = [
    (4, (8, 8), (1, 1), None),  # even outputs
    (4, (7, 9), (1, 1), None),  # odd outputs: the last tiles cut
    (8, (8, 8), (0, 0), None),  # no padding: 6 x 6
    (4, (8, 7), (2, 1), (0, 2)),  # padding past the kernel's reach, uneven ends
]


@pytest.fixture
def taken(monkeypatch):
    """How numpy_winograd's functions went, call by call: 'winograd', or 'columns' where
    `correlate` handed the correlation back (a value not finite); 'weight winograd' or 'weight
    columns' for `weight_grad`."""
    ways = []

    def spied(function, prefix):
        def spy(*args, **kwargs):
            out = function(*args, **kwargs)
            ways.append(prefix + ("columns" if out is None else "winograd"))
            return out

        return spy

    monkeypatch.setattr(numpy_winograd, "correlate", spied(numpy_winograd.correlate, ""))
    monkeypatch.setattr(numpy_winograd, "weight_grad", spied(numpy_winograd.weight_grad, "weight "))
    return ways


@pytest.fixture(params=["whole", "by image"])
def chunked(request, monkeypatch):
    """The batch in one chunk, or one image a chunk (numpy_winograd.chunks): the products of
    the weight's gradient then sum over the chunks, and a value not finite in a later chunk
    hands back an output some chunks have written."""
    if request.param == "by image":
        monkeypatch.setattr(numpy_winograd, "CHUNK_BYTES", 1)
        monkeypatch.setattr(numpy_winograd, "WEIGHT_PASSES", 0)


def inputs(batch, size, channels=(3, 5), seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, channels[0], *size))
    weight = rng.standard_normal((channels[1], channels[0], 3, 3))
    return x, weight, rng.standard_normal(channels[1]), rng


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no bias"])
def test_the_forward_and_its_gradients_go_by_winograd_with_the_direct_values(
    case, with_bias, chunked, taken
):
    batch, size, padding, padding_end = case
    x, weight, bias, rng = inputs(batch, size)
    bias = bias if with_bias else None
    options = ((1, 1), padding, (1, 1), 1, padding_end)
    got = run(NUMPY, "conv2d", x, weight, bias, *options)
    assert taken == ["winograd"]
    np.testing.assert_allclose(got, reference_conv(x, weight, bias, *options), atol=1e-12)
    check_vjps(NUMPY, "conv2d", NAMES, (x, weight, bias, *options), rng, NAMES[:3])
    # the input gradient's adjoint correlation and the weight's gradient
    assert "winograd" in taken[1:] and "weight winograd" in taken


@pytest.mark.parametrize("dtype, rtol", [("float32", 2e-6), ("float64", 1e-13)])
def test_a_resnet_layer_matches_torch_in_float64(dtype, rtol, taken):
    """ResNet-18's second stage at 64x64 images (batch 16, 64 channels, 16x16): forward, input
    and weight gradients against torch's in float64, relative to each one's largest value."""
    torch = pytest.importorskip("torch")
    x, weight, _, rng = inputs(16, (16, 16), channels=(64, 64))
    grad = rng.standard_normal(x.shape[:1] + (64, 16, 16))
    options = ((1, 1), (1, 1), (1, 1), 1, None)
    cast = [a.astype(dtype) for a in (x, weight, grad)]
    out = NUMPY.conv2d(cast[0], cast[1], None, *options)
    dx = NUMPY.conv2d_x_backward(cast[0], cast[1], cast[2], *options)
    dw = NUMPY.conv2d_weight_backward(cast[0], cast[1], cast[2], *options)
    assert taken == ["winograd", "winograd", "weight winograd"]
    assert out.dtype == dx.dtype == dw.dtype == dtype
    tx, tw = (torch.from_numpy(a).requires_grad_() for a in (x, weight))
    expected = torch.nn.functional.conv2d(tx, tw, None, 1, 1)
    expected_dx, expected_dw = torch.autograd.grad(expected, (tx, tw), torch.from_numpy(grad))
    pairs = [(out, expected), (dx, expected_dx), (dw, expected_dw)]
    for got, want in ((got, want.detach().numpy()) for got, want in pairs):
        np.testing.assert_allclose(got, want, rtol=0, atol=rtol * np.abs(want).max())


# (the columns' products warn of the NaNs and overflows they make, as they do without Winograd)
@pytest.mark.filterwarnings("ignore:invalid value encountered in matmul:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:overflow encountered in matmul:RuntimeWarning")
@pytest.mark.parametrize("special", [np.inf, -np.inf, np.nan, 3e38])
@pytest.mark.parametrize("where", ["x", "weight"])
def test_a_value_not_finite_goes_the_columns_way_bit_for_bit(
    special, where, chunked, taken, monkeypatch
):
    """An inf or a NaN read, or an overflow made (3e38 in float32), hands the correlation (and
    the weight's gradient) back: its infs and NaNs are where the columns put them."""
    x, weight, bias, _ = inputs(4, (8, 8))
    x, weight, bias = (a.astype(np.float32) for a in (x, weight, bias))
    if where == "x":
        x[-1, 2, 3, 4] = special  # (the last image: by image, the last chunk)
    else:
        weight[2, 1, 0, 1] = special
    options = ((1, 1), (1, 1), (1, 1), 1, None)
    got = NUMPY.conv2d(x, weight, bias, *options)
    grad = np.ones_like(got)
    grad[-1, 0, 0, 0] = special
    got_dw = NUMPY.conv2d_weight_backward(x, weight, grad, *options)
    assert taken == ["columns", "weight columns"]
    monkeypatch.setattr(numpy_winograd, "TILES", np.inf)
    np.testing.assert_array_equal(got, NUMPY.conv2d(x, weight, bias, *options))
    np.testing.assert_array_equal(got_dw, NUMPY.conv2d_weight_backward(x, weight, grad, *options))
    assert not np.isfinite(got).all() and not np.isfinite(got_dw).all()


def test_few_tiles_stay_in_columns(taken):
    """A batch of 2x2 planes (one tile an image, ResNet-18's last stage) and a 1x1 or a strided
    kernel never reach the transforms."""
    x, weight, _, _ = inputs(16, (2, 2))
    NUMPY.conv2d(x, weight, None, (1, 1), (1, 1), (1, 1), 1, None)
    NUMPY.conv2d(x, weight[:, :, :1, :1], None, (1, 1), (0, 0), (1, 1), 1, None)
    x, weight, _, _ = inputs(8, (16, 16))
    NUMPY.conv2d(x, weight, None, (2, 2), (1, 1), (1, 1), 1, None)
    assert taken == []


def test_the_transforms_refuse_arrays_of_the_wrong_size_or_dtype():
    from burnpy.runtime.backends import _winograd

    weight = np.zeros((4, 3, 3, 3), np.float32)
    with pytest.raises(ValueError, match="the weight's tiles is not 192 float32"):
        _winograd.weight_tiles(weight, np.zeros(100, np.float32), 4, 3, 12)
    with pytest.raises(ValueError, match="the weight's tiles is not of the input's dtype"):
        _winograd.weight_tiles(weight, np.zeros(192), 4, 3, 12)
    with pytest.raises(ValueError, match="a pitch of 5 under a plane"):
        _winograd.weight_tiles(weight, np.zeros(80, np.float32), 4, 3, 5)
    x = np.zeros((1, 3, 4, 4), np.float32)
    with pytest.raises(ValueError, match="the input is not 60 float32"):
        _winograd.input_tiles(x, np.zeros(16 * 12, np.float32), 1, 3, 4, 5, 1, 1, 2, 2, 12)
    with pytest.raises(ValueError, match="padding 6, 1 for 2 x 2 tiles"):
        _winograd.input_tiles(x, np.zeros(16 * 12, np.float32), 1, 3, 4, 4, 6, 1, 2, 2, 12)
    y = np.zeros((1, 4, 4, 4), np.float32)
    with pytest.raises(ValueError, match="5 x 4 outputs from 2 x 2 tiles"):
        _winograd.output_tiles(np.zeros(256, np.float32), y, None, 1, 4, 5, 4, 2, 2, 16)
    with pytest.raises(ValueError, match="the bias is not 4"):
        _winograd.output_tiles(np.zeros(256, np.float32), y, np.zeros(3), 1, 4, 4, 4, 2, 2, 16)


@pytest.mark.parametrize("padding", [(0, 0), (1, 1), (2, 1)], ids=str)
def test_a_transposed_convolution_of_stride_1_goes_by_winograd_too(padding, taken):
    """A 3x3 transposed convolution of stride 1 is a convolution's input gradient (its forward
    Winograd's adjoint correlation), its input gradient a convolution and its weight's gradient
    the correlation of its output's gradient with x: the direct values, finite differences."""
    from test_conv_kernels import reference_conv_transpose

    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3, 8, 7))
    weight = rng.standard_normal((3, 4, 3, 3))  # [in, out, 3, 3]
    bias = rng.standard_normal(4)
    options = ((1, 1), padding, (0, 0), (1, 1), 1)
    got = run(NUMPY, "conv_transpose2d", x, weight, bias, *options)
    np.testing.assert_allclose(got, reference_conv_transpose(x, weight, bias, *options), atol=1e-12)
    assert taken == ["winograd"]
    names = ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups")
    check_vjps(NUMPY, "conv_transpose2d", names, (x, weight, bias, *options), rng, names[:3])
    assert "winograd" in taken[1:] and "weight winograd" in taken


def test_chunks_keep_the_tiles_in_cache_and_the_weights_passes_few(monkeypatch):
    """ResNet's 64-channel stage on 224x224 images: a chunk an image (3.2 MB of tiles each);
    on 64x64 ones, 4 images (1 MiB); its 256-channel stage, the whole batch, whose tiles are
    no more than 4 times the weight's 16 matrices (4 MiB each pass)."""
    chunks = numpy_winograd.chunks
    assert chunks(16, 64, 64, 28 * 28, 4) == [slice(i, i + 1) for i in range(16)]
    assert [c.stop - c.start for c in chunks(16, 64, 64, 8 * 8, 4)] == [4, 4, 4, 4]
    assert chunks(16, 256, 256, 7 * 7, 4) == [slice(0, 16)]
    assert [c.stop - c.start for c in chunks(7, 3, 5, 16, 8)] == [7]
