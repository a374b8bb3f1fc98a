"""burnpy.nn: modules, layers, initializers, losses and records, after burn-nn.

Layers are named as burn-nn names them and keep its weight layouts (Linear's weight is
[d_input, d_output]) and default initializers, drawn from the device's seed."""

from burnpy.nn import functional, init
from burnpy.nn.activation import Gelu, LeakyRelu, Relu, Sigmoid, Tanh
from burnpy.nn.container import Flatten, Sequential
from burnpy.nn.conv import Conv1d, Conv2d, ConvTranspose2d
from burnpy.nn.dropout import Dropout
from burnpy.nn.linear import Embedding, Linear
from burnpy.nn.module import Module
from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm
from burnpy.nn.pool import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from burnpy.nn.pytorch import load_pytorch

__all__ = [
    "AdaptiveAvgPool2d",
    "AvgPool2d",
    "BatchNorm",
    "Conv1d",
    "Conv2d",
    "ConvTranspose2d",
    "Dropout",
    "Embedding",
    "Flatten",
    "Gelu",
    "GroupNorm",
    "LayerNorm",
    "LeakyRelu",
    "Linear",
    "MaxPool2d",
    "Module",
    "Relu",
    "Sequential",
    "Sigmoid",
    "Tanh",
    "functional",
    "init",
    "load_pytorch",
]
