"""Smoke runs of examples/digits_cnn.py (one or two epochs on a subset), so it cannot rot, and the
check of benches/training.py."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file

from benches import training, workloads
from examples import digits_cnn as example

import background

ROOT = Path(__file__).resolve().parent.parent

try:
    import torch
except ImportError:
    torch = None


def lines(capsys) -> list:
    return capsys.readouterr().out.splitlines()


def test_one_epoch_ends_with_the_accuracy_line_and_writes_the_plot(digits_smoke):
    out, accuracy = digits_smoke["out"], digits_smoke["accuracy"]
    assert re.fullmatch(r"test accuracy: \d{1,3}\.\d\d%", out[-1])
    assert out[-1] == f"test accuracy: {100 * accuracy:.2f}%"
    assert any(
        re.fullmatch(r"peak memory of a training step \(NoCheckpointing\): [\d.]+ MiB", l)
        for l in out
    )
    assert digits_smoke["plot"].read_bytes().startswith(b"\x89PNG")


def test_quantize_reports_accuracy_size_and_time_against_the_float_model(digits_smoke):
    out = digits_smoke["out"]
    head = out.index("post-training quantization (Q8S per tensor, MinMax calibration):")
    rows = {line[:26].strip(): line[26:].split() for line in out[head + 2 : head + 5]}
    assert out[head + 1].split() == ["float32", "Q8S"]
    assert rows["test accuracy"][0] == f"{100 * digits_smoke['accuracy']:.2f}%"
    quantized = float(rows["test accuracy"][1].rstrip("%"))
    assert abs(quantized - 100 * digits_smoke["accuracy"]) <= 100 * 2 / 40  # 40 test images
    size = rows["record size"]
    assert (
        float(size[2]) <= 0.3 * float(size[0])
        and size[4] == f"({float(size[2]) / float(size[0]):.2f}x)"
    )
    assert len(rows["inference, 40 images"]) == 5


_STARTED = {}


def start_in_background(config, names):
    """The default run, as `make train` runs it (`python examples/digits_cnn.py`), started
    with the session (tests/background.py)."""
    if "test_the_default_run_reaches_97_percent" in names:
        command = [sys.executable, str(ROOT / "examples" / "digits_cnn.py")]
        _STARTED["default"] = background.start(config, lambda _: [command], 300, cwd=ROOT)


def test_the_default_run_reaches_97_percent():
    """All the data, 15 epochs (a few seconds)."""
    job = _STARTED["default"]
    assert job.wait() == [0], job.output(0)
    last = job.output(0).splitlines()[-1]
    accuracy = float(re.fullmatch(r"test accuracy: (\d+\.\d\d)%", last).group(1))
    assert accuracy >= 97.0


def test_resume_continues_an_interrupted_run_exactly(tmp_path, monkeypatch, capsys):
    args = ["--subset", "200", "--epochs", "2"]
    straight = example.main(args + ["--resume", str(tmp_path / "straight")])

    save = example.Checkpoint.save

    def save_then_die(self, *a):
        save(self, *a)
        raise KeyboardInterrupt  # the process stops after writing epoch 1

    monkeypatch.setattr(example.Checkpoint, "save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        example.main(args + ["--resume", str(tmp_path / "cut")])
    monkeypatch.setattr(example.Checkpoint, "save", save)
    capsys.readouterr()
    resumed = example.main(args + ["--resume", str(tmp_path / "cut")])
    assert "resumed from" in capsys.readouterr().out
    assert resumed == straight
    a = load_file(tmp_path / "straight" / "model-2.safetensors")
    b = load_file(tmp_path / "cut" / "model-2.safetensors")
    assert sorted(p.name for p in (tmp_path / "cut").iterdir()) == [
        "model-2.safetensors",
        "optimizer-2.safetensors",
        "state.json",
    ]
    assert a.keys() == b.keys()
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)
    with pytest.raises(ValueError, match="other settings"):
        example.main(["--subset", "200", "--epochs", "3", "--resume", str(tmp_path / "cut")])


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_torch_device_with_checkpointing_trains_as_numpy_does(digits_smoke, capsys):
    on_torch = example.main(digits_smoke["args"] + ["--device", "torch", "--checkpointing"])
    assert "(Balanced)" in capsys.readouterr().out
    assert abs(on_torch - digits_smoke["accuracy"]) <= 1 / 40 + 1e-9  # 40 test images: one may flip


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_compare_trains_pytorch_from_the_same_start(digits_smoke):
    out = digits_smoke["out"]
    row = next(l for l in out if l.startswith("final loss")).split()
    ours, theirs = float(row[-2]), float(row[-1])
    assert ours == pytest.approx(theirs, rel=1e-3)  # same weights, batches and rates
    assert any(l.startswith("seconds per epoch") for l in out)


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_bench_columns_agree_and_a_wrong_one_is_refused():
    args = example.parse([])
    train, _ = example.load_split(args.seed, 200)
    losses = {c: training.first_losses(c, args, train) for c in ("numpy", "PyTorch")}
    workloads.check_losses(losses)
    losses["numpy"][1] *= 1.001
    with pytest.raises(workloads.BenchMismatch, match="numpy: loss of step 2"):
        workloads.check_losses(losses)
