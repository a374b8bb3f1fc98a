"""Shape contracts: what an op requires of its inputs' shapes (ops.yaml `contract:`), said in
our words and the same on every backend.

They are checked on the slow path only: a dispatch function runs its kernel, and only when the
kernel raises does it call `check_contract`, which raises a ValueError naming the call the user
made and the shapes if the contract is broken (the backend's own error becomes its cause), a
MemoryError if the backend could not allocate, and otherwise lets the backend's error through.
A call that succeeds pays nothing.
"""

import math

import numpy as np

from burnpy.runtime.backends.kernels.conv import conv_output_size
from burnpy.runtime.dispatch import DispatchTensor
from burnpy.runtime.errors import user_call


class ShapeError(ValueError):
    """An op's inputs break its shape contract."""


def check_contract(op: str, contract: str | None, error: BaseException, **args) -> None:
    """Raise a ShapeError if `args` (the op's arguments by name) break `contract`, or a dim
    argument is out of range for its tensor; a MemoryError if the backend could not allocate."""
    problem = _dims_problem(args)
    if problem is None and contract is not None:
        problem = CONTRACTS[contract](args)
    if problem is not None:
        raise ShapeError(f"{user_call(op)}: {problem}") from error
    if _out_of_memory(error):
        raise MemoryError(
            f"{user_call(op)}: the result does not fit in this machine's memory (inputs "
            f"{_described(args)})"
        ) from error


def _out_of_memory(error: BaseException) -> bool:
    """numpy raises MemoryError, Torch's allocators a RuntimeError (`torch.OutOfMemoryError` on
    a GPU): both are said alike."""
    return (
        isinstance(error, MemoryError)
        or type(error).__name__ == "OutOfMemoryError"
        or "can't allocate memory" in str(error)
    )


def _described(args) -> str:
    return ", ".join(f"`{n}` {_shape(t)}" for n, t in _tensors(args))


def _tensors(args) -> list[tuple[str, DispatchTensor]]:
    return [(name, t) for name, t in args.items() if isinstance(t, DispatchTensor)]


def _shape(t) -> list[int]:
    return list(t.shape)


def _dims_problem(args):
    """A `dim`/`dims` argument against the rank of the op's first tensor."""
    tensors = _tensors(args)
    if not tensors:
        return None
    name, first = tensors[0]
    rank = len(first.shape)
    for key in ("dim", "dim1", "dim2", "dims", "axes"):
        value = args.get(key)
        values = value if isinstance(value, list | tuple) else [value]
        for dim in values:
            if isinstance(dim, int) and not -rank <= dim < max(rank, 1):
                return (
                    f"dim {dim} is out of range for `{name}` of shape {_shape(first)} (rank "
                    f"{rank}; valid dims {-rank}..{max(rank, 1) - 1})"
                )
    return None


def _broadcasts(shapes) -> bool:
    try:
        np.broadcast_shapes(*map(tuple, shapes))
        return True
    except ValueError:
        return False


def _broadcast(args):
    tensors = _tensors(args)
    if not _broadcasts([_shape(t) for _, t in tensors]):
        shapes = " and ".join(f"`{n}` {_shape(t)}" for n, t in tensors)
        return f"shapes {shapes} do not broadcast (each dim must be equal, or 1 in one of them)"
    return None


def _matmul(args):
    (a_name, a), (b_name, b) = _tensors(args)
    sa, sb = _shape(a), _shape(b)
    if len(sa) < 2 or len(sb) < 2:
        return f"`{a_name}` {sa} and `{b_name}` {sb} must each have rank 2 or more"
    if sa[-1] != sb[-2]:
        return (
            f"cannot multiply `{a_name}` {sa} by `{b_name}` {sb}: {a_name}'s last dim "
            f"({sa[-1]}) must equal {b_name}'s second-to-last ({sb[-2]})"
        )
    if not _broadcasts([sa[:-2], sb[:-2]]):
        return f"the batch dims of `{a_name}` {sa} and `{b_name}` {sb} do not broadcast"
    return None


def _cat(args):
    tensors = args["tensors"]
    dim = args["dim"]
    shapes = [_shape(t) for t in tensors]
    if not all(shapes):
        return f"a rank-0 tensor has no dim to join along (shapes {shapes}); reshape it to [1]"
    if len({len(s) for s in shapes}) > 1:
        return f"every tensor must have the same rank, got shapes {shapes}"
    rest = {tuple(s[:dim] + s[dim + 1 :]) for s in shapes}
    if len(rest) > 1:
        return f"every dim but dim {dim} must match, got shapes {shapes}"
    return None


