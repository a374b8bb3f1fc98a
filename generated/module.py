# @generated from ops.yaml by `python -m codegen`; do not edit. render=61a5d793b0444f12 body=46495ea919494c51
"""burn's ModuleOps as Python functions: `from burnpy.generated import module`.

Signatures as docs/design.md#module-functions describes them (burn's names; option structs as
keyword arguments named like their fields). Each function checks its arguments (an int or N ints,
a choice among burn's enum variants, non-zero strides, ...) and calls its dispatch function, which
routes and differentiates it like every other op.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnpy.generated.dispatch.module_ops import (
    embedding as _embedding,
    linear as _linear,
    conv1d as _conv1d,
    conv2d as _conv2d,
    conv3d as _conv3d,
    conv_transpose1d as _conv_transpose1d,
    conv_transpose2d as _conv_transpose2d,
    conv_transpose3d as _conv_transpose3d,
    unfold4d as _unfold4d,
    fold4d as _fold4d,
    max_pool1d as _max_pool1d,
    max_pool1d_with_indices as _max_pool1d_with_indices,
    max_pool2d as _max_pool2d,
    max_pool2d_with_indices as _max_pool2d_with_indices,
    avg_pool1d as _avg_pool1d,
    avg_pool2d as _avg_pool2d,
    adaptive_avg_pool1d as _adaptive_avg_pool1d,
    adaptive_avg_pool2d as _adaptive_avg_pool2d,
    adaptive_avg_pool3d as _adaptive_avg_pool3d,
    interpolate as _interpolate,
    attention as _attention,
    batch_norm as _batch_norm,
    batch_norm_training as _batch_norm_training,
    layer_norm as _layer_norm,
    rms_norm as _rms_norm,
    ctc_loss as _ctc_loss,
    cross_entropy_class_targets as _cross_entropy_class_targets,
    rfft as _rfft,
    irfft as _irfft,
    fft as _fft,
    deform_conv2d as _deform_conv2d,
)
from burnpy.runtime.arguments import (
    check_dtype,
    choice_arg,
    dim_of,
    flag_arg,
    integer_arg,
    optional_tensor_arg,
    real_arg,
    tensor_arg,
)
from burnpy.runtime.values import ints_arg, optional_ints_arg
from burnpy.runtime.dispatch import TensorKind

if TYPE_CHECKING:
    from collections.abc import Sequence

    from burnpy.generated.tensor import Tensor

FLOAT, INT, BOOL = TensorKind.Float, TensorKind.Int, TensorKind.Bool

__all__ = [
    "embedding",
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "unfold4d",
    "fold4d",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool2d_with_indices",
    "avg_pool1d",
    "avg_pool2d",
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "interpolate",
    "attention",
    "batch_norm",
    "batch_norm_training",
    "layer_norm",
    "rms_norm",
    "ctc_loss",
    "cross_entropy_class_targets",
    "rfft",
    "irfft",
    "fft",
    "deform_conv2d",
]


def embedding(weights: Tensor, indices: Tensor) -> Tensor:
    """The rows of weights [n, d] that indices [b, s] select: [b, s, d]."""
    weights = tensor_arg("embedding", "weights", weights, FLOAT)
    check_dtype("embedding", weights.dtype, ("float32", "float64", "bfloat16"))
    return _embedding(weights, tensor_arg("embedding", "indices", indices, INT))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input [..., d_in] @ weight [d_in, d_out] (+ bias [d_out]): burn's layout, not torch's transposed one."""
    input = tensor_arg("linear", "input", input, FLOAT)
    check_dtype("linear", input.dtype, ("float32", "float64", "bfloat16"))
    return _linear(
        input,
        tensor_arg("linear", "weight", weight, FLOAT),
        optional_tensor_arg("linear", "bias", bias, FLOAT),
    )


