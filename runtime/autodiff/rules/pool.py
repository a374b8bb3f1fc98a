"""Pooling and resampling rules: max, average and adaptive pools, and interpolate. They call
burn's `*_backward` ModuleOps, which every backend has as kernels.

Max pooling sends each window's gradient to its first maximum (the int `indices` output);
`max_pool1d/2d` have no indices output: their recorded forward keeps them (`argmax`) where the
backend's forward finds them anyway, as burn's autodiff runs the with-indices forward for them,
and their rule finds them again where it kept none.
"""


def _max_pool1d(B, g, x, kernel_size, stride, padding, dilation, ceil_mode, argmax):
    options = (kernel_size, stride, padding, dilation, ceil_mode)
    if argmax is None:
        argmax = B.max_pool1d_with_indices(x, *options)[1]
    return B.max_pool1d_with_indices_backward(x, *options, g, argmax)


def _max_pool2d(B, g, x, kernel_size, stride, padding, dilation, ceil_mode, argmax):
    options = (kernel_size, stride, padding, dilation, ceil_mode)
    if argmax is None:
        argmax = B.max_pool2d_with_indices(x, *options)[1]
    return B.max_pool2d_with_indices_backward(x, *options, g, argmax)


class PoolRules:
    """The pools' and interpolate's rules, one row per op (its name): a VJP per float input."""

    max_pool1d = (_max_pool1d,)
    max_pool2d = (_max_pool2d,)
    max_pool1d_with_indices = (
        lambda B, g, x, kernel_size, stride, padding, dilation, ceil_mode, indices: (
            B.max_pool1d_with_indices_backward(
                x, kernel_size, stride, padding, dilation, ceil_mode, g, indices
            )
        ),
    )
    max_pool2d_with_indices = (
        lambda B, g, x, kernel_size, stride, padding, dilation, ceil_mode, indices: (
            B.max_pool2d_with_indices_backward(
                x, kernel_size, stride, padding, dilation, ceil_mode, g, indices
            )
        ),
    )
    avg_pool1d = (
        lambda B, g, x, kernel_size, stride, padding, count_include_pad, ceil_mode: (
            B.avg_pool1d_backward(x, g, kernel_size, stride, padding, count_include_pad, ceil_mode)
        ),
    )
    avg_pool2d = (
        lambda B, g, x, kernel_size, stride, padding, count_include_pad, ceil_mode: (
            B.avg_pool2d_backward(x, g, kernel_size, stride, padding, count_include_pad, ceil_mode)
        ),
    )
    adaptive_avg_pool1d = (lambda B, g, x: B.adaptive_avg_pool1d_backward(x, g),)
    adaptive_avg_pool2d = (lambda B, g, x: B.adaptive_avg_pool2d_backward(x, g),)
    adaptive_avg_pool3d = (lambda B, g, x: B.adaptive_avg_pool3d_backward(x, g),)
    interpolate = (
        lambda B, g, x, output_size, mode, align_corners: B.interpolate_backward(
            x, g, output_size, mode, align_corners
        ),
    )
