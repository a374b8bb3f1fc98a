"""Attention layers (burn-nn's `MultiHeadAttention`, `CrossAttention`), their autoregressive
caches, and the masks they take (`generate_autoregressive_mask`, `generate_padding_mask`).

Masks are Bool tensors, True where a position must not be attended to; the masked scores are
filled with `min_float` (-1e4 by default, as burn does, rather than -inf) before the softmax.
"""

import math
from dataclasses import dataclass

import numpy as np

from burnpy.generated import Tensor
from burnpy.nn import init
from burnpy.nn.cache import TensorCache
from burnpy.nn.dropout import Dropout
from burnpy.nn.linear import Linear
from burnpy.nn.module import Module


@dataclass
class MhaOutput:
    """What `MultiHeadAttention` returns: `context` [batch, seq_q, d_model] and the attention
    `weights` [batch, n_heads, seq_q, seq_k]."""

    context: Tensor
    weights: Tensor


class _LinearCache:
    """One projection's cache: appended to along `dim` at each step, or computed once (`dim`
    None) for a key or value that does not change between steps."""

    def __init__(self, dim):
        self.cache = TensorCache()
        self.dim = dim

    def forward(self, tensor, func):
        if self.dim is None:
            return self.cache.forward_full(tensor, func)
        return self.cache.forward_autoregressive(tensor, self.dim, func)


class MhaCache:
    """`MultiHeadAttention.forward_cache`'s memory between decoding steps: the projected query,
    key and value of the positions seen so far and the outputs given for them."""

    def __init__(self, key_value_dim):
        self.query = _LinearCache(2)
        self.key = _LinearCache(key_value_dim)
        self.value = _LinearCache(key_value_dim)
        self.output = _LinearCache(1)

    @classmethod
    def autoregressive(cls) -> "MhaCache":
        """For self-attention: every projection grows by one position per step."""
        return cls(2)

    @classmethod
    def autoregressive_cross_attention(cls) -> "MhaCache":
        """For attention to a fixed memory: its key and value are projected once."""
        return cls(None)


def _check_mask(name, mask, shape):
    if mask is None:
        return
    if mask.dtype != np.bool_:
        raise TypeError(f"{name} must be a Bool tensor (True = masked), got dtype {mask.dtype}")
    if tuple(mask.shape) != tuple(shape):
        raise ValueError(f"{name} must have shape {list(shape)}, got {list(mask.shape)}")


def _mask_scores(scores, mask_pad, mask_attn, min_float):
    """Fill the masked scores [batch, heads, seq_q, seq_k] with `min_float`."""
    batch, _, seq_q, seq_k = scores.shape
    _check_mask("mask_pad", mask_pad, (batch, seq_k))
    _check_mask("mask_attn", mask_attn, (batch, seq_q, seq_k))
    if mask_pad is not None:
        scores = scores.mask_fill(mask_pad.reshape([batch, 1, 1, seq_k]), min_float)
    if mask_attn is not None:
        scores = scores.mask_fill(mask_attn.reshape([batch, 1, seq_q, seq_k]), min_float)
    return scores


def _check_input(layer, name, x, d_model):
    if x.ndim != 3 or x.shape[2] != d_model:
        raise ValueError(
            f"{layer} needs {name} of shape [batch, seq, {d_model}], got {list(x.shape)}"
        )


