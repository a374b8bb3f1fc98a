"""Reductions: burn keeps the reduced dim; a full reduction has shape [1].

Sums and products keep the input's dtype (numpy and the array API widen int32 to int64).
Indices (argmax, ...) are int64, the default int dtype; ties go to the lowest index and a NaN
wins over any number (burn's rule, and numpy's).
"""

import math

import numpy as np

INDEX_DTYPE = np.dtype("int64")


def rank0_as_vector(kernel):
    """A kernel along a dim whose rank-0 input is one element along dim 0 (or -1), as in
    PyTorch: run on it as a [1] vector, its results shaped back to rank 0, the same on every
    backend (numpy refuses the axis, or flattens a scan's result to [1])."""

    def along(self, tensor, *args):
        if tensor.ndim:
            return kernel(self, tensor, *args)
        result = kernel(self, self.xp.reshape(tensor, (1,)), *args)
        if isinstance(result, tuple):
            return tuple(self.xp.reshape(r, ()) for r in result)
        return self.xp.reshape(result, ())

    along.__name__ = along.__qualname__ = kernel.__name__
    along.__doc__ = kernel.__doc__
    return along


class ReduceKernels:
    def _full(self, value):
        return self.xp.reshape(value, (1,))

    def _accumulated(self, reduce, tensor, **kwargs):
        """`reduce` in the backend's accumulator for the dtype (bfloat16 in float32 on numpy,
        as torch does it), the result in the tensor's dtype."""
        wide = self.accumulator(tensor.dtype)
        if wide is None:
            return reduce(tensor, dtype=tensor.dtype, **kwargs)
        return self.xp.astype(reduce(tensor, dtype=wide, **kwargs), tensor.dtype)

    def float_sum(self, tensor):
        return self._full(self._accumulated(self.xp.sum, tensor))

    int_sum = float_sum

    def float_sum_dim(self, tensor, dim):
        return self._accumulated(self.xp.sum, tensor, axis=dim, keepdims=True)

    int_sum_dim = float_sum_dim

    def float_prod(self, tensor):
        return self._full(self._accumulated(self.xp.prod, tensor))

    int_prod = float_prod

    def float_prod_dim(self, tensor, dim):
        return self._accumulated(self.xp.prod, tensor, axis=dim, keepdims=True)

    int_prod_dim = float_prod_dim

    def float_mean(self, tensor):
        return self._full(self.xp.mean(tensor))

    def float_mean_dim(self, tensor, dim):
        return self.xp.mean(tensor, axis=dim, keepdims=True)

    def int_mean(self, tensor):
        return self._truncated_quotient(self.int_sum(tensor), math.prod(tensor.shape))

    @rank0_as_vector
    def int_mean_dim(self, tensor, dim):
        return self._truncated_quotient(self.int_sum_dim(tensor, dim), tensor.shape[dim])

    def _truncated_quotient(self, total, count):
        # burn divides the int sum by the count, truncating toward zero (`//` floors)
        xp = self.xp
        return xp.sign(total) * (xp.abs(total) // count)

    # -- extrema: int only; float max/min are composites over max_dim_with_indices --------------
    def int_max(self, tensor):
        return self._full(self.xp.max(tensor))

    def int_max_dim(self, tensor, dim):
        return self.xp.max(tensor, axis=dim, keepdims=True)

    def int_min(self, tensor):
        return self._full(self.xp.min(tensor))

    def int_min_dim(self, tensor, dim):
        return self.xp.min(tensor, axis=dim, keepdims=True)

    def int_max_abs(self, tensor):
        return self.int_max(self.xp.abs(tensor))

    def int_max_abs_dim(self, tensor, dim):
        return self.int_max_dim(self.xp.abs(tensor), dim)

    def float_argmax(self, tensor, dim):
        return self._indices(self.xp.argmax(tensor, axis=dim, keepdims=True))

    int_argmax = float_argmax

    def float_argmin(self, tensor, dim):
        return self._indices(self.xp.argmin(tensor, axis=dim, keepdims=True))

    int_argmin = float_argmin

    @rank0_as_vector
    def float_max_dim_with_indices(self, tensor, dim):
        indices = self.float_argmax(tensor, dim)
        return self.xp.take_along_axis(tensor, indices, axis=dim), indices

    int_max_dim_with_indices = float_max_dim_with_indices

    @rank0_as_vector
    def float_min_dim_with_indices(self, tensor, dim):
        indices = self.float_argmin(tensor, dim)
        return self.xp.take_along_axis(tensor, indices, axis=dim), indices

    int_min_dim_with_indices = float_min_dim_with_indices

    def _indices(self, indices):
        return self.xp.astype(indices, self.native_dtype(INDEX_DTYPE))

    # -- truth tests (bool results; a number is true when it is not zero) -----------------------
    def float_any(self, tensor):
        return self._full(self.xp.any(tensor))

    int_any = bool_any = float_any

    def float_any_dim(self, tensor, dim):
        return self.xp.any(tensor, axis=dim, keepdims=True)

    int_any_dim = bool_any_dim = float_any_dim

    def float_all(self, tensor):
        return self._full(self.xp.all(tensor))

    int_all = bool_all = float_all

    def float_all_dim(self, tensor, dim):
        return self.xp.all(tensor, axis=dim, keepdims=True)

    int_all_dim = bool_all_dim = float_all_dim
