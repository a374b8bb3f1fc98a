"""Losses, activations and burn-tensor's vector functions, as functions named as burn names them.

Every loss follows its burn-nn module (`HuberLoss` is `huber_loss`, ...). `reduction` is burn's
`Reduction`: "mean", "sum" or "auto" (burn's default for the loss, "mean" for all but
`kl_div_loss`, whose "auto" is "batch_mean": the sum divided by the batch size); a reduced loss
has shape [1]. `reduction="none"` gives the unreduced loss (burn's `forward_no_reduction`).
"""

import math

import numpy as np

from burnpy.generated import Distribution, Tensor, module
from burnpy.runtime.arguments import FLOAT, INT, tensor_arg


def _same_shape(name, first, second, what=("input", "target")):
    if first.shape != second.shape:
        raise ValueError(
            f"{name} needs {what[0]} and {what[1]} of one shape, got {list(first.shape)} and "
            f"{list(second.shape)}"
        )


def _reduce(name, loss, reduction, *, allowed=("mean", "sum", "auto", "none")):
    """burn's Reduction applied to an unreduced loss; "auto" is "batch_mean" where that is
    allowed (KLDivLoss), else "mean"."""
    if reduction not in allowed:
        raise ValueError(
            f"{name}: reduction must be one of {', '.join(map(repr, allowed))}, got {reduction!r}"
        )
    if reduction == "auto":
        reduction = "batch_mean" if "batch_mean" in allowed else "mean"
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "batch_mean":
        return loss.sum() / float(loss.shape[0])
    return loss.mean()


# -- losses ------------------------------------------------------------------------------------
def cross_entropy(
    logits,
    targets,
    *,
    label_smoothing: float | None = None,
    weights=None,
    pad_tokens=None,
    logits_input: bool = True,
    ignore_index: int | None = None,
):
    """Cross-entropy of `logits` [batch, classes] against Int class `targets` [batch], mean over
    the batch, through the numerically stable log-softmax (burn-nn's `CrossEntropyLoss`).

    `ignore_index` (PyTorch's, e.g. HuggingFace's -100): samples with that target are left out,
    and the mean is over the others (with `weights`, divided by the sum of their weights), as
    torch's; NaN when every sample is ignored, as torch's.

    `label_smoothing` alpha turns the one-hot targets into (1 - alpha)·y + alpha/classes.
    `weights` (a sequence or a Float tensor of one positive weight per class) weighs each
    sample's loss; the sum is then divided by the sum of the targets' weights, as burn does.
    Samples whose target is one of `pad_tokens` count as zero (still counted in the mean, and
    their weights in the divisor, as burn does). With `logits_input=False` the input holds
    probabilities, whose log is taken instead of the log-softmax (clamped at sqrt of the
    smallest normal float, as burn does).
    """
    tensor_arg("cross_entropy", "logits", logits, FLOAT)
    tensor_arg("cross_entropy", "targets", targets, INT)
    if logits.ndim != 2 or targets.ndim != 1 or logits.shape[0] != targets.shape[0]:
        raise ValueError(
            f"cross_entropy needs logits [batch, classes] and targets [batch], got "
            f"{list(logits.shape)} and {list(targets.shape)}"
        )
    if label_smoothing is not None and not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    batch, classes = logits.shape
    simple = label_smoothing is None and weights is None and not pad_tokens
    if logits_input and simple and ignore_index is None:
        return module.cross_entropy_class_targets(logits, targets)  # one kernel each way
    kept = None  # 1.0 for the samples ignore_index leaves in
    if ignore_index is not None:
        ignored = targets.equal_elem(int(ignore_index))
        kept = ignored.bool_not().float(logits.dtype)
        targets = targets.mask_fill(ignored, 0)  # any class: its term is multiplied by 0
    if logits_input:
        log_probs = logits.log_softmax(1)
    else:
        log_probs = logits.clamp_min(math.sqrt(np.finfo(logits.dtype).tiny)).log()
    if weights is not None:
        weights = _class_weights(weights, classes, logits)
    keep = None
    if pad_tokens:
        padded = targets.equal_elem(int(pad_tokens[0]))
        for token in pad_tokens[1:]:
            padded = padded.bool_or(targets.equal_elem(int(token)))
        keep = padded.bool_not().float(logits.dtype)
    if label_smoothing is None:
        picked = log_probs.gather(1, targets.reshape([batch, 1])).reshape([batch])
        picked = picked if keep is None else picked * keep
        if weights is None:
            if kept is not None:
                return (picked * kept).sum().neg() / kept.sum()
            return picked.mean().neg()
        sample_weights = weights.gather(0, targets)
        sample_weights = sample_weights if kept is None else sample_weights * kept
        return (picked * sample_weights).sum().neg() / sample_weights.sum()
    classes_row = Tensor.arange(0, classes, device=targets.device()).reshape([1, classes])
    one_hot = targets.reshape([batch, 1]).equal(classes_row).float(logits.dtype)
    smoothed = (one_hot * (1.0 - label_smoothing) + label_smoothing / classes).inner()
    weighted = log_probs * smoothed.to_device(logits.device())
    if weights is not None:
        weighted = weighted * weights.reshape([1, classes])
    if keep is not None:
        weighted = weighted * keep.reshape([batch, 1])
    if kept is not None:
        weighted = weighted * kept.reshape([batch, 1])
    if weights is None:
        if kept is not None:
            return weighted.sum().neg() / kept.sum()
        return weighted.sum_dim(1).mean().neg()
    sample_weights = weights.gather(0, targets)
    sample_weights = sample_weights if kept is None else sample_weights * kept
    return weighted.sum().neg() / sample_weights.sum()


