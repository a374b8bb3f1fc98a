"""Losses and activations as functions, named as burn names them.

The losses follow burn-nn's `CrossEntropyLoss`, `MseLoss` and `BinaryCrossEntropyLoss`; each
returns a tensor of shape [1].
"""

import numpy as np

from generated import Tensor
from runtime.arguments import FLOAT, INT, tensor_arg


def cross_entropy(logits, targets, *, label_smoothing: float = 0.0, weights=None):
    """Cross-entropy of `logits` [batch, classes] against Int class `targets` [batch], mean over
    the batch, through the numerically stable log-softmax (burn-nn's `CrossEntropyLoss`).

    `label_smoothing` alpha turns the one-hot targets into (1 - alpha)·y + alpha/classes.
    `weights` (a sequence or a Float tensor of one positive weight per class) weighs each
    sample's loss; the sum is then divided by the sum of the targets' weights, as burn does.
    """
    tensor_arg("cross_entropy", "logits", logits, FLOAT)
    tensor_arg("cross_entropy", "targets", targets, INT)  # class indices
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
    tensor_arg("mse_loss", "input", input, FLOAT)
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
    tensor_arg("binary_cross_entropy_with_logits", "logits", logits, FLOAT)
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


def gelu(x):
    """The exact (erf) GELU, as burn's `gelu`."""
    return x.gelu()


def sigmoid(x):
    return x.sigmoid()


def tanh(x):
    return x.tanh()


def leaky_relu(x, negative_slope: float = 0.01):
    return x.leaky_relu(negative_slope)


def silu(x):
    return x.silu()


def log_sigmoid(x):
    return x.log_sigmoid()


def softmax(x, dim: int):
    return x.softmax(dim)


def log_softmax(x, dim: int):
    return x.log_softmax(dim)