class MultiHeadAttention(Module):
    """Multi-head scaled dot-product attention with the projections `query`, `key`, `value` and
    `output` (each a `Linear` d_model -> d_model). As burn does, dropout acts on the scaled
    scores, before masking and the softmax; `quiet_softmax` adds one to the softmax's
    denominator, so a head may attend to nothing."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        *,
        dropout: float = 0.1,
        min_float: float = -1.0e4,
        quiet_softmax: bool = False,
        query_bias: bool = True,
        key_bias: bool = True,
        value_bias: bool = True,
        output_bias: bool = True,
        initializer=None,
        device,
    ):
        super().__init__()
        if n_heads <= 0 or d_model % n_heads:
            raise ValueError(
                f"d_model ({d_model}) must be a multiple of n_heads ({n_heads}): each head "
                "gets d_model / n_heads features"
            )
        initializer = initializer or init.KAIMING_DEFAULT
        self.query = Linear(d_model, d_model, query_bias, device=device, initializer=initializer)
        self.key = Linear(d_model, d_model, key_bias, device=device, initializer=initializer)
        self.value = Linear(d_model, d_model, value_bias, device=device, initializer=initializer)
        self.output = Linear(d_model, d_model, output_bias, device=device, initializer=initializer)
        self.dropout = Dropout(dropout)
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.min_float = float(min_float)
        self.quiet_softmax = bool(quiet_softmax)

    def forward(self, query, key=None, value=None, *, mask_pad=None, mask_attn=None) -> MhaOutput:
        """Attend from `query` [batch, seq_q, d_model] to `key` and `value` [batch, seq_k,
        d_model], both the query itself when left out (self-attention). `mask_pad` [batch,
        seq_k] and `mask_attn` [batch, seq_q, seq_k] mask positions."""
        key, value = self._key_value(query, key, value)
        context, weights = self._attend(
            query,
            self._heads(query, self.query),
            self._heads(key, self.key),
            self._heads(value, self.value),
            mask_pad,
            mask_attn,
        )
        return MhaOutput(self.output(context), weights)

    def forward_cache(
        self, query, key=None, value=None, *, cache: MhaCache, mask_pad=None, mask_attn=None
    ) -> MhaOutput:
        """`forward` during autoregressive decoding: called with the whole sequence so far at
        each step, it projects only the newest position and takes the rest from `cache`."""
        key, value = self._key_value(query, key, value)
        context, weights = self._attend(
            query,
            cache.query.forward(query, lambda t: self._heads(t, self.query)),
            cache.key.forward(key, lambda t: self._heads(t, self.key)),
            cache.value.forward(value, lambda t: self._heads(t, self.value)),
            mask_pad,
            mask_attn,
        )
        return MhaOutput(cache.output.forward(context, self.output), weights)

    def _key_value(self, query, key, value):
        if (key is None) != (value is None):
            raise ValueError(
                "MultiHeadAttention takes both key and value, or neither (self-attention)"
            )
        key = query if key is None else key
        value = query if value is None else value
        for name, x in (("query", query), ("key", key), ("value", value)):
            _check_input("MultiHeadAttention", name, x, self.d_model)
        if key.shape != value.shape or key.shape[0] != query.shape[0]:
            raise ValueError(
                "MultiHeadAttention needs key and value of one shape and the query's batch, got "
                f"query {list(query.shape)}, key {list(key.shape)}, value {list(value.shape)}"
            )
        return key, value

    def _heads(self, x, linear):
        """[batch, seq, d_model] projected and split into [batch, n_heads, seq, d_k]."""
        batch, seq, _ = x.shape
        return linear(x).reshape([batch, seq, self.n_heads, self.d_k]).swap_dims(1, 2)

    def _attend(self, query, q, k, v, mask_pad, mask_attn):
        """The heads' context joined back to [batch, seq_q, d_model], and the weights."""
        batch, seq_q, _ = query.shape
        scores = self.dropout(q.matmul(k.transpose()) * (1.0 / math.sqrt(self.d_k)))
        scores = _mask_scores(scores, mask_pad, mask_attn, self.min_float)
        weights = scores.quiet_softmax(3) if self.quiet_softmax else scores.softmax(3)
        context = weights.matmul(v).swap_dims(1, 2).reshape([batch, seq_q, self.d_model])
        return context, weights

    def extra_repr(self):
        return (
            f"d_model={self.d_model}, n_heads={self.n_heads}, d_k={self.d_k}, "
            f"dropout={self.dropout.prob}, min_float={self.min_float}, "
            f"quiet_softmax={self.quiet_softmax}"
        )


class CrossAttentionCache:
    """`CrossAttention.forward_cache`'s projected key `k` and value `v` of a context that stays
    the same between calls."""

    def __init__(self):
        self.k = TensorCache()
        self.v = TensorCache()


