"""`Interpolate1d` and `Interpolate2d`: burn-nn's resizing layers over `module.interpolate`."""

import numpy as np

from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops

# burn-nn's InterpolateMode names and the module op's modes they stand for
MODES = {
    "nearest": "nearest",
    "nearest_exact": "nearest_exact",
    "linear": "bilinear",
    "cubic": "bicubic",
    "lanczos": "lanczos3",
}


class _Interpolate(Module):
    n = 0

    def __init__(self, *, output_size=None, scale_factor=None, mode="nearest", align_corners=True):
        super().__init__()
        if mode not in MODES:
            raise ValueError(f"unknown interpolate mode {mode!r}; choose one of {', '.join(MODES)}")
        if (output_size is None) == (scale_factor is None):
            raise ValueError(
                f"{type(self).__name__} takes either output_size or scale_factor, got "
                f"output_size={output_size!r}, scale_factor={scale_factor!r}"
            )
        self.output_size, self.scale_factor = output_size, scale_factor
        self.mode, self.align_corners = mode, align_corners

    def _size(self, sizes):
        """The output sizes; a scale factor is a float32 in burn, the product truncated."""
        if self.output_size is not None:
            wanted = self.output_size
            return [wanted] if isinstance(wanted, int) else list(wanted)
        factors = self.scale_factor
        factors = [factors] * self.n if isinstance(factors, int | float) else list(factors)
        return [int(size * float(np.float32(f))) for size, f in zip(sizes, factors)]

    def extra_repr(self):
        return (
            f"mode={self.mode!r}, output_size={self.output_size!r}, "
            f"scale_factor={self.scale_factor!r}, align_corners={self.align_corners}"
        )


class Interpolate1d(_Interpolate):
    """Resizes [batch, channels, length] to `output_size`, or length·`scale_factor`; `mode`
    "nearest" (default), "nearest_exact", "linear", "cubic" or "lanczos"."""

    n = 1

    def forward(self, x):
        if x.ndim != 3:
            raise ValueError(f"Interpolate1d needs [batch, channels, length], got {list(x.shape)}")
        (length,) = self._size(x.shape[2:])
        out = module_ops().interpolate(
            x.unsqueeze_dim(2),
            [1, length],
            mode=MODES[self.mode],
            align_corners=self.align_corners,
        )
        return out.squeeze_dim(2)


class Interpolate2d(_Interpolate):
    """Resizes [batch, channels, height, width] to `output_size` (h, w), or the sizes times
    `scale_factor` (one or a pair)."""

    n = 2

    def forward(self, x):
        if x.ndim != 4:
            raise ValueError(
                f"Interpolate2d needs [batch, channels, height, width], got {list(x.shape)}"
            )
        return module_ops().interpolate(
            x, self._size(x.shape[2:]), mode=MODES[self.mode], align_corners=self.align_corners
        )
