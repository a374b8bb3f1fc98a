"""Pooling layers: `MaxPool2d`, `AvgPool2d`, `AdaptiveAvgPool2d` (burn-nn's; no parameters)."""

from generated import Tensor
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops
from burnpy.nn.padding import check_padding, pad2d, pair, resolve


class _Pool2d(Module):
    def __init__(self, kernel_size, stride, padding, pad_value):
        super().__init__()
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = self.kernel_size if stride is None else pair(stride, "stride")
        self.padding = check_padding(padding, 2)
        self.pad_value = pad_value

    def _padded(self, x, dilation=(1, 1)):
        """The input and the symmetric padding to pass on; an asymmetric "same" pads here
        first, as burn-nn's pools do."""
        starts, ends = resolve(self.padding, x.shape[2:], self.kernel_size, self.stride, dilation)
        if starts == ends:
            return x, list(starts)
        return pad2d(x, starts, ends, self.pad_value), [0, 0]


class MaxPool2d(_Pool2d):
    """`stride` defaults to `kernel_size`; `padding` an int, a pair, "same" or "valid"."""

    def __init__(self, kernel_size, *, stride=None, padding=0, dilation=1, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, float("-inf"))
        self.dilation = pair(dilation, "dilation")
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x, self.dilation)
        return module_ops().max_pool2d(
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


class AvgPool2d(_Pool2d):
    """`stride` defaults to `kernel_size`; padded cells count in the mean unless
    `count_include_pad=False`."""

    def __init__(
        self, kernel_size, *, stride=None, padding=0, count_include_pad=True, ceil_mode=False
    ):
        super().__init__(kernel_size, stride, padding, 0.0)
        self.count_include_pad = count_include_pad
        self.ceil_mode = ceil_mode

    def forward(self, x: Tensor) -> Tensor:
        x, padding = self._padded(x)
        return module_ops().avg_pool2d(
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


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = pair(output_size, "output_size")

    def forward(self, x: Tensor) -> Tensor:
        return module_ops().adaptive_avg_pool2d(x, list(self.output_size))

    def extra_repr(self):
        return f"output_size={list(self.output_size)}"
