"""myops' backward rules, in burnpy's rule format: per differentiable entry, one VJP per float
input (its parameters name what it needs: `g` the output's gradient, `B` the kernels, argument
names their forward values, `out` the output), or one `Joint` rule for all of them."""

from burnpy.runtime.autodiff.rules import Joint


def _linear_gelu(B, g, tracked, x, weight, bias):
    return B.linear_gelu_backward(x, weight, bias, g, tracked)


class Rules:
    # d/dlhs log(e^lhs + e^rhs) = e^(lhs - out); broadcasting is undone by the step
    logaddexp = (
        lambda B, g, lhs, out: g * B.float_exp(lhs - out),
        lambda B, g, rhs, out: g * B.float_exp(rhs - out),
    )
    linear_gelu = Joint(_linear_gelu)
