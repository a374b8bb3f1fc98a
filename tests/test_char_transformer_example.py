"""Short runs of examples/char_transformer.py (a few steps on small batches), so it cannot rot,
and the check of benches/char_transformer.py. The default run (2,000 steps, a few minutes) is
not run here; its validation loss is quoted in the README."""

import contextlib
import io
import re

import pytest

from benches import char_step, workloads
from benches import char_transformer as bench

from examples import char_transformer as example
from seq_check import needs_torch
from seq_check import torch as seq_torch

SHORT = ["--steps", "4", "--batch-size", "4", "--context", "16", "--warmup", "2", "--every", "2"]


def test_the_data_is_the_sorted_topics_with_the_last_tenth_held_out():
    from pydoc_data.topics import topics

    text = example.load_text()
    first = sorted(topics)[0]
    assert text.startswith(topics[first]) and len(text) > 100_000
    corpus = example.Corpus(text)
    assert len(corpus.valid) == len(text) - int(len(text) * 0.9)
    assert corpus.decode(corpus.valid[-50:]) == text[-50:]
    inputs, targets = corpus.validation_windows(16)
    assert (inputs[:, 1:] == targets[:, :-1]).all() and inputs.shape[1] == 16


@pytest.fixture(scope="module")
def short_text():
    """The runs below read the first quarter of the text (its last tenth held out): their
    validation pass is a quarter of the full one, and every character class is still there."""
    text = example.load_text()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(example, "load_text", lambda: text[: len(text) // 4])
        yield


@pytest.fixture(scope="module")
def short_run(short_text, tmp_path_factory) -> dict:
    """One short run on numpy that samples, plots, quantizes and (with torch) trains the PyTorch
    twin: what it printed, the validation loss it returned, and the plot's path."""
    plot = tmp_path_factory.mktemp("char") / "loss.png"
    compare = ["--compare"] if seq_torch is not None else []
    with _stdout() as out:
        loss = example.main(SHORT + compare + ["--plot", str(plot), "--quantize"])
    return {"out": out.getvalue().splitlines(), "loss": loss, "plot": plot}


@contextlib.contextmanager
def _stdout():
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        yield buffer


def test_a_short_run_samples_plots_and_ends_with_the_validation_loss(short_run):
    out, loss = short_run["out"], short_run["loss"]
    assert re.fullmatch(r"validation loss: \d+\.\d{4}", out[-1])
    assert out[-1] == f"validation loss: {loss:.4f}"
    assert loss < 4.7  # below uniform guessing over the 103 characters (ln 103 = 4.63) + slack
    sample = out[out.index("sample:") + 1 :]
    assert len("\n".join(sample).rstrip("\n")) >= 100  # 200 characters, some may be blank
    assert short_run["plot"].read_bytes().startswith(b"\x89PNG")


def test_quantize_reports_loss_size_and_time_against_the_float_model(short_run):
    out = short_run["out"]
    head = out.index("post-training quantization (Q8S per tensor, MinMax calibration):")
    rows = {line[:28].strip(): line[28:].split() for line in out[head + 2 : head + 5]}
    float_loss, quantized_loss = (float(v) for v in rows["validation loss (nats)"])
    assert float_loss == pytest.approx(short_run["loss"], abs=1e-4)
    assert abs(quantized_loss - float_loss) < 0.05  # the target for the trained model
    size = rows["record size"]
    assert float(size[2]) <= 0.3 * float(size[0])
    assert len(rows["forward, 4 x 16 chars"]) == 5


@needs_torch
def test_compare_trains_pytorch_from_the_same_start(short_run):
    out = short_run["out"]
    head = next(i for i, l in enumerate(out) if l.strip().startswith("step"))
    rows = [l.split() for l in out[head + 1 : head + 3]]
    assert [r[0] for r in rows] == ["2", "4"]
    for _, ours, theirs in rows:
        assert float(ours) == pytest.approx(float(theirs), rel=1e-4)
    validation = next(l for l in out if l.startswith("validation loss ")).split()
    assert float(validation[-2]) == pytest.approx(float(validation[-1]), rel=1e-4)


@needs_torch
def test_torch_device_with_checkpointing_trains_as_numpy_does(short_run):
    on_torch = example.main(SHORT + ["--no-sample", "--device", "torch", "--checkpointing"])
    assert on_torch == pytest.approx(short_run["loss"], rel=1e-4)


@needs_torch
def test_bench_columns_agree_and_a_wrong_one_is_refused():
    args = char_step.arguments(batch_size=2, context=8)
    losses = {c: bench.first_losses(c, args) for c in bench.COLUMNS}
    workloads.check_losses(losses)
    losses["numpy"][1] *= 1.001
    with pytest.raises(workloads.BenchMismatch, match="numpy: loss of step 2"):
        workloads.check_losses(losses)
