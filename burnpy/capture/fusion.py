"""Which recorded kernel calls a compiled capture replaces by a fused C kernel.

Each fused kernel is one `Kernel` declaration (at the end of this module): its C text, the
recorded kernels it replaces (catalogue ops, burnpy.capture.named) each with its rule, the
backends that fuse it and its dtypes; the library and the rule tables are derived from them.
Each rule takes one kernel call of the tape, its arguments bound by name, and answers the
`Fused` call that computes the same results in one C function (burnpy.capture.csource), or None
where the call is not one it fuses: another dtype than float32 / float64, an array not
C-contiguous when recorded (a broadcast gradient, a transposed view), a reduction over another
dim than the last. The NumPy backend's kernels are those these rules know; a call of another
backend stays as recorded. A pair rule (`PAIRS`) does the same for two consecutive calls, the
second reading what the first made and nothing else reading it: attention's masked fill and
the softmax of the filled scores, and their backward.

A rule sees the real arrays of the recording (`Value.data`), so it decides by what the step
did, not by what it might do: shapes, dtypes and layouts are those of every replay of this
signature (the inputs' layouts are checked again before each replay: burnpy.capture.compiler).
"""

import functools
import inspect
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from burnpy.capture import binding, csource
from burnpy.capture.csource import SUFFIXES
from burnpy.capture.named import Recorded, backward, keeping
from burnpy.capture.recorder import Integer, Number, Value
from burnpy.generated import catalogue as ops
from burnpy.runtime.backends.numpy import BACKEND as NUMPY_BACKEND
from burnpy.runtime.backends.numpy import row_sums

FLOATS = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64"}


class Fused:
    """One call of a fused kernel: its `Kernel` for `dtype`, its C arguments in order (Values,
    numbers, ints, None for NULL), the Values it writes (`outputs`, each given a buffer by the
    plan), values that are another output itself (`aliases`: (value, output)), and the
    catalogue ops it computes (`label`)."""

    __slots__ = (
        "kernel",
        "dtype",
        "args",
        "outputs",
        "aliases",
        "label",
        "updates",
        "copies",
        "before",
        "after",
    )

    def __init__(
        self,
        kernel,
        dtype,
        args,
        outputs,
        label,
        aliases=(),
        updates=(),
        copies=(),
        before=(),
        after=(),
    ):
        # the calls that make what it reads, run just before it, and those that make the
        # recorded call's results of what it writes, run just after: Fused calls and a
        # library's functions (`Library`), in order
        self.before = before
        self.after = after
        # arguments recorded as views that are not C-contiguous (a mask broadcast by `expand`):
        # the kernel reads a C-contiguous copy of each, made just before it
        self.copies = copies
        # (output, input): an optimiser's new value of a buffer it may write over (burnpy.optim
        # does when the buffer is its own: the plan makes that a check at each replay)
        self.updates = updates
        self.kernel = kernel
        self.dtype = dtype
        self.args = args
        self.outputs = outputs
        self.aliases = aliases
        self.label = label

    @property
    def name(self) -> str:
        return f"{self.kernel.name}_{SUFFIXES[self.dtype]}"


@dataclass(frozen=True)
class Library:
    """A call of a library function (numpy's, a backend's) that a fused call reads the result
    of: `out = function(*args)`; with `out` None, a call run for its effect (a check that
    raises the backend's error)."""

    function: object
    args: tuple
    out: Value | None
    label: str


class ArgumentMismatch(TypeError):
    """A fused call's Python arguments do not fit its kernel's C parameters."""


# a C parameter's kind (burnpy.capture.binding.parameters) -> the Python values it takes
_NUMBERS = {
    "long": (int, np.integer, Integer),
    "int": (int, np.integer, Integer),
    "double": (float, int, np.floating, np.integer, Number, Integer),
}
_ELEMENTS = {"indices": np.dtype(np.int64), "flags": np.dtype(np.bool_)}


def check_arguments(fused: "Fused") -> None:
    """Raise ArgumentMismatch unless each argument of `fused` fits its C parameter, in order: a
    number of the parameter's kind, an array (or None) of its element type, and the arrays
    the kernel writes exactly its outputs."""
    text = csource.typed(fused.kernel.c, fused.dtype)
    found = binding.parameters(text, fused.name)
    if len(found) != len(fused.args):
        raise ArgumentMismatch(
            f"{fused.name} takes {len(found)} arguments, its rule gives {len(fused.args)}"
        )
    outputs = {id(v) for v in fused.outputs}
    real = np.dtype(fused.dtype)
    for (kind, word, writes), arg in zip(found, fused.args):
        if kind in _NUMBERS:
            fits = isinstance(arg, _NUMBERS[kind]) and type(arg) is not bool
        elif arg is None:  # NULL: an optional input, or an output not wanted
            fits = True
        else:
            element = _ELEMENTS.get(kind, real)
            fits = type(arg) is Value and memory_dtype(arg.data) == element
            fits = fits and writes == (id(arg) in outputs)
        if not fits:
            raise ArgumentMismatch(
                f"{fused.name}: parameter {word} ({kind}{', written' if writes else ''}) "
                f"is given {type(arg).__name__}"
            )


def memory_dtype(data):
    """The numpy dtype of `data` when a C kernel can read its memory as it is: a C-contiguous
    numpy array, or a contiguous CPU torch tensor of a float, int64 or bool dtype (viewed as
    numpy's array at each call); else None."""
    if type(data) is np.ndarray:
        return data.dtype if data.flags.c_contiguous else None
    torch = sys.modules.get("torch")
    if torch is None or type(data) is not torch.Tensor or data.device.type != "cpu":
        return None
    if not data.is_contiguous():
        return None
    memory = {
        torch.float32: np.dtype(np.float32),
        torch.float64: np.dtype(np.float64),
        torch.int64: np.dtype(np.int64),
        torch.bool: np.dtype(np.bool_),
    }
    return memory.get(data.dtype)


def _dtype(*values) -> str | None:
    """The float dtype every one of `values` (Values or None) shares, each an array of at least
    one dim whose memory a kernel reads as it is (`memory_dtype`); None when they do not."""
    dtypes = set()
    for value in values:
        if value is None:
            continue
        dtype = memory_dtype(value.data) if type(value) is Value else None
        if dtype is None or not value.data.ndim:
            return None
        dtypes.add(dtype)
    if len(dtypes) != 1:
        return None
    return FLOATS.get(dtypes.pop())


