# @generated from ops.yaml by `python -m codegen`; do not edit. render=1efca3e9f11b1ebc body=755470f1118bf59e
"""The optimisers' fused updates as Python functions: `from burnpy.generated import optim`.

burnpy.optim's rules call them on plain tensors (a parameter, its gradient, the rule's state);
each is one kernel per backend, where the same update written with tensor ops would be a dozen
ops and as many temporaries. No gradient flows through them: under autodiff their results are
new untracked leaves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnpy.generated.dispatch.optim_ops import (
    adam_step as _adam_step,
    clip_by_norm as _clip_by_norm,
    sgd_step as _sgd_step,
    rmsprop_step as _rmsprop_step,
)
from burnpy.runtime.arguments import (
    check_dtype,
    choice_arg,
    dim_of,
    flag_arg,
    integer_arg,
    optional_tensor_arg,
    real_arg,
    tensor_arg,
)
from burnpy.runtime.values import ints_arg, optional_ints_arg
from burnpy.runtime.dispatch import TensorKind

if TYPE_CHECKING:
    from collections.abc import Sequence

    from burnpy.generated.tensor import Tensor

FLOAT, INT, BOOL = TensorKind.Float, TensorKind.Int, TensorKind.Bool

__all__ = [
    "adam_step",
    "clip_by_norm",
    "sgd_step",
    "rmsprop_step",
]


def adam_step(
    param: Tensor,
    grad: Tensor,
    moment_1: Tensor | None = None,
    moment_2: Tensor | None = None,
    max_moment_2: Tensor | None = None,
    *,
    lr: float,
    beta_1: float,
    beta_2: float,
    epsilon: float,
    weight_decay: float,
    bias_correction_1: float,
    bias_correction_2: float,
    decoupled: bool = False,
    cautious: bool = False,
    amsgrad: bool = False,
    in_place: bool = False,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """One step of burn's Adam (L2 weight decay) or AdamW (`decoupled`): (param, moment_1, moment_2, max_moment_2); moments left out are zeros; bias_correction_k is 1 - beta_k^t; `in_place` updates param and the moments in their buffers."""
    return _adam_step(
        tensor_arg("adam_step", "param", param, FLOAT),
        tensor_arg("adam_step", "grad", grad, FLOAT),
        optional_tensor_arg("adam_step", "moment_1", moment_1, FLOAT),
        optional_tensor_arg("adam_step", "moment_2", moment_2, FLOAT),
        optional_tensor_arg("adam_step", "max_moment_2", max_moment_2, FLOAT),
        real_arg("adam_step", "lr", lr),
        real_arg("adam_step", "beta_1", beta_1),
        real_arg("adam_step", "beta_2", beta_2),
        real_arg("adam_step", "epsilon", epsilon),
        real_arg("adam_step", "weight_decay", weight_decay),
        real_arg("adam_step", "bias_correction_1", bias_correction_1),
        real_arg("adam_step", "bias_correction_2", bias_correction_2),
        flag_arg("adam_step", "decoupled", decoupled),
        flag_arg("adam_step", "cautious", cautious),
        flag_arg("adam_step", "amsgrad", amsgrad),
        flag_arg("adam_step", "in_place", in_place),
    )


def clip_by_norm(grad: Tensor, threshold: float) -> Tensor:
    """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest normal)): burn's per-parameter clipping, one pass when it clips."""
    return _clip_by_norm(
        tensor_arg("clip_by_norm", "grad", grad, FLOAT),
        real_arg("clip_by_norm", "threshold", threshold),
    )


def sgd_step(
    param: Tensor,
    grad: Tensor,
    velocity: Tensor | None = None,
    *,
    lr: float,
    momentum: float,
    dampening: float,
    weight_decay: float,
    nesterov: bool = False,
    in_place: bool = False,
) -> tuple[Tensor, Tensor]:
    """One step of burn's SGD: (param, velocity); g = grad + weight_decay param, the velocity g at first (velocity left out) and momentum velocity + (1 - dampening) g after; without momentum the velocity returned is g, not state; `in_place` updates param and velocity in their buffers."""
    return _sgd_step(
        tensor_arg("sgd_step", "param", param, FLOAT),
        tensor_arg("sgd_step", "grad", grad, FLOAT),
        optional_tensor_arg("sgd_step", "velocity", velocity, FLOAT),
        real_arg("sgd_step", "lr", lr),
        real_arg("sgd_step", "momentum", momentum),
        real_arg("sgd_step", "dampening", dampening),
        real_arg("sgd_step", "weight_decay", weight_decay),
        flag_arg("sgd_step", "nesterov", nesterov),
        flag_arg("sgd_step", "in_place", in_place),
    )


def rmsprop_step(
    param: Tensor,
    grad: Tensor,
    square_avg: Tensor | None = None,
    grad_avg: Tensor | None = None,
    buffer: Tensor | None = None,
    *,
    lr: float,
    alpha: float,
    epsilon: float,
    weight_decay: float,
    momentum: float,
    centered: bool = False,
    in_place: bool = False,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """One step of burn's RMSProp: (param, square_avg, grad_avg, buffer), averages left out are zeros; grad_avg is state only when `centered`, buffer only with momentum > 0; `in_place` updates param and the averages in their buffers."""
    return _rmsprop_step(
        tensor_arg("rmsprop_step", "param", param, FLOAT),
        tensor_arg("rmsprop_step", "grad", grad, FLOAT),
        optional_tensor_arg("rmsprop_step", "square_avg", square_avg, FLOAT),
        optional_tensor_arg("rmsprop_step", "grad_avg", grad_avg, FLOAT),
        optional_tensor_arg("rmsprop_step", "buffer", buffer, FLOAT),
        real_arg("rmsprop_step", "lr", lr),
        real_arg("rmsprop_step", "alpha", alpha),
        real_arg("rmsprop_step", "epsilon", epsilon),
        real_arg("rmsprop_step", "weight_decay", weight_decay),
        real_arg("rmsprop_step", "momentum", momentum),
        flag_arg("rmsprop_step", "centered", centered),
        flag_arg("rmsprop_step", "in_place", in_place),
    )
