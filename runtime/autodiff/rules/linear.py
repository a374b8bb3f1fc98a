"""Linear-algebra module rules: embedding, linear and attention, calling burn's `*_backward`
ModuleOps. attention's rule is Joint: its backward kernel gives the query's, key's, value's and
bias's gradients at once, told which are wanted, reusing the `probabilities` its forward kept
(None where the backend kept nothing)."""

from burnpy.runtime.autodiff.rules.joint import Joint


def _attention(
    B, g, tracked, query, key, value, mask, attn_bias, scale, softcap, is_causal, probabilities
):
    return B.attention_backward(
        query, key, value, mask, attn_bias, g, scale, softcap, is_causal, wanted=tracked,
        probabilities=probabilities,
    )  # fmt: skip


class LinearRules:
    """The linear-algebra modules' rules, one row per op (its name)."""

    embedding = (lambda B, g, weights, indices: B.embedding_backward(weights, g, indices),)
    linear = (
        lambda B, g, weight: B.linear_x_backward(weight, g),
        lambda B, g, input: B.linear_weight_backward(input, g),
        lambda B, g: B.linear_bias_backward(g),
    )
    attention = Joint(_attention)
