"""Pooling geometry, as burn computes it (burn-backend `calculate_pool_output_size`,
burn-ndarray's avg and adaptive pools).

- Output size: `(size + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1`, the division
  rounding up under `ceil_mode`. Unlike torch, burn does not drop a last window that starts in
  the right padding, so with `ceil_mode` burn may have one more window per dim than torch.
- Max pooling pads with -inf: the maximum ignores padding. A window with no value above -inf
  has index 0 (burn's initial index); otherwise the index is the first maximum in row-major
  window order, flattened over the plane (`h * W + w`). A NaN propagates, as in torch.
- Average pooling divides each window's sum by its count: the positions inside the padded input
  (`count_include_pad`; ceil-mode overhang never counts) or inside the input only.
- Adaptive average pooling: window `i` of `out` over `size` spans
  `[floor(i * size / out), ceil((i + 1) * size / out))`.
"""

from burnpy.runtime.backends.kernels.conv import as_tuple, dilated
from burnpy.runtime.errors import user_call


def pool_options(x, kernel_size, stride, padding, dilation=1):
    """The options of an N-d pool as tuples; `stride=None` means the kernel size."""
    n = x.ndim - 2
    if not isinstance(kernel_size, int) and len(kernel_size) != n:  # a 1-d pool of a 4-d x
        raise ValueError(
            f"{user_call('pool')}: {len(kernel_size)} spatial dims expected, x has shape "
            f"{list(x.shape)}"
        )
    kernel = as_tuple(kernel_size, n)
    stride = kernel if stride is None else as_tuple(stride, n)
    return kernel, stride, as_tuple(padding, n), as_tuple(dilation, n)


def pool_output_size(size, kernel, stride, padding, dilation, ceil_mode):
    span = size + 2 * padding - dilated(kernel, dilation)
    if span < 0:
        raise ValueError(
            f"{user_call('pool')}: a kernel of {kernel} (dilation {dilation}) does not fit an input of size "
            f"{size} with padding {padding}"
        )
    return (-(-span // stride) if ceil_mode else span // stride) + 1


def pool_output_sizes(x, kernel, stride, padding, dilation, ceil_mode):
    return tuple(
        pool_output_size(n, k, s, p, d, ceil_mode)
        for n, k, s, p, d in zip(x.shape[2:], kernel, stride, padding, dilation)
    )


def avg_counts(size, out, kernel, stride, padding, count_include_pad):
    """The number of positions each of the `out` windows along one dim averages over (a
    window's count is the product of its dims' counts: windows are boxes)."""
    counts = []
    for o in range(out):
        start = o * stride  # in padded coordinates
        if count_include_pad:
            counts.append(min(start + kernel, size + 2 * padding) - start)
        else:
            counts.append(max(0, min(start + kernel, padding + size) - max(start, padding)))
    return counts


def adaptive_windows(size, out):
    """(start, end) of each adaptive window along one dim."""
    return [(i * size // out, min(-(-(i + 1) * size // out), size)) for i in range(out)]
