"""Imported-model inference: torchvision's resnet18 (random weights), exported to ONNX, imported
by burnpy.onnx and run eager and captured on the NumPy backend, against onnxruntime and
PyTorch eager, at batch 1 and 16 (224 x 224), one thread each. Before anything is timed, every
column's output is checked against onnxruntime's (rtol 1e-4)."""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before numpy loads its BLAS

import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benches.real_models import torchvision_resnet18  # noqa: E402
from benches.timing import Column, OtherLoad, measure  # noqa: E402
from benches.workloads import BenchMismatch  # noqa: E402
from burnpy import capture  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

BATCHES = (1, 16)


def _forward(model, x):
    return model(x)


def row(batch, torch, ort, folder) -> tuple:
    torch.manual_seed(0)
    model = torchvision_resnet18(torch, 1000).eval()
    example = torch.randn(batch, 3, 224, 224)
    path = Path(folder) / f"resnet18_{batch}.onnx"
    torch.onnx.export(model, (example,), str(path), dynamo=False, opset_version=17)
    x = np.random.default_rng(batch).standard_normal((batch, 3, 224, 224)).astype(np.float32)
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    expected = session.run(None, {name: x})[0]
    imported = importer.load(path, device=Device.numpy())
    xt = Tensor.from_data(x)
    captured = capture(_forward)
    with torch.no_grad():
        outputs = {
            "eager": imported(xt).to_numpy(),
            "captured": [captured(imported, xt) for _ in range(2)][-1].to_numpy(),
            "PyTorch": model(torch.from_numpy(x)).numpy(),
        }
    for column, out in outputs.items():
        if not np.allclose(out, expected, rtol=1e-4, atol=1e-4):
            raise BenchMismatch(f"resnet18 batch {batch}: {column} differs from onnxruntime")
    columns = {
        "onnxruntime": Column("run(None, feed)", {"run": session.run, "feed": {name: x}}),
        "eager": Column("model(x)", {"model": imported, "x": xt}),
        "captured": Column("step(model, x)", {"step": captured, "model": imported, "x": xt}),
        "PyTorch": Column(
            "with no_grad(): model(x)",
            {"no_grad": torch.no_grad, "model": model, "x": torch.from_numpy(x)},
        ),
    }
    return measure(columns, "onnxruntime", repeats=5, min_time=0.001, settle=("PyTorch", 0.2))


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
    print("Imported resnet18 inference (224 x 224, one thread): ms per call, x onnxruntime")
    print("| batch | onnxruntime | eager | captured | PyTorch |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for batch in BATCHES:
            result = row(batch, torch, ort, folder)
            cells = [
                f"{result.seconds[c] * 1e3:.1f} ms ({result.ratios[c]:.2f}x)"
                for c in ("onnxruntime", "eager", "captured", "PyTorch")
            ]
            print(f"| {batch} | " + " | ".join(cells) + " |")
    share = load.share(time.perf_counter() - start)
    if share is not None:
        print(f"(other processes used {share:.0%} of the CPUs meanwhile)")


if __name__ == "__main__":
    main()
