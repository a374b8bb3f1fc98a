"""Shape rules: move the gradient back through the view (docs/semantics.md#shape-and-indexing)."""


class ShapeRules:
    """The shape ops' rules, one row per op (its name): a VJP per float input."""

    float_cast = (lambda B, g, tensor_dtype: B.float_cast(g, tensor_dtype),)
    float_to_device = (lambda B, g, tensor_device: B.float_to_device(g, tensor_device),)
    # to_device across backends: `g` lives on the target backend, B is the source's
    move_across = (lambda B, g, target, tensor_device: target.move_across(g, B, tensor_device),)
    float_reshape = (lambda B, g, tensor_shape: B.float_reshape(g, tensor_shape),)
    float_swap_dims = (lambda B, g, dim1, dim2: B.float_swap_dims(g, dim1, dim2),)
    float_permute = (lambda B, g, axes: B.float_permute(g, _inverse(axes)),)
    float_flip = (lambda B, g, axes: B.float_flip(g, axes),)
    float_expand = (lambda g: g,)  # the step sums the broadcast dims back
    float_repeat_dim = (
        lambda B, g, dim, times, tensor_shape: _untile(B, g, dim, times, tensor_shape),
    )
    float_slice = (
        lambda B, g, slices, tensor_shape: B.float_slice_assign(
            zeros(B, g, tensor_shape), slices, g
        ),
    )
    float_slice_assign = (
        lambda B, g, slices, value_shape: B.float_slice_assign(g, slices, zeros(B, g, value_shape)),
        lambda B, g, slices: B.float_slice(g, slices),
    )
    float_cat = (lambda B, g, dim, tensors_shape: _split(B, g, dim, tensors_shape),)
    float_unfold = (
        lambda B, g, dim, size, step, tensor_shape: _fold(B, g, dim, size, step, tensor_shape),
    )


def zeros(B, g, shape):
    """Zeros of `shape` with the gradient's dtype, on its device."""
    return B.float_zeros(tuple(shape), B.device_of(g), B.dtype(g))


def _inverse(axes):
    inverse = [0] * len(axes)
    for position, axis in enumerate(axes):
        inverse[axis] = position
    return tuple(inverse)


def _untile(B, g, dim, times, shape):
    """repeat_dim tiles ([a, b] -> [a, b, a, b]): view dim as [times, size] and sum the
    copies. burn views it as [size, times] instead, which is wrong when size > 1."""
    tiled = tuple(shape[:dim]) + (times, shape[dim]) + tuple(shape[dim + 1 :])
    return B.float_reshape(B.float_sum_dim(B.float_reshape(g, tiled), dim), tuple(shape))


def _split(B, g, dim, shapes):
    """cat's gradient: each input's stretch of g along dim (one gradient per list element)."""
    grads, offset = [], 0
    full = [(0, n, 1) for n in g.shape]
    for shape in shapes:
        full[dim] = (offset, offset + shape[dim], 1)
        grads.append(B.float_slice(g, tuple(full)))
        offset += shape[dim]
    return grads


def _fold(B, g, dim, size, step, shape):
    """unfold's gradient: every window's gradient added back onto the rows it read. g is
    [pre, windows, post, size]; laid out as [pre, windows * size, post] it lines up with the
    flat window index, and select_add accumulates where windows overlap."""
    rank = len(shape)
    g = B.float_permute(g, (*range(dim + 1), rank, *range(dim + 1, rank)))
    index = B.window_index(shape[dim], size, step, g.device)
    flat = tuple(shape[:dim]) + (index.shape[0],) + tuple(shape[dim + 1 :])
    return B.float_select_add(zeros(B, g, shape), dim, index, B.float_reshape(g, flat))
