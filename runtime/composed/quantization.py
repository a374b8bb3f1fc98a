"""What a Tensor tells of its quantization: whether its primitive is quantized, its scheme,
its integer values and its scales (burn's `TensorPrimitive::QFloat` and `QuantizedBytes`)."""

import numpy as np

from burnpy.runtime.dispatch import BackendTensor


class QuantizationMethods:
    __slots__ = ()

    def is_quantized(self) -> bool:
        """Whether this is a Float tensor whose primitive is quantized (False for any other)."""
        return self.kind.backend_tensor is BackendTensor.QFloat

    def scheme(self):
        """The QuantScheme of a quantized tensor; None for any other."""
        return self.primitive.scheme if self.is_quantized() else None

    def quantized_values(self) -> np.ndarray:
        """The quantized values: int8, unpacked, in the tensor's shape."""
        return self.quantized_data()[0]

    def quantized_scales(self) -> np.ndarray:
        """The scales, float32, one per block (burn's grid shape; `[1]` per tensor)."""
        return self.quantized_data()[1]
