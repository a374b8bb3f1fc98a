"""`Quantizer`: post-training quantization of a module's float parameters (burn's `Quantizer`).

`model.quantize_weights(Quantizer(scheme=...))` replaces each selected float parameter by a
quantized tensor: its range calibrated on the parameter itself (`Calibration.MIN_MAX`, burn's only
method), then quantized by the scheme. A quantized parameter is not trained (burn quantizes after
training only): it takes no gradient and an optimiser leaves it alone.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from burnpy.generated import Calibration, QuantScheme, Tensor


@dataclass(frozen=True)
class Quantizer:
    """How to quantize a module's weights: the scheme, the calibration of each parameter's range,
    and which parameters (burn's `ParamGroup`): `params` is None for every float parameter, a
    collection of dotted names (`"fc.weight"`, as `named_parameters` lists them), or a predicate
    on the dotted name (`lambda name: name.endswith("weight")`)."""

    scheme: QuantScheme = field(default_factory=QuantScheme)
    calibration: Calibration = Calibration.MIN_MAX
    params: Iterable[str] | Callable[[str], bool] | None = None

    def __post_init__(self):
        if not isinstance(self.scheme, QuantScheme):
            raise TypeError(
                f"Quantizer's scheme must be a QuantScheme, got {type(self.scheme).__name__}; "
                "e.g. QuantScheme().with_value(QuantValue.Q8S)"
            )
        if self.calibration is not Calibration.MIN_MAX:
            raise ValueError(
                f"calibration {self.calibration!r} is not supported; Calibration.MIN_MAX is"
            )
        if self.params is not None and not callable(self.params):
            if isinstance(self.params, str):
                raise TypeError(
                    f"params takes a collection of dotted names, got the string {self.params!r}; "
                    f"write params=[{self.params!r}]"
                )
            object.__setattr__(self, "params", frozenset(self.params))

    def selects(self, name: str) -> bool:
        """Whether the parameter called `name` is quantized."""
        if self.params is None:
            return True
        return self.params(name) if callable(self.params) else name in self.params

    def check_names(self, names: list) -> None:
        """Raise unless every name `params` lists is one of the module's parameters."""
        if self.params is None or callable(self.params):
            return
        unknown = sorted(self.params - set(names))
        if unknown:
            raise ValueError(
                f"Quantizer params {unknown} are not parameters of the module; its parameters "
                f"are {names}"
            )

    def check_finite(self, name: str, tensor: Tensor) -> None:
        """Raise, naming the parameter, unless its values are finite: NaN or ±inf have no scale
        that represents them (burn's MinMax range would be NaN or inf, and every value NaN)."""
        if tensor.is_quantized():
            return
        nan, inf = (int(t.int().sum().item()) for t in (tensor.is_nan(), tensor.is_inf()))
        if nan or inf:
            raise ValueError(
                f"quantize_weights: parameter {name!r} holds {nan} NaN and {inf} infinite "
                f"value(s) among {tensor.numel()}, which have no scale that represents them; "
                "nothing was quantized. Replace them first (or leave the parameter out with "
                "Quantizer(params=...))"
            )

    def quantize(self, tensor: Tensor) -> Tensor:
        """`tensor` quantized by the scheme, its range calibrated on its own values (a quantized
        tensor is dequantized first, so a module can be quantized again with another scheme)."""
        return tensor.dequantize().quantize_dynamic(self.scheme)
