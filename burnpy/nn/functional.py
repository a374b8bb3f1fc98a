"""Losses and activations as functions, named as burn names them.

The losses follow burn-nn's `CrossEntropyLoss`, `MseLoss` and `BinaryCrossEntropyLoss`; each
returns a tensor of shape [1].
"""

import numpy as np

from generated import Distribution, Tensor


def _check_float(name, tensor):
    if not np.issubdtype(tensor.dtype, np.floating):
        raise TypeError(f"{name} needs a Float tensor, got dtype {tensor.dtype}; call .float()")


def cross_entropy(logits, targets, *, label_smoothing: float = 0.0, weights=None):
    """Cross-entropy of `logits` [batch, classes] against Int class `targets` [batch], mean over
    the batch, through the numerically stable log-softmax (burn-nn's `CrossEntropyLoss`).

    `label_smoothing` alpha turns the one-hot targets into (1 - alpha)·y + alpha/classes.
    `weights` (a sequence or a Float tensor of one positive weight per class) weighs each
    sample's loss; the sum is then divided by the sum of the targets' weights, as burn does.
    """
    _check_float("cross_entropy's logits", logits)
    if np.issubdtype(targets.dtype, np.floating) or targets.dtype == np.bool_:
        raise TypeError(
            f"cross_entropy needs Int class targets, got dtype {targets.dtype}; call .int()"
        )
    if logits.ndim != 2 or targets.ndim != 1 or logits.shape[0] != targets.shape[0]:
        raise ValueError(
            f"cross_entropy needs logits [batch, classes] and targets [batch], got "
            f"{list(logits.shape)} and {list(targets.shape)}"
        )
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    batch, classes = logits.shape
    log_probs = logits.log_softmax(1)
    if weights is not None:
        weights = _class_weights(weights, classes, logits)
    if label_smoothing == 0.0:
        picked = log_probs.gather(1, targets.reshape([batch, 1])).reshape([batch])
        if weights is None:
            return picked.mean().neg()
        sample_weights = weights.gather(0, targets)
        return (picked * sample_weights).sum().neg() / sample_weights.sum()
    classes_row = Tensor.arange(0, classes, device=targets.device()).reshape([1, classes])
    one_hot = targets.reshape([batch, 1]).equal(classes_row).float(logits.dtype)
    smoothed = (one_hot * (1.0 - label_smoothing) + label_smoothing / classes).inner()
    weighted = log_probs * smoothed.to_device(logits.device())
    if weights is None:
        return weighted.sum_dim(1).mean().neg()
    weighted = weighted * weights.reshape([1, classes])
    return weighted.sum().neg() / weights.gather(0, targets).sum()


def _class_weights(weights, classes, like):
    if not isinstance(weights, Tensor):
        weights = Tensor.from_data(np.asarray(weights, dtype=like.dtype), device=like.device())
    weights = weights.inner().to_device(like.device()).cast(like.dtype)
    if weights.shape != (classes,):
        raise ValueError(
            f"cross_entropy weights need one value per class ({classes}), got shape "
            f"{list(weights.shape)}"
        )
    if not (weights.to_numpy() > 0).all():
        raise ValueError("cross_entropy weights must be positive")
    return weights


def mse_loss(input, target, reduction: str = "mean"):
    """Mean squared error, reduced by "mean" or "sum" (burn-nn's `MseLoss`)."""
    _check_float("mse_loss's input", input)
    if input.shape != target.shape:
        raise ValueError(
            f"mse_loss needs input and target of one shape, got {list(input.shape)} and "
            f"{list(target.shape)}"
        )
    diff = input - target
    squared = diff * diff
    if reduction == "mean":
        return squared.mean()
    if reduction == "sum":
        return squared.sum()
    raise ValueError(f'mse_loss reduction must be "mean" or "sum", got {reduction!r}')


