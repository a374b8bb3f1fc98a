"""The NumPy backend's 3x3 convolutions of stride 1, by Winograd's products
(runtime/backends/numpy_winograd.py) and by the columns, against PyTorch's (mkldnn), at
ResNet-18's shapes: its stride-1 stages on 64x64 images at batch 16 (the training bench's) and
on 224x224 images at batch 1 (the imported model's), float32, one thread
(`python -m benches.winograd`). Each row times the forward, and the input's and the weight's
gradients together, Winograd's whatever the tiles, so that the threshold below which the
backend keeps the columns (`TILES`) can be checked against the times. Before timing, the three
give the same values. A ratio is a column's time over PyTorch's in the same repeat.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy.runtime.backends import numpy_winograd  # noqa: E402
from burnpy.runtime.backends.numpy import BACKEND  # noqa: E402

# (batch, channels, size): in and out channels equal, padding 1
SHAPES = (
    (16, 64, 16),
    (16, 128, 8),
    (16, 256, 4),
    (16, 512, 2),
    (1, 64, 56),
    (1, 128, 28),
    (1, 256, 14),
    (1, 512, 7),
)
OPTIONS = ((1, 1), (1, 1), (1, 1), 1, None)  # stride, padding, dilation, groups, padding_end
WANTED = (True, True, False)


def arrays(batch, channels, size, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, channels, size, size)).astype(np.float32)
    weight = rng.standard_normal((channels, channels, 3, 3)).astype(np.float32)
    weight /= np.float32((9 * channels) ** 0.5)
    grad = rng.standard_normal((batch, channels, size, size)).astype(np.float32)
    return x, weight, grad


class Way:
    """The NumPy backend's convolution by Winograd's products whatever its tiles (the backend
    takes them from numpy_winograd.TILES on), or by the columns."""

    def __init__(self, winograd: bool):
        self.tiles = 1 if winograd else float("inf")

    def forward(self, x, weight):
        return self._run(lambda: BACKEND.conv2d(x, weight, None, *OPTIONS))

    def backward(self, x, weight, grad):
        return self._run(lambda: BACKEND.conv2d_backward(x, weight, grad, *OPTIONS, WANTED)[:2])

    def _run(self, call):
        kept, numpy_winograd.TILES = numpy_winograd.TILES, self.tiles
        try:
            return call()
        finally:
            numpy_winograd.TILES = kept


def torch_calls(torch, x, weight, grad):
    tx, tw, tg = (torch.from_numpy(a) for a in (x, weight, grad))

    def forward():
        return torch.nn.functional.conv2d(tx, tw, None, 1, 1)

    def backward():
        return torch.ops.aten.convolution_backward(
            tg, tx, tw, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, WANTED
        )[:2]

    return forward, backward


def check(batch, channels, size, torch) -> None:
    """Winograd's, the columns' and torch's forward and gradients agree within float32's
    rounding of sums of 9 x channels terms, relative to each result's largest value."""
    x, weight, grad = arrays(batch, channels, size)
    forward, backward = torch_calls(torch, x, weight, grad)
    expected = [forward().numpy(), *(t.numpy() for t in backward())]
    for winograd in (True, False):
        way = Way(winograd)
        got = [way.forward(x, weight), *way.backward(x, weight, grad)]
        for name, g, e in zip(("forward", "input gradient", "weight gradient"), got, expected):
            if np.abs(g - e).max() > 1e-5 * np.abs(e).max():
                label = "Winograd's" if winograd else "the columns'"
                raise BenchMismatch(f"{batch}x{channels}x{size}: {label} {name} is not torch's")


def main():
    import torch

    torch.set_num_threads(1)
    print(
        f"{'3x3 stride 1 (f32, 1 thread)':30} {'pass':9} {'Winograd ms':>12} {'columns ms':>11}"
        f" {'PyTorch ms':>11} {'Winograd':>9} {'columns':>8}"
    )
    for batch, channels, size in SHAPES:
        check(batch, channels, size, torch)
        x, weight, grad = arrays(batch, channels, size)
        forward, backward = torch_calls(torch, x, weight, grad)
        names = dict(x=x, weight=weight, grad=grad, winograd=Way(True), columns=Way(False))
        rows = {
            "forward": {
                "Winograd": Column("winograd.forward(x, weight)", names),
                "columns": Column("columns.forward(x, weight)", names),
                "PyTorch": Column("run()", {"run": forward}),
            },
            "backward": {
                "Winograd": Column("winograd.backward(x, weight, grad)", names),
                "columns": Column("columns.backward(x, weight, grad)", names),
                "PyTorch": Column("run()", {"run": backward}),
            },
        }
        tiles = batch * ((size + 1) // 2) ** 2
        for kind, columns in rows.items():
            row = measure(columns, "PyTorch", repeats=7)
            label = (
                f"[{batch}, {channels}, {size}, {size}], {tiles} tiles" if kind == "forward" else ""
            )
            seconds, ratios = row.seconds, row.ratios
            print(
                f"{label:30} {kind:9} {seconds['Winograd'] * 1e3:12.3f}"
                f" {seconds['columns'] * 1e3:11.3f} {seconds['PyTorch'] * 1e3:11.3f}"
                f" {ratios['Winograd']:8.2f}x {ratios['columns']:7.2f}x"
            )
    print(
        f"(the backend takes Winograd's from {numpy_winograd.TILES} tiles on; load average"
        f" {', '.join(f'{v:.2f}' for v in os.getloadavg())})"
    )


if __name__ == "__main__":
    main()
