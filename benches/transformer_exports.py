"""Small BERT and GPT-2 from HF transformers (`BertModel`, `GPT2LMHeadModel`: 2 layers, width
64, 4 heads, randomly initialised with a fixed seed, no download), exported to ONNX with dynamic
batch and sequence axes by both of torch's exporters.

Their exports hold the run-time shape arithmetic of real transformers exports: head splits
viewed from `x.shape[:-1]` (Shape -> Slice -> Concat -> Reshape), position ids made by
`arange(seq)`, the padding and causal masks built from the sequence length, tied embeddings.
"""

import contextlib
import io
import os
import warnings

from benches.real_models import register_torchvision_schemas

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # (configs built here: nothing to fetch)

VOCAB, POSITIONS = 96, 128
NAMES = ("bert", "gpt2")
EXPORTERS = {"legacy": {"dynamo": False, "opset_version": 17}, "dynamo": {"dynamo": True}}


def build(torch, name: str):
    """The seeded transformers model `name` ("bert": BertModel, "gpt2": GPT2LMHeadModel), in
    eval mode, with eager attention (what both exporters trace into plain ONNX ops)."""
    register_torchvision_schemas(torch)
    import transformers

    torch.manual_seed(0)
    if name == "bert":
        config = transformers.BertConfig(
            vocab_size=VOCAB,
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
            max_position_embeddings=POSITIONS,
            attn_implementation="eager",
        )
        model = transformers.BertModel(config)
    else:
        config = transformers.GPT2Config(
            vocab_size=VOCAB,
            n_positions=POSITIONS,
            n_embd=64,
            n_layer=2,
            n_head=4,
            bos_token_id=0,
            eos_token_id=0,
            attn_implementation="eager",
        )
        model = transformers.GPT2LMHeadModel(config)
    model.config.use_cache = False
    return model.eval()


def inputs(batch: int, seq: int, seed: int = 0) -> dict:
    """The model's inputs as numpy arrays: token ids and the attention mask (the last quarter
    of each row but the first padded out)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    ids = rng.integers(0, VOCAB, (batch, seq))
    mask = np.ones((batch, seq), np.int64)
    mask[1:, seq - seq // 4 :] = 0
    return {"input_ids": ids, "attention_mask": mask}


def plain(torch, model, name: str):
    """`model` returning its output tensors (a tuple for BERT) where transformers returns a
    ModelOutput, with explicit inputs (so that dynamic shapes name them)."""

    class Bert(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            out = self.model(input_ids=input_ids, attention_mask=attention_mask)
            return out.last_hidden_state, out.pooler_output

    class Gpt2(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            out = self.model(input_ids=input_ids, attention_mask=attention_mask, use_cache=False)
            return out.logits

    return (Bert() if name == "bert" else Gpt2()).eval()


def export(torch, name: str, exporter: str, path, dynamic: bool = True) -> None:
    """`name` exported by `exporter` ("legacy": TorchScript at opset 17; "dynamo") to `path`,
    with the batch and sequence axes dynamic (or, not `dynamic`, fixed at batch 2, sequence 8)."""
    model = plain(torch, build(torch, name), name)
    example = {k: torch.from_numpy(v) for k, v in inputs(2, 8).items()}
    names = list(example)
    outputs = ["last_hidden_state", "pooler_output"] if name == "bert" else ["logits"]
    if not dynamic:
        extra = {}
    elif exporter == "legacy":
        axes = {n: {0: "batch", 1: "sequence"} for n in names + outputs[:1]}
        if name == "bert":
            axes[outputs[1]] = {0: "batch"}
        extra = {"dynamic_axes": axes}
    else:
        batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence", max=POSITIONS)
        extra = {"dynamic_shapes": {n: {0: batch, 1: seq} for n in names}}
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the exporters' progress and deprecation notes)
        torch.onnx.export(
            model,
            tuple(example.values()),
            str(path),
            input_names=names,
            output_names=outputs,
            **EXPORTERS[exporter],
            **extra,
        )
