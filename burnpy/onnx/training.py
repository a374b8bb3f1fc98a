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


# The optimisers of ai.onnx.preview.training: one update of each tensor X given its gradient
# G and state, at learning rate R (a float scalar) and step T (an int64 scalar; T = 0 is the
# first). Each returns the new X and the new state; `updates` applies one to several tensors
# and lists the results as ONNX does (every new X, then every new first state...).
def updates(rule, r: Tensor, t: Tensor, groups: list, *options) -> tuple:
    """`rule` over each tensor's (X, G, state...), taken from `groups` (the list of Xs, of
    Gs, ...), its results regrouped: (X'1, ..., X'n, state'1, ...)."""
    results = [rule(r, t, *operands, *options) for operands in zip(*groups)]
    return tuple(result[k] for k in range(len(results[0])) for result in results)


def _step_is_first(t: Tensor, like: Tensor) -> Tensor:
    """1.0 where T == 0 else 0.0, in like's dtype (a scalar)."""
    return t.equal_elem(0).float(str(like.dtype))


def momentum(r: Tensor, t: Tensor, x: Tensor, g: Tensor, v: Tensor, alpha: float, beta: float, norm: float, nesterov: bool) -> tuple:  # fmt: skip
    """ONNX Momentum: G' = norm * X + G; V' = alpha * V + beta' * G' (beta' is 1 at the first
    step); X' = X - R * V' (nesterov: X - R * (G' + alpha * V'))."""
    grad = x.mul_scalar(norm).add(g)
    first = _step_is_first(t, x)
    scale = first.mul_scalar(1.0 - beta).add_scalar(beta)  # beta, or 1 at T == 0
    velocity = v.mul_scalar(alpha).add(grad.mul(scale))
    direction = grad.add(velocity.mul_scalar(alpha)) if nesterov else velocity
    return x.sub(direction.mul(r.float(str(x.dtype)))), velocity


def adagrad(r: Tensor, t: Tensor, x: Tensor, g: Tensor, h: Tensor, decay: float, epsilon: float, norm: float) -> tuple:  # fmt: skip
    """ONNX Adagrad: r = R / (1 + T * decay); G' = norm * X + G; H' = H + G'^2;
    X' = X - r * G' / (sqrt(H') + epsilon)."""
    rate = r.float(str(x.dtype)).div(t.float(str(x.dtype)).mul_scalar(decay).add_scalar(1.0))
    grad = x.mul_scalar(norm).add(g)
    squares = h.add(grad.mul(grad))
    return x.sub(grad.mul(rate).div(squares.sqrt().add_scalar(epsilon))), squares


def adam(r: Tensor, t: Tensor, x: Tensor, g: Tensor, v: Tensor, h: Tensor, alpha: float, beta: float, epsilon: float, norm: float, norm_post: float) -> tuple:  # fmt: skip
    """ONNX Adam: G' = norm * X + G; V' = alpha * V + (1 - alpha) * G'; H' = beta * H +
    (1 - beta) * G'^2; R' = R * sqrt(1 - beta^T) / (1 - alpha^T) (R at T == 0);
    X' = (1 - norm_post) * (X - R' * V' / (sqrt(H') + epsilon))."""
    dtype = str(x.dtype)
    grad = x.mul_scalar(norm).add(g)
    velocity = v.mul_scalar(alpha).add(grad.mul_scalar(1.0 - alpha))
    squares = h.mul_scalar(beta).add(grad.mul(grad).mul_scalar(1.0 - beta))
    step = t.float("float64")
    later = step.greater_elem(0).float("float64")  # 0 at T == 0, where R is not corrected
    safe = step.add(later.neg().add_scalar(1.0))  # T, or 1 at T == 0 (no 0 / 0)

    def power(base: float) -> Tensor:
        return Tensor.full(list(step.shape), base, device=step.device(), dtype="float64").powf(safe)

    correction = power(beta).neg().add_scalar(1.0).sqrt().div(power(alpha).neg().add_scalar(1.0))
    correction = correction.mul(later).add(later.neg().add_scalar(1.0))
    rate = r.float("float64").mul(correction).float(dtype)
    moved = x.sub(velocity.mul(rate).div(squares.sqrt().add_scalar(epsilon)))
    return moved.mul_scalar(1.0 - norm_post), velocity, squares
