"""`GaussianNoise`: burn-nn's additive-noise regulariser."""

from burnpy.generated import Distribution, Tensor
from burnpy.nn.module import Module


class GaussianNoise(Module):
    """Adds N(0, std²) noise from the device's random generator, in training mode on an
    autodiff device (as Dropout acts); the identity otherwise or with std = 0."""

    def __init__(self, std: float):
        super().__init__()
        if not std >= 0:
            raise ValueError(f"Standard deviation is required to be non-negative, but got {std}")
        self.std = float(std)

    def forward(self, x):
        if not (self.training and x.is_autodiff()) or self.std == 0.0:
            return x
        noise = Tensor.random(
            list(x.shape),
            Distribution.normal(0.0, self.std),
            device=x.device().inner(),
            dtype=x.dtype,
        )
        return x + noise

    def extra_repr(self):
        return f"std={self.std}"
