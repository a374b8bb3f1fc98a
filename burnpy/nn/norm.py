"""Normalisation layers: `BatchNorm`, `LayerNorm`, `GroupNorm` (burn-nn's gamma/beta names)."""

from generated import Tensor
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
            per_channel = x.swap_dims(0, 1).reshape([channels, -1])
            mean = per_channel.mean_dim(1)
            centred = per_channel - mean
            var = (centred * centred).mean_dim(1)
            mean, var = mean.reshape([channels]), var.reshape([channels])
            self.running_mean = self._updated(self.running_mean, mean)
            self.running_var = self._updated(self.running_var, var)
        else:
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
        if x.ndim < 3 or x.shape[1] != self.num_channels:
            raise ValueError(
                f"GroupNorm needs an input [batch, {self.num_channels}, ...] of rank >= 3, got "
                f"shape {list(x.shape)}"
            )
        shape = list(x.shape)
        grouped = x.reshape([shape[0], self.num_groups, -1])
        centred = grouped - grouped.mean_dim(2)
        var = (centred * centred).mean_dim(2)
        normalized = (centred / (var + self.epsilon).sqrt()).reshape(shape)
        if not self.affine:
            return normalized
        affine_shape = [1, self.num_channels] + [1] * (len(shape) - 2)
        return normalized * self.gamma.reshape(affine_shape) + self.beta.reshape(affine_shape)

    def extra_repr(self):
        return (
            f"num_groups={self.num_groups}, num_channels={self.num_channels}, "
            f"epsilon={self.epsilon}, affine={self.affine}"
        )
