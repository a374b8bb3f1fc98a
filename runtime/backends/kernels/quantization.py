"""burn's QTensorOps kernels, shared by every backend: the nine a backend must define
(quantize, dequantize, q_from_data, q_into_data, q_to_device, q_reshape, q_swap_dims,
q_permute, q_flip) and quantize_dynamic, whose default is burn's MinMax calibration.

burn's symmetric quantization, all in float32: `scale = 2 * max(|min x|, |max x|) / (b - a)`
per tensor or per block (a block is a rectangle), rounded up to the scale dtype;
`q = clamp(round(x / scale), a, b)`, rounding half away from zero; `x = scale * q`. A zero
scale quantizes and dequantizes as 0.1 (burn's `valid_scale`), and is stored as 0.

What has no integer is refused, naming the call: NaN or ±inf in a tensor to calibrate (burn's
range would be NaN or inf, and every value NaN or 0), NaN in a tensor to quantize with given
scales (±inf there saturate to the range's ends), a NaN, infinite or negative scale, and a
scale beyond its dtype's range (float16's 65504). The scale is computed as
`max / ((b - a) / 2)`, the same float32 value as burn's `2 · max / (b - a)` but without
overflowing where `2 · max` would (values near float32's 3.4e38); where a scale times its
largest integers would overflow float32 (values within a fraction of a percent of its max),
those integers are left out, so that every value dequantizes finite.
"""

import math

import numpy as np

from burnpy.runtime.errors import user_call
from burnpy.runtime.quantization.packing import pack_u32, unpack_u32
from burnpy.runtime.quantization.primitive import QuantizedTensor
from burnpy.runtime.quantization.scheme import QuantParam, QuantScheme, QuantStore

FLOAT32 = np.dtype(np.float32)


def scale_dtype(param: QuantParam) -> np.dtype:
    """The numpy dtype the scales are stored in."""
    if param is QuantParam.BF16:
        import ml_dtypes  # a second to import: only when a bfloat16 scale is asked for

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(param.value)


