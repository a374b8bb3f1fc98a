"""Real models exported by torch.onnx.export (the dynamo exporter, and the TorchScript one at
opsets 13 and 17), imported by burnpy.onnx: outputs equal onnxruntime's on both backends, an
imported CNN's input gradient equals torch autograd's on the source model, one optimiser step
lowers the loss, and burnpy.capture captures the imported model's training step."""

from pathlib import Path

import numpy as np
import pytest

import background

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from burnpy import capture, nn, optim  # noqa: E402
from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

import model_exports  # noqa: E402
from model_exports import EXPORTS, export  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}


def onnxruntime_output(path, x):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def start_in_background(config, names):
    users = background.tests_taking(globals(), "resnet18") | background.tests_taking(
        globals(), "transformer"
    )
    if users & {*names}:
        model_exports.MADE.start(config)


@pytest.fixture(scope="module")
def exported() -> Path:
    return model_exports.MADE.folder()


@pytest.fixture(scope="module")
def resnet18(exported):
    model, _ = model_exports.resnet18()
    return model, {how: exported / f"resnet18-{how}.onnx" for how in EXPORTS}


@pytest.fixture(scope="module")
def transformer(exported):
    model, _ = model_exports.transformer()
    return model, {how: exported / f"transformer-{how}.onnx" for how in EXPORTS}


@pytest.mark.parametrize("how", EXPORTS)
@pytest.mark.parametrize("device", DEVICES)
def test_resnet18_equals_onnxruntime(resnet18, how, device):
    _, paths = resnet18
    x = np.random.default_rng(0).standard_normal((1, 3, 64, 64)).astype(np.float32)
    expected = onnxruntime_output(paths[how], x)
    out = importer.load(paths[how], device=DEVICES[device]())(x)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("how", EXPORTS)
@pytest.mark.parametrize("device", DEVICES)
def test_a_transformer_equals_onnxruntime(transformer, how, device):
    _, paths = transformer
    tokens = np.random.default_rng(1).integers(0, 50, (2, 10))
    expected = onnxruntime_output(paths[how], tokens)
    out = importer.load(paths[how], device=DEVICES[device]())(tokens)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-4, atol=1e-5)


def test_the_input_gradient_of_an_imported_cnn_equals_torch_autograd(resnet18):
    source, paths = resnet18
    x = np.random.default_rng(2).standard_normal((1, 3, 64, 64)).astype(np.float32)
    xt = torch.from_numpy(x).requires_grad_()
    source.eval()(xt).square().sum().backward()
    device = Device.numpy().autodiff()
    model = importer.load(paths["dynamo"], device=device)
    xb = Tensor.from_data(x, device=device).require_grad()
    grads = model(xb).square().sum().backward()
    np.testing.assert_allclose(xb.grad(grads).to_numpy(), xt.grad.numpy(), rtol=1e-3, atol=1e-4)


def _step(model, opt, x, y, lr):
    loss = nn.functional.mse_loss(model(x), y)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def test_one_optimiser_step_lowers_the_loss_and_capture_records_the_step(transformer):
    _, paths = transformer
    device = Device.numpy().autodiff()
    tokens = Tensor.from_data(np.random.default_rng(3).integers(0, 50, (2, 10)), device=device)
    target = Tensor.from_data(np.eye(3, dtype=np.float32)[[0, 2]], device=device)
    eager, captured = (importer.load(paths["opset17"], device=device) for _ in range(2))
    assert len(eager.parameters()) > 10
    before = nn.functional.mse_loss(eager(tokens), target).item()
    eager_opt, captured_opt = optim.SGD(0.5), optim.SGD(0.5)
    step = capture(_step)
    for _ in range(2):
        eager_loss = _step(eager, eager_opt, tokens, target, 0.5)
        captured_loss = step(captured, captured_opt, tokens, target, 0.5)
        np.testing.assert_allclose(captured_loss.to_numpy(), eager_loss.to_numpy(), rtol=1e-6)
    assert len(step.signatures) == 1
    after = nn.functional.mse_loss(eager(tokens), target).item()
    assert after < before


class Tagger(torch.nn.Module):
    """A bidirectional LSTM over a sequence, then a GRU and a linear head."""

    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(6, 8, batch_first=True, bidirectional=True)
        self.gru = torch.nn.GRU(16, 5, batch_first=True)
        self.head = torch.nn.Linear(5, 3)

    def forward(self, x):
        return self.head(self.gru(self.lstm(x)[0])[0])


@pytest.mark.parametrize("device", DEVICES)
def test_recurrent_layers_equal_onnxruntime(tmp_path, device):
    torch.manual_seed(0)
    path = export(Tagger(), torch.randn(2, 7, 6), tmp_path / "tagger.onnx", "opset17")
    x = np.random.default_rng(4).standard_normal((2, 7, 6)).astype(np.float32)
    out = importer.load(path, device=DEVICES[device]())(x)
    np.testing.assert_allclose(np.asarray(out), onnxruntime_output(path, x), rtol=1e-4, atol=1e-5)
