"""ArrayBackend: every shared kernel, plus the few facts a backend must state about itself."""

import math

from burnpy.runtime.backends.kernels.activation import ActivationKernels
from burnpy.runtime.backends.kernels.arithmetic import ArithmeticKernels
from burnpy.runtime.backends.kernels.attention import AttentionKernels
from burnpy.runtime.backends.kernels.conv import ConvKernels
from burnpy.runtime.backends.kernels.convert import ConvertKernels
from burnpy.runtime.backends.kernels.creation import CreationKernels
from burnpy.runtime.backends.kernels.cross_entropy import CrossEntropyKernels
from burnpy.runtime.backends.kernels.ctc import CtcKernels
from burnpy.runtime.backends.kernels.deform import DeformKernels
from burnpy.runtime.backends.kernels.fft import FftKernels
from burnpy.runtime.backends.kernels.grid_sample import GridSampleKernels
from burnpy.runtime.backends.kernels.indexing import IndexingKernels
from burnpy.runtime.backends.kernels.interpolate import InterpolateKernels
from burnpy.runtime.backends.kernels.keeping import KeepingKernels
from burnpy.runtime.backends.kernels.norm import NormKernels
from burnpy.runtime.backends.kernels.optim import OptimKernels
from burnpy.runtime.backends.kernels.linear import LinearKernels
from burnpy.runtime.backends.kernels.order import OrderKernels
from burnpy.runtime.backends.kernels.quantization import QuantizationKernels
from burnpy.runtime.backends.kernels.reduce import ReduceKernels
from burnpy.runtime.backends.kernels.shape import ShapeKernels


class ArrayBackend(
    CreationKernels,
    ArithmeticKernels,
    ActivationKernels,
    ReduceKernels,
    OrderKernels,
    ShapeKernels,
    IndexingKernels,
    ConvertKernels,
    NormKernels,
    AttentionKernels,
    InterpolateKernels,
    FftKernels,
    CtcKernels,
    CrossEntropyKernels,
    DeformKernels,
    GridSampleKernels,
    LinearKernels,
    ConvKernels,
    OptimKernels,
    KeepingKernels,
    QuantizationKernels,
):
    """A backend over an array library. Subclasses set `name`, `variant`, `xp` and define the
    methods below the line, then override kernels where their library differs."""

    name: str  # as in `dispatch<numpy>`
    variant: str  # the DispatchTensorKind variant
    xp = None  # the array API namespace

    def accumulator(self, dtype):
        """The wider dtype sums and products of `dtype` run in, or None for its own."""
        return None

    def unbroadcast(self, grad, shape):
        """Sum a broadcast gradient back to `shape` (broadcasting, undone)."""
        xp = self.xp
        extra = grad.ndim - len(shape)
        if extra:
            lead = grad.shape[:extra]
            # summing over dims of size 1 (a batch of one) is a reshape: a view, no reduction
            if math.prod(lead) == 1:
                grad = xp.reshape(grad, grad.shape[extra:])
            else:
                grad = xp.sum(grad, axis=tuple(range(extra)))
        have = grad.shape  # once: torch makes a new torch.Size at each `.shape`
        axes = tuple([i for i, n in enumerate(shape) if n == 1 and have[i] != 1])
        return xp.sum(grad, axis=axes, keepdims=True) if axes else grad

    # ------------------------------------------------------------------------------------------
    def seed(self, seed: int) -> None:
        raise NotImplementedError

    def device_of(self, primitive) -> str:
        """burn's name of the primitive's device: `Cpu`, `Cuda(0)`."""
        raise NotImplementedError

    def native_device(self, device: str):
        raise NotImplementedError

    def native_dtype(self, dtype):
        """The library's dtype for a numpy dtype."""
        raise NotImplementedError

    def dtype(self, primitive):
        """The numpy dtype of a primitive."""
        raise NotImplementedError

    def to_numpy(self, primitive):
        raise NotImplementedError

    def from_numpy(self, array, device: str):
        raise NotImplementedError

    def index_update(self, target, index, values, update):
        """`target[index] (update)= values` in place (an IndexingUpdateOp), accumulating over
        repeated indices: the array API has no scatter, so each library says how."""
        raise NotImplementedError
