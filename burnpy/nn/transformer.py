"""Transformers: burn-nn's `PositionWiseFeedForward`, `TransformerEncoder` and
`TransformerDecoder`, with their autoregressive inference caches.

The layer norms are named and placed as burn places them. Encoder layer, post-norm (the
default): x = norm_1(x + mha(x)); x = norm_2(x + pwff(x)). Pre-norm (`norm_first`): x = x +
mha(norm_2(x)); x = x + pwff(norm_1(x)). Decoder layer, post-norm: norm_1 after self-attention,
norm_2 after cross-attention, norm_3 after the feed-forward; pre-norm: norm_3 before
self-attention, norm_1 before cross-attention, norm_2 before the feed-forward. Dropout acts on
each sub-layer's output before the residual sum.
"""

from burnpy.nn import activation as activations
from burnpy.nn import init
from burnpy.nn.attention import MhaCache, MultiHeadAttention
from burnpy.nn.cache import TensorCache
from burnpy.nn.dropout import Dropout
from burnpy.nn.linear import Linear
from burnpy.nn.module import Module
from burnpy.nn.norm import LayerNorm


def _activation(activation):
    """A layer from burn's activation name ("gelu", "relu", "leaky_relu", ...), or the given
    module."""
    if isinstance(activation, Module):
        return activation
    return activations.Activation(str(activation))


class PositionWiseFeedForward(Module):
    """linear_outer(dropout(activation(linear_inner(x)))): d_model -> d_ff -> d_model."""

    def __init__(
        self,
        d_model: int,
        d_ff: int,
        *,
        dropout: float = 0.1,
        activation="gelu",
        initializer=None,
        device,
    ):
        super().__init__()
        initializer = initializer or init.KAIMING_DEFAULT
        self.linear_inner = Linear(d_model, d_ff, device=device, initializer=initializer)
        self.linear_outer = Linear(d_ff, d_model, device=device, initializer=initializer)
        self.dropout = Dropout(dropout)
        self.activation = _activation(activation)

    def forward(self, x):
        return self.linear_outer(self.dropout(self.activation(self.linear_inner(x))))

    def extra_repr(self):
        d_model, d_ff = self.linear_inner.weight.shape
        return f"d_model={d_model}, d_ff={d_ff}, prob={self.dropout.prob}"


def _layer_parts(d_model, d_ff, n_heads, dropout, quiet_softmax, activation, eps, init_, device):
    """The attention, feed-forward and norm constructors every transformer layer shares."""

    def mha():
        return MultiHeadAttention(
            d_model,
            n_heads,
            dropout=dropout,
            quiet_softmax=quiet_softmax,
            initializer=init_,
            device=device,
        )

    def pwff():
        return PositionWiseFeedForward(
            d_model, d_ff, dropout=dropout, activation=activation, initializer=init_, device=device
        )

    def norm():
        return LayerNorm(d_model, epsilon=eps, device=device)

    return mha, pwff, norm


class TransformerEncoderLayer(Module):
    """Self-attention then the feed-forward, each in a residual branch (see the module's
    docstring for where `norm_1` and `norm_2` go). Built by `TransformerEncoder`, which passes
    the constructors of its sub-layers."""

    def __init__(self, mha, pwff, norm, dropout: float, norm_first: bool):
        super().__init__()
        self.mha = mha()
        self.pwff = pwff()
        self.norm_1 = norm()
        self.norm_2 = norm()
        self.dropout = Dropout(dropout)
        self.norm_first = norm_first

    def forward(self, x, mask_pad=None, mask_attn=None):
        return self._forward(x, mask_pad, mask_attn, None)

    def forward_autoregressive_inference(self, x, cache, mask_pad=None, mask_attn=None):
        return self._forward(x, mask_pad, mask_attn, cache)

    def _forward(self, x, mask_pad, mask_attn, cache):
        run = _runner(cache)
        residual = run("norm_2", self.norm_2, x) if self.norm_first else x
        if cache is None:
            context = self.mha(residual, mask_pad=mask_pad, mask_attn=mask_attn).context
        else:
            context = self.mha.forward_cache(
                residual, cache=cache.mha, mask_pad=mask_pad, mask_attn=mask_attn
            ).context
        x = x + self.dropout(context)
        if self.norm_first:
            residual = run("norm_1", self.norm_1, x)
        else:
            x = residual = run("norm_1", self.norm_1, x)
        x = x + self.dropout(run("pwff", self.pwff, residual))
        return x if self.norm_first else run("norm_2", self.norm_2, x)


