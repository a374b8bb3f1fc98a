"""Every activation at ±inf, NaN and values near the dtype's limits, on the Torch backend
against the NumPy backend (burn's values), forward and gradient, in one process whose
ATEN_CPU_CAPABILITY the parent chose. Prints the capability torch runs at, then one line per
disagreement; the parent test reads both."""

import warnings

import numpy as np
import torch

from burnpy import Device, Tensor, nn
from burnpy.nn import functional as F

POINTS = {
    "float32": [np.inf, -np.inf, np.nan, 3e38, -3e38, 1e30, -1e30, 1e4, -1e4, 88.8, -88.8],
    "float64": [np.inf, -np.inf, np.nan, 1e308, -1e308, 1e30, -1e30, 1e4, -1e4, 710.0, -710.0],
}
# and ordinary values, so that each special one sits among others in a vector register
ORDINARY = [20.0, -20.0, 1.0, -1.0, 0.5, -0.5, 0.0, -0.0]
ACTIVATIONS = [
    nn.Relu(),
    nn.Relu6(),
    nn.LeakyRelu(),
    nn.RRelu().eval(),
    nn.Gelu(),
    nn.Gelu(approximate=True),
    nn.Sigmoid(),
    nn.HardSigmoid(),
    nn.LogSigmoid(),
    nn.SiLU(),
    nn.HardSwish(),
    nn.Mish(),
    nn.Softplus(),
    nn.Softplus(beta=2.0),
    nn.Softsign(),
    nn.Tanh(),
    nn.Tanhshrink(),
    nn.Hardtanh(),
    nn.Elu(),
    nn.Celu(alpha=0.5),
    nn.Selu(),
    nn.Threshold(1.0, 20.0),
    nn.ThresholdedRelu(),
    nn.HardShrink(),
    nn.SoftShrink(),
    nn.Shrink(),
    lambda x: F.softmax(x, 0),
    lambda x: F.log_softmax(x, 0),
]


def value_and_gradient(layer, values, backend):
    x = Tensor.from_data(values, device=Device.of(backend).autodiff()).require_grad()
    out = layer(x)
    return out.to_numpy(), x.grad(out.sum().backward()).to_numpy()


def disagreements():
    for dtype, special in POINTS.items():
        # the specials twice, in the vectorised body and in the tail, and one at a time as a row
        values = np.array((special + ORDINARY) * 3 + special[:5], dtype=dtype)
        # and without NaN and large positive values (a kernel may take another path then)
        low = values[~(np.isnan(values) | (values > 64))]
        for layer in ACTIVATIONS:
            rows = [values, low] if isinstance(layer, nn.Module) else [values[:9], values[9:]]
            for row in rows:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = value_and_gradient(layer, row, "numpy")
                actual = value_and_gradient(layer, row, "torch")
                for what, want, got in zip(("value", "gradient"), expected, actual):
                    try:
                        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-30)
                    except AssertionError as error:
                        name = getattr(layer, "__name__", repr(layer))
                        message = " ".join(str(error).split())
                        yield f"{name} {dtype} {what}: {message}"


if __name__ == "__main__":
    print("capability", torch.backends.cpu.get_cpu_capability().lower())
    for line in disagreements():
        print("disagrees", line)