def _class_weights(weights, classes, like):
    if not isinstance(weights, Tensor):
        weights = Tensor.from_data(np.asarray(weights, dtype=like.dtype), device=like.device())
    weights = weights.inner().to_device(like.device()).cast(like.dtype)
    if weights.shape != (classes,):
        raise ValueError(
            f"the loss weights need one value per class ({classes}), got shape "
            f"{list(weights.shape)}"
        )
    if not (weights.to_numpy() > 0).all():
        raise ValueError("the loss weights must be positive")
    return weights


def binary_cross_entropy(
    input, targets, *, weights=None, smoothing: float | None = None, logits: bool = False
):
    """Binary cross-entropy of probabilities `input` (or logits, with `logits=True`) against
    Int 0/1 `targets` of the same shape, mean over every element (burn-nn's
    `BinaryCrossEntropyLoss`). Probabilities: -(y log p + (1 - y) log(1 - p)) with each log
    clamped at -100, as burn does; logits: (1 - y)·x - log_sigmoid(x), stable for large |x|.
    `smoothing` alpha makes targets (1 - alpha)·y + alpha/classes (classes: the last dim, or 2
    for a 1-d input). `weights`: one per class (the last dim), or for a 1-d input one per
    target value, as burn's."""
    tensor_arg("binary_cross_entropy", "input", input, FLOAT)
    _same_shape("binary_cross_entropy", input, targets, ("input", "targets"))
    if smoothing is not None and not 0.0 <= smoothing <= 1.0:
        raise ValueError(f"smoothing must be in [0, 1], got {smoothing}")
    y = targets.float(input.dtype) if targets.dtype != input.dtype else targets
    if smoothing is not None:
        classes = input.shape[-1] if input.ndim > 1 else 2
        y = y * (1.0 - smoothing) + smoothing / classes
    if logits:
        loss = (1.0 - y) * input - input.log_sigmoid()
    else:
        loss = (y - 1.0) * input.neg().log1p().clamp_min(-100.0) - y * input.log().clamp_min(-100.0)
    if weights is not None:
        if input.ndim > 1:
            loss = loss * _class_weights(weights, input.shape[-1], input)
        else:
            tensor_arg("binary_cross_entropy", "targets (with 1-d weights)", targets, INT)
            count = weights.shape[0] if isinstance(weights, Tensor) else len(weights)
            per_value = _class_weights(weights, count, input)
            loss = loss * per_value.gather(0, targets.reshape([-1]))
    return loss.mean()


def binary_cross_entropy_with_logits(logits, targets):
    """`binary_cross_entropy(logits, targets, logits=True)`; the targets may be Float too."""
    tensor_arg("binary_cross_entropy_with_logits", "logits", logits, FLOAT)
    _same_shape("binary_cross_entropy_with_logits", logits, targets, ("logits", "targets"))
    targets = targets.float(logits.dtype) if targets.dtype != logits.dtype else targets
    return ((1.0 - targets) * logits - logits.log_sigmoid()).mean()