def conv1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    padding_end: int | Sequence[int] | None = None,
) -> Tensor:
    """A 1-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    x = tensor_arg("conv1d", "x", x, FLOAT)
    check_dtype("conv1d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv1d(
        x,
        tensor_arg("conv1d", "weight", weight, FLOAT),
        optional_tensor_arg("conv1d", "bias", bias, FLOAT),
        ints_arg("conv1d", "stride", stride, 1, nonzero=True),
        ints_arg("conv1d", "padding", padding, 1),
        ints_arg("conv1d", "dilation", dilation, 1, nonzero=True),
        integer_arg("conv1d", "groups", groups, nonzero=True),
        optional_ints_arg("conv1d", "padding_end", padding_end, 1),
    )


def conv2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    padding_end: int | Sequence[int] | None = None,
) -> Tensor:
    """A 2-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    x = tensor_arg("conv2d", "x", x, FLOAT)
    check_dtype("conv2d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv2d(
        x,
        tensor_arg("conv2d", "weight", weight, FLOAT),
        optional_tensor_arg("conv2d", "bias", bias, FLOAT),
        ints_arg("conv2d", "stride", stride, 2, nonzero=True),
        ints_arg("conv2d", "padding", padding, 2),
        ints_arg("conv2d", "dilation", dilation, 2, nonzero=True),
        integer_arg("conv2d", "groups", groups, nonzero=True),
        optional_ints_arg("conv2d", "padding_end", padding_end, 2),
    )


def conv3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    padding_end: int | Sequence[int] | None = None,
) -> Tensor:
    """A 3-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None)."""
    x = tensor_arg("conv3d", "x", x, FLOAT)
    check_dtype("conv3d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv3d(
        x,
        tensor_arg("conv3d", "weight", weight, FLOAT),
        optional_tensor_arg("conv3d", "bias", bias, FLOAT),
        ints_arg("conv3d", "stride", stride, 3, nonzero=True),
        ints_arg("conv3d", "padding", padding, 3),
        ints_arg("conv3d", "dilation", dilation, 3, nonzero=True),
        integer_arg("conv3d", "groups", groups, nonzero=True),
        optional_ints_arg("conv3d", "padding_end", padding_end, 3),
    )


def conv_transpose1d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    padding_out: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
) -> Tensor:
    """A 1-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    x = tensor_arg("conv_transpose1d", "x", x, FLOAT)
    check_dtype("conv_transpose1d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv_transpose1d(
        x,
        tensor_arg("conv_transpose1d", "weight", weight, FLOAT),
        optional_tensor_arg("conv_transpose1d", "bias", bias, FLOAT),
        ints_arg("conv_transpose1d", "stride", stride, 1, nonzero=True),
        ints_arg("conv_transpose1d", "padding", padding, 1),
        ints_arg("conv_transpose1d", "padding_out", padding_out, 1),
        ints_arg("conv_transpose1d", "dilation", dilation, 1, nonzero=True),
        integer_arg("conv_transpose1d", "groups", groups, nonzero=True),
    )


def conv_transpose2d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    padding_out: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
) -> Tensor:
    """A 2-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    x = tensor_arg("conv_transpose2d", "x", x, FLOAT)
    check_dtype("conv_transpose2d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv_transpose2d(
        x,
        tensor_arg("conv_transpose2d", "weight", weight, FLOAT),
        optional_tensor_arg("conv_transpose2d", "bias", bias, FLOAT),
        ints_arg("conv_transpose2d", "stride", stride, 2, nonzero=True),
        ints_arg("conv_transpose2d", "padding", padding, 2),
        ints_arg("conv_transpose2d", "padding_out", padding_out, 2),
        ints_arg("conv_transpose2d", "dilation", dilation, 2, nonzero=True),
        integer_arg("conv_transpose2d", "groups", groups, nonzero=True),
    )


def conv_transpose3d(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    padding_out: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
) -> Tensor:
    """A 3-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn)."""
    x = tensor_arg("conv_transpose3d", "x", x, FLOAT)
    check_dtype("conv_transpose3d", x.dtype, ("float32", "float64", "bfloat16"))
    return _conv_transpose3d(
        x,
        tensor_arg("conv_transpose3d", "weight", weight, FLOAT),
        optional_tensor_arg("conv_transpose3d", "bias", bias, FLOAT),
        ints_arg("conv_transpose3d", "stride", stride, 3, nonzero=True),
        ints_arg("conv_transpose3d", "padding", padding, 3),
        ints_arg("conv_transpose3d", "padding_out", padding_out, 3),
        ints_arg("conv_transpose3d", "dilation", dilation, 3, nonzero=True),
        integer_arg("conv_transpose3d", "groups", groups, nonzero=True),
    )