def _nonempty(args):
    (name, t), *_ = _tensors(args)
    shape = _shape(t)
    dim = args.get("dim")
    size = shape[dim] if isinstance(dim, int) and shape else (0 if 0 in shape else 1)
    if size == 0:
        where = f"dim {dim}" if isinstance(dim, int) else "the tensor"
        return f"cannot reduce an empty {where} (shape {shape}): it has no maximum or minimum"
    return None


def _indexed(args):
    """gather/scatter: indices of the tensor's rank (burn)."""
    (name, t), (index_name, indices), *rest = _tensors(args)
    st, si = _shape(t), _shape(indices)
    if not st:
        return f"`{name}` is rank 0; it needs a dim to index along"
    if len(si) != len(st):
        return f"`{index_name}` {si} must have the rank of `{name}` {st}"
    for value_name, value in rest:
        if _shape(value) != si:
            return f"`{value_name}` {_shape(value)} must have the shape of `{index_name}` {si}"
    return None


def _selected(args):
    """select: 1-d indices along a dim."""
    (name, t), (index_name, indices), *_ = _tensors(args)
    if not _shape(t):
        return f"`{name}` is rank 0; it needs a dim to select along"
    if len(_shape(indices)) != 1:
        return f"`{index_name}` must be 1-d, got shape {_shape(indices)}"
    return None


def _cross(args):
    (a_name, a), (b_name, b) = _tensors(args)
    sa, sb, dim = _shape(a), _shape(b), args["dim"]
    if len(sa) != len(sb) or not _broadcasts([sa, sb]):
        return f"shapes `{a_name}` {sa} and `{b_name}` {sb} do not broadcast"
    if sa[dim] != 3 or sb[dim] != 3:
        return f"dim {dim} must have size 3 (3-vectors) in `{a_name}` {sa} and `{b_name}` {sb}"
    return None


def _square(args):
    """det: square matrices in the last two dims."""
    (name, t), *_ = _tensors(args)
    shape = _shape(t)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        return f"`{name}` {shape} must hold square matrices in its last two dims, [..., n, n]"
    return None


def _reshape(args):
    (name, t), *_ = _tensors(args)
    shape, numel = list(args["shape"]), int(np.prod(_shape(t)))
    known = int(np.prod([s for s in shape if s != -1]))  # -1: whatever the rest leaves
    fits = numel % known == 0 if -1 in shape and known else numel == known
    if not fits:
        return f"`{name}` of shape {_shape(t)} holds {numel} elements; it cannot take shape {shape}"
    return None


def _sliced(args):
    (name, t), *_ = _tensors(args)
    if len(args["slices"]) > len(_shape(t)):
        return f"{len(args['slices'])} ranges for `{name}` of shape {_shape(t)}: at most one a dim"
    return None


def _linear(args):
    x, weight, bias = args["input"], args["weight"], args.get("bias")
    sx, sw = _shape(x), _shape(weight)
    if len(sw) != 2:
        return f"`weight` must be [d_in, d_out], got shape {sw}"
    if not sx or sx[-1] != sw[0]:
        return f"the last dim of `input` {sx} must be the first of `weight` {sw} (d_in)"
    if bias is not None and _shape(bias) != [sw[1]]:
        return f"`bias` must be [d_out] = [{sw[1]}], got shape {_shape(bias)}"
    return None


def _spatial(n: int, layout: str):
    """conv, pool, unfold, interpolate: every tensor but a bias has n spatial dims after two."""

    def check(args):
        for name, t in _tensors(args):
            if name != "bias" and len(_shape(t)) != n + 2:
                return f"`{name}` must have rank {n + 2} ({layout}), got shape {_shape(t)}"
        return None

    return check


def _blocks(sizes, args) -> list[int]:
    """How many positions a kernel takes along each spatial size (unfold, fold, deform)."""
    options = ("kernel_size", "stride", "padding", "padding", "dilation")
    return [conv_output_size(n, *picked) for n, *picked in zip(sizes, *map(args.get, options))]


def _fold(args):
    sx, output_size = _shape(args["x"]), list(args["output_size"])
    per_block = math.prod(args["kernel_size"])
    blocks = math.prod(_blocks(output_size, args))
    if len(sx) != 3 or sx[1] % per_block or sx[2] != blocks:
        return (
            f"`x` {sx} must be [batch, channels * {per_block}, {blocks}] for output size "
            f"{output_size}, kernel {list(args['kernel_size'])} and these options"
        )
    return None


