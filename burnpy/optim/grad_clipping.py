"""Gradient clipping: burn-optim's, applied to each parameter's gradient on its own, and
PyTorch's `clip_grad_norm_`, one scale for all gradients from their total norm."""

import math

from generated import optim


def clip_by_value(grad, threshold: float):
    """Values above `threshold` become `threshold`, below `-threshold` become `-threshold`."""
    return grad.clamp(-threshold, threshold)  # burn's two mask_fills, in one pass


def clip_by_norm(grad, threshold: float):
    """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest positive
    normal)): one norm per parameter, not a global norm; one fused kernel."""
    return optim.clip_by_norm(grad, threshold)


def total_norm_scale(grads, max_norm: float) -> float:
    """min(1, max_norm / (total norm + 1e-6)), the total norm being the L2 norm of every
    gradient together (PyTorch's `clip_grad_norm_` with its epsilon): the factor that brings
    the gradients' total norm down to `max_norm`, leaving their directions as they are."""
    total = math.sqrt(sum(float((g * g).sum().item()) for g in grads))
    return min(1.0, max_norm / (total + 1e-6))
