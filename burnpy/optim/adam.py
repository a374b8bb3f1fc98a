"""`Adam` and `AdamW`: burn-optim's adaptive-moment rules (epsilon 1e-5 by default, PyTorch's
is 1e-8). A step is one fused update per parameter (`burnpy.generated.optim.adam_step`)."""

from burnpy.generated import optim
from burnpy.optim.optimizer import Optimizer


class _AdaptiveMoments(Optimizer):
    decoupled = False  # AdamW's decay scales the parameter; Adam's is L2, added to the gradient
    cautious_weight_decay = False

    def __init__(
        self,
        lr,
        *,
        beta_1,
        beta_2,
        epsilon,
        weight_decay,
        amsgrad,
        grad_clip_norm,
        grad_clip_value,
        grad_clip_total_norm,
    ):
        super().__init__(
            lr,
            grad_clip_norm=grad_clip_norm,
            grad_clip_value=grad_clip_value,
            grad_clip_total_norm=grad_clip_total_norm,
        )
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.weight_decay = weight_decay
        self.amsgrad = amsgrad

    updates_in_place = True

    def update(self, lr, param, grad, state, in_place=False):
        """The parameter after one step, and the state: the step count, m and v (and the
        running max of v for AMSGrad)."""
        state = state or {"time": 0}
        time = state["time"] + 1
        # `**`, not math.pow: a captured step (burnpy.capture) records it, so the bias
        # corrections follow the step count when the step is replayed
        param, moment_1, moment_2, max_moment_2 = optim.adam_step(
            param,
            grad,
            state.get("moment_1"),
            state.get("moment_2"),
            state.get("max_moment_2"),
            lr=lr,
            beta_1=self.beta_1,
            beta_2=self.beta_2,
            epsilon=self.epsilon,
            weight_decay=self.weight_decay,
            bias_correction_1=1.0 - self.beta_1**time,
            bias_correction_2=1.0 - self.beta_2**time,
            decoupled=self.decoupled,
            cautious=self.cautious_weight_decay,
            amsgrad=self.amsgrad,
            in_place=in_place,
        )
        state = {"time": time, "moment_1": moment_1, "moment_2": moment_2}
        if self.amsgrad:
            state["max_moment_2"] = max_moment_2
        return param, state


class Adam(_AdaptiveMoments):
    """Adam with L2 weight decay added to the gradient (burn's `Adam`): the step is
    lr·m̂/(sqrt(v̂) + epsilon), m̂ and v̂ bias-corrected; AMSGrad uses the running max of v."""

    def __init__(
        self,
        lr,
        *,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-5,
        weight_decay=0.0,
        amsgrad=False,
        grad_clip_norm=None,
        grad_clip_value=None,
        grad_clip_total_norm=None,
    ):
        super().__init__(
            lr,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            grad_clip_norm=grad_clip_norm,
            grad_clip_value=grad_clip_value,
            grad_clip_total_norm=grad_clip_total_norm,
        )


class AdamW(_AdaptiveMoments):
    """Adam with decoupled weight decay (burn's `AdamW`): p·(1 - lr·weight_decay) - lr·step.
    `cautious_weight_decay` decays only where the parameter and the first moment agree in
    sign."""

    decoupled = True

    def __init__(
        self,
        lr,
        *,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-5,
        weight_decay=1e-4,
        cautious_weight_decay=False,
        amsgrad=False,
        grad_clip_norm=None,
        grad_clip_value=None,
        grad_clip_total_norm=None,
    ):
        super().__init__(
            lr,
            beta_1=beta_1,
            beta_2=beta_2,
            epsilon=epsilon,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            grad_clip_norm=grad_clip_norm,
            grad_clip_value=grad_clip_value,
            grad_clip_total_norm=grad_clip_total_norm,
        )
        self.cautious_weight_decay = cautious_weight_decay
