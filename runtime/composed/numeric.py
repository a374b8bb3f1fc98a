"""burn-tensor's numeric, orderable, int and bool methods that burn builds from the backend ops
(numeric.rs, orderable.rs, int.rs, bool.rs, cartesian_grid.rs), and its `*_scalar` spellings."""

import numpy as np

from burnpy.runtime.arguments import BOOL, FLOAT, INT, is_scalar
from burnpy.runtime.composed import checks


def _scalar_spelling(spelling: str, name: str):
    """burn's `spelling(value)`: the method `name` with a scalar right-hand side."""

    def method(self, value):
        if not is_scalar(value):
            raise TypeError(
                f"{spelling}: takes a number, got {type(value).__name__}; "
                f"use {name}() for a tensor"
            )
        return getattr(self, name)(value)

    method.__name__ = spelling
    method.__doc__ = f"`{name}` with a scalar (burn's `{spelling}`)."
    return method


def _dims_fold(reduction: str):
    """burn's `<reduction>s(dims)`: `<reduction>(d)` for each d in turn (each dim kept)."""
    spelling = f"{reduction}s"

    def method(self, dims):
        result = self
        for dim in checks.indices(spelling, "dims", dims, self.ndim):
            result = getattr(result, reduction)(dim)
        return result

    method.__name__ = spelling
    method.__doc__ = f"`{reduction}` over each of `dims`, every reduced dim kept with size 1."
    return method


