# @generated from ops.yaml by `python -m codegen`; do not edit. render=11e77bc3c1e30e4a body=2baba8c45af75810
"""burn's ModuleOps as Python functions: `from generated import module`.

Signatures as reference/module-api.md fixes them (burn's names; option structs as keyword
arguments named like their fields). Each function checks its arguments (an int or N ints, a
choice among burn's enum variants, non-zero strides, ...) and calls its dispatch function, which
routes and differentiates it like every other op.
"""

from generated.dispatch.module_ops import (
    interpolate as _interpolate,
    attention as _attention,
    batch_norm as _batch_norm,
    layer_norm as _layer_norm,
    ctc_loss as _ctc_loss,
    rfft as _rfft,
    irfft as _irfft,
    deform_conv2d as _deform_conv2d,
)
from runtime.arguments import (
    check_dtype,
    choice_arg,
    dim_of,
    flag_arg,
    ints_arg,
    integer_arg,
    optional_ints_arg,
    optional_tensor_arg,
    real_arg,
    tensor_arg,
)
from runtime.dispatch import TensorKind

FLOAT, INT, BOOL = TensorKind.Float, TensorKind.Int, TensorKind.Bool

__all__ = [
    "interpolate",
    "attention",
    "batch_norm",
    "layer_norm",
    "ctc_loss",
    "rfft",
    "irfft",
    "deform_conv2d",
]


def interpolate(x, output_size, *, mode, align_corners=True):
    """Resizes [b, c, h, w] to output_size (h', w') by the mode's kernel (burn's InterpolateOptions)."""
    tensor_arg("interpolate", "x", x, FLOAT)
    check_dtype("interpolate", x.dtype, ("float32", "float64"))
    return _interpolate(
        tensor_arg("interpolate", "x", x, FLOAT),
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
    query, key, value, mask=None, attn_bias=None, *, scale=None, softcap=None, is_causal=False
):
    """Scaled dot-product attention: softmax(q k^T * scale (softcapped, biased, masked)) v; a fully masked row gives 0."""
    tensor_arg("attention", "query", query, FLOAT)
    check_dtype("attention", query.dtype, ("float32", "float64"))
    return _attention(
        tensor_arg("attention", "query", query, FLOAT),
        tensor_arg("attention", "key", key, FLOAT),
        tensor_arg("attention", "value", value, FLOAT),
        optional_tensor_arg("attention", "mask", mask, BOOL),
        optional_tensor_arg("attention", "attn_bias", attn_bias, FLOAT),
        real_arg("attention", "scale", scale, optional=True),
        real_arg("attention", "softcap", softcap, optional=True),
        flag_arg("attention", "is_causal", is_causal),
    )


def batch_norm(input, gamma, beta, mean, variance, epsilon=1e-05):
    """Normalises each channel (dim 1) with the given statistics, then scales by gamma and shifts by beta."""
    tensor_arg("batch_norm", "input", input, FLOAT)
    check_dtype("batch_norm", input.dtype, ("float32", "float64"))
    return _batch_norm(
        tensor_arg("batch_norm", "input", input, FLOAT),
        tensor_arg("batch_norm", "gamma", gamma, FLOAT),
        tensor_arg("batch_norm", "beta", beta, FLOAT),
        tensor_arg("batch_norm", "mean", mean, FLOAT),
        tensor_arg("batch_norm", "variance", variance, FLOAT),
        real_arg("batch_norm", "epsilon", epsilon),
    )


def layer_norm(input, gamma, beta=None, epsilon=1e-05):
    """Normalises over the last dim (biased variance), then scales by gamma and shifts by beta."""
    tensor_arg("layer_norm", "input", input, FLOAT)
    check_dtype("layer_norm", input.dtype, ("float32", "float64"))
    return _layer_norm(
        tensor_arg("layer_norm", "input", input, FLOAT),
        tensor_arg("layer_norm", "gamma", gamma, FLOAT),
        optional_tensor_arg("layer_norm", "beta", beta, FLOAT),
        real_arg("layer_norm", "epsilon", epsilon),
    )


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0):
    """The CTC loss of each sample [N] from log-probabilities [T, N, C]; an unreachable target costs +inf (gradient 0)."""
    tensor_arg("ctc_loss", "log_probs", log_probs, FLOAT)
    check_dtype("ctc_loss", log_probs.dtype, ("float32", "float64"))
    return _ctc_loss(
        tensor_arg("ctc_loss", "log_probs", log_probs, FLOAT),
        tensor_arg("ctc_loss", "targets", targets, INT),
        tensor_arg("ctc_loss", "input_lengths", input_lengths, INT),
        tensor_arg("ctc_loss", "target_lengths", target_lengths, INT),
        integer_arg("ctc_loss", "blank", blank),
    )


def rfft(signal, dim, n=None):
    """The real FFT along dim (length, or n, a power of two) as (real part, imaginary part)."""
    tensor_arg("rfft", "signal", signal, FLOAT)
    check_dtype("rfft", signal.dtype, ("float32", "float64"))
    return _rfft(
        tensor_arg("rfft", "signal", signal, FLOAT),
        dim_of("rfft", "dim", signal, dim),
        integer_arg("rfft", "n", n, optional=True),
    )


def irfft(spectrum_re, spectrum_im, dim, n=None):
    """The inverse of rfft along dim, a real signal of length n (default 2 * (bins - 1))."""
    tensor_arg("irfft", "spectrum_re", spectrum_re, FLOAT)
    check_dtype("irfft", spectrum_re.dtype, ("float32", "float64"))
    return _irfft(
        tensor_arg("irfft", "spectrum_re", spectrum_re, FLOAT),
        tensor_arg("irfft", "spectrum_im", spectrum_im, FLOAT),
        dim_of("irfft", "dim", spectrum_re, dim),
        integer_arg("irfft", "n", n, optional=True),
    )


def deform_conv2d(
    x,
    offset,
    weight,
    mask=None,
    bias=None,
    *,
    stride=1,
    padding=0,
    dilation=1,
    weight_groups=1,
    offset_groups=1
):
    """A 2-D convolution whose taps are displaced by learned offsets (bilinear sampling) and scaled by an optional mask."""
    tensor_arg("deform_conv2d", "x", x, FLOAT)
    check_dtype("deform_conv2d", x.dtype, ("float32", "float64"))
    return _deform_conv2d(
        tensor_arg("deform_conv2d", "x", x, FLOAT),
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
