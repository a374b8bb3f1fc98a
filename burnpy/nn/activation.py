"""burn-nn's activation layers, each a thin module over the function of the same name in
`burnpy.nn.functional`. Their settings are burn's config fields: required ones positional,
the rest keyword with burn's defaults. `Activation(name, ...)` picks one by name, as burn's
`ActivationConfig` does."""

from burnpy.generated import Tensor
from burnpy.nn import functional as F
from burnpy.nn import init
from burnpy.nn.linear import Linear
from burnpy.nn.module import Module


class _Activation(Module):
    """An activation with scalar settings: `_settings` names them, for repr and for forward."""

    _settings = ()

    def _set(self, **settings):
        for name, value in settings.items():
            setattr(self, name, value)

    def extra_repr(self):
        return ", ".join(f"{name}={getattr(self, name)}" for name in self._settings)


class Relu(_Activation):
    def forward(self, x: Tensor) -> Tensor:
        return F.relu(x)


class Relu6(_Activation):
    """min(max(x, 0), 6)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.relu6(x)


class LeakyRelu(_Activation):
    """x where x >= 0, else negative_slope·x."""

    _settings = ("negative_slope",)

    def __init__(self, *, negative_slope: float = 0.01):
        super().__init__()
        self._set(negative_slope=float(negative_slope))

    def forward(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.negative_slope)


class PRelu(Module):
    """leaky_relu with a learned slope `alpha` [num_parameters]: one per channel (dim 1) or a
    single one shared by all, initialised to `alpha`."""

    def __init__(self, *, num_parameters: int = 1, alpha: float = 0.25, device):
        super().__init__()
        self.alpha = init.constant(alpha).init([num_parameters], device)
        self.alpha_value = float(alpha)

    def forward(self, x: Tensor) -> Tensor:
        return F.prelu(x, self.alpha)

    def extra_repr(self):
        return f"num_parameters={self.alpha.shape[0]}, alpha_value={self.alpha_value}"


class RRelu(_Activation):
    """Randomised leaky relu: in training on an autodiff device each negative element gets its
    own slope drawn from U(lower, upper); otherwise the slope is the midpoint."""

    _settings = ("lower", "upper")

    def __init__(self, *, lower: float = 0.125, upper: float = 1.0 / 3.0):
        super().__init__()
        if lower > upper:
            raise ValueError(f"RRelu: lower bound ({lower}) must be <= upper bound ({upper})")
        self._set(lower=float(lower), upper=float(upper))

    def forward(self, x: Tensor) -> Tensor:
        return F.rrelu(x, self.lower, self.upper, training=self.training)


class Gelu(_Activation):
    """The exact (erf) GELU, or its tanh approximation with `approximate=True`."""

    _settings = ("approximate",)

    def __init__(self, *, approximate: bool = False):
        super().__init__()
        self._set(approximate=bool(approximate))

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu_approximate(x) if self.approximate else F.gelu(x)


class Sigmoid(_Activation):
    def forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class HardSigmoid(_Activation):
    """max(0, min(1, alpha·x + beta))."""

    _settings = ("alpha", "beta")

    def __init__(self, *, alpha: float = 0.2, beta: float = 0.5):
        super().__init__()
        self._set(alpha=float(alpha), beta=float(beta))

    def forward(self, x: Tensor) -> Tensor:
        return F.hard_sigmoid(x, self.alpha, self.beta)


class LogSigmoid(_Activation):
    def forward(self, x: Tensor) -> Tensor:
        return F.log_sigmoid(x)


class SiLU(_Activation):
    """x·sigmoid(x)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(x)


class HardSwish(_Activation):
    """x·hard_sigmoid(x, 1/6, 1/2)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.hard_swish(x)


class Mish(_Activation):
    """x·tanh(softplus(x))."""

    def forward(self, x: Tensor) -> Tensor:
        return F.mish(x)


class Softplus(_Activation):
    """log(1 + exp(beta·x)) / beta, finite over the whole float range."""

    _settings = ("beta",)

    def __init__(self, *, beta: float = 1.0):
        super().__init__()
        self._set(beta=float(beta))

    def forward(self, x: Tensor) -> Tensor:
        return F.softplus(x, self.beta)


class Softsign(_Activation):
    """x / (1 + |x|)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.softsign(x)