def unfold4d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
) -> Tensor:
    """The sliding blocks of x [b, c, h, w] as columns: [b, c * kh * kw, blocks]."""
    x = tensor_arg("unfold4d", "x", x, FLOAT)
    check_dtype("unfold4d", x.dtype, ("float32", "float64", "bfloat16"))
    return _unfold4d(
        x,
        ints_arg("unfold4d", "kernel_size", kernel_size, 2, nonzero=True),
        ints_arg("unfold4d", "stride", stride, 2, nonzero=True),
        ints_arg("unfold4d", "padding", padding, 2),
        ints_arg("unfold4d", "dilation", dilation, 2, nonzero=True),
    )


def fold4d(
    x: Tensor,
    output_size: int | Sequence[int],
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
) -> Tensor:
    """The inverse of unfold4d: columns [b, c * kh * kw, blocks] summed back into [b, c, h, w]."""
    x = tensor_arg("fold4d", "x", x, FLOAT)
    check_dtype("fold4d", x.dtype, ("float32", "float64", "bfloat16"))
    return _fold4d(
        x,
        ints_arg("fold4d", "output_size", output_size, 2),
        ints_arg("fold4d", "kernel_size", kernel_size, 2, nonzero=True),
        ints_arg("fold4d", "stride", stride, 2, nonzero=True),
        ints_arg("fold4d", "padding", padding, 2),
        ints_arg("fold4d", "dilation", dilation, 2, nonzero=True),
    )


def max_pool1d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf)."""
    x = tensor_arg("max_pool1d", "x", x, FLOAT)
    check_dtype("max_pool1d", x.dtype, ("float32", "float64", "bfloat16"))
    return _max_pool1d(
        x,
        ints_arg("max_pool1d", "kernel_size", kernel_size, 1, nonzero=True),
        optional_ints_arg("max_pool1d", "stride", stride, 1, nonzero=True),
        ints_arg("max_pool1d", "padding", padding, 1),
        ints_arg("max_pool1d", "dilation", dilation, 1, nonzero=True),
        flag_arg("max_pool1d", "ceil_mode", ceil_mode),
    )


def max_pool1d_with_indices(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum."""
    x = tensor_arg("max_pool1d_with_indices", "x", x, FLOAT)
    check_dtype("max_pool1d_with_indices", x.dtype, ("float32", "float64", "bfloat16"))
    return _max_pool1d_with_indices(
        x,
        ints_arg("max_pool1d_with_indices", "kernel_size", kernel_size, 1, nonzero=True),
        optional_ints_arg("max_pool1d_with_indices", "stride", stride, 1, nonzero=True),
        ints_arg("max_pool1d_with_indices", "padding", padding, 1),
        ints_arg("max_pool1d_with_indices", "dilation", dilation, 1, nonzero=True),
        flag_arg("max_pool1d_with_indices", "ceil_mode", ceil_mode),
    )


def max_pool2d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    ceil_mode: bool = False,
) -> Tensor:
    """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf)."""
    x = tensor_arg("max_pool2d", "x", x, FLOAT)
    check_dtype("max_pool2d", x.dtype, ("float32", "float64", "bfloat16"))
    return _max_pool2d(
        x,
        ints_arg("max_pool2d", "kernel_size", kernel_size, 2, nonzero=True),
        optional_ints_arg("max_pool2d", "stride", stride, 2, nonzero=True),
        ints_arg("max_pool2d", "padding", padding, 2),
        ints_arg("max_pool2d", "dilation", dilation, 2, nonzero=True),
        flag_arg("max_pool2d", "ceil_mode", ceil_mode),
    )


def max_pool2d_with_indices(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    ceil_mode: bool = False,
) -> tuple[Tensor, Tensor]:
    """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum."""
    x = tensor_arg("max_pool2d_with_indices", "x", x, FLOAT)
    check_dtype("max_pool2d_with_indices", x.dtype, ("float32", "float64", "bfloat16"))
    return _max_pool2d_with_indices(
        x,
        ints_arg("max_pool2d_with_indices", "kernel_size", kernel_size, 2, nonzero=True),
        optional_ints_arg("max_pool2d_with_indices", "stride", stride, 2, nonzero=True),
        ints_arg("max_pool2d_with_indices", "padding", padding, 2),
        ints_arg("max_pool2d_with_indices", "dilation", dilation, 2, nonzero=True),
        flag_arg("max_pool2d_with_indices", "ceil_mode", ceil_mode),
    )