def _count(value) -> int:
    """How many elements a Value's array holds (numpy's `size`, torch's `numel()`)."""
    return math.prod(value.data.shape)


def _same_shape(*values) -> bool:
    shapes = {v.data.shape for v in values if v is not None}
    return len(shapes) == 1


def _last_dim(value, dim) -> bool:
    return type(dim) is int and dim in (-1, value.data.ndim - 1)


def _rows(value) -> tuple[int, int]:
    d = value.data.shape[-1]
    return _count(value) // d if d else 0, d


# -- the rules, by kernel ----------------------------------------------------------------------


def gelu(bound, out):
    x = bound["tensor"]
    dtype = _dtype(x, out)
    if dtype and _same_shape(x, out):
        return Fused(GELU, dtype, [_count(x), x, out], [out], "gelu")
    return None


def gelu_keeping(bound, out):
    x = bound["tensor"]
    result, slope = out
    if slope is None:  # (this dtype's keeping forward keeps nothing)
        return gelu(bound, result)
    dtype = _dtype(x, result, slope)
    if dtype and _same_shape(x, result, slope):
        args = [_count(x), x, result, slope]
        return Fused(GELU_KEEPING, dtype, args, [result, slope], "gelu and its slope")
    return None


def gelu_backward(bound, out):
    x, grad = bound["x"], bound["grad"]
    dtype = _dtype(x, grad, out)
    if dtype and _same_shape(x, grad, out):
        return Fused(GELU_BACKWARD, dtype, [_count(x), x, grad, out], [out], "gelu backward")
    return None


def gelu_approximate(bound, out):
    x = bound["tensor"]
    dtype = _dtype(x, out)
    if dtype and _same_shape(x, out):
        return Fused(GELU_APPROXIMATE, dtype, [_count(x), x, out], [out], "gelu_approximate")
    return None


def gelu_approximate_keeping(bound, out):
    x = bound["tensor"]
    result, slope = out
    if slope is None:
        return gelu_approximate(bound, result)
    dtype = _dtype(x, result, slope)
    if dtype and _same_shape(x, result, slope):
        args = [_count(x), x, result, slope]
        label = "gelu_approximate and its slope"
        return Fused(GELU_APPROXIMATE_KEEPING, dtype, args, [result, slope], label)
    return None


def gelu_approximate_backward(bound, out):
    x, grad = bound["x"], bound["grad"]
    dtype = _dtype(x, grad, out)
    if dtype and _same_shape(x, grad, out):
        args = [_count(x), x, grad, out]
        return Fused(GELU_APPROXIMATE_BACKWARD, dtype, args, [out], "gelu_approximate backward")
    return None


def layer_norm(bound, out, statistics=(None, None)):
    x, gamma, beta = bound["input"], bound["gamma"], bound["beta"]
    mean, rstd = statistics
    dtype = _dtype(x, gamma, beta, out, mean, rstd)
    if not dtype or not _same_shape(x, out):
        return None
    rows, d = _rows(x)
    if gamma.data.shape != (d,) or (beta is not None and beta.data.shape != (d,)):
        return None
    args = [rows, d, x, gamma, beta, bound["epsilon"], out, mean, rstd]
    outputs = [v for v in (out, mean, rstd) if v is not None]
    return Fused(LAYER_NORM, dtype, args, outputs, "layer_norm")


def layer_norm_keeping(bound, out):
    result, statistics = out
    if statistics is None:
        return layer_norm(bound, result)
    return layer_norm(bound, result, statistics)


def layer_norm_backward(bound, out):
    x, gamma, grad = bound["input"], bound["gamma"], bound["grad"]
    mean, rstd = bound["statistics"] or (None, None)
    dx, dgamma, dbeta = out
    dtype = _dtype(x, gamma, grad, mean, rstd, dx, dgamma, dbeta)
    if not dtype or not _same_shape(x, grad, dx):
        return None
    rows, d = _rows(x)
    if any(v is not None and v.data.shape != (d,) for v in (gamma, dgamma, dbeta)):
        return None
    args = [rows, d, x, gamma, grad, mean, rstd, bound["epsilon"], dx, dgamma, dbeta]
    outputs = [v for v in (dx, dgamma, dbeta) if v is not None]
    return Fused(LAYER_NORM_BACKWARD, dtype, args, outputs, "layer_norm backward")


def rms_norm(bound, out, inverse_rms=None):
    x, gamma = bound["input"], bound["gamma"]
    dtype = _dtype(x, gamma, out, inverse_rms)
    if not dtype or not _same_shape(x, out):
        return None
    rows, d = _rows(x)
    if gamma.data.shape != (d,) or (inverse_rms is not None and inverse_rms.data.shape != (rows,)):
        return None
    args = [rows, d, x, gamma, bound["epsilon"], out, inverse_rms]
    outputs = [v for v in (out, inverse_rms) if v is not None]
    return Fused(RMS_NORM, dtype, args, outputs, "rms_norm")


def rms_norm_keeping(bound, out):
    result, inverse_rms = out
    return rms_norm(bound, result, inverse_rms)


def rms_norm_backward(bound, out):
    x, gamma, grad, kept = bound["input"], bound["gamma"], bound["grad"], bound["inverse_rms"]
    dx, dgamma = out
    dtype = _dtype(x, gamma, grad, kept, dx, dgamma)
    if not dtype or not _same_shape(x, grad, dx):
        return None
    rows, d = _rows(x)
    if any(v is not None and v.data.shape != (d,) for v in (gamma, dgamma)):
        return None
    if kept is not None and kept.data.shape != (rows,):
        return None
    args = [rows, d, x, gamma, grad, kept, bound["epsilon"], dx, dgamma]
    outputs = [v for v in (dx, dgamma) if v is not None]
    return Fused(RMS_NORM_BACKWARD, dtype, args, outputs, "rms_norm backward")


def _channels(x, *per_channel) -> tuple[int, int, int] | None:
    """(n, channels, s) of an input [N, C, *spatial] whose `per_channel` values (None
    skipped) are each of [C], or None."""
    shape = x.data.shape
    if len(shape) < 2 or any(v is not None and v.data.shape != shape[1:2] for v in per_channel):
        return None
    return shape[0], shape[1], _count(x) // (shape[0] * shape[1]) if _count(x) else 0


