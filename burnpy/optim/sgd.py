"""`SGD`: burn-optim's Sgd with optional weight decay and momentum, one fused update per
parameter (`burnpy.generated.optim.sgd_step`)."""

from burnpy.generated import optim
from burnpy.optim.optimizer import Optimizer


class SGD(Optimizer):
    """p <- p - lr·g, where g = grad + weight_decay·p, then, with momentum m > 0, the velocity
    v = g on the first step and m·v + (1 - dampening)·g after; nesterov uses g + m·v.

    burn's defaults: no momentum (`momentum=0.0`, burn's None) and, once momentum is on,
    dampening 0.1 (PyTorch's is 0)."""

    def __init__(
        self,
        lr,
        *,
        momentum=0.0,
        dampening=0.1,
        nesterov=False,
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
        self.momentum = momentum
        self.dampening = dampening
        self.nesterov = nesterov
        self.weight_decay = weight_decay

    updates_in_place = True

    def update(self, lr, param, grad, state, in_place=False):
        param, velocity = optim.sgd_step(
            param,
            grad,
            None if state is None else state["velocity"],
            lr=lr,
            momentum=self.momentum,
            dampening=self.dampening,
            weight_decay=self.weight_decay,
            nesterov=self.nesterov,
            in_place=in_place,
        )
        return param, ({"velocity": velocity} if self.momentum else None)
