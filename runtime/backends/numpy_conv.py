"""Convolutions on NumPy: the windows of padded planes, one copy, then one matmul.

Every kernel here is one of three moves, for 1, 2 or 3 spatial dims alike (`Grid`):
- the columns: one strided view of the padded input's windows, copied once. A convolution,
  groups and dilation included, is then ONE matmul per group over a chunk of images, the
  weight `[out/groups, in/groups * kernel]` by the columns `[in/groups * kernel, positions]`;
  the weight gradient the columns by the output gradient's rows;
- the adjoint, for the input gradient: the matmul gives the columns, which are added into zero
  planes through one writeable view of them, a loop over the kernel's offsets only; at stride 1,
  where the weight is small beside the gradient, a correlation of the gradient with the flipped
  weight instead (`Grid.adjoint`), no adds;
- a transposed convolution is the adjoint of a convolution: its forward is a convolution's input
  gradient and its input gradient a convolution (as burn computes them).

The planes are laid out one of two ways. With stride 1 (a `wide` grid) the batch goes channels
first, one flat row per channel holding every image's plane one after the other, the padding of
neighbouring planes shared, and the positions are every element of every plane: each kernel
offset's columns are then one contiguous run of a channel's row, so every copy and add goes over
long runs, at the price of the positions in the shared padding (7% more matmul on a 14x14 plane
padded by 1). Where the output is no wider than the input, the last dim shares no padding at
all: the input's rows stay whole in the planes, and the reads past a row's ends are zeroed in
the columns. Otherwise (a stride, or too many extra positions) the positions are the windows
exactly; the forward and input gradient go batch first, one matmul per image, whose output is
already the result's layout, unless an image has few positions (a CNN's last layers): then
channels first too, one matmul over many images' positions, the images innermost where a chunk
holds more of them than a row has positions (the copies' runs are then the longer).
Each move goes over the batch in chunks sized for a core's L2 cache (`chunks`), longer where numpy's
BLAS runs several threads.
"""

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from burnpy.runtime.backends import blas_threads, numpy_winograd

from burnpy.runtime.backends.kernels.conv import (
    check_conv,
    check_output_size,
    conv_output_size,
    conv_transpose_input_size,
    conv_transpose_output_size,
    dilated,
)


def padded(x, start, size_needed, fill=0.0):
    """x with `start` fill values before each spatial dim and enough after to reach
    `size_needed`; x itself when nothing is to be added. Longer dims are left as they are: the
    windows never read past `size_needed`."""
    spatial = x.shape[2:]
    end = [max(0, need - p - n) for need, p, n in zip(size_needed, start, spatial)]
    if not any(start) and not any(end):
        return x
    shape = x.shape[:2] + tuple(p + n + e for p, n, e in zip(start, spatial, end))
    out = np.zeros(shape, x.dtype) if fill == 0 else np.full(shape, fill, x.dtype)
    out[(..., *(slice(p, p + n) for p, n in zip(start, spatial)))] = x
    return out


def windows(x, kernel, stride, padding, dilation, out_size, fill=0.0):
    """A read-only view `[batch, channels, *out_size, *kernel]` of x's windows, x padded with
    `fill` by `padding` before each spatial dim (and after, as far as the windows reach)."""
    needed = [(o - 1) * s + dilated(k, d) for o, s, k, d in zip(out_size, stride, kernel, dilation)]
    x = padded(x, padding, needed, fill)
    lead, spatial = x.strides[:2], x.strides[2:]
    strides = lead + tuple(t * s for t, s in zip(spatial, stride))
    strides += tuple(t * d for t, d in zip(spatial, dilation))
    return as_strided(x, x.shape[:2] + tuple(out_size) + tuple(kernel), strides, writeable=False)


def im2col(x, kernel, stride, padding, dilation, out_size):
    """The columns `[batch, channels, *kernel, *out_size]`, C-ordered: one copy of one view."""
    n = len(kernel)
    view = windows(x, kernel, stride, padding, dilation, out_size)
    kernel_dims, out_dims = range(2 + n, 2 + 2 * n), range(2, 2 + n)
    return np.ascontiguousarray(view.transpose(0, 1, *kernel_dims, *out_dims))


