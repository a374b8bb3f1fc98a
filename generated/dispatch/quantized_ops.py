# @generated from ops.yaml by `python -m codegen`; do not edit. render=f72255422fd690ad body=0090367677916179
"""The quantized ops of the dispatch layer: burn's QTensorOps, one function per entry of
ops.yaml's `quantized:`.

A Float tensor's primitive is plain or quantized (burn's TensorPrimitive::QFloat, kind
`B.QFloat`). The float ops' dispatch functions hand quantized operands to the q-op they route
to; each q-op here is a kernel of the inner backend (the required ones), or burn's default made
from its float op: dequantize, the float op, then quantize again (`dequant_op_quant!`), or only
when the device propagates (`dequant_op_flow!`), or return its Int or Bool result. On an
autodiff device a quantized tensor passes through as it is; dequantizing gives a new leaf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnpy.generated.backends import BACKENDS
from burnpy.generated.dispatch import float_ops
from burnpy.generated.tensor import Tensor
from burnpy.runtime.device import GradientCheckpointingStrategy
from burnpy.runtime.dispatch import DISABLED, FLOAT32, context_of, propagates

if TYPE_CHECKING:
    import numpy as np

    from burnpy.generated.autodiff import Autodiff
    from burnpy.generated.backends import Inner
    from burnpy.runtime.device import DispatchDevice
    from burnpy.runtime.quantization.scheme import QuantScheme
    from burnpy.runtime.routing import DispatchBackend

    Backend = DispatchBackend[Inner, Autodiff]

BALANCED = GradientCheckpointingStrategy.Balanced

__all__ = [
    "q_from_data",
    "quantize",
    "dequantize",
    "q_to_device",
    "q_reshape",
    "q_into_data",
    "q_swap_dims",
    "q_permute",
    "q_flip",
    "quantize_dynamic",
    "q_detach",
    "q_set_require_grad",
    "q_is_require_grad",
    "q_expand",
    "q_transpose",
    "q_select",
    "q_slice",
    "q_gather",
    "q_mask_select",
    "q_repeat_dim",
    "q_add",
    "q_add_scalar",
    "q_clamp_min",
    "q_clamp_max",
    "q_clamp",
    "q_sub",
    "q_sub_scalar",
    "q_mul",
    "q_mul_scalar",
    "q_div",
    "q_div_scalar",
    "q_matmul",
    "q_neg",
    "q_recip",
    "q_sum",
    "q_sum_dim",
    "q_prod",
    "q_prod_dim",
    "q_mean",
    "q_mean_dim",
    "q_cumsum",
    "q_cumprod",
    "q_cummin",
    "q_cummax",
    "q_exp",
    "q_log",
    "q_log1p",
    "q_powf",
    "q_powi",
    "q_powi_scalar",
    "q_powf_scalar",
    "q_sqrt",
    "q_abs",
    "q_cos",
    "q_sin",
    "q_tan",
    "q_cosh",
    "q_sinh",
    "q_tanh",
    "q_erf",
    "q_cat",
    "q_argmax",
    "q_argtopk",
    "q_topk",
    "q_topk_with_indices",
    "q_argmin",
    "q_max",
    "q_max_dim",
    "q_max_dim_with_indices",
    "q_min",
    "q_min_dim",
    "q_min_dim_with_indices",
    "q_max_abs",
    "q_max_abs_dim",
    "q_any",
    "q_any_dim",
    "q_all",
    "q_all_dim",
    "q_sort",
    "q_sort_with_indices",
    "q_argsort",
]


def q_from_data(
    values: object,
    scales: object,
    scheme: QuantScheme,
    shape: tuple[int, ...] | None,
    device: DispatchDevice,
) -> Tensor:
    """A quantized tensor from its integer values (unpacked) and its scales, one per block."""
    B: Backend = getattr(BACKENDS, device.variant)
    return Tensor(
        B.QFloat,
        B.inner.q_from_data(values, scales, scheme, shape, device.inner),
        context_of(device),
    )


def quantize(tensor: Tensor, scheme: QuantScheme, scales: Tensor) -> Tensor:
    """Quantize with the given scales (burn's grid shape: one per block along each dim); drops the history."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(
        B.QFloat,
        B.inner.quantize(tensor.float_data(), scheme, scales.float_data(tensor)),
        tensor.context,
    )


