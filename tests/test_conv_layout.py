"""The NumPy convolutions' batch layout (runtime/backends/numpy_conv.py): a batch cut into
chunks of images, and the widened positions of stride 1, whose extra windows must leave no
trace. References: the direct loops of test_conv_kernels and, for gradients through infs and
NaNs (where finite differences say nothing), sums over the valid windows written here."""

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from kernelcheck import NUMPY, check_vjps, run
from burnpy.runtime.backends import numpy_conv
from test_conv_kernels import reference_conv, reference_conv_transpose

# (spatial size, kernel, stride, padding, dilation, groups, padding_end)
CASES = [
    ((6, 5), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),  # stride 1
    ((6, 7), (2, 3), (1, 1), (0, 2), (2, 1), 2, (1, 0)),  # stride 1, groups, dilation
    ((6, 7), (3, 2), (2, 1), (1, 0), (1, 1), 2, (0, 1)),  # stride 2: exact
    ((5, 8), (2, 3), (1, 1), (1, 2), (1, 2), 1, (0, 2)),  # stride 1, dilated along the last dim
    ((6, 4), (2, 2), (1, 1), (1, 2), (1, 1), 1, None),  # stride 1, padding past the kernel's reach
    ((2, 2), (3, 3), (1, 1), (1, 1), (1, 1), 1, None),  # a plane mostly padding: exact
    ((5, 3), (2, 3), (2, 2), (1, 0), (1, 1), 2, None),  # rows of one position: images innermost
    ((7,), (3,), (1,), (2,), (1,), 1, (0,)),  # stride 1, one dim
    ((4, 3, 4), (2, 2, 3), (1, 1, 1), (1, 0, 1), (1, 1, 1), 1, None),  # stride 1, three dims
]


@pytest.fixture(params=[1, 2], ids=["one image", "two images"])
def chunked(request, monkeypatch):
    """Chunks of one image, or of two (5 images: 2, 2, 1), whatever their bytes."""

    def chunks(batch, image_bytes, budget=None):
        return [slice(s, min(s + request.param, batch)) for s in range(0, batch, request.param)]

    monkeypatch.setattr(numpy_conv, "chunks", chunks)


@pytest.fixture(params=[0, np.inf], ids=["adjoint", "adds"])
def adjoint(request, monkeypatch):
    """A stride-1 input gradient as a correlation with the flipped weight wherever its grid
    allows, or never (its columns added back into planes)."""
    monkeypatch.setattr(numpy_conv, "ADJOINT_RATIO", request.param)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_chunks_of_the_batch(case, chunked, adjoint):
    size, kernel, stride, padding, dilation, groups, padding_end = case
    n = len(size)
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 2 * groups, *size))
    weight = rng.standard_normal((3 * groups, 2, *kernel))
    bias = rng.standard_normal(3 * groups)
    options = (stride, padding, dilation, groups, padding_end)
    got = run(NUMPY, f"conv{n}d", x, weight, bias, *options)
    np.testing.assert_allclose(got, reference_conv(x, weight, bias, *options), atol=1e-12)
    names = ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end")
    check_vjps(NUMPY, f"conv{n}d", names, (x, weight, bias, *options), rng, names[:3])


def test_chunks_of_a_transposed_convolution(chunked, adjoint):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((5, 4, 4, 3))
    weight = rng.standard_normal((4, 3, 3, 2))
    options = ((1, 1), (1, 0), (0, 0), (1, 2), 2)
    got = run(NUMPY, "conv_transpose2d", x, weight, None, *options)
    expected = reference_conv_transpose(x, weight, None, *options)
    np.testing.assert_allclose(got, expected, atol=1e-12)
    names = ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups")
    check_vjps(NUMPY, "conv_transpose2d", names, (x, weight, None, *options), rng, names[:2])


def valid_weight_grad(x, grad, padding):
    """dL/dw of a stride-1 convolution: each output position's gradient times its window."""
    padded = np.pad(x, [(0, 0), (0, 0), *[(p, p) for p in padding]])
    kernel = [n + 2 * p - o + 1 for n, p, o in zip(x.shape[2:], padding, grad.shape[2:])]
    views = sliding_window_view(padded, kernel, axis=(2, 3))  # [b, c, oh, ow, kh, kw]
    return np.einsum("bohw,bchwij->ocij", grad, views)


