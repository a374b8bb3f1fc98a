"""Pooling layers: `MaxPool1d/2d`, `AvgPool1d/2d`, `AdaptiveAvgPool1d/2d/3d` (burn-nn's; no
parameters)."""

from burnpy.generated import Tensor
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops
from burnpy.nn.padding import check_padding, pad, pair, resolve


class _Pool(Module):
    """A pool over `n` spatial dims."""

    n = 0

    def __init__(self, kernel_size, stride, padding, pad_value):
        super().__init__()
        self.kernel_size = pair(kernel_size, "kernel_size", self.n)
        self.stride = self.kernel_size if stride is None else pair(stride, "stride", self.n)
        self.padding = check_padding(padding, self.n)
        self.pad_value = pad_value

    def _padded(self, x, dilation):
        """The input and the symmetric padding to pass on; an asymmetric "same" pads here
        first, as burn-nn's pools do."""
        starts, ends = resolve(self.padding, x.shape[2:], self.kernel_size, self.stride, dilation)
        if starts == ends:
            return x, list(starts)
        return pad(x, starts, ends, self.pad_value), [0] * self.n


class _MaxPool(_Pool):
    def __init__(self, kernel_size, *, stride=None, padding=0, dilation=1, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, float("-inf"))
        self.dilation = pair(dilation, "dilation", self.n)
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x, self.dilation)
        return getattr(module_ops(), f"max_pool{self.n}d")(
            x,
            list(self.kernel_size),
            stride=list(self.stride),
            padding=padding,
            dilation=list(self.dilation),
            ceil_mode=self.ceil_mode,
        )

    def extra_repr(self):
        return (
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"padding={self.padding!r}, dilation={list(self.dilation)}"
        )


class MaxPool1d(_MaxPool):
    """Input [batch, channels, length]. `stride` defaults to `kernel_size`; `padding` an int,
    "same" or "valid"."""

    n = 1


class MaxPool2d(_MaxPool):
    """`stride` defaults to `kernel_size`; `padding` an int, a pair, "same" or "valid"."""

    n = 2


class _AvgPool(_Pool):
    def __init__(
        self, kernel_size, *, stride=None, padding=0, count_include_pad=True, ceil_mode=False
    ):
        super().__init__(kernel_size, stride, padding, 0.0)
        self.count_include_pad = count_include_pad
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x, (1,) * self.n)
        return getattr(module_ops(), f"avg_pool{self.n}d")(
            x,
            list(self.kernel_size),
            stride=list(self.stride),
            padding=padding,
            count_include_pad=self.count_include_pad,
            ceil_mode=self.ceil_mode,
        )

    def extra_repr(self):
        return (
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"padding={self.padding!r}, count_include_pad={self.count_include_pad}"
        )


class AvgPool1d(_AvgPool):
    """Input [batch, channels, length]. `stride` defaults to `kernel_size`; padded cells count
    in the mean unless `count_include_pad=False`."""

    n = 1


class AvgPool2d(_AvgPool):
    """`stride` defaults to `kernel_size`; padded cells count in the mean unless
    `count_include_pad=False`."""

    n = 2


class _AdaptiveAvgPool(Module):
    n = 0

    def __init__(self, output_size):
        super().__init__()
        self.output_size = pair(output_size, "output_size", self.n)

    def forward(self, x: Tensor) -> Tensor:
        size = self.output_size[0] if self.n == 1 else list(self.output_size)
        return getattr(module_ops(), f"adaptive_avg_pool{self.n}d")(x, size)

    def extra_repr(self):
        return f"output_size={list(self.output_size)}"


class AdaptiveAvgPool1d(_AdaptiveAvgPool):
    """Input [batch, channels, length] -> [batch, channels, output_size]."""

    n = 1


class AdaptiveAvgPool2d(_AdaptiveAvgPool):
    n = 2


class AdaptiveAvgPool3d(_AdaptiveAvgPool):
    """Input [batch, channels, d, h, w] -> [batch, channels, *output_size]."""

    n = 3
