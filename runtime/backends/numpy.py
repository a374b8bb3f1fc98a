"""The NumPy backend (burn's `Flex` role): primitives are numpy arrays on the CPU.

numpy 2's own namespace is the array API, so the shared kernels run as they are; what is
written here is what numpy does better, or what the standard does not have.
"""

import functools
from types import SimpleNamespace

import numpy as np
import numpy.fft  # a submodule numpy loads lazily: XP below copies only what is loaded

from burnpy.runtime.backends import heap
from burnpy.runtime.backends.array import ArrayBackend
from burnpy.runtime.backends.kernels.creation import check_allocation
from burnpy.runtime.backends.kernels.reduce import rank0_as_vector
from burnpy.runtime.backends.numpy_conv import NumPyConvKernels
from burnpy.runtime.backends.numpy_gelu import NumPyGeluKernels
from burnpy.runtime.backends.numpy_narrow import FLOAT32, finfo, is_bfloat16, is_narrow
from burnpy.runtime.backends.numpy_norm import BLAS_FLOATS, NumPyNormKernels, add_outer
from burnpy.runtime.backends.numpy_optim import NumPyOptimKernels
from burnpy.runtime.backends.numpy_pool import NumPyPoolKernels
from burnpy.runtime.indexing import IndexingUpdateOp

heap.keep_freed_memory()  # a step's buffers, freed, kept for the next step's

# ufunc.at accumulates over repeated indices (plain `a[i] += v` would not); add on bools is or
ACCUMULATE = {
    IndexingUpdateOp.Add: np.add,
    IndexingUpdateOp.Mul: np.multiply,
    IndexingUpdateOp.Min: np.minimum,
    IndexingUpdateOp.Max: np.maximum,
}


# numpy 2's namespace is the array API; only its reductions (np.sum, np.max, ...) and reshape go
# through a Python-level wrapper that costs more than an 8x8 op itself. The kernels get them
# straight from the ufuncs and the array method: the same results (dtypes included), twice as
# fast on small arrays.
XP = SimpleNamespace(**vars(np))
XP.reshape = lambda x, /, shape, *, copy=None: np.asarray(x).reshape(shape)
XP.sum = lambda x, /, *, axis=None, dtype=None, keepdims=False: np.add.reduce(
    x, axis=axis, dtype=dtype, keepdims=keepdims
)
XP.prod = lambda x, /, *, axis=None, dtype=None, keepdims=False: np.multiply.reduce(
    x, axis=axis, dtype=dtype, keepdims=keepdims
)
XP.max = lambda x, /, *, axis=None, keepdims=False: np.maximum.reduce(
    x, axis=axis, keepdims=keepdims
)
XP.min = lambda x, /, *, axis=None, keepdims=False: np.minimum.reduce(
    x, axis=axis, keepdims=keepdims
)
XP.finfo = finfo  # numpy's own does not know bfloat16


