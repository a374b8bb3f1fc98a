# @generated from ops.yaml by `python -m codegen`; do not edit. render=ca7d83383795ecab body=aec1594ab5669a39
"""The float ops of the dispatch layer, one routing function per ops.yaml entry."""

from generated.backends import BACKENDS
from generated.tensor import Tensor
from runtime.device import AutodiffDevice, GradientCheckpointingStrategy
from runtime.dispatch import (
    DISABLED,
    DispatchAutodiffContext,
    context_of,
    merge_contexts,
    unsupported_backend,
)

__all__ = [
    "float_from_data",
    "float_zeros",
    "float_ones",
    "float_full",
    "float_empty",
    "float_random",
    "float_add",
    "float_add_scalar",
    "float_sub",
    "float_sub_scalar",
    "float_mul",
    "float_mul_scalar",
    "float_div",
    "float_div_scalar",
    "float_neg",
    "float_matmul",
    "float_powf_scalar",
    "float_exp",
    "float_log",
    "float_sqrt",
    "float_abs",
    "float_sign",
    "float_tanh",
    "sigmoid",
    "relu",
    "float_sum",
    "float_sum_dim",
    "float_mean",
    "float_mean_dim",
    "float_reshape",
    "float_swap_dims",
    "float_transpose",
    "float_cast",
    "float_equal",
    "float_equal_elem",
    "float_not_equal_elem",
    "float_greater",
    "float_greater_elem",
    "float_lower",
    "float_lower_elem",
    "float_into_int",
    "float_to_device",
]


def float_from_data(data, device, dtype):
    """A float tensor holding a copy of `data`."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_from_data(data, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_from_data(data, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_from_data(data, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_from_data(data, device.inner, dtype), ctx)
    raise unsupported_backend("float_from_data", device)


def float_zeros(shape, device, dtype):
    """A float tensor of zeros."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_zeros(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_zeros(shape, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_zeros(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_zeros(shape, device.inner, dtype), ctx)
    raise unsupported_backend("float_zeros", device)


def float_ones(shape, device, dtype):
    """A float tensor of ones."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_ones(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_ones(shape, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_ones(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_ones(shape, device.inner, dtype), ctx)
    raise unsupported_backend("float_ones", device)


def float_full(shape, fill_value, device, dtype):
    """A float tensor filled with `fill_value`."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(
                B.Float, B.inner.float_full(shape, fill_value, device.inner, dtype), DISABLED
            )
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_full(shape, fill_value, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(
                B.Float, B.inner.float_full(shape, fill_value, device.inner, dtype), DISABLED
            )
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_full(shape, fill_value, device.inner, dtype), ctx)
    raise unsupported_backend("float_full", device)


def float_empty(shape, device, dtype):
    """An uninitialised float tensor."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_empty(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_empty(shape, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(B.Float, B.inner.float_empty(shape, device.inner, dtype), DISABLED)
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_empty(shape, device.inner, dtype), ctx)
    raise unsupported_backend("float_empty", device)


def float_random(shape, distribution, device, dtype):
    """A float tensor sampled from `distribution` (seed it with `device.seed(n)`)."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        if type(device) is not AutodiffDevice:
            return Tensor(
                B.Float, B.inner.float_random(shape, distribution, device.inner, dtype), DISABLED
            )
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_random(shape, distribution, device.inner, dtype), ctx)
    if device.variant == "Torch":
        B = BACKENDS.Torch
        if type(device) is not AutodiffDevice:
            return Tensor(
                B.Float, B.inner.float_random(shape, distribution, device.inner, dtype), DISABLED
            )
        ctx = DispatchAutodiffContext.enabled(device.checkpointing)
        match device.checkpointing:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(B.Autodiff, AD.float_random(shape, distribution, device.inner, dtype), ctx)
    raise unsupported_backend("float_random", device)


def float_add(lhs, rhs):
    """Element-wise sum, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_add(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_add(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_add(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_add(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_add", lhs)


def float_add_scalar(lhs, rhs):
    """Adds a scalar to every element."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_add_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_add_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_add_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_add_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_add_scalar", lhs)


