"""The Torch backend (burn's LibTorch role): primitives are torch.Tensors on the CPU or a GPU.

The shared kernels reach torch through `XP`: array-api-compat's torch namespace, with torch's own
functions bound in place of the compat wrappers wherever the kernels' calls mean the same thing
to both (a compat wrapper is a Python frame or three around each torch call, which on an 8x8
tensor costs as much as the kernel). What is written here is what the standard leaves to each
library (dtypes, devices, random numbers, data in and out) and the kernels torch has of its own.
Gradients are our Autodiff's, never torch.autograd's: no primitive is ever made with
`requires_grad`, so torch records nothing.

No kernel reads a device value back to Python or copies a tensor to the host: on a GPU a kernel
launch is asynchronous, and one read per call would make every op wait for the device.
"""

from types import SimpleNamespace

import ml_dtypes
import numpy as np
import torch
from array_api_compat import torch as torch_namespace

from burnpy.runtime.backends.array import ArrayBackend
from burnpy.runtime.backends.kernels.activation import GELU_BOUND, TANH_GELU_BOUND
from burnpy.runtime.backends.kernels.creation import check_allocation
from burnpy.runtime.backends.torch_conv import TorchConvKernels
from burnpy.runtime.backends.torch_pool import TorchPoolKernels
from burnpy.runtime.indexing import IndexingUpdateOp

try:
    from burnpy.runtime.backends._torch_sum import full_sum_in_c
except ImportError:  # built without a C compiler: the Python function runs every call

    def full_sum_in_c(function):
        return function


# index_put_ assigns or sums; the other updates reduce with scatter_reduce_
REDUCE = {
    IndexingUpdateOp.Mul: "prod",
    IndexingUpdateOp.Min: "amin",
    IndexingUpdateOp.Max: "amax",
}

# Devices whose memory Python reads in place: reading a value there waits for no kernel queue.
HOST_READABLE = frozenset({"cpu"})

THRESHOLD_BACKWARD = torch.ops.aten.threshold_backward.default
GELU_BACKWARD = torch.ops.aten.gelu_backward.default
GELU_UPPER = 64.0  # gelu(x) is x from here up; a power of two, for gelu's exact rescaling
FLASH_ATTENTION = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default
FLASH_ATTENTION_BACKWARD = (
    torch.ops.aten._scaled_dot_product_flash_attention_for_cpu_backward.default
)
LAYER_NORM = torch.ops.aten.native_layer_norm.default
LAYER_NORM_BACKWARD = torch.ops.aten.native_layer_norm_backward.default
BATCH_NORM = torch.ops.aten._native_batch_norm_legit.default
BATCH_NORM_BACKWARD = torch.ops.aten.native_batch_norm_backward.default
RMS_NORM = torch.ops.aten._fused_rms_norm.default  # (output, 1/rms [..., 1])

# The namespace the shared kernels use. The compat wrappers kept are the ones that fix a
# difference the kernels meet: `maximum`/`minimum`/`logical_*` take no Python scalar in torch,
# `astype` copies (torch's `.to` may not), `asarray` keeps a tensor's device, `clip` handles
# NaN and out-of-range int bounds, `arange` returns an empty range where torch raises, `any`/`all`
# return bools for every dtype, `prod` and `concat` take what torch's do not (axis=None), and
# `cumulative_sum`/`cumulative_prod`/`argsort`/`flip`/`nonzero`/`sign` rename or repair arguments.
XP = SimpleNamespace(**vars(torch_namespace))
# Torch's own functions, whose meaning for the kernels' calls is the standard's. torch takes the
# standard's `axis=`/`keepdims=` spellings for reductions; it reads an empty `axis=()` as every
# dim where the standard reads none (compat's fix), and no kernel passes one (unbroadcast checks).
XP.sum = torch.sum
XP.mean = torch.mean
XP.max = torch.amax  # amax, not max: torch.max with a dim returns (values, indices)
XP.min = torch.amin
# compat's `where` promotes a 0-d tensor branch as an array; the kernels give both branches one
# dtype (or a Python scalar, which torch takes as the standard does)
XP.where = torch.where
XP.reshape = torch.reshape  # compat adds only `copy=`, which no kernel passes
XP.permute_dims = torch.permute
XP.broadcast_to = torch.broadcast_to
# compat accepts an int shape too; the kernels pass tuples
XP.zeros, XP.ones, XP.empty, XP.full = torch.zeros, torch.ones, torch.empty, torch.full
# compat wraps negative indices first (a second kernel): the kernels' indices are in range,
# checked (`_check_range`) or made by argsort/argmax/window_index
XP.take = lambda x, indices, /, *, axis: torch.index_select(x, axis, indices)
XP.take_along_axis = lambda x, indices, /, *, axis=-1: torch.take_along_dim(x, indices, axis)


