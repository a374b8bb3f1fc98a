"""burn-nn's losses as modules: the config fields are constructor arguments (required ones
positional, the rest keyword with burn's defaults), `forward` takes burn's tensors and, where
burn's does, `reduction` ("mean", "sum" or "auto"), and `forward_no_reduction` gives the
unreduced loss. Each calls its function in `burnpy.nn.functional`."""

import numpy as np

from burnpy.generated import Tensor
from burnpy.nn import functional as F
from burnpy.nn.module import Module


class _Loss(Module):
    """A loss with scalar settings: `_settings` names them, for repr and for the function."""

    _settings = ()

    def _set(self, **settings):
        for name, value in settings.items():
            setattr(self, name, value)

    def _options(self):
        return {name: getattr(self, name) for name in self._settings}

    def extra_repr(self):
        return ", ".join(f"{name}={getattr(self, name)!r}" for name in self._settings)


class _ElementwiseLoss(_Loss):
    """forward(predictions, targets, reduction="auto") over tensors of one shape."""

    _function = None

    def forward(self, predictions, targets, reduction: str = "auto"):
        return type(self)._function(predictions, targets, **self._options(), reduction=reduction)

    def forward_no_reduction(self, predictions, targets):
        return self.forward(predictions, targets, "none")


class MseLoss(_ElementwiseLoss):
    """(logits - targets)²."""

    _function = staticmethod(F.mse_loss)


class LpLoss(_ElementwiseLoss):
    """|predictions - targets|^p; `LpLoss.l1()` and `LpLoss.l2()` are p = 1 and 2."""

    _settings = ("p",)
    _function = staticmethod(F.lp_loss)

    def __init__(self, p: float):
        super().__init__()
        if not p > 0:
            raise ValueError(f"LpLoss: the order of the norm p must be positive, got {p}")
        self._set(p=float(p))

    @classmethod
    def l1(cls):
        return cls(1.0)

    @classmethod
    def l2(cls):
        return cls(2.0)

    def forward_reduce_dims(self, predictions, targets, dims):
        """The unreduced loss averaged over `dims` (kept as size-1 dims)."""
        return self.forward_no_reduction(predictions, targets).mean_dims(list(dims))


class HuberLoss(_ElementwiseLoss):
    """r²/2 where |r| <= delta, else delta·(|r| - delta/2), r = targets - predictions."""

    _settings = ("delta",)
    _function = staticmethod(F.huber_loss)

    def __init__(self, delta: float):
        super().__init__()
        if not delta >= 0:
            raise ValueError(f"Delta for Huber loss must be a non-negative number, got {delta}")
        self._set(delta=float(delta))

    @property
    def lin_bias(self):
        """delta²/2, burn's precomputed offset of the linear part."""
        return self.delta * self.delta * 0.5


class SmoothL1Loss(_Loss):
    """0.5·e²/beta where |e| < beta, else |e| - beta/2. As burn's, `forward` is unreduced and
    `forward_with_reduction` reduces."""

    _settings = ("beta",)

    def __init__(self, *, beta: float = 1.0):
        super().__init__()
        if not beta > 0:
            raise ValueError(f"SmoothL1Loss: the parameter beta must be positive, got {beta}")
        self._set(beta=float(beta))

    def forward(self, predictions, targets):
        return self.forward_with_reduction(predictions, targets, "none")

    def forward_with_reduction(self, predictions, targets, reduction: str = "auto"):
        return F.smooth_l1_loss(predictions, targets, beta=self.beta, reduction=reduction)

    def forward_reduce_dims(self, predictions, targets, dims):
        return self.forward(predictions, targets).mean_dims(list(dims))


class KLDivLoss(_ElementwiseLoss):
    """y·(log y - x) for log-probabilities x; `reduction` also takes "batch_mean", which
    "auto" means here."""

    _settings = ("log_target",)
    _function = staticmethod(F.kl_div_loss)

    def __init__(self, *, log_target: bool = False):
        super().__init__()
        self._set(log_target=bool(log_target))


