"""The Tensor methods burn-tensor builds from backend ops, written over the catalogue's methods
so that both backends and autodiff serve them unchanged. `TensorBase` inherits them."""

from runtime.composed.activation import ActivationMethods
from runtime.composed.float import FloatMethods
from runtime.composed.numeric import NumericMethods
from runtime.composed.quantization import QuantizationMethods
from runtime.composed.shape import ShapeMethods


class ComposedMethods(
    ShapeMethods, NumericMethods, FloatMethods, ActivationMethods, QuantizationMethods
):
    __slots__ = ()