class Learned(dict):
    """A mapping that computes a missing value once, then remembers it."""

    def __init__(self, learn):
        super().__init__()
        self.learn = learn

    def __missing__(self, key):
        value = self[key] = self.learn(key)
        return value


def _native_device(name: str) -> torch.device:
    """burn's device name -> torch's: `Cpu` -> cpu, `Cuda(1)` -> cuda:1."""
    kind, _, index = name.partition("(")
    device = torch.device(f"{kind.lower()}:{index[:-1]}" if index else kind.lower())
    if device.type != "cpu":
        module = getattr(torch, device.type, None)
        count = module.device_count() if module is not None and module.is_available() else 0
        if (device.index or 0) >= count:
            available = ["cpu"] + [f"{device.type}:{i}" for i in range(count)]
            raise RuntimeError(
                f"Device.torch({str(device)!r}): this torch {torch.__version__} cannot use "
                f"{device} (it reports {available} available: torch.{device.type}.is_available() "
                f"is {count > 0}); use Device.torch('cpu'), or a torch built for "
                f"{device.type}"
            )
    return device


def _dtype_pairs() -> dict:
    """numpy dtype -> torch dtype, for every dtype both libraries have, as torch's own numpy
    bridge pairs them: learned once, at import, so no kernel ever converts a tensor to ask."""
    pairs = {}
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"):  # fmt: skip
        try:
            pairs[np.dtype(name)] = torch.from_numpy(np.empty(0, name)).dtype
        except TypeError:  # a dtype this torch cannot hold
            pass
    pairs[BFLOAT16] = torch.bfloat16  # numpy's through ml_dtypes, which torch's bridge lacks
    return pairs


BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
TORCH_DTYPE = _dtype_pairs()
NUMPY_DTYPE = {torch_dtype: dtype for dtype, torch_dtype in TORCH_DTYPE.items()}
NATIVE_DEVICE = Learned(_native_device)


def _float4_e2m1fn(x):
    """x rounded to float4_e2m1fn's values (0, 0.5, 1, 1.5, 2, 3, 4, 6), ties to even, as
    ml_dtypes casts: past 6 (infinities too) 6, NaN -0 (the format has neither)."""
    size = x.abs()
    step = torch.where(size < 2, 0.5, torch.where(size < 4, 1.0, 2.0))
    rounded = (torch.round(size / step) * step).clamp(max=6.0)
    return torch.where(x.isnan(), -0.0, torch.copysign(rounded, x))