def mse_loss(input, target, reduction: str = "auto"):
    """(input - target)² (burn-nn's `MseLoss`)."""
    tensor_arg("mse_loss", "input", input, FLOAT)
    _same_shape("mse_loss", input, target)
    diff = input - target
    return _reduce("mse_loss", diff * diff, reduction)


def lp_loss(predictions, targets, p: float, *, reduction: str = "auto"):
    """|predictions - targets|^p (burn-nn's `LpLoss`; p = 1 is the L1 loss, p = 2 squared
    error)."""
    tensor_arg("lp_loss", "predictions", predictions, FLOAT)
    _same_shape("lp_loss", predictions, targets, ("predictions", "targets"))
    if not p > 0:
        raise ValueError(f"lp_loss: the order of the norm p must be positive, got {p}")
    error = predictions - targets
    if p == 1.0:
        loss = error.abs()
    elif p == 2.0:
        loss = error * error
    else:
        loss = error.abs().powf(float(p))
    return _reduce("lp_loss", loss, reduction)


def l1_loss(predictions, targets, *, reduction: str = "auto"):
    return lp_loss(predictions, targets, 1.0, reduction=reduction)


def huber_loss(predictions, targets, delta: float, *, reduction: str = "auto"):
    """Huber loss of the residuals r = targets - predictions: r²/2 where |r| <= delta, else
    delta·(|r| - delta/2) (burn-nn's `HuberLoss`)."""
    tensor_arg("huber_loss", "predictions", predictions, FLOAT)
    _same_shape("huber_loss", predictions, targets, ("predictions", "targets"))
    if not delta >= 0:
        raise ValueError(f"huber_loss: delta must be a non-negative number, got {delta}")
    residuals = targets - predictions
    is_large = residuals.abs().greater_elem(delta)
    # clamp(r, ±delta)·r is delta·|r| outside the bound, without sign()'s jump at 0
    outside = residuals.clamp(-delta, delta) * residuals - delta * delta * 0.5
    inside = residuals * residuals * 0.5
    return _reduce("huber_loss", inside.mask_where(is_large, outside), reduction)


def smooth_l1_loss(predictions, targets, *, beta: float = 1.0, reduction: str = "auto"):
    """0.5·e²/beta where |e| < beta, else |e| - beta/2, e = predictions - targets (burn-nn's
    `SmoothL1Loss`)."""
    tensor_arg("smooth_l1_loss", "predictions", predictions, FLOAT)
    _same_shape("smooth_l1_loss", predictions, targets, ("predictions", "targets"))
    if not beta > 0:
        raise ValueError(f"smooth_l1_loss: beta must be positive, got {beta}")
    error = predictions - targets
    abs_error = error.abs()
    l2 = error * error * (0.5 / beta)
    loss = (abs_error - 0.5 * beta).mask_where(abs_error.lower_elem(beta), l2)
    return _reduce("smooth_l1_loss", loss, reduction)


def kl_div_loss(predictions, targets, *, log_target: bool = False, reduction: str = "auto"):
    """Kullback-Leibler divergence of log-probabilities `predictions` from `targets`
    (probabilities, or log-probabilities with `log_target`): y·(log y - x), the log of y
    clamped at the smallest normal float (burn-nn's `KLDivLoss`). "auto" is "batch_mean"."""
    tensor_arg("kl_div_loss", "predictions", predictions, FLOAT)
    _same_shape("kl_div_loss", predictions, targets, ("predictions", "targets"))
    if log_target:
        loss = targets.exp() * (targets - predictions)
    else:
        log_y = targets.clamp(float(np.finfo(targets.dtype).tiny), 1.0).log()
        loss = targets * (log_y - predictions)
    return _reduce(
        "kl_div_loss", loss, reduction, allowed=("batch_mean", "mean", "sum", "auto", "none")
    )


def gaussian_nll_loss(
    input, target, var, *, eps: float = 1e-6, full: bool = False, reduction: str = "auto"
):
    """0.5·(log v + (input - target)²/v), v = var clamped at `eps`; with `full`, plus
    log(2π)/2 (burn-nn's `GaussianNLLLoss`)."""
    tensor_arg("gaussian_nll_loss", "input", input, FLOAT)
    _same_shape("gaussian_nll_loss", input, target)
    _same_shape("gaussian_nll_loss", input, var, ("input", "var"))
    var = var.clamp_min(eps)
    diff = input - target
    loss = (var.log() + diff * diff / var) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2.0 * math.pi)
    return _reduce("gaussian_nll_loss", loss, reduction)


