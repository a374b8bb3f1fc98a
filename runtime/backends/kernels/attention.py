"""Scaled dot-product attention (burn's `attention` ModuleOp) and its backward kernel.

burn's order of operations: scores = q kᵀ · scale, then softcap (c · tanh(s / c)), then the
mask and the causal mask (-inf), then the additive bias, then a softmax whose fully masked rows
give 0, not NaN. The causal mask is aligned bottom-right: query row i sees key columns
j <= i + seq_k - seq_q (the last query sees every key). Batched matmuls over [b, h]: no loop.
"""

import math

# The most a recorded attention keeps for its backward (its probabilities): 64 MiB
KEEP_BYTES = 1 << 26


class AttentionKernels:
    def _attention_probs(self, query, key, mask, attn_bias, scale, softcap, is_causal):
        """(softmax probabilities, tanh of the softcapped scores or None), both laid out
        [..., seq_k, seq_q] in memory: a transposed view of k qᵀ. Every reduction is over the
        keys, which that layout puts along whole rows of memory instead of along a short
        contiguous axis (numpy's row max: 6x faster); the products with v and the backward's
        products take the transposed operands as they are. Each array made here is this
        kernel's own, so the steps after the matmul work in place."""
        xp = self.xp
        if scale is None:
            scale = 1 / math.sqrt(query.shape[-1])
        # the scale on the queries, which are smaller than the scores when seq_k > d
        scores = xp.matrix_transpose(xp.matmul(key, xp.matrix_transpose(query * scale)))
        capped = None
        if softcap is not None:
            capped = xp.tanh(scores / softcap)
            scores = capped * softcap
        masked = self._attention_mask(mask, is_causal, query.shape[-2], key.shape[-2], query)
        if masked is not None:
            scores = self._fill_where(scores, masked, -math.inf)
        if attn_bias is not None:
            if _widens(attn_bias.shape, scores.shape):
                scores = scores + attn_bias
            else:
                scores += attn_bias
        # a row of -inf has max -inf: shifting by it would give NaN, so shift by 0 there
        row_max = xp.max(scores, axis=-1, keepdims=True)
        scores -= xp.where(row_max == -math.inf, 0.0, row_max)
        probs = xp.exp(scores)
        total = xp.sum(probs, axis=-1, keepdims=True)
        probs *= 1 / xp.where(total == 0, 1.0, total)  # (a product costs less than a quotient)
        return probs, capped

    def _fill_where(self, array, condition, value):
        """`array` with `value` where `condition` (broadcast) holds; may write into `array`."""
        return self.xp.where(condition, value, array)

    def _attention_mask(self, mask, is_causal, seq_q, seq_k, like):
        """The boolean mask of masked-out scores (true = masked), or None."""
        if not is_causal:
            return mask
        xp = self.xp
        rows = xp.reshape(xp.arange(seq_q, device=like.device), (seq_q, 1))
        cols = xp.reshape(xp.arange(seq_k, device=like.device), (1, seq_k))
        causal = cols > rows + (seq_k - seq_q)
        return causal if mask is None else xp.logical_or(mask, causal)

    def attention(self, query, key, value, mask, attn_bias, scale, softcap, is_causal):
        probs, _ = self._attention_probs(query, key, mask, attn_bias, scale, softcap, is_causal)
        return self.xp.matmul(probs, value)

    def attention_keeping(self, query, key, value, mask, attn_bias, scale, softcap, is_causal):
        """attention, and its probabilities (with softcap's tanh) for the backward when they
        take at most KEEP_BYTES; beyond, None, and the backward computes them again."""
        kept = self._attention_probs(query, key, mask, attn_bias, scale, softcap, is_causal)
        out = self.xp.matmul(kept[0], value)
        size = math.prod(kept[0].shape) * self.xp.finfo(kept[0].dtype).bits // 8
        return out, (kept if size * (1 if softcap is None else 2) <= KEEP_BYTES else None)

    def attention_backward(
        self,
        query,
        key,
        value,
        mask,
        attn_bias,
        grad,
        scale,
        softcap,
        is_causal,
        wanted=None,
        probabilities=None,
    ):
        """(grad query, grad key, grad value, grad attn_bias); the last has the scores' shape
        [b, h, seq_q, seq_k] (a broadcast bias is summed back by the caller). `wanted` (one
        bool per input, default all) skips the gradients nobody needs: they are None.
        `probabilities`: what `attention_keeping` kept, only read here; None: computed again."""
        xp = self.xp
        want_q, want_k, want_v, want_bias = (True,) * 4 if wanted is None else wanted
        probs, capped = probabilities or self._attention_probs(
            query, key, mask, attn_bias, scale, softcap, is_causal
        )
        grad_value = xp.matmul(xp.matrix_transpose(probs), grad) if want_v else None
        if not (want_q or want_k or want_bias):
            return None, None, grad_value, None
        # in the probabilities' layout, [..., seq_k, seq_q] in memory
        grad_scores = xp.matrix_transpose(xp.matmul(value, xp.matrix_transpose(grad)))
        # softmax backward; masked scores have probability 0, so they get no gradient
        grad_scores -= xp.sum(grad_scores * probs, axis=-1, keepdims=True)
        grad_scores *= probs
        if not (want_q or want_k):
            return None, None, grad_value, grad_scores
        grad_bias = grad_scores if want_bias else None
        if capped is not None:
            grad_scores = grad_scores * (1 - capped * capped)
        # the scale goes on the [.., seq, d] products, smaller than the scores when seq > d
        scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
        grad_query = grad_key = None
        if want_q:
            grad_query = xp.matmul(grad_scores, key)
            grad_query *= scale
        if want_k:
            grad_key = xp.matmul(xp.matrix_transpose(grad_scores), query)
            grad_key *= scale
        return grad_query, grad_key, grad_value, grad_bias


def _widens(shape, target) -> bool:
    """Whether broadcasting an array of `shape` against one of `target` gives more than
    `target` (so it cannot be added into it in place)."""
    if len(shape) > len(target):
        return True
    return any(n != 1 and n != m for n, m in zip(reversed(shape), reversed(target)))
