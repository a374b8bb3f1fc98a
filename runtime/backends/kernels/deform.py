"""Deformable 2-D convolution (burn's `deform_conv2d`, `deform_conv2d_backward`), with
torchvision's semantics as burn has them.

Each kernel tap (ky, kx) of output (oy, ox) reads the input at
(oy · stride - padding + ky · dilation + Δy, likewise x), Δ from `offset`
[b, 2 · offset_groups · kh · kw, oh, ow] laid out (group, ky, kx, (y, x)); the read is bilinear,
zero outside the image (a corner outside adds nothing, and nothing is read once y <= -1,
y >= h, x <= -1 or x >= w); it is scaled by `mask` [b, offset_groups · kh · kw, oh, ow]. The
sampled columns then meet the weight in a grouped matmul, as im2col does. All batched: the
corners are gathers, the input gradient a scatter-add (the backend's `index_update`).
"""

from burnpy.runtime.indexing import IndexingUpdateOp


class DeformKernels:
    def _deform_sampling(self, x, offset, weight, stride, padding, dilation, offset_groups):
        """The bilinear corners of every tap: a list of 4 (flat index, weight, value) and the
        fractional parts (ly, lx), each [b, offset_groups, c / offset_groups, k, oh · ow]."""
        xp = self.xp
        batch, channels, height, width = x.shape
        kernel_h, kernel_w = weight.shape[2:]
        out_h, out_w = offset.shape[2:]
        taps = kernel_h * kernel_w
        offset = xp.reshape(offset, (batch, offset_groups, taps, 2, out_h, out_w))

        def base(out_size, kernel, axis):
            out = xp.arange(out_size, device=x.device) * stride[axis] - padding[axis]
            tap = xp.arange(kernel, device=x.device) * dilation[axis]
            return xp.astype(tap[:, None] + out[None], x.dtype)  # [kernel, out_size]

        # the taps' positions without offsets, [kh · kw, oh, ow] each
        y_base = xp.reshape(
            xp.broadcast_to(
                base(out_h, kernel_h, 0)[:, None, :, None], (kernel_h, kernel_w, out_h, out_w)
            ),
            (taps, out_h, out_w),
        )
        x_base = xp.reshape(
            xp.broadcast_to(
                base(out_w, kernel_w, 1)[None, :, None, :], (kernel_h, kernel_w, out_h, out_w)
            ),
            (taps, out_h, out_w),
        )
        y = xp.reshape(y_base + offset[:, :, :, 0], (batch, offset_groups, 1, taps, -1))
        x_pos = xp.reshape(x_base + offset[:, :, :, 1], (batch, offset_groups, 1, taps, -1))
        inside = (y > -1) & (y < height) & (x_pos > -1) & (x_pos < width)
        y_low, x_low = xp.floor(y), xp.floor(x_pos)
        ly, lx = y - y_low, x_pos - x_low
        planes = xp.reshape(x, (batch, offset_groups, channels // offset_groups, height * width))
        corners = []
        for dy, wy in ((0, 1 - ly), (1, ly)):
            for dx, wx in ((0, 1 - lx), (1, lx)):
                row, col = y_low + dy, x_low + dx
                valid = inside & (row >= 0) & (row < height) & (col >= 0) & (col < width)
                flat = xp.astype(
                    xp.clip(row, 0, height - 1) * width + xp.clip(col, 0, width - 1), xp.int64
                )
                flat = xp.reshape(flat, (batch, offset_groups, 1, -1))
                index = xp.broadcast_to(flat, planes.shape[:3] + flat.shape[-1:])
                value = xp.take_along_axis(planes, index, axis=3)
                value = xp.reshape(value, planes.shape[:3] + (taps, out_h * out_w))
                value = xp.where(valid, value, 0.0)
                corners.append((index, wy * wx * xp.astype(valid, x.dtype), value))
        return corners, ly, lx

    def _deform_columns(self, corners, mask, offset_groups, taps):
        """(sampled values, the same scaled by mask), [b, g, c / g, k, oh · ow]."""
        sampled = sum(weight * value for _, weight, value in corners)
        if mask is None:
            return sampled, sampled
        batch = mask.shape[0]
        mask = self.xp.reshape(mask, (batch, offset_groups, 1, taps, -1))
        return sampled, sampled * mask

    def deform_conv2d(
        self, x, offset, weight, mask, bias, stride, padding, dilation, weight_groups, offset_groups
    ):
        xp = self.xp
        batch = x.shape[0]
        out_channels, _, kernel_h, kernel_w = weight.shape
        out_h, out_w = offset.shape[2:]
        corners, _, _ = self._deform_sampling(
            x, offset, weight, stride, padding, dilation, offset_groups
        )
        _, columns = self._deform_columns(corners, mask, offset_groups, kernel_h * kernel_w)
        columns = xp.reshape(columns, (batch, weight_groups, -1, out_h * out_w))
        kernel = xp.reshape(weight, (weight_groups, out_channels // weight_groups, -1))
        out = xp.reshape(xp.matmul(kernel, columns), (batch, out_channels, out_h, out_w))
        return out if bias is None else out + xp.reshape(bias, (1, out_channels, 1, 1))

    def deform_conv2d_backward(
        self,
        x,
        offset,
        weight,
        mask,
        bias,
        grad,
        stride,
        padding,
        dilation,
        weight_groups,
        offset_groups,
        wanted=None,
    ):
        """(grad x, grad offset, grad weight, grad mask or None, grad bias or None). `wanted`
        (one bool per input, default all) skips the gradients nobody needs: they are None."""
        xp = self.xp
        want_x, want_offset, want_weight, want_mask, want_bias = (
            (True,) * 5 if wanted is None else wanted
        )
        batch, channels, height, width = x.shape
        out_channels, _, kernel_h, kernel_w = weight.shape
        out_h, out_w = grad.shape[2:]
        taps = kernel_h * kernel_w
        grad_bias = xp.sum(grad, axis=(0, 2, 3)) if bias is not None and want_bias else None
        want_mask = mask is not None and want_mask
        if not (want_x or want_offset or want_weight or want_mask):
            return None, None, None, None, grad_bias
        corners, ly, lx = self._deform_sampling(
            x, offset, weight, stride, padding, dilation, offset_groups
        )
        sampled, columns = self._deform_columns(corners, mask, offset_groups, taps)
        grad_out = xp.reshape(grad, (batch, weight_groups, out_channels // weight_groups, -1))
        kernel = xp.reshape(weight, (weight_groups, out_channels // weight_groups, -1))
        grad_weight = None
        if want_weight:
            columns = xp.reshape(columns, (batch, weight_groups, -1, out_h * out_w))
            grad_weight = xp.sum(xp.matmul(grad_out, xp.matrix_transpose(columns)), axis=0)
            grad_weight = xp.reshape(grad_weight, weight.shape)
        if not (want_x or want_offset or want_mask):
            return None, None, grad_weight, None, grad_bias
        grad_columns = xp.matmul(xp.matrix_transpose(kernel), grad_out)
        grad_columns = xp.reshape(grad_columns, sampled.shape)  # [b, g, c / g, k, oh · ow]

        grad_mask = None
        if want_mask:
            group_sum = xp.sum(grad_columns * sampled, axis=2)  # [b, g, k, oh · ow]
            grad_mask = xp.reshape(group_sum, mask.shape)
        if mask is not None:
            grad_columns = grad_columns * xp.reshape(mask, (batch, offset_groups, 1, taps, -1))

        grad_offset = None
        if want_offset:
            # d sample / d y and / d x from the four corners (rows: low, low, high, high)
            (_, _, v00), (_, _, v01), (_, _, v10), (_, _, v11) = corners
            d_y = (1 - lx) * (v10 - v00) + lx * (v11 - v01)
            d_x = (1 - ly) * (v01 - v00) + ly * (v11 - v10)
            grad_y = xp.sum(grad_columns * d_y, axis=2)
            grad_x = xp.sum(grad_columns * d_x, axis=2)
            grad_offset = xp.stack((grad_y, grad_x), axis=3)  # [b, g, k, 2, oh · ow]
            grad_offset = xp.reshape(grad_offset, offset.shape)

        grad_input = None
        if want_x:
            grad_x_planes = xp.zeros(
                (batch, offset_groups, channels // offset_groups, height * width),
                dtype=x.dtype,
                device=x.device,
            )
            lead = tuple(
                xp.reshape(xp.arange(size, device=x.device), shape)
                for size, shape in (
                    (batch, (batch, 1, 1, 1)),
                    (offset_groups, (1, offset_groups, 1, 1)),
                    (channels // offset_groups, (1, 1, channels // offset_groups, 1)),
                )
            )
            for index, corner_weight, _ in corners:
                values = xp.reshape(grad_columns * corner_weight, index.shape)
                self.index_update(grad_x_planes, (*lead, index), values, IndexingUpdateOp.Add)
            grad_input = xp.reshape(grad_x_planes, x.shape)
        return grad_input, grad_offset, grad_weight, grad_mask, grad_bias
