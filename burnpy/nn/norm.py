"""Normalisation layers: `BatchNorm`, `LayerNorm`, `GroupNorm`, `InstanceNorm`, `RmsNorm` and
`LocalResponseNorm` (burn-nn's gamma/beta names)."""

import numpy as np

from burnpy.generated import Tensor
from burnpy.nn.activation import Identity
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops


class BatchNorm(Module):
    """Normalises over every dim but the channels (dim 1) of an input [batch, channels, ...].

    In training mode on an autodiff device it uses the batch's mean and biased variance and
    updates the running statistics as burn does, running = (1 - momentum)·running +
    momentum·batch (the variance biased too, unlike PyTorch's); otherwise it uses the running
    statistics. `running_mean` and `running_var` are buffers: saved, never optimised."""

    def __init__(self, num_features: int, *, epsilon: float = 1e-5, momentum: float = 0.1, device):
        super().__init__()
        self.gamma = Tensor.ones([num_features], device=device)
        self.beta = Tensor.zeros([num_features], device=device)
        self.register_buffer("running_mean", Tensor.zeros([num_features], device=device))
        self.register_buffer("running_var", Tensor.ones([num_features], device=device))
        self.epsilon = epsilon
        self.momentum = momentum

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim < 2:
            raise ValueError(
                "BatchNorm can only be applied on tensors of rank >= 2 with the shape "
                f"[batch_size, channels, ...], got shape {list(x.shape)}"
            )
        channels = x.shape[1]
        if channels != self.gamma.shape[0]:
            raise ValueError(
                f"BatchNorm has {self.gamma.shape[0]} features, the input has {channels} channels"
            )
        if self.training and x.is_autodiff():
            # the statistics and the normalisation in one op, differentiated through both
            out, mean, var = module_ops().batch_norm_training(
                x, self.gamma, self.beta, self.epsilon
            )
            self.running_mean = self._updated(self.running_mean, mean)
            self.running_var = self._updated(self.running_var, var)
            return out
        device = x.device()
        mean = self.running_mean.inner().to_device(device)
        var = self.running_var.inner().to_device(device)
        return module_ops().batch_norm(x, self.gamma, self.beta, mean, var, self.epsilon)

    def _updated(self, running, batch):
        blended = running.inner() * (1.0 - self.momentum) + batch.inner() * self.momentum
        return blended.to_device(running.device())

    def extra_repr(self):
        return (
            f"num_features={self.gamma.shape[0]}, momentum={self.momentum}, epsilon={self.epsilon}"
        )


class LayerNorm(Module):
    """Normalises over the last dim (biased variance), then gamma·x + beta."""

    def __init__(self, d_model: int, *, epsilon: float = 1e-5, bias: bool = True, device):
        super().__init__()
        self.gamma = Tensor.ones([d_model], device=device)
        self.beta = Tensor.zeros([d_model], device=device) if bias else None
        self.epsilon = epsilon

    def forward(self, x: Tensor) -> Tensor:
        return module_ops().layer_norm(x, self.gamma, self.beta, self.epsilon)

    def extra_repr(self):
        return f"d_model={self.gamma.shape[0]}, epsilon={self.epsilon}"


