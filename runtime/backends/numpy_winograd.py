"""3x3 correlations of stride 1 by Winograd's minimal filtering, F(2x2, 3x3), on NumPy.

A 3x3 correlation makes each 2x2 tile of its output from a 4x4 tile of its input: 36
multiply-adds per channel pair directly, 16 in the Winograd domain (Lavin and Gray, 2015). Fixed
matrices carry the input's tiles d and the weight g there, V = Bᵀ d B and U = G g Gᵀ; the 16
positions of a tile are then 16 independent matrix products over the channels, M = U · V, BLAS's
work, and Aᵀ M A brings each tile back to its 2x2 output. The products make 2.25 times fewer
multiply-adds than the columns' one (numpy_conv.py); the transforms are adds and halves, one
pass each in C (runtime/backends/winograd.c).

It pays where the products are wide: a CNN's early and middle stages, in their forward and in
their input gradient (the adjoint correlation, stride 1 too), in training and in inference. On
few tiles (a 2x2 plane is one tile an image) the products are too narrow for BLAS's speed and
the weight's transform costs more than they spare: those stay in columns (`TILES`).

The weight's gradient is the same algorithm transposed, F(3x3, 2x2) (`weight_grad`): the
input's tiles as in the forward, each 2x2 tile of the output's gradient carried to 4x4 by A,
the 16 products summed over the tiles by BLAS, and G bringing each sum back to a 3x3 kernel.
A compiled step (burnpy.capture) calls these same functions: its convolutions keep the
uncompiled step's bits.

The transforms mix an input tile's values, so an inf would come out NaN where the columns give
inf: where a value read or made is not finite, `correlate` gives None and the caller computes
the correlation the columns' way. Without the C transforms (a build with no compiler) nothing
here applies.
"""

import numpy as np

try:
    from burnpy.runtime.backends import _winograd
except ImportError:  # built without a C compiler: the columns' way only
    _winograd = None

# The fewest tiles (images times the tiles of an image's output) at which Winograd's products
# are wide enough to beat the columns' one.
TILES = 32
# What a transform's 16 matrices lie apart beyond their size: a cache line (see `planes`).
PITCH_BYTES = 64
# A chunk of the batch whose input tiles take about this many bytes: they, and the products made
# of them, are then still in cache when the next pass reads them.
CHUNK_BYTES = 1 << 20
# How many times the weight's 16 matrices a chunk's tiles are at least: each chunk's products
# read the weight's transform again, or add into the weight gradient's sums (a temporary and a
# pass over both).
WEIGHT_PASSES = 4


