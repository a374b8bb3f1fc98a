"""burnpy.nn: modules, layers, initializers, losses and records, after burn-nn.

Layers are named as burn-nn names them and keep its weight layouts (Linear's weight is
[d_input, d_output]) and default initializers, drawn from the device's seed."""

from typing import TYPE_CHECKING

from burnpy.nn import functional, init
from burnpy.nn.activation import (
    GLU,
    Activation,
    Celu,
    Elu,
    Gelu,
    HardShrink,
    HardSigmoid,
    HardSwish,
    Hardtanh,
    Identity,
    LeakyRelu,
    LogSigmoid,
    Mish,
    PRelu,
    Relu,
    Relu6,
    RRelu,
    Selu,
    Shrink,
    Sigmoid,
    SiLU,
    Softplus,
    SoftShrink,
    Softsign,
    SwiGlu,
    Tanh,
    Tanhshrink,
    Threshold,
    ThresholdedRelu,
)
from burnpy.nn.container import Flatten, Sequential
from burnpy.nn.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
    DeformConv2d,
)
from burnpy.nn.dropout import Dropout
from burnpy.nn.linear import Embedding, Linear
from burnpy.nn.module import Module
from burnpy.nn.quantize import Quantizer

# burn-nn's other layers: losses, recurrent layers, the remaining norms, pools and others.
from burnpy.nn.distance import CosineSimilarity, PairwiseDistance
from burnpy.nn.fold import Fold4d, Unfold4d
from burnpy.nn.interpolate import Interpolate1d, Interpolate2d
from burnpy.nn.loss import (
    BinaryCrossEntropyLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    CTCLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    LpLoss,
    MarginRankingLoss,
    MseLoss,
    MultiMarginLoss,
    PoissonNllLoss,
    RNNTLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
)
from burnpy.nn.noise import GaussianNoise
from burnpy.nn.norm import InstanceNorm, LocalResponseNorm, Normalization, RmsNorm
from burnpy.nn.pixel_shuffle import PixelShuffle, PixelUnshuffle
from burnpy.nn.pool import AdaptiveAvgPool1d, AdaptiveAvgPool3d, AvgPool1d, MaxPool1d
from burnpy.nn.recurrent import (
    BiGru,
    BiLstm,
    BiRnn,
    GateController,
    Gru,
    Lstm,
    LstmState,
    Rnn,
    RnnState,
)
from burnpy.nn.norm import BatchNorm, GroupNorm, LayerNorm
from burnpy.nn.pool import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from burnpy.nn.pytorch import load_pytorch

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
    # burn-nn's other layers
    "Activation",
    "Celu",
    "Elu",
    "GLU",
    "HardShrink",
    "HardSigmoid",
    "HardSwish",
    "Hardtanh",
    "Identity",
    "LogSigmoid",
    "Mish",
    "PRelu",
    "RRelu",
    "Relu6",
    "Selu",
    "SiLU",
    "Shrink",
    "SoftShrink",
    "Softplus",
    "Softsign",
    "SwiGlu",
    "Tanhshrink",
    "Threshold",
    "ThresholdedRelu",
    "BinaryCrossEntropyLoss",
    "CTCLoss",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "GaussianNLLLoss",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "KLDivLoss",
    "LpLoss",
    "MarginRankingLoss",
    "MseLoss",
    "MultiMarginLoss",
    "PoissonNllLoss",
    "RNNTLoss",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "TripletMarginLoss",
    "BiGru",
    "BiLstm",
    "BiRnn",
    "GateController",
    "Gru",
    "Lstm",
    "LstmState",
    "Rnn",
    "RnnState",
    "InstanceNorm",
    "LocalResponseNorm",
    "Normalization",
    "RmsNorm",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool3d",
    "AvgPool1d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose3d",
    "DeformConv2d",
    "MaxPool1d",
    "CosineSimilarity",
    "Fold4d",
    "GaussianNoise",
    "Interpolate1d",
    "Interpolate2d",
    "PairwiseDistance",
    "PixelShuffle",
    "PixelUnshuffle",
    "Unfold4d",
    # the basics
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
    "Quantizer",
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

# PyTorch's torch.nn names -> burn-nn's
_PYTORCH_NAMES = {
    "ReLU": "nn.Relu",
    "ReLU6": "nn.Relu6",
    "LeakyReLU": "nn.LeakyRelu",
    "PReLU": "nn.PRelu",
    "RReLU": "nn.RRelu",
    "GELU": "nn.Gelu",
    "ELU": "nn.Elu",
    "SELU": "nn.Selu",
    "CELU": "nn.Celu",
    "Hardswish": "nn.HardSwish",
    "Hardsigmoid": "nn.HardSigmoid",
    "Hardshrink": "nn.HardShrink",
    "Softshrink": "nn.SoftShrink",
    "Softmax": "a function: `x.softmax(dim)`",
    "LogSoftmax": "a function: `x.log_softmax(dim)`",
    "MSELoss": "nn.MseLoss",
    "L1Loss": "nn.LpLoss or `nn.functional` (`(a - b).abs().mean()`)",
    "BCELoss": "nn.BinaryCrossEntropyLoss",
    "BCEWithLogitsLoss": "nn.BinaryCrossEntropyLoss(logits=True)",
    "NLLLoss": "nn.CrossEntropyLoss on logits (it applies log_softmax itself)",
    "KLDivLoss": "nn.KLDivLoss",
    "GaussianNLLLoss": "nn.GaussianNLLLoss",
    "BatchNorm1d": "nn.BatchNorm(num_features)",
    "BatchNorm2d": "nn.BatchNorm(num_features)",
    "BatchNorm3d": "nn.BatchNorm(num_features)",
    "LSTM": "nn.Lstm (burn's layout: input [batch, seq, d_input])",
    "GRU": "nn.Gru",
    "RNN": "nn.Rnn",
    "MultiheadAttention": "nn.MultiHeadAttention",
    "ModuleList": "a list attribute: modules in a list are children",
    "ModuleDict": "a dict attribute: modules in a dict are children",
    "ParameterList": "a list attribute of float tensors",
    "Parameter": "a float tensor attribute: it is a parameter (a Grad leaf on an autodiff device)",
    "Unflatten": "x.reshape(shape)",
    "Upsample": "nn.Interpolate2d",
}


if not TYPE_CHECKING:  # type checkers keep flagging names that do not exist

    def __getattr__(name):
        """A torch.nn name burn-nn spells otherwise says which one."""
        message = f"module 'burnpy.nn' has no attribute {name!r}"
        if name in _PYTORCH_NAMES:
            message += f"; burnpy's equivalent: {_PYTORCH_NAMES[name]}"
        raise AttributeError(message)
