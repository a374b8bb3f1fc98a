"""`Adam` and `AdamW`: burn-optim's adaptive-moment rules (epsilon 1e-5 by default, PyTorch's
is 1e-8)."""

from burnpy.optim.optimizer import Optimizer, max_pair


class _AdaptiveMoments(Optimizer):
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

    def moments(self, grad, state):
        """The moments after this gradient: m, v (and max v for AMSGrad), and the step count."""
        if state is None:
            state = {
                "time": 1,
                "moment_1": grad * (1.0 - self.beta_1),
                "moment_2": (grad * grad) * (1.0 - self.beta_2),
            }
            if self.amsgrad:
                state["max_moment_2"] = state["moment_2"]
            return state
        state = dict(state)
        state["time"] += 1
        state["moment_1"] = state["moment_1"] * self.beta_1 + grad * (1.0 - self.beta_1)
        state["moment_2"] = state["moment_2"] * self.beta_2 + (grad * grad) * (1.0 - self.beta_2)
        if self.amsgrad:
            state["max_moment_2"] = max_pair(
                state.get("max_moment_2", state["moment_2"]), state["moment_2"]
            )
        return state

    def second_moment(self, state):
        return state["max_moment_2"] if self.amsgrad else state["moment_2"]


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

    def update(self, lr, param, grad, state):
        if self.weight_decay:
            grad = param * self.weight_decay + grad
        state = self.moments(grad, state)
        time = state["time"]
        # burn's arrangement: sqrt(1 - b2^t) folded into the numerator and epsilon; as `** 0.5`
        # rather than math.sqrt, which a captured step could not record (burnpy.capture).
        correction_2 = (1.0 - self.beta_2**time) ** 0.5
        factor = correction_2 / (1.0 - self.beta_1**time)
        denominator = self.second_moment(state).sqrt() + self.epsilon * correction_2
        return param - state["moment_1"] * (factor * lr) / denominator, state


class AdamW(_AdaptiveMoments):
    """Adam with decoupled weight decay (burn's `AdamW`): p·(1 - lr·weight_decay) - lr·step.
    `cautious_weight_decay` decays only where the parameter and the first moment agree in
    sign."""

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

    def update(self, lr, param, grad, state):
        state = self.moments(grad, state)
        time = state["time"]
        # lr m̂ / (sqrt(v̂) + eps) with the bias corrections folded into two scalars (as
        # torch.optim arranges it): two tensor ops fewer than dividing m and v first; `** 0.5`,
        # not math.sqrt, so that a captured step records it
        correction_2 = (1.0 - self.beta_2**time) ** 0.5
        step_size = lr * correction_2 / (1.0 - self.beta_1**time)
        denominator = self.second_moment(state).sqrt() + self.epsilon * correction_2
        delta = state["moment_1"] * step_size / denominator
        decay = lr * self.weight_decay
        if decay == 0.0:
            decayed = param
        elif self.cautious_weight_decay:
            differ = param.greater_equal_elem(0.0).not_equal(
                state["moment_1"].greater_equal_elem(0.0)
            )
            decayed = param - (param * decay).mask_fill(differ, 0.0)
        else:
            decayed = param * (1.0 - decay)
        return decayed - delta, state
