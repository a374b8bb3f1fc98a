"""`RMSProp`: burn-optim's RmsProp (momentum 0.9 and epsilon 1e-5 by default; PyTorch's are 0
and 1e-8)."""

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

    def update(self, lr, param, grad, state):
        state = dict(state or {})
        if self.weight_decay:
            grad = param * self.weight_decay + grad
        square = (grad * grad) * (1.0 - self.alpha)
        if "square_avg" in state:
            square = state["square_avg"] * self.alpha + square
        state["square_avg"] = square
        avg = square
        if self.centered:
            grad_avg = grad * (1.0 - self.alpha)
            if "grad_avg" in state:
                grad_avg = state["grad_avg"] * self.alpha + grad_avg
            state["grad_avg"] = grad_avg
            avg = square - grad_avg * grad_avg
        step = grad / (avg.sqrt() + self.epsilon)
        if self.momentum > 0:
            if "buf" in state:
                step = state["buf"] * self.momentum + step
            state["buf"] = step
        return param - step * lr, state
