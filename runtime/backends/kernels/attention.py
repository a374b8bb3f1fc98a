"""Scaled dot-product attention (burn's `attention` ModuleOp) and its backward kernel.

burn's order of operations: scores = q kᵀ · scale, then softcap (c · tanh(s / c)), then the
mask and the causal mask (-inf), then the additive bias, then a softmax whose fully masked rows
give 0, not NaN. The causal mask is aligned bottom-right: query row i sees key columns
j <= i + seq_k - seq_q (the last query sees every key). Batched matmuls over [b, h]: no loop.
"""

import math


class AttentionKernels:
    def _attention_probs(self, query, key, mask, attn_bias, scale, softcap, is_causal):
        """(softmax probabilities, tanh of the softcapped scores or None)."""
        xp = self.xp
        if scale is None:
            scale = 1 / math.sqrt(query.shape[-1])
        scores = xp.matmul(query, xp.matrix_transpose(key)) * scale
        capped = None
        if softcap is not None:
            capped = xp.tanh(scores / softcap)
            scores = capped * softcap
        masked = self._attention_mask(mask, is_causal, query.shape[-2], key.shape[-2], query)
        if masked is not None:
            scores = xp.where(masked, -math.inf, scores)
        if attn_bias is not None:
            scores = scores + attn_bias
        # a row of -inf has max -inf: shifting by it would give NaN, so shift by 0 there
        row_max = xp.max(scores, axis=-1, keepdims=True)
        row_max = xp.where(row_max == -math.inf, 0.0, row_max)
        exp = xp.exp(scores - row_max)
        total = xp.sum(exp, axis=-1, keepdims=True)
        return exp / xp.where(total == 0, 1.0, total), capped

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

    def attention_backward(
        self, query, key, value, mask, attn_bias, grad, scale, softcap, is_causal, wanted=None
    ):
        """(grad query, grad key, grad value, grad attn_bias); the last has the scores' shape
        [b, h, seq_q, seq_k] (a broadcast bias is summed back by the caller). `wanted` (one
        bool per input, default all) skips the gradients nobody needs: they are None."""
        xp = self.xp
        want_q, want_k, want_v, want_bias = (True,) * 4 if wanted is None else wanted
        probs, capped = self._attention_probs(
            query, key, mask, attn_bias, scale, softcap, is_causal
        )
        grad_value = xp.matmul(xp.matrix_transpose(probs), grad) if want_v else None
        if not (want_q or want_k or want_bias):
            return None, None, grad_value, None
        grad_probs = xp.matmul(grad, xp.matrix_transpose(value))
        # softmax backward; masked scores have probability 0, so they get no gradient
        grad_scores = probs * (grad_probs - xp.sum(grad_probs * probs, axis=-1, keepdims=True))
        grad_bias = grad_scores if want_bias else None
        if not (want_q or want_k):
            return None, None, grad_value, grad_bias
        if capped is not None:
            grad_scores = grad_scores * (1 - capped * capped)
        grad_scores = grad_scores * (1 / math.sqrt(query.shape[-1]) if scale is None else scale)
        grad_query = xp.matmul(grad_scores, key) if want_q else None
        grad_key = xp.matmul(xp.matrix_transpose(grad_scores), query) if want_k else None
        return grad_query, grad_key, grad_value, grad_bias
