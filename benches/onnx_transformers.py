"""Imported transformers with dynamic axes: transformers' BertModel and GPT2LMHeadModel
(benches/transformer_exports.py, small configs: 2 layers, width 64, 4 heads), exported by both of torch's exporters with dynamic
batch and sequence axes, imported by burnpy.onnx and run eager, captured and captured with
compile=True on the NumPy backend, against onnxruntime, at batch 1 and 8, sequence 64, one
thread each. Before anything is timed, every column's outputs are checked against
onnxruntime's (rtol 1e-4)."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benches import transformer_exports as models  # noqa: E402
from benches.timing import Column, OtherLoad, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

BATCHES = (1, 8)
SEQ = 64
COLUMNS = ("onnxruntime", "eager", "captured", "compiled")


def _forward(model, *inputs):
    return model(*inputs)


def row(ort, path: Path, name: str, batch: int):
    feed = models.inputs(batch, SEQ)
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    expected = session.run(None, feed)
    model = importer.load(path, device=Device.numpy(), untie=True)  # (no warning: inference)
    inputs = [Tensor.from_data(a) for a in feed.values()]
    captured, compiled = capture(_forward), capture(_forward, compile=True)
    for column, step in (("eager", model), ("captured", captured), ("compiled", compiled)):
        run = (lambda: step(*inputs)) if step is model else (lambda: step(model, *inputs))
        for _ in range(2):  # (the second call of a captured step replays)
            outputs = run()
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        for out, want in zip(outputs, expected):
            if not np.allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-4):
                raise BenchMismatch(f"{path.stem} batch {batch}: {column} differs")
    columns = {
        "onnxruntime": Column("run(None, feed)", {"run": session.run, "feed": feed}),
        "eager": Column("model(*inputs)", {"model": model, "inputs": inputs}),
        "captured": Column(
            "step(model, *inputs)", {"step": captured, "model": model, "inputs": inputs}
        ),
        "compiled": Column(
            "step(model, *inputs)", {"step": compiled, "model": model, "inputs": inputs}
        ),
    }
    return measure(columns, "onnxruntime")


def main() -> None:
    try:
        import onnxruntime as ort
        import torch
    except ImportError as error:
        print(f"benches.onnx_transformers: needs torch and onnxruntime ({error.name} is missing)")
        return
    torch.set_num_threads(1)
    load = OtherLoad()
    start = time.perf_counter()
    print(
        f"Imported BERT / GPT-2 with dynamic axes (sequence {SEQ}, one thread, NumPy backend): "
        "ms per call, x onnxruntime"
    )
    print("| model | exporter | batch | " + " | ".join(COLUMNS) + " |")
    print("|---|---|---|" + "---|" * len(COLUMNS))
    with tempfile.TemporaryDirectory() as folder:
        for name in models.NAMES:
            for exporter in models.EXPORTERS:
                path = Path(folder) / f"{name}-{exporter}.onnx"
                models.export(torch, name, exporter, path)
                for batch in BATCHES:
                    result = row(ort, path, name, batch)
                    cells = [
                        f"{result.seconds[c] * 1e3:.2f} ms ({result.ratios[c]:.2f}x)"
                        for c in COLUMNS
                    ]
                    print(f"| {name} | {exporter} | {batch} | " + " | ".join(cells) + " |")
    share = load.share(time.perf_counter() - start)
    if share is not None:
        print(f"(other processes used {share:.0%} of the CPUs meanwhile)")


if __name__ == "__main__":
    main()
