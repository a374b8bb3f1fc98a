"""Backward rules of grid sampling: the backend's backward kernels, one per float input."""


def _tensor_vjp(g, B, tensor_shape, grid, mode, padding_mode, align_corners):
    return B.float_grid_sample_2d_tensor_backward(
        g, tuple(tensor_shape), grid, mode, padding_mode, align_corners
    )


def _grid_vjp(g, B, tensor, grid, mode, padding_mode, align_corners):
    return B.float_grid_sample_2d_grid_backward(g, tensor, grid, mode, padding_mode, align_corners)


class GridSampleRules:
    """Grid sampling's rule: a VJP per float input."""

    float_grid_sample_2d = (_tensor_vjp, _grid_vjp)
