"""The Torch backend's 2-d convolutions against torch's own (mkldnn, on the CPU) at ResNet-18's
shapes on 64x64 images, batch 16, float32: the forward, and the input's and the weight's
gradients together, at one thread and at the machine's core count
(`python -m benches.conv_positions`). Where an image has few output positions and the windows
are long, the backend makes one matrix product over the whole batch's windows instead
(`few_positions` in runtime/backends/torch_conv.py): the table says which path each shape takes,
so that its thresholds can be checked against the times. A ratio is the backend's time over
torch's in the same repeat; before anything is timed, both give the same values (rtol 1e-4).
"""

import os

import numpy as np
import torch
import torch.nn.functional as F

import burnpy
from benches.timing import Column, OtherLoad, measure
from benches.workloads import BenchMismatch
from burnpy.runtime.backends import torch_conv
from burnpy.runtime.backends.torch import BACKEND

BATCH = 16
# (input channels, output channels, kernel, stride, input size): ResNet-18's convolutions
SHAPES = (
    (3, 64, 7, 2, 64),
    (64, 64, 3, 1, 16),
    (64, 128, 3, 2, 16),
    (64, 128, 1, 2, 16),
    (128, 128, 3, 1, 8),
    (128, 256, 3, 2, 8),
    (128, 256, 1, 2, 8),
    (256, 256, 3, 1, 4),
    (256, 512, 3, 2, 4),
    (256, 512, 1, 2, 4),
    (512, 512, 3, 1, 2),
)


def columns(cin, cout, kernel, stride, size, batch=BATCH) -> tuple[dict, bool]:
    """The four columns of one shape, checked to agree, and whether the backend's path is the
    product (`few_positions`)."""
    padding = kernel // 2
    options = ((stride, stride), (padding, padding), (1, 1), 1, None)
    generator = torch.Generator().manual_seed(cin * cout + kernel)
    x = torch.randn(batch, cin, size, size, generator=generator)
    weight = torch.randn(cout, cin, kernel, kernel, generator=generator) / (cin * kernel) ** 0.5
    out = F.conv2d(x, weight, None, stride, padding)
    grad = torch.randn(out.shape, generator=generator)
    wanted = (True, True, False)

    def native_backward():
        return torch.ops.aten.convolution_backward(
            grad, x, weight, None, [stride] * 2, [padding] * 2, [1, 1], False, [0, 0], 1, wanted
        )

    def ours_backward():
        return BACKEND.conv2d_backward(x, weight, grad, *options, wanted)

    for name, got, expected in [
        ("forward", BACKEND.conv2d(x, weight, None, *options), out),
        *zip(("input grad", "weight grad"), ours_backward()[:2], native_backward()[:2]),
    ]:
        if not np.allclose(got.numpy(), expected.numpy(), rtol=1e-4, atol=1e-4):
            raise BenchMismatch(f"{cin}->{cout} k{kernel} s{stride} @{size}: the {name} differs")
    names = dict(F=F, BACKEND=BACKEND, x=x, weight=weight, options=options)
    names.update(native_backward=native_backward, ours_backward=ours_backward)
    cols = {
        "torch forward": Column("F.conv2d(x, weight, None, options[0], options[1])", names),
        "ours forward": Column("BACKEND.conv2d(x, weight, None, *options)", names),
        "torch backward": Column("native_backward()", names),
        "ours backward": Column("ours_backward()", names),
    }
    return cols, torch_conv.few_positions(x, weight, 1, out.shape[2:])


def row(shape) -> tuple[bool, float, float]:
    """(the product's path, forward ratio, backward ratio) of one shape."""
    cols, product = columns(*shape)
    forward = measure({k: cols[k] for k in ("torch forward", "ours forward")}, "torch forward")
    backward = measure({k: cols[k] for k in ("torch backward", "ours backward")}, "torch backward")
    return product, forward.ratios["ours forward"], backward.ratios["ours backward"]


def main(threads=(1, os.cpu_count() or 1)) -> dict:
    counts = tuple(dict.fromkeys(threads))  # (one machine core: one count)
    load = OtherLoad()
    start = os.times().elapsed
    results = {}
    for count in counts:
        burnpy.set_num_threads(count)
        results[count] = {shape: row(shape) for shape in SHAPES}
    header = " | ".join(f"forward, backward at {n} thread{'s' * (n > 1)}" for n in counts)
    print("Torch backend convolutions x torch's own, ResNet-18 at 64x64, batch 16, float32")
    print(f"| convolution | path | {header} |")
    print("|---|---|" + "---|" * len(counts))
    for shape in SHAPES:
        cin, cout, kernel, stride, size = shape
        product = results[counts[0]][shape][0]
        cells = " | ".join(
            f"{results[n][shape][1]:.2f}x, {results[n][shape][2]:.2f}x" for n in counts
        )
        label = f"{cin}->{cout} {kernel}x{kernel} stride {stride} on {size}x{size}"
        print(f"| {label} | {'product' if product else 'torch'} | {cells} |")
    share = load.share(os.times().elapsed - start)
    if share is not None:
        print(f"(other processes used {share:.0%} of the CPUs meanwhile)")
    burnpy.set_num_threads(1)
    return results


if __name__ == "__main__":
    main()
