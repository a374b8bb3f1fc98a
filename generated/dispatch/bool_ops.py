# @generated from ops.yaml by `python -m codegen`; do not edit. render=2434d6544b60025a body=0b464462d337bc3a
"""The bool ops of the dispatch layer, one routing function per ops.yaml entry."""

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
    "bool_from_data",
    "bool_empty",
    "bool_zeros",
    "bool_ones",
    "bool_any",
    "bool_any_dim",
    "bool_all",
    "bool_all_dim",
    "bool_not",
    "bool_and",
    "bool_or",
    "bool_equal",
    "bool_xor",
    "bool_not_equal",
    "bool_equal_elem",
    "bool_not_equal_elem",
    "bool_into_int",
    "bool_into_float",
    "bool_to_device",
]


def bool_from_data(data, device, dtype):
    """A bool tensor holding a copy of `data`."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Bool, B.inner.bool_from_data(data, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Bool, B.inner.bool_from_data(data, device.inner, dtype), context_of(device))
    raise unsupported_backend("bool_from_data", device)


def bool_empty(shape, device, dtype):
    """An uninitialised bool tensor."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Bool, B.inner.bool_empty(shape, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Bool, B.inner.bool_empty(shape, device.inner, dtype), context_of(device))
    raise unsupported_backend("bool_empty", device)


def bool_zeros(shape, device, dtype):
    """A bool tensor of false."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Bool, B.inner.bool_zeros(shape, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Bool, B.inner.bool_zeros(shape, device.inner, dtype), context_of(device))
    raise unsupported_backend("bool_zeros", device)


def bool_ones(shape, device, dtype):
    """A bool tensor of true."""
    if device.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(B.Bool, B.inner.bool_ones(shape, device.inner, dtype), context_of(device))
    if device.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(B.Bool, B.inner.bool_ones(shape, device.inner, dtype), context_of(device))
    raise unsupported_backend("bool_ones", device)


def bool_any(tensor):
    """Whether any element is true, shape [1]."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_any(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_any(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor))
            ),
            ctx,
        )
    raise unsupported_backend("bool_any", tensor)


def bool_any_dim(tensor, dim):
    """Whether any element is true along `dim`, keeping it with size 1."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_any_dim(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor)),
                dim,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_any_dim(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor)),
                dim,
            ),
            ctx,
        )
    raise unsupported_backend("bool_any_dim", tensor)


def bool_all(tensor):
    """Whether every element is true, shape [1]."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_all(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_all(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor))
            ),
            ctx,
        )
    raise unsupported_backend("bool_all", tensor)


def bool_all_dim(tensor, dim):
    """Whether every element is true along `dim`, keeping it with size 1."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_all_dim(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor)),
                dim,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_all_dim(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor)),
                dim,
            ),
            ctx,
        )
    raise unsupported_backend("bool_all_dim", tensor)


def bool_not(tensor):
    """Element-wise logical not."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_not(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor))
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_not(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor))
            ),
            ctx,
        )
    raise unsupported_backend("bool_not", tensor)


def bool_and(lhs, rhs):
    """Element-wise logical and."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_and(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_and(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("bool_and", lhs)


def bool_or(lhs, rhs):
    """Element-wise logical or."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_or(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_or(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("bool_or", lhs)


def bool_equal(lhs, rhs):
    """Element-wise lhs == rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_equal(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_equal(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("bool_equal", lhs)


def bool_xor(lhs, rhs):
    """Element-wise logical exclusive or."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_xor(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_xor(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("bool_xor", lhs)


def bool_not_equal(lhs, rhs):
    """Element-wise lhs != rhs."""
    ctx = lhs.context.merge(rhs.context)
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_not_equal(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("NumPy", lhs)),
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_not_equal(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)),
                (rhs.primitive if rhs.kind is B.Bool else rhs.as_bool("Torch", lhs)),
            ),
            ctx,
        )
    raise unsupported_backend("bool_not_equal", lhs)


def bool_equal_elem(lhs, rhs):
    """Element-wise lhs == a bool."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_equal_elem(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_equal_elem(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("bool_equal_elem", lhs)


def bool_not_equal_elem(lhs, rhs):
    """Element-wise lhs != a bool."""
    ctx = lhs.context
    if lhs.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Bool,
            B.inner.bool_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("NumPy", lhs)), rhs
            ),
            ctx,
        )
    if lhs.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Bool,
            B.inner.bool_not_equal_elem(
                (lhs.primitive if lhs.kind is B.Bool else lhs.as_bool("Torch", lhs)), rhs
            ),
            ctx,
        )
    raise unsupported_backend("bool_not_equal_elem", lhs)


def bool_into_int(tensor, dtype):
    """true -> 1, false -> 0."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        return Tensor(
            B.Int,
            B.inner.bool_into_int(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor)),
                dtype,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        return Tensor(
            B.Int,
            B.inner.bool_into_int(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor)),
                dtype,
            ),
            ctx,
        )
    raise unsupported_backend("bool_into_int", tensor)


def bool_into_float(tensor, dtype):
    """true -> 1.0, false -> 0.0 (an untracked leaf on an autodiff device)."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.bool_into_float(
                    (
                        tensor.primitive
                        if tensor.kind is B.Bool
                        else tensor.as_bool("NumPy", tensor)
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
            AD.bool_into_float(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("NumPy", tensor)),
                dtype,
            ),
            ctx,
        )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if ctx is DISABLED:
            return Tensor(
                B.Float,
                B.inner.bool_into_float(
                    (
                        tensor.primitive
                        if tensor.kind is B.Bool
                        else tensor.as_bool("Torch", tensor)
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
            AD.bool_into_float(
                (tensor.primitive if tensor.kind is B.Bool else tensor.as_bool("Torch", tensor)),
                dtype,
            ),
            ctx,
        )
    raise unsupported_backend("bool_into_float", tensor)


def bool_to_device(tensor, device):
    """The tensor on `device`."""
    ctx = tensor.context
    if tensor.kind.variant == "NumPy":
        B = BACKENDS.NumPy
        if device.variant == "NumPy":
            T = B
            return Tensor(
                T.Bool,
                B.inner.bool_to_device(tensor.as_bool("NumPy", tensor), device.inner),
                context_of(device),
            )
        if device.variant == "Torch":
            T = BACKENDS.Torch
            return Tensor(
                T.Bool,
                B.inner.move_across(tensor.as_bool("NumPy", tensor), T.inner, device.inner),
                context_of(device),
            )
    if tensor.kind.variant == "Torch":
        B = BACKENDS.Torch
        if device.variant == "NumPy":
            T = BACKENDS.NumPy
            return Tensor(
                T.Bool,
                B.inner.move_across(tensor.as_bool("Torch", tensor), T.inner, device.inner),
                context_of(device),
            )
        if device.variant == "Torch":
            T = B
            return Tensor(
                T.Bool,
                B.inner.bool_to_device(tensor.as_bool("Torch", tensor), device.inner),
                context_of(device),
            )
    raise unsupported_backend("bool_to_device", tensor)
