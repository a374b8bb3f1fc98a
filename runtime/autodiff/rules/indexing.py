"""Indexing rules: the gradient goes back to the positions that were read, and not to the
positions that were overwritten (docs/semantics.md#shape-and-indexing)."""

from burnpy.runtime.autodiff.rules.shape import zeros
from burnpy.runtime.indexing import IndexingUpdateOp

ADD, ASSIGN = IndexingUpdateOp.Add, IndexingUpdateOp.Assign
MIN, MAX = IndexingUpdateOp.Min, IndexingUpdateOp.Max


class IndexingRules:
    """The indexing ops' rules, one row per op (its name): a VJP per float input."""

    # along a dim
    float_gather = (
        lambda B, g, dim, indices, tensor_shape: B.scatter_add_zeros(tensor_shape, dim, indices, g),
    )
    float_scatter_add = (lambda g: g, lambda B, g, dim, indices: B.float_gather(dim, g, indices))
    float_scatter = (
        lambda B, g, dim, indices, value_shape, update: (
            g
            if update is ADD
            else B.float_scatter(dim, g, indices, zeros(B, g, value_shape), ASSIGN)
        ),
        lambda B, g, dim, indices: B.float_gather(dim, g, indices),
    )
    # whole slices along a dim
    float_select = (
        lambda B, g, dim, indices, tensor_shape: B.float_select_add(
            zeros(B, g, tensor_shape), dim, indices, g
        ),
    )
    float_select_add = (lambda g: g, lambda B, g, dim, indices: B.float_select(g, dim, indices))
    float_select_assign = (
        lambda B, g, dim, indices, value_shape, update: (
            g
            if update is ADD
            else B.float_select_assign(g, dim, indices, zeros(B, g, value_shape), ASSIGN)
        ),
        lambda B, g, dim, indices: B.float_select(g, dim, indices),
    )
    # masks (the step sums broadcast dims back)
    float_mask_where = (
        lambda B, g, mask: B.float_mask_fill(g, mask, 0.0),
        lambda B, g, mask: B.float_mask_fill(g, B.bool_not(mask), 0.0),
    )
    float_mask_fill = (lambda B, g, mask: B.float_mask_fill(g, mask, 0.0),)
    float_mask_select = (lambda B, g, mask, tensor_shape: _unselect(B, g, mask, tensor_shape),)
    # n-d
    float_gather_nd = (
        lambda B, g, indices, data_shape: B.float_scatter_nd(
            zeros(B, g, data_shape), indices, g, ADD
        ),
    )
    float_scatter_nd = (
        lambda B, g, data, indices, values, reduction: _scatter_nd_data(
            B, g, data, indices, values, reduction
        ),
        lambda B, g, data, indices, values, reduction: _scatter_nd_values(
            B, g, data, indices, values, reduction
        ),
    )


def _unselect(B, g, mask, shape):
    """mask_select's gradient: g back at the mask's true positions, zero elsewhere."""
    grad = zeros(B, g, shape)
    B.index_update(grad, (mask,), g, ASSIGN)
    return grad


# scatter_nd: Mul, Min and Max need `data` and `values`, so the rule names them for every
# reduction (a rule's needs are fixed); burn saves them for those reductions only. Indices are
# assumed unique, as burn documents.


def _scatter_nd_data(B, g, data, indices, values, reduction):
    if reduction is ADD:
        return g
    if reduction is ASSIGN:  # overwritten positions get nothing
        return B.float_scatter_nd(g, indices, zeros(B, g, values.shape), ASSIGN)
    # d out / d data: 1 where nothing was written, the local derivative where it was
    local = _local(B, data, indices, values, reduction, for_data=True)
    return g * B.float_scatter_nd(B.float_ones_like(data), indices, local, ASSIGN)


def _scatter_nd_values(B, g, data, indices, values, reduction):
    g_at = B.float_gather_nd(g, indices)
    if reduction in (ADD, ASSIGN):
        return g_at
    return g_at * _local(B, data, indices, values, reduction, for_data=False)


def _local(B, data, indices, values, reduction, for_data):
    """The derivative of `combine(data[idx], values)` by one side: mul takes the other side;
    min and max take a 0/1 winner mask, ties counting for both sides (burn)."""
    at = B.float_gather_nd(data, indices)
    mine, other = (at, values) if for_data else (values, at)
    if reduction is MIN:
        won = mine <= other
    elif reduction is MAX:
        won = mine >= other
    else:
        return other
    return B.float_mask_fill(zeros(B, mine, mine.shape), won, 1.0)