class Grid:
    """A convolution's geometry, and where its windows lie in flat rows of padded planes,
    `[*lead, images * block + tail]`: channels first, a row per channel holding a run of
    images (`lead` the channels), or a row per image and channel (`lead` both, one image).

    Each image's plane takes `block` elements, a grid of `pitch` (each dim the input's size and
    a band of zeros after it). A band serves as the padding on both sides of a dim: a window
    that reads before a dim's start reads the band of the row, or image, before. So every
    window of every image is a window of one flat row, and a kernel offset shifts them all by
    one step.

    `positions` are the window positions a kernel goes over. With stride 1 they are widened to
    every element of every block (`wide`): the columns of a kernel offset over a run of images
    are then one contiguous run of a channel's row, and every copy, matmul and add goes over
    long runs. The output is read back from the real positions (`gather`); the gradient's rows
    are zero at the others (`widen`), and those windows, which reach into bands and the next
    image, add exact zeros there as long as what multiplies the zeros is finite: a zero times
    an inf is a NaN, which would land where no window puts one (`exact`).

    Wide, the last dim has no band when its output is no wider than its input (`unbanded`):
    a window reading past either end of a row reads its neighbour row instead, and `mask`
    zeroes those reads in the columns. The input's rows then stay contiguous in the planes, so
    the copies in and out of them go over whole planes, not rows."""

    def __init__(self, size, kernel, stride, padding, dilation, out_size, wide=True):
        self.kernel, self.stride, self.dilation = tuple(kernel), tuple(stride), tuple(dilation)
        self.size, self.padding, self.out_size = tuple(size), tuple(padding), tuple(out_size)
        self.wide = wide and all(s == 1 for s in stride)
        dims = list(zip(self.size, self.kernel, self.stride, self.padding, self.dilation, out_size))
        # a dim's band: as wide as the padding on either side, and the positions distinct
        pitch = [
            max(n + max(p, (o - 1) * s + dilated(k, d) - p - n), (o - 1) * s + 1)
            for n, k, s, p, d, o in dims
        ]
        self.unbanded = self.wide and self.out_size[-1] <= self.size[-1]
        if self.unbanded:
            pitch[-1] = self.size[-1]
        self.pitch = tuple(pitch)
        self.steps = tuple(math.prod(self.pitch[i + 1 :]) for i in range(len(self.pitch)))
        self.block = math.prod(self.pitch)

    def mask(self, columns):
        """Zero, in place, the columns `[*lead, *kernel, *cells]` that read past either end of
        a row (the padding of an unbanded last dim)."""
        if not self.unbanded:
            return
        n, p, d = self.size[-1], self.padding[-1], self.dilation[-1]
        rows = columns.reshape(*columns.shape[:-1], -1, n)  # [..., kw, row, column]
        for kw in range(self.kernel[-1]):
            shift = kw * d - p  # column j reads the input's column j + shift
            if shift < 0:
                rows[..., kw, :, :-shift] = 0
            elif shift > 0:
                rows[..., kw, :, n - shift :] = 0

    def adjoint(self):
        """The grid of the correlation that gives this one's input gradient at stride 1: the
        output gradient's windows, padded so that each input position's window holds every
        output position whose window holds it (the kernel flipped); None where the padding
        reaches past the kernel, or with a stride."""
        if any(s != 1 for s in self.stride):
            return None
        padding = [d * (k - 1) - p for k, p, d in zip(self.kernel, self.padding, self.dilation)]
        if min(padding) < 0:
            return None
        return Grid(self.out_size, self.kernel, self.stride, padding, self.dilation, self.size)

    def shape(self, groups):
        """(kernel, stride, dilation, padding, groups, out_size): what numpy_winograd.applies
        reads."""
        return self.kernel, self.stride, self.dilation, self.padding, groups, self.out_size

    def pointwise(self):
        """For a 1x1 kernel without padding, whose windows are single positions of the input
        itself: those positions, a slice per spatial dim (a stride's is a strided view); None
        for another grid."""
        if any(k != 1 for k in self.kernel) or any(self.padding) or not all(self.out_size):
            return None
        if any((o - 1) * s >= n for o, s, n in zip(self.out_size, self.stride, self.size)):
            return None  # (a padding at the end reaches past the input)
        return tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(self.out_size, self.stride))

    def lean(self, waste=None):
        """This grid, or the exact one where widening adds more than a quarter of the
        positions (a convolution without padding, say), or `waste` times them if given: the
        forward and the weight gradient compute every position, and their copies go over
        whole rows either way."""
        if self.wide and self.block > (waste or WIDE_WASTE) * math.prod(self.out_size):
            return self.exact()
        return self

    def exact(self):
        """This grid not widened: its windows read nothing but the input and its padding."""
        return Grid(
            self.size, self.kernel, self.stride, self.padding, self.dilation, self.out_size, False
        )

    def images_last(self, images):
        """Whether the exact windows of `images` planes go position by position, the images
        innermost: where they outnumber a row's positions, the copies of their columns then
        go over longer runs."""
        return not self.wide and images > self.out_size[-1]

    def cells(self, images):
        """The trailing dims of the windows of `images` planes: `[images, *out_size]`, or
        `[*out_size, images]` (`images_last`), or one run `[images * block]` when wide."""
        if self.wide:
            return (images * self.block,)
        return (*self.out_size, images) if self.images_last(images) else (images, *self.out_size)

    def count(self, images):
        return math.prod(self.cells(images))

    def plane(self, lead, images, dtype):
        """Zero planes `[*lead, images * block + tail]`, the tail as far as the windows and
        the data reach."""
        offsets = sum((k - 1) * d * t for k, d, t in zip(self.kernel, self.dilation, self.steps))
        if self.wide:
            reach = images * self.block - 1
        else:
            last = sum((o - 1) * s * t for o, s, t in zip(self.out_size, self.stride, self.steps))
            reach = (images - 1) * self.block + last
        start = sum(p * t for p, t in zip(self.padding, self.steps))
        return np.zeros((*lead, max(reach + offsets + 1, start + images * self.block)), dtype)

    def windows(self, flat, part, writeable=False):
        """The windows `[*lead, *kernel, *cells]` of the images `part` (a slice of the batch)
        of planes `flat` (contiguous), a view."""
        item, lead, images = flat.itemsize, flat.ndim - 1, part.stop - part.start
        strides = flat.strides[:lead] + tuple(
            d * t * item for d, t in zip(self.dilation, self.steps)
        )
        if self.wide:
            strides += (item,)
        else:
            image = (self.block * item,)
            positions = tuple(s * t * item for s, t in zip(self.stride, self.steps))
            strides += positions + image if self.images_last(images) else image + positions
        shape = (*flat.shape[:lead], *self.kernel, *self.cells(images))
        # (made directly: as_strided's overhead is a good part of a small chunk's copy)
        view = np.ndarray(shape, flat.dtype, flat, part.start * self.block * item, strides)
        view.flags.writeable = writeable
        return view

    def inside(self, flat, images):
        """The inputs' part `[*lead, images, *size]` of planes `flat`, a view."""
        start = sum(p * t for p, t in zip(self.padding, self.steps))
        blocks = flat[..., start : start + images * self.block]
        blocks = blocks.reshape(*flat.shape[:-1], images, *self.pitch)
        return blocks[(..., *map(slice, self.size))]

    def spread(self, x):
        """x `[batch, channels, *size]` as planes `[channels, batch * block + tail]`."""
        flat = self.plane(x.shape[1:2], x.shape[0], x.dtype)
        self.inside(flat, x.shape[0])[...] = x.swapaxes(0, 1)
        return flat

    def rows(self, grad, part, widened):
        """The rows `[out, *cells]` of the images `part` of a gradient `[batch, out, *out_size]`:
        wide, a slice of `widened`, its `widen`; else a copy."""
        if self.wide:
            return widened[..., self.count(part.start) : self.count(part.stop)]
        grad = np.moveaxis(grad[part], 1, 0)
        if self.images_last(grad.shape[1]):
            grad = np.moveaxis(grad, 1, -1)
        return np.ascontiguousarray(grad).reshape(len(grad), -1)

    def widen(self, grad):
        """The rows `[out, *cells(batch)]` of a gradient `[batch, out, *out_size]` on a wide
        grid, zero at the extra positions."""
        rows = np.empty((grad.shape[1], grad.shape[0], *self.pitch), grad.dtype)
        rows[(..., *map(slice, self.out_size))] = grad.swapaxes(0, 1)
        for dim, o in enumerate(self.out_size):  # the bands: from each dim's end on
            rows[(..., slice(o, None), *(slice(None),) * (len(self.out_size) - 1 - dim))] = 0
        return rows.reshape(grad.shape[1], -1)

    def gather(self, rows, images):
        """The output `[images, out, *out_size]` of rows `[out, *cells(images)]`, a view."""
        if self.wide:
            rows = rows.reshape(rows.shape[0], images, *self.pitch)
            return rows[(..., *map(slice, self.out_size))].swapaxes(0, 1)
        rows = rows.reshape(rows.shape[0], *self.cells(images))
        return np.moveaxis(rows, -1 if self.images_last(images) else 1, 0)

    def add(self, view, columns):
        """Add `columns` `[*lead, *kernel, *cells]` into windows `view`: a loop over the
        kernel's offsets."""
        lead = view.ndim - len(self.kernel) - len(self.cells(1))
        for offset in itertools.product(*map(range, self.kernel)):
            at = (*(slice(None),) * lead, *offset)
            view[at] += columns[at]

    def col2im(self, columns):
        """Add `columns` `[a, b, *kernel, *out_size]` back into planes: `[a, b, *size]` (the
        adjoint of reading the windows), a view of a new array. Not wide."""
        flat = self.plane(columns.shape[:2], 1, columns.dtype)
        self.add(
            self.windows(flat, slice(0, 1), writeable=True),
            np.expand_dims(columns, 2 + len(self.kernel)),
        )
        return self.inside(flat, 1)[:, :, 0]


