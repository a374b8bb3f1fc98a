"""burnpy.nn: modules, layers, initializers, losses and records, after burn-nn.

Layers are named as burn-nn names them and keep its weight layouts (Linear's weight is
[d_input, d_output]) and default initializers, drawn from the device's seed."""

from burnpy.nn import functional, init
from burnpy.nn.activation import *  # noqa: F403 (every activation layer, listed in its __all__)
from burnpy.nn import activation as _activation
from burnpy.nn.loss import *  # noqa: F403 (every loss module, listed in its __all__)
from burnpy.nn import loss as _loss
from burnpy.nn.recurrent import *  # noqa: F403 (every recurrent layer, listed in its __all__)
from burnpy.nn import recurrent as _recurrent
from burnpy.nn.container import Flatten, Sequential
from burnpy.nn.conv import Conv1d, Conv2d, ConvTranspose2d
from burnpy.nn.dropout import Dropout
from burnpy.nn.linear import Embedding, Linear
from burnpy.nn.module import Module
from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm
from burnpy.nn.pool import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from burnpy.nn.record import load_pytorch

__all__ = (
    _activation.__all__
    + _loss.__all__
    + _recurrent.__all__
    + [
        "AdaptiveAvgPool2d",
        "AvgPool2d",
        "BatchNorm",
        "Conv1d",
        "Conv2d",
        "ConvTranspose2d",
        "Dropout",
        "Embedding",
        "Flatten",
        "GroupNorm",
        "LayerNorm",
        "Linear",
        "MaxPool2d",
        "Module",
        "Sequential",
        "functional",
        "init",
        "load_pytorch",
    ]
)