def applies(x, other, kernel, stride, dilation, padding, groups, out_size) -> bool:
    """Whether a correlation of x [batch, in, h, w] by a `kernel` into `out_size` (or its
    weight's gradient) is one this module computes: a 3x3 kernel, stride and dilation 1, no
    negative padding, one group, x and the `other` operand (the weight, or the output's
    gradient) of one float dtype BLAS runs (float32, float64), and enough tiles of the output."""
    return (
        _winograd is not None
        and x.ndim == 4
        and tuple(kernel) == (3, 3)
        and tuple(stride) == (1, 1)
        and tuple(dilation) == (1, 1)
        and min(padding) >= 0
        and groups == 1
        and x.dtype == other.dtype
        and x.dtype in (np.float32, np.float64)
        and x.shape[0] * -(-out_size[0] // 2) * -(-out_size[1] // 2) >= TILES
    )


def correlate(x, weight, padding, out_size, bias=None):
    """The correlation [batch, out, *out_size] of x by the 3x3 weight, x placed at `padding`
    (the zeros before each spatial dim; those after reach `out_size`), plus `bias` per channel
    if given; None where a value is not finite (see above)."""
    x, weight = np.ascontiguousarray(x), np.ascontiguousarray(weight)
    (batch, channels, h, w), channels_out = x.shape, weight.shape[0]
    ho, wo = out_size
    th, tw = -(-ho // 2), -(-wo // 2)
    u, u_buffer, u_pitch = planes((channels_out, channels), x.dtype)
    if not _winograd.weight_tiles(weight, u_buffer, channels_out, channels, u_pitch):
        return None
    out = np.empty((batch, channels_out, ho, wo), x.dtype)
    if bias is not None:
        bias = np.ascontiguousarray(bias, x.dtype)
    for part in chunks(batch, channels, channels_out, th * tw, x.itemsize):
        images = part.stop - part.start
        tiles = images * th * tw
        v, v_buffer, v_pitch = planes((channels, tiles), x.dtype)
        sizes = (images, channels, h, w, *padding, th, tw, v_pitch)
        if not _winograd.input_tiles(x[part], v_buffer, *sizes):
            return None
        products, m_buffer, m_pitch = planes((channels_out, tiles), x.dtype)
        with np.errstate(over="ignore", invalid="ignore"):  # (an overflow: the columns' way)
            np.matmul(u, v, out=products)
        sizes = (images, channels_out, ho, wo, th, tw, m_pitch)
        if not _winograd.output_tiles(m_buffer, out[part], bias, *sizes):
            return None
    return out


def weight_grad(x, grad, padding):
    """The gradient [out, in, 3, 3] of a correlation of x by a 3x3 weight at `padding`, from the
    output's gradient `grad` [batch, out, ho, wo]; None where a value is not finite."""
    x, grad = np.ascontiguousarray(x), np.ascontiguousarray(grad)
    (batch, channels, h, w), (channels_out, ho, wo) = x.shape, grad.shape[1:]
    th, tw = -(-ho // 2), -(-wo // 2)
    products, m_buffer, m_pitch = planes((channels_out, channels), x.dtype)
    for i, part in enumerate(chunks(batch, channels, channels_out, th * tw, x.itemsize)):
        tiles = (part.stop - part.start) * th * tw
        v, v_buffer, v_pitch = planes((channels, tiles), x.dtype)
        sizes = (part.stop - part.start, channels, h, w, *padding, th, tw, v_pitch)
        if not _winograd.input_tiles(x[part], v_buffer, *sizes):
            return None
        g, g_buffer, g_pitch = planes((channels_out, tiles), x.dtype)
        sizes = (part.stop - part.start, channels_out, ho, wo, th, tw, g_pitch)
        if not _winograd.grad_tiles(grad[part], g_buffer, *sizes):
            return None
        with np.errstate(over="ignore", invalid="ignore"):  # (an overflow: the columns' way)
            if i == 0:
                np.matmul(g, v.transpose(0, 2, 1), out=products)
            else:
                products += np.matmul(g, v.transpose(0, 2, 1))
    out = np.empty((channels_out, channels, 3, 3), x.dtype)
    if not _winograd.weight_grad(m_buffer, out, channels_out, channels, m_pitch):
        return None
    return out


def chunks(batch, channels, channels_out, tiles, itemsize):
    """The batch as slices of images, as few and as even as keep each chunk's tiles (16
    matrices of `channels` by its images' `tiles`) within CHUNK_BYTES, or within WEIGHT_PASSES
    times the 16 matrices of `channels_out` by `channels` that each chunk's products go over
    again (the weight's transform in a correlation, the sums of the weight's gradient) where
    that is larger."""
    weight_bytes = 16 * channels_out * channels * itemsize
    budget = max(CHUNK_BYTES, WEIGHT_PASSES * weight_bytes)
    step = max(1, budget // (16 * channels * tiles * itemsize))
    count = -(-batch // step)
    bounds = [batch * i // count for i in range(count + 1)]
    return [slice(start, stop) for start, stop in zip(bounds, bounds[1:])]


def planes(shape, dtype):
    """16 matrices of `shape`, one a position of a tile, at a pitch of a cache line past their
    size: (the view [16, *shape], its flat buffer, the pitch in items). Matrices a power of two
    apart would share a cache set: the transforms, which go over the 16 at once, would evict
    each one's line at every step."""
    size = shape[0] * shape[1]
    pitch = size + PITCH_BYTES // np.dtype(dtype).itemsize
    buffer = np.empty(16 * pitch, dtype)
    return buffer.reshape(16, pitch)[:, :size].reshape(16, *shape), buffer, pitch
