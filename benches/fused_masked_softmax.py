"""Attention's masked softmax, float32, one thread (`python -m benches.fused_masked_softmax`):
the NumPy backend's two kernels (`float_mask_fill` with burn's min_float, then `softmax`; and
backward `softmax_backward`, then the fill's backward) against the one fused C kernel a compiled
capture calls for each pair, and PyTorch's `masked_fill` + `softmax` (and their backward). The
scores are [batch, heads, seq, seq] with burn's causal mask [batch, 1, seq, seq]. A ratio is to
PyTorch's time in the same repeat.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from burnpy.capture import compiler  # noqa: E402
from burnpy.runtime.backends.registry import backend_for  # noqa: E402

MIN_FLOAT = -1.0e4
SHAPES = ((8, 4, 128, 128), (2, 12, 256, 256))  # the GPT-2 bench's, and GPT-2 small's heads


def columns(shape) -> dict:
    rng = np.random.default_rng(0)
    backend, library = backend_for("NumPy"), compiler.library("float32")
    batch, heads, seq, _ = shape
    scores, grad = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
    mask = np.ascontiguousarray(
        np.broadcast_to(np.triu(np.ones((seq, seq), bool), 1), (batch, 1, seq, seq))
    )
    y = backend.softmax(backend.float_mask_fill(scores, mask, MIN_FLOAT), 3)
    out = np.empty_like(scores)
    st, gt, yt, mt = (torch.from_numpy(a) for a in (scores, grad, y, mask))
    rows = scores.size // seq
    names = dict(backend=backend, torch=torch, library=library, out=out, rows=rows, seq=seq)
    names.update(scores=scores, grad=grad, mask=mask, y=y, st=st, gt=gt, yt=yt, mt=mt)
    names.update(heads=heads, fill=MIN_FLOAT)
    return {
        "forward": {
            "numpy": "backend.softmax(backend.float_mask_fill(scores, mask, fill), 3)",
            "fused": "library['masked_softmax_f32'](rows, seq, scores, mask, heads, seq, fill, out)",
            "PyTorch": "torch.softmax(st.masked_fill(mt, fill), 3)",
        },
        "backward": {
            "numpy": "backend.float_mask_fill(backend.softmax_backward(y, grad, 3), mask, 0.0)",
            "fused": (
                "library['masked_softmax_backward_f32'](rows, seq, y, grad, mask, heads, seq, 0.0,"
                " out)"
            ),
            "PyTorch": (
                "torch._softmax_backward_data(gt, yt, 3, torch.float32).masked_fill_(mt, 0.0)"
            ),
        },
    }, names


def main():
    torch.set_num_threads(1)
    print("masked softmax (f32, 1 thread): ms per call, ratio to PyTorch's")
    for shape in SHAPES:
        table, names = columns(shape)
        for kind, cols in table.items():
            row = measure({k: Column(v, names) for k, v in cols.items()}, "PyTorch", repeats=7)
            cells = "  ".join(
                f"{k} {row.seconds[k] * 1e3:7.3f} ms {row.ratios[k]:5.2f}x" for k in cols
            )
            print(f"{str(list(shape)):18} {kind:9} {cells}")
    print(f"(load average {', '.join(f'{v:.2f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
