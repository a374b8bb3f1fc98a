"""Which recorded kernel calls a compiled capture replaces by a fused C kernel.

Each rule below takes one kernel call of the tape, its arguments bound by name, and answers the
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

import numpy as np

from burnpy.capture.csource import SUFFIXES
from burnpy.capture.recorder import Value

FLOATS = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64"}


class Fused:
    """One call of a fused kernel: `kernel` (a csource.TEXTS key) for `dtype`, its C arguments
    in order (Values, numbers, ints, None for NULL), the Values it writes (`outputs`, each given
    a buffer by the plan), values that are another output itself (`aliases`: (value, output)),
    and the catalogue ops it computes (`label`)."""

    __slots__ = (
        "kernel",
        "dtype",
        "args",
        "outputs",
        "aliases",
        "label",
        "text",
        "checks",
        "updates",
        "copies",
    )

    def __init__(
        self, kernel, dtype, args, outputs, label, aliases=(), checks=(), updates=(), copies=()
    ):
        self.text = None  # a kernel written for this step (an element-wise chain): its C text
        self.checks = checks  # (backend method, args): what the backend checks first
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
        return f"{self.kernel}_{SUFFIXES[self.dtype]}"


def memory_dtype(data):
    """The numpy dtype of `data` when a C kernel can read its memory as it is: a C-contiguous
    numpy array, or a contiguous CPU torch tensor (viewed as numpy's array at each call); else
    None."""
    if type(data) is np.ndarray:
        return data.dtype if data.flags.c_contiguous else None
    torch = sys.modules.get("torch")
    if torch is None or type(data) is not torch.Tensor or data.device.type != "cpu":
        return None
    if not data.is_contiguous():
        return None
    return {torch.float32: np.dtype(np.float32), torch.float64: np.dtype(np.float64)}.get(
        data.dtype
    )


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
        return Fused("gelu", dtype, [_count(x), x, out], [out], "gelu")
    return None


def gelu_keeping(bound, out):
    x = bound["tensor"]
    result, slope = out
    if slope is None:  # (this dtype's keeping forward keeps nothing)
        return gelu(bound, result)
    dtype = _dtype(x, result, slope)
    if dtype and _same_shape(x, result, slope):
        args = [_count(x), x, result, slope]
        return Fused("gelu_keeping", dtype, args, [result, slope], "gelu and its slope")
    return None


def gelu_backward(bound, out):
    x, grad = bound["x"], bound["grad"]
    dtype = _dtype(x, grad, out)
    if dtype and _same_shape(x, grad, out):
        return Fused("gelu_backward", dtype, [_count(x), x, grad, out], [out], "gelu backward")
    return None


def gelu_approximate(bound, out):
    x = bound["tensor"]
    dtype = _dtype(x, out)
    if dtype and _same_shape(x, out):
        return Fused("gelu_approximate", dtype, [_count(x), x, out], [out], "gelu_approximate")
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
        return Fused("gelu_approximate_keeping", dtype, args, [result, slope], label)
    return None


def gelu_approximate_backward(bound, out):
    x, grad = bound["x"], bound["grad"]
    dtype = _dtype(x, grad, out)
    if dtype and _same_shape(x, grad, out):
        args = [_count(x), x, grad, out]
        return Fused("gelu_approximate_backward", dtype, args, [out], "gelu_approximate backward")
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
    return Fused("layer_norm", dtype, args, outputs, "layer_norm")


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
    return Fused("layer_norm_backward", dtype, args, outputs, "layer_norm backward")


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
    return Fused("rms_norm", dtype, args, outputs, "rms_norm")


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
    return Fused("rms_norm_backward", dtype, args, outputs, "rms_norm backward")


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
    return Fused("batch_norm", dtype, args, [out], "batch_norm")


def batch_norm_training(bound, out):
    x, gamma, beta = bound["input"], bound["gamma"], bound["beta"]
    result, mean, variance = out
    dtype = _dtype(x, gamma, beta, result, mean, variance)
    layout = dtype and _same_shape(x, result) and _channels(x, gamma, beta, mean, variance)
    if not layout or beta is None:
        return None
    args = [*layout, x, gamma, beta, bound["epsilon"], result, mean, variance]
    return Fused(
        "batch_norm_training", dtype, args, [result, mean, variance], "batch_norm_training"
    )


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
    return Fused("batch_norm_training_backward", dtype, args, outputs, label)


def _row_kernel(kernel, label):
    def rule(bound, out):
        x = bound["tensor"]
        dtype = _dtype(x, out)
        if dtype and _same_shape(x, out) and _last_dim(x, bound["dim"]):
            return Fused(kernel, dtype, [*_rows(x), x, out], [out], label)
        return None

    rule.__name__ = kernel
    return rule


softmax = _row_kernel("softmax", "softmax")
log_softmax = _row_kernel("log_softmax", "log_softmax")


def softmax_backward(bound, out):
    y, grad = bound["output"], bound["grad"]
    dtype = _dtype(y, grad, out)
    if dtype and _same_shape(y, grad, out) and _last_dim(y, bound["dim"]):
        args = [*_rows(y), y, grad, out]
        return Fused("softmax_backward", dtype, args, [out], "softmax backward")
    return None


def _mask_rows(mask, x) -> tuple[int, int] | None:
    """(repeat, inner) of a bool `mask` broadcast over `x` [..., d] (csource's mask_row): its
    rows repeated over one run of x's leading dims, `inner` rows after the run; None when it
    broadcasts otherwise (over the last dim, or over two runs), or is not a bool array."""
    data = mask.data if type(mask) is Value else None
    if type(data) is not np.ndarray or data.dtype != np.bool_:
        return None
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


def masked_softmax(fill, softmax, filled, out):
    """float_mask_fill, then softmax over the last dim of what it filled."""
    x, mask = fill["tensor"], fill["mask"]
    dtype = _dtype(x, filled, out)
    if not dtype or not _same_shape(x, filled, out) or softmax["tensor"] is not filled:
        return None
    rows = _mask_rows(mask, x)
    if rows is None or not _last_dim(x, softmax["dim"]):
        return None
    args = [*_rows(x), x, mask, *rows, fill["value"], out]
    return Fused(
        "masked_softmax", dtype, args, [out], "mask_fill and softmax", copies=_copied(mask)
    )


def masked_softmax_backward(backward, fill, gradient, out):
    """softmax_backward, then float_mask_fill (the masked fill's backward) of its result."""
    y, grad, mask = backward["output"], backward["grad"], fill["mask"]
    dtype = _dtype(y, grad, gradient, out)
    if not dtype or not _same_shape(y, grad, gradient, out) or fill["tensor"] is not gradient:
        return None
    rows = _mask_rows(mask, y)
    if rows is None or not _last_dim(y, backward["dim"]):
        return None
    args = [*_rows(y), y, grad, mask, *rows, fill["value"], out]
    label = "softmax and mask_fill backward"
    return Fused("masked_softmax_backward", dtype, args, [out], label, copies=_copied(mask))


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


def cross_entropy_class_targets_keeping(bound, out):
    logits, targets = bound["logits"], bound["targets"]
    loss, probabilities = out
    dtype = _dtype(logits, loss, probabilities)
    if not dtype or logits.data.ndim != 2 or loss.data.shape != (1,):
        return None
    rows, d = logits.data.shape
    if not _targets(targets, rows):
        return None
    if probabilities is not None and probabilities.data.shape != (rows, d):
        return None
    args = [rows, d, logits, targets, loss, probabilities]
    outputs = [v for v in (loss, probabilities) if v is not None]
    check = ("_check_range", ("cross_entropy_class_targets", targets, d, 1))
    label = "cross_entropy_class_targets"
    return Fused("cross_entropy", dtype, args, outputs, label, checks=[check])


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
    return Fused("cross_entropy_backward", dtype, args, [out], label)


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
        "adam_step",
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
    return Fused("sgd_step", dtype, [*args, *outputs], outputs, "sgd_step", updates=updates)


def clip_by_norm(bound, out):
    grad = bound["grad"]
    dtype = _dtype(grad, out)
    if dtype and _same_shape(grad, out):
        tiny = float(np.finfo(memory_dtype(grad.data)).tiny)
        args = [_count(grad), grad, bound["threshold"], tiny, out]
        return Fused("clip_by_norm", dtype, args, [out], "clip_by_norm")
    return None


RULES = {
    "gelu": gelu,
    "gelu_keeping": gelu_keeping,
    "gelu_backward": gelu_backward,
    "gelu_approximate": gelu_approximate,
    "gelu_approximate_keeping": gelu_approximate_keeping,
    "gelu_approximate_backward": gelu_approximate_backward,
    "layer_norm": layer_norm,
    "layer_norm_keeping": layer_norm_keeping,
    "layer_norm_backward": layer_norm_backward,
    "rms_norm": rms_norm,
    "rms_norm_keeping": rms_norm_keeping,
    "rms_norm_backward": rms_norm_backward,
    "batch_norm": batch_norm,
    "batch_norm_training": batch_norm_training,
    "batch_norm_training_backward": batch_norm_training_backward,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "softmax_backward": softmax_backward,
    "cross_entropy_class_targets_keeping": cross_entropy_class_targets_keeping,
    "cross_entropy_class_targets_backward": cross_entropy_class_targets_backward,
    "adam_step": adam_step,
    "sgd_step": sgd_step,
    "clip_by_norm": clip_by_norm,
}


# (first kernel, second kernel) -> the rule of the two as one call, the second reading what
# the first made, and nothing else reading it
PAIRS = {
    ("float_mask_fill", "softmax"): masked_softmax,
    ("softmax_backward", "float_mask_fill"): masked_softmax_backward,
}


@functools.cache
def _signature(backend: type, kernel: str) -> inspect.Signature:
    """The parameters of `kernel` as its shared definition names them (the first class to
    define it, the backend's own versions wrapping it): `self` left out."""
    shared = next(c for c in reversed(backend.__mro__) if kernel in vars(c))
    signature = inspect.signature(vars(shared)[kernel])
    return signature.replace(parameters=list(signature.parameters.values())[1:])


def _bound(entry, backend) -> dict | None:
    try:
        bound = _signature(type(backend), entry.target).bind(*entry.args, **entry.kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return bound.arguments


# The rules of the Torch backend's calls: where ATen takes several calls (the optimisers'
# updates: four to seven passes over every parameter; the GELUs, clipped first so that ±inf
# give their limits) or a slower one (the training batch norm's forward: a quarter of ATen's
# time at ResNet's shapes). torch's layer_norm, rms_norm, softmax, cross-entropy and batch
# norm backward are as fast, and stay the backend's.
TORCH_RULES = frozenset(
    {
        "adam_step",
        "sgd_step",
        "clip_by_norm",
        "gelu",
        "gelu_keeping",
        "gelu_backward",
        "gelu_approximate",
        "gelu_approximate_keeping",
        "gelu_approximate_backward",
        "batch_norm_training",
    }
)


def fuse(entry, backend) -> Fused | None:
    """The fused call that replaces `entry` (a kernel call on `backend`), or None."""
    rule = RULES.get(entry.target)
    if (
        rule is None
        or backend.name != "numpy"
        and (backend.name != "torch" or entry.target not in TORCH_RULES)
    ):
        return None
    bound = _bound(entry, backend)
    return None if bound is None else rule(bound, entry.out)


def fuse_pair(first, second, backend) -> Fused | None:
    """The fused call that replaces `first` and then `second` (kernel calls on `backend`, the
    second reading the first's result, which nothing else reads), or None."""
    rule = PAIRS.get((first.target, second.target))
    if rule is None or backend.name != "numpy" or type(first.out) is not Value:
        return None
    bounds = [_bound(entry, backend) for entry in (first, second)]
    if None in bounds:
        return None
    return rule(*bounds, first.out, second.out)
