"""Scans, sorting and top-k along a dim, and the few helpers their gradients need.

Sorting is stable in both directions: equal elements keep their order, so top-k ties go to the
lowest index (burn's documented tie rule; burn calls its sort unstable). NaN sorts last
ascending and first descending. Indices are int64, the default int dtype.
"""

from burnpy.runtime.backends.kernels.reduce import INDEX_DTYPE, rank0_as_vector
from burnpy.runtime.errors import user_call
from burnpy.runtime.indexing import IndexingUpdateOp


class OrderKernels:
    # -- scans ----------------------------------------------------------------------------------
    @rank0_as_vector
    def float_cumsum(self, tensor, dim):
        return self.xp.cumulative_sum(tensor, axis=dim, dtype=tensor.dtype)

    int_cumsum = float_cumsum

    @rank0_as_vector
    def float_cumprod(self, tensor, dim):
        return self.xp.cumulative_prod(tensor, axis=dim, dtype=tensor.dtype)

    int_cumprod = float_cumprod

    @rank0_as_vector
    def float_cummax(self, tensor, dim):
        return self._running(self.xp.maximum, tensor, dim)

    int_cummax = float_cummax

    @rank0_as_vector
    def float_cummin(self, tensor, dim):
        return self._running(self.xp.minimum, tensor, dim)

    int_cummin = float_cummin

    def _running(self, combine, tensor, dim):
        """`combine` accumulated along `dim`, one position at a time: the array API has no
        cumulative max (numpy overrides the scans with `ufunc.accumulate`)."""
        xp = self.xp
        lanes = xp.moveaxis(tensor, dim, 0)
        steps = []
        for i in range(lanes.shape[0]):
            steps.append(combine(steps[-1], lanes[i]) if steps else lanes[i])
        return xp.moveaxis(xp.stack(steps), 0, dim) if steps else tensor

    # -- sorting --------------------------------------------------------------------------------
    @rank0_as_vector
    def float_argsort(self, tensor, dim, descending):
        indices = self.xp.argsort(tensor, axis=dim, descending=descending, stable=True)
        return self._indices(indices)

    int_argsort = float_argsort

    @rank0_as_vector
    def float_sort_with_indices(self, tensor, dim, descending):
        indices = self.float_argsort(tensor, dim, descending)
        return self.xp.take_along_axis(tensor, indices, axis=dim), indices

    int_sort_with_indices = float_sort_with_indices

    def int_sort(self, tensor, dim, descending):
        return self.int_sort_with_indices(tensor, dim, descending)[0]

    @rank0_as_vector
    def float_argtopk(self, tensor, k, dim):
        size = tensor.shape[dim]
        if not 0 <= k <= size:
            raise ValueError(
                f"{user_call('topk')}: k must be in [0, {size}] for a dim of size {size}, got {k}"
            )
        indices = self.float_argsort(tensor, dim, True)
        return indices[(slice(None),) * (dim % tensor.ndim) + (slice(0, k),)]

    int_argtopk = float_argtopk

    @rank0_as_vector
    def float_topk_with_indices(self, tensor, k, dim):
        indices = self.float_argtopk(tensor, k, dim)
        return self.xp.take_along_axis(tensor, indices, axis=dim), indices

    int_topk_with_indices = float_topk_with_indices

    def int_topk(self, tensor, k, dim):
        return self.int_topk_with_indices(tensor, k, dim)[0]

    # -- for backward rules (not dispatch kernels) ------------------------------------------------
    def scatter_add_zeros(self, shape, dim, indices, values):
        """Zeros of `shape` with `values` added at `indices` along `dim` (burn's
        `scatter_add(dim, zeros(shape), indices, values)`): the gradient of every op that picks
        elements (gather, max_dim, sort, topk). Its indices were checked when they were made,
        so it goes straight to the backend's accumulating index update."""
        out = self.xp.zeros(shape, dtype=values.dtype, device=values.device)
        self.index_update(out, self._along(indices, dim), values, IndexingUpdateOp.Add)
        return out

    @rank0_as_vector
    def reverse_cumsum(self, tensor, dim):
        """The sum of the elements at and after each position along `dim`."""
        xp = self.xp
        flipped = xp.flip(tensor, axis=dim)
        return xp.flip(xp.cumulative_sum(flipped, axis=dim, dtype=tensor.dtype), axis=dim)

    def positions_along(self, tensor, dim):
        """0, 1, ... along `dim`, shaped to broadcast against `tensor`."""
        shape = [1] * tensor.ndim
        shape[dim] = tensor.shape[dim]
        return self.xp.reshape(self._arange(tensor.shape[dim], tensor), tuple(shape))

    def _arange(self, n, like):
        device = self.native_device(self.device_of(like))
        return self.xp.arange(n, dtype=self.native_dtype(INDEX_DTYPE), device=device)