def grid_shape(shape: tuple, scheme: QuantScheme) -> tuple:
    """burn's `params_shape`: one scale per block along each dim; `(1,)` per tensor."""
    if not scheme.level.is_block:
        return (1,)
    extents = scheme.level.extents(len(shape))
    for size, extent in zip(shape, extents):
        if size % extent:
            raise ValueError(
                f"{user_call('quantize')}: a tensor of shape {list(shape)} is not divisible into "
                f"blocks of {list(extents)}; choose a block size that divides every dim"
            )
    return tuple(size // extent for size, extent in zip(shape, extents))


def round_up(scales: np.ndarray, param: QuantParam) -> np.ndarray:
    """The smallest value of the scale dtype at or above each scale (burn's
    `ScaleDtype::round_up`), as float32: quantizing divides by what will be stored."""
    scales = np.asarray(scales, dtype=FLOAT32)
    if param is QuantParam.F32:
        return scales
    if param is QuantParam.BF16:  # bfloat16 is float32's upper half: drop the rest, bump if lost
        bits = scales.view(np.uint32)
        kept = bits & np.uint32(0xFFFF0000)
        bumped = np.where(kept != bits, kept + np.uint32(0x10000), kept)
        return bumped.astype(np.uint32).view(FLOAT32)
    with np.errstate(over="ignore"):  # (beyond float16: inf, which the caller refuses)
        half = scales.astype(np.float16)
    low = half.astype(FLOAT32) < scales
    half[low] = np.nextafter(half[low], np.float16(np.inf))
    return half.astype(FLOAT32)


def check_scales(scales: np.ndarray, op: str) -> None:
    """Raise, naming the call, unless every scale is finite and non-negative (zero is the
    scale of a block of zeros)."""
    bad = scales[~(np.isfinite(scales) & (scales >= 0))]
    if bad.size:
        raise ValueError(
            f"{user_call(op)}: scales must be finite and non-negative, got {bad.size} that are "
            f"not ({', '.join(map(str, bad.tolist()[:4]))})"
        )


class QuantizationKernels:
    # -- helpers over the backend's arrays ----------------------------------------------------
    def _block_split(self, shape: tuple, scheme: QuantScheme) -> tuple[tuple, tuple]:
        """The tensor seen as `[n0, b0, n1, b1, ...]`, and the scales as `[n0, 1, n1, 1, ...]`."""
        extents = scheme.level.extents(len(shape))
        grid = grid_shape(shape, scheme)
        split = tuple(x for n, e in zip(grid, extents) for x in (n, e))
        broadcast = tuple(x for n in grid for x in (n, 1))
        return split, broadcast

    def _values_int8(self, tensor: QuantizedTensor):
        """The values unpacked, int8, in the tensor's shape."""
        if tensor.scheme.store is QuantStore.NATIVE:
            return tensor.values
        flat = unpack_u32(self.xp, tensor.values, math.prod(tensor.shape), tensor.scheme.value.bits)
        return self.xp.reshape(flat, tensor.shape)

    def _stored(self, values, scales, scheme: QuantScheme, shape) -> QuantizedTensor:
        """A primitive from int8 values in `shape`, packed when the scheme says so."""
        if scheme.store is QuantStore.PACKED_U32:
            values = pack_u32(self.xp, values, scheme.value.bits)
        return QuantizedTensor(values, scales, scheme, shape, self.native_dtype(FLOAT32))

    def _scales_f32(self, tensor: QuantizedTensor):
        """The scales as float32, a zero one as 0.1 (burn's `valid_scale`)."""
        scales = self.xp.astype(tensor.scales, self.native_dtype(FLOAT32))
        return self.xp.where(scales == 0, self.xp.full_like(scales, 0.1), scales)

    def _per_element(self, scales, shape: tuple, scheme: QuantScheme):
        """Scales broadcast to the blocks: reshape `x` by the returned split shape first."""
        if not scheme.level.is_block:
            return scales, shape
        split, broadcast = self._block_split(shape, scheme)
        return self.xp.reshape(scales, broadcast), split

    # -- the required kernels -----------------------------------------------------------------
    def _refuse_non_finite(self, x, op: str, what: str, infinite: bool = True) -> None:
        """Raise, naming the call, where `x` holds NaN (or, with `infinite`, ±inf)."""
        xp = self.xp
        nan = int(xp.sum(xp.astype(xp.isnan(x), xp.int64)))
        inf = int(xp.sum(xp.astype(xp.isinf(x), xp.int64))) if infinite else 0
        if nan or inf:
            found = " and ".join(
                f"{count} {kind}" for count, kind in ((nan, "NaN"), (inf, "infinite")) if count
            )
            raise ValueError(
                f"{user_call(op)}: the tensor holds {found} value(s) among {math.prod(x.shape)}, "
                f"which {what}; replace them first (`x.mask_fill(x.is_nan(), 0.0)`, "
                "`x.clamp(low, high)`)"
            )

    def quantize(self, tensor, scheme: QuantScheme, scales) -> QuantizedTensor:
        """Quantize `tensor` with the given scales (one per block, in burn's grid shape)."""
        xp = self.xp
        shape = tuple(tensor.shape)
        grid = grid_shape(shape, scheme)
        if tuple(scales.shape) != grid:
            raise ValueError(
                f"{user_call('quantize')}: expected scales of shape {list(grid)} (one per block "
                f"of {scheme.level!r} on a {list(shape)} tensor), got {list(scales.shape)}"
            )
        given = np.asarray(self.to_numpy(xp.astype(scales, self.native_dtype(FLOAT32))))
        check_scales(given, "quantize")
        self._refuse_non_finite(tensor, "quantize", "have no integer", infinite=False)
        return self._quantize(tensor, scheme, given, "quantize")

    def _quantize(self, tensor, scheme: QuantScheme, scales: np.ndarray, op) -> QuantizedTensor:
        """`tensor` quantized with checked float32 `scales` (numpy, in the grid shape)."""
        xp = self.xp
        shape = tuple(tensor.shape)
        stored_f32 = round_up(scales, scheme.param)
        if not np.isfinite(stored_f32).all():
            raise ValueError(
                f"{user_call(op)}: a scale of {float(scales.max()):.4g} does not fit the "
                f"scheme's scale dtype ({scale_dtype(scheme.param).name}); quantize with "
                "QuantParam.F32 (or BF16) scales"
            )
        device = self.device_of(tensor)
        stored = self.from_numpy(stored_f32.astype(scale_dtype(scheme.param)), device)
        divisor = self.from_numpy(np.where(stored_f32 == 0, FLOAT32.type(0.1), stored_f32), device)
        x = xp.astype(tensor, self.native_dtype(FLOAT32))
        divisor, split = self._per_element(divisor, shape, scheme)
        low, high = scheme.value.range
        # (clipped first where it may be ±inf, beyond the range: a value huge for its scale)
        with np.errstate(over="ignore"):
            ratio = xp.clip(xp.reshape(x, split) / divisor, min=low - 1, max=high + 1)
        whole = xp.trunc(ratio)
        rounded = whole + xp.where(xp.abs(ratio - whole) >= 0.5, xp.sign(ratio), 0 * ratio)
        largest = stored_f32.astype(np.float64) * max(-low, high)
        if (largest > np.finfo(FLOAT32).max).any():
            # a scale so large that its largest integers times it overflow float32: each
            # block's integers are bounded by what its scale keeps finite (values within a
            # fraction of a percent of float32's max, or a huge scale given)
            bound = np.floor(np.finfo(FLOAT32).max / stored_f32.astype(np.float64))
            bound = self.from_numpy(np.minimum(bound, max(-low, high)).astype(FLOAT32), device)
            bound, _ = self._per_element(bound, shape, scheme)
            rounded = xp.minimum(xp.maximum(rounded, -bound), bound)
        values = xp.astype(xp.clip(rounded, min=low, max=high), xp.int8)
        return self._stored(xp.reshape(values, shape), stored, scheme, shape)

    def quantize_dynamic(self, tensor, scheme: QuantScheme) -> QuantizedTensor:
        """burn's default: the range by MinMax calibration (per tensor or per block), then
        `scale = 2 * max(|min|, |max|) / (b - a)` and quantize."""
        xp = self.xp
        x = xp.astype(tensor, self.native_dtype(FLOAT32))
        self._refuse_non_finite(x, "quantize_dynamic", "have no scale that represents them")
        shape = tuple(x.shape)
        grid = grid_shape(shape, scheme)
        if scheme.level.is_block:
            split, _ = self._block_split(shape, scheme)
            axes = tuple(range(1, len(split), 2))
            blocks = xp.reshape(x, split)
            low = xp.reshape(xp.min(blocks, axis=axes), grid)
            high = xp.reshape(xp.max(blocks, axis=axes), grid)
        elif math.prod(shape) == 0:  # nothing to calibrate on: a zero scale
            low = high = xp.zeros((1,), dtype=self.native_dtype(FLOAT32))
        else:
            low = xp.reshape(xp.min(x), (1,))
            high = xp.reshape(xp.max(x), (1,))
        a, b = scheme.value.range
        scales = xp.maximum(xp.abs(low), xp.abs(high)) / ((b - a) / 2)
        return self._quantize(x, scheme, np.asarray(self.to_numpy(scales)), "quantize_dynamic")

    def dequantize(self, tensor: QuantizedTensor, dtype) -> object:
        """`scale * q` in float32 (int8 times float32 is float32: one pass), then cast to
        `dtype`."""
        xp = self.xp
        values = self._values_int8(tensor)
        scales, split = self._per_element(self._scales_f32(tensor), tensor.shape, tensor.scheme)
        out = xp.reshape(xp.reshape(values, split) * scales, tensor.shape)
        dtype = self.native_dtype(np.dtype(dtype))
        return out if out.dtype == dtype else xp.astype(out, dtype)

    def q_from_data(self, values, scales, scheme: QuantScheme, shape, device) -> QuantizedTensor:
        """A quantized tensor from its int8 values (unpacked) and its float scales (numpy)."""
        values = np.asarray(values)
        if values.dtype.kind not in "iu":
            raise TypeError(
                f"{user_call('from_quantized')}: values must be integers (the quantized values, "
                f"unpacked), got {values.dtype}"
            )
        shape = tuple(values.shape) if shape is None else tuple(shape)
        if values.size != math.prod(shape):
            raise ValueError(
                f"{user_call('from_quantized')}: {values.size} values do not fill a tensor of "
                f"shape {list(shape)}"
            )
        low, high = scheme.value.range
        if values.size and (values.min() < low or values.max() > high):
            raise ValueError(
                f"{user_call('from_quantized')}: values outside {scheme.value.name}'s range "
                f"[{low}, {high}]"
            )
        grid = grid_shape(shape, scheme)
        scales = np.asarray(scales, dtype=FLOAT32)
        if scales.size != math.prod(grid):
            raise ValueError(
                f"{user_call('from_quantized')}: expected {math.prod(grid)} scales (shape "
                f"{list(grid)}), got {scales.size}"
            )
        check_scales(scales, "from_quantized")
        stored = self.from_numpy(scales.reshape(grid).astype(scale_dtype(scheme.param)), device)
        int8 = self.from_numpy(values.astype(np.int8).reshape(shape), device)
        return self._stored(int8, stored, scheme, shape)

    def q_into_data(self, tensor: QuantizedTensor) -> tuple[np.ndarray, np.ndarray]:
        """The int8 values (unpacked, in the tensor's shape) and the float32 scales."""
        values = np.array(self.to_numpy(self._values_int8(tensor)))
        scales = np.array(self.to_numpy(tensor.scales)).astype(FLOAT32)
        return values, scales

    def q_to_device(self, tensor: QuantizedTensor, device) -> QuantizedTensor:
        target = self.native_device(device)
        return QuantizedTensor(
            self.xp.asarray(tensor.values, device=target),
            self.xp.asarray(tensor.scales, device=target),
            tensor.scheme,
            tensor.shape,
            tensor.dtype,
        )

    def q_reshape(self, tensor: QuantizedTensor, shape) -> QuantizedTensor:
        """Reshaped (one size may be -1); per block, quantized anew over the new blocks."""
        shape = tuple(shape)
        if -1 in shape:
            known = math.prod(s for s in shape if s != -1)
            shape = tuple(math.prod(tensor.shape) // known if s == -1 else s for s in shape)
        if tensor.scheme.level.is_block:  # blocks are rectangles of the old shape: quantize anew
            return self.quantize_dynamic(
                self.xp.reshape(self.dequantize(tensor, FLOAT32), shape), tensor.scheme
            )
        values = tensor.values
        if tensor.scheme.store is QuantStore.NATIVE:
            values = self.xp.reshape(values, shape)
        return QuantizedTensor(values, tensor.scales, tensor.scheme, shape, tensor.dtype)

    def q_swap_dims(self, tensor: QuantizedTensor, dim1: int, dim2: int) -> QuantizedTensor:
        axes = list(range(tensor.ndim))
        axes[dim1], axes[dim2] = axes[dim2], axes[dim1]
        return self.q_permute(tensor, axes)

    def q_permute(self, tensor: QuantizedTensor, axes) -> QuantizedTensor:
        """The values permuted; per block, the scales' grid and the block's extents too."""
        axes = tuple(axes)
        values = self.float_permute(self._values_int8(tensor), axes)
        scheme, scales = tensor.scheme, tensor.scales
        if scheme.level.is_block:
            extents = scheme.level.extents(tensor.ndim)
            scheme = scheme.with_level(type(scheme.level)(tuple(extents[a] for a in axes)))
            scales = self.xp.permute_dims(scales, axes)
        shape = tuple(tensor.shape[a] for a in axes)
        return self._stored(values, scales, scheme, shape)

    def q_flip(self, tensor: QuantizedTensor, axes) -> QuantizedTensor:
        """The values flipped; per block, the scales' grid too (a flipped block is a block)."""
        axes = tuple(axes)
        values = self.float_flip(self._values_int8(tensor), axes)
        scales = tensor.scales
        if tensor.scheme.level.is_block and axes:
            scales = self.xp.flip(scales, axis=axes)
        return self._stored(values, scales, tensor.scheme, tensor.shape)