def dequantize(tensor: Tensor, dtype: np.dtype) -> Tensor:
    """The float values, scale * q (float32 unless `dtype` is given); a plain float tensor is returned unchanged."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    if tensor.kind is not B.QFloat:
        return tensor
    out = B.inner.dequantize(tensor.primitive, dtype)
    if tensor.context is DISABLED:
        return Tensor(B.Float, out, DISABLED)
    AD = B.Balanced if tensor.context.strategy is BALANCED else B.NoCheckpointing
    return Tensor(B.Autodiff, AD.from_inner(out), tensor.context)  # a new leaf


def q_to_device(tensor: Tensor, device: DispatchDevice) -> Tensor:
    """The quantized tensor on `device`."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    T: Backend = getattr(BACKENDS, device.variant)
    tensor_ = tensor.as_quantized()
    if T is B:
        moved = B.inner.q_to_device(tensor_, device.inner)
    else:  # between backends, through the values and scales
        values, scales = B.inner.q_into_data(tensor_)
        moved = T.inner.q_from_data(values, scales, tensor_.scheme, tensor_.shape, device.inner)
    return Tensor(T.QFloat, moved, context_of(device))


def q_reshape(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """The quantized tensor reshaped (per block, quantized anew over the new blocks)."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(B.QFloat, B.inner.q_reshape(tensor.as_quantized(), shape), tensor.context)


def q_into_data(tensor: Tensor) -> tuple[np.ndarray, np.ndarray]:
    """The int8 values (unpacked, in the tensor's shape) and the float32 scales, as numpy arrays."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return B.inner.q_into_data(tensor.as_quantized())


def q_swap_dims(tensor: Tensor, dim1: int, dim2: int) -> Tensor:
    """Two dims swapped, on the quantized values."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(B.QFloat, B.inner.q_swap_dims(tensor.as_quantized(), dim1, dim2), tensor.context)


def q_permute(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """The dims permuted, on the quantized values (and a block's extents)."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(B.QFloat, B.inner.q_permute(tensor.as_quantized(), axes), tensor.context)


def q_flip(tensor: Tensor, axes: tuple[int, ...]) -> Tensor:
    """Flipped along the dims, on the quantized values."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(B.QFloat, B.inner.q_flip(tensor.as_quantized(), axes), tensor.context)


def quantize_dynamic(tensor: Tensor, scheme: QuantScheme) -> Tensor:
    """Quantize with scales from the tensor's range (MinMax calibration, per tensor or per block); drops the history."""
    B: Backend = getattr(BACKENDS, tensor.kind.variant)
    return Tensor(B.QFloat, B.inner.quantize_dynamic(tensor.float_data(), scheme), tensor.context)


def q_detach(tensor: Tensor) -> Tensor:
    """The tensor itself (a quantized tensor has no history)."""
    return tensor


def q_set_require_grad(tensor: Tensor, require_grad: bool) -> Tensor:
    """The tensor itself (a quantized tensor takes no gradient)."""
    return tensor


def q_is_require_grad(tensor: Tensor) -> bool:
    """False (a quantized tensor takes no gradient)."""
    return False


def q_expand(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Broadcast to a shape."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_expand(dequantize(tensor, FLOAT32), shape)
    return quantize_dynamic(out, scheme)


def q_transpose(tensor: Tensor) -> Tensor:
    """The last two dims swapped."""
    return q_swap_dims(tensor, -2, -1)


def q_select(tensor: Tensor, dim: int, indices: Tensor) -> Tensor:
    """The entries at `indices` along `dim`."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_select(dequantize(tensor, FLOAT32), dim, indices)
    return quantize_dynamic(out, scheme)


def q_slice(tensor: Tensor, slices: tuple[tuple[int, int, int], ...]) -> Tensor:
    """A slice."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_slice(dequantize(tensor, FLOAT32), slices)
    return quantize_dynamic(out, scheme)


def q_gather(dim: int, tensor: Tensor, indices: Tensor) -> Tensor:
    """Gathered along `dim`."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_gather(dim, dequantize(tensor, FLOAT32), indices)
    return quantize_dynamic(out, scheme)


def q_mask_select(tensor: Tensor, mask: Tensor) -> Tensor:
    """The elements where `mask` is true, as 1-D (burn-tensor's argwhere, then `q_select`)."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_mask_select(dequantize(tensor, FLOAT32), mask)
    return quantize_dynamic(out, scheme)


def q_repeat_dim(tensor: Tensor, dim: int, times: int) -> Tensor:
    """Repeated along `dim`."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_repeat_dim(dequantize(tensor, FLOAT32), dim, times)
    return quantize_dynamic(out, scheme)


def q_add(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise sum."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_add(dequantize(lhs, FLOAT32), dequantize(rhs, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_add_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Plus a scalar."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_add_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_clamp_min(tensor: Tensor, min: float) -> Tensor:
    """Clamped below."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_clamp_min(dequantize(tensor, FLOAT32), min)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_clamp_max(tensor: Tensor, max: float) -> Tensor:
    """Clamped above."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_clamp_max(dequantize(tensor, FLOAT32), max)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_clamp(tensor: Tensor, min: float, max: float) -> Tensor:
    """Clamped to [min, max]."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_clamp(dequantize(tensor, FLOAT32), min, max)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_sub(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise difference."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_sub(dequantize(lhs, FLOAT32), dequantize(rhs, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_sub_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Minus a scalar."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_sub_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_mul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise product."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_mul(dequantize(lhs, FLOAT32), dequantize(rhs, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_mul_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Times a scalar."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_mul_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_div(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise quotient."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_div(dequantize(lhs, FLOAT32), dequantize(rhs, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_div_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Divided by a scalar."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_div_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_matmul(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Matrix product of a quantized operand with a plain or quantized one; the last quantized operand's device and scheme decide the result."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    quantized = rhs if rhs.is_quantized() else lhs
    scheme = quantized.as_quantized().scheme
    out = float_ops.float_matmul(dequantize(lhs, rhs.dtype), dequantize(rhs, lhs.dtype))
    return quantize_dynamic(out, scheme) if propagates(quantized) else out


def q_neg(tensor: Tensor) -> Tensor:
    """Negated."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_neg(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_recip(tensor: Tensor) -> Tensor:
    """1 / x."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_recip(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_sum(tensor: Tensor) -> Tensor:
    """The sum of all elements."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sum(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_sum_dim(tensor: Tensor, dim: int) -> Tensor:
    """The sum along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sum_dim(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_prod(tensor: Tensor) -> Tensor:
    """The product of all elements."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_prod(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_prod_dim(tensor: Tensor, dim: int) -> Tensor:
    """The product along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_prod_dim(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_mean(tensor: Tensor) -> Tensor:
    """The mean of all elements."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_mean(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_mean_dim(tensor: Tensor, dim: int) -> Tensor:
    """The mean along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_mean_dim(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cumsum(tensor: Tensor, dim: int) -> Tensor:
    """Cumulative sum along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cumsum(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cumprod(tensor: Tensor, dim: int) -> Tensor:
    """Cumulative product along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cumprod(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cummin(tensor: Tensor, dim: int) -> Tensor:
    """Cumulative minimum along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cummin(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cummax(tensor: Tensor, dim: int) -> Tensor:
    """Cumulative maximum along `dim`."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cummax(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_exp(tensor: Tensor) -> Tensor:
    """e^x."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_exp(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_log(tensor: Tensor) -> Tensor:
    """Natural logarithm."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_log(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_log1p(tensor: Tensor) -> Tensor:
    """log(1 + x)."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_log1p(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_powf(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise power."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_powf(dequantize(lhs, FLOAT32), dequantize(rhs, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_powi(lhs: Tensor, rhs: Tensor) -> Tensor:
    """Element-wise power by an Int tensor."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_powi(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_powi_scalar(lhs: Tensor, rhs: int) -> Tensor:
    """Power by an integer."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_powi_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_powf_scalar(lhs: Tensor, rhs: float) -> Tensor:
    """Power by a float."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = lhs.as_quantized().scheme
    out = float_ops.float_powf_scalar(dequantize(lhs, FLOAT32), rhs)
    return quantize_dynamic(out, scheme) if propagates(lhs) else out


def q_sqrt(tensor: Tensor) -> Tensor:
    """Square root."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sqrt(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_abs(tensor: Tensor) -> Tensor:
    """Absolute value."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_abs(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme)


def q_cos(tensor: Tensor) -> Tensor:
    """Cosine."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cos(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_sin(tensor: Tensor) -> Tensor:
    """Sine."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sin(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_tan(tensor: Tensor) -> Tensor:
    """Tangent."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_tan(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cosh(tensor: Tensor) -> Tensor:
    """Hyperbolic cosine."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_cosh(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_sinh(tensor: Tensor) -> Tensor:
    """Hyperbolic sine."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sinh(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_tanh(tensor: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_tanh(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_erf(tensor: Tensor) -> Tensor:
    """The error function."""
    # dequant_op_flow!: dequantize, the float op, quantized again if the device propagates
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_erf(dequantize(tensor, FLOAT32))
    return quantize_dynamic(out, scheme) if propagates(tensor) else out


def q_cat(tensors: list[Tensor], dim: int) -> Tensor:
    """Concatenated along `dim`, quantized with the first tensor's scheme."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensors[0].as_quantized().scheme
    out = float_ops.float_cat([dequantize(t, FLOAT32) for t in tensors], dim)
    return quantize_dynamic(out, scheme)


def q_argmax(tensor: Tensor, dim: int) -> Tensor:
    """The index of the maximum along `dim`."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_argmax(dequantize(tensor, FLOAT32), dim)


def q_argtopk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The indices of the k largest along `dim`."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_argtopk(dequantize(tensor, FLOAT32), k, dim)


def q_topk(tensor: Tensor, k: int, dim: int) -> Tensor:
    """The k largest along `dim`."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_topk(dequantize(tensor, FLOAT32), k, dim)
    return quantize_dynamic(out, scheme)


def q_topk_with_indices(tensor: Tensor, k: int, dim: int) -> tuple[Tensor, Tensor]:
    """The k largest along `dim` and their indices (burn's sort-then-select, to the same values)."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out, out1 = float_ops.float_topk_with_indices(dequantize(tensor, FLOAT32), k, dim)
    return quantize_dynamic(out, scheme), out1


def q_argmin(tensor: Tensor, dim: int) -> Tensor:
    """The index of the minimum along `dim`."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_argmin(dequantize(tensor, FLOAT32), dim)


def q_max(tensor: Tensor) -> Tensor:
    """The maximum."""
    return q_max_dim(q_reshape(tensor, (tensor.numel(),)), 0)


def q_max_dim(tensor: Tensor, dim: int) -> Tensor:
    """The maximum along `dim`."""
    return q_gather(dim, tensor, q_argmax(tensor, dim))


def q_max_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """The maximum along `dim` and its index (burn's argmax-then-gather, to the same values)."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out, out1 = float_ops.float_max_dim_with_indices(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme), out1


def q_min(tensor: Tensor) -> Tensor:
    """The minimum."""
    return q_min_dim(q_reshape(tensor, (tensor.numel(),)), 0)


def q_min_dim(tensor: Tensor, dim: int) -> Tensor:
    """The minimum along `dim`."""
    return q_gather(dim, tensor, q_argmin(tensor, dim))


def q_min_dim_with_indices(tensor: Tensor, dim: int) -> tuple[Tensor, Tensor]:
    """The minimum along `dim` and its index (burn's argmin-then-gather, to the same values)."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out, out1 = float_ops.float_min_dim_with_indices(dequantize(tensor, FLOAT32), dim)
    return quantize_dynamic(out, scheme), out1


def q_max_abs(tensor: Tensor) -> Tensor:
    """The element of largest magnitude."""
    return q_max_abs_dim(q_reshape(tensor, (tensor.numel(),)), 0)


def q_max_abs_dim(tensor: Tensor, dim: int) -> Tensor:
    """The element of largest magnitude along `dim`."""
    return q_gather(dim, tensor, q_argmax(q_abs(tensor), dim))


def q_any(tensor: Tensor) -> Tensor:
    """Whether any element is non-zero."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_any(dequantize(tensor, FLOAT32))


def q_any_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether any element along `dim` is non-zero."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_any_dim(dequantize(tensor, FLOAT32), dim)


def q_all(tensor: Tensor) -> Tensor:
    """Whether every element is non-zero."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_all(dequantize(tensor, FLOAT32))


def q_all_dim(tensor: Tensor, dim: int) -> Tensor:
    """Whether every element along `dim` is non-zero."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_all_dim(dequantize(tensor, FLOAT32), dim)


def q_sort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """Sorted along `dim`."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out = float_ops.float_sort(dequantize(tensor, FLOAT32), dim, descending)
    return quantize_dynamic(out, scheme)


def q_sort_with_indices(tensor: Tensor, dim: int, descending: bool) -> tuple[Tensor, Tensor]:
    """Sorted along `dim`, and the indices."""
    # dequant_op_quant!: dequantize, the float op, quantize again
    scheme = tensor.as_quantized().scheme
    out, out1 = float_ops.float_sort_with_indices(dequantize(tensor, FLOAT32), dim, descending)
    return quantize_dynamic(out, scheme), out1


def q_argsort(tensor: Tensor, dim: int, descending: bool) -> Tensor:
    """The indices that sort along `dim`."""
    # dequantize, the float op: its result is not a float
    return float_ops.float_argsort(dequantize(tensor, FLOAT32), dim, descending)
