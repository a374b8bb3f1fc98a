"""Reduction rules: the gradient is spread back over the reduced input."""


class ReduceRules:
    """The reductions' rules, one row per op (its name): a VJP per float input."""

    float_sum = (lambda B, g, tensor_shape: _spread(B, g, tensor_shape),)
    float_sum_dim = (lambda B, g, tensor_shape: B.float_expand(g, tensor_shape),)
    float_mean = (lambda B, g, tensor_shape: _spread(B, g / _numel(tensor_shape), tensor_shape),)
    float_mean_dim = (
        lambda B, g, tensor_shape, dim: B.float_expand(g / tensor_shape[dim], tensor_shape),
    )
    # burn's `g * out / x` is NaN at a zero; the product of the others is exact everywhere
    float_prod = (lambda B, g, tensor: _spread(B, g, tensor.shape) * _others_overall(B, tensor),)
    float_prod_dim = (lambda B, g, tensor, dim: g * _product_of_others(B, tensor, dim),)


def _numel(shape) -> int:
    n = 1
    for size in shape:
        n *= size
    return n


def _spread(B, g, shape):
    """A full reduction's [1]-shaped gradient, broadcast over the input's shape (any rank)."""
    return B.float_expand(B.float_reshape(g, (1,) * len(shape)), shape)


def _others_overall(B, tensor):
    """The product of every other element of the tensor, for each element."""
    flat = B.float_reshape(tensor, (-1,))
    return B.float_reshape(_product_of_others(B, flat, 0), tensor.shape)


def _product_of_others(B, tensor, dim):
    """The product of the other elements of each one's lane along `dim`. With p the product
    of a lane's non-zeros: a lane without zeros gives p / x; with one zero, p at the zero and
    0 elsewhere; with more, 0 (dividing `out` by x, as burn does, is 0 / 0 at a zero)."""
    dtype = B.dtype(tensor)
    zero = B.bool_into_float(B.float_equal_elem(tensor, 0.0), dtype)  # 1.0 at the zeros
    nonzero_product = B.float_prod_dim(tensor + zero, dim)  # the zeros taken as ones
    zeros = B.float_sum_dim(zero, dim)
    no_zero = B.bool_into_float(B.float_equal_elem(zeros, 0.0), dtype)
    one_zero = B.bool_into_float(B.float_equal_elem(zeros, 1.0), dtype)
    return nonzero_product * (no_zero / (tensor + zero) + one_zero * zero)
