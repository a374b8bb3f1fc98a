"""Real models exported by torch.onnx.export (the dynamo exporter, and the TorchScript one at
opsets 13 and 17), imported by burnpy.onnx: outputs equal onnxruntime's on both backends, an
imported CNN's input gradient equals torch autograd's on the source model, one optimiser step
lowers the loss, and burnpy.capture captures the imported model's training step."""

import sys
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

ROOT = Path(__file__).resolve().parent.parent
DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
EXPORTS = {"dynamo": {}, "opset13": {"dynamo": False, "opset_version": 13}, "opset17": {"dynamo": False, "opset_version": 17}}  # fmt: skip


def torchvision_models():
    """torchvision's model definitions. Its wheel here may be built for another torch, whose C
    extension does not load: registering the two op schemas the extension would have made is
    all its Python model code needs."""
    for name in ("nms", "qnms"):
        try:
            torch.library.define(
                f"torchvision::{name}",
                "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor",
            )
        except RuntimeError:  # already registered (by the extension, or an earlier call)
            pass
    import torchvision.models  # installed by `make install` (see the Makefile)

    return torchvision.models


class Block(torch.nn.Module):
    """A pre-norm encoder block written out (multi-head attention, a GELU MLP), so that every
    exporter and opset can write it."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = torch.nn.LayerNorm(dim), torch.nn.LayerNorm(dim)
        self.qkv, self.out = torch.nn.Linear(dim, 3 * dim), torch.nn.Linear(dim, dim)
        self.up, self.down = torch.nn.Linear(dim, 2 * dim), torch.nn.Linear(2 * dim, dim)

    def forward(self, h):
        b, s, d = h.shape
        q, k, v = self.qkv(self.norm1(h)).reshape(b, s, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, dim=-1)
        h = h + self.out((weights @ v).transpose(1, 2).reshape(b, s, d))
        return h + self.down(torch.nn.functional.gelu(self.up(self.norm2(h))))


class TinyTransformer(torch.nn.Module):
    """A small BERT-like encoder: token and position embeddings, two blocks, a classifier on
    the mean of the sequence."""

    def __init__(self, vocab=50, dim=32, heads=4, classes=3):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.position = torch.nn.Parameter(torch.randn(16, dim) * 0.02)
        self.blocks = torch.nn.Sequential(Block(dim, heads), Block(dim, heads))
        self.norm = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, classes)

    def forward(self, tokens):
        h = self.embed(tokens) + self.position[: tokens.shape[1]]
        return self.head(self.norm(self.blocks(h)).mean(1))


def export(model, example, path, how):
    model.eval()
    torch.onnx.export(model, (example,), str(path), input_names=["input"], output_names=["output"], **EXPORTS[how])  # fmt: skip
    return path


def onnxruntime_output(path, x):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def _resnet18():
    torch.manual_seed(0)  # the same weights in the exporting child and in the tests
    return torchvision_models().resnet18(), torch.randn(1, 3, 64, 64)


def _transformer():
    torch.manual_seed(0)
    return TinyTransformer(), torch.randint(0, 50, (2, 10))


MODELS = {"resnet18": _resnet18, "transformer": _transformer}


def export_all(folder: Path) -> None:
    """Every model of MODELS exported every way of EXPORTS into `folder`."""
    for name, make in MODELS.items():
        model, example = make()
        for how in EXPORTS:
            export(model, example, folder / f"{name}-{how}.onnx", how)


# The exports (torch.onnx.export is most of these tests' time) run in a child process started
# with the session (tests/background.py); the tests build the same seeded source models.
EXPORT_ALL = """
import sys
from pathlib import Path
sys.path.insert(0, "tests")
import test_onnx_models
test_onnx_models.export_all(Path(sys.argv[1]))
"""
_STARTED = {}


def start_in_background(config, names):
    users = background.tests_taking(globals(), "resnet18") | background.tests_taking(
        globals(), "transformer"
    )
    if users & {*names}:
        command = lambda folder: [[sys.executable, "-c", EXPORT_ALL, str(folder)]]  # noqa: E731
        _STARTED["exports"] = background.start(config, command, 300, cwd=ROOT)


@pytest.fixture(scope="module")
def exported() -> Path:
    job = _STARTED["exports"]
    assert job.wait() == [0], job.output(0)
    return job.folder


@pytest.fixture(scope="module")
def resnet18(exported):
    model, _ = _resnet18()
    return model, {how: exported / f"resnet18-{how}.onnx" for how in EXPORTS}


@pytest.fixture(scope="module")
def transformer(exported):
    model, _ = _transformer()
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