def float_sub(lhs, rhs):
    """Element-wise difference, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sub(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sub(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sub(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sub(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_sub", lhs)


def float_sub_scalar(lhs, rhs):
    """Subtracts a scalar from every element."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sub_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sub_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sub_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sub_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_sub_scalar", lhs)


def float_mul(lhs, rhs):
    """Element-wise product, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mul(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mul(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mul(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mul(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_mul", lhs)


def float_mul_scalar(lhs, rhs):
    """Multiplies every element by a scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mul_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mul_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mul_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mul_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_mul_scalar", lhs)


def float_div(lhs, rhs):
    """Element-wise quotient, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_div(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_div(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_div(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_div(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_div", lhs)


def float_div_scalar(lhs, rhs):
    """Divides every element by a scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_div_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_div_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_div_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_div_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_div_scalar", lhs)


def float_neg(tensor):
    """Element-wise negation."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_neg(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_neg(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_neg(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_neg(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_neg", tensor)


def float_matmul(lhs, rhs):
    """Matrix product over the last two dims, broadcasting the batch dims."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_matmul(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_matmul(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_matmul(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_matmul(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_matmul", lhs)


def float_powf_scalar(lhs, rhs):
    """Raises every element to a float power."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_powf_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_powf_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_powf_scalar(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_powf_scalar(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_powf_scalar", lhs)


def float_exp(tensor):
    """Element-wise e^x."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_exp(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_exp(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_exp(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_exp(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_exp", tensor)


def float_log(tensor):
    """Element-wise natural logarithm."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_log(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_log(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_log(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_log(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_log", tensor)


def float_sqrt(tensor):
    """Element-wise square root."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sqrt(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sqrt(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sqrt(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sqrt(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_sqrt", tensor)


