"""Module-op rules for embedding, linear, convolutions, unfold/fold and pooling: burn's
`*_backward` ModuleOps, which every backend has as kernels (burn-semantics §9.6).

Max pooling sends each window's gradient to its first maximum (the int `indices` output);
`max_pool1d/2d` have no indices output, so their rule finds them again, as burn's autodiff runs
the with-indices forward for them. unfold4d and fold4d are each other's adjoint.
"""


def _conv(n):
    """The rule of conv{n}d: x, weight, bias."""
    return (
        lambda B, g, x, weight, stride, padding, dilation, groups, padding_end: getattr(
            B, f"conv{n}d_x_backward"
        )(x, weight, g, stride, padding, dilation, groups, padding_end),
        lambda B, g, x, weight, stride, padding, dilation, groups, padding_end: getattr(
            B, f"conv{n}d_weight_backward"
        )(x, weight, g, stride, padding, dilation, groups, padding_end),
        lambda B, g, x, bias: getattr(B, f"conv{n}d_bias_backward")(x, bias, g),
    )


def _conv_transpose(n):
    """The rule of conv_transpose{n}d: x, weight, bias."""
    name = f"conv_transpose{n}d"
    return (
        lambda B, g, weight, stride, padding, padding_out, dilation, groups: getattr(
            B, f"{name}_x_backward"
        )(weight, g, stride, padding, padding_out, dilation, groups),
        lambda B, g, x, weight, stride, padding, padding_out, dilation, groups: getattr(
            B, f"{name}_weight_backward"
        )(x, weight, g, stride, padding, padding_out, dilation, groups),
        lambda B, g, x, bias: getattr(B, f"{name}_bias_backward")(x, bias, g),
    )


def _max_pool_with_indices(n):
    return (
        lambda B, g, x, kernel_size, stride, padding, dilation, ceil_mode, indices: getattr(
            B, f"max_pool{n}d_with_indices_backward"
        )(x, kernel_size, stride, padding, dilation, ceil_mode, g, indices),
    )


def _max_pool(n):
    def vjp(B, g, x, kernel_size, stride, padding, dilation, ceil_mode):
        options = (kernel_size, stride, padding, dilation, ceil_mode)
        indices = getattr(B, f"max_pool{n}d_with_indices")(x, *options)[1]
        return getattr(B, f"max_pool{n}d_with_indices_backward")(x, *options, g, indices)

    return (vjp,)


def _avg_pool(n):
    return (
        lambda B, g, x, kernel_size, stride, padding, count_include_pad, ceil_mode: getattr(
            B, f"avg_pool{n}d_backward"
        )(x, g, kernel_size, stride, padding, count_include_pad, ceil_mode),
    )


def _adaptive_avg_pool(n):
    return (lambda B, g, x: getattr(B, f"adaptive_avg_pool{n}d_backward")(x, g),)


RULES = {
    "embedding": (lambda B, g, weights, indices: B.embedding_backward(weights, g, indices),),
    "linear": (
        lambda B, g, weight: B.linear_x_backward(weight, g),
        lambda B, g, input: B.linear_weight_backward(input, g),
        lambda B, g: B.linear_bias_backward(g),
    ),
    **{f"conv{n}d": _conv(n) for n in (1, 2, 3)},
    **{f"conv_transpose{n}d": _conv_transpose(n) for n in (1, 2, 3)},
    "unfold4d": (
        lambda B, g, x_shape, kernel_size, stride, padding, dilation: B.fold4d(
            g, tuple(x_shape[2:]), kernel_size, stride, padding, dilation
        ),
    ),
    "fold4d": (
        lambda B, g, kernel_size, stride, padding, dilation: B.unfold4d(
            g, kernel_size, stride, padding, dilation
        ),
    ),
    **{f"max_pool{n}d": _max_pool(n) for n in (1, 2)},
    **{f"max_pool{n}d_with_indices": _max_pool_with_indices(n) for n in (1, 2)},
    **{f"avg_pool{n}d": _avg_pool(n) for n in (1, 2)},
    **{f"adaptive_avg_pool{n}d": _adaptive_avg_pool(n) for n in (1, 2, 3)},
}
