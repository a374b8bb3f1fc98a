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
from burnpy.nn.record import load_pytorch

# Sequence models: attention, transformers, positional encodings.
from burnpy.nn.attention import (
    CrossAttention,
    CrossAttentionCache,
    GeneratePaddingMask,
    MhaCache,
    MhaOutput,
    MultiHeadAttention,
    generate_autoregressive_mask,
    generate_padding_mask,
)
from burnpy.nn.positional import PositionalEncoding, RotaryEncoding, generate_sinusoids
from burnpy.nn.transformer import (
    PositionWiseFeedForward,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

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
    # sequence models
    "CrossAttention",
    "CrossAttentionCache",
    "GeneratePaddingMask",
    "MhaCache",
    "MhaOutput",
    "MultiHeadAttention",
    "PositionWiseFeedForward",
    "PositionalEncoding",
    "RotaryEncoding",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "generate_autoregressive_mask",
    "generate_padding_mask",
    "generate_sinusoids",
]
