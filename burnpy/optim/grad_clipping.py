"""Gradient clipping: burn-optim's, applied to each parameter's gradient on its own, and
PyTorch's `clip_grad_norm_`, one scale for all gradients from their total norm."""

from burnpy.generated import optim


def clip_by_value(grad, threshold: float):
    """Values above `threshold` become `threshold`, below `-threshold` become `-threshold`."""
    return grad.clamp(-threshold, threshold)  # burn's two mask_fills, in one pass


def clip_by_norm(grad, threshold: float):
    """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest positive
    normal)): one norm per parameter, not a global norm; one fused kernel."""
    return optim.clip_by_norm(grad, threshold)


def total_norm_scale(grads, max_norm: float):
    """min(1, max_norm / (total norm + 1e-6)) as a tensor of shape [1] (float64 if a gradient
    is, else float32), the total norm
    being the L2 norm of every gradient together (PyTorch's `clip_grad_norm_` with its
    epsilon): the factor that brings the gradients' total norm down to `max_norm`, leaving
    their directions as they are. Computed with tensor ops, never read back, so a captured
    step (burnpy.capture) records it."""
    wide = "float64" if any(str(g.dtype) == "float64" for g in grads) else "float32"
    total = None
    for grad in grads:
        square = (grad * grad).sum().cast(wide)
        total = square if total is None else total + square
    if total is None:
        return None
    return (total.sqrt() + 1e-6).recip().mul(float(max_norm)).clamp_max(1.0)
