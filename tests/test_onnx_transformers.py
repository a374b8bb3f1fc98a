"""transformers' BertModel and GPT2LMHeadModel (benches/transformer_exports.py: small configs,
seeded, no download) exported by both of torch's exporters with dynamic batch and sequence axes, whose graphs compute
shapes at run time (Shape -> Gather -> Concat -> Reshape), imported by burnpy.onnx, captured and
compiled: one recording per (batch, seq), each equal to onnxruntime's outputs, on both
backends."""

from pathlib import Path

import numpy as np
import pytest

import background
import hf_exports

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from benches import transformer_exports as models  # noqa: E402
from burnpy import capture  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
PAIRS = [(1, 5), (3, 12), (2, 7)]  # (batch, seq)


# The exports (the dynamo exporter takes seconds a model) run in a child process started with
# the session (tests/background.py).
def start_in_background(config, names):
    if background.tests_taking(globals(), "exported") & {*names}:
        hf_exports.MADE.start(config)


@pytest.fixture(scope="module")
def exported() -> Path:
    return hf_exports.MADE.folder()


def _forward(model, *inputs):
    return model(*inputs)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("exporter", models.EXPORTERS)
@pytest.mark.parametrize("name", models.NAMES)
def test_a_transformer_with_dynamic_axes_captures_and_compiles_equal_to_onnxruntime(
    exported, name, exporter, device
):
    path = exported / f"{name}-{exporter}.onnx"
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    model = importer.load(path, device=DEVICES[device](), untie=True)
    step = capture(_forward, compile=True)
    for batch, seq in PAIRS + PAIRS[:1]:  # the last one replays the first recording
        feed = models.inputs(batch, seq, seed=batch * seq)
        expected = session.run(None, feed)
        outputs = step(model, *(Tensor.from_data(a, device=DEVICES[device]()) for a in feed.values()))  # fmt: skip
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        assert len(outputs) == len(expected)
        for out, want in zip(outputs, expected):
            np.testing.assert_allclose(out.to_numpy(), want, rtol=1e-4, atol=1e-5)
    assert len(step.signatures) == len(PAIRS)
    for signature in step.signatures:
        assert step.memory(signature).planned > 0  # compiled, not replayed uncompiled
        assert "to_numpy" not in step.source(signature)


def _train(model, opt, input_ids, attention_mask, lr):
    loss = model(input_ids, attention_mask).square().mean()
    opt.step(model, loss.backward(), lr=lr)
    return loss


@pytest.mark.parametrize("exporter", models.EXPORTERS)
def test_a_captured_training_step_of_gpt2_with_dynamic_axes_is_the_eager_steps(exported, exporter):
    """Uncompiled, a replay runs the eager step's kernels: the same losses and weights, bit for
    bit, through two sequence lengths recorded and replayed in turn."""
    from burnpy import optim

    path = exported / f"gpt2-{exporter}.onnx"
    device = Device.numpy().autodiff()
    eager, captured = (importer.load(path, device=device, untie=True) for _ in range(2))
    eager_opt, captured_opt = optim.SGD(0.1), optim.SGD(0.1)
    step = capture(_train)
    for batch, seq in PAIRS[:2] * 2:
        ids, mask = (Tensor.from_data(a, device=device) for a in models.inputs(batch, seq).values())
        want = _train(eager, eager_opt, ids, mask, 0.1).to_numpy()
        np.testing.assert_array_equal(step(captured, captured_opt, ids, mask, 0.1).to_numpy(), want)
    assert len(step.signatures) == 2
    for (name, a), (_, b) in zip(eager.named_parameters(), captured.named_parameters()):
        np.testing.assert_array_equal(a.to_numpy(), b.to_numpy(), err_msg=name)
