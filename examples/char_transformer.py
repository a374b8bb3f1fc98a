"""A character-level transformer language model, trained with burnpy on the text of Python's
own documentation topics (the `pydoc_data.topics` module every CPython ships).

    python examples/char_transformer.py                  # ends with "validation loss: X"
    python examples/char_transformer.py --device torch   # the same model on the Torch backend
    python examples/char_transformer.py --checkpointing  # Balanced gradient checkpointing
    python examples/char_transformer.py --plot loss.png  # the loss curves (matplotlib)
    python examples/char_transformer.py --compare        # the same training in PyTorch too
    python examples/char_transformer.py --quantize       # then its weights quantized (Q8S)

The topics are joined in the order of their sorted keys; the last 10% of the characters are
held out for validation. The model: a character embedding (d_model 64) plus burn's sinusoidal
`PositionalEncoding`, a pre-norm `TransformerEncoder` (2 layers, 4 heads, d_ff 256, a causal
attention mask), and a linear head to the next character's logits. AdamW, with a linear
warm-up then a cosine decay of the learning rate; 2,000 steps of 16 windows of 64 characters by
default. Dropout is 0 by default: so short a run underfits, and without it `--compare` can
follow the same arithmetic in PyTorch step by step. The loss is the mean cross-entropy in nats
per character. Needs the `examples` extra (tqdm; matplotlib for --plot), and torch for
`--device torch` and `--compare`.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script from a checkout: find burnpy and generated
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import burnpy  # noqa: E402
import burnpy.threads  # noqa: E402
from burnpy import nn, optim  # noqa: E402
from burnpy.nn.functional import cross_entropy  # noqa: E402
from examples.quantization_report import QUANT_VALUES, quantization_report  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402


class CharTransformer(nn.Module):
    """Character ids [batch, seq] to next-character logits [batch, seq, vocab]."""

    def __init__(self, vocab, *, context, dropout, device, d_model=64, n_heads=4, d_ff=256):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model, device=device)
        self.positional = nn.PositionalEncoding(d_model, max_sequence_size=context, device=device)
        self.encoder = nn.TransformerEncoder(
            d_model, d_ff, n_heads, 2, dropout=dropout, norm_first=True, device=device
        )
        self.head = nn.Linear(d_model, vocab, device=device)

    def forward(self, ids):
        batch, seq = ids.shape
        x = self.positional(self.embedding(ids))
        mask = nn.generate_autoregressive_mask(batch, seq, ids.device())
        return self.head(self.encoder(x, mask_attn=mask))


# -- data --------------------------------------------------------------------------------------


def load_text() -> str:
    """The documentation topics, joined in the order of their sorted keys."""
    from pydoc_data.topics import topics

    return "\n".join(topics[key] for key in sorted(topics))


class Corpus:
    """The text as character ids, split 90/10 into training and validation."""

    def __init__(self, text: str):
        self.chars = sorted(set(text))
        index = {c: i for i, c in enumerate(self.chars)}
        ids = np.array([index[c] for c in text], dtype=np.int64)
        cut = int(len(ids) * 0.9)
        self.train, self.valid = ids[:cut], ids[cut:]

    def batches(self, batch_size, context, seed):
        """Endless (inputs, targets) pairs [batch, context] of random training windows, the
        targets shifted by one character."""
        rng = np.random.default_rng(seed)
        while True:
            starts = rng.integers(0, len(self.train) - context, batch_size)
            windows = np.stack([self.train[s : s + context + 1] for s in starts])
            yield windows[:, :-1], windows[:, 1:]

    def validation_windows(self, context):
        """The validation text cut into consecutive windows (inputs, targets) [n, context]."""
        n = (len(self.valid) - 1) // context
        inputs = self.valid[: n * context].reshape(n, context)
        targets = self.valid[1 : n * context + 1].reshape(n, context)
        return inputs, targets

    def decode(self, ids) -> str:
        return "".join(self.chars[i] for i in ids)


def schedule(args):
    """Linear warm-up from lr/100 to lr, then cosine decay to lr/10."""
    warmup = max(1, min(args.warmup, args.steps - 1))
    return optim.lr.Sequential(
        [
            optim.lr.Linear(args.lr / 100, args.lr, warmup),
            optim.lr.Cosine(args.lr, max(1, args.steps - warmup), args.lr / 10),
        ],
        [warmup],
    )


# -- burnpy ------------------------------------------------------------------------------------


def make_device(backend: str, checkpointing: bool):
    device = (Device.torch() if backend == "torch" else Device.numpy()).autodiff()
    return device.gradient_checkpointing() if checkpointing else device


def make_model(vocab, args, device) -> CharTransformer:
    """The initial weights depend on `args.seed` only, whatever the backend."""
    Device.numpy().seed(args.seed)
    model = CharTransformer(
        vocab, context=args.context, dropout=args.dropout, device=Device.numpy()
    )
    return model.to_device(device)


def optimizer(args, grad_clip_norm=None):
    """AdamW; `grad_clip_norm` clips each parameter's gradient to that L2 norm first."""
    return optim.AdamW(args.lr, weight_decay=args.weight_decay, grad_clip_norm=grad_clip_norm)


