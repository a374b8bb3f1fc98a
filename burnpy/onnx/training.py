"""ONNX's training computations, composed of Tensor methods: BatchNormalization in training
mode (the batch's statistics, and the running ones it outputs). Model code calls them as
`ops.<name>` (burnpy/onnx/ops.py imports them)."""

from __future__ import annotations

from burnpy.generated import Tensor, module

def batch_norm_training(x: Tensor, scale: Tensor, bias: Tensor, mean: Tensor, var: Tensor, epsilon: float, momentum: float) -> tuple:  # fmt: skip
    """ONNX BatchNormalization with training_mode: x normalised by the batch's mean and
    biased variance per channel, and the running statistics `running * momentum + batch *
    (1 - momentum)`."""
    y, batch_mean, batch_var = module.batch_norm_training(x, scale, bias, epsilon)
    keep = 1.0 - momentum
    return y, mean.mul_scalar(momentum).add(batch_mean.mul_scalar(keep)), var.mul_scalar(momentum).add(batch_var.mul_scalar(keep))  # fmt: skip
