"""Attention and layer_norm, forward + backward through the public API (autodiff devices), on
NumPy and on Torch, against PyTorch eager with its autograd, at one thread
(`python -m benches.attention_norm`). A ratio is a column's time over PyTorch's in the same repeat.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from burnpy.generated import Device, Tensor, module  # noqa: E402


def attention_step(q, k, v):
    grads = module.attention(q, k, v, is_causal=True).sum().backward()
    return q.grad(grads), k.grad(grads), v.grad(grads)


def torch_attention_step(q, k, v):
    F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()
    return q.grad, k.grad, v.grad


def layer_norm_step(x, gamma, beta):
    grads = module.layer_norm(x, gamma, beta).sum().backward()
    return x.grad(grads), gamma.grad(grads), beta.grad(grads)


def torch_layer_norm_step(x, gamma, beta):
    F.layer_norm(x, x.shape[-1:], gamma, beta, 1e-5).sum().backward()
    return x.grad, gamma.grad, beta.grad


WORKLOADS = {  # label: (step name, arrays)
    "attention [8,4,64,32] causal: fwd + bwd": (
        "attention_step",
        [(8, 4, 64, 32)] * 3,
    ),
    "layer_norm [64,128,256]: fwd + bwd": ("layer_norm_step", [(64, 128, 256), (256,), (256,)]),
}


def columns(step: str, arrays: list) -> dict:
    out = {}
    for name, device in (("numpy", Device.numpy()), ("torch", Device.torch())):
        d = device.autodiff()
        tensors = [Tensor.from_data(a, device=d).require_grad() for a in arrays]
        out[f"ours {name}"] = Column(f"{step}(*t)", {step: globals()[step], "t": tensors})
    tensors = [torch.from_numpy(a).requires_grad_() for a in arrays]
    torch_step = globals()[f"torch_{step}"]
    out["pytorch"] = Column(f"{step}(*t)", {step: torch_step, "t": tensors})
    return out


def main():
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    print(
        "workload (f32, 1 thread)                  numpy ms  torch ms  pytorch ms  numpy/pt  torch/pt"
    )
    for label, (step, shapes) in WORKLOADS.items():
        arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        row = measure(columns(step, arrays), "pytorch", repeats=7)
        s, r = row.seconds, row.ratios
        print(
            f"{label:41s} {s['ours numpy'] * 1e3:8.2f}  {s['ours torch'] * 1e3:8.2f}"
            f"  {s['pytorch'] * 1e3:10.2f}  {r['ours numpy']:8.2f}  {r['ours torch']:8.2f}"
        )


if __name__ == "__main__":
    main()