def loss_of(model, inputs, targets):
    logits = model(inputs)
    batch, seq, vocab = logits.shape
    return cross_entropy(logits.reshape([batch * seq, vocab]), targets.reshape([batch * seq]))


def step_loss(model, opt, lr, inputs, targets):
    """One training step on tensors; returns the loss tensor. It reads no value, so it can be
    captured (`burnpy.capture`)."""
    loss = loss_of(model, inputs, targets)
    opt.step(model, loss.backward(), lr=lr)
    return loss


def train_step(model, opt, lr, inputs, targets) -> float:
    device = model.embedding.weight.device()
    inputs = Tensor.from_data(inputs, device=device)
    targets = Tensor.from_data(targets, device=device)
    return step_loss(model, opt, lr, inputs, targets).item()


def validation_loss(model, corpus, args, batch_size=128) -> float:
    """Mean cross-entropy over every validation window, computed without autodiff."""
    model = model.valid()
    device = model.devices()[0]
    inputs, targets = corpus.validation_windows(args.context)
    total = 0.0
    for start in range(0, len(inputs), batch_size):
        x = Tensor.from_data(inputs[start : start + batch_size], device=device)
        y = Tensor.from_data(targets[start : start + batch_size], device=device)
        total += loss_of(model, x, y).item() * len(x)
    return total / len(inputs)


def sample(model, corpus, args, length=200, prompt="def ") -> str:
    """`length` characters drawn one at a time from the model's distribution (seeded), each
    conditioned on the last `context` characters."""
    model = model.valid()
    device = model.devices()[0]
    rng = np.random.default_rng(args.seed)
    index = {c: i for i, c in enumerate(corpus.chars)}
    ids = [index[c] for c in prompt]
    for _ in range(length):
        window = np.array([ids[-args.context :]], dtype=np.int64)
        logits = model(Tensor.from_data(window, device=device)).to_numpy()[0, -1]
        probs = np.exp(logits.astype(np.float64) - logits.max())
        ids.append(int(rng.choice(len(probs), p=probs / probs.sum())))
    return corpus.decode(ids[len(prompt) :])


# -- --quantize: the trained model's weights quantized after training -----------------------------


def ptq_report(model, corpus, args) -> dict:
    """The trained model against its weights quantized (`--quantize`): validation loss, record
    size and the time of a forward pass over a batch of windows."""
    inputs, _ = corpus.validation_windows(args.context)
    batch = Tensor.from_data(inputs[: args.batch_size], device=model.devices()[0].inner())
    return quantization_report(
        model,
        args.quantize,
        (batch,),
        lambda m: validation_loss(m, corpus, args),
        "validation loss (nats)",
        ".4f",
        f"forward, {len(batch)} x {args.context} chars",
    )


# -- PyTorch: the same architecture, initial weights, batches and learning rates -----------------


def copy_mha(mha, torch_mha) -> None:
    """Our MultiHeadAttention's weights into a torch.nn.MultiheadAttention (PyTorch's Linear
    layout is [out, in], the transpose of ours; its query, key and value are one matrix)."""
    import torch

    def t(tensor):
        return torch.from_numpy(tensor.to_numpy())

    with torch.no_grad():
        weights = [mha.query.weight, mha.key.weight, mha.value.weight]
        torch_mha.in_proj_weight.copy_(torch.cat([t(w).T for w in weights]))
        torch_mha.in_proj_bias.copy_(
            torch.cat([t(mha.query.bias), t(mha.key.bias), t(mha.value.bias)])
        )
        torch_mha.out_proj.weight.copy_(t(mha.output.weight).T)
        torch_mha.out_proj.bias.copy_(t(mha.output.bias))


def copy_linear(linear, torch_linear) -> None:
    import torch

    with torch.no_grad():
        torch_linear.weight.copy_(torch.from_numpy(linear.weight.to_numpy()).T)
        torch_linear.bias.copy_(torch.from_numpy(linear.bias.to_numpy()))


