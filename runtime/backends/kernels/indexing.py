"""Indexing ops: gather/scatter along a dim, select along a dim, masks, n-d gather/scatter and
argwhere.

Indices are int primitives. burn leaves bounds unchecked on some backends (out-of-range reads
are garbage there, and numpy would wrap a negative index silently), so every kernel checks its
indices and raises IndexOutOfRange naming the bad index and its dim. Writes go to a copy:
burn's tensors are immutable. Accumulating writes (`add`, `mul`, `min`, `max` with repeated
indices) need a library primitive, so each backend states `index_update`.
"""

from burnpy.runtime.errors import IndexOutOfRange, user_call
from burnpy.runtime.indexing import IndexingUpdateOp

ADD, ASSIGN = IndexingUpdateOp.Add, IndexingUpdateOp.Assign


class IndexingKernels:
    # -- along a dim, one index per element (gather / scatter) ---------------------------------
    def float_gather(self, dim, tensor, indices):
        self._check_along("gather", dim, tensor.shape, indices)
        return tensor[self._along(indices, dim)]

    int_gather = bool_gather = float_gather

    def float_scatter(self, dim, tensor, indices, value, update):
        _supported("scatter", update, (ASSIGN, ADD))
        self._check_along("scatter", dim, tensor.shape, indices)
        if tuple(value.shape) != tuple(indices.shape):
            raise ValueError(
                f"{user_call('scatter')}: the value has shape {list(value.shape)} but the indices have shape "
                f"{list(indices.shape)}; they must match"
            )
        out = self.xp.asarray(tensor, copy=True)
        self.index_update(out, self._along(indices, dim), value, update)
        return out

    int_scatter = float_scatter

    def float_scatter_add(self, dim, tensor, indices, value):
        return self.float_scatter(dim, tensor, indices, value, ADD)

    int_scatter_add = bool_scatter_or = float_scatter_add  # Add on bools is logical or

    # -- whole slices along a dim (select) -----------------------------------------------------
    def float_select(self, tensor, dim, indices):
        self._check_select("select", tensor, dim, indices)
        return self.xp.take(tensor, indices, axis=dim)

    int_select = bool_select = float_select

    def float_select_assign(self, tensor, dim, indices, value, update):
        _supported("select_assign", update, (ASSIGN, ADD))
        self._check_select("select_assign", tensor, dim, indices)
        expected = list(tensor.shape)
        expected[dim] = indices.shape[0]
        if list(value.shape) != expected:
            raise ValueError(
                f"{user_call('select_assign')}: the value has shape {list(value.shape)} but {indices.shape[0]} "
                f"indices along dim {dim} select shape {expected}"
            )
        out = self.xp.asarray(tensor, copy=True)
        at = [1] * tensor.ndim
        at[dim] = indices.shape[0]
        self.index_update(
            out, self._index(value.shape, dim, self.xp.reshape(indices, at)), value, update
        )
        return out

    int_select_assign = float_select_assign

    def float_select_add(self, tensor, dim, indices, value):
        return self.float_select_assign(tensor, dim, indices, value, ADD)

    int_select_add = bool_select_or = float_select_add

    # -- masks -----------------------------------------------------------------------------
    def float_mask_where(self, tensor, mask, value):
        return self.xp.where(mask, value, tensor)

    int_mask_where = bool_mask_where = float_mask_where

    def float_mask_fill(self, tensor, mask, value):
        return self.xp.where(mask, self.xp.asarray(value, dtype=tensor.dtype), tensor)

    int_mask_fill = bool_mask_fill = float_mask_fill

    def float_mask_select(self, tensor, mask):
        """The elements where mask is true, in row-major order: a 1-D result whose length
        depends on the data."""
        if tuple(mask.shape) != tuple(tensor.shape):
            raise ValueError(
                f"{user_call('mask_select')}: the mask has shape {list(mask.shape)} but the tensor has shape "
                f"{list(tensor.shape)}; they must match (the mask is not broadcast)"
            )
        return tensor[mask]

    int_mask_select = bool_mask_select = float_mask_select

    def bool_argwhere(self, tensor, dtype):
        """The indices of the true elements, one row each: shape [count, rank]."""
        xp = self.xp
        found = xp.stack(xp.nonzero(tensor), axis=-1)
        return xp.astype(found, self.native_dtype(dtype))

    # -- n-d (gather_nd / scatter_nd) ------------------------------------------------------
    def float_gather_nd(self, data, indices):
        return data[self._nd_index("gather_nd", data, indices)]

    int_gather_nd = float_gather_nd

    def float_scatter_nd(self, data, indices, values, reduction):
        index = self._nd_index("scatter_nd", data, indices)
        expected = list(indices.shape[:-1]) + list(data.shape[indices.shape[-1] :])
        if list(values.shape) != expected:
            raise ValueError(
                f"{user_call('scatter_nd')}: the values have shape {list(values.shape)}; indices of shape "
                f"{list(indices.shape)} into data of shape {list(data.shape)} need {expected}"
            )
        out = self.xp.asarray(data, copy=True)
        self.index_update(out, index, values, reduction)
        return out

    int_scatter_nd = float_scatter_nd

    # -- helpers ---------------------------------------------------------------------------
    def _along(self, indices, dim):
        """The index that reads `indices` at dim and each element's own position in every other
        dim (numpy's take_along_axis)."""
        return self._index(indices.shape, dim, indices)

    def _index(self, shape, dim, at_dim):
        """An index of arrays only (what every library's index_update takes): `at_dim` at dim,
        and in every other dim of `shape` each position, broadcast against it."""
        xp = self.xp
        dim %= max(len(shape), 1)  # (a dispatch-level call may count dims from the end)
        index = []
        for axis, n in enumerate(shape):
            if axis == dim:
                index.append(at_dim)
            else:
                view = [1] * len(shape)
                view[axis] = n
                index.append(xp.reshape(xp.arange(n, device=at_dim.device), tuple(view)))
        return tuple(index)

    def _check_along(self, op, dim, shape, indices):
        given, shape = tuple(indices.shape), tuple(shape)
        dim %= max(len(shape), 1)
        if (
            len(given) != len(shape)
            or given[:dim] + given[dim + 1 :] != shape[:dim] + shape[dim + 1 :]
        ):
            raise ValueError(
                f"{user_call(op)}: indices of shape {list(indices.shape)} must have the tensor's shape "
                f"{list(shape)} in every dim but {dim}"
            )
        self._check_range(op, indices, shape[dim], dim)

    def _check_select(self, op, tensor, dim, indices):
        if indices.ndim != 1:
            raise ValueError(
                f"{user_call(op)}: indices must be 1-D, got shape {list(indices.shape)}"
            )
        self._check_range(op, indices, tensor.shape[dim], dim)

    def _nd_index(self, op, data, indices):
        """The index tuple of n-d indices: their last axis (K) names a position in data's first
        K dims."""
        if indices.ndim < 1 or indices.shape[-1] > data.ndim:
            raise ValueError(
                f"{user_call(op)}: the last dim of indices (shape {list(indices.shape)}) indexes data's "
                f"leading dims and cannot exceed its rank {data.ndim}"
            )
        index = tuple(indices[..., k] for k in range(indices.shape[-1]))
        for k, component in enumerate(index):
            self._check_range(op, component, data.shape[k], k)
        return index

    def _check_range(self, op, indices, size, dim):
        if 0 in indices.shape:
            return
        xp = self.xp
        low, high = int(xp.min(indices)), int(xp.max(indices))
        if low < 0 or high >= size:
            bad = low if low < 0 else high
            valid = f"0 to {size - 1}" if size else "none, the dim is empty"
            raise IndexOutOfRange(
                f"{user_call(op)}: index {bad} is out of range for dim {dim} of size {size} (valid: {valid})"
            )


def _supported(op, update, modes):
    """burn's backends implement these modes only (`unimplemented!` for the others)."""
    if update not in modes:
        names = ", ".join(m.value for m in modes)
        raise NotImplementedError(f"{op} with update {update!r} is not implemented; use {names}")
