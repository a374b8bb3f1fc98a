"""The char-level transformer training step the benches time, defined once.

The model is examples/char_transformer.py's (a character embedding and sinusoidal positions,
2 pre-norm encoder layers of d_model 64, 4 heads and d_ff 256 under a causal mask, a linear
head), trained by AdamW on the example's corpus with the example's defaults: batch 16 of 64
characters. Its PyTorch twin is the example's too (torch.nn.TransformerEncoderLayer holding the
same initial weights). A bench that clips passes CLIP_NORM: each parameter's gradient is clipped
on its own, as burn's optimisers clip.
"""

import functools

from examples import char_transformer as example

BATCH, CONTEXT = 16, 64
CLIP_NORM = 1.0


def arguments(batch_size: int = BATCH, context: int = CONTEXT):
    """The example's settings (learning rate, weight decay, no dropout, seed 0) at this size."""
    return example.parse(["--batch-size", str(batch_size), "--context", str(context)])


@functools.cache
def corpus() -> example.Corpus:
    return example.Corpus(example.load_text())


def batches(args):
    """The example's endless (inputs, targets) training windows, numpy int64 [batch, context]."""
    return corpus().batches(args.batch_size, args.context, args.seed)


def ours(backend: str, args, grad_clip_norm=None):
    """(model, AdamW) on `backend`'s autodiff device ("numpy" or "torch"), from the initial
    weights of `args.seed`."""
    device = example.make_device(backend, checkpointing=False)
    model = example.make_model(len(corpus().chars), args, device)
    return model, example.optimizer(args, grad_clip_norm)


def theirs(args):
    """(torch module, torch AdamW) from the same initial weights as `ours`."""
    net = example.torch_model(example.make_model(len(corpus().chars), args, example.Device.numpy()))
    return net, example.torch_optimizer(args, net)
