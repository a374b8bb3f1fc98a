"""burn's `QuantizedTensorPrimitive`: what a Float tensor's primitive is when it is quantized
(burn's `TensorPrimitive::QFloat`)."""

from burnpy.runtime.quantization.scheme import QuantScheme


class QuantizedTensor:
    """The values (int8, one per element, in the tensor's shape; or u32 words, flat, for a
    PACKED_U32 scheme), the scales (the scheme's scale dtype, one per block: burn's grid shape,
    `[1]` per tensor), the scheme and the logical shape, all arrays of one backend. `dtype` is
    the backend's float32, what the tensor dequantizes to by default."""

    __slots__ = ("values", "scales", "scheme", "shape", "dtype")

    def __init__(self, values, scales, scheme: QuantScheme, shape: tuple, dtype):
        self.values = values
        self.scales = scales
        self.scheme = scheme
        self.shape = tuple(shape)
        self.dtype = dtype

    @property
    def device(self):
        return self.values.device

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return f"QuantizedTensor(shape={list(self.shape)}, scheme={self.scheme!r})"