def float_abs(tensor):
    """Element-wise absolute value."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_abs(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_abs(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_abs(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_abs(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_abs", tensor)


def float_sign(tensor):
    """Element-wise sign (-1, 0 or 1)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sign(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sign(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sign(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sign(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_sign", tensor)


def float_tanh(tensor):
    """Element-wise hyperbolic tangent."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_tanh(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_tanh(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_tanh(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_tanh(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_tanh", tensor)


def sigmoid(tensor):
    """Element-wise logistic function 1 / (1 + e^-x)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.sigmoid(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.sigmoid(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.sigmoid(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.sigmoid(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("sigmoid", tensor)


def relu(tensor):
    """Element-wise max(x, 0)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.relu(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.relu((tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.relu(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.relu((tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))),
            ctx,
        )
    raise unsupported_backend("relu", tensor)


def float_sum(tensor):
    """Sum of all elements, shape [1]."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sum(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sum(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sum(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sum(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_sum", tensor)


def float_sum_dim(tensor, dim):
    """Sum along `dim`, keeping it with size 1."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sum_dim(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    dim,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sum_dim(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dim
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_sum_dim(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    dim,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_sum_dim(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dim
            ),
            ctx,
        )
    raise unsupported_backend("float_sum_dim", tensor)


def float_mean(tensor):
    """Mean of all elements, shape [1]."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mean(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mean(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mean(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    )
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mean(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor))
            ),
            ctx,
        )
    raise unsupported_backend("float_mean", tensor)


def float_mean_dim(tensor, dim):
    """Mean along `dim`, keeping it with size 1."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mean_dim(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    dim,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mean_dim(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dim
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_mean_dim(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    dim,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_mean_dim(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dim
            ),
            ctx,
        )
    raise unsupported_backend("float_mean_dim", tensor)


def float_reshape(tensor, shape):
    """The same elements in a new shape (-1 infers one dim)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_reshape(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    shape,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_reshape(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), shape
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_reshape(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    shape,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_reshape(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), shape
            ),
            ctx,
        )
    raise unsupported_backend("float_reshape", tensor)


def float_swap_dims(tensor, dim1, dim2):
    """Swaps two dims."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_swap_dims(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    dim1,
                    dim2,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_swap_dims(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)),
                dim1,
                dim2,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_swap_dims(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    dim1,
                    dim2,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_swap_dims(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)),
                dim1,
                dim2,
            ),
            ctx,
        )
    raise unsupported_backend("float_swap_dims", tensor)


def float_transpose(tensor):
    """Swaps the last two dims."""
    return float_swap_dims(tensor, -2, -1)


def float_cast(tensor, dtype):
    """The tensor in another float dtype (the gradient is cast back)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_cast(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    dtype,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_cast(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dtype
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.float_cast(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    dtype,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Autodiff,
            AD.float_cast(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dtype
            ),
            ctx,
        )
    raise unsupported_backend("float_cast", tensor)


def float_equal(lhs, rhs):
    """Element-wise lhs == rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_equal(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_equal(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_equal(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_equal(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_equal", lhs)


def float_equal_elem(lhs, rhs):
    """Element-wise lhs == scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_equal_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_equal_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_equal_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_equal_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_equal_elem", lhs)


def float_not_equal_elem(lhs, rhs):
    """Element-wise lhs != scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_not_equal_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_not_equal_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_not_equal_elem", lhs)


def float_greater(lhs, rhs):
    """Element-wise lhs > rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_greater(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_greater(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_greater(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_greater(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_greater", lhs)


def float_greater_elem(lhs, rhs):
    """Element-wise lhs > scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_greater_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_greater_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_greater_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_greater_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_greater_elem", lhs)


def float_lower(lhs, rhs):
    """Element-wise lhs < rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_lower(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("NumPy", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_lower(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_lower(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)),
                    (rhs.primitive if rhs.kind is B.Float else rhs.as_float("Torch", lhs)),
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_lower(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)),
                (rhs.primitive if rhs.kind is B.Autodiff else rhs.lift(AD, lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("float_lower", lhs)


def float_lower_elem(lhs, rhs):
    """Element-wise lhs < scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_lower_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("NumPy", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_lower_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Bool,
                B.inner.float_lower_elem(
                    (lhs.primitive if lhs.kind is B.Float else lhs.as_float("Torch", lhs)), rhs
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Bool,
            AD.float_lower_elem(
                (lhs.primitive if lhs.kind is B.Autodiff else lhs.lift(AD, lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("float_lower_elem", lhs)


def float_into_int(tensor, dtype):
    """Truncates toward zero into an int tensor."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Int,
                B.inner.float_into_int(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("NumPy", tensor)
                    ),
                    dtype,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Int,
            AD.float_into_int(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dtype
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Int,
                B.inner.float_into_int(
                    (
                        tensor.primitive
                        if tensor.kind is B.Float
                        else tensor.as_float("Torch", tensor)
                    ),
                    dtype,
                ),
                ctx,
            )
        match ctx.strategy:
            case GradientCheckpointingStrategy.Balanced:
                AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
            case GradientCheckpointingStrategy.Disabled:
                AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
        return Tensor(
            B.Int,
            AD.float_into_int(
                (tensor.primitive if tensor.kind is B.Autodiff else tensor.lift(AD, tensor)), dtype
            ),
            ctx,
        )
    raise unsupported_backend("float_into_int", tensor)


def float_to_device(tensor, device):
    """The tensor on `device` (plain -> autodiff makes an untracked leaf; autodiff -> plain detaches)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if device.variant == "NumPy":
            T = B
            if type(device) is not AutodiffDevice:
                return Tensor(
                    T.Float,
                    B.inner.float_to_device(tensor.float_data("NumPy", tensor), device.inner),
                    DISABLED,
                )  # autodiff -> plain detaches
            if tensor.kind.is_autodiff:
                # a recorded op: the gradient moves back; the tensor keeps its strategy
                match ctx.strategy:
                    case GradientCheckpointingStrategy.Balanced:
                        AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                    case GradientCheckpointingStrategy.Disabled:
                        AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
                return Tensor(T.Autodiff, AD.float_to_device(tensor.primitive, device.inner), ctx)
            data = B.inner.float_to_device(
                tensor.float_data("NumPy", tensor), device.inner
            )  # plain -> autodiff: an untracked leaf
            ctx = DispatchAutodiffContext.enabled(device.checkpointing)
            B = T
            match device.checkpointing:
                case GradientCheckpointingStrategy.Balanced:
                    AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                case GradientCheckpointingStrategy.Disabled:
                    AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
            return Tensor(T.Autodiff, AD.from_inner(data), ctx)
        if device.variant == "Torch":
            T = BACKENDS.Torch
            if type(device) is not AutodiffDevice:
                return Tensor(
                    T.Float,
                    B.inner.move_across(tensor.float_data("NumPy", tensor), T.inner, device.inner),
                    DISABLED,
                )  # autodiff -> plain detaches
            if tensor.kind.is_autodiff:
                # a recorded op: the gradient moves back; the tensor keeps its strategy
                match ctx.strategy:
                    case GradientCheckpointingStrategy.Balanced:
                        AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                    case GradientCheckpointingStrategy.Disabled:
                        AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
                return Tensor(
                    T.Autodiff, AD.move_across(tensor.primitive, T.inner, device.inner), ctx
                )
            data = B.inner.move_across(
                tensor.float_data("NumPy", tensor), T.inner, device.inner
            )  # plain -> autodiff: an untracked leaf
            ctx = DispatchAutodiffContext.enabled(device.checkpointing)
            B = T
            match device.checkpointing:
                case GradientCheckpointingStrategy.Balanced:
                    AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                case GradientCheckpointingStrategy.Disabled:
                    AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
            return Tensor(T.Autodiff, AD.from_inner(data), ctx)
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if device.variant == "NumPy":
            T = BACKENDS.NumPy
            if type(device) is not AutodiffDevice:
                return Tensor(
                    T.Float,
                    B.inner.move_across(tensor.float_data("Torch", tensor), T.inner, device.inner),
                    DISABLED,
                )  # autodiff -> plain detaches
            if tensor.kind.is_autodiff:
                # a recorded op: the gradient moves back; the tensor keeps its strategy
                match ctx.strategy:
                    case GradientCheckpointingStrategy.Balanced:
                        AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                    case GradientCheckpointingStrategy.Disabled:
                        AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
                return Tensor(
                    T.Autodiff, AD.move_across(tensor.primitive, T.inner, device.inner), ctx
                )
            data = B.inner.move_across(
                tensor.float_data("Torch", tensor), T.inner, device.inner
            )  # plain -> autodiff: an untracked leaf
            ctx = DispatchAutodiffContext.enabled(device.checkpointing)
            B = T
            match device.checkpointing:
                case GradientCheckpointingStrategy.Balanced:
                    AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                case GradientCheckpointingStrategy.Disabled:
                    AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
            return Tensor(T.Autodiff, AD.from_inner(data), ctx)
        if device.variant == "Torch":
            T = B
            if type(device) is not AutodiffDevice:
                return Tensor(
                    T.Float,
                    B.inner.float_to_device(tensor.float_data("Torch", tensor), device.inner),
                    DISABLED,
                )  # autodiff -> plain detaches
            if tensor.kind.is_autodiff:
                # a recorded op: the gradient moves back; the tensor keeps its strategy
                match ctx.strategy:
                    case GradientCheckpointingStrategy.Balanced:
                        AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                    case GradientCheckpointingStrategy.Disabled:
                        AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
                return Tensor(T.Autodiff, AD.float_to_device(tensor.primitive, device.inner), ctx)
            data = B.inner.float_to_device(
                tensor.float_data("Torch", tensor), device.inner
            )  # plain -> autodiff: an untracked leaf
            ctx = DispatchAutodiffContext.enabled(device.checkpointing)
            B = T
            match device.checkpointing:
                case GradientCheckpointingStrategy.Balanced:
                    AD = B.Balanced  # Autodiff[B, BalancedCheckpointing]
                case GradientCheckpointingStrategy.Disabled:
                    AD = B.NoCheckpointing  # Autodiff[B, NoCheckpointing]
            return Tensor(T.Autodiff, AD.from_inner(data), ctx)
    raise unsupported_backend("float_to_device", tensor)
