"""Real models exported by torch.onnx.export for tests/test_onnx_models.py: torchvision's
ResNet-18 and a small transformer, by the dynamo exporter and the TorchScript one at opsets 13
and 17. Made once (tests/made_once.py); the tests build the same seeded source models."""

from pathlib import Path

import torch

from benches.real_models import torchvision_resnet18
from made_once import MadeOnce

EXPORTS = {"dynamo": {}, "opset13": {"dynamo": False, "opset_version": 13}, "opset17": {"dynamo": False, "opset_version": 17}}  # fmt: skip


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


def resnet18():
    torch.manual_seed(0)  # the same weights in the exporting child and in the tests
    return torchvision_resnet18(torch, 1000), torch.randn(1, 3, 64, 64)


def transformer():
    torch.manual_seed(0)
    return TinyTransformer(), torch.randint(0, 50, (2, 10))


MODELS = {"resnet18": resnet18, "transformer": transformer}


def export_all(folder: Path) -> None:
    """Every model of MODELS exported every way of EXPORTS into `folder`."""
    for name, make in MODELS.items():
        model, example = make()
        for how in EXPORTS:
            export(model, example, folder / f"{name}-{how}.onnx", how)


MADE = MadeOnce(
    "model-exports", export_all, (Path(__file__),), ("torch", "torchvision", "onnx", "onnxscript")
)

if __name__ == "__main__":
    MADE.install()