def copy_norm(norm, torch_norm) -> None:
    import torch

    with torch.no_grad():
        torch_norm.weight.copy_(torch.from_numpy(norm.gamma.to_numpy()))
        torch_norm.bias.copy_(torch.from_numpy(norm.beta.to_numpy()))


def torch_encoder_layer(layer):
    """A torch.nn.TransformerEncoderLayer computing what our TransformerEncoderLayer does (no
    dropout): GELU, batch first; PyTorch's norm1 is the norm of the attention branch, which is
    our norm_2 under norm_first and our norm_1 otherwise."""
    import torch

    d_model, d_ff = layer.pwff.linear_inner.weight.shape
    twin = torch.nn.TransformerEncoderLayer(
        d_model,
        layer.mha.n_heads,
        d_ff,
        dropout=0.0,
        activation="gelu",
        layer_norm_eps=layer.norm_1.epsilon,
        batch_first=True,
        norm_first=layer.norm_first,
    )
    copy_mha(layer.mha, twin.self_attn)
    copy_linear(layer.pwff.linear_inner, twin.linear1)
    copy_linear(layer.pwff.linear_outer, twin.linear2)
    attention_norm, feed_forward_norm = (
        (layer.norm_2, layer.norm_1) if layer.norm_first else (layer.norm_1, layer.norm_2)
    )
    copy_norm(attention_norm, twin.norm1)
    copy_norm(feed_forward_norm, twin.norm2)
    return twin


def torch_model(model: CharTransformer):
    """A torch module holding `model`'s weights and computing its forward."""
    import torch

    class TorchCharTransformer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            vocab, d_model = model.embedding.weight.shape
            self.embedding = torch.nn.Embedding(vocab, d_model)
            with torch.no_grad():
                self.embedding.weight.copy_(torch.from_numpy(model.embedding.weight.to_numpy()))
            self.register_buffer(
                "sinusoids", torch.from_numpy(model.positional.sinusoids.to_numpy())
            )
            self.layers = torch.nn.ModuleList(torch_encoder_layer(l) for l in model.encoder.layers)
            self.head = torch.nn.Linear(d_model, vocab)
            copy_linear(model.head, self.head)

        def forward(self, ids):
            seq = ids.shape[1]
            x = self.embedding(ids) + self.sinusoids[:, :seq]
            mask = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
            for layer in self.layers:
                x = layer(x, src_mask=mask)
            return self.head(x)

    return TorchCharTransformer()


def torch_optimizer(args, net):
    """torch's AdamW with burn's defaults (epsilon 1e-5) and our weight decay."""
    import torch

    return torch.optim.AdamW(
        net.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-5, weight_decay=args.weight_decay
    )


def torch_loss(net, inputs, targets):
    import torch

    logits = net(torch.from_numpy(inputs))
    return torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), torch.from_numpy(targets).reshape(-1)
    )


def torch_train_step(net, opt, lr, inputs, targets, grad_clip_norm=None) -> float:
    """`grad_clip_norm` clips each parameter's gradient on its own, as burn's optimisers do."""
    import torch

    for group in opt.param_groups:
        group["lr"] = lr
    opt.zero_grad()
    loss = torch_loss(net, inputs, targets)
    loss.backward()
    if grad_clip_norm is not None:
        for parameter in net.parameters():
            torch.nn.utils.clip_grad_norm_([parameter], grad_clip_norm)
    opt.step()
    return loss.item()


def torch_validation_loss(net, corpus, args, batch_size=128) -> float:
    import torch

    inputs, targets = corpus.validation_windows(args.context)
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(inputs), batch_size):
            x, y = inputs[start : start + batch_size], targets[start : start + batch_size]
            total += torch_loss(net, x, y).item() * len(x)
    return total / len(inputs)


# -- the run -----------------------------------------------------------------------------------


def train(step, model, opt, corpus, args, bar=None) -> dict:
    """Train for `args.steps` steps; returns the loss of every step and the seconds taken."""
    scheduler = schedule(args)
    batches = corpus.batches(args.batch_size, args.context, args.seed)
    losses = []
    start = time.perf_counter()
    for _ in range(args.steps):
        losses.append(step(model, opt, scheduler.step(), *next(batches)))
        if bar:
            bar.set_postfix(loss=f"{np.mean(losses[-50:]):.4f}", refresh=False)
            bar.update()
    return {"losses": losses, "seconds": time.perf_counter() - start}