class CrossAttention(Module):
    """Attention from a query [batch, seq_q, d_model] to a context [batch, seq_k, d_context] of
    another width, with `n_heads` query heads of `d_head` features sharing `n_heads_kv` key and
    value heads (n_heads_kv = n_heads: multi-head; 1: multi-query; between: grouped-query). The
    projections are initialized kaiming-uniform with gain 1/sqrt(d_head), as burn does; dropout
    acts on the weights, after the softmax."""

    def __init__(
        self,
        d_model: int,
        d_context: int,
        n_heads: int,
        n_heads_kv: int,
        d_head: int,
        *,
        dropout: float = 0.1,
        min_float: float = -1.0e4,
        quiet_softmax: bool = False,
        device,
    ):
        super().__init__()
        if n_heads_kv <= 0 or n_heads % n_heads_kv:
            raise ValueError(
                f"n_heads ({n_heads}) must be a multiple of n_heads_kv ({n_heads_kv}): each key "
                "and value head serves n_heads / n_heads_kv query heads"
            )
        initializer = init.kaiming_uniform(1.0 / math.sqrt(d_head))

        def linear(d_input, d_output):
            return Linear(d_input, d_output, device=device, initializer=initializer)

        self.query = linear(d_model, n_heads * d_head)
        self.key = linear(d_context, n_heads_kv * d_head)
        self.value = linear(d_context, n_heads_kv * d_head)
        self.output = linear(n_heads * d_head, d_model)
        self.dropout = Dropout(dropout)
        self.n_heads = n_heads
        self.n_heads_kv = n_heads_kv
        self.d_head = d_head
        self.scale = 1.0 / math.sqrt(d_head)
        self.min_float = float(min_float)
        self.quiet_softmax = bool(quiet_softmax)

    def forward(self, query, context, mask=None):
        """`mask` [batch, seq_k]: True at the context positions not to attend to. Returns
        [batch, seq_q, d_model]."""
        return self._attend(query, self._kv(context, self.key), self._kv(context, self.value), mask)

    def forward_cache(self, query, context, mask=None, *, cache: CrossAttentionCache):
        """`forward`, projecting `context` only on the cache's first use."""
        k = cache.k.forward_full(context, lambda c: self._kv(c, self.key))
        v = cache.v.forward_full(context, lambda c: self._kv(c, self.value))
        return self._attend(query, k, v, mask)

    def _kv(self, context, linear):
        if context.ndim != 3 or context.shape[2] != self.key.weight.shape[0]:
            raise ValueError(
                f"CrossAttention needs a context of shape [batch, seq, "
                f"{self.key.weight.shape[0]}], got {list(context.shape)}"
            )
        batch, seq, _ = context.shape
        return linear(context).reshape([batch, seq, self.n_heads_kv, self.d_head]).swap_dims(1, 2)

    def _attend(self, query, k, v, mask):
        _check_input("CrossAttention", "query", query, self.query.weight.shape[0])
        batch, seq_q, _ = query.shape
        q = self.query(query).reshape([batch, seq_q, self.n_heads, self.d_head]).swap_dims(1, 2)
        if self.n_heads != self.n_heads_kv:
            k, v = self._repeat_kv(k), self._repeat_kv(v)
        scores = _mask_scores(q.matmul(k.transpose()) * self.scale, mask, None, self.min_float)
        weights = scores.quiet_softmax(3) if self.quiet_softmax else scores.softmax(3)
        weights = self.dropout(weights)
        out = weights.matmul(v).swap_dims(1, 2).reshape([batch, seq_q, self.n_heads * self.d_head])
        return self.output(out)

    def _repeat_kv(self, x):
        """[batch, n_heads_kv, seq, d_head] with each head repeated for its query heads."""
        batch, heads, seq, d_head = x.shape
        repeats = self.n_heads // heads
        x = x.reshape([batch, heads, 1, seq, d_head]).expand([batch, heads, repeats, seq, d_head])
        return x.reshape([batch, heads * repeats, seq, d_head])

    def extra_repr(self):
        return (
            f"n_heads={self.n_heads}, n_heads_kv={self.n_heads_kv}, d_head={self.d_head}, "
            f"dropout={self.dropout.prob}, min_float={self.min_float}, "
            f"quiet_softmax={self.quiet_softmax}"
        )


def generate_autoregressive_mask(batch_size: int, seq_length: int, device):
    """The causal mask [batch_size, seq_length, seq_length]: True above the diagonal, so
    position i attends to positions 0..i only."""
    mask = Tensor.tril_mask([seq_length, seq_length], 0, device=device)
    return mask.expand([batch_size, seq_length, seq_length])


@dataclass
class GeneratePaddingMask:
    """`generate_padding_mask`'s result: the padded Int `tensor` [batch, size] and its `mask`,
    True at the padding."""

    tensor: Tensor
    mask: Tensor


def generate_padding_mask(
    pad_token: int, tokens_list, seq_length=None, *, fixed: bool = False, device
) -> GeneratePaddingMask:
    """Pad the token sequences of `tokens_list` with `pad_token` to one length: the longest
    sequence's, at most `seq_length` when given (longer ones are cut), or exactly `seq_length`
    with `fixed=True` (burn's `SeqLengthOption` NoMax, Max and Fixed)."""
    tokens_list = [list(tokens) for tokens in tokens_list]
    longest = max((len(tokens) for tokens in tokens_list), default=1)
    if fixed and seq_length is None:
        raise ValueError("generate_padding_mask with fixed=True needs seq_length")
    size = longest if seq_length is None else (seq_length if fixed else min(longest, seq_length))
    padded = np.full((len(tokens_list), size), pad_token, dtype=np.int64)
    for row, tokens in enumerate(tokens_list):
        kept = tokens[:size]
        padded[row, : len(kept)] = kept
    tensor = Tensor.from_data(padded, device=device)
    return GeneratePaddingMask(tensor, tensor.equal_elem(pad_token))
