"""Convolutions: `Conv1d`, `Conv2d`, `Conv3d`, `ConvTranspose1d/2d/3d` and `DeformConv2d`,
with burn-nn's weight layouts and default initializers (kaiming_uniform(1/sqrt(3)) over the
fans burn's configs pass)."""

import math

from burnpy.generated import Tensor
from burnpy.nn import init
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops
from burnpy.nn.padding import check_padding, pair, resolve


def _check_groups(channels_in, channels_out, groups):
    if channels_in % groups or channels_out % groups:
        raise ValueError(
            "Both channels must be divisible by the number of groups. Got "
            f"channels_in={channels_in}, channels_out={channels_out}, groups={groups}"
        )


class _Conv(Module):
    """A convolution over `n` spatial dims: weight [channels_out, channels_in/groups, *kernel]."""

    n = 0

    def __init__(
        self,
        channels_in,
        channels_out,
        kernel_size,
        *,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        device,
        initializer=None,
    ):
        super().__init__()
        _check_groups(channels_in, channels_out, groups)
        self.kernel_size = pair(kernel_size, "kernel_size", self.n)
        self.stride = pair(stride, "stride", self.n)
        self.dilation = pair(dilation, "dilation", self.n)
        self.padding = check_padding(padding, self.n)
        self.groups = groups
        k = math.prod(self.kernel_size)
        fan_in = channels_in // groups * k
        fan_out = channels_out // groups * k
        initializer = initializer or init.KAIMING_DEFAULT
        shape = [channels_out, channels_in // groups, *self.kernel_size]
        self.weight = initializer.init(shape, device, fan_in, fan_out)
        self.bias = initializer.init([channels_out], device, fan_in, fan_out) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        starts, ends = resolve(
            self.padding, x.shape[2:], self.kernel_size, self.stride, self.dilation
        )
        conv = getattr(module_ops(), f"conv{self.n}d")
        return conv(
            x,
            self.weight,
            self.bias,
            stride=list(self.stride),
            padding=list(starts),
            dilation=list(self.dilation),
            groups=self.groups,
            padding_end=None if starts == ends else list(ends),
        )

    def extra_repr(self):
        channels_out, group_in = self.weight.shape[:2]
        return (
            f"ch_in={group_in * self.groups}, ch_out={channels_out}, "
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"dilation={list(self.dilation)}, groups={self.groups}, padding={self.padding!r}"
        )


class Conv1d(_Conv):
    """Input [batch, channels_in, length]. `padding`: an int, "same" or "valid"."""

    n = 1


class Conv2d(_Conv):
    """Input [batch, channels_in, height, width]. `padding`: an int, an (h, w) pair, "same" or
    "valid"."""

    n = 2


class Conv3d(_Conv):
    """Input [batch, channels_in, depth, height, width]. `padding`: an int, 3 ints, "same" or
    "valid"."""

    n = 3


class _ConvTranspose(Module):
    """Weight [channels_in, channels_out/groups, *kernel]. burn's init passes fan_in =
    channels_out/groups · prod(kernel) (and no fan_out), which the default initializer uses."""

    n = 0

    def __init__(
        self,
        channels_in,
        channels_out,
        kernel_size,
        *,
        stride=1,
        padding=0,
        padding_out=0,
        dilation=1,
        groups=1,
        bias=True,
        device,
        initializer=None,
    ):
        super().__init__()
        _check_groups(channels_in, channels_out, groups)
        self.kernel_size = pair(kernel_size, "kernel_size", self.n)
        self.stride = pair(stride, "stride", self.n)
        self.padding = pair(padding, "padding", self.n)
        self.padding_out = pair(padding_out, "padding_out", self.n)
        self.dilation = pair(dilation, "dilation", self.n)
        self.groups = groups
        fan_in = channels_out // groups * math.prod(self.kernel_size)
        initializer = initializer or init.KAIMING_DEFAULT
        shape = [channels_in, channels_out // groups, *self.kernel_size]
        self.weight = initializer.init(shape, device, fan_in, None)
        self.bias = initializer.init([channels_out], device, fan_in, None) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return getattr(module_ops(), f"conv_transpose{self.n}d")(
            x,
            self.weight,
            self.bias,
            stride=list(self.stride),
            padding=list(self.padding),
            padding_out=list(self.padding_out),
            dilation=list(self.dilation),
            groups=self.groups,
        )

    def extra_repr(self):
        channels_in, group_out = self.weight.shape[:2]
        return (
            f"channels=[{channels_in}, {group_out * self.groups}], "
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"padding={list(self.padding)}, padding_out={list(self.padding_out)}, "
            f"dilation={list(self.dilation)}, groups={self.groups}"
        )


class ConvTranspose1d(_ConvTranspose):
    """Input [batch, channels_in, length]."""

    n = 1


class ConvTranspose2d(_ConvTranspose):
    """Input [batch, channels_in, height, width]."""

    n = 2


class ConvTranspose3d(_ConvTranspose):
    """Input [batch, channels_in, depth, height, width]."""

    n = 3


class DeformConv2d(Module):
    """A deformable convolution: forward(x, offset, mask=None) with offset [batch,
    2·offset_groups·kh·kw, out_h, out_w] and mask [batch, offset_groups·kh·kw, out_h, out_w].
    Weight [channels_out, channels_in/weight_groups, kh, kw]; fans as Conv2d's, over
    weight_groups. `padding`: an int, a pair, "same" (odd kernels: the pads must be
    symmetric) or "valid"."""

    def __init__(
        self,
        channels_in,
        channels_out,
        kernel_size,
        *,
        stride=1,
        dilation=1,
        weight_groups=1,
        offset_groups=1,
        padding=0,
        bias=True,
        device,
        initializer=None,
    ):
        super().__init__()
        _check_groups(channels_in, channels_out, weight_groups)
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.dilation = pair(dilation, "dilation")
        self.padding = check_padding(padding, 2)
        if self.padding == "same" and any(k % 2 == 0 for k in self.kernel_size):
            raise ValueError(
                f"Same padding with an even kernel size is not supported (kernel_size "
                f"{list(self.kernel_size)}); use an odd kernel or an explicit padding"
            )
        self.weight_groups, self.offset_groups = weight_groups, offset_groups
        k = math.prod(self.kernel_size)
        fan_in = channels_in // weight_groups * k
        fan_out = channels_out // weight_groups * k
        initializer = initializer or init.KAIMING_DEFAULT
        shape = [channels_out, channels_in // weight_groups, *self.kernel_size]
        self.weight = initializer.init(shape, device, fan_in, fan_out)
        self.bias = initializer.init([channels_out], device, fan_in, fan_out) if bias else None

    def forward(self, x, offset, mask=None):
        starts, ends = resolve(
            self.padding, x.shape[2:], self.kernel_size, self.stride, self.dilation
        )
        if starts != ends:
            raise ValueError(
                f"DeformConv2d's 'same' padding would be asymmetric here ({list(starts)} before, "
                f"{list(ends)} after); use an odd kernel size or an explicit padding"
            )
        return module_ops().deform_conv2d(
            x,
            offset,
            self.weight,
            mask,
            self.bias,
            stride=list(self.stride),
            padding=list(starts),
            dilation=list(self.dilation),
            weight_groups=self.weight_groups,
            offset_groups=self.offset_groups,
        )

    def extra_repr(self):
        channels_out, group_in = self.weight.shape[:2]
        return (
            f"ch_in={group_in * self.weight_groups}, ch_out={channels_out}, "
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"dilation={list(self.dilation)}, weight_groups={self.weight_groups}, "
            f"offset_groups={self.offset_groups}, padding={self.padding!r}"
        )