class Tanh(_Activation):
    def forward(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class Tanhshrink(_Activation):
    """x - tanh(x)."""

    def forward(self, x: Tensor) -> Tensor:
        return F.tanhshrink(x)


class Hardtanh(_Activation):
    """x clamped to [min_val, max_val]."""

    _settings = ("min_val", "max_val")

    def __init__(self, *, min_val: float = -1.0, max_val: float = 1.0):
        super().__init__()
        self._set(min_val=float(min_val), max_val=float(max_val))

    def forward(self, x: Tensor) -> Tensor:
        return F.hardtanh(x, self.min_val, self.max_val)


class Elu(_Activation):
    """x where x > 0, else alpha·(exp(x) - 1)."""

    _settings = ("alpha",)

    def __init__(self, *, alpha: float = 1.0):
        super().__init__()
        self._set(alpha=float(alpha))

    def forward(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha)


class Celu(_Activation):
    """x where x > 0, else alpha·(exp(x / alpha) - 1)."""

    _settings = ("alpha",)

    def __init__(self, *, alpha: float = 1.0):
        super().__init__()
        self._set(alpha=float(alpha))

    def forward(self, x: Tensor) -> Tensor:
        return F.celu(x, self.alpha)


class Selu(_Activation):
    """gamma·x where x >= 0, else gamma·alpha·(exp(x) - 1), with SELU's fixed constants."""

    def forward(self, x: Tensor) -> Tensor:
        return F.selu(x)


class Threshold(_Activation):
    """x where x > threshold, else value."""

    _settings = ("threshold", "value")

    def __init__(self, threshold: float, value: float):
        super().__init__()
        self._set(threshold=float(threshold), value=float(value))

    def forward(self, x: Tensor) -> Tensor:
        return F.threshold(x, self.threshold, self.value)


class ThresholdedRelu(_Activation):
    """x where x > alpha, else 0."""

    _settings = ("alpha",)

    def __init__(self, *, alpha: float = 1.0):
        super().__init__()
        self._set(alpha=float(alpha))

    def forward(self, x: Tensor) -> Tensor:
        return F.thresholded_relu(x, self.alpha)


class HardShrink(_Activation):
    """x where |x| > lambda, else 0 (`lambda` is `lambd` in Python)."""

    _settings = ("lambd",)

    def __init__(self, *, lambd: float = 0.5):
        super().__init__()
        self._set(lambd=float(lambd))

    def forward(self, x: Tensor) -> Tensor:
        return F.hard_shrink(x, self.lambd)


class SoftShrink(_Activation):
    """x - sign(x)·lambda where |x| > lambda, else 0."""

    _settings = ("lambd",)

    def __init__(self, *, lambd: float = 0.5):
        super().__init__()
        self._set(lambd=float(lambd))

    def forward(self, x: Tensor) -> Tensor:
        return F.soft_shrink(x, self.lambd)


class Shrink(_Activation):
    """x - sign(x)·bias where |x| > lambda, else 0 (ONNX's Shrink)."""

    _settings = ("lambd", "bias")

    def __init__(self, *, lambd: float = 0.5, bias: float = 0.5):
        super().__init__()
        self._set(lambd=float(lambd), bias=float(bias))

    def forward(self, x: Tensor) -> Tensor:
        return F.shrink(x, self.lambd, self.bias)


class GLU(_Activation):
    """The first half of `dim` times the sigmoid of the second half; `dim` may be negative."""

    _settings = ("dim",)

    def __init__(self, dim: int):
        super().__init__()
        self._set(dim=int(dim))

    def forward(self, x: Tensor) -> Tensor:
        return F.glu(x, self.dim)


class SwiGlu(Module):
    """silu(linear_inner(x)) · linear_outer(x): two Linear layers [d_input, d_output], without
    bias by default, initialised as burn's Linear."""

    def __init__(
        self, d_input: int, d_output: int, *, bias: bool = False, device, initializer=None
    ):
        super().__init__()
        self.linear_inner = Linear(d_input, d_output, bias, device=device, initializer=initializer)
        self.linear_outer = Linear(d_input, d_output, bias, device=device, initializer=initializer)

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(self.linear_inner(x)) * self.linear_outer(x)

    def extra_repr(self):
        d_input, d_output = self.linear_inner.weight.shape
        return f"d_input={d_input}, d_output={d_output}, bias={self.linear_inner.bias is not None}"


class Identity(Module):
    """Returns its input unchanged (burn-nn's `Identity`, also `Activation("identity")`)."""

    def forward(self, x: Tensor) -> Tensor:
        return x


# burn's ActivationConfig variants, by their snake-case names.
_BY_NAME = {
    "identity": Identity,
    "relu": Relu,
    "leaky_relu": LeakyRelu,
    "gelu": Gelu,
    "gelu_approximate": lambda: Gelu(approximate=True),
    "prelu": PRelu,
    "swiglu": SwiGlu,
    "hard_sigmoid": HardSigmoid,
    "hard_swish": HardSwish,
    "softplus": Softplus,
    "selu": Selu,
    "sigmoid": Sigmoid,
    "tanh": Tanh,
    "softsign": Softsign,
    "elu": Elu,
    "celu": Celu,
    "hard_shrink": HardShrink,
    "soft_shrink": SoftShrink,
    "shrink": Shrink,
    "thresholded_relu": ThresholdedRelu,
}


def Activation(name: str, *args, **config) -> Module:
    """The activation layer that burn's `ActivationConfig` variant `name` builds, with the
    variant's settings as arguments: `Activation("leaky_relu", negative_slope=0.2)`,
    `Activation("swiglu", 16, 32, device=device)`. Any activation layer can stand wherever burn
    takes an `Activation`, so this is only a way to choose one from a setting."""
    try:
        layer = _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"unknown activation {name!r}; choose one of {', '.join(sorted(_BY_NAME))}"
        ) from None
    return layer(*args, **config)