class PoissonNllLoss(_ElementwiseLoss):
    _settings = ("log_input", "full", "eps")
    _function = staticmethod(F.poisson_nll_loss)

    def __init__(self, *, log_input: bool = True, full: bool = False, eps: float = 1e-8):
        super().__init__()
        if not eps > 0:
            raise ValueError(f"eps for PoissonNllLoss must be a positive number, got {eps}")
        self._set(log_input=bool(log_input), full=bool(full), eps=float(eps))


class HingeEmbeddingLoss(_ElementwiseLoss):
    """x where the target is 1, else max(0, margin - x)."""

    _settings = ("margin",)
    _function = staticmethod(F.hinge_embedding_loss)

    def __init__(self, *, margin: float = 1.0):
        super().__init__()
        self._set(margin=float(margin))


class SoftMarginLoss(_ElementwiseLoss):
    """log(1 + exp(-y·x)), targets ±1."""

    _function = staticmethod(F.soft_margin_loss)


class GaussianNLLLoss(_Loss):
    _settings = ("eps", "full")

    def __init__(self, *, eps: float = 1e-6, full: bool = False):
        super().__init__()
        self._set(eps=float(eps), full=bool(full))

    def forward(self, input, target, var, reduction: str = "auto"):
        return F.gaussian_nll_loss(input, target, var, **self._options(), reduction=reduction)

    def forward_no_reduction(self, input, target, var):
        return self.forward(input, target, var, "none")


class MarginRankingLoss(_Loss):
    """max(0, -y·(first - second) + margin)."""

    _settings = ("margin",)

    def __init__(self, *, margin: float = 0.0):
        super().__init__()
        if not margin >= 0:
            raise ValueError(
                f"Margin for margin ranking loss must be a non-negative number, got {margin}"
            )
        self._set(margin=float(margin))

    def forward(self, first, second, target, reduction: str = "auto"):
        return F.margin_ranking_loss(first, second, target, margin=self.margin, reduction=reduction)

    def forward_no_reduction(self, first, second, target):
        return self.forward(first, second, target, "none")


class MultiMarginLoss(_Loss):
    _settings = ("margin", "p")

    def __init__(self, *, margin: float = 1.0, p: int = 1):
        super().__init__()
        if not margin >= 0:
            raise ValueError(f"Margin for multi margin loss must be non-negative, got {margin}")
        if p not in (1, 2):
            raise ValueError(f"Multi margin loss only supports p = 1 or p = 2, got {p}")
        self._set(margin=float(margin), p=int(p))

    def forward(self, input, target, reduction: str = "auto"):
        return F.multi_margin_loss(input, target, **self._options(), reduction=reduction)

    def forward_no_reduction(self, input, target):
        return self.forward(input, target, "none")


class TripletMarginLoss(_Loss):
    _settings = ("margin", "p")

    def __init__(self, *, margin: float = 1.0, p: float = 2.0):
        super().__init__()
        self._set(margin=float(margin), p=float(p))

    def forward(self, anchor, positive, negative, reduction: str = "auto"):
        return F.triplet_margin_loss(
            anchor, positive, negative, **self._options(), reduction=reduction
        )

    def forward_no_reduction(self, anchor, positive, negative):
        return self.forward(anchor, positive, negative, "none")


class CosineEmbeddingLoss(_Loss):
    """1 - cos for targets 1, max(0, cos - margin) for -1; the reduction is a setting here,
    as in burn's config."""

    _settings = ("margin", "reduction")

    def __init__(self, *, margin: float = 0.0, reduction: str = "mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "auto"):
            raise ValueError(
                f"CosineEmbeddingLoss: reduction must be 'mean', 'sum' or 'auto', got {reduction!r}"
            )
        self._set(margin=float(margin), reduction=reduction)

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, **self._options())

    def forward_no_reduction(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction="none")


class CTCLoss(_Loss):
    """forward: the loss per sample [batch]; forward_with_reduction: "mean" divides each by its
    target length first."""

    _settings = ("blank", "zero_infinity")

    def __init__(self, *, blank: int = 0, zero_infinity: bool = False):
        super().__init__()
        self._set(blank=int(blank), zero_infinity=bool(zero_infinity))

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, **self._options())

    def forward_with_reduction(
        self, log_probs, targets, input_lengths, target_lengths, reduction: str = "auto"
    ):
        return F.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            **self._options(),
            reduction=reduction,
        )