def batch_norm(bound, out):
    x, gamma, beta = bound["input"], bound["gamma"], bound["beta"]
    mean, variance = bound["mean"], bound["variance"]
    dtype = _dtype(x, gamma, beta, mean, variance, out)
    layout = dtype and _same_shape(x, out) and _channels(x, gamma, beta, mean, variance)
    if not layout or beta is None:
        return None
    args = [*layout, x, gamma, beta, mean, variance, bound["epsilon"], out]
    return Fused(BATCH_NORM, dtype, args, [out], "batch_norm")


def batch_norm_training(bound, out):
    x, gamma, beta = bound["input"], bound["gamma"], bound["beta"]
    result, mean, variance = out
    dtype = _dtype(x, gamma, beta, result, mean, variance)
    layout = dtype and _same_shape(x, result) and _channels(x, gamma, beta, mean, variance)
    if not layout or beta is None:
        return None
    args = [*layout, x, gamma, beta, bound["epsilon"], result, mean, variance]
    return Fused(BATCH_NORM_TRAINING, dtype, args, [result, mean, variance], "batch_norm_training")


def batch_norm_training_backward(bound, out):
    x, gamma, mean, variance = bound["input"], bound["gamma"], bound["mean"], bound["variance"]
    grad, grad_mean, grad_variance = bound["grads"]
    dx, dgamma, dbeta = out
    if grad is None:  # (no gradient of the output: the backend's zeros)
        return None
    values = (x, gamma, grad, grad_mean, grad_variance, mean, variance, dx, dgamma, dbeta)
    dtype = _dtype(*values)
    per_channel = (gamma, grad_mean, grad_variance, mean, variance, dgamma, dbeta)
    layout = dtype and _same_shape(x, grad, dx) and _channels(x, *per_channel)
    if not layout:
        return None
    args = [*layout, *values[:-3], bound["epsilon"], dx, dgamma, dbeta]
    outputs = [v for v in (dx, dgamma, dbeta) if v is not None]
    label = "batch_norm_training backward"
    return Fused(BATCH_NORM_TRAINING_BACKWARD, dtype, args, outputs, label)


def max_pool2d(bound, out):
    values, indices = out if type(out) is tuple else (out, None)
    x = bound["x"]
    dtype = _dtype(x, values)
    if dtype is None or x.data.ndim != 4 or values.data.ndim != 4:
        return None
    if indices is not None and (
        memory_dtype(indices.data) != np.dtype(np.int64) or indices.data.shape != values.data.shape
    ):
        return None
    kernel, stride = bound["kernel_size"], bound["stride"]
    stride = kernel if stride is None else stride
    options = (*kernel, *stride, *bound["padding"], *bound["dilation"])
    if len(options) != 8 or not _longs(*options):
        return None
    n, channels, h, w = x.data.shape
    last_nan = type(x.data) is not np.ndarray  # (ATen keeps a window's last NaN)
    args = [n * channels, h, w, *values.data.shape[2:], *options, int(last_nan), x, values]
    outputs = [values] if indices is None else [values, indices]
    return Fused(MAX_POOL2D, dtype, [*args, indices], outputs, "max_pool2d")


def max_pool2d_backward(bound, out):
    x, grad, indices = bound["x"], bound["output_grad"], bound["indices"]
    dtype = _dtype(x, grad, out)
    if dtype is None or x.data.ndim != 4 or memory_dtype(indices.data) != np.dtype(np.int64):
        return None
    if grad.data.shape != indices.data.shape:
        return None
    planes, area = math.prod(x.data.shape[:2]), math.prod(x.data.shape[2:])
    args = [planes, area, math.prod(grad.data.shape[2:]), indices, grad, out]
    return Fused(MAX_POOL2D_BACKWARD, dtype, args, [out], "max_pool2d backward")


def _longs(*values) -> bool:
    return all(type(v) in (int, Integer) or isinstance(v, np.integer) for v in values)


def depthwise_conv2d(bound, out):
    x, weight, bias = bound["x"], bound["weight"], bound["bias"]
    dtype = _dtype(x, weight, bias, out)
    if dtype is None or x.data.ndim != 4 or out.data.ndim != 4:
        return None
    n, channels, h, w = x.data.shape
    stride, padding, dilation = bound["stride"], bound["padding"], bound["dilation"]
    shape = weight.data.shape
    if bound["groups"] != channels or shape[:2] != (channels, 1) or out.data.shape[1] != channels:
        return None
    if bias is not None and bias.data.shape != (channels,):
        return None
    if not _longs(*stride, *padding, *dilation) or len(stride) + len(padding) + len(dilation) != 6:
        return None
    # (an end padding shows in the output's size: the kernel reads inside the input only)
    ho, wo = out.data.shape[2:]
    args = [n, channels, h, w, ho, wo, *shape[2:], *stride, *padding, *dilation]
    return Fused(DEPTHWISE_CONV2D, dtype, [*args, x, weight, bias, out], [out], "conv2d")


# A convolution of at most this many input channels is summed directly (few_channels_conv2d):
# im2col's columns would cost about what their product does.
FEW_CHANNELS = 4


def few_channels_conv2d(bound, out):
    x, weight, bias = bound["x"], bound["weight"], bound["bias"]
    dtype = _dtype(x, weight, bias, out)
    if dtype is None or x.data.ndim != 4 or out.data.ndim != 4 or bound["groups"] != 1:
        return None
    n, cin, h, w = x.data.shape
    stride, padding, dilation = bound["stride"], bound["padding"], bound["dilation"]
    if cin > FEW_CHANNELS or not _longs(*stride, *padding, *dilation) or len(padding) != 2:
        return None
    cout, ho, wo = weight.data.shape[0], *out.data.shape[2:]
    if tuple(dilation) != (1, 1) or (bias is not None and bias.data.shape != (cout,)):
        return None
    # (an end padding shows in the output's size: the kernel reads inside the input only)
    args = [n, cin, h, w, cout, ho, wo, *weight.data.shape[2:], *stride, *padding]
    return Fused(FEW_CHANNELS_CONV2D, dtype, [*args, x, weight, bias, out], [out], "conv2d")


def _over_rows(kernel, bound, out, label):
    x = bound["tensor"]
    dtype = _dtype(x, out)
    if dtype and _same_shape(x, out) and _last_dim(x, bound["dim"]):
        return Fused(kernel, dtype, [*_rows(x), x, out], [out], label)
    return None


def mean_dim(bound, out):
    x = bound["tensor"]
    dtype = _dtype(x, out)
    if dtype and _last_dim(x, bound["dim"]) and out.data.shape == (*x.data.shape[:-1], 1):
        return Fused(ROW_MEAN, dtype, [*_rows(x), x, out], [out], "mean_dim")
    return None


