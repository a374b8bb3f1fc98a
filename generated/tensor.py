# @generated from ops.yaml by `python -m codegen`; do not edit. render=2e05493ea6afa5e6 body=2fa2b453a51cb919
"""The Tensor API: one method per ops.yaml `method`, routing by kind to the dispatch functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from burnpy.runtime.arguments import (  # noqa: F401  (the argument checks the methods use)
    BOOL,
    FLOAT,
    INT,
    check_dtype,
    choice_arg,
    data_arg,
    device_arg,
    dim_of,
    dims_of,
    distribution_arg,
    dtype_arg,
    dtype_error,
    expect_kind,
    fill_dtype,
    flag_arg,
    float_arg,
    float_dtype_arg,
    given_a_dim,
    infer_data_dtype,
    integer_arg,
    is_scalar,
    kind_error,
    kind_of_dtype,
    real_arg,
    same_kind,
    scalar_for,
    scheme_arg,
    shape_of,
    slices_arg,
    tensors_of,
    update_arg,
    view_shape_of,
)
from burnpy.runtime.contracts import check_contract
from burnpy.runtime.device import GradientCheckpointingStrategy
from burnpy.runtime.dispatch import DISABLED, DispatchTensorKind, new_tensor
from burnpy.runtime.plain_arm import bind as bind_plain_arms
from burnpy.runtime.plain_arm import plain_arm
from burnpy.runtime.tensor import TensorBase, teach_in_place_names

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import DTypeLike

    from burnpy.runtime.device import Device
    from burnpy.runtime.distribution import Distribution
    from burnpy.runtime.indexing import IndexingUpdateOp
    from burnpy.runtime.quantization.scheme import QuantScheme


class Tensor(TensorBase):
    """A float, int or bool tensor on a device (burn-tensor's `Tensor<B, D, K>`)."""

    __slots__ = ()

    @classmethod
    def from_data(
        cls, data: object, *, device: Device | None = None, dtype: DTypeLike | None = None
    ) -> Tensor:
        """Routes by kind:

        - float_from_data: A float tensor holding a copy of `data`.
        - int_from_data: An int tensor holding a copy of `data`.
        - bool_from_data: A bool tensor holding a copy of `data`.
        """
        dtype = infer_data_dtype(data, dtype)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_from_data(data_arg(data), device_arg(device).device, dtype)
        if kind is INT:
            return int_from_data(data_arg(data), device_arg(device).device, dtype)
        if kind is BOOL:
            return bool_from_data(data_arg(data), device_arg(device).device, dtype)
        raise dtype_error("from_data", dtype, (FLOAT, INT, BOOL))

    @classmethod
    def zeros(
        cls,
        shape: Sequence[int] | int,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """Routes by kind:

        - float_zeros: A float tensor of zeros.
        - int_zeros: An int tensor of zeros.
        - bool_zeros: A bool tensor of false.
        """
        dtype = dtype_arg(dtype, FLOAT)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_zeros(shape_of("zeros", "shape", shape), device_arg(device).device, dtype)
        if kind is INT:
            return int_zeros(shape_of("zeros", "shape", shape), device_arg(device).device, dtype)
        if kind is BOOL:
            return bool_zeros(shape_of("zeros", "shape", shape), device_arg(device).device, dtype)
        raise dtype_error("zeros", dtype, (FLOAT, INT, BOOL))

    @classmethod
    def ones(
        cls,
        shape: Sequence[int] | int,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """Routes by kind:

        - float_ones: A float tensor of ones.
        - int_ones: An int tensor of ones.
        - bool_ones: A bool tensor of true.
        """
        dtype = dtype_arg(dtype, FLOAT)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_ones(shape_of("ones", "shape", shape), device_arg(device).device, dtype)
        if kind is INT:
            return int_ones(shape_of("ones", "shape", shape), device_arg(device).device, dtype)
        if kind is BOOL:
            return bool_ones(shape_of("ones", "shape", shape), device_arg(device).device, dtype)
        raise dtype_error("ones", dtype, (FLOAT, INT, BOOL))

    @classmethod
    def full(
        cls,
        shape: Sequence[int] | int,
        fill_value: float,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """Routes by kind:

        - float_full: A float tensor filled with `fill_value`.
        - int_full: An int tensor filled with `fill_value`.
        """
        dtype = fill_dtype("full", fill_value, dtype)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_full(
                shape_of("full", "shape", shape),
                real_arg("full", "fill_value", fill_value),
                device_arg(device).device,
                dtype,
            )
        if kind is INT:
            return int_full(
                shape_of("full", "shape", shape),
                integer_arg("full", "fill_value", fill_value),
                device_arg(device).device,
                dtype,
            )
        raise dtype_error("full", dtype, (FLOAT, INT))

    @classmethod
    def empty(
        cls,
        shape: Sequence[int] | int,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """Routes by kind:

        - float_empty: An uninitialised float tensor.
        - int_empty: An uninitialised int tensor.
        - bool_empty: An uninitialised bool tensor.
        """
        dtype = dtype_arg(dtype, FLOAT)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_empty(shape_of("empty", "shape", shape), device_arg(device).device, dtype)
        if kind is INT:
            return int_empty(shape_of("empty", "shape", shape), device_arg(device).device, dtype)
        if kind is BOOL:
            return bool_empty(shape_of("empty", "shape", shape), device_arg(device).device, dtype)
        raise dtype_error("empty", dtype, (FLOAT, INT, BOOL))

    @classmethod
    def random(
        cls,
        shape: Sequence[int] | int,
        distribution: Distribution | None = None,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """Routes by kind:

        - float_random: A float tensor sampled from `distribution` (seed it with `device.seed(n)`).
        - int_random: An int tensor sampled from `distribution` (uniform(lo, hi) gives ints in [lo, hi); normal samples are truncated).
        """
        dtype = dtype_arg(dtype, FLOAT)
        kind = kind_of_dtype(dtype)
        if kind is FLOAT:
            return float_random(
                shape_of("random", "shape", shape),
                distribution_arg(distribution),
                device_arg(device).device,
                dtype,
            )
        if kind is INT:
            check_dtype("int_random", dtype, ("int64", "int32"))
            return int_random(
                shape_of("random", "shape", shape),
                distribution_arg(distribution),
                device_arg(device).device,
                dtype,
            )
        raise dtype_error("random", dtype, (FLOAT, INT))

    @classmethod
    def arange(
        cls,
        start: int,
        end: int,
        step: int = 1,
        *,
        device: Device | None = None,
        dtype: DTypeLike | None = None,
    ) -> Tensor:
        """The ints start, start + step, ... below end; `step` is positive (burn's usize)."""
        dtype = dtype_arg(dtype, INT)
        kind = kind_of_dtype(dtype)
        if kind is INT:
            check_dtype("int_arange_step", dtype, ("int64", "int32"))
            return int_arange_step(
                integer_arg("arange", "start", start),
                integer_arg("arange", "end", end),
                integer_arg("arange", "step", step),
                device_arg(device).device,
                dtype,
            )
        raise dtype_error("arange", dtype, (INT,))

    @plain_arm("float_add", 2)
    def add(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_add: Element-wise sum, broadcasting.
        - float_add_scalar: Adds a scalar to every element.
        - int_add: Element-wise sum of ints, broadcasting.
        - int_add_scalar: Adds an int to every element.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_add's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_add(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_add", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("add", self, rhs)
                return float_add(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("add", self, rhs)
                check_dtype("int_add", self.dtype, ("int64", "int32"))
                return int_add(self, rhs)
        else:
            if kind is FLOAT:
                return float_add_scalar(self, scalar_for("add", self, rhs))
            if kind is INT:
                check_dtype("int_add_scalar", self.dtype, ("int64", "int32"))
                return int_add_scalar(self, scalar_for("add", self, rhs))
        raise kind_error("add", self, (FLOAT, INT))

    __add__ = add

    @plain_arm("float_sub", 2)
    def sub(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_sub: Element-wise difference, broadcasting.
        - float_sub_scalar: Subtracts a scalar from every element.
        - int_sub: Element-wise difference of ints, broadcasting.
        - int_sub_scalar: Subtracts an int from every element.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_sub's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_sub(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_sub", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("sub", self, rhs)
                return float_sub(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("sub", self, rhs)
                check_dtype("int_sub", self.dtype, ("int64", "int32"))
                return int_sub(self, rhs)
        else:
            if kind is FLOAT:
                return float_sub_scalar(self, scalar_for("sub", self, rhs))
            if kind is INT:
                check_dtype("int_sub_scalar", self.dtype, ("int64", "int32"))
                return int_sub_scalar(self, scalar_for("sub", self, rhs))
        raise kind_error("sub", self, (FLOAT, INT))

    __sub__ = sub

    @plain_arm("float_mul", 2)
    def mul(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_mul: Element-wise product, broadcasting.
        - float_mul_scalar: Multiplies every element by a scalar.
        - int_mul: Element-wise product of ints, broadcasting.
        - int_mul_scalar: Multiplies every element by an int.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_mul's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_mul(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_mul", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("mul", self, rhs)
                return float_mul(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("mul", self, rhs)
                check_dtype("int_mul", self.dtype, ("int64", "int32"))
                return int_mul(self, rhs)
        else:
            if kind is FLOAT:
                return float_mul_scalar(self, scalar_for("mul", self, rhs))
            if kind is INT:
                check_dtype("int_mul_scalar", self.dtype, ("int64", "int32"))
                return int_mul_scalar(self, scalar_for("mul", self, rhs))
        raise kind_error("mul", self, (FLOAT, INT))

    __mul__ = mul

    @plain_arm("float_div", 2)
    def div(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_div: Element-wise quotient, broadcasting.
        - float_div_scalar: Divides every element by a scalar.
        - int_div: Element-wise quotient of ints, truncated toward zero (as burn, not Python's //).
        - int_div_scalar: Divides every element by an int, truncating toward zero.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_div's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_div(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_div", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("div", self, rhs)
                return float_div(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("div", self, rhs)
                check_dtype("int_div", self.dtype, ("int64", "int32"))
                return int_div(self, rhs)
        else:
            if kind is FLOAT:
                return float_div_scalar(self, scalar_for("div", self, rhs))
            if kind is INT:
                check_dtype("int_div_scalar", self.dtype, ("int64", "int32"))
                return int_div_scalar(self, scalar_for("div", self, rhs))
        raise kind_error("div", self, (FLOAT, INT))

    __truediv__ = div

    @plain_arm("float_neg", 1)
    def neg(self) -> Tensor:
        """Routes by kind:

        - float_neg: Element-wise negation.
        - int_neg: Element-wise negation.
        """
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_neg's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_neg(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_neg", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_neg(self)
        if kind is INT:
            check_dtype("int_neg", self.dtype, ("int64", "int32"))
            return int_neg(self)
        raise kind_error("neg", self, (FLOAT, INT))

    __neg__ = neg

    @plain_arm("float_matmul", 2)
    def matmul(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_matmul: Matrix product over the last two dims, broadcasting the batch dims.
        - int_matmul: Matrix product of ints over the last two dims, broadcasting the batch dims.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_matmul's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_matmul(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_matmul", "matmul", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("matmul", self, rhs)
            return float_matmul(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("matmul", self, rhs)
            check_dtype("int_matmul", self.dtype, ("int64", "int32"))
            return int_matmul(self, rhs)
        raise kind_error("matmul", self, (FLOAT, INT))

    __matmul__ = matmul

    def det(self) -> Tensor:
        """The determinant of each square matrix of the last two dims: [..., n, n] -> [...] (LU with partial pivoting, one pass; its gradient is the cofactors, infinite at a singular matrix)."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            check_dtype("float_det", self.dtype, ("float32", "float64"))
            return float_det(self)
        raise kind_error("det", self, (FLOAT,))

    @plain_arm("float_remainder", 2)
    def remainder(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_remainder: Element-wise remainder with the divisor's sign (Python's %), broadcasting.
        - float_remainder_scalar: Remainder of every element by a scalar, with the scalar's sign.
        - int_remainder: Element-wise remainder with the divisor's sign (Python's %), broadcasting.
        - int_remainder_scalar: Remainder of every element by an int, with the int's sign.
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_remainder's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_remainder(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_remainder", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("remainder", self, rhs)
                return float_remainder(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("remainder", self, rhs)
                check_dtype("int_remainder", self.dtype, ("int64", "int32"))
                return int_remainder(self, rhs)
        else:
            if kind is FLOAT:
                return float_remainder_scalar(self, scalar_for("remainder", self, rhs))
            if kind is INT:
                check_dtype("int_remainder_scalar", self.dtype, ("int64", "int32"))
                return int_remainder_scalar(self, scalar_for("remainder", self, rhs))
        raise kind_error("remainder", self, (FLOAT, INT))

    __mod__ = remainder

    def cross(self, rhs: Tensor, dim: int) -> Tensor:
        """Cross product of 3-vectors along `dim` (of size 3), broadcasting."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("cross", self, rhs)
            return float_cross(self, rhs, dim_of("cross", "dim", self, dim))
        raise kind_error("cross", self, (FLOAT,))

    @plain_arm("float_powf", 2)
    def powf(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_powf: Element-wise lhs ** rhs, broadcasting.
        - float_powf_scalar: Raises every element to a float power (burn's entry point; the generic case does the work).
        """
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_powf's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_powf(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_powf", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("powf", self, rhs)
                return float_powf(self, rhs)
        else:
            if kind is FLOAT:
                return float_powf_scalar(self, real_arg("powf", "rhs", rhs))
        raise kind_error("powf", self, (FLOAT,))

    def powi(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - float_powi: Raises every element to an int tensor's power, broadcasting.
        - float_powi_scalar: Raises every element to an integer power.
        - int_powi: Element-wise lhs ** rhs; a negative exponent truncates as burn's float route (2 ** -1 == 0).
        - int_powi_scalar: Raises every element to an int power (burn's entry point; the generic case does the work).
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is FLOAT:
                expect_kind("powi", rhs, INT)
                return float_powi(self, rhs)
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("powi", self, rhs)
                check_dtype("int_powi", self.dtype, ("int64", "int32"))
                return int_powi(self, rhs)
        else:
            if kind is FLOAT:
                return float_powi_scalar(self, integer_arg("powi", "rhs", rhs))
            if kind is INT:
                check_dtype("int_powi_scalar", self.dtype, ("int64", "int32"))
                return int_powi_scalar(self, scalar_for("powi", self, rhs))
        raise kind_error("powi", self, (FLOAT, INT))

    def clamp(self, min: float, max: float) -> Tensor:
        """Routes by kind:

        - float_clamp: Clamps every element into [min, max] (the gradient is 0 where an element was clamped).
        - int_clamp: Clamps every element into [min, max].
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_clamp(self, scalar_for("clamp", self, min), scalar_for("clamp", self, max))
        if kind is INT:
            check_dtype("int_clamp", self.dtype, ("int64", "int32"))
            return int_clamp(self, scalar_for("clamp", self, min), scalar_for("clamp", self, max))
        raise kind_error("clamp", self, (FLOAT, INT))

    def clamp_min(self, min: float) -> Tensor:
        """Routes by kind:

        - float_clamp_min: Raises every element below `min` to `min`.
        - int_clamp_min: Raises every element below `min` to `min`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_clamp_min(self, scalar_for("clamp_min", self, min))
        if kind is INT:
            check_dtype("int_clamp_min", self.dtype, ("int64", "int32"))
            return int_clamp_min(self, scalar_for("clamp_min", self, min))
        raise kind_error("clamp_min", self, (FLOAT, INT))

    def clamp_max(self, max: float) -> Tensor:
        """Routes by kind:

        - float_clamp_max: Lowers every element above `max` to `max`.
        - int_clamp_max: Lowers every element above `max` to `max`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_clamp_max(self, scalar_for("clamp_max", self, max))
        if kind is INT:
            check_dtype("int_clamp_max", self.dtype, ("int64", "int32"))
            return int_clamp_max(self, scalar_for("clamp_max", self, max))
        raise kind_error("clamp_max", self, (FLOAT, INT))

    @plain_arm("float_square", 1)
    def square(self) -> Tensor:
        """Routes by kind:

        - float_square: Element-wise x * x.
        - int_square: Element-wise x * x.
        """
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_square's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_square(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_square", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_square(self)
        if kind is INT:
            check_dtype("int_square", self.dtype, ("int64", "int32"))
            return int_square(self)
        raise kind_error("square", self, (FLOAT, INT))

    @plain_arm("float_abs", 1)
    def abs(self) -> Tensor:
        """Routes by kind:

        - float_abs: Element-wise absolute value.
        - int_abs: Element-wise absolute value.
        """
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_abs's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_abs(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_abs", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_abs(self)
        if kind is INT:
            check_dtype("int_abs", self.dtype, ("int64", "int32"))
            return int_abs(self)
        raise kind_error("abs", self, (FLOAT, INT))

    __abs__ = abs

    @plain_arm("float_sign", 1)
    def sign(self) -> Tensor:
        """Routes by kind:

        - float_sign: Element-wise sign (-1, 0 or 1).
        - int_sign: Element-wise sign (-1, 0 or 1).
        """
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_sign's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_sign(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_sign", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_sign(self)
        if kind is INT:
            check_dtype("int_sign", self.dtype, ("int64", "int32"))
            return int_sign(self)
        raise kind_error("sign", self, (FLOAT, INT))

    @plain_arm("float_atan2", 2)
    def atan2(self, rhs: Tensor) -> Tensor:
        """Element-wise angle of the point (x=rhs, y=lhs), in (-pi, pi], broadcasting."""
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_atan2's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_atan2(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_atan2", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("atan2", self, rhs)
            return float_atan2(self, rhs)
        raise kind_error("atan2", self, (FLOAT,))

    @plain_arm("float_hypot", 2)
    def hypot(self, rhs: Tensor) -> Tensor:
        """Element-wise sqrt(lhs^2 + rhs^2) without overflow, broadcasting."""
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(rhs) is Tensor
            and rhs.kind is own
            and self.context is DISABLED
            and rhs.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: float_hypot's Disabled arm, run here
            lhs_, rhs_ = self.primitive, rhs.primitive
            if lhs_.dtype is rhs_.dtype:
                try:
                    out_ = inner.float_hypot(lhs_, rhs_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("float_hypot", "broadcast", error, lhs=self, rhs=rhs)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("hypot", self, rhs)
            return float_hypot(self, rhs)
        raise kind_error("hypot", self, (FLOAT,))

    def round_to(self, format: str, saturate: bool = False) -> Tensor:
        """Each value rounded to the nearest of an 8- or 4-bit float format (ml_dtypes' names), ties to even, from its float32 value, and kept in the tensor's dtype; saturate: beyond the format's range (infinities too) its largest value, else NaN (inf in float8_e5m2) as ml_dtypes casts. The gradient is 0."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_round_to(
                self,
                choice_arg(
                    "round_to",
                    "format",
                    format,
                    (
                        "float8_e4m3fn",
                        "float8_e4m3fnuz",
                        "float8_e5m2",
                        "float8_e5m2fnuz",
                        "float4_e2m1fn",
                    ),
                ),
                flag_arg("round_to", "saturate", saturate),
            )
        raise kind_error("round_to", self, (FLOAT,))

    def leaky_relu(self, negative_slope: float) -> Tensor:
        """Element-wise x, or x * negative_slope where x < 0."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return leaky_relu(self, real_arg("leaky_relu", "negative_slope", negative_slope))
        raise kind_error("leaky_relu", self, (FLOAT,))

    @plain_arm("prelu", 2)
    def prelu(self, alpha: Tensor) -> Tensor:
        """Element-wise x, or x * alpha where x < 0; alpha (learned) broadcasts against x."""
        own = self.kind
        inner = own.plain_inner
        if (
            inner is not None
            and type(alpha) is Tensor
            and alpha.kind is own
            and self.context is DISABLED
            and alpha.context is DISABLED
        ):
            # plain float tensors of one backend, untracked: prelu's Disabled arm, run here
            tensor_, alpha_ = self.primitive, alpha.primitive
            if tensor_.dtype is alpha_.dtype:
                try:
                    out_ = inner.prelu(tensor_, alpha_)
                except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                    check_contract("prelu", "broadcast", error, tensor=self, alpha=alpha)
                    raise
                out = new_tensor(Tensor)
                out.kind, out.primitive, out.context = own, out_, DISABLED
                return out
        kind = own.tensor_kind
        if kind is FLOAT:
            if type(alpha) is not Tensor or alpha.kind is not self.kind:
                same_kind("prelu", self, alpha)
            return prelu(self, alpha)
        raise kind_error("prelu", self, (FLOAT,))

    def hard_sigmoid(self, alpha: float, beta: float) -> Tensor:
        """Element-wise clamp(alpha * x + beta, 0, 1)."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return hard_sigmoid(
                self,
                real_arg("hard_sigmoid", "alpha", alpha),
                real_arg("hard_sigmoid", "beta", beta),
            )
        raise kind_error("hard_sigmoid", self, (FLOAT,))

    def softmax(self, dim: int) -> Tensor:
        """e^x / sum(e^x) along `dim`, shifted by the row max (stable for large inputs)."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return softmax(self, dim_of("softmax", "dim", self, dim))
        raise kind_error("softmax", self, (FLOAT,))

    def log_softmax(self, dim: int) -> Tensor:
        """log(softmax(x)) along `dim`, as x - max - log(sum(e^(x - max))) (stable)."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return log_softmax(self, dim_of("log_softmax", "dim", self, dim))
        raise kind_error("log_softmax", self, (FLOAT,))

    def softmin(self, dim: int) -> Tensor:
        """softmax(-x) along `dim`."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return softmin(self, dim_of("softmin", "dim", self, dim))
        raise kind_error("softmin", self, (FLOAT,))

    @plain_arm("float_sum", 1)
    def sum(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_sum: Sum of all elements, shape [1].
        - int_sum: Sum of all elements, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("sum", "sum_dim", None, dim, keywords)
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_sum's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_sum(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_sum", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_sum(self)
        if kind is INT:
            check_dtype("int_sum", self.dtype, ("int64", "int32"))
            return int_sum(self)
        raise kind_error("sum", self, (FLOAT, INT))

    def sum_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_sum_dim: Sum along `dim`, keeping it with size 1.
        - int_sum_dim: Sum along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_sum_dim(self, dim_of("sum_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_sum_dim", self.dtype, ("int64", "int32"))
            return int_sum_dim(self, dim_of("sum_dim", "dim", self, dim))
        raise kind_error("sum_dim", self, (FLOAT, INT))

    @plain_arm("float_mean", 1)
    def mean(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_mean: Mean of all elements, shape [1].
        - int_mean: Mean of all elements, truncated toward zero, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("mean", "mean_dim", None, dim, keywords)
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_mean's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_mean(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_mean", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_mean(self)
        if kind is INT:
            check_dtype("int_mean", self.dtype, ("int64", "int32"))
            return int_mean(self)
        raise kind_error("mean", self, (FLOAT, INT))

    def mean_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_mean_dim: Mean along `dim`, keeping it with size 1.
        - int_mean_dim: Mean along `dim`, truncated toward zero, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_mean_dim(self, dim_of("mean_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_mean_dim", self.dtype, ("int64", "int32"))
            return int_mean_dim(self, dim_of("mean_dim", "dim", self, dim))
        raise kind_error("mean_dim", self, (FLOAT, INT))

    @plain_arm("float_prod", 1)
    def prod(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_prod: Product of all elements, shape [1].
        - int_prod: Product of all elements, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("prod", "prod_dim", None, dim, keywords)
        own = self.kind
        inner = own.plain_inner
        if inner is not None and self.context is DISABLED:
            # a plain float tensor, untracked: float_prod's Disabled arm, run here
            tensor_ = self.primitive
            try:
                out_ = inner.float_prod(tensor_)
            except (ValueError, RuntimeError, IndexError, MemoryError) as error:
                check_contract("float_prod", None, error, tensor=self)
                raise
            out = new_tensor(Tensor)
            out.kind, out.primitive, out.context = own, out_, DISABLED
            return out
        kind = own.tensor_kind
        if kind is FLOAT:
            return float_prod(self)
        if kind is INT:
            check_dtype("int_prod", self.dtype, ("int64", "int32"))
            return int_prod(self)
        raise kind_error("prod", self, (FLOAT, INT))

    def prod_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_prod_dim: Product along `dim`, keeping it with size 1 (its gradient is exact at zeros).
        - int_prod_dim: Product along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_prod_dim(self, dim_of("prod_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_prod_dim", self.dtype, ("int64", "int32"))
            return int_prod_dim(self, dim_of("prod_dim", "dim", self, dim))
        raise kind_error("prod_dim", self, (FLOAT, INT))

    def max(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_max: Largest element, shape [1] (NaN if any is NaN).
        - int_max: Largest element, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("max", "max_dim", "max_dim_with_indices", dim, keywords)
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_max(self)
        if kind is INT:
            check_dtype("int_max", self.dtype, ("int64", "int32"))
            return int_max(self)
        raise kind_error("max", self, (FLOAT, INT))

    def max_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_max_dim: Largest element along `dim`, keeping it with size 1.
        - int_max_dim: Largest element along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_max_dim(self, dim_of("max_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_max_dim", self.dtype, ("int64", "int32"))
            return int_max_dim(self, dim_of("max_dim", "dim", self, dim))
        raise kind_error("max_dim", self, (FLOAT, INT))

    def max_dim_with_indices(self, dim: int) -> tuple[Tensor, Tensor]:
        """Routes by kind:

        - float_max_dim_with_indices: (largest element, its index) along `dim`, keeping it; ties go to the lowest index.
        - int_max_dim_with_indices: (largest element, its index) along `dim`, keeping it; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_max_dim_with_indices(
                self, dim_of("max_dim_with_indices", "dim", self, dim)
            )
        if kind is INT:
            check_dtype("int_max_dim_with_indices", self.dtype, ("int64", "int32"))
            return int_max_dim_with_indices(self, dim_of("max_dim_with_indices", "dim", self, dim))
        raise kind_error("max_dim_with_indices", self, (FLOAT, INT))

    def min(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_min: Smallest element, shape [1] (NaN if any is NaN).
        - int_min: Smallest element, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("min", "min_dim", "min_dim_with_indices", dim, keywords)
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_min(self)
        if kind is INT:
            check_dtype("int_min", self.dtype, ("int64", "int32"))
            return int_min(self)
        raise kind_error("min", self, (FLOAT, INT))

    def min_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_min_dim: Smallest element along `dim`, keeping it with size 1.
        - int_min_dim: Smallest element along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_min_dim(self, dim_of("min_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_min_dim", self.dtype, ("int64", "int32"))
            return int_min_dim(self, dim_of("min_dim", "dim", self, dim))
        raise kind_error("min_dim", self, (FLOAT, INT))

    def min_dim_with_indices(self, dim: int) -> tuple[Tensor, Tensor]:
        """Routes by kind:

        - float_min_dim_with_indices: (smallest element, its index) along `dim`, keeping it; ties go to the lowest index.
        - int_min_dim_with_indices: (smallest element, its index) along `dim`, keeping it; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_min_dim_with_indices(
                self, dim_of("min_dim_with_indices", "dim", self, dim)
            )
        if kind is INT:
            check_dtype("int_min_dim_with_indices", self.dtype, ("int64", "int32"))
            return int_min_dim_with_indices(self, dim_of("min_dim_with_indices", "dim", self, dim))
        raise kind_error("min_dim_with_indices", self, (FLOAT, INT))

    def max_abs(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_max_abs: Largest absolute value, shape [1].
        - int_max_abs: Largest absolute value, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("max_abs", "max_abs_dim", None, dim, keywords)
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_max_abs(self)
        if kind is INT:
            check_dtype("int_max_abs", self.dtype, ("int64", "int32"))
            return int_max_abs(self)
        raise kind_error("max_abs", self, (FLOAT, INT))

    def max_abs_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_max_abs_dim: Largest absolute value along `dim`, keeping it with size 1.
        - int_max_abs_dim: Largest absolute value along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_max_abs_dim(self, dim_of("max_abs_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_max_abs_dim", self.dtype, ("int64", "int32"))
            return int_max_abs_dim(self, dim_of("max_abs_dim", "dim", self, dim))
        raise kind_error("max_abs_dim", self, (FLOAT, INT))

    def argmax(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_argmax: Index (int64) of the largest element along `dim`, kept; ties go to the lowest index.
        - int_argmax: Index (int64) of the largest element along `dim`, kept; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_argmax(self, dim_of("argmax", "dim", self, dim))
        if kind is INT:
            check_dtype("int_argmax", self.dtype, ("int64", "int32"))
            return int_argmax(self, dim_of("argmax", "dim", self, dim))
        raise kind_error("argmax", self, (FLOAT, INT))

    def argmin(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_argmin: Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index.
        - int_argmin: Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_argmin(self, dim_of("argmin", "dim", self, dim))
        if kind is INT:
            check_dtype("int_argmin", self.dtype, ("int64", "int32"))
            return int_argmin(self, dim_of("argmin", "dim", self, dim))
        raise kind_error("argmin", self, (FLOAT, INT))

    def any(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_any: Whether any element is non-zero, shape [1].
        - int_any: Whether any element is non-zero, shape [1].
        - bool_any: Whether any element is true, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("any", "any_dim", None, dim, keywords)
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_any(self)
        if kind is INT:
            check_dtype("int_any", self.dtype, ("int64", "int32"))
            return int_any(self)
        if kind is BOOL:
            return bool_any(self)
        raise kind_error("any", self, (FLOAT, INT, BOOL))

    def any_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_any_dim: Whether any element is non-zero along `dim`, keeping it with size 1.
        - int_any_dim: Whether any element is non-zero along `dim`, keeping it with size 1.
        - bool_any_dim: Whether any element is true along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_any_dim(self, dim_of("any_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_any_dim", self.dtype, ("int64", "int32"))
            return int_any_dim(self, dim_of("any_dim", "dim", self, dim))
        if kind is BOOL:
            return bool_any_dim(self, dim_of("any_dim", "dim", self, dim))
        raise kind_error("any_dim", self, (FLOAT, INT, BOOL))

    def all(self, *dim: int, **keywords: int) -> Tensor:
        """Routes by kind:

        - float_all: Whether every element is non-zero, shape [1].
        - int_all: Whether every element is non-zero, shape [1].
        - bool_all: Whether every element is true, shape [1].
        """
        if dim or keywords:
            raise given_a_dim("all", "all_dim", None, dim, keywords)
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_all(self)
        if kind is INT:
            check_dtype("int_all", self.dtype, ("int64", "int32"))
            return int_all(self)
        if kind is BOOL:
            return bool_all(self)
        raise kind_error("all", self, (FLOAT, INT, BOOL))

    def all_dim(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_all_dim: Whether every element is non-zero along `dim`, keeping it with size 1.
        - int_all_dim: Whether every element is non-zero along `dim`, keeping it with size 1.
        - bool_all_dim: Whether every element is true along `dim`, keeping it with size 1.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_all_dim(self, dim_of("all_dim", "dim", self, dim))
        if kind is INT:
            check_dtype("int_all_dim", self.dtype, ("int64", "int32"))
            return int_all_dim(self, dim_of("all_dim", "dim", self, dim))
        if kind is BOOL:
            return bool_all_dim(self, dim_of("all_dim", "dim", self, dim))
        raise kind_error("all_dim", self, (FLOAT, INT, BOOL))

    def cumsum(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_cumsum: Running sum along `dim`.
        - int_cumsum: Running sum along `dim`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_cumsum(self, dim_of("cumsum", "dim", self, dim))
        if kind is INT:
            check_dtype("int_cumsum", self.dtype, ("int64", "int32"))
            return int_cumsum(self, dim_of("cumsum", "dim", self, dim))
        raise kind_error("cumsum", self, (FLOAT, INT))

    def cumprod(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_cumprod: Running product along `dim` (its gradient is exact at zeros).
        - int_cumprod: Running product along `dim`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_cumprod(self, dim_of("cumprod", "dim", self, dim))
        if kind is INT:
            check_dtype("int_cumprod", self.dtype, ("int64", "int32"))
            return int_cumprod(self, dim_of("cumprod", "dim", self, dim))
        raise kind_error("cumprod", self, (FLOAT, INT))

    def cummin(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_cummin: Running minimum along `dim`.
        - int_cummin: Running minimum along `dim`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_cummin(self, dim_of("cummin", "dim", self, dim))
        if kind is INT:
            check_dtype("int_cummin", self.dtype, ("int64", "int32"))
            return int_cummin(self, dim_of("cummin", "dim", self, dim))
        raise kind_error("cummin", self, (FLOAT, INT))

    def cummax(self, dim: int) -> Tensor:
        """Routes by kind:

        - float_cummax: Running maximum along `dim`.
        - int_cummax: Running maximum along `dim`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_cummax(self, dim_of("cummax", "dim", self, dim))
        if kind is INT:
            check_dtype("int_cummax", self.dtype, ("int64", "int32"))
            return int_cummax(self, dim_of("cummax", "dim", self, dim))
        raise kind_error("cummax", self, (FLOAT, INT))

    def sort(self, dim: int, descending: bool = False) -> Tensor:
        """Routes by kind:

        - float_sort: The elements sorted along `dim` (stable; NaN last, or first when descending).
        - int_sort: The elements sorted along `dim`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_sort(
                self, dim_of("sort", "dim", self, dim), flag_arg("sort", "descending", descending)
            )
        if kind is INT:
            check_dtype("int_sort", self.dtype, ("int64", "int32"))
            return int_sort(
                self, dim_of("sort", "dim", self, dim), flag_arg("sort", "descending", descending)
            )
        raise kind_error("sort", self, (FLOAT, INT))

    def sort_with_indices(self, dim: int, descending: bool = False) -> tuple[Tensor, Tensor]:
        """Routes by kind:

        - float_sort_with_indices: (sorted elements, their indices) along `dim`; equal elements keep their order.
        - int_sort_with_indices: (sorted elements, their indices) along `dim`; equal elements keep their order.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_sort_with_indices(
                self,
                dim_of("sort_with_indices", "dim", self, dim),
                flag_arg("sort_with_indices", "descending", descending),
            )
        if kind is INT:
            check_dtype("int_sort_with_indices", self.dtype, ("int64", "int32"))
            return int_sort_with_indices(
                self,
                dim_of("sort_with_indices", "dim", self, dim),
                flag_arg("sort_with_indices", "descending", descending),
            )
        raise kind_error("sort_with_indices", self, (FLOAT, INT))

    def argsort(self, dim: int, descending: bool = False) -> Tensor:
        """Routes by kind:

        - float_argsort: The indices (int64) that sort along `dim`; equal elements keep their order.
        - int_argsort: The indices (int64) that sort along `dim`; equal elements keep their order.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_argsort(
                self,
                dim_of("argsort", "dim", self, dim),
                flag_arg("argsort", "descending", descending),
            )
        if kind is INT:
            check_dtype("int_argsort", self.dtype, ("int64", "int32"))
            return int_argsort(
                self,
                dim_of("argsort", "dim", self, dim),
                flag_arg("argsort", "descending", descending),
            )
        raise kind_error("argsort", self, (FLOAT, INT))

    def topk(self, k: int, dim: int) -> Tensor:
        """Routes by kind:

        - float_topk: The k largest elements along `dim`, largest first (burn-tensor's argument order).
        - int_topk: The k largest elements along `dim`, largest first (burn-tensor's argument order).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_topk(self, integer_arg("topk", "k", k), dim_of("topk", "dim", self, dim))
        if kind is INT:
            check_dtype("int_topk", self.dtype, ("int64", "int32"))
            return int_topk(self, integer_arg("topk", "k", k), dim_of("topk", "dim", self, dim))
        raise kind_error("topk", self, (FLOAT, INT))

    def topk_with_indices(self, k: int, dim: int) -> tuple[Tensor, Tensor]:
        """Routes by kind:

        - float_topk_with_indices: (the k largest elements, their indices) along `dim`; ties go to the lowest index.
        - int_topk_with_indices: (the k largest elements, their indices) along `dim`; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_topk_with_indices(
                self,
                integer_arg("topk_with_indices", "k", k),
                dim_of("topk_with_indices", "dim", self, dim),
            )
        if kind is INT:
            check_dtype("int_topk_with_indices", self.dtype, ("int64", "int32"))
            return int_topk_with_indices(
                self,
                integer_arg("topk_with_indices", "k", k),
                dim_of("topk_with_indices", "dim", self, dim),
            )
        raise kind_error("topk_with_indices", self, (FLOAT, INT))

    def argtopk(self, k: int, dim: int) -> Tensor:
        """Routes by kind:

        - float_argtopk: The indices (int64) of the k largest elements along `dim`; ties go to the lowest index.
        - int_argtopk: The indices (int64) of the k largest elements along `dim`; ties go to the lowest index.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_argtopk(
                self, integer_arg("argtopk", "k", k), dim_of("argtopk", "dim", self, dim)
            )
        if kind is INT:
            check_dtype("int_argtopk", self.dtype, ("int64", "int32"))
            return int_argtopk(
                self, integer_arg("argtopk", "k", k), dim_of("argtopk", "dim", self, dim)
            )
        raise kind_error("argtopk", self, (FLOAT, INT))

    def reshape(self, shape: Sequence[int] | int) -> Tensor:
        """Routes by kind:

        - float_reshape: The same elements in a new shape (-1 infers one dim).
        - int_reshape: The same elements in a new shape (-1 infers one dim).
        - bool_reshape: The same elements in a new shape (-1 infers one dim).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_reshape(self, view_shape_of("reshape", "shape", self, shape))
        if kind is INT:
            return int_reshape(self, view_shape_of("reshape", "shape", self, shape))
        if kind is BOOL:
            return bool_reshape(self, view_shape_of("reshape", "shape", self, shape))
        raise kind_error("reshape", self, (FLOAT, INT, BOOL))

    def swap_dims(self, dim1: int, dim2: int) -> Tensor:
        """Routes by kind:

        - float_swap_dims: Swaps two dims.
        - int_swap_dims: Swaps two dims.
        - bool_swap_dims: Swaps two dims.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_swap_dims(
                self,
                dim_of("swap_dims", "dim1", self, dim1),
                dim_of("swap_dims", "dim2", self, dim2),
            )
        if kind is INT:
            check_dtype("int_swap_dims", self.dtype, ("int64", "int32"))
            return int_swap_dims(
                self,
                dim_of("swap_dims", "dim1", self, dim1),
                dim_of("swap_dims", "dim2", self, dim2),
            )
        if kind is BOOL:
            return bool_swap_dims(
                self,
                dim_of("swap_dims", "dim1", self, dim1),
                dim_of("swap_dims", "dim2", self, dim2),
            )
        raise kind_error("swap_dims", self, (FLOAT, INT, BOOL))

    def transpose(self) -> Tensor:
        """Routes by kind:

        - float_transpose: Swaps the last two dims.
        - int_transpose: Swaps the last two dims.
        - bool_transpose: Swaps the last two dims.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_transpose(self)
        if kind is INT:
            check_dtype("int_transpose", self.dtype, ("int64", "int32"))
            return int_transpose(self)
        if kind is BOOL:
            return bool_transpose(self)
        raise kind_error("transpose", self, (FLOAT, INT, BOOL))

    def permute(self, axes: Sequence[int]) -> Tensor:
        """Routes by kind:

        - float_permute: Reorders the dims; dim i of the result is dim axes[i] of the tensor.
        - int_permute: Reorders the dims; dim i of the result is dim axes[i] of the tensor.
        - bool_permute: Reorders the dims; dim i of the result is dim axes[i] of the tensor.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_permute(self, dims_of("permute", "axes", self, axes))
        if kind is INT:
            check_dtype("int_permute", self.dtype, ("int64", "int32"))
            return int_permute(self, dims_of("permute", "axes", self, axes))
        if kind is BOOL:
            return bool_permute(self, dims_of("permute", "axes", self, axes))
        raise kind_error("permute", self, (FLOAT, INT, BOOL))

    def flip(self, axes: Sequence[int]) -> Tensor:
        """Routes by kind:

        - float_flip: Reverses the order of the elements along each of `axes`.
        - int_flip: Reverses the order of the elements along each of `axes`.
        - bool_flip: Reverses the order of the elements along each of `axes`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_flip(self, dims_of("flip", "axes", self, axes))
        if kind is INT:
            check_dtype("int_flip", self.dtype, ("int64", "int32"))
            return int_flip(self, dims_of("flip", "axes", self, axes))
        if kind is BOOL:
            return bool_flip(self, dims_of("flip", "axes", self, axes))
        raise kind_error("flip", self, (FLOAT, INT, BOOL))

    def expand(self, shape: Sequence[int] | int) -> Tensor:
        """Routes by kind:

        - float_expand: Broadcasts to `shape` (size-1 dims stretch; new dims go in front).
        - int_expand: Broadcasts to `shape` (size-1 dims stretch; new dims go in front).
        - bool_expand: Broadcasts to `shape` (size-1 dims stretch; new dims go in front).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_expand(self, shape_of("expand", "shape", shape))
        if kind is INT:
            check_dtype("int_expand", self.dtype, ("int64", "int32"))
            return int_expand(self, shape_of("expand", "shape", shape))
        if kind is BOOL:
            return bool_expand(self, shape_of("expand", "shape", shape))
        raise kind_error("expand", self, (FLOAT, INT, BOOL))

    def repeat_dim(self, dim: int, times: int) -> Tensor:
        """Routes by kind:

        - float_repeat_dim: The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).
        - int_repeat_dim: The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).
        - bool_repeat_dim: The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_repeat_dim(
                self,
                dim_of("repeat_dim", "dim", self, dim),
                integer_arg("repeat_dim", "times", times),
            )
        if kind is INT:
            check_dtype("int_repeat_dim", self.dtype, ("int64", "int32"))
            return int_repeat_dim(
                self,
                dim_of("repeat_dim", "dim", self, dim),
                integer_arg("repeat_dim", "times", times),
            )
        if kind is BOOL:
            return bool_repeat_dim(
                self,
                dim_of("repeat_dim", "dim", self, dim),
                integer_arg("repeat_dim", "times", times),
            )
        raise kind_error("repeat_dim", self, (FLOAT, INT, BOOL))

    def slice(self, slices: Sequence[object] | object) -> Tensor:
        """Routes by kind:

        - float_slice: The elements in `slices`, one per leading dim (ints keep their dim with size 1).
        - int_slice: The elements in `slices`, one per leading dim (ints keep their dim with size 1).
        - bool_slice: The elements in `slices`, one per leading dim (ints keep their dim with size 1).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_slice(self, slices_arg("slice", self, slices))
        if kind is INT:
            check_dtype("int_slice", self.dtype, ("int64", "int32"))
            return int_slice(self, slices_arg("slice", self, slices))
        if kind is BOOL:
            return bool_slice(self, slices_arg("slice", self, slices))
        raise kind_error("slice", self, (FLOAT, INT, BOOL))

    def slice_assign(self, slices: Sequence[object] | object, value: Tensor) -> Tensor:
        """Routes by kind:

        - float_slice_assign: A copy of the tensor with the elements in `slices` replaced by `value`.
        - int_slice_assign: A copy of the tensor with the elements in `slices` replaced by `value`.
        - bool_slice_assign: A copy of the tensor with the elements in `slices` replaced by `value`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("slice_assign", self, value)
            return float_slice_assign(self, slices_arg("slice_assign", self, slices), value)
        if kind is INT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("slice_assign", self, value)
            check_dtype("int_slice_assign", self.dtype, ("int64", "int32"))
            return int_slice_assign(self, slices_arg("slice_assign", self, slices), value)
        if kind is BOOL:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("slice_assign", self, value)
            return bool_slice_assign(self, slices_arg("slice_assign", self, slices), value)
        raise kind_error("slice_assign", self, (FLOAT, INT, BOOL))

    @classmethod
    def cat(cls, tensors: Sequence[Tensor], dim: int) -> Tensor:
        """Routes by kind:

        - float_cat: The tensors joined along dim (every other dim must match).
        - int_cat: The tensors joined along dim (every other dim must match).
        - bool_cat: The tensors joined along dim (every other dim must match).
        """
        tensors = tensors_of("cat", "tensors", tensors)
        kind = tensors[0].kind.tensor_kind
        if kind is FLOAT:
            return float_cat(tensors, dim_of("cat", "dim", tensors[0], dim))
        if kind is INT:
            return int_cat(tensors, dim_of("cat", "dim", tensors[0], dim))
        if kind is BOOL:
            return bool_cat(tensors, dim_of("cat", "dim", tensors[0], dim))
        raise kind_error("cat", tensors[0], (FLOAT, INT, BOOL))

    def unfold(self, dim: int, size: int, step: int) -> Tensor:
        """Routes by kind:

        - float_unfold: Windows of `size` every `step` along dim, as [pre, windows, post, size].
        - int_unfold: Windows of `size` every `step` along dim, as [pre, windows, post, size].
        - bool_unfold: Windows of `size` every `step` along dim, as [pre, windows, post, size].
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_unfold(
                self,
                dim_of("unfold", "dim", self, dim),
                integer_arg("unfold", "size", size),
                integer_arg("unfold", "step", step),
            )
        if kind is INT:
            check_dtype("int_unfold", self.dtype, ("int64", "int32"))
            return int_unfold(
                self,
                dim_of("unfold", "dim", self, dim),
                integer_arg("unfold", "size", size),
                integer_arg("unfold", "step", step),
            )
        if kind is BOOL:
            return bool_unfold(
                self,
                dim_of("unfold", "dim", self, dim),
                integer_arg("unfold", "size", size),
                integer_arg("unfold", "step", step),
            )
        raise kind_error("unfold", self, (FLOAT, INT, BOOL))

    def cast(self, dtype: DTypeLike | None = None) -> Tensor:
        """Routes by kind:

        - float_cast: The tensor in another float dtype (the gradient is cast back).
        - int_cast: The tensor in another int dtype.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_cast(self, dtype_arg(dtype, FLOAT))
        if kind is INT:
            return int_cast(self, dtype_arg(dtype, INT))
        raise kind_error("cast", self, (FLOAT, INT))

    def gather(self, dim: int, indices: Tensor) -> Tensor:
        """Routes by kind:

        - float_gather: Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).
        - int_gather: Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).
        - bool_gather: Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            expect_kind("gather", indices, INT)
            return float_gather(dim_of("gather", "dim", self, dim), self, indices)
        if kind is INT:
            expect_kind("gather", indices, INT)
            check_dtype("int_gather", self.dtype, ("int64", "int32"))
            return int_gather(dim_of("gather", "dim", self, dim), self, indices)
        if kind is BOOL:
            expect_kind("gather", indices, INT)
            return bool_gather(dim_of("gather", "dim", self, dim), self, indices)
        raise kind_error("gather", self, (FLOAT, INT, BOOL))

    def scatter(
        self, dim: int, indices: Tensor, value: Tensor, update: IndexingUpdateOp | str
    ) -> Tensor:
        """Routes by kind:

        - float_scatter: A copy with tensor at `indices` along dim (update)= value (update assign or add).
        - int_scatter: A copy with tensor at `indices` along dim (update)= value (update assign or add).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("scatter", self, value)
            expect_kind("scatter", indices, INT)
            return float_scatter(
                dim_of("scatter", "dim", self, dim), self, indices, value, update_arg(update)
            )
        if kind is INT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("scatter", self, value)
            expect_kind("scatter", indices, INT)
            check_dtype("int_scatter", self.dtype, ("int64", "int32"))
            return int_scatter(
                dim_of("scatter", "dim", self, dim), self, indices, value, update_arg(update)
            )
        raise kind_error("scatter", self, (FLOAT, INT))

    def select(self, dim: int, indices: Tensor) -> Tensor:
        """Routes by kind:

        - float_select: The slices of dim at the 1-D `indices`, in their order (repeats allowed).
        - int_select: The slices of dim at the 1-D `indices`, in their order (repeats allowed).
        - bool_select: The slices of dim at the 1-D `indices`, in their order (repeats allowed).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            expect_kind("select", indices, INT)
            return float_select(self, dim_of("select", "dim", self, dim), indices)
        if kind is INT:
            expect_kind("select", indices, INT)
            check_dtype("int_select", self.dtype, ("int64", "int32"))
            return int_select(self, dim_of("select", "dim", self, dim), indices)
        if kind is BOOL:
            expect_kind("select", indices, INT)
            return bool_select(self, dim_of("select", "dim", self, dim), indices)
        raise kind_error("select", self, (FLOAT, INT, BOOL))

    def select_assign(
        self, dim: int, indices: Tensor, value: Tensor, update: IndexingUpdateOp | str
    ) -> Tensor:
        """Routes by kind:

        - float_select_assign: A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add).
        - int_select_assign: A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("select_assign", self, value)
            expect_kind("select_assign", indices, INT)
            return float_select_assign(
                self, dim_of("select_assign", "dim", self, dim), indices, value, update_arg(update)
            )
        if kind is INT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("select_assign", self, value)
            expect_kind("select_assign", indices, INT)
            check_dtype("int_select_assign", self.dtype, ("int64", "int32"))
            return int_select_assign(
                self, dim_of("select_assign", "dim", self, dim), indices, value, update_arg(update)
            )
        raise kind_error("select_assign", self, (FLOAT, INT))

    def mask_where(self, mask: Tensor, value: Tensor) -> Tensor:
        """Routes by kind:

        - float_mask_where: value where mask is true, else tensor (all three broadcast).
        - int_mask_where: value where mask is true, else tensor (all three broadcast).
        - bool_mask_where: value where mask is true, else tensor (all three broadcast).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("mask_where", self, value)
            expect_kind("mask_where", mask, BOOL)
            return float_mask_where(self, mask, value)
        if kind is INT:
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("mask_where", self, value)
            expect_kind("mask_where", mask, BOOL)
            check_dtype("int_mask_where", self.dtype, ("int64", "int32"))
            return int_mask_where(self, mask, value)
        if kind is BOOL:
            if type(mask) is not Tensor or mask.kind is not self.kind:
                same_kind("mask_where", self, mask)
            if type(value) is not Tensor or value.kind is not self.kind:
                same_kind("mask_where", self, value)
            return bool_mask_where(self, mask, value)
        raise kind_error("mask_where", self, (FLOAT, INT, BOOL))

    def mask_fill(self, mask: Tensor, value: float) -> Tensor:
        """Routes by kind:

        - float_mask_fill: value where mask is true, else tensor (the mask broadcasts).
        - int_mask_fill: value where mask is true, else tensor (the mask broadcasts).
        - bool_mask_fill: value where mask is true, else tensor (the mask broadcasts).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            expect_kind("mask_fill", mask, BOOL)
            return float_mask_fill(self, mask, scalar_for("mask_fill", self, value))
        if kind is INT:
            expect_kind("mask_fill", mask, BOOL)
            check_dtype("int_mask_fill", self.dtype, ("int64", "int32"))
            return int_mask_fill(self, mask, scalar_for("mask_fill", self, value))
        if kind is BOOL:
            if type(mask) is not Tensor or mask.kind is not self.kind:
                same_kind("mask_fill", self, mask)
            return bool_mask_fill(self, mask, scalar_for("mask_fill", self, value))
        raise kind_error("mask_fill", self, (FLOAT, INT, BOOL))

    def mask_select(self, mask: Tensor) -> Tensor:
        """Routes by kind:

        - float_mask_select: The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).
        - int_mask_select: The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).
        - bool_mask_select: The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            expect_kind("mask_select", mask, BOOL)
            return float_mask_select(self, mask)
        if kind is INT:
            expect_kind("mask_select", mask, BOOL)
            check_dtype("int_mask_select", self.dtype, ("int64", "int32"))
            return int_mask_select(self, mask)
        if kind is BOOL:
            if type(mask) is not Tensor or mask.kind is not self.kind:
                same_kind("mask_select", self, mask)
            return bool_mask_select(self, mask)
        raise kind_error("mask_select", self, (FLOAT, INT, BOOL))

    def gather_nd(self, indices: Tensor) -> Tensor:
        """Routes by kind:

        - float_gather_nd: The slices of data at n-d indices (the last dim of indices indexes data's first dims).
        - int_gather_nd: The slices of data at n-d indices (the last dim of indices indexes data's first dims).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            expect_kind("gather_nd", indices, INT)
            return float_gather_nd(self, indices)
        if kind is INT:
            expect_kind("gather_nd", indices, INT)
            check_dtype("int_gather_nd", self.dtype, ("int64", "int32"))
            return int_gather_nd(self, indices)
        raise kind_error("gather_nd", self, (FLOAT, INT))

    def scatter_nd(
        self, indices: Tensor, values: Tensor, reduction: IndexingUpdateOp | str
    ) -> Tensor:
        """Routes by kind:

        - float_scatter_nd: A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add).
        - int_scatter_nd: A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add).
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(values) is not Tensor or values.kind is not self.kind:
                same_kind("scatter_nd", self, values)
            expect_kind("scatter_nd", indices, INT)
            return float_scatter_nd(self, indices, values, update_arg(reduction))
        if kind is INT:
            if type(values) is not Tensor or values.kind is not self.kind:
                same_kind("scatter_nd", self, values)
            expect_kind("scatter_nd", indices, INT)
            check_dtype("int_scatter_nd", self.dtype, ("int64", "int32"))
            return int_scatter_nd(self, indices, values, update_arg(reduction))
        raise kind_error("scatter_nd", self, (FLOAT, INT))

    def argwhere(self, dtype: DTypeLike | None = None) -> Tensor:
        """The indices of the true elements, one row each, shape [count, rank]."""
        kind = self.kind.tensor_kind
        if kind is BOOL:
            return bool_argwhere(self, dtype_arg(dtype, INT))
        raise kind_error("argwhere", self, (BOOL,))

    def grid_sample_2d(
        self,
        grid: Tensor,
        *,
        mode: str = "bilinear",
        padding_mode: str = "zeros",
        align_corners: bool = False,
    ) -> Tensor:
        """Samples [n, c, h, w] at grid [n, h', w', 2] (x, y in [-1, 1]) by mode, outside points by padding_mode (bicubic: not supported, as burn's backends)."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(grid) is not Tensor or grid.kind is not self.kind:
                same_kind("grid_sample_2d", self, grid)
            check_dtype("float_grid_sample_2d", self.dtype, ("float32", "float64"))
            return float_grid_sample_2d(
                self,
                grid,
                choice_arg("grid_sample_2d", "mode", mode, ("nearest", "bilinear", "bicubic")),
                choice_arg(
                    "grid_sample_2d",
                    "padding_mode",
                    padding_mode,
                    ("zeros", "border", "reflection"),
                ),
                flag_arg("grid_sample_2d", "align_corners", align_corners),
            )
        raise kind_error("grid_sample_2d", self, (FLOAT,))

    def equal(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_equal: Element-wise lhs == rhs.
        - int_equal: Element-wise lhs == rhs.
        - bool_equal: Element-wise lhs == rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("equal", self, rhs)
            return float_equal(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("equal", self, rhs)
            check_dtype("int_equal", self.dtype, ("int64", "int32"))
            return int_equal(self, rhs)
        if kind is BOOL:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("equal", self, rhs)
            return bool_equal(self, rhs)
        raise kind_error("equal", self, (FLOAT, INT, BOOL))

    def equal_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_equal_elem: Element-wise lhs == scalar.
        - int_equal_elem: Element-wise lhs == scalar.
        - bool_equal_elem: Element-wise lhs == a bool.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_equal_elem(self, scalar_for("equal_elem", self, rhs))
        if kind is INT:
            check_dtype("int_equal_elem", self.dtype, ("int64", "int32"))
            return int_equal_elem(self, scalar_for("equal_elem", self, rhs))
        if kind is BOOL:
            return bool_equal_elem(self, scalar_for("equal_elem", self, rhs))
        raise kind_error("equal_elem", self, (FLOAT, INT, BOOL))

    def not_equal_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_not_equal_elem: Element-wise lhs != scalar.
        - int_not_equal_elem: Element-wise lhs != scalar.
        - bool_not_equal_elem: Element-wise lhs != a bool.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_not_equal_elem(self, scalar_for("not_equal_elem", self, rhs))
        if kind is INT:
            check_dtype("int_not_equal_elem", self.dtype, ("int64", "int32"))
            return int_not_equal_elem(self, scalar_for("not_equal_elem", self, rhs))
        if kind is BOOL:
            return bool_not_equal_elem(self, scalar_for("not_equal_elem", self, rhs))
        raise kind_error("not_equal_elem", self, (FLOAT, INT, BOOL))

    def greater(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_greater: Element-wise lhs > rhs.
        - int_greater: Element-wise lhs > rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("greater", self, rhs)
            return float_greater(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("greater", self, rhs)
            check_dtype("int_greater", self.dtype, ("int64", "int32"))
            return int_greater(self, rhs)
        raise kind_error("greater", self, (FLOAT, INT))

    def greater_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_greater_elem: Element-wise lhs > scalar.
        - int_greater_elem: Element-wise lhs > scalar.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_greater_elem(self, scalar_for("greater_elem", self, rhs))
        if kind is INT:
            check_dtype("int_greater_elem", self.dtype, ("int64", "int32"))
            return int_greater_elem(self, scalar_for("greater_elem", self, rhs))
        raise kind_error("greater_elem", self, (FLOAT, INT))

    def lower(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_lower: Element-wise lhs < rhs.
        - int_lower: Element-wise lhs < rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("lower", self, rhs)
            return float_lower(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("lower", self, rhs)
            check_dtype("int_lower", self.dtype, ("int64", "int32"))
            return int_lower(self, rhs)
        raise kind_error("lower", self, (FLOAT, INT))

    def lower_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_lower_elem: Element-wise lhs < scalar.
        - int_lower_elem: Element-wise lhs < scalar.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_lower_elem(self, scalar_for("lower_elem", self, rhs))
        if kind is INT:
            check_dtype("int_lower_elem", self.dtype, ("int64", "int32"))
            return int_lower_elem(self, scalar_for("lower_elem", self, rhs))
        raise kind_error("lower_elem", self, (FLOAT, INT))

    def not_equal(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_not_equal: Element-wise lhs != rhs.
        - int_not_equal: Element-wise lhs != rhs.
        - bool_not_equal: Element-wise lhs != rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("not_equal", self, rhs)
            return float_not_equal(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("not_equal", self, rhs)
            check_dtype("int_not_equal", self.dtype, ("int64", "int32"))
            return int_not_equal(self, rhs)
        if kind is BOOL:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("not_equal", self, rhs)
            return bool_not_equal(self, rhs)
        raise kind_error("not_equal", self, (FLOAT, INT, BOOL))

    def greater_equal(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_greater_equal: Element-wise lhs >= rhs.
        - int_greater_equal: Element-wise lhs >= rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("greater_equal", self, rhs)
            return float_greater_equal(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("greater_equal", self, rhs)
            check_dtype("int_greater_equal", self.dtype, ("int64", "int32"))
            return int_greater_equal(self, rhs)
        raise kind_error("greater_equal", self, (FLOAT, INT))

    def greater_equal_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_greater_equal_elem: Element-wise lhs >= scalar.
        - int_greater_equal_elem: Element-wise lhs >= scalar.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_greater_equal_elem(self, scalar_for("greater_equal_elem", self, rhs))
        if kind is INT:
            check_dtype("int_greater_equal_elem", self.dtype, ("int64", "int32"))
            return int_greater_equal_elem(self, scalar_for("greater_equal_elem", self, rhs))
        raise kind_error("greater_equal_elem", self, (FLOAT, INT))

    def lower_equal(self, rhs: Tensor) -> Tensor:
        """Routes by kind:

        - float_lower_equal: Element-wise lhs <= rhs.
        - int_lower_equal: Element-wise lhs <= rhs.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("lower_equal", self, rhs)
            return float_lower_equal(self, rhs)
        if kind is INT:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("lower_equal", self, rhs)
            check_dtype("int_lower_equal", self.dtype, ("int64", "int32"))
            return int_lower_equal(self, rhs)
        raise kind_error("lower_equal", self, (FLOAT, INT))

    def lower_equal_elem(self, rhs: float) -> Tensor:
        """Routes by kind:

        - float_lower_equal_elem: Element-wise lhs <= scalar.
        - int_lower_equal_elem: Element-wise lhs <= scalar.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_lower_equal_elem(self, scalar_for("lower_equal_elem", self, rhs))
        if kind is INT:
            check_dtype("int_lower_equal_elem", self.dtype, ("int64", "int32"))
            return int_lower_equal_elem(self, scalar_for("lower_equal_elem", self, rhs))
        raise kind_error("lower_equal_elem", self, (FLOAT, INT))

    def bitwise_and(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - bitwise_and: Element-wise bitwise and, broadcasting.
        - bitwise_and_scalar: Bitwise and of every element with an int.
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("bitwise_and", self, rhs)
                check_dtype("bitwise_and", self.dtype, ("int64", "int32"))
                return bitwise_and(self, rhs)
        else:
            if kind is INT:
                check_dtype("bitwise_and_scalar", self.dtype, ("int64", "int32"))
                return bitwise_and_scalar(self, scalar_for("bitwise_and", self, rhs))
        raise kind_error("bitwise_and", self, (INT,))

    def bitwise_or(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - bitwise_or: Element-wise bitwise or, broadcasting.
        - bitwise_or_scalar: Bitwise or of every element with an int.
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("bitwise_or", self, rhs)
                check_dtype("bitwise_or", self.dtype, ("int64", "int32"))
                return bitwise_or(self, rhs)
        else:
            if kind is INT:
                check_dtype("bitwise_or_scalar", self.dtype, ("int64", "int32"))
                return bitwise_or_scalar(self, scalar_for("bitwise_or", self, rhs))
        raise kind_error("bitwise_or", self, (INT,))

    def bitwise_xor(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - bitwise_xor: Element-wise bitwise exclusive or, broadcasting.
        - bitwise_xor_scalar: Bitwise exclusive or of every element with an int.
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("bitwise_xor", self, rhs)
                check_dtype("bitwise_xor", self.dtype, ("int64", "int32"))
                return bitwise_xor(self, rhs)
        else:
            if kind is INT:
                check_dtype("bitwise_xor_scalar", self.dtype, ("int64", "int32"))
                return bitwise_xor_scalar(self, scalar_for("bitwise_xor", self, rhs))
        raise kind_error("bitwise_xor", self, (INT,))

    def bitwise_not(self) -> Tensor:
        """Element-wise bitwise not (~x == -x - 1)."""
        kind = self.kind.tensor_kind
        if kind is INT:
            check_dtype("bitwise_not", self.dtype, ("int64", "int32"))
            return bitwise_not(self)
        raise kind_error("bitwise_not", self, (INT,))

    def bitwise_left_shift(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - bitwise_left_shift: Element-wise lhs << rhs, broadcasting.
        - bitwise_left_shift_scalar: Shifts every element left by an int.
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("bitwise_left_shift", self, rhs)
                check_dtype("bitwise_left_shift", self.dtype, ("int64", "int32"))
                return bitwise_left_shift(self, rhs)
        else:
            if kind is INT:
                check_dtype("bitwise_left_shift_scalar", self.dtype, ("int64", "int32"))
                return bitwise_left_shift_scalar(self, scalar_for("bitwise_left_shift", self, rhs))
        raise kind_error("bitwise_left_shift", self, (INT,))

    __lshift__ = bitwise_left_shift

    def bitwise_right_shift(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind:

        - bitwise_right_shift: Element-wise lhs >> rhs (arithmetic, keeping the sign), broadcasting.
        - bitwise_right_shift_scalar: Shifts every element right by an int (arithmetic).
        """
        kind = self.kind.tensor_kind
        if type(rhs) is Tensor or isinstance(rhs, TensorBase):
            if kind is INT:
                if type(rhs) is not Tensor or rhs.kind is not self.kind:
                    same_kind("bitwise_right_shift", self, rhs)
                check_dtype("bitwise_right_shift", self.dtype, ("int64", "int32"))
                return bitwise_right_shift(self, rhs)
        else:
            if kind is INT:
                check_dtype("bitwise_right_shift_scalar", self.dtype, ("int64", "int32"))
                return bitwise_right_shift_scalar(
                    self, scalar_for("bitwise_right_shift", self, rhs)
                )
        raise kind_error("bitwise_right_shift", self, (INT,))

    __rshift__ = bitwise_right_shift

    def bool_and(self, rhs: Tensor) -> Tensor:
        """Element-wise logical and."""
        kind = self.kind.tensor_kind
        if kind is BOOL:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("bool_and", self, rhs)
            return bool_and(self, rhs)
        raise kind_error("bool_and", self, (BOOL,))

    def bool_or(self, rhs: Tensor) -> Tensor:
        """Element-wise logical or."""
        kind = self.kind.tensor_kind
        if kind is BOOL:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("bool_or", self, rhs)
            return bool_or(self, rhs)
        raise kind_error("bool_or", self, (BOOL,))

    def bool_xor(self, rhs: Tensor) -> Tensor:
        """Element-wise logical exclusive or."""
        kind = self.kind.tensor_kind
        if kind is BOOL:
            if type(rhs) is not Tensor or rhs.kind is not self.kind:
                same_kind("bool_xor", self, rhs)
            return bool_xor(self, rhs)
        raise kind_error("bool_xor", self, (BOOL,))

    def into_int(self, dtype: DTypeLike | None = None) -> Tensor:
        """Routes by kind:

        - float_into_int: Truncates toward zero into an int tensor.
        - bool_into_int: true -> 1, false -> 0.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_into_int(self, dtype_arg(dtype, INT))
        if kind is BOOL:
            return bool_into_int(self, dtype_arg(dtype, INT))
        raise kind_error("into_int", self, (FLOAT, BOOL))

    def bitcast(self) -> Tensor:
        """Routes by kind:

        - float_bitcast: The bits of each value read as an int of the same width (float32 -> int32, float64 -> int64), as ONNX's BitCast and numpy's view.
        - int_bitcast: The bits of each value read as a float of the same width (int32 -> float32, int64 -> float64), as ONNX's BitCast and numpy's view.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            check_dtype("float_bitcast", self.dtype, ("float32", "float64"))
            return float_bitcast(self)
        if kind is INT:
            check_dtype("int_bitcast", self.dtype, ("int32", "int64"))
            return int_bitcast(self)
        raise kind_error("bitcast", self, (FLOAT, INT))

    def into_float(self, dtype: DTypeLike | None = None) -> Tensor:
        """Routes by kind:

        - int_into_float: Converts into a float tensor (an untracked leaf on an autodiff device).
        - bool_into_float: true -> 1.0, false -> 0.0 (an untracked leaf on an autodiff device).
        """
        kind = self.kind.tensor_kind
        if kind is INT:
            return int_into_float(self, dtype_arg(dtype, FLOAT))
        if kind is BOOL:
            return bool_into_float(self, dtype_arg(dtype, FLOAT))
        raise kind_error("into_float", self, (INT, BOOL))

    def to_device(self, device: Device | None) -> Tensor:
        """Routes by kind:

        - float_to_device: The tensor on `device` (plain -> autodiff makes an untracked leaf; autodiff -> plain detaches).
        - int_to_device: The tensor on `device`.
        - bool_to_device: The tensor on `device`.
        """
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return float_to_device(self, device_arg(device).device)
        if kind is INT:
            return int_to_device(self, device_arg(device).device)
        if kind is BOOL:
            return bool_to_device(self, device_arg(device).device)
        raise kind_error("to_device", self, (FLOAT, INT, BOOL))

    def __pow__(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind: float -> powf, int -> powi."""
        kind = self.kind.tensor_kind
        if kind is FLOAT:
            return self.powf(rhs)
        if kind is INT:
            return self.powi(rhs)
        raise kind_error("__pow__", self, (FLOAT, INT))

    def __and__(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind: int -> bitwise_and, bool -> bool_and."""
        kind = self.kind.tensor_kind
        if kind is INT:
            return self.bitwise_and(rhs)
        if kind is BOOL:
            return self.bool_and(rhs)
        raise kind_error("__and__", self, (INT, BOOL))

    def __or__(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind: int -> bitwise_or, bool -> bool_or."""
        kind = self.kind.tensor_kind
        if kind is INT:
            return self.bitwise_or(rhs)
        if kind is BOOL:
            return self.bool_or(rhs)
        raise kind_error("__or__", self, (INT, BOOL))

    def __xor__(self, rhs: Tensor | float) -> Tensor:
        """Routes by kind: int -> bitwise_xor, bool -> bool_xor."""
        kind = self.kind.tensor_kind
        if kind is INT:
            return self.bitwise_xor(rhs)
        if kind is BOOL:
            return self.bool_xor(rhs)
        raise kind_error("__xor__", self, (INT, BOOL))

    def __invert__(self) -> Tensor:
        """Routes by kind: int -> bitwise_not, bool -> bool_not."""
        kind = self.kind.tensor_kind
        if kind is INT:
            return self.bitwise_not()
        if kind is BOOL:
            return self.bool_not()
        raise kind_error("__invert__", self, (INT, BOOL))

    @classmethod
    def from_quantized(
        cls,
        values: object,
        scales: object,
        scheme: QuantScheme,
        shape: Sequence[int] | int | None = None,
        *,
        device: Device | None = None,
    ) -> Tensor:
        """A quantized tensor from its integer values (unpacked) and its scales, one per block."""
        return q_from_data(
            np.asarray(values),
            np.asarray(scales),
            scheme_arg("from_quantized", scheme),
            None if shape is None else shape_of("from_quantized", "shape", shape),
            device_arg(device).device,
        )

    def quantize(self, scheme: QuantScheme, scales: Tensor) -> Tensor:
        """Quantize with the given scales (burn's grid shape: one per block along each dim); drops the history."""
        return quantize(
            self, scheme_arg("quantize", scheme), float_arg("quantize", "scales", scales)
        )

    def dequantize(self, dtype: DTypeLike | None = None) -> Tensor:
        """The float values, scale * q (float32 unless `dtype` is given); a plain float tensor is returned unchanged."""
        return dequantize(self, float_dtype_arg("dequantize", dtype))

    def quantized_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The int8 values (unpacked, in the tensor's shape) and the float32 scales, as numpy arrays."""
        return q_into_data(self)

    def quantize_dynamic(self, scheme: QuantScheme) -> Tensor:
        """Quantize with scales from the tensor's range (MinMax calibration, per tensor or per block); drops the history."""
        return quantize_dynamic(self, scheme_arg("quantize_dynamic", scheme))

    if TYPE_CHECKING:  # for type checkers and editors; at run time, the dispatch functions below

        def exp(self) -> Tensor:
            """Element-wise e^x."""

        def log(self) -> Tensor:
            """Element-wise natural logarithm."""

        def sqrt(self) -> Tensor:
            """Element-wise square root."""

        def tanh(self) -> Tensor:
            """Element-wise hyperbolic tangent."""

        def log1p(self) -> Tensor:
            """Element-wise log(1 + x), accurate near 0."""

        def recip(self) -> Tensor:
            """Element-wise 1 / x."""

        def sin(self) -> Tensor:
            """Element-wise sine."""

        def cos(self) -> Tensor:
            """Element-wise cosine."""

        def tan(self) -> Tensor:
            """Element-wise tangent."""

        def sinh(self) -> Tensor:
            """Element-wise hyperbolic sine."""

        def cosh(self) -> Tensor:
            """Element-wise hyperbolic cosine."""

        def asin(self) -> Tensor:
            """Element-wise arcsine (x in [-1, 1])."""

        def acos(self) -> Tensor:
            """Element-wise arccosine (x in [-1, 1])."""

        def atan(self) -> Tensor:
            """Element-wise arctangent."""

        def asinh(self) -> Tensor:
            """Element-wise inverse hyperbolic sine."""

        def acosh(self) -> Tensor:
            """Element-wise inverse hyperbolic cosine (x >= 1)."""

        def atanh(self) -> Tensor:
            """Element-wise inverse hyperbolic tangent (x in (-1, 1))."""

        def erf(self) -> Tensor:
            """Element-wise Gauss error function."""

        def round(self) -> Tensor:
            """Element-wise rounding to the nearest integer, halves to even (the gradient is 0)."""

        def floor(self) -> Tensor:
            """Element-wise largest integer <= x (the gradient is 0)."""

        def ceil(self) -> Tensor:
            """Element-wise smallest integer >= x (the gradient is 0)."""

        def trunc(self) -> Tensor:
            """Element-wise rounding toward zero (the gradient is 0)."""

        def relu(self) -> Tensor:
            """Element-wise max(x, 0)."""

        def gelu(self) -> Tensor:
            """Element-wise x * Φ(x) (the exact erf form, and its exact gradient)."""

        def gelu_approximate(self) -> Tensor:
            """Element-wise GELU's tanh approximation, 0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³))), and its own gradient."""

        def sigmoid(self) -> Tensor:
            """Element-wise logistic function 1 / (1 + e^-x)."""

        def log_sigmoid(self) -> Tensor:
            """Element-wise log(sigmoid(x)), stable for large |x|."""

        def silu(self) -> Tensor:
            """Element-wise x * sigmoid(x) (burn-tensor's silu)."""

        def is_nan(self) -> Tensor:
            """Element-wise x is NaN."""

        def is_inf(self) -> Tensor:
            """Element-wise x is +inf or -inf."""

        def bool_not(self) -> Tensor:
            """Element-wise logical not."""


# Imported last: the dispatch functions construct Tensors, and the methods above call them.
from burnpy.generated.dispatch import *  # noqa: E402, F401, F403

# The methods that only pass `self` on to one dispatch function are that function.
Tensor.exp = plain_arm("float_exp", 1)(float_exp)
Tensor.log = plain_arm("float_log", 1)(float_log)
Tensor.sqrt = plain_arm("float_sqrt", 1)(float_sqrt)
Tensor.tanh = plain_arm("float_tanh", 1)(float_tanh)
Tensor.log1p = plain_arm("float_log1p", 1)(float_log1p)
Tensor.recip = plain_arm("float_recip", 1)(float_recip)
Tensor.sin = plain_arm("float_sin", 1)(float_sin)
Tensor.cos = plain_arm("float_cos", 1)(float_cos)
Tensor.tan = plain_arm("float_tan", 1)(float_tan)
Tensor.sinh = plain_arm("float_sinh", 1)(float_sinh)
Tensor.cosh = plain_arm("float_cosh", 1)(float_cosh)
Tensor.asin = plain_arm("float_asin", 1)(float_asin)
Tensor.acos = plain_arm("float_acos", 1)(float_acos)
Tensor.atan = plain_arm("float_atan", 1)(float_atan)
Tensor.asinh = plain_arm("float_asinh", 1)(float_asinh)
Tensor.acosh = plain_arm("float_acosh", 1)(float_acosh)
Tensor.atanh = plain_arm("float_atanh", 1)(float_atanh)
Tensor.erf = plain_arm("float_erf", 1)(float_erf)
Tensor.round = plain_arm("float_round", 1)(float_round)
Tensor.floor = plain_arm("float_floor", 1)(float_floor)
Tensor.ceil = plain_arm("float_ceil", 1)(float_ceil)
Tensor.trunc = plain_arm("float_trunc", 1)(float_trunc)
Tensor.relu = plain_arm("relu", 1)(relu)
Tensor.gelu = plain_arm("gelu", 1)(gelu)
Tensor.gelu_approximate = plain_arm("gelu_approximate", 1)(gelu_approximate)
Tensor.sigmoid = plain_arm("sigmoid", 1)(sigmoid)
Tensor.log_sigmoid = plain_arm("log_sigmoid", 1)(log_sigmoid)
Tensor.silu = silu
Tensor.is_nan = float_is_nan
Tensor.is_inf = float_is_inf
Tensor.bool_not = bool_not

# The plain arms in C run on this class's exact instances (runtime/plain_arm.py).
bind_plain_arms(Tensor, DispatchTensorKind, DISABLED, FLOAT, GradientCheckpointingStrategy.Balanced)

# `t.relu_`, PyTorch's in-place form of a method, says burnpy has none (after every method is set).
teach_in_place_names(Tensor)