def poisson_nll_loss(
    predictions,
    targets,
    *,
    log_input: bool = True,
    full: bool = False,
    eps: float = 1e-8,
    reduction: str = "auto",
):
    """Poisson negative log-likelihood: exp(x) - y·x for log-rate predictions (`log_input`),
    else x - y·log(x + eps); with `full`, plus Stirling's y log y - y + log(2πy)/2 where y > 1
    (burn-nn's `PoissonNllLoss`). Targets must be non-negative, and so must the predictions
    without `log_input`."""
    tensor_arg("poisson_nll_loss", "predictions", predictions, FLOAT)
    _same_shape("poisson_nll_loss", predictions, targets, ("predictions", "targets"))
    if not eps > 0:
        raise ValueError(f"poisson_nll_loss: eps must be a positive number, got {eps}")
    if not targets.greater_equal_elem(0.0).all().item():
        raise ValueError("poisson_nll_loss: all the values of `targets` must be non-negative")
    if not log_input and not predictions.greater_equal_elem(0.0).all().item():
        raise ValueError(
            "poisson_nll_loss: with log_input=False, all the values of `predictions` must be "
            "non-negative (they are rates, not log-rates)"
        )
    if log_input:
        loss = predictions.exp() - targets * predictions
    else:
        loss = predictions - targets * (predictions + eps).log()
    if full:
        # Stirling's term where y > 1; the clamp keeps log() off 0 where it is masked anyway.
        y = targets.clamp_min(1.0)
        stirling = y * y.log() - y + (y * (2.0 * math.pi)).log() * 0.5
        loss = loss + stirling.mask_fill(targets.lower_equal_elem(1.0), 0.0)
    return _reduce("poisson_nll_loss", loss, reduction)


def hinge_embedding_loss(input, target, *, margin: float = 1.0, reduction: str = "auto"):
    """x where the target is 1, else max(0, margin - x) (targets ±1; burn-nn's
    `HingeEmbeddingLoss`)."""
    tensor_arg("hinge_embedding_loss", "input", input, FLOAT)
    _same_shape("hinge_embedding_loss", input, target)
    negative = (margin - input).clamp_min(0.0)
    loss = negative.mask_where(target.equal_elem(1), input)
    return _reduce("hinge_embedding_loss", loss, reduction)


def margin_ranking_loss(first, second, target, *, margin: float = 0.0, reduction: str = "auto"):
    """max(0, -y·(first - second) + margin), targets ±1 (burn-nn's `MarginRankingLoss`)."""
    tensor_arg("margin_ranking_loss", "first", first, FLOAT)
    _same_shape("margin_ranking_loss", first, second, ("first", "second"))
    _same_shape("margin_ranking_loss", first, target, ("first", "target"))
    if not margin >= 0:
        raise ValueError(f"margin_ranking_loss: margin must be non-negative, got {margin}")
    loss = (margin - target * (first - second)).relu()
    return _reduce("margin_ranking_loss", loss, reduction)


def soft_margin_loss(logits, targets, *, reduction: str = "auto"):
    """log(1 + exp(-y·x)), targets ±1, through the stable softplus (burn-nn's
    `SoftMarginLoss`)."""
    tensor_arg("soft_margin_loss", "logits", logits, FLOAT)
    _same_shape("soft_margin_loss", logits, targets, ("logits", "targets"))
    return _reduce("soft_margin_loss", (targets * logits).neg().softplus(1.0), reduction)


def multi_margin_loss(input, target, *, margin: float = 1.0, p: int = 1, reduction: str = "auto"):
    """Multi-class hinge loss of scores `input` [batch, classes] for Int `target` [batch]:
    sum over the classes i != y of max(0, margin - x_y + x_i)^p, divided by the number of
    classes (burn-nn's `MultiMarginLoss`; p is 1 or 2)."""
    tensor_arg("multi_margin_loss", "input", input, FLOAT)
    tensor_arg("multi_margin_loss", "target", target, INT)
    if input.ndim != 2 or target.shape != (input.shape[0],):
        raise ValueError(
            f"multi_margin_loss needs input [batch, classes] and target [batch], got "
            f"{list(input.shape)} and {list(target.shape)}"
        )
    if not margin >= 0:
        raise ValueError(f"multi_margin_loss: margin must be non-negative, got {margin}")
    if p not in (1, 2):
        raise ValueError(f"multi_margin_loss only supports p = 1 or p = 2, got {p}")
    batch, classes = input.shape
    correct = input.gather(1, target.reshape([batch, 1]))
    hinge = (input - correct + margin).clamp_min(0.0)
    summed = (hinge if p == 1 else hinge * hinge).sum_dim(1)
    # the target class itself adds margin^p: taken out again, as burn does
    per_sample = (summed - float(margin) ** p).reshape([batch]) * (1.0 / classes)
    return _reduce("multi_margin_loss", per_sample, reduction)


