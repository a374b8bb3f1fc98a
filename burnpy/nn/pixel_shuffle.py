"""`PixelShuffle` and `PixelUnshuffle`: burn-nn's channel <-> space rearrangements."""

from burnpy.nn.module import Module


def _check_factor(name, factor):
    if not isinstance(factor, int) or factor < 1:
        raise ValueError(f"{name} must be a positive int, got {factor!r}")


class PixelShuffle(Module):
    """[b, c·r², h, w] -> [b, c, h·r, w·r], r = upscale_factor."""

    def __init__(self, upscale_factor: int):
        super().__init__()
        _check_factor("PixelShuffle: upscale_factor", upscale_factor)
        self.upscale_factor = upscale_factor

    def forward(self, x):
        r = self.upscale_factor
        if x.ndim != 4 or x.shape[1] % (r * r):
            raise ValueError(
                f"PixelShuffle needs an input [batch, channels, h, w] with channels divisible by "
                f"upscale_factor^2 ({r * r}), got shape {list(x.shape)}"
            )
        b, c, h, w = x.shape
        out = x.reshape([b, c // (r * r), r, r, h, w]).permute([0, 1, 4, 2, 5, 3])
        return out.reshape([b, c // (r * r), h * r, w * r])

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """[b, c, h·r, w·r] -> [b, c·r², h, w], r = downscale_factor: PixelShuffle's inverse."""

    def __init__(self, downscale_factor: int):
        super().__init__()
        _check_factor("PixelUnshuffle: downscale_factor", downscale_factor)
        self.downscale_factor = downscale_factor

    def forward(self, x):
        r = self.downscale_factor
        if x.ndim != 4 or x.shape[2] % r or x.shape[3] % r:
            raise ValueError(
                f"PixelUnshuffle needs an input [batch, channels, h, w] with h and w divisible "
                f"by downscale_factor ({r}), got shape {list(x.shape)}"
            )
        b, c, h, w = x.shape
        out = x.reshape([b, c, h // r, r, w // r, r]).permute([0, 1, 3, 5, 2, 4])
        return out.reshape([b, c * r * r, h // r, w // r])

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
