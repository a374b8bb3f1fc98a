"""The optimisers' fused updates (generated/optim.py): burn-optim's Adam/AdamW, SGD and RMSProp
steps and its per-parameter gradient clipping, each one kernel.

Written as tensor ops, an AdamW step is 13 dispatched ops and as many temporaries per parameter,
and clipping by norm 7 more. Here each is one call, and each result is a fresh array made once
and then updated in place (`*=`, `+=`: the array API's in-place operators), beside a few
temporaries. With `in_place` (the optimiser's buffers are its own: burnpy.optim checks that
nothing else holds them), the parameter and the moments given are updated in their own buffers
and returned, as PyTorch's optimisers do (AMSGrad's maximum and RMSProp's momentum buffer are
this step's arrays); the arithmetic is the same, so are the bits. The gradient is never written
to. No gradient flows through these: the Autodiff decorator runs them
on the inner primitives.
"""


class OptimKernels:
    def adam_step(
        self,
        param,
        grad,
        moment_1,
        moment_2,
        max_moment_2,
        lr,
        beta_1,
        beta_2,
        epsilon,
        weight_decay,
        bias_correction_1,
        bias_correction_2,
        decoupled=False,
        cautious=False,
        amsgrad=False,
        in_place=False,
    ):
        """(param, m, v, max v): m and v the moments after `grad` (zeros before the first
        step), max v their running maximum under AMSGrad (else v itself), and the parameter
        moved by lr m̂ / (sqrt(v̂) + epsilon). The bias corrections are folded into two scalars
        (burn's arrangement): lr sqrt(bc_2) / bc_1 times m / (sqrt(v) + epsilon sqrt(bc_2))."""
        xp = self.xp
        if weight_decay and not decoupled:  # Adam's L2 decay goes into the gradient
            grad = param * weight_decay + grad
        if moment_1 is None or not in_place:
            m = grad * (1.0 - beta_1)
            if moment_1 is not None:
                m += moment_1 * beta_1
        else:  # the same sum, its terms made in the other order
            m = moment_1
            m *= beta_1
            m += grad * (1.0 - beta_1)
        v = grad * grad
        v *= 1.0 - beta_2
        if moment_2 is not None:
            if in_place:
                moment_2 *= beta_2
                moment_2 += v
                v = moment_2
            else:
                v += moment_2 * beta_2
        v_max = v
        if amsgrad and max_moment_2 is not None:
            v_max = xp.maximum(max_moment_2, v)  # (a fresh buffer: a maximum has no `out`)
        elif amsgrad and in_place:  # state of its own, which v's next update leaves alone
            v_max = v * 1.0
        root_2 = bias_correction_2**0.5
        delta = xp.sqrt(v_max)
        delta += epsilon * root_2
        delta = m / delta
        delta *= lr * root_2 / bias_correction_1
        decay = lr * weight_decay if decoupled else 0.0
        updated = param if in_place else None
        if not decay:
            if updated is None:
                return param - delta, m, v, v_max
            updated -= delta
            return updated, m, v, v_max
        if cautious:  # decay only where the parameter and m agree in sign
            agree = (param >= 0) == (m >= 0)
            decayed = xp.where(agree, param * decay, xp.zeros_like(param))
            if updated is None:
                updated = param - decayed
            else:
                updated -= decayed
        elif updated is None:
            updated = param * (1.0 - decay)
        else:
            updated *= 1.0 - decay
        updated -= delta
        return updated, m, v, v_max

    def clip_by_norm(self, grad, threshold):
        xp = self.xp
        norm = xp.sqrt(self.float_sum(grad * grad))  # [1], bfloat16 summed in float32
        return grad * xp.clip(threshold / (norm + float(xp.finfo(grad.dtype).tiny)), max=1.0)

    def sgd_step(
        self, param, grad, velocity, lr, momentum, dampening, weight_decay, nesterov, in_place=False
    ):
        """(param, velocity): burn's SGD with L2 weight decay and momentum; without momentum
        the velocity returned is the decayed gradient, which is no state."""
        if weight_decay:
            grad = param * weight_decay + grad
        if not momentum:
            v = grad
        elif velocity is None:
            # the velocity starts as the gradient; as state updated in place, it is a copy
            v = grad * 1.0 if in_place and not weight_decay else grad
        else:
            v = velocity if in_place else velocity * momentum
            if in_place:
                v *= momentum
            v += grad if dampening == 0.0 else grad * (1.0 - dampening)
        step = v * momentum + grad if momentum and nesterov else v
        if not in_place:
            return param - step * lr, v
        param -= step * lr
        return param, v

    def rmsprop_step(
        self,
        param,
        grad,
        square_avg,
        grad_avg,
        buffer,
        lr,
        alpha,
        epsilon,
        weight_decay,
        momentum,
        centered=False,
        in_place=False,
    ):
        """(param, square_avg, grad_avg, buffer): burn's RMSProp; grad_avg is the square's
        average itself unless `centered`, and the buffer the step itself without momentum."""
        xp = self.xp
        if weight_decay:
            grad = param * weight_decay + grad
        square = grad * grad
        square *= 1.0 - alpha
        if square_avg is not None:
            if in_place:
                square_avg *= alpha
                square_avg += square
                square = square_avg
            else:
                square += square_avg * alpha
        mean = avg = square
        if centered:
            mean = grad * (1.0 - alpha)
            if grad_avg is not None:
                if in_place:
                    grad_avg *= alpha
                    grad_avg += mean
                    mean = grad_avg
                else:
                    mean += grad_avg * alpha
            avg = square - mean * mean
        step = xp.sqrt(avg)
        step += epsilon
        step = grad / step
        if momentum > 0 and buffer is not None:
            step += buffer * momentum  # the new buffer is this step's own array
        if not in_place:
            return param - step * lr, square, mean, step
        param -= step * lr
        return param, square, mean, step
