"""The fused batch-norm kernels of a compiled capture against the NumPy backend's kernels they
replace, at ResNet-18's batch-norm shapes (batch 16 of 3x64x64 images), float32, one thread
(`python -m benches.fused_batch_norm`). The step's own time (benches/real_steps.py) moves by
less than its run-to-run spread; this table shows what the fusion saves. A ratio is the fused
kernel's time over the backend's in the same repeat; the last row sums a step's 20 layers.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from burnpy.capture import compiler  # noqa: E402
from burnpy.runtime.backends.registry import backend_for  # noqa: E402

EPS = 1e-5
LAYERS = (  # ResNet-18's batch norms at 64x64 inputs: shape, how many
    ((16, 64, 32, 32), 1),
    ((16, 64, 16, 16), 4),
    ((16, 128, 8, 8), 5),
    ((16, 256, 4, 4), 5),
    ((16, 512, 2, 2), 5),
)


def columns(shape) -> dict:
    """The backend's forward and backward kernels, and the fused ones, on one layer's arrays."""
    rng = np.random.default_rng(0)
    backend, library = backend_for("NumPy"), compiler.library("float32")
    x, grad = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    gamma, beta = (rng.standard_normal(shape[1]).astype(np.float32) for _ in range(2))
    _, mean, variance = backend.batch_norm_training(x, gamma, beta, EPS)
    n, channels, s = shape[0], shape[1], x.size // (shape[0] * shape[1])
    out, dx = np.empty_like(x), np.empty_like(x)
    stats = [np.empty_like(gamma) for _ in range(4)]
    names = dict(
        backend=backend,
        forward=library["batch_norm_training_f32"],
        backward=library["batch_norm_training_backward_f32"],
        **dict(x=x, grad=grad, gamma=gamma, beta=beta, mean=mean, variance=variance),
        **dict(n=n, channels=channels, s=s, out=out, dx=dx, stats=stats, eps=EPS),
    )
    fused_forward = "forward(n, channels, s, x, gamma, beta, eps, out, stats[0], stats[1])"
    fused_backward = (
        "backward(n, channels, s, x, gamma, grad, None, None, mean, variance, eps, dx,"
        " stats[2], stats[3])"
    )
    return {
        "numpy forward": Column("backend.batch_norm_training(x, gamma, beta, eps)", names),
        "fused forward": Column(fused_forward, names),
        "numpy backward": Column(
            "backend.batch_norm_training_backward(x, gamma, (grad, None, None), mean,"
            " variance, eps)",
            names,
        ),
        "fused backward": Column(fused_backward, names),
    }


def main():
    print(
        f"{'batch norm (f32, 1 thread)':28} {'pass':9} {'numpy ms':>9} {'fused ms':>9} {'ratio':>6}"
    )
    totals = {"forward": [0.0, 0.0], "backward": [0.0, 0.0]}
    for shape, count in LAYERS:
        cols = columns(shape)
        for kind in ("forward", "backward"):
            pair = {name: cols[name] for name in (f"numpy {kind}", f"fused {kind}")}
            row = measure(pair, f"numpy {kind}", repeats=7)
            numpy_s, fused_s = row.seconds[f"numpy {kind}"], row.seconds[f"fused {kind}"]
            totals[kind][0] += numpy_s * count
            totals[kind][1] += fused_s * count
            label = f"{list(shape)} x{count}"
            ratio = row.ratios[f"fused {kind}"]
            print(f"{label:28} {kind:9} {numpy_s * 1e3:9.3f} {fused_s * 1e3:9.3f} {ratio:5.2f}x")
    for kind, (numpy_s, fused_s) in totals.items():
        ratio = fused_s / numpy_s
        print(
            f"{'a step, 20 layers':28} {kind:9} {numpy_s * 1e3:9.3f} {fused_s * 1e3:9.3f} {ratio:5.2f}x"
        )
    print(f"(load average {', '.join(f'{v:.2f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