def _deform(args):
    problem = _spatial(2, "[batch, channels, height, width]")(args)
    if problem:
        return problem
    x, weight = _shape(args["x"]), _shape(args["weight"])
    groups, offset_groups = args["weight_groups"], args["offset_groups"]
    taps = weight[2] * weight[3]
    out_size = _blocks(x[2:], {**args, "kernel_size": weight[2:]})  # the output's [h, w]
    expected = {
        "weight": [weight[0], x[1] // groups, *weight[2:]],
        "offset": [x[0], 2 * offset_groups * taps, *out_size],
        "mask": [x[0], offset_groups * taps, *out_size],
        "bias": [weight[0]],
    }
    for name, shape in expected.items():
        t = args.get(name)
        if t is not None and _shape(t) != shape:
            return (
                f"`{name}` must be {shape} for `x` {x} and `weight` {weight} (weight_groups "
                f"{groups}, offset_groups {offset_groups}), got {_shape(t)}"
            )
    return None


def _per_channel(args):
    """batch_norm: every statistic is [channels], channels being dim 1 of `input`."""
    sx = _shape(args["input"])
    if len(sx) < 2:
        return f"`input` must be [batch, channels, ...], got shape {sx}"
    for name, t in _tensors(args)[1:]:
        if _shape(t) != [sx[1]]:
            return f"`{name}` must be [channels] = [{sx[1]}] for `input` {sx}, got {_shape(t)}"
    return None


def _last_dim(args):
    """layer_norm, rms_norm: gamma and beta are [d], the last dim of `input`."""
    (x_name, x), *rest = _tensors(args)
    sx = _shape(x)
    if not sx:
        return f"`{x_name}` is rank 0; it needs a last dim to normalise"
    for name, t in rest:
        if _shape(t) != [sx[-1]]:
            return f"`{name}` must be [{sx[-1]}], the last dim of `{x_name}` {sx}, got {_shape(t)}"
    return None


def _attention(args):
    """query [..., Lq, d], key [..., Lk, d], value [..., Lk, dv]; burn's are [batch, heads, ...]."""
    q, k, v = (_shape(args[n]) for n in ("query", "key", "value"))
    for name, s in zip(("query", "key", "value"), (q, k, v)):
        if len(s) < 2:
            return f"`{name}` must be [batch, heads, seq_len, head_dim], got shape {s}"
    if not _broadcasts([q[:-2], k[:-2], v[:-2]]):
        return f"the batch dims of `query` {q}, `key` {k} and `value` {v} do not broadcast"
    if q[-1] != k[-1]:
        return f"`query` {q} and `key` {k} must share the head dim (the last)"
    if k[-2] != v[-2]:
        return f"`key` {k} and `value` {v} must share the sequence length (the second-to-last)"
    scores = [*np.broadcast_shapes(tuple(q[:-2]), tuple(k[:-2])), q[-2], k[-2]]
    for name in ("mask", "attn_bias"):
        t = args.get(name)
        if t is not None and not _broadcasts([_shape(t), scores]):
            return (
                f"`{name}` {_shape(t)} must broadcast to [..., query length, key length] = "
                f"{scores}"
            )
    return None


def _ctc(args):
    lp, targets = _shape(args["log_probs"]), _shape(args["targets"])
    if len(lp) != 3:
        return f"`log_probs` must be [time, batch, classes], got shape {lp}"
    if len(targets) != 2 or targets[0] != lp[1]:
        return f"`targets` must be [batch, max target len] with batch {lp[1]}, got {targets}"
    for name in ("input_lengths", "target_lengths"):
        if _shape(args[name]) != [lp[1]]:
            return f"`{name}` must be [batch] = [{lp[1]}], got shape {_shape(args[name])}"
    return None


def _class_targets(args):
    logits, targets = _shape(args["logits"]), _shape(args["targets"])
    if len(logits) != 2 or targets != logits[:1]:
        return (
            f"`logits` must be [batch, classes] and `targets` [batch], got {logits} and {targets}"
        )
    return None


def _same_shape(args):
    (a_name, a), (b_name, b), *_ = _tensors(args)
    if _shape(a) != _shape(b):
        return f"`{a_name}` {_shape(a)} and `{b_name}` {_shape(b)} must have one shape"
    return None


CONTRACTS = {
    "broadcast": _broadcast,
    "matmul": _matmul,
    "cat": _cat,
    "nonempty": _nonempty,
    "indexed": _indexed,
    "selected": _selected,
    "cross": _cross,
    "square": _square,
    "reshape": _reshape,
    "sliced": _sliced,
    "linear": _linear,
    "spatial1d": _spatial(1, "[batch, channels, length]"),
    "spatial2d": _spatial(2, "[batch, channels, height, width]"),
    "spatial3d": _spatial(3, "[batch, channels, depth, height, width]"),
    "fold": _fold,
    "deform": _deform,
    "per_channel": _per_channel,
    "last_dim": _last_dim,
    "attention": _attention,
    "ctc": _ctc,
    "class_targets": _class_targets,
    "same_shape": _same_shape,
}
