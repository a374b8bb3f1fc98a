"""`RMSProp`: burn-optim's RmsProp (momentum 0.9 and epsilon 1e-5 by default; PyTorch's are 0
and 1e-8), one fused update per parameter (`burnpy.generated.optim.rmsprop_step`)."""

from burnpy.generated import optim
from burnpy.optim.optimizer import Optimizer


class RMSProp(Optimizer):
    """square_avg = alpha·square_avg + (1 - alpha)·g² (from zero); centered subtracts the
    squared running mean of g; the step is g/(sqrt(avg) + epsilon), accumulated in a momentum
    buffer when momentum > 0."""

    def __init__(
        self,
        lr,
        *,
        alpha=0.99,
        epsilon=1e-5,
        centered=False,
        momentum=0.9,
        weight_decay=0.0,
        grad_clip_norm=None,
        grad_clip_value=None,
        grad_clip_total_norm=None,
    ):
        super().__init__(
            lr,
            grad_clip_norm=grad_clip_norm,
            grad_clip_value=grad_clip_value,
            grad_clip_total_norm=grad_clip_total_norm,
        )
        self.alpha = alpha
        self.epsilon = epsilon
        self.centered = centered
        self.momentum = momentum
        self.weight_decay = weight_decay

    updates_in_place = True

    def update(self, lr, param, grad, state, in_place=False):
        state = state or {}
        param, square_avg, grad_avg, buffer = optim.rmsprop_step(
            param,
            grad,
            state.get("square_avg"),
            state.get("grad_avg"),
            state.get("buf"),
            lr=lr,
            alpha=self.alpha,
            epsilon=self.epsilon,
            weight_decay=self.weight_decay,
            momentum=self.momentum,
            centered=self.centered,
            in_place=in_place,
        )
        state = {"square_avg": square_avg}
        if self.centered:
            state["grad_avg"] = grad_avg
        if self.momentum > 0:
            state["buf"] = buffer
        return param, state