def cosine_embedding_loss(input1, input2, target, *, margin: float = 0.0, reduction: str = "mean"):
    """1 - cos(x1, x2) for Int targets 1, max(0, cos(x1, x2) - margin) for -1, 0 for any other
    target; inputs [batch, features] (burn-nn's `CosineEmbeddingLoss`)."""
    tensor_arg("cosine_embedding_loss", "input1", input1, FLOAT)
    tensor_arg("cosine_embedding_loss", "target", target, INT)
    if input1.ndim != 2 or input1.shape != input2.shape or target.shape != (input1.shape[0],):
        raise ValueError(
            "cosine_embedding_loss needs input1 and input2 [batch, features] and target "
            f"[batch], got {list(input1.shape)}, {list(input2.shape)} and {list(target.shape)}"
        )
    cos = cosine_similarity(input1, input2, 1).reshape([input1.shape[0]])
    loss = cos.zeros_like()
    loss = loss.mask_where(target.equal_elem(1), 1.0 - cos)
    loss = loss.mask_where(target.equal_elem(-1), (cos - margin).relu())
    return _reduce("cosine_embedding_loss", loss, reduction)


def triplet_margin_loss(
    anchor, positive, negative, *, margin: float = 1.0, p: float = 2.0, reduction: str = "auto"
):
    """max(0, |a - pos|_p - |a - neg|_p + margin) per row of [batch, features] inputs
    (burn-nn's `TripletMarginLoss`)."""
    tensor_arg("triplet_margin_loss", "anchor", anchor, FLOAT)
    if anchor.ndim != 2 or anchor.shape != positive.shape or anchor.shape != negative.shape:
        raise ValueError(
            "triplet_margin_loss needs anchor, positive and negative of one shape [batch, "
            f"features], got {list(anchor.shape)}, {list(positive.shape)} and "
            f"{list(negative.shape)}"
        )
    to_positive = lp_norm(anchor - positive, p, 1)
    to_negative = lp_norm(anchor - negative, p, 1)
    loss = (to_positive - to_negative + margin).clamp_min(0.0).reshape([anchor.shape[0]])
    return _reduce("triplet_margin_loss", loss, reduction)


def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    *,
    blank: int = 0,
    zero_infinity: bool = False,
    reduction: str = "none",
):
    """Connectionist Temporal Classification loss of `log_probs` [time, batch, classes]
    (log-softmax outputs) for Int `targets` [batch, max_target_length] (padded, no blank) of
    `target_lengths` [batch], the inputs being `input_lengths` [batch] long (burn-nn's
    `CTCLoss`). Unreduced by default, a loss per sample; "mean" divides each by its target
    length before the mean, as burn and PyTorch do. `zero_infinity` zeroes infinite losses
    (impossible alignments) and their gradients."""
    tensor_arg("ctc_loss", "log_probs", log_probs, FLOAT)
    for name, tensor in (
        ("targets", targets),
        ("input_lengths", input_lengths),
        ("target_lengths", target_lengths),
    ):
        tensor_arg("ctc_loss", name, tensor, INT)
    if log_probs.ndim != 3 or targets.ndim != 2:
        raise ValueError(
            f"ctc_loss needs log_probs [time, batch, classes] and targets [batch, length], got "
            f"{list(log_probs.shape)} and {list(targets.shape)}"
        )
    time, batch, classes = log_probs.shape
    if not 0 <= blank < classes:
        raise ValueError(f"ctc_loss: blank index {blank} must be less than num_classes {classes}")
    if (
        targets.shape[0] != batch
        or input_lengths.shape != (batch,)
        or target_lengths.shape != (batch,)
    ):
        raise ValueError(
            f"ctc_loss: targets {list(targets.shape)}, input_lengths "
            f"{list(input_lengths.shape)} and target_lengths {list(target_lengths.shape)} must "
            f"all have the batch size {batch} first"
        )
    inputs_n, targets_n = input_lengths.to_numpy(), target_lengths.to_numpy()
    for i, (il, tl) in enumerate(zip(inputs_n, targets_n)):
        if not 0 <= tl <= targets.shape[1] or not tl <= il <= time:
            raise ValueError(
                f"ctc_loss: sample {i} has input length {il} and target length {tl}; they need "
                f"0 <= target length <= {targets.shape[1]} (the targets' width) and target "
                f"length <= input length <= {time} (the time steps)"
            )
    loss = module.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:
        loss = loss.mask_fill(loss.is_inf(), 0.0)
    allowed = ("none", "mean", "sum", "auto")
    if reduction in ("mean", "auto"):
        lengths = target_lengths.float(loss.dtype).inner().to_device(loss.device())
        return (loss / lengths).mean()
    return _reduce("ctc_loss", loss, reduction, allowed=allowed)