class TorchBackend(TorchConvKernels, TorchPoolKernels, ArrayBackend):
    name = "torch"
    variant = "Torch"
    xp = XP

    # -- the kernels that are one function of the array namespace, bound with no frame between
    # the dispatch layer and the library (a kernel the backend does its own way is a method)
    # arithmetic: torch's functions, which a tensor's operator reaches through its type's slot
    float_add = float_add_scalar = int_add = int_add_scalar = staticmethod(torch.add)
    float_sub = float_sub_scalar = int_sub = int_sub_scalar = staticmethod(torch.sub)
    float_mul = float_mul_scalar = int_mul = int_mul_scalar = staticmethod(torch.mul)
    float_div = float_div_scalar = staticmethod(torch.div)  # true division, as `/`
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
        """torch's float8 casts, on the device; float8_e4m3fn's saturates where ml_dtypes'
        gives NaN (past 464, which rounds to 448), so that is made NaN unless saturating.
        float4_e2m1fn, which torch holds packed only, is rounded on its grid."""
        x = tensor.to(torch.float32)
        if saturate:
            top = float(ml_dtypes.finfo(getattr(ml_dtypes, format)).max)
            x = x.clamp(-top, top)
        if format == "float4_e2m1fn":
            rounded = _float4_e2m1fn(x)
        else:
            rounded = x.to(getattr(torch, format)).to(torch.float32)
            if format == "float8_e4m3fn" and not saturate:
                rounded = torch.where(x.abs() > 464, torch.nan, rounded)
        return rounded.to(tensor.dtype)

    # classification
    float_is_nan = staticmethod(XP.isnan)
    float_is_inf = staticmethod(XP.isinf)
    # two-argument element-wise math
    float_atan2 = staticmethod(XP.atan2)
    float_hypot = staticmethod(XP.hypot)

    def __init__(self):
        # One CPU generator serves every device, so a seed gives the same values on CPU and GPU.
        self.generator = torch.Generator()

    # -- what the backend must state ----------------------------------------------------------
    def seed(self, seed: int) -> None:
        self.generator.manual_seed(seed)

    def device_of(self, primitive) -> str:
        device = primitive.device
        return "Cpu" if device.type == "cpu" else f"{device.type.capitalize()}({device.index or 0})"

    def native_device(self, device: str):
        return NATIVE_DEVICE[device]

    def native_dtype(self, dtype):
        return TORCH_DTYPE[dtype]

    def dtype(self, primitive):
        return NUMPY_DTYPE[primitive.dtype]

    def to_numpy(self, primitive):
        if primitive.dtype is torch.bfloat16:  # the same 16 bits, read as ml_dtypes' bfloat16
            return primitive.cpu().view(torch.int16).numpy().view(BFLOAT16)
        return primitive.cpu().numpy()  # shares a CPU tensor's memory: callers copy

    def from_numpy(self, array, device: str):
        # A C-ordered copy that torch owns: no aliasing of `array`, and no negative strides.
        array = np.array(array, order="C")
        if array.dtype == BFLOAT16:
            return (
                torch.from_numpy(array.view(np.int16))
                .view(torch.bfloat16)
                .to(NATIVE_DEVICE[device])
            )
        return torch.from_numpy(array).to(NATIVE_DEVICE[device])

    def float_to_device(self, tensor, device):
        # torch's own move, which gives the tensor itself on its device (compat's asarray
        # does the same through several Python frames, on every parameter of every step)
        return tensor.to(NATIVE_DEVICE[device])

    int_to_device = bool_to_device = float_to_device

    def index_update(self, target, index, values, update):
        if update is IndexingUpdateOp.Assign or update is IndexingUpdateOp.Add:
            target.index_put_(index, values, accumulate=update is IndexingUpdateOp.Add)
            return
        # The indexed dims flattened into one: position p of `values` updates row linear[p].
        rest = target.shape[len(index) :]
        linear = torch.zeros((), dtype=torch.int64, device=target.device)
        for position, size in zip(torch.broadcast_tensors(*index), target.shape):
            linear = linear * size + position
        source = values.reshape(-1, *rest)
        rows = linear.reshape(-1, *[1] * len(rest)).expand(source.shape)
        target.view(-1, *rest).scatter_reduce_(0, rows, source, REDUCE[update])

    # -- kernels torch does its own way ---------------------------------------------------------
    def float_from_data(self, data, device, dtype):
        return self.from_numpy(np.asarray(data, dtype=dtype), device)  # numpy's rounding rules

    int_from_data = bool_from_data = float_from_data

    def float_random(self, shape, distribution, device, dtype):
        check_allocation("random", shape, dtype)
        values = torch.empty(shape, dtype=TORCH_DTYPE[dtype])
        if distribution.name == "uniform":
            values.uniform_(distribution.a, distribution.b, generator=self.generator)
        else:
            values.normal_(distribution.a, distribution.b, generator=self.generator)
        return values.to(NATIVE_DEVICE[device])

    def int_random(self, shape, distribution, device, dtype):
        check_allocation("random", shape, dtype)
        # as numpy's: Uniform(lo, hi) as ints in [lo, hi), Normal samples truncated
        if distribution.name == "uniform":
            low, high = int(distribution.a), int(distribution.b)
            values = torch.randint(low, high, shape, generator=self.generator)
        else:
            values = torch.empty(shape, dtype=torch.float64)
            values = values.normal_(distribution.a, distribution.b, generator=self.generator)
        return values.to(TORCH_DTYPE[dtype]).to(NATIVE_DEVICE[device])

    # torch's own functions bound as the kernels, with no Python frame in between, where their
    # arguments and results are the kernel's (the dispatch gives matmul's operands one dtype;
    # compat's matmul would promote mixed ones first)
    float_matmul = int_matmul = staticmethod(torch.matmul)
    float_swap_dims = int_swap_dims = bool_swap_dims = staticmethod(torch.transpose)
    relu = staticmethod(torch.relu)  # a NaN stays NaN, as in maximum(x, 0)

    @staticmethod
    def relu_backward(output, grad):
        # ATen's relu gradient zeroes grad where output <= 0, so a NaN output passes its
        # gradient (burn's mask); one kernel, where the shared `where(output <= 0, 0, grad)`
        # takes two, and torch's comparison to a scalar is the slow one
        return THRESHOLD_BACKWARD(grad, output, 0)

    # torch's exact (erf) GELU and its derivative Φ(x) + x φ(x), where the shared composition
    # takes six and eight kernels. Where the NumPy backend gives the limits (gelu: inf and 0,
    # its slope: 1 and 0), torch's gelu gives NaN at -inf, its vectorised float32 and float16
    # kernels NaN at +inf and inf near the dtype's max (every CPU capability), and its slope
    # NaN at +inf (the tanh form's at every |x| whose cube overflows): the input is clipped
    # first, on both sides, and beyond the upper bound, where gelu(x) is x, gelu(64) = 64 is
    # scaled by x / 64 (exact: 64 is a power of two), which is 1 below it. Multiplying, not
    # `where(x > 64, ...)`: torch's comparison to a scalar costs more than gelu itself. On
    # the CPU, a tensor whose max is at most 64 (no NaN, no +inf: most) skips the rescaling,
    # for a reduction's cost (its result is the same)
    @staticmethod
    def gelu(x):
        if x.device.type == "cpu" and x.numel() and float(torch.amax(x)) <= GELU_UPPER:
            return torch.nn.functional.gelu(torch.clamp_min(x, -GELU_BOUND))
        clipped = torch.clamp(x, -GELU_BOUND, GELU_UPPER)
        out = torch.nn.functional.gelu(clipped)
        beyond = torch.mul(x, 1 / GELU_UPPER, out=clipped).clamp_min_(1.0)
        return out.mul_(beyond)

    @staticmethod
    def gelu_backward(x, grad):
        # (as the shared kernel clips; NaN stays NaN)
        return GELU_BACKWARD(grad, torch.clamp(x, -GELU_BOUND, GELU_BOUND))

    # and torch's tanh GELU, likewise clipped where its tanh is ±1 already
    @staticmethod
    def gelu_approximate(x):
        clipped = torch.clamp_min(x, -TANH_GELU_BOUND)
        return torch.nn.functional.gelu(clipped, approximate="tanh")

    @staticmethod
    def gelu_approximate_backward(x, grad):
        clipped = torch.clamp(x, -TANH_GELU_BOUND, TANH_GELU_BOUND)
        return GELU_BACKWARD(grad, clipped, approximate="tanh")

    sigmoid = staticmethod(torch.sigmoid)
    float_erf = staticmethod(torch.erf)
    softmax = staticmethod(torch.softmax)  # shifted by the max inside, as the shared kernels
    log_softmax = staticmethod(torch.log_softmax)

    # -- attention and layer_norm: torch's fused CPU kernels where they compute exactly ours ---
    # (no mask, bias or softcap, and a causal mask only where torch's top-left alignment is
    # burn's bottom-right one: seq_q == seq_k). A recorded forward keeps what the backward
    # needs (flash attention's output and row logsumexp, layer_norm's mean and 1/std).
    @staticmethod
    def _flash(query, key, value, mask, attn_bias, softcap, is_causal) -> bool:
        return (
            mask is None
            and attn_bias is None
            and softcap is None
            and query.device.type == "cpu"
            and query.ndim == key.ndim == value.ndim == 4
            and query.shape[:2] == key.shape[:2] == value.shape[:2]
            and query.shape[-1] == key.shape[-1] == value.shape[-1]
            and key.shape[-2] == value.shape[-2]  # else the shared kernel says what is wrong
            and query.dtype in (torch.float32, torch.float64)
            and key.shape[-2] > 0
            and (not is_causal or query.shape[-2] == key.shape[-2])
        )

    def attention(self, query, key, value, mask, attn_bias, scale, softcap, is_causal):
        if self._flash(query, key, value, mask, attn_bias, softcap, is_causal):
            return FLASH_ATTENTION(query, key, value, 0.0, is_causal, scale=scale)[0]
        return super().attention(query, key, value, mask, attn_bias, scale, softcap, is_causal)

    def attention_keeping(self, query, key, value, mask, attn_bias, scale, softcap, is_causal):
        if self._flash(query, key, value, mask, attn_bias, softcap, is_causal):
            out, logsumexp = FLASH_ATTENTION(query, key, value, 0.0, is_causal, scale=scale)[:2]
            return out, (out, logsumexp)  # what stands for the probabilities in flash's backward
        return super().attention_keeping(
            query, key, value, mask, attn_bias, scale, softcap, is_causal
        )

    def attention_backward(
        self,
        query,
        key,
        value,
        mask,
        attn_bias,
        grad,
        scale,
        softcap,
        is_causal,
        wanted=None,
        probabilities=None,
    ):
        if not self._flash(query, key, value, mask, attn_bias, softcap, is_causal):
            return super().attention_backward(
                query,
                key,
                value,
                mask,
                attn_bias,
                grad,
                scale,
                softcap,
                is_causal,
                wanted,
                probabilities,
            )
        out, logsumexp = (
            probabilities or FLASH_ATTENTION(query, key, value, 0.0, is_causal, scale=scale)[:2]
        )
        grads = FLASH_ATTENTION_BACKWARD(
            grad, query, key, value, out, logsumexp, 0.0, is_causal, scale=scale
        )
        want = (True,) * 3 if wanted is None else wanted[:3]
        return (*(g if w else None for g, w in zip(grads, want)), None)

    @staticmethod
    def layer_norm(input, gamma, beta, epsilon):
        return LAYER_NORM(input, input.shape[-1:], gamma, beta, epsilon)[0]

    @staticmethod
    def layer_norm_keeping(input, gamma, beta, epsilon):
        out, mean, rstd = LAYER_NORM(input, input.shape[-1:], gamma, beta, epsilon)
        return out, (mean, rstd)

    @staticmethod
    def layer_norm_backward(
        input, gamma, grad, epsilon, wanted=(True, True, True), statistics=None
    ):
        # without kept statistics, the forward again (torch.var_mean would cost ten times more)
        shape = input.shape[-1:]
        mean, rstd = statistics or LAYER_NORM(input, shape, gamma, None, epsilon)[1:]
        # (the bias only tells ATen the dtype and device of its gradient: gamma's are the same)
        return LAYER_NORM_BACKWARD(grad, input, shape, mean, rstd, gamma, gamma, list(wanted))

    # -- batch_norm_training: ATen's batch norm, one kernel each way where the shared one makes
    # five full-size passes forward and eight backward. ATen keeps 1/sqrt(σ² + ε), not the
    # biased σ² the op returns; it gives σ² unbiased as a running variance (momentum 1 over
    # zeros), scaled back here by (N - 1) / N: σ² to a rounding, with no cancellation.
    @staticmethod
    def _native_batch_norm(input, count) -> bool:
        return input.dtype in (torch.float32, torch.float64) and count > 1

    def batch_norm_training(self, input, gamma, beta, epsilon):
        channels = input.shape[1] if input.ndim > 1 else 0
        count = input.numel() // max(channels, 1)
        if not self._native_batch_norm(input, count) or gamma.shape != (channels,):
            return super().batch_norm_training(input, gamma, beta, epsilon)
        mean = torch.zeros(channels, dtype=input.dtype, device=input.device)
        variance = torch.zeros_like(mean)
        out = BATCH_NORM(input, gamma, beta, mean, variance, True, 1.0, epsilon)[0]
        return out, mean, variance.mul_((count - 1) / count)

    def batch_norm_training_backward(
        self, input, gamma, grads, mean, variance, epsilon, wanted=(True, True, True)
    ):
        grad, grad_mean, grad_variance = grads
        count = input.numel() // max(input.shape[1], 1)
        if grad is None or grad_mean is not None or grad_variance is not None:
            native = False  # (the statistics' own gradients: the shared kernel adds them)
        else:
            native = self._native_batch_norm(input, count) and grad.dtype == input.dtype
        if not native:
            return super().batch_norm_training_backward(
                input, gamma, grads, mean, variance, epsilon, wanted
            )
        rstd = torch.rsqrt(variance + epsilon)
        return tuple(
            BATCH_NORM_BACKWARD(
                grad, input, gamma, None, None, mean, rstd, True, epsilon, list(wanted)
            )
        )

    # (rms_norm's backward is the shared kernel, from the 1 / rms its forward kept: ATen has no
    # CPU kernel for it)
    @staticmethod
    def rms_norm(input, gamma, epsilon):
        return RMS_NORM(input, input.shape[-1:], gamma, epsilon)[0]

    @staticmethod
    def rms_norm_keeping(input, gamma, epsilon):
        return RMS_NORM(input, input.shape[-1:], gamma, epsilon)

    # -- linear: each product one torch call (the shared kernels transpose through swap_dims),
    # a narrow output computed transposed (`_product`). A call of other shapes goes to the
    # shared kernel, which words the refusal.
    def linear(self, input, weight, bias):
        if not (input.ndim and weight.ndim == 2 and input.shape[-1] == weight.shape[0]):
            return super().linear(input, weight, bias)
        rows = self._rows(input, weight.shape[0])
        out = _product(rows, weight)
        if bias is not None:
            out += bias  # into the product, which is this kernel's own: no second buffer
        return out if rows is input else out.reshape(*input.shape[:-1], weight.shape[1])

    def linear_x_backward(self, weight, output_grad):
        rows = self._rows(output_grad, weight.shape[1])
        grad = _product(rows, weight.t())
        return grad if rows is output_grad else grad.reshape(*output_grad.shape[:-1], -1)

    def linear_weight_backward(self, x, output_grad):
        rows = self._rows(output_grad, output_grad.shape[-1])
        return _product(self._rows(x, x.shape[-1]).t(), rows)

    # -- cross-entropy: torch's log_softmax + nll_loss forward, and the backward in place on its
    # one fresh tensor
    def cross_entropy_class_targets(self, logits, targets):
        # the range checked as every backend checks it (torch's own would skip -100, its
        # default ignore_index, and word the others its own way)
        self._check_range("cross_entropy_class_targets", targets, logits.shape[1], 1)
        return torch.nn.functional.cross_entropy(logits, targets.long()).reshape(1)

    @staticmethod
    def cross_entropy_class_targets_backward(logits, targets, grad, probabilities=None):
        # (torch's forward keeps no probabilities: its softmax here costs less). The one-hot
        # is a -1 added at each row's target, one index a row: a scatter, where indexing with
        # a range of rows takes three calls more
        probs = torch.softmax(logits, 1)
        minus_ones = probs.new_full((1, 1), -1.0).expand(len(targets), 1)
        probs.scatter_add_(1, targets.reshape(-1, 1).long(), minus_ones)
        return probs.mul_(grad / max(len(targets), 1))

    # -- the optimisers' updates: torch's fused element-wise methods (lerp, addcmul, addcdiv),
    # seven calls where the shared kernel makes eleven; torch's per-call cost dominates on
    # parameters of a few thousand elements
    @staticmethod
    def adam_step(
        param,
        grad,
        moment_1,
        moment_2,
        max_moment_2,
        lr,
        beta_1,
        beta_2,
        epsilon,
        weight_decay,
        bias_correction_1,
        bias_correction_2,
        decoupled=False,
        cautious=False,
        amsgrad=False,
        in_place=False,
    ):
        if weight_decay and not decoupled:
            grad = torch.add(grad, param, alpha=weight_decay)
        if moment_1 is None:
            m = grad * (1.0 - beta_1)
        else:  # (lerp_ is lerp's kernel, writing into its first operand)
            m = (moment_1.lerp_ if in_place else moment_1.lerp)(grad, 1.0 - beta_1)
        if moment_2 is None:
            v = torch.mul(grad, grad).mul_(1.0 - beta_2)
        else:
            v = moment_2.mul_(beta_2) if in_place else torch.mul(moment_2, beta_2)
            v.addcmul_(grad, grad, value=1.0 - beta_2)
        if amsgrad and max_moment_2 is not None:
            v_max = torch.maximum(max_moment_2, v)
        else:  # in place, AMSGrad's first maximum is state of its own
            v_max = v.clone() if amsgrad and in_place else v
        root_2 = bias_correction_2**0.5
        denominator = torch.sqrt(v_max).add_(epsilon * root_2)
        decay = lr * weight_decay if decoupled else 0.0
        if decay and cautious:
            agree = (param >= 0) == (m >= 0)
            decayed = torch.where(agree, param * decay, 0.0)
            updated = param.sub_(decayed) if in_place else param - decayed
        elif in_place:
            updated = param.mul_(1.0 - decay) if decay else param
        else:
            updated = param * (1.0 - decay)
        step_size = lr * root_2 / bias_correction_1
        return updated.addcdiv_(m, denominator, value=-step_size), m, v, v_max

    @staticmethod
    def sgd_step(
        param, grad, velocity, lr, momentum, dampening, weight_decay, nesterov, in_place=False
    ):
        # torch's `add(..., alpha=)` scales its second operand in the same pass: four calls
        # where the shared kernel makes six
        if weight_decay:
            grad = torch.add(grad, param, alpha=weight_decay)
        if not momentum:
            v = grad
        elif velocity is None:
            # the velocity starts as the gradient; as state updated in place, it is a copy
            v = grad.clone() if in_place and not weight_decay else grad
        else:
            v = velocity.mul_(momentum) if in_place else torch.mul(velocity, momentum)
            v.add_(grad, alpha=1.0 - dampening)
        step = torch.add(grad, v, alpha=momentum) if momentum and nesterov else v
        if in_place:
            return param.add_(step, alpha=-lr), v
        return torch.add(param, step, alpha=-lr), v

    @staticmethod
    def clip_by_norm(grad, threshold):
        norm = torch.linalg.vector_norm(grad)  # bfloat16 and float16 accumulate in float32
        tiny = torch.finfo(grad.dtype).tiny
        if grad.device.type == "cpu":  # read on the host: within the threshold, no pass
            scale = threshold / (float(norm) + tiny)
            return grad if scale >= 1.0 else grad * scale
        return grad * torch.clamp(threshold / (norm + tiny), max=1.0)

    @staticmethod
    def _fill_where(array, condition, value):
        return array.masked_fill_(condition, value)

    def float_expand(self, tensor, shape):
        # torch checks the shapes itself, in C (the API refuses negative sizes, which torch would
        # read as "keep"); only a refused shape pays for the shared check, whose error names it
        try:
            return torch.broadcast_to(tensor, shape)
        except RuntimeError:
            return super().float_expand(tensor, shape)

    int_expand = bool_expand = float_expand

    # -- reductions: burn's [1]-shaped full reductions, and the input's dtype kept ---------------
    # torch's full reduction is 0-d. `sum_to_size(1)` reduces straight to burn's [1] in one
    # call (the same kernel, the same values), but refuses a 0-d input and gives back a [1]
    # one as it is (where a sum is a fresh tensor, and -0.0 sums to 0.0). Those take the full
    # reduction, and `resize_` gives its fresh 0-d result the shape in place, cheaper than a
    # reshape (a second tensor). torch sums ints as int64: `dtype=` keeps theirs. The common
    # call runs in C (runtime/backends/torch_sum.c): at a small tensor this function's frame
    # is a sizeable part of the op.
    @staticmethod
    @full_sum_in_c
    def float_sum(tensor):
        try:
            out = tensor.sum_to_size(1)
        except RuntimeError:  # a 0-d tensor
            out = tensor
        return torch.sum(tensor).resize_(1) if out is tensor else out

    @staticmethod
    def int_sum(tensor):
        return torch.sum(tensor, dtype=tensor.dtype).resize_(1)

    @staticmethod
    def float_sum_dim(tensor, dim):
        return torch.sum(tensor, dim, True)

    @staticmethod
    def int_sum_dim(tensor, dim):
        return torch.sum(tensor, dim, True, dtype=tensor.dtype)

    @staticmethod
    def float_mean(tensor):
        return torch.mean(tensor).resize_(1)

    @staticmethod
    def float_mean_dim(tensor, dim):
        return torch.mean(tensor, dim, True)

    @staticmethod
    def _indices(indices):
        return indices  # torch's argmax, argsort, ... give int64, the index dtype, already

    # -- indexing ------------------------------------------------------------------------------
    def float_gather(self, dim, tensor, indices):
        self._check_along("gather", dim, tensor.shape, indices)
        return torch.gather(tensor, dim, indices)

    int_gather = bool_gather = float_gather

    def scatter_add_zeros(self, shape, dim, indices, values):
        # (its indices were checked when they were made)
        out = torch.zeros(shape, dtype=values.dtype, device=values.device)
        return out.scatter_add_(dim, indices, values)

    def _check_range(self, op, indices, size, dim):
        # A CPU tensor is read where it lies: one pass finds both ends, and only a bad index
        # pays for naming itself. On a GPU, reading the ends back would wait for every kernel
        # queued before it, on every call; there torch's device-side assert checks instead, with
        # no sync, and a bad index fails the next synchronizing call (as torch's own index
        # kernels fail on a GPU, leaving the device unusable until the process restarts).
        if indices.device.type not in HOST_READABLE:
            in_range = ((indices >= 0) & (indices < size)).all()
            torch._assert_async(
                in_range, f"{op}: an index is out of range for dim {dim} of size {size}"
            )
        elif indices.numel():
            low, high = torch.aminmax(indices)
            if int(low) < 0 or int(high) >= size:
                super()._check_range(op, indices, size, dim)


# torch's CPU products (MKL) write a row-major output of few columns and many rows several
# times slower than its transpose (a classifier's logits and its weight's gradient, on the AMD
# CPUs this project is measured on). Such a product is computed transposed and copied back
# row-major: a copy of fewer than NARROW columns.
NARROW = 16


def _product(lhs, rhs):
    """lhs @ rhs of two matrices, row-major."""
    if rhs.shape[1] < NARROW <= lhs.shape[0] and lhs.is_cpu:
        return torch.mm(rhs.t(), lhs.t()).t().contiguous()
    return torch.mm(lhs, rhs)


BACKEND = TorchBackend()
