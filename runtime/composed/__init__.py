"""The Tensor methods burn-tensor builds from backend ops, written over the catalogue's methods
so that both backends and autodiff serve them unchanged. `TensorBase` inherits them."""

from burnpy.runtime.composed.activation import ActivationMethods
from burnpy.runtime.composed.float import FloatMethods
from burnpy.runtime.composed.numeric import NumericMethods
from burnpy.runtime.composed.quantization import QuantizationMethods
from burnpy.runtime.composed.shape import ShapeMethods


class ComposedMethods(
    ShapeMethods, NumericMethods, FloatMethods, ActivationMethods, QuantizationMethods
):
    __slots__ = ()
