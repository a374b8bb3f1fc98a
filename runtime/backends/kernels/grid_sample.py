"""grid_sample_2d (burn's FloatTensorOps::float_grid_sample_2d) and its backward kernels.

Every sample is a weighted sum of taps (1 for nearest, 4 for bilinear), each a flat index into
an [h_in * w_in] plane and a weight. The forward pass gathers the taps, the tensor's backward
scatters the gradient back through the same taps, and the grid's backward differentiates the
weights. Semantics are burn-flex's: coordinates unnormalised by align_corners, then clamped
(border) or reflected (reflection); out-of-range taps read 0 (zeros) or the nearest edge.
"""

from burnpy.runtime.errors import user_call

MODES = ("nearest", "bilinear")
PADDING_MODES = ("zeros", "border", "reflection")


class GridSampleKernels:
    def float_grid_sample_2d(self, tensor, grid, mode, padding_mode, align_corners):
        """[n, c, h_in, w_in] sampled at grid [n, h_out, w_out, 2] (x, y in [-1, 1]):
        [n, c, h_out, w_out]."""
        xp = self.xp
        n, c, h_in, w_in = self._check_grid_sample(tensor, grid, mode, padding_mode)
        planes = xp.reshape(tensor, (n, c, h_in * w_in))
        out = None
        for index, weight, _, _ in self._grid_taps(
            tensor.shape, grid, mode, padding_mode, align_corners
        ):
            term = self._gather_taps(planes, index) * weight[:, None, :]
            out = term if out is None else out + term
        return xp.reshape(out, (n, c) + tuple(grid.shape[1:3]))

    def float_grid_sample_2d_tensor_backward(
        self, g, tensor_shape, grid, mode, padding_mode, align_corners
    ):
        """The gradient of `float_grid_sample_2d` with respect to its tensor."""
        xp = self.xp
        n, c, h_in, w_in = tensor_shape
        g = xp.reshape(g, (n, c, -1))
        grad = xp.zeros((n, c, h_in * w_in), dtype=g.dtype, device=g.device)
        for index, weight, _, _ in self._grid_taps(
            tensor_shape, grid, mode, padding_mode, align_corners
        ):
            taps = xp.broadcast_to(index[:, None, :], g.shape)
            grad = self.float_scatter_add(2, grad, taps, g * weight[:, None, :])
        return xp.reshape(grad, tuple(tensor_shape))

    def float_grid_sample_2d_grid_backward(
        self, g, tensor, grid, mode, padding_mode, align_corners
    ):
        """The gradient of `float_grid_sample_2d` with respect to its grid (zero for nearest,
        whose output is piecewise constant in the grid)."""
        xp = self.xp
        n, c, h_in, w_in = tensor.shape
        planes = xp.reshape(tensor, (n, c, h_in * w_in))
        g = xp.reshape(g, (n, c, -1))
        gx = gy = xp.zeros(g.shape[::2], dtype=g.dtype, device=g.device)
        if mode == "bilinear":
            for index, _, dx, dy in self._grid_taps(
                tensor.shape, grid, mode, padding_mode, align_corners
            ):
                seen = xp.sum(g * self._gather_taps(planes, index), axis=1)
                gx, gy = gx + seen * dx, gy + seen * dy
        return xp.stack([xp.reshape(gx, grid.shape[:3]), xp.reshape(gy, grid.shape[:3])], axis=-1)

    # -- taps ---------------------------------------------------------------------------------
    def _gather_taps(self, planes, index):
        xp = self.xp
        return self.float_gather(
            2, planes, xp.broadcast_to(index[:, None, :], planes.shape[:2] + index.shape[1:])
        )

    def _grid_taps(self, tensor_shape, grid, mode, padding_mode, align_corners):
        """(flat index [n, p], weight [n, p], d weight / d grid x, d weight / d grid y) per tap."""
        xp = self.xp
        n, _, h_in, w_in = tensor_shape
        flat = xp.reshape(grid, (n, -1, 2))
        px, dpx = self._source_coordinate(flat[..., 0], w_in, padding_mode, align_corners)
        py, dpy = self._source_coordinate(flat[..., 1], h_in, padding_mode, align_corners)
        if mode == "nearest":
            # Rust's round (half away from zero), as burn-flex
            xi = xp.sign(px) * xp.floor(xp.abs(px) + 0.5)
            yi = xp.sign(py) * xp.floor(xp.abs(py) + 0.5)
            index, valid = self._tap(xi, yi, h_in, w_in, padding_mode)
            zero = xp.zeros_like(px)
            yield index, valid, zero, zero
            return
        x0, y0 = xp.floor(px), xp.floor(py)
        fx, fy = px - x0, py - y0
        for xi, yi, wx, wy, sx, sy in (
            (x0, y0, 1 - fx, 1 - fy, -1, -1),
            (x0, y0 + 1, 1 - fx, fy, -1, 1),
            (x0 + 1, y0, fx, 1 - fy, 1, -1),
            (x0 + 1, y0 + 1, fx, fy, 1, 1),
        ):
            index, valid = self._tap(xi, yi, h_in, w_in, padding_mode)
            yield index, wx * wy * valid, sx * wy * dpx * valid, sy * wx * dpy * valid

    def _tap(self, xi, yi, h_in, w_in, padding_mode):
        """The flat index of an integer position (clamped into the plane) and its validity:
        1 inside, 0 outside under zeros padding (border and reflection read the edge)."""
        xp = self.xp
        finite = xp.isfinite(xi) & xp.isfinite(yi)
        xi = xp.where(finite, xi, -1.0)
        yi = xp.where(finite, yi, -1.0)
        inside = (xi >= 0) & (xi <= w_in - 1) & (yi >= 0) & (yi <= h_in - 1)
        valid = inside if padding_mode == "zeros" else xp.ones_like(inside)
        xc = xp.astype(xp.clip(xi, 0, w_in - 1), xp.int64)
        yc = xp.astype(xp.clip(yi, 0, h_in - 1), xp.int64)
        return yc * w_in + xc, xp.astype(valid, xi.dtype)

    def _source_coordinate(self, coord, size, padding_mode, align_corners):
        """The pixel coordinate of a normalised one, after padding, and its derivative."""
        xp = self.xp
        scale = (size - 1) / 2 if align_corners else size / 2
        pixel = (coord + 1) * scale - (0 if align_corners else 0.5)
        slope = xp.full_like(pixel, scale)
        if padding_mode == "border":
            inside = (pixel >= 0) & (pixel <= size - 1)
            # burn-flex: a non-finite coordinate samples the centre
            pixel = xp.where(xp.isfinite(pixel), xp.clip(pixel, 0, size - 1), (size - 1) / 2)
            slope = xp.where(inside, slope, 0.0)
        elif padding_mode == "reflection":
            low, high = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
            span = high - low
            if span <= 0:
                return xp.full_like(pixel, low), xp.zeros_like(pixel)
            shifted = pixel - low
            distance = xp.abs(shifted)
            folded = distance - xp.floor(distance / (2 * span)) * 2 * span
            pixel = span - xp.abs(folded - span) + low
            slope = slope * xp.sign(shifted) * -xp.sign(folded - span)
            # reflection of align_corners=False lands in [-0.5, size - 0.5]: taps are clamped
        return pixel, slope

    def _check_grid_sample(self, tensor, grid, mode, padding_mode):
        if mode not in MODES:
            raise ValueError(
                f"{user_call('grid_sample_2d')}: mode {mode!r} is not one of {MODES} (burn's backends implement "
                "no bicubic grid sampling)"
            )
        if padding_mode not in PADDING_MODES:
            raise ValueError(
                f"{user_call('grid_sample_2d')}: padding_mode {padding_mode!r} is not one of {PADDING_MODES}"
            )
        if tensor.ndim != 4 or grid.ndim != 4 or grid.shape[3] != 2:
            raise ValueError(
                f"{user_call('grid_sample_2d')}: needs a tensor [n, c, h_in, w_in] and a grid "
                f"[n, h_out, w_out, 2], got {list(tensor.shape)} and {list(grid.shape)}"
            )
        if tensor.shape[0] != grid.shape[0]:
            raise ValueError(
                f"{user_call('grid_sample_2d')}: the tensor's batch {tensor.shape[0]} differs from the grid's "
                f"{grid.shape[0]}"
            )
        return tuple(tensor.shape)