def avg_pool1d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    count_include_pad: bool = True,
    ceil_mode: bool = False,
) -> Tensor:
    """The mean of each 1-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor)."""
    x = tensor_arg("avg_pool1d", "x", x, FLOAT)
    check_dtype("avg_pool1d", x.dtype, ("float32", "float64", "bfloat16"))
    return _avg_pool1d(
        x,
        ints_arg("avg_pool1d", "kernel_size", kernel_size, 1, nonzero=True),
        optional_ints_arg("avg_pool1d", "stride", stride, 1, nonzero=True),
        ints_arg("avg_pool1d", "padding", padding, 1),
        flag_arg("avg_pool1d", "count_include_pad", count_include_pad),
        flag_arg("avg_pool1d", "ceil_mode", ceil_mode),
    )


def avg_pool2d(
    x: Tensor,
    kernel_size: int | Sequence[int],
    *,
    stride: int | Sequence[int] | None = None,
    padding: int | Sequence[int] = 0,
    count_include_pad: bool = True,
    ceil_mode: bool = False,
) -> Tensor:
    """The mean of each 2-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor)."""
    x = tensor_arg("avg_pool2d", "x", x, FLOAT)
    check_dtype("avg_pool2d", x.dtype, ("float32", "float64", "bfloat16"))
    return _avg_pool2d(
        x,
        ints_arg("avg_pool2d", "kernel_size", kernel_size, 2, nonzero=True),
        optional_ints_arg("avg_pool2d", "stride", stride, 2, nonzero=True),
        ints_arg("avg_pool2d", "padding", padding, 2),
        flag_arg("avg_pool2d", "count_include_pad", count_include_pad),
        flag_arg("avg_pool2d", "ceil_mode", ceil_mode),
    )


