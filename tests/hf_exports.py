"""transformers' BERT and GPT-2 exported once for every test file that reads them
(tests/test_onnx_faithful.py, tests/test_onnx_transformers.py, tests/test_onnx_export.py): made
once (tests/made_once.py)."""

from pathlib import Path

from made_once import ROOT, MadeOnce


def export_all(folder: Path) -> None:
    """`{name}-{exporter}.onnx` with dynamic batch and sequence; GPT-2's weights (the reference
    for untying) and GPT-2 at one shape (its dims checked)."""
    import numpy as np
    import torch

    from benches import transformer_exports

    for name in transformer_exports.NAMES:
        for how in transformer_exports.EXPORTERS:
            transformer_exports.export(torch, name, how, folder / f"{name}-{how}.onnx")
    source = transformer_exports.build(torch, "gpt2")
    np.savez(folder / "gpt2.npz", **{k: v.detach().numpy() for k, v in source.named_parameters()})
    for how in transformer_exports.EXPORTERS:
        transformer_exports.export(torch, "gpt2", how, folder / f"gpt2-{how}-static.onnx", dynamic=False)  # fmt: skip


MADE = MadeOnce(
    "hf-exports",
    export_all,
    (Path(__file__), ROOT / "benches" / "transformer_exports.py"),
    ("torch", "transformers", "onnx"),
    env={"HF_HUB_OFFLINE": "1"},  # (the models are built from their configs)
)

if __name__ == "__main__":
    MADE.install()