# The most positions a widened grid may compute per output position (`Grid.lean`)
WIDE_WASTE = 1.25
# ... in an input gradient whose columns are added: the exact windows' adds go over short runs
ADD_WIDE_WASTE = 1.4
# An exact grid goes batch first, one matmul per image, from this many positions an image on:
# with fewer, the products are too narrow for BLAS to run at its speed, and the planes channels
# first, one matmul over the positions of many images, win.
MANY_POSITIONS = 256
# A chunk of the batch whose columns fit in a core's L2 cache: the columns are then made and
# consumed (copy, matmul) in cache.
CHUNK_BYTES = 1 << 20
# The input gradient goes as a correlation (`Grid.adjoint`) where the batch's output positions
# are at least this many times the weight's rows per group: the flipped weight, a copy, then
# costs less than the adds of the columns it spares.
ADJOINT_RATIO = 2
# With several BLAS threads, the chunks are longer: BLAS shares a product out among its threads
# at a cost that a chunk's product sized for one core's cache does not repay.
THREADED_CHUNK_BYTES = 1 << 22
# The input gradient's chunks are longer: numpy's adds cost less per element over runs of
# thousands of elements than over runs of hundreds.
ADD_CHUNK_BYTES = 1 << 21


def chunks(batch, image_bytes, budget=CHUNK_BYTES):
    """The batch as slices of images whose columns take at most about `budget` bytes (at least
    THREADED_CHUNK_BYTES where numpy's BLAS runs several threads), as few as that allows and
    as even as can be: a short last chunk would be a narrow product, which BLAS runs far below
    its speed."""
    if blas_threads.count() > 1:
        budget = max(budget, THREADED_CHUNK_BYTES)
    count = -(-batch // max(1, budget // max(1, image_bytes)))
    bounds = [batch * i // count for i in range(count + 1)]
    return [slice(start, stop) for start, stop in zip(bounds, bounds[1:])]


def correlate(x, weight, grid, groups, bias=None):
    """The cross-correlation `[batch, out, *out_size]`, plus `bias` per channel if given (a
    convolution): per chunk of images, one matmul per image and group of the weight by the
    image's columns, batch first, whose output is the result's layout already. (On a wide grid,
    or where an image has few positions, the planes channels first win: `correlate_planes`; a
    1x1 kernel without padding needs no windows: `correlate_pointwise`; a 3x3 kernel of stride 1
    over many tiles goes by Winograd's products: numpy_winograd.)"""
    if numpy_winograd.applies(x, weight, *grid.shape(groups)):
        out = numpy_winograd.correlate(x, weight, grid.padding, grid.out_size, bias)
        if out is not None:
            return out
    picked = grid.pointwise()
    if picked is not None:
        return correlate_pointwise(x, weight, picked, groups, bias)
    grid = grid.lean()
    count = math.prod(grid.out_size)
    if grid.wide or count < MANY_POSITIONS:
        return correlate_planes(x, weight, grid, groups, bias)
    batch, channels_out = x.shape[0], weight.shape[0]
    lhs = weight.reshape(groups, channels_out // groups, -1)
    out = np.empty((batch, groups, channels_out // groups, count), np.result_type(x, weight))
    for part in chunks(batch, weight[0].size * count * x.itemsize * groups):
        columns = im2col(
            x[part], grid.kernel, grid.stride, grid.padding, grid.dilation, grid.out_size
        )
        np.matmul(lhs, columns.reshape(columns.shape[0], groups, -1, count), out=out[part])
        if bias is not None:  # while the chunk is in cache
            out[part] += bias.reshape(groups, -1, 1)
        del columns  # before the next chunk's: one chunk's columns alive at a time
    return out.reshape(batch, channels_out, *grid.out_size)


def pointwise_positions(shape, weight_shape, stride, padding, padding_end):
    """The positions a convolution of an input of `shape` reads, as slices of its spatial dims,
    where its kernel is 1x1 without padding (MobileNet's pointwise layers): its windows are the
    input's strided positions, no grid to work out (Grid.pointwise). None for any other."""
    if all(k == 1 for k in weight_shape[2:]) and all(shape[2:]):
        if not any(padding) and not any(padding_end or ()):
            return tuple(slice(None, None, s) for s in stride)
    return None


def correlate_pointwise(x, weight, picked, groups, bias):
    """`correlate` of a 1x1 kernel without padding: its columns are the input at the `picked`
    positions (Grid.pointwise), the input itself at stride 1, one strided copy otherwise; one
    matmul per image and group."""
    batch, channels_out = x.shape[0], weight.shape[0]
    columns = x[(slice(None), slice(None), *picked)]
    out_size = columns.shape[2:]
    count = math.prod(out_size)
    lhs = weight.reshape(groups, channels_out // groups, -1)
    out = np.empty((batch, groups, channels_out // groups, count), np.result_type(x, weight))
    np.matmul(lhs, columns.reshape(batch, groups, -1, count), out=out)
    if bias is not None:
        out += bias.reshape(groups, -1, 1)
    return out.reshape(batch, channels_out, *out_size)


def correlate_planes(x, weight, grid, groups, bias):
    """`correlate` over the planes of the grid, channels first: per chunk of images one matmul
    per group of the weight by the columns of every position of every image in it. (Batch first,
    one matmul per image, would multiply by a few columns at a time where an image has few
    positions, as at the end of a CNN, which BLAS runs far below its speed.)"""
    batch, channels_out = x.shape[0], weight.shape[0]
    lhs = weight.reshape(groups, channels_out // groups, -1)
    flat = grid.spread(x)
    out = np.empty((batch, channels_out, *grid.out_size), np.result_type(x, weight))
    for part in chunks(batch, weight[0].size * groups * grid.count(1) * x.itemsize):
        columns = np.ascontiguousarray(grid.windows(flat, part))
        grid.mask(columns)
        rows = np.matmul(lhs, columns.reshape(groups, lhs.shape[2], -1))
        if bias is not None:  # into the rows while they are in cache, before the plain copy
            rows += bias.reshape(groups, -1, 1)
        out[part] = grid.gather(rows.reshape(channels_out, -1), part.stop - part.start)
        del columns, rows  # before the next chunk's: one chunk's columns alive at a time
    return out


def correlate_input_grad(grad, weight, grid, groups, rows=None):
    """The gradient `[batch, in, *size]` of `correlate` w.r.t. its input (a transposed
    convolution of `grad`): per chunk of images, one matmul per image and group gives the
    columns, batch first, which are added back into each image's plane. (On a wide grid, or
    where an image has few positions, the planes channels first win: `input_grad_planes`, which
    takes `rows`, the grid's `widen(grad)`, if given; a 1x1 kernel without padding adds nothing
    up: `input_grad_pointwise`.) A wide grid's extra positions multiply the weight by zeros:
    with an inf or NaN in the weight, the exact grid.

    At stride 1, with a weight small beside the gradient (or a 3x3 one over enough tiles for
    Winograd's products, numpy_winograd), the input gradient is a correlation of `grad` with
    the flipped weight (`adjoint_correlate`): one matmul over the whole kernel, no adds. Its
    padding multiplies the weight by zeros too: a finite weight only."""
    picked = grid.pointwise()
    if picked is not None:
        return input_grad_pointwise(grad, weight, picked, groups, grid.size)
    if grid.wide and not np.isfinite(weight).all():
        grid, rows = grid.exact(), None  # (widened for the other grid)
    positions = len(grad) * math.prod(grid.out_size)
    adjoint = grid.adjoint() if grid.wide else None
    if adjoint is not None and (
        ADJOINT_RATIO * weight.shape[0] <= groups * positions
        or numpy_winograd.applies(grad, weight, *adjoint.shape(groups))
    ):
        return correlate(grad, flipped(weight, groups), adjoint, groups)
    lean = grid.lean(ADD_WIDE_WASTE)
    if lean is not grid:
        grid, rows = lean, None  # (widened for the other grid)
    count = math.prod(grid.out_size)
    if grid.wide or count < MANY_POSITIONS:
        return input_grad_planes(grad, weight, grid, groups, rows)
    batch, channels_out = grad.shape[:2]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    rows = grad.reshape(batch, groups, channels_out // groups, count)
    flat = grid.plane((batch, weight.shape[1] * groups), 1, np.result_type(grad, weight))
    view = grid.windows(flat, slice(0, 1), writeable=True)
    for part in chunks(batch, weight[0].size * groups * count * flat.itemsize):
        columns = np.matmul(lhs, rows[part])
        grid.add(view[part], columns.reshape(view[part].shape))
        del columns  # before the next chunk's: one chunk's columns alive at a time
    return np.ascontiguousarray(grid.inside(flat, 1)[:, :, 0])


def flipped(weight, groups):
    """The weight `[out, in/groups, *kernel]` of a correlation as that of its adjoint,
    `[in, out/groups, *kernel]`: each group's channels swapped, the kernel reversed."""
    channels_out, per_group, *kernel = weight.shape
    weight = weight.reshape(groups, channels_out // groups, per_group, *kernel).swapaxes(1, 2)
    weight = weight[(..., *(slice(None, None, -1),) * len(kernel))]
    return np.ascontiguousarray(weight).reshape(groups * per_group, -1, *kernel)


def input_grad_pointwise(grad, weight, picked, groups, size):
    """`correlate_input_grad` of a 1x1 kernel without padding: one matmul per image and group
    gives the gradient at the `picked` positions, written into zeros (the others are read by
    no window)."""
    batch, channels_out = grad.shape[:2]
    count = math.prod(grad.shape[2:])
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    dtype = np.result_type(grad, weight)
    columns = np.matmul(lhs, grad.reshape(batch, groups, channels_out // groups, count))
    columns = columns.reshape(batch, -1, *grad.shape[2:])
    if columns.shape[2:] == tuple(size):  # (stride 1: every position)
        return columns.astype(dtype, copy=False)
    out = np.zeros((batch, columns.shape[1], *size), dtype)
    out[(slice(None), slice(None), *picked)] = columns
    return out


def input_grad_planes(grad, weight, grid, groups, rows=None):
    """`correlate_input_grad` over the planes of the grid, channels first."""
    batch, channels_out = grad.shape[:2]
    lhs = weight.reshape(groups, channels_out // groups, -1).swapaxes(1, 2)
    widened = grid.widen(grad) if grid.wide and rows is None else rows
    flat = grid.plane((weight.shape[1] * groups,), batch, np.result_type(grad, weight))
    image_bytes = weight[0].size * groups * grid.count(1) * flat.itemsize
    for part in chunks(batch, image_bytes, ADD_CHUNK_BYTES):
        chunk_rows = grid.rows(grad, part, widened).reshape(groups, channels_out // groups, -1)
        columns = np.matmul(lhs, chunk_rows)
        columns = columns.reshape(-1, *grid.kernel, *grid.cells(part.stop - part.start))
        grid.mask(columns)
        grid.add(grid.windows(flat, part, writeable=True), columns)
        del columns
    return np.ascontiguousarray(grid.inside(flat, batch).swapaxes(0, 1))


def correlate_weight_grad(x, grad, grid, groups, rows=None):
    """The gradient `[out, in/groups, *kernel]` of `correlate` w.r.t. its weight; `rows`, if
    given, are the grid's `widen(grad)`. (A 3x3 kernel of stride 1 over many tiles goes by
    Winograd's products: numpy_winograd.)"""
    if numpy_winograd.applies(x, grad, *grid.shape(groups)):
        weight_grad = numpy_winograd.weight_grad(x, grad, grid.padding)
        if weight_grad is not None:
            return weight_grad
    lean = grid.lean()
    if lean is not grid:
        grid, rows = lean, None  # (widened for the other grid)
    with np.errstate(invalid="ignore"):  # the NaNs of a zero times an inf are redone below
        weight_grad = weight_products(x, grad, grid, groups, rows)
    if grid.wide and not np.isfinite(weight_grad).all():
        # an inf or NaN in x, which a widened position may have multiplied by its zero
        weight_grad = weight_products(x, grad, grid.exact(), groups)
    # (bfloat16's products come out float32, as its matmul widens: the weight's dtype again)
    weight_grad = weight_grad.astype(x.dtype, copy=False)
    return weight_grad.reshape(grad.shape[1], -1, *grid.kernel)


def weight_products(x, grad, grid, groups, rows=None):
    """`[groups, out/groups, in/groups * kernel]`, the weight's own layout: per chunk of images
    one matmul per group of the gradient's rows by the columns, transposed (a transposed
    operand is BLAS's to read, not a copy)."""
    batch, channels_out = grad.shape[:2]
    flat = grid.spread(x)
    widened = grid.widen(grad) if grid.wide and rows is None else rows
    products = None
    image_bytes = x.shape[1] * math.prod(grid.kernel) * grid.count(1) * x.itemsize
    # a chunk spans at least as many positions as the products have rows: the matmuls' inner
    # dim is then no narrower than their output, which each chunk reads and adds to once
    budget = max(CHUNK_BYTES, channels_out // groups * image_bytes // grid.count(1))
    for part in chunks(batch, image_bytes, budget):
        columns = np.ascontiguousarray(grid.windows(flat, part))
        grid.mask(columns)
        columns = columns.reshape(groups, -1, grid.count(part.stop - part.start))
        chunk_rows = grid.rows(grad, part, widened).reshape(groups, channels_out // groups, -1)
        chunk = np.matmul(chunk_rows, columns.swapaxes(1, 2))
        if products is None:
            products = chunk
        else:
            products += chunk
        del columns, chunk
    return products


def with_bias(out, bias):
    if bias is None:
        return out
    out += bias.reshape(-1, *[1] * (out.ndim - 2))
    return out


class NumPyConvKernels:
    # -- bias gradient: the output gradient summed over all but the channel dim ---------------
    def _conv_bias_backward(self, output_grad):
        # the images' planes added first (long runs), then each channel's positions: cheaper
        # than one sum over the three axes, whose runs are short
        planes = np.sum(output_grad, axis=0, dtype=output_grad.dtype)
        return np.sum(planes.reshape(planes.shape[0], -1), axis=1, dtype=output_grad.dtype)

    def conv1d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv2d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv3d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose1d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose2d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    def conv_transpose3d_bias_backward(self, output_grad):
        return self._conv_bias_backward(output_grad)

    # -- convolution ---------------------------------------------------------------------------
    def _conv(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        check_conv(f"conv{weight.ndim - 2}d", x, weight, bias, groups)
        picked = pointwise_positions(x.shape, weight.shape, stride, padding, padding_end)
        if picked is not None:
            return correlate_pointwise(x, weight, picked, groups, bias)
        size = self._conv_size(x, weight, stride, padding, dilation, padding_end)
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        return correlate(x, weight, grid, groups, bias)

    def _conv_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:])
        return correlate_input_grad(output_grad, weight, grid, groups)

    def _conv_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:])
        return correlate_weight_grad(x, output_grad, grid, groups)

    def _conv_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        # The input and weight gradients both read the output gradient's rows, widened: one
        # copy of it (a full pass) is made for the two, where the weight gradient's grid stays
        # wide (`Grid.lean`; the input gradient's then does too), and neither goes by
        # Winograd's products, which read the gradient itself.
        if not (wanted[0] and wanted[1]):
            return super()._conv_backward(
                x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
            )
        grid = Grid(x.shape[2:], weight.shape[2:], stride, padding, dilation, output_grad.shape[2:])
        winograd = numpy_winograd.applies(x, output_grad, *grid.shape(groups))
        rows = (
            grid.widen(output_grad) if grid.wide and grid.lean() is grid and not winograd else None
        )
        return (
            correlate_input_grad(output_grad, weight, grid, groups, rows),
            correlate_weight_grad(x, output_grad, grid, groups, rows),
            self._conv_bias_backward(output_grad) if wanted[2] else None,
        )

    def _conv_size(self, x, weight, stride, padding, dilation, padding_end):
        end = padding if padding_end is None else padding_end
        size = tuple(
            map(conv_output_size, x.shape[2:], weight.shape[2:], stride, padding, end, dilation)
        )
        check_output_size(f"conv{weight.ndim - 2}d", size)
        return size

    def conv1d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv2d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv3d(self, x, weight, bias, stride, padding, dilation, groups, padding_end):
        return self._conv(x, weight, bias, stride, padding, dilation, groups, padding_end)

    def conv1d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv2d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv3d_x_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_x_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv1d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv2d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv3d_weight_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end
    ):
        return self._conv_weight_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end
        )

    def conv1d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    def conv2d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    def conv3d_backward(
        self, x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
    ):
        return self._conv_backward(
            x, weight, output_grad, stride, padding, dilation, groups, padding_end, wanted
        )

    # -- transposed convolution: the adjoint of a convolution ------------------------------------
    def _conv_transpose(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        check_conv(f"conv_transpose{weight.ndim - 2}d", x, weight, bias, groups, transposed=True)
        size = tuple(
            map(
                conv_transpose_output_size,
                x.shape[2:],
                weight.shape[2:],
                stride,
                padding,
                padding_out,
                dilation,
            )
        )
        check_output_size(f"conv_transpose{weight.ndim - 2}d", size)
        grid = Grid(size, weight.shape[2:], stride, padding, dilation, x.shape[2:])
        out = correlate_input_grad(x, weight, grid, groups)
        return with_bias(out, bias)

    def _conv_transpose_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        size = tuple(
            map(
                conv_transpose_input_size,
                output_grad.shape[2:],
                weight.shape[2:],
                stride,
                padding,
                padding_out,
                dilation,
            )
        )
        grid = Grid(output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, size)
        return correlate(output_grad, weight, grid, groups)

    def _conv_transpose_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        # <g, conv_transpose(x, w)> = <correlate(g, w), x>: x is the correlation's output grad
        grid = Grid(output_grad.shape[2:], weight.shape[2:], stride, padding, dilation, x.shape[2:])
        return correlate_weight_grad(output_grad, x, grid, groups)

    def conv_transpose1d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose2d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose3d(self, x, weight, bias, stride, padding, padding_out, dilation, groups):
        return self._conv_transpose(x, weight, bias, stride, padding, padding_out, dilation, groups)

    def conv_transpose1d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose2d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose3d_x_backward(
        self, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_x_backward(
            weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose1d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose2d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    def conv_transpose3d_weight_backward(
        self, x, weight, output_grad, stride, padding, padding_out, dilation, groups
    ):
        return self._conv_transpose_weight_backward(
            x, weight, output_grad, stride, padding, padding_out, dilation, groups
        )

    # -- unfold / fold (im2col / col2im of one image) ------------------------------------------
    def unfold4d(self, x, kernel_size, stride, padding, dilation):
        size = tuple(
            map(conv_output_size, x.shape[2:], kernel_size, stride, padding, padding, dilation)
        )
        check_output_size("unfold4d", size)
        blocks = im2col(x, kernel_size, stride, padding, dilation, size)
        return blocks.reshape(x.shape[0], -1, math.prod(size))

    def fold4d(self, x, output_size, kernel_size, stride, padding, dilation):
        blocks = tuple(
            map(conv_output_size, output_size, kernel_size, stride, padding, padding, dilation)
        )
        batch = x.shape[0]  # an x that does not fit fails the reshape; the contract says why
        columns = x.reshape(batch, -1, *kernel_size, *blocks)
        grid = Grid(output_size, kernel_size, stride, padding, dilation, blocks, wide=False)
        return np.ascontiguousarray(grid.col2im(columns))
