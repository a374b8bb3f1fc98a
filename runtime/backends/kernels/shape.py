"""Shape ops: views where the library gives them."""


class ShapeKernels:
    def float_reshape(self, tensor, shape):
        return self.xp.reshape(tensor, shape)

    int_reshape = bool_reshape = float_reshape

    def float_swap_dims(self, tensor, dim1, dim2):
        axes = list(range(tensor.ndim))
        axes[dim1], axes[dim2] = axes[dim2], axes[dim1]
        return self.xp.permute_dims(tensor, axes)

    int_swap_dims = bool_swap_dims = float_swap_dims

    def float_expand(self, tensor, shape):
        return self.xp.broadcast_to(tensor, shape)