class TransformerDecoderLayer(Module):
    """Self-attention on the target, cross-attention to the memory, then the feed-forward, each
    in a residual branch (see the module's docstring for where the norms go). Built by
    `TransformerDecoder`; `masks` is (target_mask_pad, target_mask_attn, memory_mask_pad,
    memory_mask_attn)."""

    def __init__(self, mha, pwff, norm, dropout: float, norm_first: bool):
        super().__init__()
        self.cross_attn = mha()
        self.self_attn = mha()
        self.pwff = pwff()
        self.norm_1 = norm()
        self.norm_2 = norm()
        self.norm_3 = norm()
        self.dropout = Dropout(dropout)
        self.norm_first = norm_first

    def forward(self, target, memory, masks):
        return self._forward(target, memory, masks, None)

    def forward_autoregressive_inference(self, target, memory, masks, cache):
        return self._forward(target, memory, masks, cache)

    def _forward(self, x, memory, masks, cache):
        run = _runner(cache)
        target_pad, target_attn, memory_pad, memory_attn = masks

        def attend(mha, name, query, source, mask_pad, mask_attn):
            if cache is None:
                return mha(query, source, source, mask_pad=mask_pad, mask_attn=mask_attn).context
            return mha.forward_cache(
                query,
                source,
                source,
                cache=getattr(cache, name),
                mask_pad=mask_pad,
                mask_attn=mask_attn,
            ).context

        residual = run("norm_3", self.norm_3, x) if self.norm_first else x
        x = x + self.dropout(
            attend(self.self_attn, "self_attn", residual, residual, target_pad, target_attn)
        )
        if self.norm_first:
            residual = run("norm_1", self.norm_1, x)
        else:
            x = residual = run("norm_1", self.norm_1, x)
        x = x + self.dropout(
            attend(self.cross_attn, "cross_attn", residual, memory, memory_pad, memory_attn)
        )
        if self.norm_first:
            residual = run("norm_2", self.norm_2, x)
        else:
            x = residual = run("norm_2", self.norm_2, x)
        x = x + self.dropout(run("pwff", self.pwff, residual))
        return x if self.norm_first else run("norm_3", self.norm_3, x)


def _runner(cache):
    """run(name, layer, x): layer(x), or through the cache's TensorCache `name` when decoding
    autoregressively (only the newest position is computed)."""
    if cache is None:
        return lambda name, layer, x: layer(x)
    return lambda name, layer, x: getattr(cache, name).forward_autoregressive(x, 1, layer)


class TransformerEncoderLayerAutoregressiveCache:
    """One encoder layer's caches: its attention's and those of `pwff`, `norm_1`, `norm_2`."""

    def __init__(self):
        self.mha = MhaCache.autoregressive()
        self.pwff = TensorCache()
        self.norm_1 = TensorCache()
        self.norm_2 = TensorCache()


class TransformerDecoderLayerAutoregressiveCache:
    """One decoder layer's caches; the cross-attention projects the memory once."""

    def __init__(self):
        self.cross_attn = MhaCache.autoregressive_cross_attention()
        self.self_attn = MhaCache.autoregressive()
        self.pwff = TensorCache()
        self.norm_1 = TensorCache()
        self.norm_2 = TensorCache()
        self.norm_3 = TensorCache()


class TransformerEncoderAutoregressiveCache:
    def __init__(self, n_layers: int):
        self.layers = [TransformerEncoderLayerAutoregressiveCache() for _ in range(n_layers)]


class TransformerDecoderAutoregressiveCache:
    def __init__(self, n_layers: int):
        self.layers = [TransformerDecoderLayerAutoregressiveCache() for _ in range(n_layers)]


