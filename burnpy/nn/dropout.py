"""`Dropout`: burn-nn's, acting only in training mode on an autodiff device."""

from burnpy.generated import Distribution, Tensor
from burnpy.nn.module import Module


class Dropout(Module):
    """Zeroes each element with probability `prob` and scales the rest by 1/(1 - prob); the mask
    comes from the device's random generator (`device.seed(n)` fixes it). The identity in eval
    mode or on a device without autodiff, as burn's switches on the autodiff device."""

    def __init__(self, prob: float):
        super().__init__()
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"Dropout probability should be between 0 and 1, but got {prob}")
        self.prob = float(prob)

    def forward(self, x: Tensor) -> Tensor:
        if not (self.training and x.is_autodiff()) or self.prob == 0.0:
            return x
        keep = 1.0 - self.prob
        draw = Tensor.random(
            list(x.shape), Distribution.uniform(0.0, 1.0), device=x.device().inner(), dtype=x.dtype
        )
        # burn draws Bernoulli(keep): 1 where a uniform draw falls below `keep`.
        mask = draw.lower_elem(keep).float(x.dtype)
        return x * mask * (1.0 / keep) if keep > 0.0 else x * mask

    def extra_repr(self):
        return f"prob={self.prob}"
