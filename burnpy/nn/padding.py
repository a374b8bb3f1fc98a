"""burn-nn's padding configs: an int, n ints (symmetric), 2n ints (burn's `Explicit`: the
starts then the ends, e.g. (top, left, bottom, right)), "same" or "valid", turned into
start/end pads."""

from burnpy.generated import Tensor


def pair(value, name: str, n: int = 2) -> tuple:
    """An int repeated `n` times, or a list/tuple of length `n`."""
    if isinstance(value, int):
        return (value,) * n
    if (
        isinstance(value, list | tuple)
        and len(value) == n
        and all(isinstance(v, int) for v in value)
    ):
        return tuple(value)
    raise ValueError(f"{name} must be an int or {n} ints, got {value!r}")


def check_padding(padding, n: int):
    """Validate a padding config once, at construction."""
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(
                f'padding must be an int, {n} ints, {2 * n} ints (starts then ends), "same" or '
                f'"valid", got {padding!r}'
            )
        return padding
    if isinstance(padding, list | tuple) and len(padding) == 2 * n:
        return pair(padding, "padding", 2 * n)
    try:
        return pair(padding, "padding", n)
    except ValueError:
        raise ValueError(
            f'padding must be an int, {n} ints, {2 * n} ints (starts then ends), "same" or '
            f'"valid", got {padding!r}'
        ) from None


def resolve(padding, sizes, kernel, stride, dilation) -> tuple:
    """(start pads, end pads) per spatial dim for inputs of spatial `sizes`.

    "same" pads so the output has ceil(size / stride) elements, the extra pad at the end, as
    burn's `calculate_same_padding`; the dilated kernel's extent is used, so it also holds with
    dilation > 1."""
    n = len(sizes)
    if padding == "valid":
        return (0,) * n, (0,) * n
    if padding != "same":
        return (padding, padding) if len(padding) == n else (padding[:n], padding[n:])
    starts, ends = [], []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        out = -(-size // s)
        total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
        starts.append(total // 2)
        ends.append(total - total // 2)
    return tuple(starts), tuple(ends)


def pad(x, starts, ends, value: float):
    """`x` [..., *spatial] padded with `value` over its last len(starts) dims: `starts` before,
    `ends` after each."""
    n = len(starts)
    for dim, before, after in zip(range(-n, 0), starts, ends):
        pieces = []
        for width in (before, after):
            shape = list(x.shape)
            shape[dim] = width
            pieces.append(
                Tensor.full(shape, value, device=x.device().inner(), dtype=x.dtype)
                if width
                else None
            )
        pieces = [p for p in (pieces[0], x, pieces[1]) if p is not None]
        x = Tensor.cat(pieces, x.ndim + dim) if len(pieces) > 1 else x
    return x
