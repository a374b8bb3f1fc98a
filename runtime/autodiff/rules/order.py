"""Scan and order-statistic rules, all compute-bound
(docs/semantics.md#reductions-scans-and-order-statistics).

An op that picks elements (max_dim, sort, topk, each with its int `indices` output) sends each
output's gradient back to the element it picked.
"""


def _picked(B, g, tensor_shape, dim, indices):
    return B.scatter_add_zeros(tensor_shape, dim, indices, g)


def _cumprod(B, g, tensor, out, dim):
    """Zero-safe: before a lane's first zero, revcumsum(g * out) / x; at the first zero,
    revcumsum(g * cumprod(x with that zero taken as 1)); after it, 0."""
    dtype = B.dtype(tensor)
    zero = B.bool_into_float(B.float_equal_elem(tensor, 0.0), dtype)
    seen = B.float_cumsum(zero, dim)  # the zeros up to each position, itself included
    before = B.bool_into_float(B.float_equal_elem(seen, 0.0), dtype)
    first = zero * B.bool_into_float(B.float_equal_elem(seen, 1.0), dtype)
    safe = tensor + zero  # no zero left to divide by; only `before` positions use it
    ahead = B.reverse_cumsum(g * out, dim) / safe
    at_first = B.reverse_cumsum(g * B.float_cumprod(tensor + first, dim), dim)
    return before * ahead + first * at_first


def _running_extremum(B, g, tensor, out, dim):
    """Each output came from the last position at or before it that holds its value."""
    hits = B.float_equal(tensor, out)
    sources = B.int_cummax(hits * B.positions_along(tensor, dim), dim)
    return B.scatter_add_zeros(tensor.shape, dim, sources, g)


class OrderRules:
    """The scans' and order statistics' rules, one row per op (its name): a VJP per float input."""

    float_cumsum = (lambda B, g, dim: B.reverse_cumsum(g, dim),)
    float_cumprod = (_cumprod,)
    float_cummax = (_running_extremum,)
    float_cummin = (_running_extremum,)
    float_max_dim_with_indices = (_picked,)
    float_min_dim_with_indices = (_picked,)
    float_sort_with_indices = (_picked,)
    # burn: `unimplemented!("topk is not implemented for autodiff")`
    float_topk_with_indices = (_picked,)
