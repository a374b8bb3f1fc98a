"""The examples' `--quantize` report: the trained model beside a copy of it with its weights
quantized (every parameter, per tensor, MinMax calibration, one int8 a value in memory as
burn's CPU backends keep them), compared on the example's own measure, the record's size and
the time of a forward pass."""

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from burnpy import nn
from burnpy.generated import QuantScheme, QuantStore, QuantValue

QUANT_VALUES = {v.name.lower(): v for v in QuantValue}
LABEL = 28  # the width of the rows' labels


def quantization_report(
    model, value: str, inputs: tuple, measure: Callable, label: str, spec: str, forward: str
) -> dict:
    """Print the float model against its quantized copy (`value`: a key of QUANT_VALUES):
    `measure(model)` on the row `label`, formatted by `spec`; the record's size; the best time of
    a forward pass on `inputs` (already on the model's inner device), on the row `forward`.
    Returns the figures per column: `measure`, `bytes` and `seconds`."""
    scheme = QuantScheme().with_store(QuantStore.NATIVE).with_value(QUANT_VALUES[value])
    models = {
        "float32": model.valid(),
        value.upper(): model.valid().quantize_weights(nn.Quantizer(scheme=scheme)),
    }
    report = {
        name: {"measure": measure(m), "bytes": record_size(m), "seconds": seconds}
        for (name, m), seconds in zip(models.items(), best_times(models.values(), *inputs))
    }
    (head, base), (name, quantized) = report.items()
    print(f"\npost-training quantization ({name} per tensor, MinMax calibration):")
    print(f"{'':{LABEL}}{head:>12}{name:>12}")
    print(f"{label:{LABEL}}{base['measure']:>12{spec}}{quantized['measure']:>12{spec}}")
    ratio = quantized["bytes"] / base["bytes"]
    print(
        f"{'record size':{LABEL}}{base['bytes'] / 1024:>8.1f} KiB"
        f"{quantized['bytes'] / 1024:>8.1f} KiB ({ratio:.2f}x)"
    )
    ratio = quantized["seconds"] / base["seconds"]
    print(
        f"{forward:{LABEL}}{base['seconds'] * 1e3:>9.2f} ms{quantized['seconds'] * 1e3:>9.2f} ms"
        f" ({ratio:.2f}x)"
    )
    return report


def best_times(models, *inputs, repeats=7) -> list:
    """Each model's best time for a forward pass on `inputs`, the models taking turns, so
    that another load on the machine slows them alike."""
    times: list[list[float]] = [[] for _ in models]
    for _ in range(repeats):
        for model, seconds in zip(models, times):
            start = time.perf_counter()
            model(*inputs)
            seconds.append(time.perf_counter() - start)
    return [min(seconds) for seconds in times]


def record_size(model) -> int:
    """The bytes of the model's record (`model.save`)."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "model.safetensors"
        model.save(path)
        return path.stat().st_size
