"""burn-tensor's loss functions (burn_tensor::loss), composed of Tensor methods so that they
differentiate and run on every backend. burn-nn's loss modules are another layer (burnpy.nn)."""

from burnpy.runtime.arguments import FLOAT
from burnpy.runtime.composed import checks

__all__ = ["cross_entropy_with_logits"]


def cross_entropy_with_logits(logits, target_probs):
    """The mean over the leading dims of -sum(target_probs * log_softmax(logits)) along the last
    dim: a [1] tensor. `target_probs` are probabilities (e.g. one-hot rows), not class indices.
    """
    checks.kind("cross_entropy_with_logits", logits, (FLOAT,))
    checks.kind("cross_entropy_with_logits", target_probs, (FLOAT,))
    if logits.shape != target_probs.shape:
        raise ValueError(
            f"cross_entropy_with_logits: logits {list(logits.shape)} and target_probs "
            f"{list(target_probs.shape)} must have the same shape"
        )
    checks.rank_at_least("cross_entropy_with_logits", logits, 1)
    log_probs = logits.log_softmax(logits.ndim - 1)
    return log_probs.mul(target_probs).sum_dim(logits.ndim - 1).mean().neg()