class GroupNorm(Module):
    """Normalises each of `num_groups` groups of channels of an input [batch, channels, ...]
    over its channels and spatial dims (biased variance); with `affine`, gamma·x + beta per
    channel. Built from tensor ops, as burn-nn's `group_norm`."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        *,
        epsilon: float = 1e-5,
        affine: bool = True,
        device,
    ):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(
                "The number of channels must be divisible by the number of groups, got "
                f"num_channels={num_channels}, num_groups={num_groups}"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.epsilon = epsilon
        self.affine = affine
        self.gamma = Tensor.ones([num_channels], device=device) if affine else None
        self.beta = Tensor.zeros([num_channels], device=device) if affine else None

    def forward(self, x: Tensor) -> Tensor:
        return group_norm(
            x, self.num_groups, self.num_channels, self.gamma, self.beta, self.epsilon
        )

    def extra_repr(self):
        return (
            f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
            f"epsilon={self.epsilon}, affine={self.affine}"
        )


def group_norm(x, num_groups, num_channels, gamma, beta, epsilon, name="GroupNorm"):
    """x [batch, num_channels, ...] normalised over each group of channels and the spatial
    dims (biased variance), then gamma·x + beta per channel if given."""
    if x.ndim < 3 or x.shape[1] != num_channels:
        raise ValueError(
            f"{name} needs an input [batch, {num_channels}, ...] of rank >= 3, got shape "
            f"{list(x.shape)}"
        )
    shape = list(x.shape)
    grouped = x.reshape([shape[0], num_groups, -1])
    centred = grouped - grouped.mean_dim(2)
    var = (centred * centred).mean_dim(2)
    normalized = (centred / (var + epsilon).sqrt()).reshape(shape)
    if gamma is None:
        return normalized
    affine_shape = [1, shape[1]] + [1] * (len(shape) - 2)
    return normalized * gamma.reshape(affine_shape) + beta.reshape(affine_shape)


class InstanceNorm(Module):
    """Normalises each channel of each sample over its spatial dims (GroupNorm with one group
    per channel); with `affine`, gamma·x + beta per channel."""

    def __init__(self, num_channels: int, *, epsilon: float = 1e-5, affine: bool = True, device):
        super().__init__()
        self.num_channels, self.epsilon, self.affine = num_channels, epsilon, affine
        self.gamma = Tensor.ones([num_channels], device=device) if affine else None
        self.beta = Tensor.zeros([num_channels], device=device) if affine else None

    def forward(self, x: Tensor) -> Tensor:
        channels = self.num_channels
        return group_norm(
            x, channels, channels, self.gamma, self.beta, self.epsilon, "InstanceNorm"
        )

    def extra_repr(self):
        return f"num_channels={self.num_channels}, epsilon={self.epsilon}, affine={self.affine}"


class RmsNorm(Module):
    """x / sqrt(mean(x²) + epsilon) · gamma over the last dim, one `rms_norm` op. A float16 or
    bfloat16 input is normalised in float32 and the result cast back (burn takes the mean of
    squares in float32 for every dtype, float64 included; a float64 input keeps its precision
    here)."""

    def __init__(self, d_model: int, *, epsilon: float = 1e-5, device):
        super().__init__()
        if not epsilon > 0:
            raise ValueError(f"RmsNorm: epsilon must be positive, got {epsilon}")
        self.gamma = Tensor.ones([d_model], device=device)
        self.epsilon = epsilon

    def forward(self, x: Tensor) -> Tensor:
        if x.shape[-1:] != self.gamma.shape:
            raise ValueError(
                f"RmsNorm has d_model={self.gamma.shape[0]}, the input has shape {list(x.shape)}"
            )
        if x.dtype in (np.float32, np.float64):
            return module_ops().rms_norm(x, self.gamma, self.epsilon)
        wide = module_ops().rms_norm(x.cast(np.float32), self.gamma.cast(np.float32), self.epsilon)
        return wide.cast(x.dtype)

    def extra_repr(self):
        return f"d_model={self.gamma.shape[0]}, epsilon={self.epsilon}"


class LocalResponseNorm(Module):
    """x / (k + alpha·avg(x²))^beta, the average taken over `size` neighbouring channels
    (zeros beyond the edges, counted in the average). As burn's, an even `size` takes one
    more channel after than before (PyTorch's takes it before). Input [batch, channels, ...]."""

    def __init__(self, size: int, *, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        if size < 1:
            raise ValueError(f"LocalResponseNorm: size must be greater than 0, got {size}")
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim < 3:
            raise ValueError(
                f"LocalResponseNorm needs an input [batch, channels, ...] of rank >= 3, got "
                f"shape {list(x.shape)}"
            )
        channels = x.shape[1]
        before, after = (self.size - 1) // 2, self.size // 2
        squared = x * x
        zeros = lambda n: Tensor.zeros(  # noqa: E731
            [x.shape[0], n, *x.shape[2:]], device=x.device(), dtype=x.dtype
        )
        padded = Tensor.cat([t for t in (zeros(before), squared, zeros(after)) if t.shape[1]], 1)
        window = padded.narrow(1, 0, channels)
        for offset in range(1, self.size):
            window = window + padded.narrow(1, offset, channels)
        return x / (window * (self.alpha / self.size) + self.k).powf(float(self.beta))

    def extra_repr(self):
        return f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


# burn's NormalizationConfig variants, by their snake-case names, built for `num_features`
_BY_NAME = {
    "identity": lambda num_features: Identity(),
    "batch": BatchNorm,
    "group": lambda num_features, num_groups, **config: GroupNorm(
        num_groups, num_features, **config
    ),
    "instance": InstanceNorm,
    "layer": LayerNorm,
    "rms": RmsNorm,
}


def Normalization(name: str, num_features: int, *args, **config) -> Module:
    """The normalisation layer burn's `NormalizationConfig` variant `name` builds for
    `num_features` features (burn's `with_num_features`): `Normalization("layer", 64,
    device=d)`, `Normalization("group", 64, num_groups=8, device=d)`. Any of the layers can
    stand where burn takes a `Normalization`; this chooses one from a setting."""
    try:
        layer = _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"unknown normalization {name!r}; choose one of {', '.join(sorted(_BY_NAME))}"
        ) from None
    return layer(num_features, *args, **config)
