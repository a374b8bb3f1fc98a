"""burn-tensor's shape and layout methods that burn builds from the backend ops (base.rs,
pad.rs, take.rs): each is a composition of catalogue methods, so gradients come free."""

from burnpy.runtime.arguments import FLOAT, INT
from burnpy.runtime.composed import checks


class ShapeMethods:
    __slots__ = ()

    # -- adding and removing dims of size 1 ---------------------------------------------------
    def unsqueeze(self, rank):
        """burn's `unsqueeze::<D>()`: size-1 dims prepended up to `rank` dims."""
        rank = checks.count("unsqueeze", "rank", rank)
        if rank < self.ndim:
            raise ValueError(
                f"unsqueeze: `rank` is the rank to reach (burn's `unsqueeze::<D>()`), not a dim, "
                f"and {rank} is below this tensor's rank {self.ndim} (shape {list(self.shape)}); "
                f"to insert a size-1 dim at {rank}, as PyTorch's `unsqueeze({rank})`, call "
                f"`unsqueeze_dim({rank})`"
            )
        return self.reshape([1] * (rank - self.ndim) + list(self.shape))

    def unsqueeze_dim(self, dim):
        """One size-1 dim inserted at `dim` (of the result: -1 appends)."""
        dim = checks.index("unsqueeze_dim", "dim", dim, self.ndim + 1)
        shape = list(self.shape)
        return self.reshape(shape[:dim] + [1] + shape[dim:])

    def unsqueeze_dims(self, dims):
        """Size-1 dims inserted at `dims`, positions in the result (a repeated dim inserts
        twice, at the next free place, as burn's)."""
        rank = self.ndim + len(dims)
        if any(not checks.is_int(d) for d in dims):
            raise TypeError(f"unsqueeze_dims: dims must be ints, got {list(dims)!r}")
        # burn's normalisation: negative dims count back from the end, each one slot earlier
        offset, positions = rank, []
        for d in dims:
            if not -rank <= d < rank:
                raise ValueError(f"unsqueeze_dims: dim {d} is out of range for rank {rank}")
            if d < 0:
                offset -= 1
                d = d + offset + 1
            positions.append(int(d))
        positions.sort()
        for i in range(1, len(positions)):
            positions[i] = max(positions[i], positions[i - 1] + 1)
        if positions and positions[-1] >= rank:
            raise ValueError(f"unsqueeze_dims: dims {list(dims)} do not fit in rank {rank}")
        old = iter(self.shape)
        return self.reshape([1 if i in positions else next(old) for i in range(rank)])

    def squeeze(self):
        """Every size-1 dim removed."""
        return self.reshape([s for s in self.shape if s != 1])

    def squeeze_dim(self, dim):
        """The size-1 dim `dim` removed."""
        dim = checks.index("squeeze_dim", "dim", dim, self.ndim)
        if self.shape[dim] != 1:
            raise ValueError(
                f"squeeze_dim: dim {dim} has size {self.shape[dim]}, not 1 "
                f"(shape {list(self.shape)})"
            )
        return self.reshape(self.shape[:dim] + self.shape[dim + 1 :])

    def squeeze_dims(self, dims):
        """The size-1 dims in `dims` removed; every size-1 dim if `dims` is empty."""
        if not dims:
            return self.squeeze()
        dims = set(checks.indices("squeeze_dims", "dims", dims, self.ndim))
        for d in dims:
            if self.shape[d] != 1:
                raise ValueError(
                    f"squeeze_dims: dim {d} has size {self.shape[d]}, not 1 "
                    f"(shape {list(self.shape)})"
                )
        return self.reshape([s for i, s in enumerate(self.shape) if i not in dims])

    def flatten(self, start_dim, end_dim):
        """Dims start_dim..=end_dim merged into one."""
        start = checks.index("flatten", "start_dim", start_dim, self.ndim)
        end = checks.index("flatten", "end_dim", end_dim, self.ndim)
        if start > end:
            raise ValueError(f"flatten: start_dim {start} is after end_dim {end}")
        shape = list(self.shape)
        merged = 1
        for s in shape[start : end + 1]:
            merged *= s
        return self.reshape(shape[:start] + [merged] + shape[end + 1 :])

    # -- reordering ---------------------------------------------------------------------------
    def t(self):
        """The last two dims swapped (burn's `t`, an alias of `transpose`)."""
        return self.transpose()

    def movedim(self, src, dst):
        """Dims `src` moved to places `dst` (an int or a list of ints each); the others keep
        their order."""
        src = [src] if checks.is_int(src) else list(src)
        dst = [dst] if checks.is_int(dst) else list(dst)
        if len(src) != len(dst):
            raise ValueError(f"movedim: src {src} and dst {dst} differ in length")
        src = checks.indices("movedim", "src", src, self.ndim)
        dst = checks.indices("movedim", "dst", dst, self.ndim)
        if len(set(src)) != len(src) or len(set(dst)) != len(dst):
            raise ValueError(f"movedim: src {src} and dst {dst} must not repeat a dim")
        axes = [None] * self.ndim
        for d, s in zip(dst, src):
            axes[d] = s
        rest = iter(d for d in range(self.ndim) if d not in src)
        return self.permute([a if a is not None else next(rest) for a in axes])

    def roll_dim(self, shift, dim):
        """Elements rotated along `dim`: result[i] = tensor[(i + shift) mod size] (burn's
        direction)."""
        dim = checks.index("roll_dim", "dim", dim, self.ndim)
        if not checks.is_int(shift):
            raise TypeError(f"roll_dim: shift must be an int, got {type(shift).__name__}")
        size = self.shape[dim]
        shift = int(shift) % size if size else 0
        if shift == 0:
            return self
        parts = [self.slice_dim(dim, (shift, None)), self.slice_dim(dim, (0, shift))]
        return type(self).cat(parts, dim)

    def roll(self, shifts, dims):
        """`roll_dim` for each (shift, dim) pair; shifts on the same dim add up."""
        if len(shifts) != len(dims):
            raise ValueError(f"roll: shifts {list(shifts)} and dims {list(dims)} differ in length")
        total = [0] * self.ndim
        for shift, dim in zip(shifts, dims):
            if not checks.is_int(shift):
                raise TypeError(f"roll: shifts must be ints, got {shift!r}")
            total[checks.index("roll", "dims", dim, self.ndim)] += int(shift)
        result = self
        for dim, shift in enumerate(total):
            result = result.roll_dim(shift, dim)
        return result

    def repeat(self, sizes):
        """Tiled `sizes[d]` times along each leading dim d."""
        sizes = [checks.count("repeat", "sizes", s) for s in sizes]
        if len(sizes) > self.ndim:
            raise ValueError(f"repeat: {len(sizes)} sizes for a tensor of rank {self.ndim}")
        result = self
        for dim, times in enumerate(sizes):
            if times != 1:
                result = result.repeat_dim(dim, times)
        return result

    # -- parts along one dim ------------------------------------------------------------------
    def narrow(self, dim, start, length):
        """`length` elements along `dim` from `start`."""
        dim = checks.index("narrow", "dim", dim, self.ndim)
        start = checks.count("narrow", "start", start)
        length = checks.count("narrow", "length", length)
        if length == 0:  # (burn's check: a quantized tensor would otherwise narrow to nothing)
            raise ValueError(
                f"narrow: Can't narrow at dimension {dim}, length must be greater than 0"
            )
        if start + length > self.shape[dim]:
            raise ValueError(
                f"narrow: start {start} + length {length} exceeds dim {dim} of size "
                f"{self.shape[dim]}"
            )
        return self.slice_dim(dim, (start, start + length))

    def slice_dim(self, dim, slice):
        """`slice` along `dim` only: an int (kept as a size-1 dim), a Python slice, or a
        (start, end[, step]) range as `Tensor.slice` reads it."""
        dim = checks.index("slice_dim", "dim", dim, self.ndim)
        return self.slice([None] * dim + [slice])

    def select_dim(self, dim, index):
        """Row `index` of `dim`, the dim removed."""
        dim = checks.index("select_dim", "dim", dim, self.ndim)
        return self.slice_dim(dim, index).squeeze_dim(dim)

    def slice_fill(self, slices, value):
        """A copy with the elements in `slices` set to `value`."""
        part = self.slice(slices)
        fill = type(self).full(part.shape, value, device=self.device(), dtype=self.dtype)
        return self.slice_assign(slices, fill)

    def iter_dim(self, dim):
        """The size-1 slices along `dim`, in order."""
        dim = checks.index("iter_dim", "dim", dim, self.ndim)
        return (self.narrow(dim, i, 1) for i in range(self.shape[dim]))

    def split_with_sizes(self, split_sizes, dim):
        """Consecutive parts of the given sizes along `dim` (size-0 parts left out)."""
        dim = checks.index("split_with_sizes", "dim", dim, self.ndim)
        sizes = [checks.count("split_with_sizes", "split_sizes", s) for s in split_sizes]
        if sum(sizes) != self.shape[dim]:
            raise ValueError(
                f"split_with_sizes: sizes {sizes} add up to {sum(sizes)}, not to the "
                f"size {self.shape[dim]} of dim {dim}"
            )
        parts, start = [], 0
        for size in sizes:
            if size:
                parts.append(self.narrow(dim, start, size))
                start += size
        return parts

    def split(self, split_size, dim):
        """Parts of `split_size` along `dim`, the last one shorter if needed."""
        dim = checks.index("split", "dim", dim, self.ndim)
        split_size = checks.count("split", "split_size", split_size, minimum=1)
        size = self.shape[dim]
        return self.split_with_sizes(
            [min(split_size, size - s) for s in range(0, size, split_size)], dim
        )

    def chunk(self, chunks, dim):
        """At most `chunks` parts along `dim`, all of size ceil(size / chunks) but the last.
        (Where burn's arithmetic would overrun, e.g. 5 rows in 4 chunks, this gives torch's
        answer, 3 chunks of 2, 2, 1.)"""
        dim = checks.index("chunk", "dim", dim, self.ndim)
        chunks = checks.count("chunk", "chunks", chunks, minimum=1)
        size = self.shape[dim]
        return self.split(max(1, -(-size // chunks)), dim)

    @classmethod
    def stack(cls, tensors, dim):
        """The tensors (all of one shape) joined along a new dim `dim`."""
        tensors = list(tensors)
        if not tensors:
            raise ValueError("stack: needs at least one tensor")
        shapes = {t.shape for t in tensors}
        if len(shapes) != 1:
            raise ValueError(f"stack: the tensors' shapes differ: {sorted(shapes)}")
        dim = checks.index("stack", "dim", dim, tensors[0].ndim + 1)
        return cls.cat([t.unsqueeze_dim(dim) for t in tensors], dim)

    def take(self, dim, indices):
        """`select` with an Int index tensor of any rank: the result's shape is
        shape[:dim] + indices.shape + shape[dim + 1:]."""
        dim = checks.index("take", "dim", dim, self.ndim)
        checks.kind("take", indices, (INT,))
        selected = self.select(dim, indices.reshape([indices.numel()]))
        shape = list(self.shape)
        return selected.reshape(shape[:dim] + list(indices.shape) + shape[dim + 1 :])

    # -- padding ------------------------------------------------------------------------------
    def pad(self, padding, mode=0.0):
        """Padding of the trailing dims. `padding` is (left, right, top, bottom) for the last
        two dims, or a list of (before, after) pairs for the last len(padding) dims; `mode` is
        a number (a constant), "reflect" (mirrored, edge excluded) or "edge" (repeated)."""
        checks.kind("pad", self, (FLOAT, INT))
        pairs = _pad_pairs(padding, self.ndim)
        if isinstance(mode, str):
            if mode.lower() not in ("reflect", "edge"):
                raise ValueError(f"pad: mode {mode!r} is a number, 'reflect' or 'edge'")
            mode = mode.lower()
        else:
            checks.scalar("pad", "mode", mode)
        result = self
        for dim, (before, after) in enumerate(pairs):
            if before or after:
                result = _pad_dim(result, dim, before, after, mode)
        return result


def _pad_pairs(padding, rank: int) -> list:
    entries = list(padding)
    if len(entries) == 4 and all(checks.is_int(p) for p in entries):
        left, right, top, bottom = entries
        if rank < 2:
            raise ValueError("pad: (left, right, top, bottom) needs a tensor of rank >= 2")
        given = [(top, bottom), (left, right)]
    elif all(isinstance(p, tuple | list) and len(p) == 2 for p in entries):
        given = [tuple(p) for p in entries]
    else:
        raise TypeError(
            f"pad: padding is (left, right, top, bottom) or a list of (before, after) pairs, "
            f"got {padding!r}"
        )
    if len(given) > rank:
        raise ValueError(f"pad: {len(given)} (before, after) pairs for a tensor of rank {rank}")
    for pair in given:
        for p in pair:
            checks.count("pad", "padding", p)
    return [(0, 0)] * (rank - len(given)) + [(int(b), int(a)) for b, a in given]


def _pad_dim(tensor, dim: int, before: int, after: int, mode):
    size = tensor.shape[dim]
    if mode == "reflect":
        if before >= size or after >= size:
            raise ValueError(
                f"pad: reflect padding ({before}, {after}) must be below the size {size} of "
                f"dim {dim}"
            )
        head = tensor.narrow(dim, 1, before).flip([dim]) if before else None
        tail = tensor.narrow(dim, size - after - 1, after).flip([dim]) if after else None
    elif mode == "edge":
        if size == 0:
            raise ValueError(f"pad: edge padding of dim {dim}, which has size 0")
        head = tensor.narrow(dim, 0, 1).repeat_dim(dim, before) if before else None
        tail = tensor.narrow(dim, size - 1, 1).repeat_dim(dim, after) if after else None
    else:

        def block(n):
            shape = list(tensor.shape)
            shape[dim] = n
            return type(tensor).full(shape, mode, device=tensor.device(), dtype=tensor.dtype)

        head = block(before) if before else None
        tail = block(after) if after else None
    parts = [p for p in (head, tensor, tail) if p is not None]
    return type(tensor).cat(parts, dim)
