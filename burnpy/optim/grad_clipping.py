"""Gradient clipping: burn-optim's, applied to each parameter's gradient on its own, and
PyTorch's `clip_grad_norm_`, one scale for all gradients from their total norm."""

import math

import ml_dtypes


def clip_by_value(grad, threshold: float):
    """Values above `threshold` become `threshold`, below `-threshold` become `-threshold`."""
    clipped = grad.mask_fill(grad.greater_elem(threshold), threshold)
    return clipped.mask_fill(grad.lower_elem(-threshold), -threshold)


def clip_by_norm(grad, threshold: float):
    """The gradient scaled by min(1, threshold / its L2 norm), one norm per parameter, not a
    global norm. The dtype's smallest positive normal is added to the squared norm, so that a
    zero gradient stays zero (burn adds it to the norm: the two differ only for norms below
    about 1e-19 in float32, which are under any threshold above that)."""
    # the squared norm as one dot product of the flattened gradient with itself: one pass and
    # no squared copy; then a few ops on that one number, and one full-size product
    squared = grad.reshape([1, -1]).matmul(grad.reshape([-1, 1]))
    if grad.ndim < 2:  # [1, 1] would broadcast a rank-1 gradient up to rank 2
        squared = squared.reshape([1])
    tiny = float(ml_dtypes.finfo(grad.dtype).tiny)  # numpy's finfo does not know bfloat16
    return grad * ((squared + tiny) ** -0.5 * threshold).clamp_max(1.0)


def total_norm_scale(grads, max_norm: float) -> float:
    """min(1, max_norm / (total norm + 1e-6)), the total norm being the L2 norm of every
    gradient together (PyTorch's `clip_grad_norm_` with its epsilon): the factor that brings
    the gradients' total norm down to `max_norm`, leaving their directions as they are."""
    total = math.sqrt(sum(float((g * g).sum().item()) for g in grads))
    return min(1.0, max_norm / (total + 1e-6))
