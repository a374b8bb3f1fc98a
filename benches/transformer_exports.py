"""Small BERT and GPT-2 encoders/decoders written in PyTorch as transformers writes them, and
exported to ONNX with dynamic batch and sequence axes by both of torch's exporters.

The forward code follows transformers' `BertModel` and `GPT2Model` line for line where it shapes
tensors, so the exports hold the run-time shape arithmetic transformers' exports hold:
`x.view(x.size()[:-1] + (heads, head_dim))` (Shape -> Slice -> Concat -> Reshape), position ids
sliced from a buffer or made by `arange(seq)` (Range over a Gather of a Shape), BERT's extended
attention mask, GPT-2's causal mask sliced from its `bias` buffer, `Conv1D`'s
`addmm` over `x.view(-1, x.size(-1))`. Weights are random (seeded); no download.
"""

import contextlib
import io
import math
import warnings

BERT = dict(vocab=96, dim=64, heads=4, layers=2, ffn=128, positions=128, types=2)
GPT2 = dict(vocab=96, dim=64, heads=4, layers=2, positions=128)


def models(torch):
    """The two PyTorch model classes (built here so that importing this file needs no torch)."""
    nn = torch.nn
    F = torch.nn.functional

    class BertSelfAttention(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.heads, self.head_size = heads, dim // heads
            self.query, self.key, self.value = (nn.Linear(dim, dim) for _ in range(3))

        def split(self, x):
            x = x.view(x.size()[:-1] + (self.heads, self.head_size))
            return x.permute(0, 2, 1, 3)

        def forward(self, hidden, mask):
            q, k, v = self.split(self.query(hidden)), self.split(self.key(hidden)), self.split(self.value(hidden))  # fmt: skip
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
            probs = F.softmax(scores + mask, dim=-1)
            context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
            return context.view(context.size()[:-2] + (self.heads * self.head_size,))

    class BertLayer(nn.Module):
        def __init__(self, dim, heads, ffn):
            super().__init__()
            self.attention = BertSelfAttention(dim, heads)
            self.attention_out, self.norm1 = nn.Linear(dim, dim), nn.LayerNorm(dim, eps=1e-12)
            self.up, self.down = nn.Linear(dim, ffn), nn.Linear(ffn, dim)
            self.norm2 = nn.LayerNorm(dim, eps=1e-12)

        def forward(self, hidden, mask):
            hidden = self.norm1(self.attention_out(self.attention(hidden, mask)) + hidden)
            return self.norm2(self.down(F.gelu(self.up(hidden))) + hidden)

    class Bert(nn.Module):
        """input_ids, attention_mask [batch, seq] -> (last hidden state, pooled output)."""

        def __init__(self, vocab, dim, heads, layers, ffn, positions, types):
            super().__init__()
            self.words = nn.Embedding(vocab, dim)
            self.positions = nn.Embedding(positions, dim)
            self.types = nn.Embedding(types, dim)
            self.norm = nn.LayerNorm(dim, eps=1e-12)
            self.register_buffer("position_ids", torch.arange(positions).expand((1, -1)))
            self.register_buffer("token_type_ids", torch.zeros((1, positions), dtype=torch.long))
            self.layers = nn.ModuleList(BertLayer(dim, heads, ffn) for _ in range(layers))
            self.pooler = nn.Linear(dim, dim)

        def forward(self, input_ids, attention_mask):
            batch, seq = input_ids.size()
            position_ids = self.position_ids[:, :seq]
            token_type_ids = self.token_type_ids[:, :seq].expand(batch, seq)
            hidden = self.words(input_ids) + self.types(token_type_ids)
            hidden = self.norm(hidden + self.positions(position_ids))
            mask = attention_mask[:, None, None, :].to(hidden.dtype)
            mask = (1.0 - mask) * torch.finfo(hidden.dtype).min
            for layer in self.layers:
                hidden = layer(hidden, mask)
            return hidden, torch.tanh(self.pooler(hidden[:, 0]))

    class Conv1D(nn.Module):
        """GPT-2's linear layer: a weight [in, out] applied by addmm to the rows."""

        def __init__(self, nf, nx):
            super().__init__()
            self.nf = nf
            self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
            self.bias = nn.Parameter(torch.zeros(nf))

        def forward(self, x):
            size_out = x.size()[:-1] + (self.nf,)
            x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
            return x.view(size_out)

    def gelu_new(x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))  # fmt: skip

    class GPT2Attention(nn.Module):
        def __init__(self, dim, heads, positions):
            super().__init__()
            self.heads, self.head_dim = heads, dim // heads
            causal = torch.tril(torch.ones((positions, positions), dtype=torch.bool))
            self.register_buffer("bias", causal.view(1, 1, positions, positions))
            self.c_attn, self.c_proj = Conv1D(3 * dim, dim), Conv1D(dim, dim)

        def split(self, x):
            return x.view(x.size()[:-1] + (self.heads, self.head_dim)).permute(0, 2, 1, 3)

        def forward(self, hidden):
            q, k, v = self.c_attn(hidden).split(self.heads * self.head_dim, dim=2)
            q, k, v = self.split(q), self.split(k), self.split(v)
            weights = torch.matmul(q, k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5)
            query_length, key_length = q.size(-2), k.size(-2)
            causal = self.bias[:, :, key_length - query_length : key_length, :key_length]
            floor = torch.full([], torch.finfo(weights.dtype).min, dtype=weights.dtype)
            weights = F.softmax(torch.where(causal, weights, floor), dim=-1)
            out = torch.matmul(weights, v).permute(0, 2, 1, 3).contiguous()
            return self.c_proj(out.view(out.size()[:-2] + (self.heads * self.head_dim,)))

    class GPT2Block(nn.Module):
        def __init__(self, dim, heads, positions):
            super().__init__()
            self.ln_1, self.ln_2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
            self.attn = GPT2Attention(dim, heads, positions)
            self.c_fc, self.c_proj = Conv1D(4 * dim, dim), Conv1D(dim, 4 * dim)

        def forward(self, hidden):
            hidden = hidden + self.attn(self.ln_1(hidden))
            return hidden + self.c_proj(gelu_new(self.c_fc(self.ln_2(hidden))))

    class GPT2(nn.Module):
        """input_ids [batch, seq] -> logits [batch, seq, vocab] (the head tied to wte)."""

        def __init__(self, vocab, dim, heads, layers, positions):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(positions, dim)
            self.h = nn.ModuleList(GPT2Block(dim, heads, positions) for _ in range(layers))
            self.ln_f = nn.LayerNorm(dim)

        def forward(self, input_ids):
            input_shape = input_ids.size()
            input_ids = input_ids.view(-1, input_shape[-1])
            position_ids = torch.arange(0, input_shape[-1], dtype=torch.long).unsqueeze(0)
            hidden = self.wte(input_ids) + self.wpe(position_ids)
            for block in self.h:
                hidden = block(hidden)
            hidden = self.ln_f(hidden)
            hidden = hidden.view(input_shape + (hidden.size(-1),))
            return torch.matmul(hidden, self.wte.weight.T)

    return Bert, GPT2


