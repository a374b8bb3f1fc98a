"""What a package's own op costs (`python -m benches.own_ops`): benches/benchops's `times`, a
package op doing float_mul's work with float_mul's kernel and rule, beside the built-in
`float_mul` (its dispatch function), at 8x8 float32, plain and tracked (inputs that require a
gradient: the op is recorded), on both backends; on Torch also beside
`torch.library.custom_op` doing the same work (with its autograd registered) and torch's own
`*`. A ratio is to the built-in op's time in the same repeat; the package op should be within 5%.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benches.benchops.generated import times  # noqa: E402
from benches.timing import Column, measure  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402
from burnpy.generated.dispatch import float_mul  # noqa: E402

SHAPE = (8, 8)


def custom_op():
    """`times` as torch.library.custom_op: its schema, fake (shape) function and autograd."""
    import torch

    @torch.library.custom_op("burnpy_bench::times", mutates_args=())
    def times_op(lhs: torch.Tensor, rhs: torch.Tensor) -> torch.Tensor:
        return lhs * rhs

    @times_op.register_fake
    def _(lhs, rhs):
        return torch.empty_like(lhs)

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    def backward(ctx, grad):
        lhs, rhs = ctx.saved_tensors
        return grad * rhs, grad * lhs

    times_op.register_autograd(backward, setup_context=setup_context)
    return times_op


def columns(backend: str, tracked: bool) -> tuple[dict, dict]:
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(SHAPE).astype(np.float32) for _ in range(2))
    device = getattr(Device, backend)()
    device = device.autodiff() if tracked else device
    x, y = (Tensor.from_data(v, device=device) for v in (a, b))
    if tracked:
        x, y = x.require_grad(), y.require_grad()
    names = dict(times=times, float_mul=float_mul, x=x, y=y)
    stmts = {"package op": "times(x, y)", "built-in op": "float_mul(x, y)"}
    if backend == "torch":
        import torch

        xt, yt = (torch.from_numpy(v).requires_grad_(tracked) for v in (a, b))
        names.update(times_op=CUSTOM_OP, xt=xt, yt=yt)
        stmts.update({"custom_op": "times_op(xt, yt)", "torch *": "xt * yt"})
    return stmts, names


CUSTOM_OP = None
HEADERS = ("package op", "built-in op", "custom_op", "torch *")


def main():
    global CUSTOM_OP
    backends = ["numpy"]
    try:
        import torch

        torch.set_num_threads(1)
        CUSTOM_OP = custom_op()
        backends.append("torch")
    except ImportError:
        pass
    print("A package's op (benchops.times) beside the built-in float_mul, 8x8 f32, 1 thread:")
    print("µs per call, ratio to the built-in op's")
    print(f"{'backend':8} {'inputs':8}" + "".join(f"{c:>18}" for c in HEADERS))
    for backend in backends:
        for tracked in (False, True):
            stmts, names = columns(backend, tracked)
            row = measure({k: Column(v, names) for k, v in stmts.items()}, "built-in op", 41)
            cells = "".join(f"{row.seconds[k] * 1e6:9.2f} {row.ratios[k]:5.2f}x  " for k in stmts)
            print(f"{backend:8} {'tracked' if tracked else 'plain':8} {cells}")
    print(f"(load average {', '.join(f'{v:.2f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