def valid_input_grad(weight, grad, size, padding):
    """dL/dx of a stride-1 convolution: for each kernel offset, the weight times the gradients
    of the output positions whose window puts that offset on x (and no others)."""
    out = np.zeros((grad.shape[0], weight.shape[1], *size))
    for i in range(weight.shape[2]):
        for j in range(weight.shape[3]):
            # output (r, s) reads x at (r + i - ph, s + j - pw)
            rows = slice(max(0, i - padding[0]), min(size[0], grad.shape[2] + i - padding[0]))
            cols = slice(max(0, j - padding[1]), min(size[1], grad.shape[3] + j - padding[1]))
            g = grad[
                :,
                :,
                rows.start - i + padding[0] : rows.stop - i + padding[0],
                cols.start - j + padding[1] : cols.stop - j + padding[1],
            ]
            out[:, :, rows, cols] += np.einsum("oc,bohw->bchw", weight[:, :, i, j], g)
    return out


# an inf's windows sum infs of both signs, a NaN numpy warns of, as it should
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("special", [np.inf, -np.inf, np.nan], ids=str)
def test_non_finite_values_stay_in_their_windows(special, adjoint):
    """An inf on the first row of an image pairs with the kernel's last row in no window: that
    row of the weight gradient stays finite. Likewise an inf in the weight reaches no input its
    offset never reads, and an inf in the gradient no input its window never holds. (The
    widened positions past the previous image's last row pair them, with a zero gradient; the
    adjoint correlation's padding, with a zero gradient too.)"""
    rng = np.random.default_rng(13)
    x = rng.standard_normal((3, 2, 5, 6))
    weight = rng.standard_normal((4, 2, 3, 3))
    grad = rng.standard_normal((3, 4, 5, 6))
    options = ((1, 1), (1, 1), (1, 1), 1, None)
    x[1, 0, 0, 3] = special
    expected = valid_weight_grad(x, grad, (1, 1))
    assert np.isfinite(expected[:, :, -1, :]).all()  # the case is the one described
    got = NUMPY.conv2d_weight_backward(x, weight, grad, *options)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    out = NUMPY.conv2d(x, weight, None, *options)
    np.testing.assert_allclose(out, reference_conv(x, weight, None, *options[:3], 1, None))
    x[1, 0, 0, 3] = 0.0
    weight[2, 1, 0, 0] = special
    expected = valid_input_grad(weight, grad, x.shape[2:], (1, 1))
    assert np.isfinite(expected[:, :, -1, :]).all()
    got = NUMPY.conv2d_x_backward(x, weight, grad, *options)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    weight[2, 1, 0, 0] = 1.0
    grad[1, 2, 0, 3] = special  # read by the inputs of rows 0 and 1 only
    expected = valid_input_grad(weight, grad, x.shape[2:], (1, 1))
    assert np.isfinite(expected[:, :, -1, :]).all()
    got = NUMPY.conv2d_x_backward(x, weight, grad, *options)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_chunks_grow_with_blas_threads(monkeypatch):
    """One BLAS thread: chunks of columns sized for a core's cache; several: longer chunks,
    whose products BLAS shares out among its threads."""
    from burnpy.runtime.backends import blas_threads

    image = numpy_conv.CHUNK_BYTES // 4
    monkeypatch.setattr(blas_threads, "_count", 1)
    assert numpy_conv.chunks(40, image) == [slice(s, s + 4) for s in range(0, 40, 4)]
    monkeypatch.setattr(blas_threads, "_count", 2)
    assert numpy_conv.THREADED_CHUNK_BYTES // image == 16  # 16 a chunk at most: 3 chunks
    assert numpy_conv.chunks(40, image) == [slice(0, 13), slice(13, 26), slice(26, 40)]


def test_chunks_are_even_where_the_batch_does_not_divide(monkeypatch):
    """16 images of which 7 fit the budget: three chunks of 5, 5 and 6, never a last chunk of
    2, whose product is too narrow for BLAS's speed; a batch under the budget is one chunk."""
    from burnpy.runtime.backends import blas_threads

    monkeypatch.setattr(blas_threads, "_count", 1)
    image = numpy_conv.CHUNK_BYTES // 7
    assert [c.stop - c.start for c in numpy_conv.chunks(16, image)] == [5, 5, 6]
    assert (
        numpy_conv.chunks(16, image)[0].start == 0 and numpy_conv.chunks(16, image)[-1].stop == 16
    )
    assert numpy_conv.chunks(3, image) == [slice(0, 3)]
    assert numpy_conv.chunks(5, 2 * numpy_conv.CHUNK_BYTES) == [slice(i, i + 1) for i in range(5)]