def softmax(bound, out):
    return _over_rows(SOFTMAX, bound, out, "softmax")


def log_softmax(bound, out):
    return _over_rows(LOG_SOFTMAX, bound, out, "log_softmax")


def softmax_backward(bound, out):
    y, grad = bound["output"], bound["grad"]
    dtype = _dtype(y, grad, out)
    if dtype and _same_shape(y, grad, out) and _last_dim(y, bound["dim"]):
        args = [*_rows(y), y, grad, out]
        return Fused(SOFTMAX_BACKWARD, dtype, args, [out], "softmax backward")
    return None


def _operand_rows(operand, x, dtype) -> tuple[int, int] | None:
    """(repeat, inner) of an array of `dtype` broadcast over `x` (a bool mask, a bias of x's
    dtype: _broadcast_rows), or None."""
    data = operand.data if type(operand) is Value else None
    if type(data) is not np.ndarray or data.dtype != dtype:
        return None
    return _broadcast_rows(data, x)


def _broadcast_rows(data: np.ndarray, x) -> tuple[int, int] | None:
    """(repeat, inner) of an array broadcast over `x` [..., d] (csource's broadcast_row): its
    rows repeated over one run of x's leading dims, `inner` rows after the run; None when it
    broadcasts otherwise (over the last dim, or over two runs)."""
    shape = x.data.shape
    padded = (1,) * (len(shape) - data.ndim) + data.shape
    if len(padded) != len(shape) or padded[-1] != shape[-1]:
        return None
    lead = shape[:-1]
    broadcast = [k for k, (m, n) in enumerate(zip(padded[:-1], lead)) if m != n]
    if any(padded[k] != 1 for k in broadcast):
        return None
    if not broadcast:
        return 1, 1
    first, last = broadcast[0], broadcast[-1]
    if any(lead[k] != 1 for k in range(first, last + 1) if k not in broadcast):
        return None
    return int(np.prod(lead[first : last + 1])), int(np.prod(lead[last + 1 :]))


# -- attention: numpy's products around one C kernel for its softmax -----------------------
# Each helper below is the NumPy backend's own product of runtime/backends/kernels/attention.py
# (the same operands, so the same BLAS call), laid out as the kernels take them: the scores
# and the probabilities [..., keys, queries], each query a column.


def attention_scores(query, key, scale):
    """k (q · scale)ᵀ [..., keys, queries]."""
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    return np.matmul(key, np.matrix_transpose(query * scale))


def attention_values(probabilities, value):
    """The probabilities [..., keys, queries] (transposed) times value: attention's output."""
    return np.matmul(np.matrix_transpose(probabilities), value)


def attention_scores_grad(value, grad):
    """The probabilities' gradient [..., keys, queries]: v gradᵀ."""
    return np.matmul(value, np.matrix_transpose(grad))


def attention_query_grad(scores_grad, key, scale):
    """The queries' gradient of the scores' [..., keys, queries]."""
    product = np.matmul(np.matrix_transpose(scores_grad), key)
    product *= 1 / math.sqrt(key.shape[-1]) if scale is None else scale
    return product


def attention_key_grad(scores_grad, query, scale):
    """The keys' gradient of the scores' [..., keys, queries]."""
    product = np.matmul(scores_grad, query)
    product *= 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    return product


def _attention_sizes(bound) -> tuple | None:
    """(dtype, groups, keys, queries) of an attention without mask, bias or softcap over
    numpy float arrays [..., seq, d] of the same leading dims (in any layout: numpy's products
    read them); None otherwise."""
    query, key, value = bound["query"], bound["key"], bound["value"]
    if any(bound[name] is not None for name in ("mask", "attn_bias", "softcap")):
        return None
    scale = bound["scale"]
    if type(bound["is_causal"]) is not bool or not (scale is None or type(scale) is float):
        return None
    arrays = [v.data if type(v) is Value else None for v in (query, key, value)]
    if any(type(a) is not np.ndarray for a in arrays) or len({a.dtype for a in arrays}) != 1:
        return None
    dtype = FLOATS.get(arrays[0].dtype)
    if dtype is None or query.data.ndim < 3:
        return None
    (*lead, queries, d), (*lead_k, keys, d_k) = query.data.shape, key.data.shape
    if lead != lead_k or d != d_k or value.data.shape[:-1] != key.data.shape[:-1]:
        return None
    return dtype, math.prod(lead), keys, queries


def _attention(bound, out, probabilities):
    """attention's output `out`, and its probabilities (a recorded Value, or None where they
    are not kept): numpy's scores, the softmax kernel, numpy's product with the values."""
    sizes = _attention_sizes(bound)
    if sizes is None or type(out) is not Value:
        return None
    dtype, groups, keys, queries = sizes
    query, key, value, scale = bound["query"], bound["key"], bound["value"], bound["scale"]
    tape = out.tape
    scores = tape.value(
        np.empty((*query.data.shape[:-2], keys, queries), query.data.dtype), "scores"
    )
    if probabilities is None:
        laid_out = tape.value(np.empty_like(scores.data), "probabilities")
        after = ()
    else:  # (a view of the recorded probabilities' memory: the plan keeps it while they live)
        laid_out = tape.value(np.matrix_transpose(probabilities.data), "probabilities")
        after = (Library(np.matrix_transpose, (laid_out,), probabilities, "probabilities"),)
    causal = int(bound["is_causal"])
    args = [groups, keys, queries, causal, keys - queries, scores, laid_out]
    return Fused(
        ATTENTION_SOFTMAX,
        dtype,
        args,
        [laid_out],
        "attention softmax",
        before=(Library(attention_scores, (query, key, scale), scores, "attention scores"),),
        after=(*after, Library(attention_values, (laid_out, value), out, "attention values")),
    )


def attention(bound, out):
    return _attention(bound, out, None)


def attention_keeping(bound, out):
    result, kept = out
    if kept is not None and (type(kept) is not tuple or kept[1] is not None):
        return None
    return _attention(bound, result, None if kept is None else kept[0])


