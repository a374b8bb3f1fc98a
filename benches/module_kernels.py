"""Module-op kernels on NumPy against PyTorch eager, at one thread: a convolution's forward and
its input and weight gradients, and a max pool's forward (with indices) and backward, called
on the backends' kernels directly (`python -m benches.module_kernels`). A ratio is our time
over PyTorch's in the same repeat."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from runtime.backends.numpy import BACKEND as B  # noqa: E402

CONV = ((1, 1), (1, 1), (1, 1), 1, None)  # stride, padding, dilation, groups, padding_end
POOL = ((2, 2), None, (0, 0), (1, 1), False)  # kernel, stride, padding, dilation, ceil_mode


def conv_step(x, weight, bias):
    out = B.conv2d(x, weight, bias, *CONV)
    return (
        B.conv2d_x_backward(x, weight, out, *CONV),
        B.conv2d_weight_backward(x, weight, out, *CONV),
        B.conv2d_bias_backward(x, bias, out),
    )


def torch_conv_step(x, weight, bias):
    out = F.conv2d(x, weight, bias, 1, 1)
    return (
        torch.nn.grad.conv2d_input(x.shape, weight, out, 1, 1),
        torch.nn.grad.conv2d_weight(x, weight.shape, out, 1, 1),
        out.sum((0, 2, 3)),
    )


def pool_step(x):
    out, indices = B.max_pool2d_with_indices(x, *POOL)
    return B.max_pool2d_with_indices_backward(x, *POOL, out, indices)


def torch_pool_step(x):
    out, indices = F.max_pool2d(x, 2, return_indices=True)
    return torch.ops.aten.max_pool2d_with_indices_backward(
        out, x, [2, 2], [2, 2], [0, 0], [1, 1], False, indices
    )


def main():
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 16, 14, 14)).astype(np.float32)
    weight = rng.standard_normal((32, 16, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(32).astype(np.float32)
    names = {"x": x, "weight": weight, "bias": bias, "conv_step": conv_step, "pool_step": pool_step}
    tensors = {k: torch.from_numpy(v) for k, v in (("x", x), ("weight", weight), ("bias", bias))}
    torch_names = {**tensors, "conv_step": torch_conv_step, "pool_step": torch_pool_step}
    print("kernel (x [64,16,14,14] f32, 1 thread)     ours ms  torch ms  ours/torch")
    for label, stmt in (
        ("conv2d 3x3 pad 1, 32 out: fwd + bwd", "conv_step(x, weight, bias)"),
        ("max_pool2d 2x2 with indices: fwd + bwd", "pool_step(x)"),
    ):
        row = measure(
            {"ours": Column(stmt, names), "torch": Column(stmt, torch_names)}, "torch", repeats=7
        )
        seconds = row.seconds
        print(
            f"{label:42s} {seconds['ours'] * 1e3:7.2f}  {seconds['torch'] * 1e3:8.2f}"
            f"  {row.ratios['ours']:10.2f}"
        )


if __name__ == "__main__":
    main()