def adaptive_avg_pool1d(x: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """The mean of each of output_size 1-d windows spanning x (burn's start/end index formulas)."""
    x = tensor_arg("adaptive_avg_pool1d", "x", x, FLOAT)
    check_dtype("adaptive_avg_pool1d", x.dtype, ("float32", "float64", "bfloat16"))
    return _adaptive_avg_pool1d(
        x, ints_arg("adaptive_avg_pool1d", "output_size", output_size, 1, nonzero=True)
    )


def adaptive_avg_pool2d(x: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """The mean of each of output_size 2-d windows spanning x (burn's start/end index formulas)."""
    x = tensor_arg("adaptive_avg_pool2d", "x", x, FLOAT)
    check_dtype("adaptive_avg_pool2d", x.dtype, ("float32", "float64", "bfloat16"))
    return _adaptive_avg_pool2d(
        x, ints_arg("adaptive_avg_pool2d", "output_size", output_size, 2, nonzero=True)
    )


def adaptive_avg_pool3d(x: Tensor, output_size: int | Sequence[int]) -> Tensor:
    """The mean of each of output_size 3-d windows spanning x (burn's start/end index formulas)."""
    x = tensor_arg("adaptive_avg_pool3d", "x", x, FLOAT)
    check_dtype("adaptive_avg_pool3d", x.dtype, ("float32", "float64", "bfloat16"))
    return _adaptive_avg_pool3d(
        x, ints_arg("adaptive_avg_pool3d", "output_size", output_size, 3, nonzero=True)
    )


def interpolate(
    x: Tensor, output_size: int | Sequence[int], *, mode: str, align_corners: bool = True
) -> Tensor:
    """Resizes [b, c, h, w] to output_size (h', w') by the mode's kernel (burn's InterpolateOptions)."""
    x = tensor_arg("interpolate", "x", x, FLOAT)
    check_dtype("interpolate", x.dtype, ("float32", "float64"))
    return _interpolate(
        x,
        ints_arg("interpolate", "output_size", output_size, 2),
        choice_arg(
            "interpolate",
            "mode",
            mode,
            ("nearest", "nearest_exact", "bilinear", "bicubic", "lanczos3"),
        ),
        flag_arg("interpolate", "align_corners", align_corners),
    )


def attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    mask: Tensor | None = None,
    attn_bias: Tensor | None = None,
    *,
    scale: float | None = None,
    softcap: float | None = None,
    is_causal: bool = False,
) -> Tensor:
    """Scaled dot-product attention: softmax(q k^T * scale (softcapped, biased, masked)) v; a fully masked row gives 0."""
    query = tensor_arg("attention", "query", query, FLOAT)
    check_dtype("attention", query.dtype, ("float32", "float64"))
    return _attention(
        query,
        tensor_arg("attention", "key", key, FLOAT),
        tensor_arg("attention", "value", value, FLOAT),
        optional_tensor_arg("attention", "mask", mask, BOOL),
        optional_tensor_arg("attention", "attn_bias", attn_bias, FLOAT),
        real_arg("attention", "scale", scale, optional=True),
        real_arg("attention", "softcap", softcap, optional=True),
        flag_arg("attention", "is_causal", is_causal),
    )


def batch_norm(
    input: Tensor,
    gamma: Tensor,
    beta: Tensor,
    mean: Tensor,
    variance: Tensor,
    epsilon: float = 1e-05,
) -> Tensor:
    """Normalises each channel (dim 1) with the given statistics, then scales by gamma and shifts by beta."""
    input = tensor_arg("batch_norm", "input", input, FLOAT)
    check_dtype("batch_norm", input.dtype, ("float32", "float64", "bfloat16"))
    return _batch_norm(
        input,
        tensor_arg("batch_norm", "gamma", gamma, FLOAT),
        tensor_arg("batch_norm", "beta", beta, FLOAT),
        tensor_arg("batch_norm", "mean", mean, FLOAT),
        tensor_arg("batch_norm", "variance", variance, FLOAT),
        real_arg("batch_norm", "epsilon", epsilon),
    )


def batch_norm_training(
    input: Tensor, gamma: Tensor, beta: Tensor, epsilon: float = 1e-05
) -> tuple[Tensor, Tensor, Tensor]:
    """Batch norm with the batch's own statistics (training): (output, mean, variance), each channel (dim 1) normalised by its mean and biased variance over every other dim, then scaled by gamma and shifted by beta; one pass per statistic, and a backward of three."""
    input = tensor_arg("batch_norm_training", "input", input, FLOAT)
    check_dtype("batch_norm_training", input.dtype, ("float32", "float64", "bfloat16"))
    return _batch_norm_training(
        input,
        tensor_arg("batch_norm_training", "gamma", gamma, FLOAT),
        tensor_arg("batch_norm_training", "beta", beta, FLOAT),
        real_arg("batch_norm_training", "epsilon", epsilon),
    )


def layer_norm(
    input: Tensor, gamma: Tensor, beta: Tensor | None = None, epsilon: float = 1e-05
) -> Tensor:
    """Normalises over the last dim (biased variance), then scales by gamma and shifts by beta."""
    input = tensor_arg("layer_norm", "input", input, FLOAT)
    check_dtype("layer_norm", input.dtype, ("float32", "float64"))
    return _layer_norm(
        input,
        tensor_arg("layer_norm", "gamma", gamma, FLOAT),
        optional_tensor_arg("layer_norm", "beta", beta, FLOAT),
        real_arg("layer_norm", "epsilon", epsilon),
    )


def rms_norm(input: Tensor, gamma: Tensor, epsilon: float = 1e-05) -> Tensor:
    """Root-mean-square norm over the last dim: input / sqrt(mean(input²) + epsilon), scaled by gamma (burn's RmsNorm)."""
    input = tensor_arg("rms_norm", "input", input, FLOAT)
    check_dtype("rms_norm", input.dtype, ("float32", "float64"))
    return _rms_norm(
        input,
        tensor_arg("rms_norm", "gamma", gamma, FLOAT),
        real_arg("rms_norm", "epsilon", epsilon),
    )


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Tensor,
    target_lengths: Tensor,
    blank: int = 0,
) -> Tensor:
    """The CTC loss of each sample [N] from log-probabilities [T, N, C]; an unreachable target costs +inf (gradient 0)."""
    log_probs = tensor_arg("ctc_loss", "log_probs", log_probs, FLOAT)
    check_dtype("ctc_loss", log_probs.dtype, ("float32", "float64", "bfloat16"))
    return _ctc_loss(
        log_probs,
        tensor_arg("ctc_loss", "targets", targets, INT),
        tensor_arg("ctc_loss", "input_lengths", input_lengths, INT),
        tensor_arg("ctc_loss", "target_lengths", target_lengths, INT),
        integer_arg("ctc_loss", "blank", blank),
    )


