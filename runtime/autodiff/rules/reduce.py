"""Reduction rules: the gradient is spread back over the reduced input."""

RULES = {
    "float_sum": (lambda B, g, tensor_shape: _spread(B, g, tensor_shape),),
    "float_sum_dim": (lambda B, g, tensor_shape: B.float_expand(g, tensor_shape),),
    "float_mean": (lambda B, g, tensor_shape: _spread(B, g / _numel(tensor_shape), tensor_shape),),
    "float_mean_dim": (
        lambda B, g, tensor_shape, dim: B.float_expand(g / tensor_shape[dim], tensor_shape),
    ),
}


def _numel(shape) -> int:
    n = 1
    for size in shape:
        n *= size
    return n


def _spread(B, g, shape):
    """A full reduction's [1]-shaped gradient, broadcast over the input's shape (any rank)."""
    return B.float_expand(B.float_reshape(g, (1,) * len(shape)), shape)
