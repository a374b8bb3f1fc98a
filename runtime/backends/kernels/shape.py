"""Shape ops: views where the library gives them; every kind shares one kernel.

`slices` arrive resolved by the API (runtime/arguments.py `slices_arg`): one (start, end, step)
per dim with 0 <= start <= end <= size; a negative step walks the range backwards (burn).
"""

from burnpy.runtime.errors import user_call


def forward_index(slices) -> tuple:
    """(index, flipped): Python slices with positive steps that read the same elements, and the
    dims to flip once read (torch slices only forwards). burn walks a negative step from the
    range's last element down: read it forwards from the element that walk ends on."""
    index, flipped = [], []
    for dim, (start, end, step) in enumerate(slices):
        if step < 0 and end > start:
            step = -step
            start += (end - 1 - start) % step
            flipped.append(dim)
        index.append(slice(start, end, abs(step)))
    return tuple(index), tuple(flipped)


class ShapeKernels:
    def float_reshape(self, tensor, shape):
        return self.xp.reshape(tensor, shape)

    int_reshape = bool_reshape = float_reshape

    def float_swap_dims(self, tensor, dim1, dim2):
        axes = list(range(tensor.ndim))
        axes[dim1], axes[dim2] = axes[dim2], axes[dim1]
        return self.xp.permute_dims(tensor, axes)

    int_swap_dims = bool_swap_dims = float_swap_dims

    def float_permute(self, tensor, axes):
        if sorted(axes) != list(range(tensor.ndim)):
            raise ValueError(
                f"{user_call('permute')}: axes {list(axes)} are not a permutation of the {tensor.ndim} dims"
            )
        return self.xp.permute_dims(tensor, tuple(axes))

    int_permute = bool_permute = float_permute

    def float_flip(self, tensor, axes):
        return self.xp.flip(tensor, axis=tuple(axes)) if axes else tensor

    int_flip = bool_flip = float_flip

    def float_expand(self, tensor, shape):
        shape = tuple(shape)
        padded = (1,) * (len(shape) - tensor.ndim) + tuple(tensor.shape)
        if len(shape) < tensor.ndim or any(
            have not in (1, want) for have, want in zip(padded, shape)
        ):
            raise ValueError(
                f"{user_call('expand')}: shape {list(tensor.shape)} cannot be broadcast to {list(shape)}; "
                "each dim must match or be 1 (new dims go in front)"
            )
        return self.xp.broadcast_to(tensor, shape)

    int_expand = bool_expand = float_expand

    def float_repeat_dim(self, tensor, dim, times):
        if times < 0:
            raise ValueError(f"{user_call('repeat_dim')}: times is {times}; it cannot be negative")
        reps = [1] * tensor.ndim
        reps[dim] = times
        return self.xp.tile(tensor, tuple(reps))  # tiled: [a, b] -> [a, b, a, b]

    int_repeat_dim = bool_repeat_dim = float_repeat_dim

    def float_slice(self, tensor, slices):
        index, flipped = forward_index(slices)
        out = tensor[index]
        return self.xp.flip(out, axis=flipped) if flipped else out

    int_slice = bool_slice = float_slice

    def float_slice_assign(self, tensor, slices, value):
        index, flipped = forward_index(slices)
        out = self.xp.asarray(tensor, copy=True)  # burn's tensors are immutable
        target = out[index].shape
        if tuple(value.shape) != tuple(target):
            raise ValueError(
                f"{user_call('slice_assign')}: the value has shape {list(value.shape)} but the slice has "
                f"shape {list(target)}"
            )
        out[index] = self.xp.flip(value, axis=flipped) if flipped else value
        return out

    int_slice_assign = bool_slice_assign = float_slice_assign

    def float_cat(self, tensors, dim):
        first = tensors[0]
        for other in tensors[1:]:
            if other.ndim != first.ndim or any(
                a != b for d, (a, b) in enumerate(zip(first.shape, other.shape)) if d != dim
            ):
                raise ValueError(
                    f"{user_call('cat')}: shapes {list(first.shape)} and {list(other.shape)} differ outside "
                    f"dim {dim}; every dim but the one concatenated must match"
                )
        return self.xp.concat(tensors, axis=dim)

    int_cat = bool_cat = float_cat

    def float_unfold(self, tensor, dim, size, step):
        """Windows of `size` every `step` along dim: [pre, windows, post, size] (burn)."""
        xp = self.xp
        shape = tuple(tensor.shape)
        index = self.window_index(shape[dim], size, step, tensor.device)
        windows = index.shape[0] // size if size else 0
        out = xp.take(tensor, index, axis=dim)  # [pre, windows * size, post]
        out = xp.reshape(out, shape[:dim] + (windows, size) + shape[dim + 1 :])
        axes = [*range(dim + 1), *range(dim + 2, len(shape) + 1), dim + 1]
        return xp.permute_dims(out, axes)

    int_unfold = bool_unfold = float_unfold

    def window_index(self, length, size, step, device):
        """The flat positions of unfold's windows, window after window (an int64 primitive):
        burn's count, (length - size) // step + 1 windows when size <= length, else none."""
        if size < 1 or step < 1:
            raise ValueError(
                f"{user_call('unfold')}: size {size} and step {step} must both be at least 1"
            )
        xp = self.xp
        windows = (length - size) // step + 1 if size <= length else 0
        starts = xp.arange(windows, dtype=xp.int64, device=device) * step
        offsets = xp.arange(size, dtype=xp.int64, device=device)
        return xp.reshape(starts[:, None] + offsets[None, :], (-1,))