class RNNTLoss(_Loss):
    """forward: the RNN-Transducer loss per sample [batch] of logits [batch, time, max_target
    + 1, vocab] (log-probabilities with `logits=False`); forward_with_reduction reduces."""

    _settings = ("blank", "logits")

    def __init__(self, *, blank: int = 0, logits: bool = True):
        super().__init__()
        self._set(blank=int(blank), logits=bool(logits))

    def forward(self, logits, targets, logit_lengths, target_lengths):
        return self.forward_with_reduction(logits, targets, logit_lengths, target_lengths, "none")

    def forward_with_reduction(
        self, logits, targets, logit_lengths, target_lengths, reduction: str = "auto"
    ):
        return F.rnnt_loss(
            logits,
            targets,
            logit_lengths,
            target_lengths,
            blank=self.blank,
            logits_input=self.logits,
            reduction=reduction,
        )


class _WeightedLoss(_Loss):
    """The class weights of cross-entropy losses: positive, one per class."""

    def _init_weights(self, weights, smoothing, device):
        if smoothing is not None and not 0.0 <= smoothing <= 1.0:
            raise ValueError(
                "Alpha of Cross-entropy loss with smoothed labels should be in interval [0, 1]. "
                f"Got {smoothing}"
            )
        if weights is not None and not (np.asarray(weights, dtype=np.float64) > 0).all():
            raise ValueError("Weights of cross-entropy have to be positive.")
        if weights is not None:
            weights = Tensor.from_data(np.asarray(weights, dtype=np.float32), device=device)
        self.register_buffer("weights", weights)
        self.smoothing = smoothing

    def extra_repr(self):
        weights = None if self.weights is None else self.weights.to_numpy().tolist()
        return f"weights={weights}, smoothing={self.smoothing}, logits={self.logits}"


class CrossEntropyLoss(_WeightedLoss):
    """Cross-entropy of logits [batch, classes] (or probabilities, `logits=False`) for Int
    targets [batch]; `pad_tokens` are target values that count as zero. burn's
    `CrossEntropyLoss::new(pad_index, device)` is `CrossEntropyLoss(pad_tokens=[pad_index])`.
    `ignore_index` leaves out the samples with that target, as PyTorch's (see
    `functional.cross_entropy`)."""

    def __init__(
        self,
        *,
        pad_tokens=None,
        weights=None,
        smoothing=None,
        logits=True,
        ignore_index=None,
        device=None,
    ):
        super().__init__()
        self._init_weights(weights, smoothing, device)
        self.pad_tokens = None if pad_tokens is None else [int(t) for t in pad_tokens]
        self.logits = bool(logits)
        self.ignore_index = None if ignore_index is None else int(ignore_index)

    def forward(self, logits, targets):
        weights = None if self.weights is None else self.weights.cast(logits.dtype)
        return F.cross_entropy(
            logits,
            targets,
            label_smoothing=self.smoothing,
            weights=weights,
            pad_tokens=self.pad_tokens,
            logits_input=self.logits,
            ignore_index=self.ignore_index,
        )

    def extra_repr(self):
        head = f"pad_tokens={self.pad_tokens}, "
        if self.ignore_index is not None:
            head += f"ignore_index={self.ignore_index}, "
        return head + super().extra_repr()


class BinaryCrossEntropyLoss(_WeightedLoss):
    """Binary cross-entropy of probabilities (or logits, `logits=True`) for Int 0/1 targets of
    the same shape, mean over every element."""

    def __init__(self, *, weights=None, smoothing=None, logits=False, device=None):
        super().__init__()
        self._init_weights(weights, smoothing, device)
        self.logits = bool(logits)

    def forward(self, logits, targets):
        weights = None if self.weights is None else self.weights.cast(logits.dtype)
        return F.binary_cross_entropy(
            logits, targets, weights=weights, smoothing=self.smoothing, logits=self.logits
        )
