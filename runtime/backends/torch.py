"""The Torch backend (burn's LibTorch role): primitives are torch.Tensors on the CPU or a GPU.

The shared kernels reach torch through array-api-compat's torch namespace, so what is written
here is only what the standard leaves to each library (dtypes, devices, random numbers, data in
and out) and the functions torch has of its own. Gradients are our Autodiff's, never
torch.autograd's: no primitive is ever made with `requires_grad`, so torch records nothing.
"""

import numpy as np
import torch
from array_api_compat import torch as torch_namespace

from runtime.backends.array import ArrayBackend
from runtime.backends.torch_conv import TorchConvKernels
from runtime.backends.torch_pool import TorchPoolKernels
from runtime.indexing import IndexingUpdateOp

# index_put_ assigns or sums; the other updates reduce with scatter_reduce_
REDUCE = {
    IndexingUpdateOp.Mul: "prod",
    IndexingUpdateOp.Min: "amin",
    IndexingUpdateOp.Max: "amax",
}


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
    return torch.device(f"{kind.lower()}:{index[:-1]}" if index else kind.lower())


# torch's own numpy bridge says which dtype is which, for every dtype both libraries have.
TORCH_DTYPE = Learned(lambda dtype: torch.from_numpy(np.empty(0, dtype)).dtype)
NUMPY_DTYPE = Learned(lambda dtype: torch.empty(0, dtype=dtype).numpy().dtype)
NATIVE_DEVICE = Learned(_native_device)


class TorchBackend(TorchConvKernels, TorchPoolKernels, ArrayBackend):
    name = "torch"
    variant = "Torch"
    xp = torch_namespace

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
        return primitive.cpu().numpy()  # shares a CPU tensor's memory: callers copy

    def from_numpy(self, array, device: str):
        # A C-ordered copy that torch owns: no aliasing of `array`, and no negative strides.
        return torch.from_numpy(np.array(array, order="C")).to(NATIVE_DEVICE[device])

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
        values = torch.empty(shape, dtype=TORCH_DTYPE[dtype])
        if distribution.name == "uniform":
            values.uniform_(distribution.a, distribution.b, generator=self.generator)
        else:
            values.normal_(distribution.a, distribution.b, generator=self.generator)
        return values.to(NATIVE_DEVICE[device])

    def int_random(self, shape, distribution, device, dtype):
        # as numpy's: Uniform(lo, hi) as ints in [lo, hi), Normal samples truncated
        if distribution.name == "uniform":
            low, high = int(distribution.a), int(distribution.b)
            values = torch.randint(low, high, shape, generator=self.generator)
        else:
            values = torch.empty(shape, dtype=torch.float64)
            values = values.normal_(distribution.a, distribution.b, generator=self.generator)
        return values.to(TORCH_DTYPE[dtype]).to(NATIVE_DEVICE[device])

    def float_matmul(self, lhs, rhs):
        # array-api-compat's matmul first promotes dtypes in Python: 4x torch's own cost
        return torch.matmul(lhs, rhs)

    def sigmoid(self, tensor):
        return torch.sigmoid(tensor)

    def float_erf(self, tensor):
        return torch.erf(tensor)


BACKEND = TorchBackend()
