"""Imported-model inference: torchvision's resnet18 and mobilenet_v3_small (random weights),
exported to ONNX, imported by burnpy.onnx and run eager, captured and compiled on the NumPy
backend, against onnxruntime and PyTorch eager (224 x 224, one thread each). Before anything
is timed, every column's output is checked against onnxruntime's (rtol 1e-4)."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import tempfile  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benches.real_models import (  # noqa: E402
    torchvision_mobilenet_v3_small,
    torchvision_resnet18,
)
from benches.timing import Column, OtherLoad, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

# (name, its torchvision definition, the batches it runs at)
MODELS = (
    ("resnet18", torchvision_resnet18, (1, 16)),
    ("mobilenet_v3_small", torchvision_mobilenet_v3_small, (1, 8)),
)
COLUMNS = ("onnxruntime", "eager", "captured", "compiled", "PyTorch")


def _forward(model, x):
    return model(x)


def row(name, definition, batch, torch, ort, folder) -> tuple:
    torch.manual_seed(0)
    model = definition(torch, 1000).eval()
    example = torch.randn(batch, 3, 224, 224)
    path = Path(folder) / f"{name}_{batch}.onnx"
    with warnings.catch_warnings():  # the legacy exporter's deprecation, the tied weights
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (example,), str(path), dynamo=False, opset_version=17)
        imported = importer.load(path, device=Device.numpy())
    x = np.random.default_rng(batch).standard_normal((batch, 3, 224, 224)).astype(np.float32)
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    feed = session.get_inputs()[0].name
    expected = session.run(None, {feed: x})[0]
    xt = Tensor.from_data(x)
    captured = capture(_forward)
    compiled = capture(_forward, compile=True)
    with torch.no_grad():
        outputs = {
            "eager": imported(xt).to_numpy(),
            "captured": [captured(imported, xt) for _ in range(2)][-1].to_numpy(),
            "compiled": [compiled(imported, xt) for _ in range(2)][-1].to_numpy(),
            "PyTorch": model(torch.from_numpy(x)).numpy(),
        }
    for column, out in outputs.items():
        if not np.allclose(out, expected, rtol=1e-4, atol=1e-4):
            raise BenchMismatch(f"{name} batch {batch}: {column} differs from onnxruntime")
    columns = {
        "onnxruntime": Column("run(None, feed)", {"run": session.run, "feed": {feed: x}}),
        "eager": Column("model(x)", {"model": imported, "x": xt}),
        "captured": Column("step(model, x)", {"step": captured, "model": imported, "x": xt}),
        "compiled": Column("step(model, x)", {"step": compiled, "model": imported, "x": xt}),
        "PyTorch": Column(
            "with no_grad(): model(x)",
            {"no_grad": torch.no_grad, "model": model, "x": torch.from_numpy(x)},
        ),
    }
    # several calls a repeat where a call is short: a single call of a few milliseconds is at the
    # mercy of one scheduling hiccup
    return measure(columns, "onnxruntime", repeats=9, min_time=0.05, settle=("PyTorch", 0.2))


def main() -> None:
    try:
        import onnxruntime as ort
        import torch
    except ImportError as error:
        print(f"benches.onnx_import: needs torch and onnxruntime ({error.name} is missing)")
        return
    torch.set_num_threads(1)
    load = OtherLoad()
    import time

    start = time.perf_counter()
    print("Imported-model inference (224 x 224, one thread): ms per call, x onnxruntime")
    print("| model | batch | " + " | ".join(COLUMNS) + " |")
    print("|---|---|" + "---|" * len(COLUMNS))
    with tempfile.TemporaryDirectory() as folder:
        for name, definition, batches in MODELS:
            for batch in batches:
                result = row(name, definition, batch, torch, ort, folder)
                cells = [
                    f"{result.seconds[c] * 1e3:.1f} ms ({result.ratios[c]:.2f}x)" for c in COLUMNS
                ]
                print(f"| {name} | {batch} | " + " | ".join(cells) + " |")
    share = load.share(time.perf_counter() - start)
    if share is not None:
        print(f"(other processes used {share:.0%} of the CPUs meanwhile)")


if __name__ == "__main__":
    main()