class _Transformer(Module):
    """What the encoder and the decoder share: the configuration (burn's `TransformerEncoderConfig`
    and `TransformerDecoderConfig` have the same fields), the layers, the display. `LAYER` is the
    layer class a subclass stacks."""

    LAYER: type

    def __init__(
        self,
        d_model: int,
        d_ff: int,
        n_heads: int,
        n_layers: int,
        *,
        dropout: float = 0.1,
        norm_first: bool = False,
        quiet_softmax: bool = False,
        activation="gelu",
        layer_norm_eps: float = 1e-5,
        initializer=None,
        device,
    ):
        super().__init__()
        parts = _layer_parts(
            d_model,
            d_ff,
            n_heads,
            dropout,
            quiet_softmax,
            activation,
            layer_norm_eps,
            initializer or init.KAIMING_DEFAULT,
            device,
        )
        self.layers = [self.LAYER(*parts, dropout, norm_first) for _ in range(n_layers)]
        self.d_model = d_model
        self.d_ff = d_ff
        self.n_heads = n_heads
        self.n_layers = n_layers
        self.dropout = dropout
        self.norm_first = norm_first
        self.quiet_softmax = quiet_softmax

    def extra_repr(self):
        return (
            f"d_model={self.d_model}, d_ff={self.d_ff}, n_heads={self.n_heads}, "
            f"n_layers={self.n_layers}, dropout={self.dropout}, norm_first={self.norm_first}, "
            f"quiet_softmax={self.quiet_softmax}"
        )


class TransformerEncoder(_Transformer):
    """`n_layers` encoder layers of self-attention and a position-wise feed-forward, on inputs
    [batch, seq, d_model]."""

    LAYER = TransformerEncoderLayer

    def forward(self, x, *, mask_pad=None, mask_attn=None):
        """`mask_pad` [batch, seq] and `mask_attn` [batch, seq, seq]: Bool, True = masked."""
        for layer in self.layers:
            x = layer(x, mask_pad, mask_attn)
        return x

    def forward_autoregressive_inference(self, x, cache, *, mask_pad=None, mask_attn=None):
        """`forward` during decoding, given the whole sequence so far at each step; each layer
        computes only the newest position (no mask_attn is needed: the cache is causal)."""
        for layer, layer_cache in zip(self.layers, cache.layers, strict=True):
            x = layer.forward_autoregressive_inference(x, layer_cache, mask_pad, mask_attn)
        return x

    def new_autoregressive_cache(self) -> TransformerEncoderAutoregressiveCache:
        return TransformerEncoderAutoregressiveCache(len(self.layers))


class TransformerDecoder(_Transformer):
    """`n_layers` decoder layers: self-attention on the target, cross-attention to the memory
    (the encoder's output), a position-wise feed-forward."""

    LAYER = TransformerDecoderLayer

    def forward(
        self,
        target,
        memory,
        *,
        target_mask_pad=None,
        target_mask_attn=None,
        memory_mask_pad=None,
        memory_mask_attn=None,
    ):
        """`target` [batch, seq_t, d_model] attends to itself (masked by target_mask_pad
        [batch, seq_t] and target_mask_attn [batch, seq_t, seq_t]) and to `memory` [batch,
        seq_m, d_model] (masked by memory_mask_pad [batch, seq_m] and memory_mask_attn
        [batch, seq_t, seq_m])."""
        masks = (target_mask_pad, target_mask_attn, memory_mask_pad, memory_mask_attn)
        for layer in self.layers:
            target = layer(target, memory, masks)
        return target

    def forward_autoregressive_inference(
        self,
        target,
        memory,
        cache,
        *,
        target_mask_pad=None,
        target_mask_attn=None,
        memory_mask_pad=None,
        memory_mask_attn=None,
    ):
        """`forward` during decoding, given the whole target so far at each step."""
        masks = (target_mask_pad, target_mask_attn, memory_mask_pad, memory_mask_attn)
        for layer, layer_cache in zip(self.layers, cache.layers, strict=True):
            target = layer.forward_autoregressive_inference(target, memory, masks, layer_cache)
        return target

    def new_autoregressive_cache(self) -> TransformerDecoderAutoregressiveCache:
        return TransformerDecoderAutoregressiveCache(len(self.layers))