class NumPyBackend(
    NumPyNormKernels,
    NumPyGeluKernels,
    NumPyConvKernels,
    NumPyPoolKernels,
    NumPyOptimKernels,
    ArrayBackend,
):
    name = "numpy"
    variant = "NumPy"
    xp = XP

    # -- the kernels that are one function of the array namespace, bound with no frame between
    # the dispatch layer and the library (a kernel the backend does its own way is a method)
    # arithmetic: the ufunc itself (an ndarray operator checks for overrides before calling it)
    float_add = float_add_scalar = int_add = int_add_scalar = staticmethod(np.add)
    float_sub = float_sub_scalar = int_sub = int_sub_scalar = staticmethod(np.subtract)
    float_mul = float_mul_scalar = int_mul = int_mul_scalar = staticmethod(np.multiply)
    float_div = float_div_scalar = staticmethod(np.true_divide)
    float_exp = staticmethod(XP.exp)
    float_log = staticmethod(XP.log)
    float_log1p = staticmethod(XP.log1p)
    float_sqrt = staticmethod(XP.sqrt)
    float_abs = staticmethod(XP.abs)
    int_abs = staticmethod(XP.abs)
    float_sign = staticmethod(XP.sign)
    int_sign = staticmethod(XP.sign)
    # trigonometric and hyperbolic
    float_sin = staticmethod(XP.sin)
    float_cos = staticmethod(XP.cos)
    float_tan = staticmethod(XP.tan)
    float_sinh = staticmethod(XP.sinh)
    float_cosh = staticmethod(XP.cosh)
    float_tanh = staticmethod(XP.tanh)
    float_asin = staticmethod(XP.asin)
    float_acos = staticmethod(XP.acos)
    float_atan = staticmethod(XP.atan)
    float_asinh = staticmethod(XP.asinh)
    float_acosh = staticmethod(XP.acosh)
    float_atanh = staticmethod(XP.atanh)
    # rounding (the array API's round is half to even, as burn's)
    float_round = staticmethod(XP.round)
    float_floor = staticmethod(XP.floor)
    float_ceil = staticmethod(XP.ceil)
    float_trunc = staticmethod(XP.trunc)

    def float_round_to(self, tensor, format, saturate):
        """Through ml_dtypes' narrow float, from float32 (which holds every float16 and
        bfloat16 value), back to the tensor's dtype (which holds every value of the format)."""
        import ml_dtypes  # a second to import: only when a narrow float is asked for

        kind = np.dtype(getattr(ml_dtypes, format))
        values = tensor.astype(np.float32)
        if saturate:
            info = ml_dtypes.finfo(kind)
            values = np.clip(values, np.float32(info.min), np.float32(info.max))
        return values.astype(kind).astype(tensor.dtype)

    # classification
    float_is_nan = staticmethod(XP.isnan)
    float_is_inf = staticmethod(XP.isinf)
    # two-argument element-wise math
    float_atan2 = staticmethod(XP.atan2)
    float_hypot = staticmethod(XP.hypot)

    def __init__(self):
        self.rng = np.random.default_rng()

    def accumulator(self, dtype):
        return FLOAT32 if is_bfloat16(dtype) else None  # bfloat16 sums in float32, as torch's

    # -- what the backend must state ----------------------------------------------------------
    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def device_of(self, primitive) -> str:
        return "Cpu"

    def native_device(self, device: str):
        return "cpu"

    def native_dtype(self, dtype):
        return dtype

    def dtype(self, primitive):
        return primitive.dtype

    def to_numpy(self, primitive):
        return primitive

    def from_numpy(self, array, device: str):
        return np.array(array)

    def index_update(self, target, index, values, update):
        if update is IndexingUpdateOp.Assign:
            target[index] = values
        else:
            ACCUMULATE[update].at(target, index, values)

    # -- kernels numpy does its own way ---------------------------------------------------------
    def softmax(self, tensor, dim):
        # Over rows of memory (the last dim of a C-contiguous float32 or float64 array, as
        # attention's scores are), in one array: fmax's row max (a fifth cheaper than maximum's;
        # a NaN still makes its row's sum, so its row, NaN), the shift by it as a BLAS rank-1
        # update, the row sums of rows up to numpy's pairwise block as a BLAS matrix-vector
        # product with ones (as accurate as numpy's 8 partial sums there, and a fifth of its
        # time over rows this short). 0.7x the shared kernel's time on [16, 4, 64, 64].
        if not (
            dim == tensor.ndim - 1
            and tensor.dtype in (np.float32, np.float64)
            and tensor.size
            and tensor.flags.c_contiguous
        ):
            return super().softmax(tensor, dim)
        rows = tensor.reshape(-1, tensor.shape[-1])
        ones = _summing(rows.shape[1], tensor.dtype)
        out = rows.copy()
        add_outer(out, np.fmax.reduce(rows, axis=1), ones, -1.0)
        np.exp(out, out=out)
        if rows.shape[1] <= PAIRWISE_BLOCK:
            out /= out.dot(ones)[:, None]
        else:
            out /= np.add.reduce(out, axis=1, keepdims=True)
        return out.reshape(tensor.shape)

    # cross-entropy: the shared kernel's arithmetic without numpy's Python-level wrappers
    # (take_along_axis, mean: more than the arithmetic on a [64, 10] batch), the row sums one
    # BLAS product with a vector of ones; the backward in place on its one fresh array, the
    # one-hot a subtraction at each row's target, not a [batch, classes] mask
    def cross_entropy_class_targets(self, logits, targets):
        return self.cross_entropy_class_targets_keeping(logits, targets, keep=False)[0]

    def cross_entropy_class_targets_keeping(self, logits, targets, keep=True):
        """The loss, and (when `keep`) the softmax probabilities for the backward, from the
        forward's exponentials and row sums."""
        rows = self._class_rows(logits, targets)
        shifted = logits - _row_max(logits)
        picked = shifted[rows, targets]  # (before the exponentials take its place)
        exp = np.exp(shifted, out=shifted)
        sums = row_sums(exp)
        losses = np.log(sums)
        losses -= picked
        loss = np.add.reduce(losses, keepdims=True)
        loss /= len(rows)  # (an empty batch: NaN)
        if not keep:
            return loss, None
        exp /= sums[:, None]
        return loss, exp

    def cross_entropy_class_targets_backward(self, logits, targets, grad, probabilities=None):
        """`probabilities`: what the keeping forward kept (only read), else computed again."""
        if probabilities is None:
            probs = np.exp(logits - _row_max(logits))
            probs /= row_sums(probs)[:, None]
        else:
            probs = probabilities.copy()
        probs[np.arange(len(targets)), targets] -= 1
        probs *= grad / max(len(targets), 1)
        return probs

    def _class_rows(self, logits, targets):
        """The row positions of `targets`, a class index per row of logits [batch, classes]
        (indexing with them would broadcast any other shape, so it is refused here)."""
        if logits.ndim != 2 or targets.shape != logits.shape[:1]:
            raise ValueError("cross_entropy_class_targets: logits and targets disagree")
        self._check_range("cross_entropy_class_targets", targets, logits.shape[1], 1)
        return np.arange(len(targets))

    def float_ones(self, shape, device, dtype):
        check_allocation("ones", shape, dtype)
        return _ones(shape, dtype)  # (every backward seeds with one of these)

    def float_from_data(self, data, device, dtype):
        return np.array(data, dtype=dtype)

    def embedding_backward(self, weights, output_grad, indices):
        # np.add.at takes its slow path for rows: instead the
        # rows are sorted by index, each run of one index summed by one reduction, and each
        # sum written once
        flat = indices.reshape(-1)
        rows = output_grad.reshape(-1, weights.shape[1])
        grad = np.zeros(weights.shape, dtype=output_grad.dtype)
        if flat.size == 0:
            return grad
        order = np.argsort(flat, kind="stable")
        ordered = flat[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        grad[ordered[starts]] = np.add.reduceat(rows[order], starts, axis=0)
        return grad

    def softmax_backward(self, output, grad, dim):
        # one temporary, worked in place: three passes where the expression makes four arrays
        product = grad * output
        total = self.float_sum_dim(product, dim)
        np.subtract(grad, total, out=product)
        product *= output
        return product

    def float_mask_fill(self, tensor, mask, value):
        # a copy filled in place: np.where picks every element through the mask, twice the
        # time on an attention's causal mask. A mask that would widen the tensor goes to it.
        if np.broadcast_shapes(mask.shape, tensor.shape) != tensor.shape:
            return super().float_mask_fill(tensor, mask, value)
        out = tensor.copy()
        np.copyto(out, out.dtype.type(value), where=mask)
        return out

    int_mask_fill = bool_mask_fill = float_mask_fill

    def _fill_where(self, array, condition, value):
        np.copyto(array, value, where=condition)  # in place: np.where would make a new array
        return array

    int_from_data = bool_from_data = float_from_data

    def float_random(self, shape, distribution, device, dtype):
        check_allocation("random", shape, dtype)
        if distribution.name == "uniform":
            values = self.rng.uniform(distribution.a, distribution.b, size=shape)
        else:
            values = self.rng.normal(distribution.a, distribution.b, size=shape)
        return values.astype(dtype, copy=False)

    def int_random(self, shape, distribution, device, dtype):
        check_allocation("random", shape, dtype)
        # burn samples Uniform(lo, hi) as ints in [lo, hi) and truncates Normal samples
        if distribution.name == "uniform":
            values = self.rng.integers(int(distribution.a), int(distribution.b), size=shape)
        else:
            values = self.rng.normal(distribution.a, distribution.b, size=shape)
        return values.astype(dtype)

    def float_expand(self, tensor, shape):
        # One value spread over a shape (a reduction's gradient, the backward seed): a strided
        # view made in C, 4x cheaper than np.broadcast_to; read-only, as broadcast_to's is.
        if tensor.size == 1 and tensor.flags.c_contiguous and len(shape) >= tensor.ndim:
            view = np.ndarray(shape, tensor.dtype, tensor, strides=(0,) * len(shape))
            view.flags.writeable = False
            return view
        return super().float_expand(tensor, shape)

    def float_mean(self, tensor):
        return self.float_mean_dim(tensor.reshape(-1), 0)

    @rank0_as_vector
    def float_mean_dim(self, tensor, dim):
        # np.mean's Python wrapper costs more than an 8x8 mean; it sums float16 in float32
        if _short_rows(tensor, dim):  # (the BLAS sum of float_sum_dim: a SE block's pool)
            return self.float_sum_dim(tensor, dim) / tensor.dtype.type(tensor.shape[dim])
        wide = FLOAT32 if is_narrow(tensor.dtype) else None
        total = np.add.reduce(tensor, axis=dim, keepdims=True, dtype=wide)
        return (total / tensor.shape[dim]).astype(tensor.dtype, copy=False)

    def float_matmul(self, lhs, rhs):
        # ndarray.dot calls BLAS for every 2-D shape; `@` does not for K=1 outer products, and
        # costs 2.5x more on an 8x8 (np.dot, the function, pays for __array_function__).
        if lhs.ndim == 2 and rhs.ndim == 2:
            return lhs.dot(rhs)
        if rhs.ndim == 2 and lhs.flags.c_contiguous and lhs.dtype in BLAS_FLOATS:
            # a stack of matrices by one matrix (a linear layer over [batch, seq, d]): one BLAS
            # product over all their rows, where `@` makes one per matrix of the stack
            rows = lhs.reshape(-1, lhs.shape[-1]).dot(rhs)
            return rows.reshape(lhs.shape[:-1] + rhs.shape[1:])
        out = lhs @ rhs
        return out if out.dtype == lhs.dtype else out.astype(lhs.dtype)  # bfloat16's @ widens

    def clip_by_norm(self, grad, threshold):
        # the scale is read here, on the host: a gradient within the threshold (the common
        # case) comes back as it is, with no pass over it
        norm = float(self.float_sum(grad * grad)[0]) ** 0.5
        scale = threshold / (norm + float(XP.finfo(grad.dtype).tiny))
        return grad if scale >= 1.0 else grad * grad.dtype.type(scale)

    def float_sum_dim(self, tensor, dim):
        # over a short, contiguous last dim the same BLAS dot, one per row (numpy's reduce
        # there costs 5x: [16, 4, 64, 64], a softmax backward's)
        n = _short_rows(tensor, dim)
        if not n:
            return super().float_sum_dim(tensor, dim)
        return row_sums(tensor.reshape(-1, n)).reshape(*tensor.shape[:-1], 1)

    def float_sum(self, tensor):
        # numpy's reduce machinery has a fixed cost before it adds a thing. Up to its pairwise
        # block (128 elements, which it sums with 8 partial sums, no pairwise step) a BLAS dot
        # with a row of ones is as accurate and cheaper, and has burn's [1] shape already.
        rows = ONES_ROWS.get(tensor.dtype)
        if rows is not None and tensor.size <= PAIRWISE_BLOCK:
            return rows[tensor.size].dot(tensor.ravel())
        return super().float_sum(tensor)

    def relu_backward(self, output, grad):
        # burn masks output <= 0 (a NaN output passes its gradient) and fills 0. A multiply by
        # the mask is not exact (a masked inf would give NaN, a negative gradient -0.0). Beyond
        # ~2k elements np.where costs 2x what clearing the masked elements' bits does (exact
        # too); below, the bits' extra ufunc calls cost more than they save.
        if grad.size <= 2048:
            return np.where(output <= 0, 0, grad)
        keep = np.less_equal(output, 0).view(np.int8)
        np.subtract(keep, ONE_INT8, out=keep)  # masked: 0; kept: -1, every bit set
        bits = SAME_SIZE_INT[grad.itemsize]  # (widened by a sign-extending cast, not a ufunc's)
        return np.bitwise_and(grad.view(bits), keep.astype(bits)).view(grad.dtype)

    # linear on a matrix, the common case, as the ndarray products themselves (what the shared
    # kernels reach through float_matmul and swap_dims, three calls more per product)
    def linear(self, input, weight, bias):
        if input.ndim != 2 or weight.ndim != 2 or input.shape[1] != weight.shape[0]:
            return super().linear(input, weight, bias)  # (which says why it refuses)
        out = _product(input, weight)
        if bias is not None:
            out += bias  # into the product, which is this kernel's own: no second buffer
        return out

    def linear_x_backward(self, weight, output_grad):
        if output_grad.ndim != 2:
            return super().linear_x_backward(weight, output_grad)
        return _product(output_grad, weight.T)

    def linear_weight_backward(self, x, output_grad):
        if x.ndim != 2:
            return super().linear_weight_backward(x, output_grad)
        return _product(x.T, output_grad)

    def linear_bias_backward(self, output_grad):
        # one BLAS product with a row of ones (8x numpy's reduction over [1024, 64]); bfloat16
        # accumulated in float32, as torch sums it
        if not output_grad.flags.c_contiguous:  # (a broadcast seed: reshaping it would copy it)
            return super().linear_bias_backward(output_grad)
        rows = output_grad.reshape(-1, output_grad.shape[-1])  # (a view: it is contiguous)
        return _summing(rows.shape[0], rows.dtype).dot(rows)

    def _check_range(self, op, indices, size, dim):
        # One reduction instead of a min and a max: viewed as unsigned, a negative index is
        # larger than any size. Only a bad index pays for finding which one it is.
        if (
            indices.size
            and np.maximum.reduce(indices.view(SAME_SIZE_UINT[indices.itemsize]), None) >= size
        ):
            super()._check_range(op, indices, size, dim)

    def float_erf(self, tensor):
        from scipy import special  # imported when first needed: it takes a quarter second

        return same_dtype(special.erf(tensor), tensor)

    def sigmoid(self, tensor):
        from scipy import special  # imported when first needed: it takes a quarter second

        return same_dtype(special.expit(tensor), tensor)

    # the views as the array's own methods: numpy's functions add a Python wrapper and their
    # dispatch around them, which cost more than the view itself on a small array
    def float_swap_dims(self, tensor, dim1, dim2):
        return tensor.swapaxes(dim1, dim2)

    int_swap_dims = bool_swap_dims = float_swap_dims

    def float_reshape(self, tensor, shape):
        return tensor.reshape(shape)

    int_reshape = bool_reshape = float_reshape

    def float_permute(self, tensor, axes):
        try:
            return tensor.transpose(axes)
        except ValueError:  # (numpy's AxisError is one) axes that are no permutation
            return super().float_permute(tensor, axes)  # (which says why it refuses)

    int_permute = bool_permute = float_permute

    @rank0_as_vector
    def float_cummax(self, tensor, dim):
        return np.maximum.accumulate(tensor, axis=dim)

    int_cummax = float_cummax

    @rank0_as_vector
    def float_cummin(self, tensor, dim):
        return np.minimum.accumulate(tensor, axis=dim)

    int_cummin = float_cummin

    def float_argsort(self, tensor, dim, descending):
        # numpy's argsort has no `descending`: a stable descending order is the stable
        # ascending order of the reversed lane, read backwards, mapped back to positions
        if not descending:
            return self._indices(np.argsort(tensor, axis=dim, stable=True))
        reversed_order = np.argsort(np.flip(tensor, axis=dim), axis=dim, stable=True)
        return self._indices(tensor.shape[dim] - 1 - np.flip(reversed_order, axis=dim))

    int_argsort = float_argsort

    def float_to_device(self, tensor, device):
        return tensor  # one CPU device: nothing moves

    int_to_device = bool_to_device = float_to_device


PAIRWISE_BLOCK = 128
ONE_INT8 = np.int8(1)
LARGE_PRODUCT = 1 << 18  # multiply-adds from which `@` reaches BLAS faster than dot
SAME_SIZE_INT = {n: np.dtype(f"i{n}") for n in (2, 4, 8)}  # a float's bits, by its size
SAME_SIZE_UINT = {n: np.dtype(f"u{n}") for n in (1, 2, 4, 8)}  # an index viewed unsigned


def _product(lhs, rhs):
    """A linear layer's product of two matrices: ndarray.dot, as float_matmul, but `@` from
    about 64^3 multiply-adds on, where numpy's matmul reaches BLAS faster than dot does (5-9%
    here on a weight gradient, [784, 64] @ [64, 256]); never for K=1, which `@` does not hand
    to BLAS."""
    k = lhs.shape[1]
    if k > 1 and lhs.size * rhs.shape[1] >= LARGE_PRODUCT and lhs.dtype in BLAS_FLOATS:
        return lhs @ rhs
    return lhs.dot(rhs)


def _short_rows(tensor, dim) -> int:
    """The length of the rows a sum over `dim` adds up where they are short, contiguous last
    dims of a BLAS float (a BLAS dot with ones sums them cheaper than numpy's reduce, and as
    accurately: numpy adds up to PAIRWISE_BLOCK elements without a pairwise step); else 0."""
    n = tensor.shape[-1] if tensor.ndim else 0
    if (
        tensor.dtype in BLAS_FLOATS
        and dim in (-1, tensor.ndim - 1)
        and 0 < n <= PAIRWISE_BLOCK
        and tensor.flags.c_contiguous
    ):
        return n
    return 0


def _ones(shape, dtype):
    """Ones of a shape (np.ones is a Python function: twice the cost)."""
    ones = np.empty(shape, dtype)
    ones.fill(1)
    return ones


@functools.lru_cache(maxsize=32)
def _shared_ones(n: int, dtype):
    ones = _ones(n, dtype)
    ones.flags.writeable = False
    return ones


def row_sums(a):
    """The sums of the rows of a 2-d array, [rows]: one BLAS product with a vector of ones (a
    compiled step's fused cross-entropy calls it too, for the backend's bits)."""
    return a.dot(_summing(a.shape[1], a.dtype))


def _summing(n: int, dtype):
    """The vector of n ones a BLAS product sums with: up to 4096, one shared read-only vector
    per size and dtype (a step makes several of each), else a new one."""
    return _shared_ones(n, dtype) if n <= 4096 else _ones(n, dtype)


def _row_max(a):
    """The max of each row of a 2-d array, [rows, 1]. numpy reduces a short row in ~100 ns;
    up to 32 columns, the maxima of the transposed copy's whole rows, one ufunc loop each,
    cost 2x-7x less (and are the same maxima, NaN included). One row is reduced as it is."""
    if a.shape[1] <= 32 and a.shape[0] > 1:
        return np.maximum.reduce(a.T.copy(), axis=0)[:, None]
    return np.maximum.reduce(a, axis=1, keepdims=True)


def _ones_rows(dtype) -> list:
    """The read-only rows of ones [1, n], n = 0..PAIRWISE_BLOCK, that small sums dot with."""
    rows = [np.ones((1, n), dtype) for n in range(PAIRWISE_BLOCK + 1)]
    for row in rows:
        row.flags.writeable = False
    return rows


ONES_ROWS = {np.dtype(dtype): _ones_rows(dtype) for dtype in (np.float32, np.float64)}


def same_dtype(result, like):
    """scipy.special computes float16 in float64; give the input's dtype back."""
    return result if result.dtype == like.dtype else result.astype(like.dtype)


BACKEND = NumPyBackend()
