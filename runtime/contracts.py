"""Shape contracts: what an op requires of its inputs' shapes (ops.yaml `contract:`), said in
our words and the same on every backend.

They are checked on the slow path only: a dispatch function runs its kernel, and only when the
kernel raises does it call `check_contract`, which raises a ValueError naming the op and the
shapes if the contract is broken (the backend's own error becomes its cause), and otherwise
lets the backend's error through. A call that succeeds pays nothing.
"""

import numpy as np

from runtime.dispatch import DispatchTensor


class ShapeError(ValueError):
    """An op's inputs break its shape contract."""


def check_contract(op: str, contract: str | None, error: BaseException, **args) -> None:
    """Raise a ShapeError if `args` (the op's arguments by name) break `contract`, or a dim
    argument is out of range for its tensor."""
    problem = _dims_problem(args)
    if problem is None and contract is not None:
        problem = CONTRACTS[contract](args)
    if problem is not None:
        raise ShapeError(f"{op}: {problem}") from error


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


CONTRACTS = {
    "broadcast": _broadcast,
    "matmul": _matmul,
    "cat": _cat,
    "nonempty": _nonempty,
    "indexed": _indexed,
    "selected": _selected,
}