def cross_entropy_class_targets(logits: Tensor, targets: Tensor) -> Tensor:
    """The mean over the batch of -log_softmax(logits)[i, targets[i]], a [1] tensor, from logits [batch, classes] and class indices [batch]; its gradient is (softmax - one-hot) / batch."""
    logits = tensor_arg("cross_entropy_class_targets", "logits", logits, FLOAT)
    check_dtype("cross_entropy_class_targets", logits.dtype, ("float32", "float64"))
    return _cross_entropy_class_targets(
        logits, tensor_arg("cross_entropy_class_targets", "targets", targets, INT)
    )


def rfft(signal: Tensor, dim: int, n: int | None = None) -> tuple[Tensor, Tensor]:
    """The real FFT along dim (length, or n, a power of two) as (real part, imaginary part)."""
    signal = tensor_arg("rfft", "signal", signal, FLOAT)
    check_dtype("rfft", signal.dtype, ("float32", "float64"))
    return _rfft(
        signal, dim_of("rfft", "dim", signal, dim), integer_arg("rfft", "n", n, optional=True)
    )


def irfft(spectrum_re: Tensor, spectrum_im: Tensor, dim: int, n: int | None = None) -> Tensor:
    """The inverse of rfft along dim, a real signal of length n (default 2 * (bins - 1))."""
    spectrum_re = tensor_arg("irfft", "spectrum_re", spectrum_re, FLOAT)
    check_dtype("irfft", spectrum_re.dtype, ("float32", "float64"))
    return _irfft(
        spectrum_re,
        tensor_arg("irfft", "spectrum_im", spectrum_im, FLOAT),
        dim_of("irfft", "dim", spectrum_re, dim),
        integer_arg("irfft", "n", n, optional=True),
    )


def fft(signal: Tensor, dim: int, inverse: bool) -> Tensor:
    """The complex DFT along dim (any length) of a signal [..., 2] of real and imaginary parts, as numpy.fft.fft (inverse: ifft), in the signal's dtype."""
    signal = tensor_arg("fft", "signal", signal, FLOAT)
    check_dtype("fft", signal.dtype, ("float32", "float64"))
    return _fft(signal, dim_of("fft", "dim", signal, dim), flag_arg("fft", "inverse", inverse))


def deform_conv2d(
    x: Tensor,
    offset: Tensor,
    weight: Tensor,
    mask: Tensor | None = None,
    bias: Tensor | None = None,
    *,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    weight_groups: int = 1,
    offset_groups: int = 1,
) -> Tensor:
    """A 2-D convolution whose taps are displaced by learned offsets (bilinear sampling) and scaled by an optional mask."""
    x = tensor_arg("deform_conv2d", "x", x, FLOAT)
    check_dtype("deform_conv2d", x.dtype, ("float32", "float64"))
    return _deform_conv2d(
        x,
        tensor_arg("deform_conv2d", "offset", offset, FLOAT),
        tensor_arg("deform_conv2d", "weight", weight, FLOAT),
        optional_tensor_arg("deform_conv2d", "mask", mask, FLOAT),
        optional_tensor_arg("deform_conv2d", "bias", bias, FLOAT),
        ints_arg("deform_conv2d", "stride", stride, 2, nonzero=True),
        ints_arg("deform_conv2d", "padding", padding, 2),
        ints_arg("deform_conv2d", "dilation", dilation, 2, nonzero=True),
        integer_arg("deform_conv2d", "weight_groups", weight_groups, nonzero=True),
        integer_arg("deform_conv2d", "offset_groups", offset_groups, nonzero=True),
    )
