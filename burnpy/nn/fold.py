"""`Unfold4d` and `Fold4d`: burn-nn's sliding-window layers over `module.unfold4d`/`fold4d`."""

from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops
from burnpy.nn.padding import pair


class _Window(Module):
    def __init__(self, kernel_size, stride, dilation, padding):
        super().__init__()
        self.kernel_size = pair(kernel_size, "kernel_size")
        self.stride = pair(stride, "stride")
        self.dilation = pair(dilation, "dilation")
        self.padding = pair(padding, "padding")

    def _options(self):
        return {
            "stride": list(self.stride),
            "padding": list(self.padding),
            "dilation": list(self.dilation),
        }

    def extra_repr(self):
        return (
            f"kernel_size={list(self.kernel_size)}, stride={list(self.stride)}, "
            f"dilation={list(self.dilation)}, padding={list(self.padding)}"
        )


class Unfold4d(_Window):
    """[batch, channels, h, w] -> [batch, channels·kh·kw, windows]: every sliding window's
    values as a column."""

    def __init__(self, kernel_size, *, stride=1, dilation=1, padding=0):
        super().__init__(kernel_size, stride, dilation, padding)

    def forward(self, x):
        return module_ops().unfold4d(x, list(self.kernel_size), **self._options())


class Fold4d(_Window):
    """The adjoint of Unfold4d: [batch, channels·kh·kw, windows] -> [batch, channels,
    *output_size], overlapping values summed."""

    def __init__(self, output_size, kernel_size, *, stride=1, dilation=1, padding=0):
        super().__init__(kernel_size, stride, dilation, padding)
        self.output_size = pair(output_size, "output_size")

    def forward(self, x):
        return module_ops().fold4d(
            x, list(self.output_size), list(self.kernel_size), **self._options()
        )

    def extra_repr(self):
        return f"output_size={list(self.output_size)}, " + super().extra_repr()
