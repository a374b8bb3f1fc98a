"""RMS norm three ways, float32, one thread (`python -m benches.fused_rms_norm`): composed of
element-wise ops and a mean (as `nn.RmsNorm` was built before `rms_norm` was an op), the NumPy
backend's `rms_norm` kernels, and the fused C kernels a compiled capture calls, against
PyTorch's. The kernel rows time the kernels alone (the composed forward is the same numpy
expressions the composition ran); the eager rows time forward + backward through the public API
on the NumPy autodiff device, against PyTorch eager. A ratio is to the reference column's time
in the same repeat.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from burnpy.capture import compiler  # noqa: E402
from burnpy.generated import Device, Tensor, module  # noqa: E402
from burnpy.runtime.backends.registry import backend_for  # noqa: E402

EPS = 1e-5
SHAPES = ((8, 128, 128), (8, 128, 512))  # GPT-2 bench's width, and a wider model's


def composed(x, gamma):
    """The composition over Tensors: mean of squares, + eps, sqrt, divide, scale."""
    rms = ((x * x).mean_dim(x.ndim - 1) + EPS).sqrt()
    return x / rms * gamma


def kernel_columns(shape) -> dict:
    rng = np.random.default_rng(0)
    backend, library = backend_for("NumPy"), compiler.library("float32")
    x, grad = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    gamma = rng.standard_normal(shape[-1]).astype(np.float32)
    _, kept = backend.rms_norm_keeping(x, gamma, EPS)
    rows, d = x.size // shape[-1], shape[-1]
    out, dx, dgamma = np.empty_like(x), np.empty_like(x), np.empty_like(gamma)
    xt, gt = (torch.from_numpy(a).requires_grad_() for a in (x, gamma))
    gradt = torch.from_numpy(grad)
    yt = torch.nn.functional.rms_norm(xt, (shape[-1],), gt, EPS)  # (its graph, kept)
    names = dict(
        np=np,
        torch=torch,
        backend=backend,
        forward=library["rms_norm_f32"],
        backward=library["rms_norm_backward_f32"],
        **dict(x=x, grad=grad, gamma=gamma, kept=kept, rows=rows, d=d, eps=EPS),
        **dict(out=out, dx=dx, dgamma=dgamma, xt=xt, gt=gt, gradt=gradt, yt=yt, d_=(d,)),
    )
    return {
        "forward": {
            "composed": "x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * gamma",
            "numpy op": "backend.rms_norm_keeping(x, gamma, eps)",
            "fused": "forward(rows, d, x, gamma, eps, out, kept)",
            "PyTorch": "torch.nn.functional.rms_norm(xt.detach(), d_, gt.detach(), eps)",
        },
        "backward": {
            "numpy op": "backend.rms_norm_backward(x, gamma, grad, eps, (True, True), kept)",
            "fused": "backward(rows, d, x, gamma, grad, kept, eps, dx, dgamma)",
            "PyTorch": "torch.autograd.grad(yt, (xt, gt), gradt, retain_graph=True)",
        },
    }, names


def eager_columns(shape) -> tuple[dict, dict]:
    rng = np.random.default_rng(1)
    device = Device.numpy().autodiff()
    x_ = rng.standard_normal(shape).astype(np.float32)
    g_ = rng.standard_normal(shape[-1]).astype(np.float32)
    x = Tensor.from_data(x_, device=device).require_grad()
    gamma = Tensor.from_data(g_, device=device).require_grad()
    xt, gt = (torch.from_numpy(a).requires_grad_() for a in (x_, g_))
    names = dict(composed=composed, module=module, torch=torch, x=x, gamma=gamma, eps=EPS)
    names.update(xt=xt, gt=gt, d_=(shape[-1],))
    return {
        "composed": "composed(x, gamma).sum().backward()",
        "rms_norm op": "module.rms_norm(x, gamma, eps).sum().backward()",
        "PyTorch": (
            "torch.autograd.grad(torch.nn.functional.rms_norm(xt, d_, gt, eps).sum(), (xt, gt))"
        ),
    }, names


def _print(label, kind, columns, names, reference):
    row = measure({k: Column(v, names) for k, v in columns.items()}, reference, repeats=7)
    cells = "  ".join(
        f"{name} {row.seconds[name] * 1e3:7.3f} ms {row.ratios[name]:5.2f}x" for name in columns
    )
    print(f"{label:16} {kind:20} {cells}")


def main():
    torch.set_num_threads(1)
    print("RMS norm (f32, 1 thread): ms per call, ratio to PyTorch's")
    for shape in SHAPES:
        label = str(list(shape))
        columns, names = kernel_columns(shape)
        for kind, cols in columns.items():
            _print(label, f"{kind} kernel", cols, names, "PyTorch")
        cols, names = eager_columns(shape)
        _print(label, "eager fwd + bwd", cols, names, "PyTorch")
    print(f"(load average {', '.join(f'{v:.2f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