def attention_backward(bound, out):
    sizes = _attention_sizes(bound)
    probabilities, grad, wanted = bound["probabilities"], bound["grad"], bound["wanted"]
    if sizes is None or type(probabilities) is not tuple or probabilities[1] is not None:
        return None
    want_q, want_k, want_v, want_bias = (True,) * 4 if wanted is None else wanted
    grad_query, grad_key, grad_value, grad_bias = out
    if want_bias and grad_bias is not None or not (want_q or want_k):
        return None
    probabilities = probabilities[0]
    if type(probabilities) is not Value or type(grad) is not Value:
        return None
    if type(grad.data) is not np.ndarray or grad.data.dtype != probabilities.data.dtype:
        return None  # (numpy's products read it in any layout)
    laid_out = np.matrix_transpose(probabilities.data)
    if memory_dtype(laid_out) != probabilities.data.dtype:
        return None
    dtype, groups, keys, queries = sizes
    query, key, value, scale = bound["query"], bound["key"], bound["value"], bound["scale"]
    tape = probabilities.tape
    laid_out = tape.value(laid_out, "probabilities")
    scores_grad = tape.value(np.empty_like(laid_out.data), "scores_grad")
    softmax_grad = tape.value(np.empty_like(laid_out.data), "softmax_grad")
    before = [Library(np.matrix_transpose, (probabilities,), laid_out, "probabilities")]
    if want_v:
        before.append(Library(np.matmul, (laid_out, grad), grad_value, "values' gradient"))
    before.append(Library(attention_scores_grad, (value, grad), scores_grad, "scores' gradient"))
    after = []
    if want_q:
        arguments = (softmax_grad, key, scale)
        after.append(Library(attention_query_grad, arguments, grad_query, "queries' gradient"))
    if want_k:
        arguments = (softmax_grad, query, scale)
        after.append(Library(attention_key_grad, arguments, grad_key, "keys' gradient"))
    args = [groups, keys, queries, laid_out, scores_grad, softmax_grad]
    return Fused(
        ATTENTION_SOFTMAX_BACKWARD,
        dtype,
        args,
        [softmax_grad],
        "attention softmax backward",
        before=tuple(before),
        after=tuple(after),
    )


def masked_softmax(fill, softmax, filled, out):
    """float_mask_fill, then softmax over the last dim of what it filled."""
    x, mask = fill["tensor"], fill["mask"]
    dtype = _softmax_of(x, filled, softmax, out)
    rows = dtype and _operand_rows(mask, x, np.bool_)
    if not rows:
        return None
    args = [*_rows(x), x, mask, *rows, fill["value"], out]
    return Fused(MASKED_SOFTMAX, dtype, args, [out], "mask_fill and softmax", copies=_copied(mask))


def biased_softmax(add, softmax, summed, out):
    """float_add of scores and a bias broadcast over them (either side), then softmax over the
    last dim of the sums."""
    x, bias = add["a"], add["b"]
    if type(x) is Value and type(bias) is Value and bias.data.shape == summed.data.shape:
        x, bias = bias, x  # (the scores on the right: `mask + scores`)
    dtype = _softmax_of(x, summed, softmax, out)
    rows = dtype and _operand_rows(bias, x, x.data.dtype)
    if not rows:
        return None
    args = [*_rows(x), x, bias, *rows, out]
    return Fused(BIASED_SOFTMAX, dtype, args, [out], "add and softmax", copies=_copied(bias))


def _softmax_of(x, made, softmax, out) -> str | None:
    """The float dtype of a pair whose first call made `made` of the scores `x` (their shape)
    and whose `softmax` reads it over the last dim into `out`; None where it is not that."""
    dtype = _dtype(x, made, out)
    if not dtype or not _same_shape(x, made, out) or softmax["tensor"] is not made:
        return None
    return dtype if _last_dim(x, softmax["dim"]) else None


def masked_softmax_backward(backward, fill, gradient, out):
    """softmax_backward, then float_mask_fill (the masked fill's backward) of its result."""
    y, grad, mask = backward["output"], backward["grad"], fill["mask"]
    dtype = _dtype(y, grad, gradient, out)
    if not dtype or not _same_shape(y, grad, gradient, out) or fill["tensor"] is not gradient:
        return None
    rows = _operand_rows(mask, y, np.bool_)
    if rows is None or not _last_dim(y, backward["dim"]):
        return None
    args = [*_rows(y), y, grad, mask, *rows, fill["value"], out]
    label = "softmax and mask_fill backward"
    return Fused(MASKED_SOFTMAX_BACKWARD, dtype, args, [out], label, copies=_copied(mask))


def _copied(*values) -> tuple:
    return tuple(v for v in values if not v.data.flags.c_contiguous)


def _targets(targets, rows) -> bool:
    """Whether `targets` are class indices the C kernels read as `long`s, one per row."""
    data = targets.data if type(targets) is Value else None
    return (
        type(data) is np.ndarray
        and data.dtype == np.int64
        and data.shape == (rows,)
        and data.flags.c_contiguous
    )


def cross_entropy_class_targets(bound, out):
    return _cross_entropy(bound, out, None)


def cross_entropy_class_targets_keeping(bound, out):
    loss, probabilities = out
    return _cross_entropy(bound, loss, probabilities)


def _cross_entropy(bound, loss, probabilities):
    """The loss and (when kept) the probabilities, the backend's bits: the C kernels do what
    numpy would round alike (the max, the shift, the pick, the mean, the division) around the
    backend's own calls of what C would round otherwise (numpy's exp and log, BLAS's row
    sums)."""
    logits, targets = bound["logits"], bound["targets"]
    dtype = _dtype(logits, loss, probabilities)
    if not dtype or logits.data.ndim != 2 or loss.data.shape != (1,):
        return None
    if probabilities is not None and not _same_shape(logits, probabilities):
        return None
    rows, d = logits.data.shape
    if not rows or not d or not _targets(targets, rows):
        return None  # (no rows, no classes: the backend's NaN and error)
    tape, real = logits.tape, logits.data.dtype
    shifted, exponentials = (tape.value(np.empty_like(logits.data), n) for n in ("shifted", "exp"))
    picked, sums, logs = (tape.value(np.empty(rows, real), n) for n in ("picked", "sums", "logs"))
    shift = [rows, d, logits, targets, shifted, picked]
    label = ops.CROSS_ENTROPY_CLASS_TARGETS.name
    before = (
        Library(class_targets_in_range, (targets, d), None, "class indices checked"),
        Fused(CROSS_ENTROPY_SHIFT, dtype, shift, [shifted, picked], "row max, shift, pick"),
        Library(np.exp, (shifted,), exponentials, "exponentials"),
        Library(row_sums, (exponentials,), sums, "row sums"),
        Library(np.log, (sums,), logs, "row sums' logs"),
    )
    args = [rows, d, logs, picked, exponentials, sums, loss, probabilities]
    outputs = [v for v in (loss, probabilities) if v is not None]
    return Fused(CROSS_ENTROPY, dtype, args, outputs, label, before=before)


