"""Activation layers (burn-nn's `Relu`, `Gelu`, `Sigmoid`, `Tanh`, `LeakyRelu`)."""

from generated import Tensor
from burnpy.nn import functional as F
from burnpy.nn.module import Module


class Relu(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.relu(x)


class Gelu(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(x)


class Sigmoid(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)


class Tanh(Module):
    def forward(self, x: Tensor) -> Tensor:
        return F.tanh(x)


class LeakyRelu(Module):
    """burn-nn's default slope is 0.01."""

    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = float(negative_slope)

    def forward(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.negative_slope)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}"
