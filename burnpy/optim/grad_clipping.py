"""burn-optim's gradient clipping, applied to each parameter's gradient on its own."""

import numpy as np


def clip_by_value(grad, threshold: float):
    """Values above `threshold` become `threshold`, below `-threshold` become `-threshold`."""
    clipped = grad.mask_fill(grad.greater_elem(threshold), threshold)
    return clipped.mask_fill(grad.lower_elem(-threshold), -threshold)


def clip_by_norm(grad, threshold: float):
    """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest positive
    normal)): one norm per parameter, not a global norm."""
    norm = (grad * grad).sum().sqrt()
    coef = (norm + float(np.finfo(grad.dtype).tiny)).recip() * threshold
    return grad * coef.clamp_max(1.0)