class NumericMethods:
    __slots__ = ()

    add_scalar = _scalar_spelling("add_scalar", "add")
    sub_scalar = _scalar_spelling("sub_scalar", "sub")
    mul_scalar = _scalar_spelling("mul_scalar", "mul")
    div_scalar = _scalar_spelling("div_scalar", "div")
    remainder_scalar = _scalar_spelling("remainder_scalar", "remainder")
    powf_scalar = _scalar_spelling("powf_scalar", "powf")
    powi_scalar = _scalar_spelling("powi_scalar", "powi")
    fmod_scalar = _scalar_spelling("fmod_scalar", "fmod")
    equal_scalar = _scalar_spelling("equal_scalar", "equal_elem")
    not_equal_scalar = _scalar_spelling("not_equal_scalar", "not_equal_elem")
    greater_scalar = _scalar_spelling("greater_scalar", "greater_elem")
    greater_equal_scalar = _scalar_spelling("greater_equal_scalar", "greater_equal_elem")
    lower_scalar = _scalar_spelling("lower_scalar", "lower_elem")
    lower_equal_scalar = _scalar_spelling("lower_equal_scalar", "lower_equal_elem")
    bitwise_and_scalar = _scalar_spelling("bitwise_and_scalar", "bitwise_and")
    bitwise_or_scalar = _scalar_spelling("bitwise_or_scalar", "bitwise_or")
    bitwise_xor_scalar = _scalar_spelling("bitwise_xor_scalar", "bitwise_xor")
    bitwise_left_shift_scalar = _scalar_spelling("bitwise_left_shift_scalar", "bitwise_left_shift")
    bitwise_right_shift_scalar = _scalar_spelling(
        "bitwise_right_shift_scalar", "bitwise_right_shift"
    )

    sum_dims = _dims_fold("sum_dim")
    mean_dims = _dims_fold("mean_dim")
    prod_dims = _dims_fold("prod_dim")
    max_dims = _dims_fold("max_dim")
    min_dims = _dims_fold("min_dim")
    max_abs_dims = _dims_fold("max_abs_dim")

    def sum_dims_squeeze(self, dims):
        """`sum_dims(dims)` with the reduced dims removed."""
        return self.sum_dims(dims).squeeze_dims(dims) if dims else self

    # -- metadata burn reads as methods -------------------------------------------------------
    def rank(self) -> int:
        return self.ndim

    def dims(self) -> list:
        return list(self.shape)

    # -- creation like another tensor ---------------------------------------------------------
    def zeros_like(self):
        return type(self).zeros(self.shape, device=self.device(), dtype=self.dtype)

    def ones_like(self):
        return type(self).ones(self.shape, device=self.device(), dtype=self.dtype)

    def empty_like(self):
        return type(self).empty(self.shape, device=self.device(), dtype=self.dtype)

    @classmethod
    def from_floats(cls, data, *, device=None):
        """A float32 tensor of `data` (burn's `from_floats`)."""
        return cls.from_data(np.asarray(data, dtype=np.float32), device=device)

    @classmethod
    def from_ints(cls, data, *, device=None):
        """An int32 tensor of `data` (burn's `from_ints`)."""
        return cls.from_data(np.asarray(data, dtype=np.int32), device=device)

    @classmethod
    def from_bool(cls, data, *, device=None):
        return cls.from_data(np.asarray(data, dtype=np.bool_), device=device)

    @classmethod
    def arange_step(cls, start, end, step, *, device=None, dtype=None):
        """burn's `arange_step(start..end, step)`: `arange` with a step."""
        return cls.arange(start, end, step, device=device, dtype=dtype)

    @classmethod
    def eye(cls, size, *, device=None, dtype=None):
        """The identity matrix [size, size] (float by default)."""
        size = checks.count("eye", "size", size)
        ones = cls.ones([size, size], device=device, dtype=dtype)
        return ones.mask_fill(cls.diag_mask([size, size], 0, device=device), 0)

    # -- pairs and orderings ------------------------------------------------------------------
    def max_pair(self, other):
        """The element-wise larger of two tensors (burn: `mask_where(lower)`)."""
        return self.mask_where(self.lower(other), other)

    def min_pair(self, other):
        """The element-wise smaller of two tensors (burn: `mask_where(greater)`)."""
        return self.mask_where(self.greater(other), other)

    def sort_descending(self, dim):
        return self.sort(dim, descending=True)

    def sort_descending_with_indices(self, dim):
        return self.sort_with_indices(dim, descending=True)

    def argsort_descending(self, dim):
        return self.argsort(dim, descending=True)

    def dot(self, other):
        """The sum of the element-wise product of two vectors, as a [1] tensor."""
        if self.ndim != 1 or other.ndim != 1:
            raise ValueError(
                f"dot: needs two rank-1 tensors, got shapes {list(self.shape)} and "
                f"{list(other.shape)}"
            )
        return self.mul(other).sum()

    # -- triangles ----------------------------------------------------------------------------
    def tril(self, diagonal=0):
        """Zeros above the `diagonal`-th diagonal of the last two dims."""
        checks.rank_at_least("tril", self, 2)
        mask = type(self).tril_mask(self.shape[-2:], diagonal, device=self.device())
        return self.mask_fill(mask, 0)

    def triu(self, diagonal=0):
        """Zeros below the `diagonal`-th diagonal of the last two dims."""
        checks.rank_at_least("triu", self, 2)
        mask = type(self).triu_mask(self.shape[-2:], diagonal, device=self.device())
        return self.mask_fill(mask, 0)

    @classmethod
    def tril_mask(cls, shape, offset=0, *, device=None):
        """True above the `offset`-th diagonal (what `tril` zeros), of the last two dims."""
        return cls._tri_mask("tril_mask", shape, offset, device, "lower_elem")

    @classmethod
    def triu_mask(cls, shape, offset=0, *, device=None):
        """True below the `offset`-th diagonal (what `triu` zeros), of the last two dims."""
        return cls._tri_mask("triu_mask", shape, offset, device, "greater_elem")

    @classmethod
    def diag_mask(cls, shape, offset=0, *, device=None):
        """True off the `offset`-th diagonal of the last two dims."""
        return cls._tri_mask("diag_mask", shape, offset, device, "not_equal_elem")

    @classmethod
    def _tri_mask(cls, method, shape, offset, device, compare):
        shape = [checks.count(method, "shape", s) for s in shape]
        if len(shape) < 2:
            raise ValueError(f"{method}: needs a shape of rank >= 2, got {shape}")
        if not checks.is_int(offset):
            raise TypeError(f"{method}: offset must be an int, got {type(offset).__name__}")
        rank, (height, width) = len(shape), shape[-2:]
        rows = cls.arange(0, height, device=device).reshape([1] * (rank - 2) + [height, 1])
        cols = cls.arange(0, width, device=device).reshape([1] * (rank - 1) + [width])
        # row - col + offset compared with 0 (burn's broadcasting trick); the mask is
        # broadcast to `shape`
        mask = getattr(rows.sub(cols.sub(int(offset))), compare)(0)
        return mask.expand(shape)

    @classmethod
    def cartesian_grid(cls, shape, *, device=None):
        """An Int tensor [*shape, len(shape)]: at each position, its own index."""
        shape = [checks.count("cartesian_grid", "shape", s) for s in shape]
        axes = []
        for dim, size in enumerate(shape):
            view = [1] * len(shape)
            view[dim] = size
            axes.append(cls.arange(0, size, device=device).reshape(view).expand(shape))
        return cls.stack(axes, len(shape))

    # -- one-hot ------------------------------------------------------------------------------
    def one_hot(self, num_classes):
        """A new last dim of `num_classes`: 1 at each element's value, 0 elsewhere (of this
        tensor's kind; negative values count from the end)."""
        return self.one_hot_fill(num_classes, 1.0, 0.0, -1)

    def one_hot_fill(self, num_classes, on_value, off_value, axis):
        """`one_hot` with `on_value` and `off_value`, the new dim inserted at `axis`."""
        checks.kind("one_hot", self, (FLOAT, INT))
        num_classes = checks.count("one_hot", "num_classes", num_classes, minimum=2)
        axis = checks.index("one_hot", "axis", axis, self.ndim + 1)
        on_value = checks.scalar("one_hot", "on_value", on_value)
        off_value = checks.scalar("one_hot", "off_value", off_value)
        if self.kind.tensor_kind is INT:  # an Int tensor's fill is an int
            if not (float(on_value).is_integer() and float(off_value).is_integer()):
                raise TypeError("one_hot: an Int tensor takes integer on_value and off_value")
            on_value, off_value = int(on_value), int(off_value)
        indices = self.int() if self.kind.tensor_kind is FLOAT else self
        if indices.numel() and (
            indices.greater_equal_elem(num_classes).any().item()
            or indices.lower_elem(-num_classes).any().item()
        ):
            raise ValueError(
                f"one_hot: values must lie in -{num_classes}..{num_classes - 1} for "
                f"num_classes={num_classes}"
            )
        indices = indices.add(indices.lower_elem(0).int().mul(num_classes)).unsqueeze_dim(axis)
        shape = list(self.shape)
        shape.insert(axis, num_classes)
        full = type(self).full
        output = full(shape, off_value, device=self.device(), dtype=self.dtype)
        on = full(indices.shape, on_value - off_value, device=self.device(), dtype=self.dtype)
        return output.scatter(axis, indices, on, "add")

    # -- bool ---------------------------------------------------------------------------------
    def nonzero(self):
        """One Int tensor per dim of a Bool tensor: the coordinates of its true elements."""
        checks.kind("nonzero", self, (BOOL,))
        coords = self.argwhere()
        return [coords.slice_dim(1, d).reshape([coords.shape[0]]) for d in range(self.ndim)]
