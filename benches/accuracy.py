"""How far a compiled replay (`capture(fn, compile=True)`) drifts from the uncompiled replay over
training steps, against capture's bounds: over 20 steps, float32 losses within 1e-5 relative and
parameters within 1e-4; float64 within 1e-12.

Each bench model gives a `train(compile, dtype, nudge)` that trains it `STEPS` steps from its
initial weights on its bench batch and answers (the losses, the final parameters as numpy
arrays); `nudge` moves one weight (`nudge_first_weight`) by one unit in the last place before
the first step. Two yardsticks are printed beside the float32 figures, both of the uncompiled
replay: from that nudged weight (how far two runs drift when they differ by one rounding at the
start), and against its float64 run (float32's own error). A compiled kernel that rounds
otherwise than the backend's (glibc's `expf` where numpy has its own, a row summed in another
order than BLAS's) starts such a drift at every step.
"""

from dataclasses import dataclass

import numpy as np

from burnpy import Tensor

STEPS = 20
BOUNDS = {"float32": (1e-5, 1e-4), "float64": (1e-12, 1e-12)}  # (losses relative, parameters)


@dataclass(frozen=True)
class Drift:
    """Compiled against uncompiled in `dtype`: the largest relative loss difference over the
    steps and the largest parameter difference after them. `nudged` and `own`: the same two
    figures for the uncompiled replay from a weight one ulp away, and for the uncompiled
    float32 replay against the float64 one (None where not run)."""

    dtype: str
    loss: float
    params: float
    nudged: tuple | None = None
    own: tuple | None = None

    def met(self) -> bool:
        loss_bound, params_bound = BOUNDS[self.dtype]
        return self.loss <= loss_bound and self.params <= params_bound


def differences(run, reference) -> tuple[float, float]:
    """(largest relative loss difference, largest parameter difference) of two training runs,
    each (losses, parameters)."""
    losses, params = run
    reference_losses, reference_params = reference
    a, b = np.asarray(losses, np.float64), np.asarray(reference_losses, np.float64)
    loss = float(np.max(np.abs(a - b) / np.abs(b)))
    param = max(
        float(np.max(np.abs(x.astype(np.float64) - y))) for x, y in zip(params, reference_params)
    )
    return loss, param


def drifts(train) -> list[Drift]:
    """The float32 and float64 drifts of a model's `train`: six training runs."""
    plain = {dtype: train(False, dtype, False) for dtype in BOUNDS}
    compiled = {dtype: differences(train(True, dtype, False), plain[dtype]) for dtype in BOUNDS}
    nudged = differences(train(False, "float32", True), plain["float32"])
    own = differences(plain["float32"], plain["float64"])
    return [
        Drift("float32", *compiled["float32"], nudged=nudged, own=own),
        Drift("float64", *compiled["float64"]),
    ]


def nudge_first_weight(model):
    """`model` with the first value of its first parameter one ulp up, in place (a trainable
    parameter still); returns the model."""
    done = False

    def nudge(name, param_id, tensor):
        nonlocal done
        if done:
            return tensor
        done = True
        array = tensor.to_numpy().copy()
        array.flat[0] = np.nextafter(array.flat[0], np.inf)
        return Tensor.from_data(array, device=tensor.device()).require_grad()

    return model.map_parameters(nudge)


def parameters(model) -> list:
    return [p.to_numpy().copy() for p in model.parameters()]


HEADER = (
    f"{'compiled vs uncompiled, ' + str(STEPS) + ' steps':36}{'dtype':9}{'loss rel':>9}"
    f"{'params':>9}  {'bound':15}{'':8}{'1 ulp away':>19}{'f32 vs f64':>19}"
)


LEGEND = (
    "(loss rel: the largest relative loss difference over the steps; params: the largest "
    "parameter difference after them;\n 1 ulp away: the uncompiled replay from one weight one "
    "ulp away; f32 vs f64: the uncompiled float32 replay against the float64 one)"
)


def _pair(figures) -> str:
    return "" if figures is None else f"{figures[0]:.1e} / {figures[1]:.1e}"


def lines(model: str, found) -> list[str]:
    """The table's lines for one model: a line per dtype, its verdict against the bounds."""
    out = []
    for index, d in enumerate(found):
        bound = "{:.0e} / {:.0e}".format(*BOUNDS[d.dtype])
        out.append(
            f"{model if index == 0 else '':36}{d.dtype:9}{d.loss:9.1e}{d.params:9.1e}  "
            f"{bound:15}{'met' if d.met() else 'MISSED':8}{_pair(d.nudged):>19}"
            f"{_pair(d.own):>19}".rstrip()
        )
    return out
