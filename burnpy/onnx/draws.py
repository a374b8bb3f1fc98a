"""ONNX's random operators when the model runs (RandomUniform, RandomNormal and their Like
forms, Bernoulli, Multinomial, Dropout in training mode), composed of Tensor methods.

Where the draws come from: a node without a `seed` attribute draws from its device's generator
(`Tensor.random`, which `device.seed(n)` makes reproducible; `burnpy.capture` records the draw
as a kernel call, so each replay draws afresh). A node with a `seed` draws from a generator of
its own made from that seed at each call (numpy's, from the seed's float64 bits), so every call
gives the same values, as onnx's reference evaluator does; capture keeps such a draw as a
constant of its recording, which is what every eager call computes too. Imported model code
calls these as `ops.<name>`; nothing here imports onnx."""

from __future__ import annotations

import numpy as np

from burnpy.generated import Distribution, Tensor


def uniform(shape, low: float, high: float, dtype: str, seed, device) -> Tensor:
    """A tensor of `shape` drawn uniformly from [low, high)."""
    shape = [int(d) for d in shape]
    if seed is None:
        return Tensor.random(shape, Distribution.uniform(low, high), device=device, dtype=dtype)
    values = low + (high - low) * _generator(seed).random(shape)
    return _held(values, dtype, device)


def normal(shape, mean: float, scale: float, dtype: str, seed, device) -> Tensor:
    """A tensor of `shape` drawn from the normal distribution N(mean, scale^2)."""
    shape = [int(d) for d in shape]
    if seed is None:
        return Tensor.random(shape, Distribution.normal(mean, scale), device=device, dtype=dtype)
    values = mean + scale * _generator(seed).standard_normal(shape)
    return _held(values, dtype, device)


def bernoulli(p: Tensor, dtype: str, seed) -> Tensor:
    """1 with probability p, 0 otherwise, entry by entry, in `dtype` (ONNX's function body:
    p greater than a uniform draw)."""
    draw = uniform(p.shape, 0.0, 1.0, _float_of(p), seed, p.device().inner())
    return _as(p.detach().greater(draw), dtype)


def multinomial(logits: Tensor, samples: int, dtype: str, seed) -> Tensor:
    """ONNX Multinomial: for each row of unnormalised log-probabilities [batch, classes],
    `samples` class indices drawn from its softmax (each the first class whose cumulative
    probability exceeds a uniform draw)."""
    batch, classes = logits.shape
    device = logits.device().inner()
    cumulative = logits.detach().float("float64").softmax(1).cumsum(1).reshape([batch, 1, classes])
    draw = uniform([batch, samples, 1], 0.0, 1.0, "float64", seed, device)
    below = cumulative.lower_equal(draw).int("int64").sum_dim(2).reshape([batch, samples])
    return below.clamp_max(classes - 1).cast(dtype)


def dropout(x: Tensor, ratio: float, training: bool, seed) -> tuple:
    """ONNX Dropout: in training mode with a ratio above 0, each entry zeroed with probability
    `ratio` and the others scaled by 1 / (1 - ratio) (all zeroed at ratio 1); else x itself.
    (output, mask): the mask holds True where an entry is kept. The output is x times the mask,
    so gradients flow through the kept entries."""
    ratio = float(ratio)
    if not training or ratio == 0.0:
        return x, _every_kept(x)
    draw = uniform(x.shape, 0.0, 1.0, _float_of(x), seed, x.device().inner())
    kept = draw.greater_equal_elem(ratio)
    scale = 1.0 / (1.0 - ratio) if ratio < 1.0 else 0.0
    return x * kept.float(x.dtype) * scale, kept


def dropout_if(x: Tensor, ratio: float, training: Tensor, seed) -> tuple:
    """ONNX Dropout whose training mode is an input of the model (a bool tensor []): both
    outcomes computed, the flag picking one entry by entry, so that the flag stays a tensor
    (an export takes it as an input instead of holding the one mode it was called in)."""
    dropped, kept = dropout(x, ratio, True, seed)
    on = training.reshape([1] * x.ndim).expand(list(x.shape))
    return x.mask_where(on, dropped), _every_kept(x).mask_where(on, kept)


def _every_kept(x: Tensor) -> Tensor:
    """Dropout's mask where nothing is dropped: True of x's shape."""
    return Tensor.zeros(list(x.shape), device=x.device().inner(), dtype="bool").bool_not()


def _generator(seed) -> np.random.Generator:
    """A node's own generator: made from its `seed` attribute (a float in ONNX) by its bits."""
    return np.random.default_rng(int(np.float64(seed).view(np.uint64)))


def _held(values: np.ndarray, dtype: str, device) -> Tensor:
    return Tensor.from_data(values.astype(dtype), device=device, dtype=dtype)


def _float_of(x: Tensor) -> str:
    dtype = str(x.dtype)
    return dtype if dtype in ("float16", "bfloat16", "float32", "float64") else "float32"


def _as(flags: Tensor, dtype: str) -> Tensor:
    """A bool tensor as 0 and 1 of `dtype` (the dtype the model holds: a narrow int as
    int64)."""
    if dtype == "bool":
        return flags
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        return flags.float(dtype)
    return flags.int(dtype)