def curve(losses, every) -> list:
    """(step, mean loss of the `every` steps up to it) at every `every`-th step and the last."""
    ends = sorted(set(range(every, len(losses) + 1, every)) | {len(losses)})
    return [(end, float(np.mean(losses[max(0, end - every) : end]))) for end in ends]


def plot(runs: dict, path, every) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"matplotlib is not installed: no plot written to {path} (pip install matplotlib)")
        return
    figure, axes = plt.subplots(figsize=(6, 3.5))
    for name, run in runs.items():
        steps, losses = zip(*curve(run["losses"], every))
        axes.plot(steps, losses, label=name)
    axes.set(xlabel="step", ylabel=f"training loss (mean of {every} steps)")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path)
    print(f"plot: {path}")


def compare(args, corpus, ours: dict, ours_name: str) -> dict:
    """Train the PyTorch twin from the same initial weights on the same batches; print both
    loss curves side by side. Returns PyTorch's run."""
    import torch

    net = torch_model(make_model(len(corpus.chars), args, Device.numpy()))
    theirs = train(torch_train_step, net, torch_optimizer(args, net), corpus, args)
    theirs["validation"] = torch_validation_loss(net, corpus, args)
    torch_name = f"PyTorch {torch.__version__.split('+')[0]} eager"
    print(
        f"\nside by side: mean training loss over each {args.every} steps "
        f"(torch threads: {torch.get_num_threads()})"
    )
    print(f"{'step':>6}{ours_name:>30}{torch_name:>24}")
    for (step, a), (_, b) in zip(
        curve(ours["losses"], args.every), curve(theirs["losses"], args.every)
    ):
        print(f"{step:>6}{a:>30.4f}{b:>24.4f}")
    print(f"{'validation loss':<16}{ours['validation']:>20.4f}{theirs['validation']:>24.4f}")
    per_step = [run["seconds"] / args.steps * 1000 for run in (ours, theirs)]
    print(f"{'ms per step':<16}{per_step[0]:>20.1f}{per_step[1]:>24.1f}")
    print(f"{'ratio to PyTorch':<16}{per_step[0] / per_step[1]:>19.2f}x{1:>23.2f}x")
    return theirs


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", choices=["numpy", "torch"], default="numpy")
    parser.add_argument(
        "--checkpointing", action="store_true", help="Balanced gradient checkpointing"
    )
    parser.add_argument("--plot", metavar="PNG", help="plot the training loss (matplotlib)")
    parser.add_argument("--compare", action="store_true", help="train in PyTorch too")
    parser.add_argument(
        "--threads",
        type=int,
        help="threads of numpy's BLAS and torch (default: 1, unless OMP_NUM_THREADS or "
        "OPENBLAS_NUM_THREADS is set)",
    )
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--warmup", type=int, default=100, help="warm-up steps")
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=100, help="steps per point of the curves")
    parser.add_argument("--no-sample", action="store_true", help="skip the 200-character sample")
    parser.add_argument(
        "--quantize",
        nargs="?",
        const="q8s",
        choices=sorted(QUANT_VALUES),
        help="after training, quantize the weights (default q8s) and compare with the float model",
    )
    return parser.parse_args(argv)


def main(argv=None) -> float:
    args = parse(argv)
    if args.threads:
        burnpy.set_num_threads(args.threads)
    else:
        burnpy.threads.use_default()
    corpus = Corpus(load_text())
    device = make_device(args.device, args.checkpointing)
    model = make_model(len(corpus.chars), args, device)
    print(
        f"pydoc_data.topics: {len(corpus.train):,} training and {len(corpus.valid):,} validation "
        f"characters, {len(corpus.chars)} distinct"
    )
    print(f"model: {model.num_params():,} parameters on {device}")
    from tqdm import tqdm

    with tqdm(total=args.steps, desc="training", unit="step") as bar:
        ours = train(train_step, model, optimizer(args), corpus, args, bar)
    print(f"ms per step: {ours['seconds'] / args.steps * 1000:.1f}")
    ours["validation"] = validation_loss(model, corpus, args)
    if not args.no_sample:
        print(f"sample:\n{sample(model, corpus, args)}\n")
    runs = {f"burnpy ({args.device}{', Balanced' if args.checkpointing else ''})": ours}
    if args.compare:
        name = next(iter(runs))
        runs["PyTorch"] = compare(args, corpus, ours, name)
    if args.plot:
        plot(runs, args.plot, args.every)
    if args.quantize:
        ptq_report(model, corpus, args)
    print(f"validation loss: {ours['validation']:.4f}")
    return ours["validation"]


if __name__ == "__main__":
    main()