def rnnt_loss(
    logits,
    targets,
    logit_lengths,
    target_lengths,
    *,
    blank: int = 0,
    logits_input: bool = True,
    reduction: str = "none",
):
    """RNN-Transducer loss of the joiner's `logits` [batch, time, max_target + 1, vocab] (or
    log-probabilities, `logits_input=False`) for Int `targets` [batch, max_target] (no blank)
    of `target_lengths`, over `logit_lengths` time steps: minus the log of the sum over every
    alignment of the (time, label) lattice, by the forward (alpha) recursion in log space
    (burn-nn's `RNNTLoss`). Unreduced by default: a loss per sample."""
    tensor_arg("rnnt_loss", "logits", logits, FLOAT)
    for name, tensor in (
        ("targets", targets),
        ("logit_lengths", logit_lengths),
        ("target_lengths", target_lengths),
    ):
        tensor_arg("rnnt_loss", name, tensor, INT)
    if logits.ndim != 4 or targets.ndim != 2:
        raise ValueError(
            "rnnt_loss needs logits [batch, time, max_target + 1, vocab] and targets [batch, "
            f"max_target], got {list(logits.shape)} and {list(targets.shape)}"
        )
    batch, time, u_plus_1, vocab = logits.shape
    if not 0 <= blank < vocab:
        raise ValueError(f"rnnt_loss: blank index {blank} must be less than vocab_size {vocab}")
    if targets.shape != (batch, u_plus_1 - 1):
        raise ValueError(
            f"rnnt_loss: targets {list(targets.shape)} must be [batch_size {batch}, "
            f"max_target_len {u_plus_1 - 1}] (the logits' third dim minus one)"
        )
    for name, tensor in (("logit_lengths", logit_lengths), ("target_lengths", target_lengths)):
        if tensor.shape != (batch,):
            raise ValueError(
                f"rnnt_loss: {name} length {tensor.shape[0] if tensor.ndim else 0} must equal "
                f"batch_size {batch}"
            )
    steps, labels = logit_lengths.to_numpy(), target_lengths.to_numpy()
    if (
        (steps < 1).any()
        or (steps > time).any()
        or (labels < 0).any()
        or (labels > u_plus_1 - 1).any()
    ):
        raise ValueError(
            f"rnnt_loss: logit_lengths {steps.tolist()} must be in [1, {time}] and "
            f"target_lengths {labels.tolist()} in [0, {u_plus_1 - 1}]"
        )
    log_probs = logits.log_softmax(3) if logits_input else logits
    blank_lp = log_probs.narrow(3, blank, 1).reshape([batch, time, u_plus_1])
    index = targets.reshape([batch, 1, u_plus_1 - 1, 1]).expand([batch, time, u_plus_1 - 1, 1])
    label_lp = log_probs.narrow(2, 0, u_plus_1 - 1).gather(3, index)
    label_lp = label_lp.reshape([batch, time, u_plus_1 - 1])
    device = logits.device()
    inner = device.inner()

    def constant(array, dtype=None):
        return Tensor.from_data(array, device=inner, dtype=dtype).to_device(device)

    beyond_target = constant(np.arange(u_plus_1)[None, :] > labels[:, None])
    neg_inf = Tensor.full([batch, 1], -math.inf, device=inner, dtype=logits.dtype)
    neg_inf = neg_inf.to_device(device)
    # t = 0: only label emissions, alpha(0, u) = sum of the first u label log-probs
    first = Tensor.cat([neg_inf.zeros_like(), label_lp.narrow(1, 0, 1).reshape([batch, -1])], 1)
    alpha = first.cumsum(1).mask_fill(beyond_target, -math.inf)
    for t in range(1, time):
        from_blank = alpha + blank_lp.narrow(1, t - 1, 1).reshape([batch, u_plus_1])
        label_t = label_lp.narrow(1, t, 1).reshape([batch, u_plus_1 - 1])
        columns = [from_blank.narrow(1, 0, 1)]
        for u in range(1, u_plus_1):
            via_label = columns[-1] + label_t.narrow(1, u - 1, 1)
            columns.append(_log_add_exp(from_blank.narrow(1, u, 1), via_label))
        new = Tensor.cat(columns, 1).mask_fill(beyond_target, -math.inf)
        # samples whose sequence has ended keep their alpha
        alpha = alpha.mask_where(constant(np.repeat((steps > t)[:, None], u_plus_1, 1)), new)
    at_end = alpha.gather(1, constant(labels.reshape(batch, 1).astype(np.int64))).reshape([batch])
    flat_index = ((steps - 1) * u_plus_1 + labels).reshape(batch, 1).astype(np.int64)
    last_blank = blank_lp.reshape([batch, time * u_plus_1]).gather(1, constant(flat_index))
    loss = (at_end + last_blank.reshape([batch])).neg()
    return _reduce("rnnt_loss", loss, reduction)