def class_targets_in_range(targets, classes: int) -> None:
    """The NumPy backend's check of cross-entropy's class indices: its error, raised before a
    kernel reads one out of range."""
    NUMPY_BACKEND._check_range(ops.CROSS_ENTROPY_CLASS_TARGETS.name, targets, classes, 1)


def cross_entropy_class_targets_backward(bound, out):
    logits, targets, grad = bound["logits"], bound["targets"], bound["grad"]
    probabilities = bound["probabilities"]
    if probabilities is None:  # (the forward kept none: the backend computes them again)
        return None
    dtype = _dtype(logits, probabilities, grad, out)
    if not dtype or not _same_shape(logits, probabilities, out) or logits.data.ndim != 2:
        return None
    rows, d = logits.data.shape
    if not _targets(targets, rows) or _count(grad) != 1:
        return None
    args = [rows, d, probabilities, targets, grad, out]
    label = "cross_entropy_class_targets backward"
    return Fused(CROSS_ENTROPY_BACKWARD, dtype, args, [out], label)


def embedding_backward(bound, out):
    weights, grad, indices = bound["weights"], bound["output_grad"], bound["indices"]
    dtype = _dtype(weights, grad, out)
    data = indices.data if type(indices) is Value else None
    if not dtype or type(data) is not np.ndarray or data.dtype != np.int64:
        return None
    if weights.data.ndim != 2 or grad.data.shape != data.shape + weights.data.shape[1:]:
        return None
    vocab, d = weights.data.shape
    args = [data.size, d, vocab, indices, grad, out]
    label = "embedding backward"
    return Fused(EMBEDDING_BACKWARD, dtype, args, [out], label, copies=_copied(indices))


def adam_step(bound, out):
    param, grad = bound["param"], bound["grad"]
    m_in, v_in = bound["moment_1"], bound["moment_2"]
    new_param, m, v, v_max = out
    flags = (bound["decoupled"], bound["cautious"], bound["amsgrad"])
    if any(type(f) is not bool for f in flags) or flags[1] or flags[2] or v_max.data is not v.data:
        return None  # (cautious and AMSGrad stay the backend's)
    if (m_in is None) != (v_in is None):
        return None
    dtype = _dtype(param, grad, m_in, v_in, new_param, m, v)
    if not dtype or not _same_shape(param, grad, m_in, v_in, new_param, m, v):
        return None
    scalars = [
        bound[key]
        for key in ("lr", "beta_1", "beta_2", "epsilon", "weight_decay")
        + ("bias_correction_1", "bias_correction_2")
    ]
    args = [_count(param), param, grad, m_in, v_in, *scalars, int(flags[0])]
    label = "adamw_step" if flags[0] else "adam_step"
    outputs = [new_param, m, v]
    updates = [(new_param, param), (m, m_in), (v, v_in)]
    return Fused(
        ADAM_STEP,
        dtype,
        [*args, *outputs],
        outputs,
        label,
        aliases=[(v_max, v)],
        updates=[(o, i) for o, i in updates if i is not None],
    )


def sgd_step(bound, out):
    param, grad, velocity_in = bound["param"], bound["grad"], bound["velocity"]
    new_param, velocity = out
    if type(bound["nesterov"]) is not bool or new_param is None or velocity is None:
        return None
    dtype = _dtype(param, grad, velocity_in, new_param, velocity)
    if not dtype or not _same_shape(param, grad, velocity_in, new_param, velocity):
        return None
    if velocity.data is grad.data or velocity_in is not None and velocity.data is velocity_in.data:
        return None  # (a velocity that is the gradient itself: no state of its own to write)
    scalars = [bound[key] for key in ("lr", "momentum", "dampening", "weight_decay")]
    args = [_count(param), param, grad, velocity_in, *scalars, int(bound["nesterov"])]
    outputs = [new_param, velocity]
    updates = [(o, i) for o, i in ((new_param, param), (velocity, velocity_in)) if i is not None]
    return Fused(SGD_STEP, dtype, [*args, *outputs], outputs, "sgd_step", updates=updates)


def clip_by_norm(bound, out):
    grad = bound["grad"]
    dtype = _dtype(grad, out)
    if dtype and _same_shape(grad, out):
        tiny = float(np.finfo(memory_dtype(grad.data)).tiny)
        args = [_count(grad), grad, bound["threshold"], tiny, out]
        return Fused(CLIP_BY_NORM, dtype, args, [out], "clip_by_norm")
    return None


# -- the kernels: one declaration each, every table derived from them ------------------------


class Fusing(Enum):
    """The backends whose arrays a fused kernel reads as they are (by DispatchTensorKind
    variant): the NumPy backend's arrays, the Torch backend's CPU tensors (viewed as numpy
    arrays at each call)."""

    NUMPY = "NumPy"
    TORCH = "Torch"

    @classmethod
    def of(cls, backend) -> "Fusing | None":
        """The member of an inner backend, None for one whose kernels are not fused."""
        return next((member for member in cls if member.value == backend.variant), None)


NUMPY = frozenset({Fusing.NUMPY})
# where ATen takes several calls (the optimisers' updates: four to seven passes over every
# parameter; the GELUs, clipped first so that ±inf give their limits) or a slower one (the
# training batch norm's forward: a quarter of ATen's time at ResNet's shapes). torch's
# layer_norm, rms_norm, softmax, cross-entropy and batch norm backward are as fast, and stay
# the backend's.
BOTH = frozenset({Fusing.NUMPY, Fusing.TORCH})
FLOAT_DTYPES = ("float32", "float64")


@dataclass(frozen=True, eq=False)
class Kernel:
    """One fused C kernel: `name` (its C function is `<name>_f32` / `_f64`), its C text over
    `real` (burnpy.capture.csource), the texts it needs before it (each written once), the
    recorded kernels it replaces with the rule that matches each call (a pair of recorded
    kernels: the rule of two consecutive calls), the backends whose calls it fuses and the
    dtypes it is built for. `step`: a kernel written for one step (an element-wise chain),
    built with it rather than in the library."""

    name: str
    c: str
    replaces: Mapping = field(default_factory=dict)  # Recorded or (Recorded, Recorded) -> rule
    needs: tuple[str, ...] = ()
    backends: frozenset = NUMPY
    dtypes: tuple[str, ...] = FLOAT_DTYPES
    step: bool = False
    # False for a kernel whose sums round otherwise than the recorded kernel's (Winograd's
    # convolution): it fuses only in steps without a backward. Training compounds rounding (two
    # ResNet-18 runs from weights one ulp apart differ by 2e-2 after 20 steps), and a compiled
    # training step keeps to its uncompiled one's arithmetic.
    in_training: bool = True


