"""Post-training quantization at one thread (`python -m benches.quantization`): a matmul whose
weight is quantized (dequantized on the fly) against the float one, on NumPy and on Torch; the
two examples' models, float against Q8S, for their inference time and their record size.

A ratio is a column's time over the float column's in the same repeat (benches/timing.py); raw
numpy's `x @ w` and its `x @ (q * scale)` are the floor of each.
"""

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from benches.timing import Column, measure  # noqa: E402
from burnpy import nn  # noqa: E402
from burnpy.generated import (
    Device,
    QuantLevel,
    QuantScheme,
    QuantStore,
    QuantValue,
    Tensor,
)  # noqa: E402

# burn's CPU scheme: values stored one int8 each (NATIVE); PACKED_U32 packs them into u32 words.
Q8S = QuantScheme().with_value(QuantValue.Q8S).with_store(QuantStore.NATIVE)
BLOCKS = QuantLevel.block([32])
SCHEMES = {
    "Q8S per tensor": Q8S,
    "Q8S blocks of 32": Q8S.with_level(BLOCKS),
    "Q8S packed u32": Q8S.with_store(QuantStore.PACKED_U32),
    "Q4S blocks of 32": Q8S.with_value(QuantValue.Q4S).with_level(BLOCKS),
    "Q4S/32 packed u32": Q8S.with_value(QuantValue.Q4S)
    .with_level(BLOCKS)
    .with_store(QuantStore.PACKED_U32),
}
MATMULS = {"x [64,512] @ w [512,512]": (64, 512, 512), "x [1,512] @ w [512,512]": (1, 512, 512)}


def matmul_columns(shape, scheme, device) -> dict:
    batch, inner, outer = shape
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, inner)).astype(np.float32)
    w = rng.standard_normal((inner, outer)).astype(np.float32)
    xt, wt = Tensor.from_data(x, device=device), Tensor.from_data(w, device=device)
    qw = wt.quantize_dynamic(scheme)
    values = qw.quantized_values()
    grid = (
        qw.quantized_scales().reshape(-1, 1)
        if qw.quantized_scales().size == 1
        else qw.quantized_scales()
    )
    scale_full = np.repeat(np.repeat(grid, inner // grid.shape[0], 0), outer // grid.shape[1], 1)
    return {
        "float": Column("x.matmul(w)", {"x": xt, "w": wt}),
        "quantized": Column("x.matmul(w)", {"x": xt, "w": qw}),
        "numpy": Column("x @ w", {"x": x, "w": w}),
        "numpy dequantized": Column(
            "x @ (q * s)", {"x": x, "q": values.astype(np.float32), "s": scale_full}
        ),
    }


def matmul_table():
    print("matmul, float32 activations, one thread: quantized weight vs float weight")
    print(f"{'workload':29s}{'device':7s}{'scheme':19s}{'float ms':>9s}{'quant ms':>9s}{'ratio':>8s}"
          f"{'numpy ms':>9s}{'np deq ms':>10s}")  # fmt: skip
    for label, shape in MATMULS.items():
        for device_name, device in (("numpy", Device.numpy()), ("torch", Device.torch())):
            for scheme_name, scheme in SCHEMES.items():
                row = measure(matmul_columns(shape, scheme, device), "float", repeats=7)
                s, r = row.seconds, row.ratios
                print(
                    f"{label:29s}{device_name:7s}{scheme_name:19s}{s['float'] * 1e3:9.3f}"
                    f"{s['quantized'] * 1e3:9.3f}{r['quantized']:7.2f}x{s['numpy'] * 1e3:9.3f}"
                    f"{s['numpy dequantized'] * 1e3:10.3f}"
                )


def example_models() -> dict:
    """The two examples' models as they are built (their size does not depend on training),
    with an input batch each: digits' 360 test images, 16 windows of 64 characters."""
    from examples import char_transformer, digits_cnn

    Device.numpy().seed(0)
    digits = digits_cnn.DigitsCNN(Device.numpy())
    images = Tensor.from_data(np.random.default_rng(0).random((360, 1, 8, 8), np.float32))
    char = char_transformer.CharTransformer(103, context=64, dropout=0.0, device=Device.numpy())
    ids = Tensor.from_data(np.random.default_rng(0).integers(0, 103, (16, 64)))
    return {"digits CNN": (digits, images), "char transformer": (char, ids)}


def record_bytes(model) -> int:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "model.safetensors"
        model.save(path)
        return path.stat().st_size


def models_table():
    print("\nthe examples' models, one thread: float32 against Q8S (and Q4S) per tensor (MinMax)")
    print(f"{'model':18s}{'params':>9s}{'float KiB':>10s}{'Q8S KiB':>9s}{'size':>7s}{'Q4S KiB':>11s}"
          f"{'size':>7s}{'float ms':>9s}{'Q8S ms':>9s}{'ratio':>7s}")  # fmt: skip
    for label, (model, batch) in example_models().items():
        quantized = _quantized(model, Q8S)
        q4 = _quantized(model, Q8S.with_value(QuantValue.Q4S))
        sizes = [record_bytes(m) for m in (model, quantized, q4)]
        columns = {
            "float": Column("m(x)", {"m": model, "x": batch}),
            "quantized": Column("m(x)", {"m": quantized, "x": batch}),
        }
        row = measure(columns, "float", repeats=5)
        s = row.seconds
        print(
            f"{label:18s}{model.num_params():9d}{sizes[0] / 1024:10.1f}{sizes[1] / 1024:9.1f}"
            f"{sizes[1] / sizes[0]:6.2f}x{sizes[2] / 1024:11.1f}{sizes[2] / sizes[0]:6.2f}x"
            f"{s['float'] * 1e3:9.2f}{s['quantized'] * 1e3:9.2f}{row.ratios['quantized']:6.2f}x"
        )


def _quantized(model, scheme):
    """A copy with every parameter quantized."""
    return model.valid().quantize_weights(nn.Quantizer(scheme=scheme))


def main():
    import torch

    torch.set_num_threads(1)
    matmul_table()
    models_table()


if __name__ == "__main__":
    main()