def _log_add_exp(a, b):
    """log(exp(a) + exp(b)), -inf where both are, with finite gradients at -inf inputs."""
    a_inf, b_inf = a.equal_elem(-math.inf), b.equal_elem(-math.inf)
    a_safe, b_safe = a.mask_fill(a_inf, 0.0), b.mask_fill(b_inf, 0.0)
    result = a_safe.max_pair(b_safe) + (a_safe - b_safe).abs().neg().exp().log1p()
    return result.mask_where(a_inf, b).mask_where(b_inf, a)


# -- burn-tensor's vector functions (linalg) -----------------------------------------------------
def lp_norm(x, p: float, dim: int):
    """The p-norm along `dim`, kept as a size-1 dim: p = inf is the max |x|, -inf the min |x|,
    0 the count of non-zeros."""
    if p == 0:
        return x.not_equal_elem(0.0).float(x.dtype).sum_dim(dim)
    if p == 1:
        return x.abs().sum_dim(dim)
    if p == 2:
        return (x * x).sum_dim(dim).sqrt()
    if p == math.inf:
        return x.abs().max_dim(dim)
    if p == -math.inf:
        return x.abs().min_dim(dim)
    return x.abs().powf(float(p)).sum_dim(dim).powf(1.0 / p)


def cosine_similarity(x1, x2, dim: int = 1, eps: float | None = None):
    """x1·x2 / (max(|x1|, eps)·max(|x2|, eps)) along `dim`, kept as a size-1 dim; `eps`
    defaults to the smallest normal float of the dtype, as burn's."""
    _same_shape("cosine_similarity", x1, x2, ("x1", "x2"))
    eps = float(np.finfo(x1.dtype).tiny) if eps is None else eps
    dot = (x1 * x2).sum_dim(dim)
    return dot / (lp_norm(x1, 2, dim).clamp_min(eps) * lp_norm(x2, 2, dim).clamp_min(eps))


def pairwise_distance(x1, x2, *, p: float = 2.0, eps: float = 1e-6):
    """|x1 - x2 + eps|_p per row of [batch, features] inputs: [batch] (burn-nn's
    `PairwiseDistance`)."""
    _same_shape("pairwise_distance", x1, x2, ("x1", "x2"))
    if x1.ndim != 2:
        raise ValueError(f"pairwise_distance needs [batch, features] inputs, got {list(x1.shape)}")
    return lp_norm(x1 - x2 + eps, p, 1).reshape([x1.shape[0]])


# -- activations (burn-tensor's activation functions) --------------------------------------------
def relu(x):
    return x.relu()


def relu6(x):
    return x.relu6()


def leaky_relu(x, negative_slope: float = 0.01):
    return x.leaky_relu(negative_slope)


def prelu(x, alpha):
    """leaky_relu with slopes `alpha` [n]: one shared (n = 1) or one per channel, dim 1 of x."""
    tensor_arg("prelu", "input", x, FLOAT)
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