GELU = Kernel("gelu", csource.GELU, {Recorded(ops.GELU): gelu}, (csource.GELU_TAIL,), BOTH)
GELU_KEEPING = Kernel(
    "gelu_keeping",
    csource.GELU_KEEPING,
    {keeping(ops.GELU): gelu_keeping},
    (csource.GELU_TAIL, csource.GELU_SLOPE),
    BOTH,
)
GELU_BACKWARD = Kernel(
    "gelu_backward",
    csource.GELU_BACKWARD,
    {backward(ops.GELU): gelu_backward},
    (csource.GELU_SLOPE,),
    BOTH,
)
GELU_APPROXIMATE = Kernel(
    "gelu_approximate",
    csource.GELU_APPROXIMATE,
    {Recorded(ops.GELU_APPROXIMATE): gelu_approximate},
    (csource.TANH_GELU_PARTS,),
    BOTH,
)
GELU_APPROXIMATE_KEEPING = Kernel(
    "gelu_approximate_keeping",
    csource.GELU_APPROXIMATE_KEEPING,
    {keeping(ops.GELU_APPROXIMATE): gelu_approximate_keeping},
    (csource.TANH_GELU_PARTS,),
    BOTH,
)
GELU_APPROXIMATE_BACKWARD = Kernel(
    "gelu_approximate_backward",
    csource.GELU_APPROXIMATE_BACKWARD,
    {backward(ops.GELU_APPROXIMATE): gelu_approximate_backward},
    (csource.TANH_GELU_PARTS,),
    BOTH,
)
LAYER_NORM = Kernel(
    "layer_norm",
    csource.LAYER_NORM,
    {Recorded(ops.LAYER_NORM): layer_norm, keeping(ops.LAYER_NORM): layer_norm_keeping},
    (csource.ROW_STATISTICS,),
)
LAYER_NORM_BACKWARD = Kernel(
    "layer_norm_backward",
    csource.LAYER_NORM_BACKWARD,
    {backward(ops.LAYER_NORM): layer_norm_backward},
    (csource.ROW_STATISTICS,),
)
RMS_NORM = Kernel(
    "rms_norm",
    csource.RMS_NORM,
    {Recorded(ops.RMS_NORM): rms_norm, keeping(ops.RMS_NORM): rms_norm_keeping},
)
RMS_NORM_BACKWARD = Kernel(
    "rms_norm_backward", csource.RMS_NORM_BACKWARD, {backward(ops.RMS_NORM): rms_norm_backward}
)
BATCH_NORM = Kernel("batch_norm", csource.BATCH_NORM, {Recorded(ops.BATCH_NORM): batch_norm})
BATCH_NORM_TRAINING = Kernel(
    "batch_norm_training",
    csource.BATCH_NORM_TRAINING,
    {Recorded(ops.BATCH_NORM_TRAINING): batch_norm_training},
    (csource.PAIRWISE_SUM, csource.CHANNEL_SUM),
    BOTH,
)
BATCH_NORM_TRAINING_BACKWARD = Kernel(
    "batch_norm_training_backward",
    csource.BATCH_NORM_TRAINING_BACKWARD,
    {backward(ops.BATCH_NORM_TRAINING): batch_norm_training_backward},
    (csource.PAIRWISE_SUM, csource.CHANNEL_SUM),
    BOTH,
)
DEPTHWISE_CONV2D = Kernel(
    "depthwise_conv2d", csource.DEPTHWISE_CONV2D, {Recorded(ops.CONV2D): depthwise_conv2d}
)
MAX_POOL2D = Kernel(
    "max_pool2d",
    csource.MAX_POOL2D,
    {
        Recorded(ops.MAX_POOL2D): max_pool2d,
        keeping(ops.MAX_POOL2D): max_pool2d,
        Recorded(ops.MAX_POOL2D_WITH_INDICES): max_pool2d,
    },
    (),
    BOTH,
)
MAX_POOL2D_BACKWARD = Kernel(
    "max_pool2d_backward",
    csource.MAX_POOL2D_BACKWARD,
    {backward(ops.MAX_POOL2D_WITH_INDICES): max_pool2d_backward},
)
FEW_CHANNELS_CONV2D = Kernel(
    "few_channels_conv2d",
    csource.FEW_CHANNELS_CONV2D,
    {Recorded(ops.CONV2D): few_channels_conv2d},
    in_training=False,
)
ATTENTION_SOFTMAX = Kernel(
    "attention_softmax",
    csource.ATTENTION_SOFTMAX,
    {Recorded(ops.ATTENTION): attention, keeping(ops.ATTENTION): attention_keeping},
)
ATTENTION_SOFTMAX_BACKWARD = Kernel(
    "attention_softmax_backward",
    csource.ATTENTION_SOFTMAX_BACKWARD,
    {backward(ops.ATTENTION): attention_backward},
)
ROW_MEAN = Kernel(
    "row_mean", csource.ROW_MEAN, {Recorded(ops.FLOAT_MEAN_DIM): mean_dim}, in_training=False
)
SOFTMAX = Kernel("softmax", csource.SOFTMAX, {Recorded(ops.SOFTMAX): softmax}, (csource.ROW_MAX,))
LOG_SOFTMAX = Kernel(
    "log_softmax", csource.LOG_SOFTMAX, {Recorded(ops.LOG_SOFTMAX): log_softmax}, (csource.ROW_MAX,)
)
SOFTMAX_BACKWARD = Kernel(
    "softmax_backward", csource.SOFTMAX_BACKWARD, {backward(ops.SOFTMAX): softmax_backward}
)
MASKED_SOFTMAX = Kernel(
    "masked_softmax",
    csource.MASKED_SOFTMAX,
    {(Recorded(ops.FLOAT_MASK_FILL), Recorded(ops.SOFTMAX)): masked_softmax},
    (csource.BROADCAST_ROW,),
)
BIASED_SOFTMAX = Kernel(
    "biased_softmax",
    csource.BIASED_SOFTMAX,
    {(Recorded(ops.FLOAT_ADD), Recorded(ops.SOFTMAX)): biased_softmax},
    (csource.BROADCAST_ROW,),
)
MASKED_SOFTMAX_BACKWARD = Kernel(
    "masked_softmax_backward",
    csource.MASKED_SOFTMAX_BACKWARD,
    {(backward(ops.SOFTMAX), Recorded(ops.FLOAT_MASK_FILL)): masked_softmax_backward},
    (csource.BROADCAST_ROW,),
)
CROSS_ENTROPY_SHIFT = Kernel(
    "cross_entropy_shift", csource.CROSS_ENTROPY_SHIFT, needs=(csource.ROW_MAX,)
)
CROSS_ENTROPY = Kernel(
    "cross_entropy",
    csource.CROSS_ENTROPY,
    {
        Recorded(ops.CROSS_ENTROPY_CLASS_TARGETS): cross_entropy_class_targets,
        keeping(ops.CROSS_ENTROPY_CLASS_TARGETS): cross_entropy_class_targets_keeping,
    },
    (csource.PAIRWISE_SUM,),
)
CROSS_ENTROPY_BACKWARD = Kernel(
    "cross_entropy_backward",
    csource.CROSS_ENTROPY_BACKWARD,
    {backward(ops.CROSS_ENTROPY_CLASS_TARGETS): cross_entropy_class_targets_backward},
)
EMBEDDING_BACKWARD = Kernel(
    "embedding_backward",
    csource.EMBEDDING_BACKWARD,
    {backward(ops.EMBEDDING): embedding_backward},
    (csource.PAIRWISE_SUM,),
)
ADAM_STEP = Kernel("adam_step", csource.ADAM, {Recorded(ops.ADAM_STEP): adam_step}, (), BOTH)
SGD_STEP = Kernel("sgd_step", csource.SGD, {Recorded(ops.SGD_STEP): sgd_step}, (), BOTH)
CLIP_BY_NORM = Kernel(
    "clip_by_norm", csource.CLIP_BY_NORM, {Recorded(ops.CLIP_BY_NORM): clip_by_norm}, (), BOTH
)