NAMES = ("bert", "gpt2")
EXPORTERS = {"legacy": {"dynamo": False, "opset_version": 17}, "dynamo": {"dynamo": True}}


def build(torch, name: str):
    """The seeded PyTorch model `name` ("bert" or "gpt2"), in eval mode."""
    Bert, Gpt2 = models(torch)
    torch.manual_seed(0)
    model = Bert(**BERT) if name == "bert" else Gpt2(**GPT2)
    return model.eval()


def inputs(name: str, batch: int, seq: int, seed: int = 0) -> dict:
    """The model's inputs as numpy arrays: token ids (and BERT's attention mask, the last
    quarter of each row but the first padded out)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    ids = rng.integers(0, (BERT if name == "bert" else GPT2)["vocab"], (batch, seq))
    if name == "gpt2":
        return {"input_ids": ids}
    mask = np.ones((batch, seq), np.int64)
    mask[1:, seq - seq // 4 :] = 0
    return {"input_ids": ids, "attention_mask": mask}


def export(torch, name: str, exporter: str, path) -> None:
    """`name` exported by `exporter` ("legacy": TorchScript at opset 17; "dynamo") to `path`,
    with the batch and sequence axes dynamic."""
    model = build(torch, name)
    example = {k: torch.from_numpy(v) for k, v in inputs(name, 2, 8).items()}
    names = list(example)
    outputs = ["last_hidden_state", "pooler_output"] if name == "bert" else ["logits"]
    if exporter == "legacy":
        axes = {n: {0: "batch", 1: "sequence"} for n in names + outputs[:1]}
        if name == "bert":
            axes[outputs[1]] = {0: "batch"}
        extra = {"dynamic_axes": axes}
    else:
        batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence")
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
