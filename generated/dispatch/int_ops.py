# @generated from ops.yaml by `python -m codegen`; do not edit. render=826282c33e7cdc0b body=2a6a46374e4dcd44
"""The int ops of the dispatch layer, one routing function per ops.yaml entry."""

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
    "int_from_data",
    "int_zeros",
    "int_ones",
    "int_full",
    "int_arange",
    "int_cast",
    "int_add",
    "int_add_scalar",
    "int_mul",
    "int_mul_scalar",
    "int_sum",
    "int_equal",
    "int_not_equal_elem",
    "int_greater_elem",
    "int_into_float",
    "int_to_device",
]


def int_from_data(data, device, dtype):
    """An int tensor holding a copy of `data`."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Int, B.inner.int_from_data(data, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Int, B.inner.int_from_data(data, device.inner, dtype), context_of(device))
    raise unsupported_backend("int_from_data", device)


def int_zeros(shape, device, dtype):
    """An int tensor of zeros."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Int, B.inner.int_zeros(shape, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Int, B.inner.int_zeros(shape, device.inner, dtype), context_of(device))
    raise unsupported_backend("int_zeros", device)


def int_ones(shape, device, dtype):
    """An int tensor of ones."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Int, B.inner.int_ones(shape, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Int, B.inner.int_ones(shape, device.inner, dtype), context_of(device))
    raise unsupported_backend("int_ones", device)


def int_full(shape, fill_value, device, dtype):
    """An int tensor filled with `fill_value`."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int, B.inner.int_full(shape, fill_value, device.inner, dtype), context_of(device)
        )
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int, B.inner.int_full(shape, fill_value, device.inner, dtype), context_of(device)
        )
    raise unsupported_backend("int_full", device)


def int_arange(start, end, step, device, dtype):
    """The ints start, start + step, ... below end."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int, B.inner.int_arange(start, end, step, device.inner, dtype), context_of(device)
        )
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int, B.inner.int_arange(start, end, step, device.inner, dtype), context_of(device)
        )
    raise unsupported_backend("int_arange", device)


def int_cast(tensor, dtype):
    """The tensor in another int dtype."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_cast(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("NumPy", tensor)),
                dtype,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_cast(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("Torch", tensor)),
                dtype,
            ),
            ctx,
        )
    raise unsupported_backend("int_cast", tensor)


def int_add(lhs, rhs):
    """Element-wise sum of ints, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_add(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_add(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("int_add", lhs)


def int_add_scalar(lhs, rhs):
    """Adds an int to every element."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_add_scalar(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_add_scalar(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("int_add_scalar", lhs)


def int_mul(lhs, rhs):
    """Element-wise product of ints, broadcasting."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_mul(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_mul(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("int_mul", lhs)


def int_mul_scalar(lhs, rhs):
    """Multiplies every element by an int."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_mul_scalar(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_mul_scalar(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("int_mul_scalar", lhs)


def int_sum(tensor):
    """Sum of all elements, shape [1]."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.int_sum(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("NumPy", tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.int_sum(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("Torch", tensor))
            ),
            ctx,
        )
    raise unsupported_backend("int_sum", tensor)


def int_equal(lhs, rhs):
    """Element-wise lhs == rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.int_equal(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.int_equal(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Int else rhs.as_int("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("int_equal", lhs)


def int_not_equal_elem(lhs, rhs):
    """Element-wise lhs != scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.int_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.int_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("int_not_equal_elem", lhs)


def int_greater_elem(lhs, rhs):
    """Element-wise lhs > scalar."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.int_greater_elem(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.int_greater_elem(
                (lhs.primitive if lhs.kind is B.Int else lhs.as_int("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("int_greater_elem", lhs)


def int_into_float(tensor, dtype):
    """Converts into a float tensor (an untracked leaf on an autodiff device)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.int_into_float(
                    (tensor.primitive if tensor.kind is B.Int else tensor.as_int("NumPy", tensor)),
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
            AD.int_into_float(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("NumPy", tensor)),
                dtype,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.int_into_float(
                    (tensor.primitive if tensor.kind is B.Int else tensor.as_int("Torch", tensor)),
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
            AD.int_into_float(
                (tensor.primitive if tensor.kind is B.Int else tensor.as_int("Torch", tensor)),
                dtype,
            ),
            ctx,
        )
    raise unsupported_backend("int_into_float", tensor)


def int_to_device(tensor, device):
    """The tensor on `device`."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if device.variant == "NumPy":
            T = B
            return Tensor(
                T.Int,
                B.inner.int_to_device(tensor.as_int("NumPy", tensor), device.inner),
                context_of(device),
            )
        if device.variant == "Torch":
            T = BACKENDS.Torch
            return Tensor(
                T.Int,
                B.inner.move_across(tensor.as_int("NumPy", tensor), T.inner, device.inner),
                context_of(device),
            )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if device.variant == "NumPy":
            T = BACKENDS.NumPy
            return Tensor(
                T.Int,
                B.inner.move_across(tensor.as_int("Torch", tensor), T.inner, device.inner),
                context_of(device),
            )
        if device.variant == "Torch":
            T = B
            return Tensor(
                T.Int,
                B.inner.int_to_device(tensor.as_int("Torch", tensor), device.inner),
                context_of(device),
            )
    raise unsupported_backend("int_to_device", tensor)
