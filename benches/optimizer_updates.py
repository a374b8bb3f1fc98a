"""The optimisers' in-place updates of a whole model, float32, one thread
(`python -m benches.optimizer_updates`): the NumPy backend's SGD (momentum, weight decay) and
AdamW over ResNet-18's parameters (10 classes, 11.2M weights), by cache-sized blocks
(runtime/backends/numpy_optim.py) and as the shared kernel's whole-array passes, beside
PyTorch's optimiser step over the same shapes. A ratio is a column's time over the blocked
update's in the same repeat. Before timing, the two ways give the same bits.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy.runtime.backends.kernels.optim import OptimKernels  # noqa: E402
from burnpy.runtime.backends.numpy import BACKEND  # noqa: E402

SGD = dict(lr=0.01, momentum=0.9, dampening=0.0, weight_decay=5e-4, nesterov=False)
ADAMW = dict(lr=3e-4, beta_1=0.9, beta_2=0.999, epsilon=1e-5, weight_decay=0.01)
CORRECTIONS = dict(bias_correction_1=1 - 0.9**7, bias_correction_2=1 - 0.999**7)
RULES = ("SGD", "AdamW")


def resnet18_shapes() -> list:
    import torch

    from benches.real_models import torchvision_resnet18

    return [tuple(p.shape) for p in torchvision_resnet18(torch, 10).parameters()]


def model_arrays(shapes, seed=0) -> list:
    """[param, grad, moment 1 (SGD's velocity), moment 2] for each shape."""
    rng = np.random.default_rng(seed)
    arrays = [[rng.standard_normal(s).astype(np.float32) for _ in range(4)] for s in shapes]
    for _, _, _, v in arrays:
        np.abs(v, out=v)
    return arrays


def update(rule, whole, arrays):
    """A thunk updating `arrays` in place by `rule`, by blocks or (`whole`) the shared kernel's
    whole-array passes."""
    owner = OptimKernels if whole else type(BACKEND)
    if rule == "SGD":
        step = owner.sgd_step
        return lambda: [step(BACKEND, p, g, m, **SGD, in_place=True) for p, g, m, _ in arrays]
    step, settings = owner.adam_step, dict(**ADAMW, **CORRECTIONS, decoupled=True)
    return lambda: [
        step(BACKEND, p, g, m, v, None, **settings, in_place=True) for p, g, m, v in arrays
    ]


def check(shapes) -> None:
    """The blocked and whole updates of equal arrays end bit for bit equal."""
    for rule in RULES:
        ends = []
        for whole in (False, True):
            arrays = model_arrays(shapes, seed=1)
            update(rule, whole, arrays)()
            ends.append([a for group in arrays for a in group])
        if not all(np.array_equal(a, b) for a, b in zip(*ends)):
            raise BenchMismatch(f"{rule}: the blocked update differs from the whole one")


def torch_step(shapes, rule):
    import torch

    torch.set_num_threads(1)
    params = [torch.randn(shape).requires_grad_() for shape in shapes]
    for p in params:
        p.grad = torch.randn_like(p)
    if rule == "SGD":
        s = SGD
        opt = torch.optim.SGD(
            params, lr=s["lr"], momentum=s["momentum"], weight_decay=s["weight_decay"]
        )
    else:
        a = ADAMW
        opt = torch.optim.AdamW(
            params, lr=a["lr"], eps=a["epsilon"], weight_decay=a["weight_decay"]
        )
    opt.step()  # its state made: the next steps update in place
    return opt.step


def main():
    shapes = resnet18_shapes()
    check(shapes)
    print(f"{'update (ResNet-18, f32, 1 thread)':34} {'column':14} {'ms':>7} {'ratio':>6}")
    arrays = model_arrays(shapes)
    weights = sum(int(np.prod(shape)) for shape in shapes) / 1e6
    for rule in RULES:
        cols = {
            "blocked": Column("run()", {"run": update(rule, False, arrays)}),
            "whole arrays": Column("run()", {"run": update(rule, True, arrays)}),
            "PyTorch": Column("step()", {"step": torch_step(shapes, rule)}),
        }
        row = measure(cols, "blocked", repeats=9)
        for i, name in enumerate(cols):
            label = f"{rule}, {weights:.1f}M weights" if not i else ""
            print(f"{label:34} {name:14} {row.seconds[name] * 1e3:7.2f} {row.ratios[name]:5.2f}x")
    print(f"(load average {', '.join(f'{v:.2f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