def binary_cross_entropy_with_logits(logits, targets):
    """Binary cross-entropy of `logits` against 0/1 `targets` (Int or Float) of the same shape,
    mean over every element: (1 - y)·x - log_sigmoid(x), stable for large |x| (burn-nn's
    `BinaryCrossEntropyLoss` with logits)."""
    _check_float("binary_cross_entropy_with_logits's logits", logits)
    if logits.shape != targets.shape:
        raise ValueError(
            f"binary_cross_entropy_with_logits needs logits and targets of one shape, got "
            f"{list(logits.shape)} and {list(targets.shape)}"
        )
    targets = targets.float(logits.dtype) if targets.dtype != logits.dtype else targets
    return ((1.0 - targets) * logits - logits.log_sigmoid()).mean()


# -- activations (burn-tensor's activation functions) --------------------------------------------
def relu(x):
    return x.relu()


def relu6(x):
    return x.relu6()


def leaky_relu(x, negative_slope: float = 0.01):
    return x.leaky_relu(negative_slope)


def prelu(x, alpha):
    """leaky_relu with slopes `alpha` [n]: one shared (n = 1) or one per channel, dim 1 of x."""
    _check_float("prelu's input", x)
    n = alpha.shape[0] if alpha.ndim == 1 else -1
    if n == 1:
        return x.prelu(alpha.reshape([1] * x.ndim))
    if n < 1 or x.ndim < 2 or x.shape[1] != n:
        raise ValueError(
            f"prelu needs alpha [1] or [channels] with channels = dim 1 of the input, got alpha "
            f"{list(alpha.shape)} for an input {list(x.shape)}"
        )
    return x.prelu(alpha.reshape([1, n] + [1] * (x.ndim - 2)))


def rrelu(x, lower: float = 0.125, upper: float = 1.0 / 3.0, *, training: bool = True):
    """Randomised leaky relu. In training on an autodiff device, each negative element is scaled
    by its own slope from U(lower, upper), drawn from the device's random generator; otherwise
    by the midpoint (lower + upper) / 2, as leaky_relu."""
    if not (training and x.is_autodiff()):
        return x.leaky_relu((lower + upper) / 2.0)
    slope = Tensor.random(
        list(x.shape), Distribution.uniform(lower, upper), device=x.device().inner(), dtype=x.dtype
    ).to_device(x.device())
    return x.mask_where(x.lower_elem(0.0), x * slope)


def gelu(x):
    """The exact (erf) GELU, as burn's `gelu`."""
    return x.gelu()


def gelu_approximate(x):
    """GELU's tanh approximation."""
    return x.gelu_approximate()


def sigmoid(x):
    return x.sigmoid()


def hard_sigmoid(x, alpha: float = 0.2, beta: float = 0.5):
    return x.hard_sigmoid(alpha, beta)


def log_sigmoid(x):
    return x.log_sigmoid()


def silu(x):
    return x.silu()


def hard_swish(x):
    return x.hard_swish()


def mish(x):
    return x.mish()


def softplus(x, beta: float = 1.0):
    """log(1 + exp(beta x)) / beta, finite over the whole float range (burn's formula is not)."""
    return x.softplus(beta)


def softsign(x):
    return x.softsign()


def tanh(x):
    return x.tanh()


def tanhshrink(x):
    return x.tanhshrink()


def hardtanh(x, min_val: float = -1.0, max_val: float = 1.0):
    return x.hardtanh(min_val, max_val)


def elu(x, alpha: float = 1.0):
    return x.elu(alpha)


def celu(x, alpha: float = 1.0):
    return x.celu(alpha)


def selu(x):
    return x.selu()


def threshold(x, threshold: float, value: float):
    return x.threshold(threshold, value)


def thresholded_relu(x, alpha: float = 1.0):
    return x.thresholded_relu(alpha)


def hard_shrink(x, lambd: float = 0.5):
    return x.hard_shrink(lambd)


def soft_shrink(x, lambd: float = 0.5):
    return x.soft_shrink(lambd)


def shrink(x, lambd: float = 0.5, bias: float = 0.5):
    return x.shrink(lambd, bias)


def glu(x, dim: int):
    return x.glu(dim)


def softmax(x, dim: int):
    return x.softmax(dim)


def softmin(x, dim: int):
    return x.softmin(dim)


def quiet_softmax(x, dim: int):
    """softmax with an extra zero logit: exp(x_i) / (1 + sum_j exp(x_j))."""
    return x.quiet_softmax(dim)


def log_softmax(x, dim: int):
    return x.log_softmax(dim)
