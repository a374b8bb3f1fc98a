"""Convolutions: `Conv1d`, `Conv2d`, `ConvTranspose2d`, with burn-nn's weight layouts and
default initializers (kaiming_uniform(1/sqrt(3)) over the fans burn's configs pass)."""

import math

from generated import Tensor
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
        conv = module_ops().conv1d if self.n == 1 else module_ops().conv2d
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


class ConvTranspose2d(Module):
    """Weight [channels_in, channels_out/groups, kh, kw]. burn's init passes fan_in =
    channels_out/groups · kh·kw (and no fan_out), which the default initializer uses."""

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
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.padding = pair(padding, "padding")
        self.padding_out = pair(padding_out, "padding_out")
        self.dilation = pair(dilation, "dilation")
        self.groups = groups
        fan_in = channels_out // groups * math.prod(self.kernel_size)
        initializer = initializer or init.KAIMING_DEFAULT
        shape = [channels_in, channels_out // groups, *self.kernel_size]
        self.weight = initializer.init(shape, device, fan_in, None)
        self.bias = initializer.init([channels_out], device, fan_in, None) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return module_ops().conv_transpose2d(
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