# The library: every kernel above, each built once per dtype (burnpy.capture.compiler.functions)
KERNELS = (
    GELU,
    GELU_KEEPING,
    GELU_BACKWARD,
    GELU_APPROXIMATE,
    GELU_APPROXIMATE_KEEPING,
    GELU_APPROXIMATE_BACKWARD,
    LAYER_NORM,
    LAYER_NORM_BACKWARD,
    RMS_NORM,
    RMS_NORM_BACKWARD,
    BATCH_NORM,
    BATCH_NORM_TRAINING,
    BATCH_NORM_TRAINING_BACKWARD,
    DEPTHWISE_CONV2D,
    MAX_POOL2D,
    MAX_POOL2D_BACKWARD,
    FEW_CHANNELS_CONV2D,
    ATTENTION_SOFTMAX,
    ATTENTION_SOFTMAX_BACKWARD,
    ROW_MEAN,
    SOFTMAX,
    LOG_SOFTMAX,
    SOFTMAX_BACKWARD,
    MASKED_SOFTMAX,
    BIASED_SOFTMAX,
    MASKED_SOFTMAX_BACKWARD,
    CROSS_ENTROPY_SHIFT,
    CROSS_ENTROPY,
    CROSS_ENTROPY_BACKWARD,
    EMBEDDING_BACKWARD,
    ADAM_STEP,
    SGD_STEP,
    CLIP_BY_NORM,
)


# recorded kernel name -> its [(kernel, rule)], in the library's order: the first rule that
# answers fuses the call (a conv2d: depthwise, few channels, else Winograd's); (first's name,
# second's name) -> (kernel, pair rule)
def _rules() -> dict:
    rules: dict = {}
    for kernel in KERNELS:
        for replaced, rule in kernel.replaces.items():
            if type(replaced) is Recorded:
                rules.setdefault(replaced.name, []).append((kernel, rule))
    return rules


RULES = _rules()
PAIRS = {
    (replaced[0].name, replaced[1].name): (kernel, rule)
    for kernel in KERNELS
    for replaced, rule in kernel.replaces.items()
    if type(replaced) is tuple
}


def named() -> list[Recorded]:
    """Every recorded kernel the fused kernels replace (burnpy.capture.named.check)."""
    found = []
    for kernel in KERNELS:
        for replaced in kernel.replaces:
            found += replaced if type(replaced) is tuple else [replaced]
    return found


@functools.cache
def _signature(backend: type, kernel: str) -> inspect.Signature:
    """The parameters of `kernel` as its shared definition names them (the first class to
    define it, the backend's own versions wrapping it): `self` left out."""
    shared = next(c for c in reversed(backend.__mro__) if kernel in vars(c))
    function = vars(shared)[kernel]
    if type(function) is staticmethod:  # (no `self`: float_add is `operator.add`'s a, b)
        return inspect.signature(function.__func__)
    signature = inspect.signature(function)
    return signature.replace(parameters=list(signature.parameters.values())[1:])


def _bound(entry, backend) -> dict | None:
    try:
        bound = _signature(type(backend), entry.target).bind(*entry.args, **entry.kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return bound.arguments


def _built(fused: Fused | None) -> Fused | None:
    """`fused`, unless its kernel is not built for its dtype."""
    return fused if fused is not None and fused.dtype in fused.kernel.dtypes else None


def fuse(entry, backend, training: bool = False) -> Fused | None:
    """The fused call that replaces `entry` (a kernel call on `backend`), or None; in a
    `training` step (one with a backward), by kernels `in_training` only."""
    fusing, bound = Fusing.of(backend), None
    for kernel, rule in RULES.get(entry.target, ()):
        if fusing not in kernel.backends or (training and not kernel.in_training):
            continue
        bound = _bound(entry, backend) if bound is None else bound
        fused = None if bound is None else _built(rule(bound, entry.out))
        if fused is not None:
            return fused
    return None


def fuse_pair(first, second, backend) -> Fused | None:
    """The fused call that replaces `first` and then `second` (kernel calls on `backend`, the
    second reading the first's result, which nothing else reads), or None."""
    found = PAIRS.get((first.target, second.target))
    if found is None or Fusing.of(backend) not in found[0].backends:
        return None
    if type(first.out) is not Value:
        return None
    bounds = [_bound(entry, backend) for entry in (first, second)]
    if None in bounds:
        return None
    return _built(found[1](*bounds, first.out, second.out))
