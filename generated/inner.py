# @generated from ops.yaml by `python -m codegen`; do not edit. render=2f5bbc915b4487c9 body=449ae5c57c635621
"""What a dispatch function calls on an inner backend (`B.inner.<op>`): every kernel by name and
signature, each with the op it runs and where each backend defines it. A typing Protocol read
only by type checkers and editors (dispatch functions annotate `B` with it); the backend classes
are not derived from it, and nothing here runs on the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from burnpy.runtime.distribution import Distribution
    from burnpy.runtime.indexing import IndexingUpdateOp
    from burnpy.runtime.quantization.primitive import QuantizedTensor
    from burnpy.runtime.quantization.scheme import QuantScheme

# A backend's tensor: a numpy array, a torch tensor, ...
Primitive = Any


class InnerBackend(Protocol):
    def float_from_data(self, data: np.ndarray, device: Any, dtype: np.dtype) -> Primitive:
        """A float tensor holding a copy of `data`.

        NumPy: NumPyBackend.float_from_data in runtime/backends/numpy.py
        Torch: TorchBackend.float_from_data in runtime/backends/torch.py
        """
        ...

    def int_from_data(self, data: np.ndarray, device: Any, dtype: np.dtype) -> Primitive:
        """An int tensor holding a copy of `data`.

        NumPy: NumPyBackend.int_from_data in runtime/backends/numpy.py
        Torch: TorchBackend.int_from_data in runtime/backends/torch.py
        """
        ...

    def bool_from_data(self, data: np.ndarray, device: Any, dtype: np.dtype) -> Primitive:
        """A bool tensor holding a copy of `data`.

        NumPy: NumPyBackend.bool_from_data in runtime/backends/numpy.py
        Torch: TorchBackend.bool_from_data in runtime/backends/torch.py
        """
        ...

    def float_zeros(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """A float tensor of zeros.

        NumPy: CreationKernels.float_zeros in runtime/backends/kernels/creation.py
        Torch: CreationKernels.float_zeros in runtime/backends/kernels/creation.py
        """
        ...

    def int_zeros(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """An int tensor of zeros.

        NumPy: CreationKernels.int_zeros in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_zeros in runtime/backends/kernels/creation.py
        """
        ...

    def float_ones(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """A float tensor of ones.

        NumPy: NumPyBackend.float_ones in runtime/backends/numpy.py
        Torch: CreationKernels.float_ones in runtime/backends/kernels/creation.py
        """
        ...

    def int_ones(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """An int tensor of ones.

        NumPy: CreationKernels.int_ones in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_ones in runtime/backends/kernels/creation.py
        """
        ...

    def float_full(
        self, shape: tuple[int, ...], fill_value: float, device: Any, dtype: np.dtype
    ) -> Primitive:
        """A float tensor filled with `fill_value`.

        NumPy: CreationKernels.float_full in runtime/backends/kernels/creation.py
        Torch: CreationKernels.float_full in runtime/backends/kernels/creation.py
        """
        ...

    def int_full(
        self, shape: tuple[int, ...], fill_value: int, device: Any, dtype: np.dtype
    ) -> Primitive:
        """An int tensor filled with `fill_value`.

        NumPy: CreationKernels.int_full in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_full in runtime/backends/kernels/creation.py
        """
        ...

    def float_empty(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """An uninitialised float tensor.

        NumPy: CreationKernels.float_empty in runtime/backends/kernels/creation.py
        Torch: CreationKernels.float_empty in runtime/backends/kernels/creation.py
        """
        ...

    def float_random(
        self, shape: tuple[int, ...], distribution: Distribution, device: Any, dtype: np.dtype
    ) -> Primitive:
        """A float tensor sampled from `distribution` (seed it with `device.seed(n)`).

        NumPy: NumPyBackend.float_random in runtime/backends/numpy.py
        Torch: TorchBackend.float_random in runtime/backends/torch.py
        """
        ...

    def int_arange(self, start: int, end: int, device: Any, dtype: np.dtype) -> Primitive:
        """The ints start, start + 1, ... below end (Tensor.arange with its default step).

        NumPy: CreationKernels.int_arange in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_arange in runtime/backends/kernels/creation.py
        """
        ...

    def int_arange_step(
        self, start: int, end: int, step: int, device: Any, dtype: np.dtype
    ) -> Primitive:
        """The ints start, start + step, ... below end; `step` is positive (burn's usize).

        NumPy: CreationKernels.int_arange_step in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_arange_step in runtime/backends/kernels/creation.py
        """
        ...

    def int_empty(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """An uninitialised int tensor.

        NumPy: CreationKernels.int_empty in runtime/backends/kernels/creation.py
        Torch: CreationKernels.int_empty in runtime/backends/kernels/creation.py
        """
        ...

    def bool_empty(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """An uninitialised bool tensor.

        NumPy: CreationKernels.bool_empty in runtime/backends/kernels/creation.py
        Torch: CreationKernels.bool_empty in runtime/backends/kernels/creation.py
        """
        ...

    def bool_zeros(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """A bool tensor of false.

        NumPy: CreationKernels.bool_zeros in runtime/backends/kernels/creation.py
        Torch: CreationKernels.bool_zeros in runtime/backends/kernels/creation.py
        """
        ...

    def bool_ones(self, shape: tuple[int, ...], device: Any, dtype: np.dtype) -> Primitive:
        """A bool tensor of true.

        NumPy: CreationKernels.bool_ones in runtime/backends/kernels/creation.py
        Torch: CreationKernels.bool_ones in runtime/backends/kernels/creation.py
        """
        ...

    def int_random(
        self, shape: tuple[int, ...], distribution: Distribution, device: Any, dtype: np.dtype
    ) -> Primitive:
        """An int tensor sampled from `distribution` (uniform(lo, hi) gives ints in [lo, hi); normal samples are truncated).

        NumPy: NumPyBackend.int_random in runtime/backends/numpy.py
        Torch: TorchBackend.int_random in runtime/backends/torch.py
        """
        ...

    def float_add(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise sum, broadcasting.

        NumPy: NumPyBackend.float_add in runtime/backends/numpy.py
        Torch: TorchBackend.float_add in runtime/backends/torch.py
        """
        ...

    def float_add_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Adds a scalar to every element.

        NumPy: NumPyBackend.float_add_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.float_add_scalar in runtime/backends/torch.py
        """
        ...

    def float_sub(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise difference, broadcasting.

        NumPy: NumPyBackend.float_sub in runtime/backends/numpy.py
        Torch: TorchBackend.float_sub in runtime/backends/torch.py
        """
        ...

    def float_sub_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Subtracts a scalar from every element.

        NumPy: NumPyBackend.float_sub_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.float_sub_scalar in runtime/backends/torch.py
        """
        ...

    def float_mul(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise product, broadcasting.

        NumPy: NumPyBackend.float_mul in runtime/backends/numpy.py
        Torch: TorchBackend.float_mul in runtime/backends/torch.py
        """
        ...

    def float_mul_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Multiplies every element by a scalar.

        NumPy: NumPyBackend.float_mul_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.float_mul_scalar in runtime/backends/torch.py
        """
        ...

    def float_div(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise quotient, broadcasting.

        NumPy: NumPyBackend.float_div in runtime/backends/numpy.py
        Torch: TorchBackend.float_div in runtime/backends/torch.py
        """
        ...

    def float_div_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Divides every element by a scalar.

        NumPy: NumPyBackend.float_div_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.float_div_scalar in runtime/backends/torch.py
        """
        ...

    def float_neg(self, tensor: Primitive) -> Primitive:
        """Element-wise negation.

        NumPy: ArithmeticKernels.float_neg in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_neg in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_matmul(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Matrix product over the last two dims, broadcasting the batch dims.

        NumPy: NumPyBackend.float_matmul in runtime/backends/numpy.py
        Torch: TorchBackend.float_matmul in runtime/backends/torch.py
        """
        ...

    def float_det(self, tensor: Primitive) -> Primitive:
        """The determinant of each square matrix of the last two dims: [..., n, n] -> [...] (LU with partial pivoting, one pass; its gradient is the cofactors, infinite at a singular matrix).

        NumPy: ArithmeticKernels.float_det in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_det in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_remainder(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise remainder with the divisor's sign (Python's %), broadcasting.

        NumPy: ArithmeticKernels.float_remainder in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_remainder in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_remainder_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Remainder of every element by a scalar, with the scalar's sign.

        NumPy: ArithmeticKernels.float_remainder_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_remainder_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_cross(self, lhs: Primitive, rhs: Primitive, dim: int) -> Primitive:
        """Cross product of 3-vectors along `dim` (of size 3), broadcasting.

        NumPy: ArithmeticKernels.float_cross in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_cross in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_powf(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs ** rhs, broadcasting.

        NumPy: ArithmeticKernels.float_powf in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_powf in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_powf_scalar_impl(self, lhs: Primitive, rhs: float) -> Primitive:
        """The generic case of float_powf_scalar, where burn-autodiff puts the backward.

        NumPy: ArithmeticKernels.float_powf_scalar_impl in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_powf_scalar_impl in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_powi(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Raises every element to an int tensor's power, broadcasting.

        NumPy: ArithmeticKernels.float_powi in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_powi in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_clamp(self, tensor: Primitive, min: float, max: float) -> Primitive:
        """Clamps every element into [min, max] (the gradient is 0 where an element was clamped).

        NumPy: ArithmeticKernels.float_clamp in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_clamp in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_clamp_min(self, tensor: Primitive, min: float) -> Primitive:
        """Raises every element below `min` to `min`.

        NumPy: ArithmeticKernels.float_clamp_min in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_clamp_min in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_clamp_max(self, tensor: Primitive, max: float) -> Primitive:
        """Lowers every element above `max` to `max`.

        NumPy: ArithmeticKernels.float_clamp_max in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_clamp_max in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_exp(self, tensor: Primitive) -> Primitive:
        """Element-wise e^x.

        NumPy: NumPyBackend.float_exp in runtime/backends/numpy.py
        Torch: TorchBackend.float_exp in runtime/backends/torch.py
        """
        ...

    def float_square(self, tensor: Primitive) -> Primitive:
        """Element-wise x * x.

        NumPy: ArithmeticKernels.float_square in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_square in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_log(self, tensor: Primitive) -> Primitive:
        """Element-wise natural logarithm.

        NumPy: NumPyBackend.float_log in runtime/backends/numpy.py
        Torch: TorchBackend.float_log in runtime/backends/torch.py
        """
        ...

    def float_sqrt(self, tensor: Primitive) -> Primitive:
        """Element-wise square root.

        NumPy: NumPyBackend.float_sqrt in runtime/backends/numpy.py
        Torch: TorchBackend.float_sqrt in runtime/backends/torch.py
        """
        ...

    def float_abs(self, tensor: Primitive) -> Primitive:
        """Element-wise absolute value.

        NumPy: NumPyBackend.float_abs in runtime/backends/numpy.py
        Torch: TorchBackend.float_abs in runtime/backends/torch.py
        """
        ...

    def float_sign(self, tensor: Primitive) -> Primitive:
        """Element-wise sign (-1, 0 or 1).

        NumPy: NumPyBackend.float_sign in runtime/backends/numpy.py
        Torch: TorchBackend.float_sign in runtime/backends/torch.py
        """
        ...

    def float_tanh(self, tensor: Primitive) -> Primitive:
        """Element-wise hyperbolic tangent.

        NumPy: NumPyBackend.float_tanh in runtime/backends/numpy.py
        Torch: TorchBackend.float_tanh in runtime/backends/torch.py
        """
        ...

    def float_log1p(self, tensor: Primitive) -> Primitive:
        """Element-wise log(1 + x), accurate near 0.

        NumPy: NumPyBackend.float_log1p in runtime/backends/numpy.py
        Torch: TorchBackend.float_log1p in runtime/backends/torch.py
        """
        ...

    def float_recip(self, tensor: Primitive) -> Primitive:
        """Element-wise 1 / x.

        NumPy: ArithmeticKernels.float_recip in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_recip in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_sin(self, tensor: Primitive) -> Primitive:
        """Element-wise sine.

        NumPy: NumPyBackend.float_sin in runtime/backends/numpy.py
        Torch: TorchBackend.float_sin in runtime/backends/torch.py
        """
        ...

    def float_cos(self, tensor: Primitive) -> Primitive:
        """Element-wise cosine.

        NumPy: NumPyBackend.float_cos in runtime/backends/numpy.py
        Torch: TorchBackend.float_cos in runtime/backends/torch.py
        """
        ...

    def float_tan(self, tensor: Primitive) -> Primitive:
        """Element-wise tangent.

        NumPy: NumPyBackend.float_tan in runtime/backends/numpy.py
        Torch: TorchBackend.float_tan in runtime/backends/torch.py
        """
        ...

    def float_sinh(self, tensor: Primitive) -> Primitive:
        """Element-wise hyperbolic sine.

        NumPy: NumPyBackend.float_sinh in runtime/backends/numpy.py
        Torch: TorchBackend.float_sinh in runtime/backends/torch.py
        """
        ...

    def float_cosh(self, tensor: Primitive) -> Primitive:
        """Element-wise hyperbolic cosine.

        NumPy: NumPyBackend.float_cosh in runtime/backends/numpy.py
        Torch: TorchBackend.float_cosh in runtime/backends/torch.py
        """
        ...

    def float_asin(self, tensor: Primitive) -> Primitive:
        """Element-wise arcsine (x in [-1, 1]).

        NumPy: NumPyBackend.float_asin in runtime/backends/numpy.py
        Torch: TorchBackend.float_asin in runtime/backends/torch.py
        """
        ...

    def float_acos(self, tensor: Primitive) -> Primitive:
        """Element-wise arccosine (x in [-1, 1]).

        NumPy: NumPyBackend.float_acos in runtime/backends/numpy.py
        Torch: TorchBackend.float_acos in runtime/backends/torch.py
        """
        ...

    def float_atan(self, tensor: Primitive) -> Primitive:
        """Element-wise arctangent.

        NumPy: NumPyBackend.float_atan in runtime/backends/numpy.py
        Torch: TorchBackend.float_atan in runtime/backends/torch.py
        """
        ...

    def float_asinh(self, tensor: Primitive) -> Primitive:
        """Element-wise inverse hyperbolic sine.

        NumPy: NumPyBackend.float_asinh in runtime/backends/numpy.py
        Torch: TorchBackend.float_asinh in runtime/backends/torch.py
        """
        ...

    def float_acosh(self, tensor: Primitive) -> Primitive:
        """Element-wise inverse hyperbolic cosine (x >= 1).

        NumPy: NumPyBackend.float_acosh in runtime/backends/numpy.py
        Torch: TorchBackend.float_acosh in runtime/backends/torch.py
        """
        ...

    def float_atanh(self, tensor: Primitive) -> Primitive:
        """Element-wise inverse hyperbolic tangent (x in (-1, 1)).

        NumPy: NumPyBackend.float_atanh in runtime/backends/numpy.py
        Torch: TorchBackend.float_atanh in runtime/backends/torch.py
        """
        ...

    def float_atan2(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise angle of the point (x=rhs, y=lhs), in (-pi, pi], broadcasting.

        NumPy: NumPyBackend.float_atan2 in runtime/backends/numpy.py
        Torch: TorchBackend.float_atan2 in runtime/backends/torch.py
        """
        ...

    def float_hypot(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise sqrt(lhs^2 + rhs^2) without overflow, broadcasting.

        NumPy: NumPyBackend.float_hypot in runtime/backends/numpy.py
        Torch: TorchBackend.float_hypot in runtime/backends/torch.py
        """
        ...

    def float_erf(self, tensor: Primitive) -> Primitive:
        """Element-wise Gauss error function.

        NumPy: NumPyBackend.float_erf in runtime/backends/numpy.py
        Torch: TorchBackend.float_erf in runtime/backends/torch.py
        """
        ...

    def float_round(self, tensor: Primitive) -> Primitive:
        """Element-wise rounding to the nearest integer, halves to even (the gradient is 0).

        NumPy: NumPyBackend.float_round in runtime/backends/numpy.py
        Torch: TorchBackend.float_round in runtime/backends/torch.py
        """
        ...

    def float_floor(self, tensor: Primitive) -> Primitive:
        """Element-wise largest integer <= x (the gradient is 0).

        NumPy: NumPyBackend.float_floor in runtime/backends/numpy.py
        Torch: TorchBackend.float_floor in runtime/backends/torch.py
        """
        ...

    def float_ceil(self, tensor: Primitive) -> Primitive:
        """Element-wise smallest integer >= x (the gradient is 0).

        NumPy: NumPyBackend.float_ceil in runtime/backends/numpy.py
        Torch: TorchBackend.float_ceil in runtime/backends/torch.py
        """
        ...

    def float_trunc(self, tensor: Primitive) -> Primitive:
        """Element-wise rounding toward zero (the gradient is 0).

        NumPy: NumPyBackend.float_trunc in runtime/backends/numpy.py
        Torch: TorchBackend.float_trunc in runtime/backends/torch.py
        """
        ...

    def float_round_to(self, tensor: Primitive, format: str, saturate: bool) -> Primitive:
        """Each value rounded to the nearest of an 8- or 4-bit float format (ml_dtypes' names), ties to even, from its float32 value, and kept in the tensor's dtype; saturate: beyond the format's range (infinities too) its largest value, else NaN (inf in float8_e5m2) as ml_dtypes casts. The gradient is 0.

        NumPy: NumPyBackend.float_round_to in runtime/backends/numpy.py
        Torch: TorchBackend.float_round_to in runtime/backends/torch.py
        """
        ...

    def relu(self, tensor: Primitive) -> Primitive:
        """Element-wise max(x, 0).

        NumPy: ActivationKernels.relu in runtime/backends/kernels/activation.py
        Torch: TorchBackend.relu in runtime/backends/torch.py
        """
        ...

    def relu_backward(self, output: Primitive, grad: Primitive) -> Primitive:
        """relu's backward from its output, grad where output > 0 (0 where output <= 0).

        NumPy: NumPyBackend.relu_backward in runtime/backends/numpy.py
        Torch: TorchBackend.relu_backward in runtime/backends/torch.py
        """
        ...

    def leaky_relu(self, tensor: Primitive, negative_slope: float) -> Primitive:
        """Element-wise x, or x * negative_slope where x < 0.

        NumPy: ActivationKernels.leaky_relu in runtime/backends/kernels/activation.py
        Torch: ActivationKernels.leaky_relu in runtime/backends/kernels/activation.py
        """
        ...

    def prelu(self, tensor: Primitive, alpha: Primitive) -> Primitive:
        """Element-wise x, or x * alpha where x < 0; alpha (learned) broadcasts against x.

        NumPy: ActivationKernels.prelu in runtime/backends/kernels/activation.py
        Torch: ActivationKernels.prelu in runtime/backends/kernels/activation.py
        """
        ...

    def gelu(self, tensor: Primitive) -> Primitive:
        """Element-wise x * Φ(x) (the exact erf form, and its exact gradient).

        NumPy: NumPyGeluKernels.gelu in runtime/backends/numpy_gelu.py
        Torch: TorchBackend.gelu in runtime/backends/torch.py
        """
        ...

    def gelu_backward(self, x: Primitive, grad: Primitive) -> Primitive:
        """gelu's backward, grad * (Φ(x) + x φ(x)), the exact form's derivative (not burn's tanh one).

        NumPy: NumPyGeluKernels.gelu_backward in runtime/backends/numpy_gelu.py
        Torch: TorchBackend.gelu_backward in runtime/backends/torch.py
        """
        ...

    def gelu_approximate(self, tensor: Primitive) -> Primitive:
        """Element-wise GELU's tanh approximation, 0.5 x (1 + tanh(sqrt(2/π) (x + 0.044715 x³))), and its own gradient.

        NumPy: NumPyGeluKernels.gelu_approximate in runtime/backends/numpy_gelu.py
        Torch: TorchBackend.gelu_approximate in runtime/backends/torch.py
        """
        ...

    def gelu_approximate_backward(self, x: Primitive, grad: Primitive) -> Primitive:
        """gelu_approximate's backward, grad * (0.5 (1 + t) + 0.5 x (1 - t²) sqrt(2/π) (1 + 3 · 0.044715 x²)), t its tanh.

        NumPy: NumPyGeluKernels.gelu_approximate_backward in runtime/backends/numpy_gelu.py
        Torch: TorchBackend.gelu_approximate_backward in runtime/backends/torch.py
        """
        ...

    def sigmoid(self, tensor: Primitive) -> Primitive:
        """Element-wise logistic function 1 / (1 + e^-x).

        NumPy: NumPyBackend.sigmoid in runtime/backends/numpy.py
        Torch: TorchBackend.sigmoid in runtime/backends/torch.py
        """
        ...

    def sigmoid_backward(self, output: Primitive, grad: Primitive) -> Primitive:
        """sigmoid's backward from its output, grad * output * (1 - output).

        NumPy: ActivationKernels.sigmoid_backward in runtime/backends/kernels/activation.py
        Torch: ActivationKernels.sigmoid_backward in runtime/backends/kernels/activation.py
        """
        ...

    def log_sigmoid(self, tensor: Primitive) -> Primitive:
        """Element-wise log(sigmoid(x)), stable for large |x|.

        NumPy: ActivationKernels.log_sigmoid in runtime/backends/kernels/activation.py
        Torch: ActivationKernels.log_sigmoid in runtime/backends/kernels/activation.py
        """
        ...

    def log_sigmoid_backward(self, x: Primitive, grad: Primitive) -> Primitive:
        """log_sigmoid's backward, grad * sigmoid(-x) (1 - sigmoid(x) without the cancellation).

        NumPy: ActivationKernels.log_sigmoid_backward in runtime/backends/kernels/activation.py
        Torch: ActivationKernels.log_sigmoid_backward in runtime/backends/kernels/activation.py
        """
        ...

    def softmax(self, tensor: Primitive, dim: int) -> Primitive:
        """e^x / sum(e^x) along `dim`, shifted by the row max (stable for large inputs).

        NumPy: NumPyBackend.softmax in runtime/backends/numpy.py
        Torch: TorchBackend.softmax in runtime/backends/torch.py
        """
        ...

    def log_softmax(self, tensor: Primitive, dim: int) -> Primitive:
        """log(softmax(x)) along `dim`, as x - max - log(sum(e^(x - max))) (stable).

        NumPy: ActivationKernels.log_softmax in runtime/backends/kernels/activation.py
        Torch: TorchBackend.log_softmax in runtime/backends/torch.py
        """
        ...

    def float_sum(self, tensor: Primitive) -> Primitive:
        """Sum of all elements, shape [1].

        NumPy: NumPyBackend.float_sum in runtime/backends/numpy.py
        Torch: TorchBackend.float_sum in runtime/backends/torch.py
        """
        ...

    def float_sum_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Sum along `dim`, keeping it with size 1.

        NumPy: NumPyBackend.float_sum_dim in runtime/backends/numpy.py
        Torch: TorchBackend.float_sum_dim in runtime/backends/torch.py
        """
        ...

    def float_mean(self, tensor: Primitive) -> Primitive:
        """Mean of all elements, shape [1].

        NumPy: NumPyBackend.float_mean in runtime/backends/numpy.py
        Torch: TorchBackend.float_mean in runtime/backends/torch.py
        """
        ...

    def float_mean_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Mean along `dim`, keeping it with size 1.

        NumPy: NumPyBackend.float_mean_dim in runtime/backends/numpy.py
        Torch: TorchBackend.float_mean_dim in runtime/backends/torch.py
        """
        ...

    def float_prod(self, tensor: Primitive) -> Primitive:
        """Product of all elements, shape [1].

        NumPy: ReduceKernels.float_prod in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_prod in runtime/backends/kernels/reduce.py
        """
        ...

    def float_prod_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Product along `dim`, keeping it with size 1 (its gradient is exact at zeros).

        NumPy: ReduceKernels.float_prod_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_prod_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def float_max_dim_with_indices(
        self, tensor: Primitive, dim: int
    ) -> tuple[Primitive, Primitive]:
        """(largest element, its index) along `dim`, keeping it; ties go to the lowest index.

        NumPy: ReduceKernels.float_max_dim_with_indices in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_max_dim_with_indices in runtime/backends/kernels/reduce.py
        """
        ...

    def float_min_dim_with_indices(
        self, tensor: Primitive, dim: int
    ) -> tuple[Primitive, Primitive]:
        """(smallest element, its index) along `dim`, keeping it; ties go to the lowest index.

        NumPy: ReduceKernels.float_min_dim_with_indices in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_min_dim_with_indices in runtime/backends/kernels/reduce.py
        """
        ...

    def float_argmax(self, tensor: Primitive, dim: int) -> Primitive:
        """Index (int64) of the largest element along `dim`, kept; ties go to the lowest index.

        NumPy: ReduceKernels.float_argmax in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_argmax in runtime/backends/kernels/reduce.py
        """
        ...

    def float_argmin(self, tensor: Primitive, dim: int) -> Primitive:
        """Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index.

        NumPy: ReduceKernels.float_argmin in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_argmin in runtime/backends/kernels/reduce.py
        """
        ...

    def float_any(self, tensor: Primitive) -> Primitive:
        """Whether any element is non-zero, shape [1].

        NumPy: ReduceKernels.float_any in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_any in runtime/backends/kernels/reduce.py
        """
        ...

    def float_any_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether any element is non-zero along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.float_any_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_any_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def float_all(self, tensor: Primitive) -> Primitive:
        """Whether every element is non-zero, shape [1].

        NumPy: ReduceKernels.float_all in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_all in runtime/backends/kernels/reduce.py
        """
        ...

    def float_all_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether every element is non-zero along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.float_all_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.float_all_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_sum_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Sum along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_sum_dim in runtime/backends/kernels/reduce.py
        Torch: TorchBackend.int_sum_dim in runtime/backends/torch.py
        """
        ...

    def int_prod(self, tensor: Primitive) -> Primitive:
        """Product of all elements, shape [1].

        NumPy: ReduceKernels.int_prod in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_prod in runtime/backends/kernels/reduce.py
        """
        ...

    def int_prod_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Product along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_prod_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_prod_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_mean(self, tensor: Primitive) -> Primitive:
        """Mean of all elements, truncated toward zero, shape [1].

        NumPy: ReduceKernels.int_mean in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_mean in runtime/backends/kernels/reduce.py
        """
        ...

    def int_mean_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Mean along `dim`, truncated toward zero, keeping it with size 1.

        NumPy: ReduceKernels.int_mean_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_mean_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_max(self, tensor: Primitive) -> Primitive:
        """Largest element, shape [1].

        NumPy: ReduceKernels.int_max in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_max in runtime/backends/kernels/reduce.py
        """
        ...

    def int_max_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Largest element along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_max_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_max_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_max_dim_with_indices(self, tensor: Primitive, dim: int) -> tuple[Primitive, Primitive]:
        """(largest element, its index) along `dim`, keeping it; ties go to the lowest index.

        NumPy: ReduceKernels.int_max_dim_with_indices in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_max_dim_with_indices in runtime/backends/kernels/reduce.py
        """
        ...

    def int_min(self, tensor: Primitive) -> Primitive:
        """Smallest element, shape [1].

        NumPy: ReduceKernels.int_min in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_min in runtime/backends/kernels/reduce.py
        """
        ...

    def int_min_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Smallest element along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_min_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_min_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_min_dim_with_indices(self, tensor: Primitive, dim: int) -> tuple[Primitive, Primitive]:
        """(smallest element, its index) along `dim`, keeping it; ties go to the lowest index.

        NumPy: ReduceKernels.int_min_dim_with_indices in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_min_dim_with_indices in runtime/backends/kernels/reduce.py
        """
        ...

    def int_max_abs(self, tensor: Primitive) -> Primitive:
        """Largest absolute value, shape [1].

        NumPy: ReduceKernels.int_max_abs in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_max_abs in runtime/backends/kernels/reduce.py
        """
        ...

    def int_max_abs_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Largest absolute value along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_max_abs_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_max_abs_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_argmax(self, tensor: Primitive, dim: int) -> Primitive:
        """Index (int64) of the largest element along `dim`, kept; ties go to the lowest index.

        NumPy: ReduceKernels.int_argmax in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_argmax in runtime/backends/kernels/reduce.py
        """
        ...

    def int_argmin(self, tensor: Primitive, dim: int) -> Primitive:
        """Index (int64) of the smallest element along `dim`, kept; ties go to the lowest index.

        NumPy: ReduceKernels.int_argmin in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_argmin in runtime/backends/kernels/reduce.py
        """
        ...

    def int_any(self, tensor: Primitive) -> Primitive:
        """Whether any element is non-zero, shape [1].

        NumPy: ReduceKernels.int_any in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_any in runtime/backends/kernels/reduce.py
        """
        ...

    def int_any_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether any element is non-zero along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_any_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_any_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def int_all(self, tensor: Primitive) -> Primitive:
        """Whether every element is non-zero, shape [1].

        NumPy: ReduceKernels.int_all in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_all in runtime/backends/kernels/reduce.py
        """
        ...

    def int_all_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether every element is non-zero along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.int_all_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.int_all_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def bool_any(self, tensor: Primitive) -> Primitive:
        """Whether any element is true, shape [1].

        NumPy: ReduceKernels.bool_any in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.bool_any in runtime/backends/kernels/reduce.py
        """
        ...

    def bool_any_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether any element is true along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.bool_any_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.bool_any_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def bool_all(self, tensor: Primitive) -> Primitive:
        """Whether every element is true, shape [1].

        NumPy: ReduceKernels.bool_all in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.bool_all in runtime/backends/kernels/reduce.py
        """
        ...

    def bool_all_dim(self, tensor: Primitive, dim: int) -> Primitive:
        """Whether every element is true along `dim`, keeping it with size 1.

        NumPy: ReduceKernels.bool_all_dim in runtime/backends/kernels/reduce.py
        Torch: ReduceKernels.bool_all_dim in runtime/backends/kernels/reduce.py
        """
        ...

    def float_cumsum(self, tensor: Primitive, dim: int) -> Primitive:
        """Running sum along `dim`.

        NumPy: OrderKernels.float_cumsum in runtime/backends/kernels/order.py
        Torch: OrderKernels.float_cumsum in runtime/backends/kernels/order.py
        """
        ...

    def float_cumprod(self, tensor: Primitive, dim: int) -> Primitive:
        """Running product along `dim` (its gradient is exact at zeros).

        NumPy: OrderKernels.float_cumprod in runtime/backends/kernels/order.py
        Torch: OrderKernels.float_cumprod in runtime/backends/kernels/order.py
        """
        ...

    def float_cummin(self, tensor: Primitive, dim: int) -> Primitive:
        """Running minimum along `dim`.

        NumPy: NumPyBackend.float_cummin in runtime/backends/numpy.py
        Torch: OrderKernels.float_cummin in runtime/backends/kernels/order.py
        """
        ...

    def float_cummax(self, tensor: Primitive, dim: int) -> Primitive:
        """Running maximum along `dim`.

        NumPy: NumPyBackend.float_cummax in runtime/backends/numpy.py
        Torch: OrderKernels.float_cummax in runtime/backends/kernels/order.py
        """
        ...

    def float_sort_with_indices(
        self, tensor: Primitive, dim: int, descending: bool
    ) -> tuple[Primitive, Primitive]:
        """(sorted elements, their indices) along `dim`; equal elements keep their order.

        NumPy: OrderKernels.float_sort_with_indices in runtime/backends/kernels/order.py
        Torch: OrderKernels.float_sort_with_indices in runtime/backends/kernels/order.py
        """
        ...

    def float_argsort(self, tensor: Primitive, dim: int, descending: bool) -> Primitive:
        """The indices (int64) that sort along `dim`; equal elements keep their order.

        NumPy: NumPyBackend.float_argsort in runtime/backends/numpy.py
        Torch: OrderKernels.float_argsort in runtime/backends/kernels/order.py
        """
        ...

    def float_topk_with_indices(
        self, tensor: Primitive, k: int, dim: int
    ) -> tuple[Primitive, Primitive]:
        """(the k largest elements, their indices) along `dim`; ties go to the lowest index.

        NumPy: OrderKernels.float_topk_with_indices in runtime/backends/kernels/order.py
        Torch: OrderKernels.float_topk_with_indices in runtime/backends/kernels/order.py
        """
        ...

    def float_argtopk(self, tensor: Primitive, k: int, dim: int) -> Primitive:
        """The indices (int64) of the k largest elements along `dim`; ties go to the lowest index.

        NumPy: OrderKernels.float_argtopk in runtime/backends/kernels/order.py
        Torch: OrderKernels.float_argtopk in runtime/backends/kernels/order.py
        """
        ...

    def int_cumsum(self, tensor: Primitive, dim: int) -> Primitive:
        """Running sum along `dim`.

        NumPy: OrderKernels.int_cumsum in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_cumsum in runtime/backends/kernels/order.py
        """
        ...

    def int_cumprod(self, tensor: Primitive, dim: int) -> Primitive:
        """Running product along `dim`.

        NumPy: OrderKernels.int_cumprod in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_cumprod in runtime/backends/kernels/order.py
        """
        ...

    def int_cummin(self, tensor: Primitive, dim: int) -> Primitive:
        """Running minimum along `dim`.

        NumPy: NumPyBackend.int_cummin in runtime/backends/numpy.py
        Torch: OrderKernels.int_cummin in runtime/backends/kernels/order.py
        """
        ...

    def int_cummax(self, tensor: Primitive, dim: int) -> Primitive:
        """Running maximum along `dim`.

        NumPy: NumPyBackend.int_cummax in runtime/backends/numpy.py
        Torch: OrderKernels.int_cummax in runtime/backends/kernels/order.py
        """
        ...

    def int_sort(self, tensor: Primitive, dim: int, descending: bool) -> Primitive:
        """The elements sorted along `dim`.

        NumPy: OrderKernels.int_sort in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_sort in runtime/backends/kernels/order.py
        """
        ...

    def int_sort_with_indices(
        self, tensor: Primitive, dim: int, descending: bool
    ) -> tuple[Primitive, Primitive]:
        """(sorted elements, their indices) along `dim`; equal elements keep their order.

        NumPy: OrderKernels.int_sort_with_indices in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_sort_with_indices in runtime/backends/kernels/order.py
        """
        ...

    def int_argsort(self, tensor: Primitive, dim: int, descending: bool) -> Primitive:
        """The indices (int64) that sort along `dim`; equal elements keep their order.

        NumPy: NumPyBackend.int_argsort in runtime/backends/numpy.py
        Torch: OrderKernels.int_argsort in runtime/backends/kernels/order.py
        """
        ...

    def int_topk(self, tensor: Primitive, k: int, dim: int) -> Primitive:
        """The k largest elements along `dim`, largest first (burn-tensor's argument order).

        NumPy: OrderKernels.int_topk in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_topk in runtime/backends/kernels/order.py
        """
        ...

    def int_topk_with_indices(
        self, tensor: Primitive, k: int, dim: int
    ) -> tuple[Primitive, Primitive]:
        """(the k largest elements, their indices) along `dim`; ties go to the lowest index.

        NumPy: OrderKernels.int_topk_with_indices in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_topk_with_indices in runtime/backends/kernels/order.py
        """
        ...

    def int_argtopk(self, tensor: Primitive, k: int, dim: int) -> Primitive:
        """The indices (int64) of the k largest elements along `dim`; ties go to the lowest index.

        NumPy: OrderKernels.int_argtopk in runtime/backends/kernels/order.py
        Torch: OrderKernels.int_argtopk in runtime/backends/kernels/order.py
        """
        ...

    def float_reshape(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """The same elements in a new shape (-1 infers one dim).

        NumPy: NumPyBackend.float_reshape in runtime/backends/numpy.py
        Torch: ShapeKernels.float_reshape in runtime/backends/kernels/shape.py
        """
        ...

    def int_reshape(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """The same elements in a new shape (-1 infers one dim).

        NumPy: NumPyBackend.int_reshape in runtime/backends/numpy.py
        Torch: ShapeKernels.int_reshape in runtime/backends/kernels/shape.py
        """
        ...

    def bool_reshape(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """The same elements in a new shape (-1 infers one dim).

        NumPy: NumPyBackend.bool_reshape in runtime/backends/numpy.py
        Torch: ShapeKernels.bool_reshape in runtime/backends/kernels/shape.py
        """
        ...

    def float_swap_dims(self, tensor: Primitive, dim1: int, dim2: int) -> Primitive:
        """Swaps two dims.

        NumPy: NumPyBackend.float_swap_dims in runtime/backends/numpy.py
        Torch: TorchBackend.float_swap_dims in runtime/backends/torch.py
        """
        ...

    def int_swap_dims(self, tensor: Primitive, dim1: int, dim2: int) -> Primitive:
        """Swaps two dims.

        NumPy: NumPyBackend.int_swap_dims in runtime/backends/numpy.py
        Torch: TorchBackend.int_swap_dims in runtime/backends/torch.py
        """
        ...

    def bool_swap_dims(self, tensor: Primitive, dim1: int, dim2: int) -> Primitive:
        """Swaps two dims.

        NumPy: NumPyBackend.bool_swap_dims in runtime/backends/numpy.py
        Torch: TorchBackend.bool_swap_dims in runtime/backends/torch.py
        """
        ...

    def float_permute(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reorders the dims; dim i of the result is dim axes[i] of the tensor.

        NumPy: NumPyBackend.float_permute in runtime/backends/numpy.py
        Torch: ShapeKernels.float_permute in runtime/backends/kernels/shape.py
        """
        ...

    def int_permute(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reorders the dims; dim i of the result is dim axes[i] of the tensor.

        NumPy: NumPyBackend.int_permute in runtime/backends/numpy.py
        Torch: ShapeKernels.int_permute in runtime/backends/kernels/shape.py
        """
        ...

    def bool_permute(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reorders the dims; dim i of the result is dim axes[i] of the tensor.

        NumPy: NumPyBackend.bool_permute in runtime/backends/numpy.py
        Torch: ShapeKernels.bool_permute in runtime/backends/kernels/shape.py
        """
        ...

    def float_flip(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reverses the order of the elements along each of `axes`.

        NumPy: ShapeKernels.float_flip in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_flip in runtime/backends/kernels/shape.py
        """
        ...

    def int_flip(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reverses the order of the elements along each of `axes`.

        NumPy: ShapeKernels.int_flip in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_flip in runtime/backends/kernels/shape.py
        """
        ...

    def bool_flip(self, tensor: Primitive, axes: tuple[int, ...]) -> Primitive:
        """Reverses the order of the elements along each of `axes`.

        NumPy: ShapeKernels.bool_flip in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_flip in runtime/backends/kernels/shape.py
        """
        ...

    def float_expand(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """Broadcasts to `shape` (size-1 dims stretch; new dims go in front).

        NumPy: NumPyBackend.float_expand in runtime/backends/numpy.py
        Torch: TorchBackend.float_expand in runtime/backends/torch.py
        """
        ...

    def int_expand(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """Broadcasts to `shape` (size-1 dims stretch; new dims go in front).

        NumPy: ShapeKernels.int_expand in runtime/backends/kernels/shape.py
        Torch: TorchBackend.int_expand in runtime/backends/torch.py
        """
        ...

    def bool_expand(self, tensor: Primitive, shape: tuple[int, ...]) -> Primitive:
        """Broadcasts to `shape` (size-1 dims stretch; new dims go in front).

        NumPy: ShapeKernels.bool_expand in runtime/backends/kernels/shape.py
        Torch: TorchBackend.bool_expand in runtime/backends/torch.py
        """
        ...

    def float_repeat_dim(self, tensor: Primitive, dim: int, times: int) -> Primitive:
        """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).

        NumPy: ShapeKernels.float_repeat_dim in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_repeat_dim in runtime/backends/kernels/shape.py
        """
        ...

    def int_repeat_dim(self, tensor: Primitive, dim: int, times: int) -> Primitive:
        """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).

        NumPy: ShapeKernels.int_repeat_dim in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_repeat_dim in runtime/backends/kernels/shape.py
        """
        ...

    def bool_repeat_dim(self, tensor: Primitive, dim: int, times: int) -> Primitive:
        """The tensor repeated `times` times along dim, tiled ([a, b] -> [a, b, a, b]).

        NumPy: ShapeKernels.bool_repeat_dim in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_repeat_dim in runtime/backends/kernels/shape.py
        """
        ...

    def float_slice(self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...]) -> Primitive:
        """The elements in `slices`, one per leading dim (ints keep their dim with size 1).

        NumPy: ShapeKernels.float_slice in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_slice in runtime/backends/kernels/shape.py
        """
        ...

    def int_slice(self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...]) -> Primitive:
        """The elements in `slices`, one per leading dim (ints keep their dim with size 1).

        NumPy: ShapeKernels.int_slice in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_slice in runtime/backends/kernels/shape.py
        """
        ...

    def bool_slice(self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...]) -> Primitive:
        """The elements in `slices`, one per leading dim (ints keep their dim with size 1).

        NumPy: ShapeKernels.bool_slice in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_slice in runtime/backends/kernels/shape.py
        """
        ...

    def float_slice_assign(
        self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...], value: Primitive
    ) -> Primitive:
        """A copy of the tensor with the elements in `slices` replaced by `value`.

        NumPy: ShapeKernels.float_slice_assign in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_slice_assign in runtime/backends/kernels/shape.py
        """
        ...

    def int_slice_assign(
        self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...], value: Primitive
    ) -> Primitive:
        """A copy of the tensor with the elements in `slices` replaced by `value`.

        NumPy: ShapeKernels.int_slice_assign in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_slice_assign in runtime/backends/kernels/shape.py
        """
        ...

    def bool_slice_assign(
        self, tensor: Primitive, slices: tuple[tuple[int, int, int], ...], value: Primitive
    ) -> Primitive:
        """A copy of the tensor with the elements in `slices` replaced by `value`.

        NumPy: ShapeKernels.bool_slice_assign in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_slice_assign in runtime/backends/kernels/shape.py
        """
        ...

    def float_cat(self, tensors: list[Primitive], dim: int) -> Primitive:
        """The tensors joined along dim (every other dim must match).

        NumPy: ShapeKernels.float_cat in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_cat in runtime/backends/kernels/shape.py
        """
        ...

    def int_cat(self, tensors: list[Primitive], dim: int) -> Primitive:
        """The tensors joined along dim (every other dim must match).

        NumPy: ShapeKernels.int_cat in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_cat in runtime/backends/kernels/shape.py
        """
        ...

    def bool_cat(self, tensors: list[Primitive], dim: int) -> Primitive:
        """The tensors joined along dim (every other dim must match).

        NumPy: ShapeKernels.bool_cat in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_cat in runtime/backends/kernels/shape.py
        """
        ...

    def float_unfold(self, tensor: Primitive, dim: int, size: int, step: int) -> Primitive:
        """Windows of `size` every `step` along dim, as [pre, windows, post, size].

        NumPy: ShapeKernels.float_unfold in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.float_unfold in runtime/backends/kernels/shape.py
        """
        ...

    def int_unfold(self, tensor: Primitive, dim: int, size: int, step: int) -> Primitive:
        """Windows of `size` every `step` along dim, as [pre, windows, post, size].

        NumPy: ShapeKernels.int_unfold in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.int_unfold in runtime/backends/kernels/shape.py
        """
        ...

    def bool_unfold(self, tensor: Primitive, dim: int, size: int, step: int) -> Primitive:
        """Windows of `size` every `step` along dim, as [pre, windows, post, size].

        NumPy: ShapeKernels.bool_unfold in runtime/backends/kernels/shape.py
        Torch: ShapeKernels.bool_unfold in runtime/backends/kernels/shape.py
        """
        ...

    def float_cast(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """The tensor in another float dtype (the gradient is cast back).

        NumPy: ConvertKernels.float_cast in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.float_cast in runtime/backends/kernels/convert.py
        """
        ...

    def int_cast(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """The tensor in another int dtype.

        NumPy: ConvertKernels.int_cast in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.int_cast in runtime/backends/kernels/convert.py
        """
        ...

    def float_gather(self, dim: int, tensor: Primitive, indices: Primitive) -> Primitive:
        """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).

        NumPy: IndexingKernels.float_gather in runtime/backends/kernels/indexing.py
        Torch: TorchBackend.float_gather in runtime/backends/torch.py
        """
        ...

    def int_gather(self, dim: int, tensor: Primitive, indices: Primitive) -> Primitive:
        """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).

        NumPy: IndexingKernels.int_gather in runtime/backends/kernels/indexing.py
        Torch: TorchBackend.int_gather in runtime/backends/torch.py
        """
        ...

    def bool_gather(self, dim: int, tensor: Primitive, indices: Primitive) -> Primitive:
        """Reads tensor at `indices` along dim (indices have the tensor's shape but in dim).

        NumPy: IndexingKernels.bool_gather in runtime/backends/kernels/indexing.py
        Torch: TorchBackend.bool_gather in runtime/backends/torch.py
        """
        ...

    def float_scatter(
        self,
        dim: int,
        tensor: Primitive,
        indices: Primitive,
        value: Primitive,
        update: IndexingUpdateOp,
    ) -> Primitive:
        """A copy with tensor at `indices` along dim (update)= value (update assign or add).

        NumPy: IndexingKernels.float_scatter in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_scatter in runtime/backends/kernels/indexing.py
        """
        ...

    def int_scatter(
        self,
        dim: int,
        tensor: Primitive,
        indices: Primitive,
        value: Primitive,
        update: IndexingUpdateOp,
    ) -> Primitive:
        """A copy with tensor at `indices` along dim (update)= value (update assign or add).

        NumPy: IndexingKernels.int_scatter in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_scatter in runtime/backends/kernels/indexing.py
        """
        ...

    def float_scatter_add(
        self, dim: int, tensor: Primitive, indices: Primitive, value: Primitive
    ) -> Primitive:
        """scatter with update add (repeated indices accumulate).

        NumPy: IndexingKernels.float_scatter_add in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_scatter_add in runtime/backends/kernels/indexing.py
        """
        ...

    def int_scatter_add(
        self, dim: int, tensor: Primitive, indices: Primitive, value: Primitive
    ) -> Primitive:
        """scatter with update add (repeated indices accumulate).

        NumPy: IndexingKernels.int_scatter_add in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_scatter_add in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_scatter_or(
        self, dim: int, tensor: Primitive, indices: Primitive, value: Primitive
    ) -> Primitive:
        """scatter with logical or (burn's update add on bools).

        NumPy: IndexingKernels.bool_scatter_or in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_scatter_or in runtime/backends/kernels/indexing.py
        """
        ...

    def float_select(self, tensor: Primitive, dim: int, indices: Primitive) -> Primitive:
        """The slices of dim at the 1-D `indices`, in their order (repeats allowed).

        NumPy: IndexingKernels.float_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_select in runtime/backends/kernels/indexing.py
        """
        ...

    def int_select(self, tensor: Primitive, dim: int, indices: Primitive) -> Primitive:
        """The slices of dim at the 1-D `indices`, in their order (repeats allowed).

        NumPy: IndexingKernels.int_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_select in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_select(self, tensor: Primitive, dim: int, indices: Primitive) -> Primitive:
        """The slices of dim at the 1-D `indices`, in their order (repeats allowed).

        NumPy: IndexingKernels.bool_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_select in runtime/backends/kernels/indexing.py
        """
        ...

    def float_select_assign(
        self,
        tensor: Primitive,
        dim: int,
        indices: Primitive,
        value: Primitive,
        update: IndexingUpdateOp,
    ) -> Primitive:
        """A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add).

        NumPy: IndexingKernels.float_select_assign in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_select_assign in runtime/backends/kernels/indexing.py
        """
        ...

    def int_select_assign(
        self,
        tensor: Primitive,
        dim: int,
        indices: Primitive,
        value: Primitive,
        update: IndexingUpdateOp,
    ) -> Primitive:
        """A copy with the slices of dim at `indices` (update)= the slices of `value` (assign or add).

        NumPy: IndexingKernels.int_select_assign in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_select_assign in runtime/backends/kernels/indexing.py
        """
        ...

    def float_select_add(
        self, tensor: Primitive, dim: int, indices: Primitive, value: Primitive
    ) -> Primitive:
        """select_assign with update add (repeated indices accumulate).

        NumPy: IndexingKernels.float_select_add in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_select_add in runtime/backends/kernels/indexing.py
        """
        ...

    def int_select_add(
        self, tensor: Primitive, dim: int, indices: Primitive, value: Primitive
    ) -> Primitive:
        """select_assign with update add (repeated indices accumulate).

        NumPy: IndexingKernels.int_select_add in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_select_add in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_select_or(
        self, tensor: Primitive, dim: int, indices: Primitive, value: Primitive
    ) -> Primitive:
        """select_assign with logical or (burn's update add on bools).

        NumPy: IndexingKernels.bool_select_or in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_select_or in runtime/backends/kernels/indexing.py
        """
        ...

    def float_mask_where(self, tensor: Primitive, mask: Primitive, value: Primitive) -> Primitive:
        """value where mask is true, else tensor (all three broadcast).

        NumPy: IndexingKernels.float_mask_where in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_mask_where in runtime/backends/kernels/indexing.py
        """
        ...

    def int_mask_where(self, tensor: Primitive, mask: Primitive, value: Primitive) -> Primitive:
        """value where mask is true, else tensor (all three broadcast).

        NumPy: IndexingKernels.int_mask_where in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_mask_where in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_mask_where(self, tensor: Primitive, mask: Primitive, value: Primitive) -> Primitive:
        """value where mask is true, else tensor (all three broadcast).

        NumPy: IndexingKernels.bool_mask_where in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_mask_where in runtime/backends/kernels/indexing.py
        """
        ...

    def float_mask_fill(self, tensor: Primitive, mask: Primitive, value: float) -> Primitive:
        """value where mask is true, else tensor (the mask broadcasts).

        NumPy: NumPyBackend.float_mask_fill in runtime/backends/numpy.py
        Torch: IndexingKernels.float_mask_fill in runtime/backends/kernels/indexing.py
        """
        ...

    def int_mask_fill(self, tensor: Primitive, mask: Primitive, value: float) -> Primitive:
        """value where mask is true, else tensor (the mask broadcasts).

        NumPy: NumPyBackend.int_mask_fill in runtime/backends/numpy.py
        Torch: IndexingKernels.int_mask_fill in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_mask_fill(self, tensor: Primitive, mask: Primitive, value: float) -> Primitive:
        """value where mask is true, else tensor (the mask broadcasts).

        NumPy: NumPyBackend.bool_mask_fill in runtime/backends/numpy.py
        Torch: IndexingKernels.bool_mask_fill in runtime/backends/kernels/indexing.py
        """
        ...

    def float_mask_select(self, tensor: Primitive, mask: Primitive) -> Primitive:
        """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).

        NumPy: IndexingKernels.float_mask_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_mask_select in runtime/backends/kernels/indexing.py
        """
        ...

    def int_mask_select(self, tensor: Primitive, mask: Primitive) -> Primitive:
        """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).

        NumPy: IndexingKernels.int_mask_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_mask_select in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_mask_select(self, tensor: Primitive, mask: Primitive) -> Primitive:
        """The elements where mask (of the tensor's shape) is true, as 1-D (data-dependent length).

        NumPy: IndexingKernels.bool_mask_select in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_mask_select in runtime/backends/kernels/indexing.py
        """
        ...

    def float_gather_nd(self, data: Primitive, indices: Primitive) -> Primitive:
        """The slices of data at n-d indices (the last dim of indices indexes data's first dims).

        NumPy: IndexingKernels.float_gather_nd in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_gather_nd in runtime/backends/kernels/indexing.py
        """
        ...

    def int_gather_nd(self, data: Primitive, indices: Primitive) -> Primitive:
        """The slices of data at n-d indices (the last dim of indices indexes data's first dims).

        NumPy: IndexingKernels.int_gather_nd in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_gather_nd in runtime/backends/kernels/indexing.py
        """
        ...

    def float_scatter_nd(
        self, data: Primitive, indices: Primitive, values: Primitive, reduction: IndexingUpdateOp
    ) -> Primitive:
        """A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add).

        NumPy: IndexingKernels.float_scatter_nd in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.float_scatter_nd in runtime/backends/kernels/indexing.py
        """
        ...

    def int_scatter_nd(
        self, data: Primitive, indices: Primitive, values: Primitive, reduction: IndexingUpdateOp
    ) -> Primitive:
        """A copy of data with its slices at n-d indices (reduction)= values (unique indices but for add).

        NumPy: IndexingKernels.int_scatter_nd in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.int_scatter_nd in runtime/backends/kernels/indexing.py
        """
        ...

    def bool_argwhere(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """The indices of the true elements, one row each, shape [count, rank].

        NumPy: IndexingKernels.bool_argwhere in runtime/backends/kernels/indexing.py
        Torch: IndexingKernels.bool_argwhere in runtime/backends/kernels/indexing.py
        """
        ...

    def float_grid_sample_2d(
        self, tensor: Primitive, grid: Primitive, mode: str, padding_mode: str, align_corners: bool
    ) -> Primitive:
        """Samples [n, c, h, w] at grid [n, h', w', 2] (x, y in [-1, 1]) by mode, outside points by padding_mode (bicubic: not supported, as burn's backends).

        NumPy: GridSampleKernels.float_grid_sample_2d in runtime/backends/kernels/grid_sample.py
        Torch: GridSampleKernels.float_grid_sample_2d in runtime/backends/kernels/grid_sample.py
        """
        ...

    def float_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs == rhs.

        NumPy: ArithmeticKernels.float_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs == scalar.

        NumPy: ArithmeticKernels.float_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_not_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs != scalar.

        NumPy: ArithmeticKernels.float_not_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_not_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_greater(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs > rhs.

        NumPy: ArithmeticKernels.float_greater in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_greater in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_greater_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs > scalar.

        NumPy: ArithmeticKernels.float_greater_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_greater_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_lower(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs < rhs.

        NumPy: ArithmeticKernels.float_lower in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_lower in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_lower_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs < scalar.

        NumPy: ArithmeticKernels.float_lower_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_lower_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_not_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs != rhs.

        NumPy: ArithmeticKernels.float_not_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_not_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_greater_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs >= rhs.

        NumPy: ArithmeticKernels.float_greater_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_greater_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_greater_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs >= scalar.

        NumPy: ArithmeticKernels.float_greater_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_greater_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_lower_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs <= rhs.

        NumPy: ArithmeticKernels.float_lower_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_lower_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_lower_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs <= scalar.

        NumPy: ArithmeticKernels.float_lower_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.float_lower_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_is_nan(self, tensor: Primitive) -> Primitive:
        """Element-wise x is NaN.

        NumPy: NumPyBackend.float_is_nan in runtime/backends/numpy.py
        Torch: TorchBackend.float_is_nan in runtime/backends/torch.py
        """
        ...

    def float_is_inf(self, tensor: Primitive) -> Primitive:
        """Element-wise x is +inf or -inf.

        NumPy: NumPyBackend.float_is_inf in runtime/backends/numpy.py
        Torch: TorchBackend.float_is_inf in runtime/backends/torch.py
        """
        ...

    def int_add(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise sum of ints, broadcasting.

        NumPy: NumPyBackend.int_add in runtime/backends/numpy.py
        Torch: TorchBackend.int_add in runtime/backends/torch.py
        """
        ...

    def int_add_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Adds an int to every element.

        NumPy: NumPyBackend.int_add_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.int_add_scalar in runtime/backends/torch.py
        """
        ...

    def int_mul(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise product of ints, broadcasting.

        NumPy: NumPyBackend.int_mul in runtime/backends/numpy.py
        Torch: TorchBackend.int_mul in runtime/backends/torch.py
        """
        ...

    def int_mul_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Multiplies every element by an int.

        NumPy: NumPyBackend.int_mul_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.int_mul_scalar in runtime/backends/torch.py
        """
        ...

    def int_sum(self, tensor: Primitive) -> Primitive:
        """Sum of all elements, shape [1].

        NumPy: ReduceKernels.int_sum in runtime/backends/kernels/reduce.py
        Torch: TorchBackend.int_sum in runtime/backends/torch.py
        """
        ...

    def int_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs == rhs.

        NumPy: ArithmeticKernels.int_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_not_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs != scalar.

        NumPy: ArithmeticKernels.int_not_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_not_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_greater_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs > scalar.

        NumPy: ArithmeticKernels.int_greater_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_greater_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_sub(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise difference of ints, broadcasting.

        NumPy: NumPyBackend.int_sub in runtime/backends/numpy.py
        Torch: TorchBackend.int_sub in runtime/backends/torch.py
        """
        ...

    def int_sub_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Subtracts an int from every element.

        NumPy: NumPyBackend.int_sub_scalar in runtime/backends/numpy.py
        Torch: TorchBackend.int_sub_scalar in runtime/backends/torch.py
        """
        ...

    def int_div(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise quotient of ints, truncated toward zero (as burn, not Python's //).

        NumPy: ArithmeticKernels.int_div in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_div in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_div_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Divides every element by an int, truncating toward zero.

        NumPy: ArithmeticKernels.int_div_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_div_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_remainder(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise remainder with the divisor's sign (Python's %), broadcasting.

        NumPy: ArithmeticKernels.int_remainder in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_remainder in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_remainder_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Remainder of every element by an int, with the int's sign.

        NumPy: ArithmeticKernels.int_remainder_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_remainder_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_neg(self, tensor: Primitive) -> Primitive:
        """Element-wise negation.

        NumPy: ArithmeticKernels.int_neg in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_neg in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_abs(self, tensor: Primitive) -> Primitive:
        """Element-wise absolute value.

        NumPy: NumPyBackend.int_abs in runtime/backends/numpy.py
        Torch: TorchBackend.int_abs in runtime/backends/torch.py
        """
        ...

    def int_sign(self, tensor: Primitive) -> Primitive:
        """Element-wise sign (-1, 0 or 1).

        NumPy: NumPyBackend.int_sign in runtime/backends/numpy.py
        Torch: TorchBackend.int_sign in runtime/backends/torch.py
        """
        ...

    def int_square(self, tensor: Primitive) -> Primitive:
        """Element-wise x * x.

        NumPy: ArithmeticKernels.int_square in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_square in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_powi(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs ** rhs; a negative exponent truncates as burn's float route (2 ** -1 == 0).

        NumPy: ArithmeticKernels.int_powi in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_powi in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_powi_scalar_impl(self, lhs: Primitive, rhs: float) -> Primitive:
        """The generic case of int_powi_scalar; a negative exponent truncates as burn's float route.

        NumPy: ArithmeticKernels.int_powi_scalar_impl in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_powi_scalar_impl in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_clamp(self, tensor: Primitive, min: float, max: float) -> Primitive:
        """Clamps every element into [min, max].

        NumPy: ArithmeticKernels.int_clamp in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_clamp in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_clamp_min(self, tensor: Primitive, min: float) -> Primitive:
        """Raises every element below `min` to `min`.

        NumPy: ArithmeticKernels.int_clamp_min in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_clamp_min in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_clamp_max(self, tensor: Primitive, max: float) -> Primitive:
        """Lowers every element above `max` to `max`.

        NumPy: ArithmeticKernels.int_clamp_max in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_clamp_max in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_matmul(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Matrix product of ints over the last two dims, broadcasting the batch dims.

        NumPy: ArithmeticKernels.int_matmul in runtime/backends/kernels/arithmetic.py
        Torch: TorchBackend.int_matmul in runtime/backends/torch.py
        """
        ...

    def bitwise_and(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise bitwise and, broadcasting.

        NumPy: ArithmeticKernels.bitwise_and in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_and in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_and_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Bitwise and of every element with an int.

        NumPy: ArithmeticKernels.bitwise_and_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_and_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_or(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise bitwise or, broadcasting.

        NumPy: ArithmeticKernels.bitwise_or in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_or in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_or_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Bitwise or of every element with an int.

        NumPy: ArithmeticKernels.bitwise_or_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_or_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_xor(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise bitwise exclusive or, broadcasting.

        NumPy: ArithmeticKernels.bitwise_xor in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_xor in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_xor_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Bitwise exclusive or of every element with an int.

        NumPy: ArithmeticKernels.bitwise_xor_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_xor_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_not(self, tensor: Primitive) -> Primitive:
        """Element-wise bitwise not (~x == -x - 1).

        NumPy: ArithmeticKernels.bitwise_not in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_not in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_left_shift(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs << rhs, broadcasting.

        NumPy: ArithmeticKernels.bitwise_left_shift in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_left_shift in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_left_shift_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Shifts every element left by an int.

        NumPy: ArithmeticKernels.bitwise_left_shift_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_left_shift_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_right_shift(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs >> rhs (arithmetic, keeping the sign), broadcasting.

        NumPy: ArithmeticKernels.bitwise_right_shift in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_right_shift in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bitwise_right_shift_scalar(self, lhs: Primitive, rhs: float) -> Primitive:
        """Shifts every element right by an int (arithmetic).

        NumPy: ArithmeticKernels.bitwise_right_shift_scalar in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bitwise_right_shift_scalar in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs == scalar.

        NumPy: ArithmeticKernels.int_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_not_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs != rhs.

        NumPy: ArithmeticKernels.int_not_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_not_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_greater(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs > rhs.

        NumPy: ArithmeticKernels.int_greater in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_greater in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_greater_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs >= rhs.

        NumPy: ArithmeticKernels.int_greater_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_greater_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_greater_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs >= scalar.

        NumPy: ArithmeticKernels.int_greater_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_greater_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_lower(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs < rhs.

        NumPy: ArithmeticKernels.int_lower in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_lower in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_lower_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs < scalar.

        NumPy: ArithmeticKernels.int_lower_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_lower_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_lower_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs <= rhs.

        NumPy: ArithmeticKernels.int_lower_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_lower_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def int_lower_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs <= scalar.

        NumPy: ArithmeticKernels.int_lower_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.int_lower_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_not(self, tensor: Primitive) -> Primitive:
        """Element-wise logical not.

        NumPy: ArithmeticKernels.bool_not in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_not in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_and(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise logical and.

        NumPy: ArithmeticKernels.bool_and in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_and in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_or(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise logical or.

        NumPy: ArithmeticKernels.bool_or in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_or in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs == rhs.

        NumPy: ArithmeticKernels.bool_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_xor(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise logical exclusive or.

        NumPy: ArithmeticKernels.bool_xor in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_xor in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_not_equal(self, lhs: Primitive, rhs: Primitive) -> Primitive:
        """Element-wise lhs != rhs.

        NumPy: ArithmeticKernels.bool_not_equal in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_not_equal in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs == a bool.

        NumPy: ArithmeticKernels.bool_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def bool_not_equal_elem(self, lhs: Primitive, rhs: float) -> Primitive:
        """Element-wise lhs != a bool.

        NumPy: ArithmeticKernels.bool_not_equal_elem in runtime/backends/kernels/arithmetic.py
        Torch: ArithmeticKernels.bool_not_equal_elem in runtime/backends/kernels/arithmetic.py
        """
        ...

    def float_into_int(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """Truncates toward zero into an int tensor.

        NumPy: ConvertKernels.float_into_int in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.float_into_int in runtime/backends/kernels/convert.py
        """
        ...

    def float_bitcast(self, tensor: Primitive) -> Primitive:
        """The bits of each value read as an int of the same width (float32 -> int32, float64 -> int64), as ONNX's BitCast and numpy's view.

        NumPy: ConvertKernels.float_bitcast in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.float_bitcast in runtime/backends/kernels/convert.py
        """
        ...

    def bool_into_int(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """true -> 1, false -> 0.

        NumPy: ConvertKernels.bool_into_int in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.bool_into_int in runtime/backends/kernels/convert.py
        """
        ...

    def int_into_float(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """Converts into a float tensor (an untracked leaf on an autodiff device).

        NumPy: ConvertKernels.int_into_float in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.int_into_float in runtime/backends/kernels/convert.py
        """
        ...

    def int_bitcast(self, tensor: Primitive) -> Primitive:
        """The bits of each value read as a float of the same width (int32 -> float32, int64 -> float64), as ONNX's BitCast and numpy's view.

        NumPy: ConvertKernels.int_bitcast in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.int_bitcast in runtime/backends/kernels/convert.py
        """
        ...

    def bool_into_float(self, tensor: Primitive, dtype: np.dtype) -> Primitive:
        """true -> 1.0, false -> 0.0 (an untracked leaf on an autodiff device).

        NumPy: ConvertKernels.bool_into_float in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.bool_into_float in runtime/backends/kernels/convert.py
        """
        ...

    def float_to_device(self, tensor: Primitive, device: Any) -> Primitive:
        """The tensor on `device` (plain -> autodiff makes an untracked leaf; autodiff -> plain detaches).

        NumPy: NumPyBackend.float_to_device in runtime/backends/numpy.py
        Torch: TorchBackend.float_to_device in runtime/backends/torch.py
        """
        ...

    def int_to_device(self, tensor: Primitive, device: Any) -> Primitive:
        """The tensor on `device`.

        NumPy: NumPyBackend.int_to_device in runtime/backends/numpy.py
        Torch: TorchBackend.int_to_device in runtime/backends/torch.py
        """
        ...

    def bool_to_device(self, tensor: Primitive, device: Any) -> Primitive:
        """The tensor on `device`.

        NumPy: NumPyBackend.bool_to_device in runtime/backends/numpy.py
        Torch: TorchBackend.bool_to_device in runtime/backends/torch.py
        """
        ...

    def embedding(self, weights: Primitive, indices: Primitive) -> Primitive:
        """The rows of weights [n, d] that indices [b, s] select: [b, s, d].

        NumPy: LinearKernels.embedding in runtime/backends/kernels/linear.py
        Torch: LinearKernels.embedding in runtime/backends/kernels/linear.py
        """
        ...

    def linear(self, input: Primitive, weight: Primitive, bias: Primitive | None) -> Primitive:
        """input [..., d_in] @ weight [d_in, d_out] (+ bias [d_out]): burn's layout, not torch's transposed one.

        NumPy: NumPyBackend.linear in runtime/backends/numpy.py
        Torch: TorchBackend.linear in runtime/backends/torch.py
        """
        ...

    def conv1d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int],
        padding: tuple[int],
        dilation: tuple[int],
        groups: int,
        padding_end: tuple[int] | None,
    ) -> Primitive:
        """A 1-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None).

        NumPy: NumPyConvKernels.conv1d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv1d in runtime/backends/torch_conv.py
        """
        ...

    def conv2d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int, int],
        padding: tuple[int, int],
        dilation: tuple[int, int],
        groups: int,
        padding_end: tuple[int, int] | None,
    ) -> Primitive:
        """A 2-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None).

        NumPy: NumPyConvKernels.conv2d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv2d in runtime/backends/torch_conv.py
        """
        ...

    def conv3d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int, int, int],
        padding: tuple[int, int, int],
        dilation: tuple[int, int, int],
        groups: int,
        padding_end: tuple[int, int, int] | None,
    ) -> Primitive:
        """A 3-d convolution of x [b, c_in, ...] by weight [c_out, c_in / groups, ...] (padding before, padding_end after: symmetric when None).

        NumPy: NumPyConvKernels.conv3d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv3d in runtime/backends/torch_conv.py
        """
        ...

    def conv_transpose1d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int],
        padding: tuple[int],
        padding_out: tuple[int],
        dilation: tuple[int],
        groups: int,
    ) -> Primitive:
        """A 1-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn).

        NumPy: NumPyConvKernels.conv_transpose1d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv_transpose1d in runtime/backends/torch_conv.py
        """
        ...

    def conv_transpose2d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int, int],
        padding: tuple[int, int],
        padding_out: tuple[int, int],
        dilation: tuple[int, int],
        groups: int,
    ) -> Primitive:
        """A 2-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn).

        NumPy: NumPyConvKernels.conv_transpose2d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv_transpose2d in runtime/backends/torch_conv.py
        """
        ...

    def conv_transpose3d(
        self,
        x: Primitive,
        weight: Primitive,
        bias: Primitive | None,
        stride: tuple[int, int, int],
        padding: tuple[int, int, int],
        padding_out: tuple[int, int, int],
        dilation: tuple[int, int, int],
        groups: int,
    ) -> Primitive:
        """A 3-d transposed convolution of x [b, c_in, ...] by weight [c_in, c_out / groups, ...] (padding_out >= stride allowed, as burn).

        NumPy: NumPyConvKernels.conv_transpose3d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.conv_transpose3d in runtime/backends/torch_conv.py
        """
        ...

    def unfold4d(
        self,
        x: Primitive,
        kernel_size: tuple[int, int],
        stride: tuple[int, int],
        padding: tuple[int, int],
        dilation: tuple[int, int],
    ) -> Primitive:
        """The sliding blocks of x [b, c, h, w] as columns: [b, c * kh * kw, blocks].

        NumPy: NumPyConvKernels.unfold4d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.unfold4d in runtime/backends/torch_conv.py
        """
        ...

    def fold4d(
        self,
        x: Primitive,
        output_size: tuple[int, int],
        kernel_size: tuple[int, int],
        stride: tuple[int, int],
        padding: tuple[int, int],
        dilation: tuple[int, int],
    ) -> Primitive:
        """The inverse of unfold4d: columns [b, c * kh * kw, blocks] summed back into [b, c, h, w].

        NumPy: NumPyConvKernels.fold4d in runtime/backends/numpy_conv.py
        Torch: TorchConvKernels.fold4d in runtime/backends/torch_conv.py
        """
        ...

    def max_pool1d(
        self,
        x: Primitive,
        kernel_size: tuple[int],
        stride: tuple[int] | None,
        padding: tuple[int],
        dilation: tuple[int],
        ceil_mode: bool,
    ) -> Primitive:
        """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf).

        NumPy: NumPyPoolKernels.max_pool1d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.max_pool1d in runtime/backends/torch_pool.py
        """
        ...

    def max_pool1d_with_indices(
        self,
        x: Primitive,
        kernel_size: tuple[int],
        stride: tuple[int] | None,
        padding: tuple[int],
        dilation: tuple[int],
        ceil_mode: bool,
    ) -> tuple[Primitive, Primitive]:
        """The maximum of each 1-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum.

        NumPy: NumPyPoolKernels.max_pool1d_with_indices in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.max_pool1d_with_indices in runtime/backends/torch_pool.py
        """
        ...

    def max_pool2d(
        self,
        x: Primitive,
        kernel_size: tuple[int, int],
        stride: tuple[int, int] | None,
        padding: tuple[int, int],
        dilation: tuple[int, int],
        ceil_mode: bool,
    ) -> Primitive:
        """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf).

        NumPy: NumPyPoolKernels.max_pool2d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.max_pool2d in runtime/backends/torch_pool.py
        """
        ...

    def max_pool2d_with_indices(
        self,
        x: Primitive,
        kernel_size: tuple[int, int],
        stride: tuple[int, int] | None,
        padding: tuple[int, int],
        dilation: tuple[int, int],
        ceil_mode: bool,
    ) -> tuple[Primitive, Primitive]:
        """The maximum of each 2-d window of x (stride None: kernel_size; padding counts as -inf) and the flat index (h * W + w) of each maximum.

        NumPy: NumPyPoolKernels.max_pool2d_with_indices in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.max_pool2d_with_indices in runtime/backends/torch_pool.py
        """
        ...

    def avg_pool1d(
        self,
        x: Primitive,
        kernel_size: tuple[int],
        stride: tuple[int] | None,
        padding: tuple[int],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> Primitive:
        """The mean of each 1-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor).

        NumPy: NumPyPoolKernels.avg_pool1d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.avg_pool1d in runtime/backends/torch_pool.py
        """
        ...

    def avg_pool2d(
        self,
        x: Primitive,
        kernel_size: tuple[int, int],
        stride: tuple[int, int] | None,
        padding: tuple[int, int],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> Primitive:
        """The mean of each 2-d window of x (stride None: kernel_size; count_include_pad: padding counts in the divisor).

        NumPy: NumPyPoolKernels.avg_pool2d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.avg_pool2d in runtime/backends/torch_pool.py
        """
        ...

    def adaptive_avg_pool1d(self, x: Primitive, output_size: tuple[int]) -> Primitive:
        """The mean of each of output_size 1-d windows spanning x (burn's start/end index formulas).

        NumPy: NumPyPoolKernels.adaptive_avg_pool1d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.adaptive_avg_pool1d in runtime/backends/torch_pool.py
        """
        ...

    def adaptive_avg_pool2d(self, x: Primitive, output_size: tuple[int, int]) -> Primitive:
        """The mean of each of output_size 2-d windows spanning x (burn's start/end index formulas).

        NumPy: NumPyPoolKernels.adaptive_avg_pool2d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.adaptive_avg_pool2d in runtime/backends/torch_pool.py
        """
        ...

    def adaptive_avg_pool3d(self, x: Primitive, output_size: tuple[int, int, int]) -> Primitive:
        """The mean of each of output_size 3-d windows spanning x (burn's start/end index formulas).

        NumPy: NumPyPoolKernels.adaptive_avg_pool3d in runtime/backends/numpy_pool.py
        Torch: TorchPoolKernels.adaptive_avg_pool3d in runtime/backends/torch_pool.py
        """
        ...

    def interpolate(
        self, x: Primitive, output_size: tuple[int, int], mode: str, align_corners: bool
    ) -> Primitive:
        """Resizes [b, c, h, w] to output_size (h', w') by the mode's kernel (burn's InterpolateOptions).

        NumPy: InterpolateKernels.interpolate in runtime/backends/kernels/interpolate.py
        Torch: InterpolateKernels.interpolate in runtime/backends/kernels/interpolate.py
        """
        ...

    def attention(
        self,
        query: Primitive,
        key: Primitive,
        value: Primitive,
        mask: Primitive | None,
        attn_bias: Primitive | None,
        scale: float | None,
        softcap: float | None,
        is_causal: bool,
    ) -> Primitive:
        """Scaled dot-product attention: softmax(q k^T * scale (softcapped, biased, masked)) v; a fully masked row gives 0.

        NumPy: AttentionKernels.attention in runtime/backends/kernels/attention.py
        Torch: TorchBackend.attention in runtime/backends/torch.py
        """
        ...

    def batch_norm(
        self,
        input: Primitive,
        gamma: Primitive,
        beta: Primitive,
        mean: Primitive,
        variance: Primitive,
        epsilon: float,
    ) -> Primitive:
        """Normalises each channel (dim 1) with the given statistics, then scales by gamma and shifts by beta.

        NumPy: NormKernels.batch_norm in runtime/backends/kernels/norm.py
        Torch: NormKernels.batch_norm in runtime/backends/kernels/norm.py
        """
        ...

    def batch_norm_training(
        self, input: Primitive, gamma: Primitive, beta: Primitive, epsilon: float
    ) -> tuple[Primitive, Primitive, Primitive]:
        """Batch norm with the batch's own statistics (training): (output, mean, variance), each channel (dim 1) normalised by its mean and biased variance over every other dim, then scaled by gamma and shifted by beta; one pass per statistic, and a backward of three.

        NumPy: NormKernels.batch_norm_training in runtime/backends/kernels/norm.py
        Torch: TorchBackend.batch_norm_training in runtime/backends/torch.py
        """
        ...

    def layer_norm(
        self, input: Primitive, gamma: Primitive, beta: Primitive | None, epsilon: float
    ) -> Primitive:
        """Normalises over the last dim (biased variance), then scales by gamma and shifts by beta.

        NumPy: NumPyNormKernels.layer_norm in runtime/backends/numpy_norm.py
        Torch: TorchBackend.layer_norm in runtime/backends/torch.py
        """
        ...

    def rms_norm(self, input: Primitive, gamma: Primitive, epsilon: float) -> Primitive:
        """Root-mean-square norm over the last dim: input / sqrt(mean(input²) + epsilon), scaled by gamma (burn's RmsNorm).

        NumPy: NumPyNormKernels.rms_norm in runtime/backends/numpy_norm.py
        Torch: TorchBackend.rms_norm in runtime/backends/torch.py
        """
        ...

    def ctc_loss(
        self,
        log_probs: Primitive,
        targets: Primitive,
        input_lengths: Primitive,
        target_lengths: Primitive,
        blank: int,
    ) -> Primitive:
        """The CTC loss of each sample [N] from log-probabilities [T, N, C]; an unreachable target costs +inf (gradient 0).

        NumPy: CtcKernels.ctc_loss in runtime/backends/kernels/ctc.py
        Torch: CtcKernels.ctc_loss in runtime/backends/kernels/ctc.py
        """
        ...

    def cross_entropy_class_targets(self, logits: Primitive, targets: Primitive) -> Primitive:
        """The mean over the batch of -log_softmax(logits)[i, targets[i]], a [1] tensor, from logits [batch, classes] and class indices [batch]; its gradient is (softmax - one-hot) / batch.

        NumPy: NumPyBackend.cross_entropy_class_targets in runtime/backends/numpy.py
        Torch: TorchBackend.cross_entropy_class_targets in runtime/backends/torch.py
        """
        ...

    def rfft(self, signal: Primitive, dim: int, n: int | None) -> tuple[Primitive, Primitive]:
        """The real FFT along dim (length, or n, a power of two) as (real part, imaginary part).

        NumPy: FftKernels.rfft in runtime/backends/kernels/fft.py
        Torch: FftKernels.rfft in runtime/backends/kernels/fft.py
        """
        ...

    def irfft(
        self, spectrum_re: Primitive, spectrum_im: Primitive, dim: int, n: int | None
    ) -> Primitive:
        """The inverse of rfft along dim, a real signal of length n (default 2 * (bins - 1)).

        NumPy: FftKernels.irfft in runtime/backends/kernels/fft.py
        Torch: FftKernels.irfft in runtime/backends/kernels/fft.py
        """
        ...

    def fft(self, signal: Primitive, dim: int, inverse: bool) -> Primitive:
        """The complex DFT along dim (any length) of a signal [..., 2] of real and imaginary parts, as numpy.fft.fft (inverse: ifft), in the signal's dtype.

        NumPy: FftKernels.fft in runtime/backends/kernels/fft.py
        Torch: FftKernels.fft in runtime/backends/kernels/fft.py
        """
        ...

    def deform_conv2d(
        self,
        x: Primitive,
        offset: Primitive,
        weight: Primitive,
        mask: Primitive | None,
        bias: Primitive | None,
        stride: tuple[int, int],
        padding: tuple[int, int],
        dilation: tuple[int, int],
        weight_groups: int,
        offset_groups: int,
    ) -> Primitive:
        """A 2-D convolution whose taps are displaced by learned offsets (bilinear sampling) and scaled by an optional mask.

        NumPy: DeformKernels.deform_conv2d in runtime/backends/kernels/deform.py
        Torch: DeformKernels.deform_conv2d in runtime/backends/kernels/deform.py
        """
        ...

    def adam_step(
        self,
        param: Primitive,
        grad: Primitive,
        moment_1: Primitive | None,
        moment_2: Primitive | None,
        max_moment_2: Primitive | None,
        lr: float,
        beta_1: float,
        beta_2: float,
        epsilon: float,
        weight_decay: float,
        bias_correction_1: float,
        bias_correction_2: float,
        decoupled: bool,
        cautious: bool,
        amsgrad: bool,
        in_place: bool,
    ) -> tuple[Primitive, Primitive, Primitive, Primitive]:
        """One step of burn's Adam (L2 weight decay) or AdamW (`decoupled`): (param, moment_1, moment_2, max_moment_2); moments left out are zeros; bias_correction_k is 1 - beta_k^t; `in_place` updates param and the moments in their buffers.

        NumPy: NumPyOptimKernels.adam_step in runtime/backends/numpy_optim.py
        Torch: TorchBackend.adam_step in runtime/backends/torch.py
        """
        ...

    def clip_by_norm(self, grad: Primitive, threshold: float) -> Primitive:
        """The gradient scaled by min(1, threshold / (its L2 norm + the dtype's smallest normal)): burn's per-parameter clipping, one pass when it clips.

        NumPy: NumPyBackend.clip_by_norm in runtime/backends/numpy.py
        Torch: TorchBackend.clip_by_norm in runtime/backends/torch.py
        """
        ...

    def sgd_step(
        self,
        param: Primitive,
        grad: Primitive,
        velocity: Primitive | None,
        lr: float,
        momentum: float,
        dampening: float,
        weight_decay: float,
        nesterov: bool,
        in_place: bool,
    ) -> tuple[Primitive, Primitive]:
        """One step of burn's SGD: (param, velocity); g = grad + weight_decay param, the velocity g at first (velocity left out) and momentum velocity + (1 - dampening) g after; without momentum the velocity returned is g, not state; `in_place` updates param and velocity in their buffers.

        NumPy: NumPyOptimKernels.sgd_step in runtime/backends/numpy_optim.py
        Torch: TorchBackend.sgd_step in runtime/backends/torch.py
        """
        ...

    def rmsprop_step(
        self,
        param: Primitive,
        grad: Primitive,
        square_avg: Primitive | None,
        grad_avg: Primitive | None,
        buffer: Primitive | None,
        lr: float,
        alpha: float,
        epsilon: float,
        weight_decay: float,
        momentum: float,
        centered: bool,
        in_place: bool,
    ) -> tuple[Primitive, Primitive, Primitive, Primitive]:
        """One step of burn's RMSProp: (param, square_avg, grad_avg, buffer), averages left out are zeros; grad_avg is state only when `centered`, buffer only with momentum > 0; `in_place` updates param and the averages in their buffers.

        NumPy: OptimKernels.rmsprop_step in runtime/backends/kernels/optim.py
        Torch: OptimKernels.rmsprop_step in runtime/backends/kernels/optim.py
        """
        ...

    def q_from_data(
        self,
        values: np.ndarray,
        scales: np.ndarray,
        scheme: QuantScheme,
        shape: tuple[int, ...] | None,
        device: Any,
    ) -> QuantizedTensor:
        """A quantized tensor from its integer values (unpacked) and its scales, one per block.

        NumPy: QuantizationKernels.q_from_data in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_from_data in runtime/backends/kernels/quantization.py
        """
        ...

    def quantize(
        self, tensor: Primitive, scheme: QuantScheme, scales: Primitive
    ) -> QuantizedTensor:
        """Quantize with the given scales (burn's grid shape: one per block along each dim); drops the history.

        NumPy: QuantizationKernels.quantize in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.quantize in runtime/backends/kernels/quantization.py
        """
        ...

    def dequantize(self, tensor: QuantizedTensor, dtype: np.dtype) -> Primitive:
        """The float values, scale * q (float32 unless `dtype` is given); a plain float tensor is returned unchanged.

        NumPy: QuantizationKernels.dequantize in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.dequantize in runtime/backends/kernels/quantization.py
        """
        ...

    def q_to_device(self, tensor: QuantizedTensor, device: Any) -> QuantizedTensor:
        """The quantized tensor on `device`.

        NumPy: QuantizationKernels.q_to_device in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_to_device in runtime/backends/kernels/quantization.py
        """
        ...

    def q_reshape(self, tensor: QuantizedTensor, shape: tuple[int, ...]) -> QuantizedTensor:
        """The quantized tensor reshaped (per block, quantized anew over the new blocks).

        NumPy: QuantizationKernels.q_reshape in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_reshape in runtime/backends/kernels/quantization.py
        """
        ...

    def q_into_data(self, tensor: QuantizedTensor) -> tuple[np.ndarray, np.ndarray]:
        """The int8 values (unpacked, in the tensor's shape) and the float32 scales, as numpy arrays.

        NumPy: QuantizationKernels.q_into_data in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_into_data in runtime/backends/kernels/quantization.py
        """
        ...

    def q_swap_dims(self, tensor: QuantizedTensor, dim1: int, dim2: int) -> QuantizedTensor:
        """Two dims swapped, on the quantized values.

        NumPy: QuantizationKernels.q_swap_dims in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_swap_dims in runtime/backends/kernels/quantization.py
        """
        ...

    def q_permute(self, tensor: QuantizedTensor, axes: tuple[int, ...]) -> QuantizedTensor:
        """The dims permuted, on the quantized values (and a block's extents).

        NumPy: QuantizationKernels.q_permute in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_permute in runtime/backends/kernels/quantization.py
        """
        ...

    def q_flip(self, tensor: QuantizedTensor, axes: tuple[int, ...]) -> QuantizedTensor:
        """Flipped along the dims, on the quantized values.

        NumPy: QuantizationKernels.q_flip in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.q_flip in runtime/backends/kernels/quantization.py
        """
        ...

    def quantize_dynamic(self, tensor: Primitive, scheme: QuantScheme) -> QuantizedTensor:
        """Quantize with scales from the tensor's range (MinMax calibration, per tensor or per block); drops the history.

        NumPy: QuantizationKernels.quantize_dynamic in runtime/backends/kernels/quantization.py
        Torch: QuantizationKernels.quantize_dynamic in runtime/backends/kernels/quantization.py
        """
        ...

    def move_across(self, tensor: Primitive, target: Any, device: Any) -> Primitive:
        """Moves `tensor` to `device` of the backend `target` (a move between backends).

        NumPy: ConvertKernels.move_across in runtime/backends/kernels/convert.py
        Torch: ConvertKernels.move_across in runtime/backends/kernels/convert.py
        """
        ...


# The kernels whose result's shape depends on their inputs' values (ops.yaml's `data_dependent:
# true`): a captured step refuses them, since a replay could not reuse what follows.
DATA_DEPENDENT: frozenset[str] = frozenset(
    ["float_mask_select", "int_mask_select", "bool_mask_select", "bool_argwhere"]
)
