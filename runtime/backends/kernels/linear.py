"""embedding and linear (burn's ModuleOps defaults), with their `_backward` kernels.

linear's weight is `[d_in, d_out]`, not transposed (burn's layout, unlike torch's); its input
has rank >= 1. Leading dims are flattened into one matrix so that one matmul does the work.
"""

from burnpy.runtime.backends.kernels.indexing import ADD
from burnpy.runtime.errors import user_call


class LinearKernels:
    def embedding(self, weights, indices):
        if weights.ndim != 2:
            raise ValueError(
                f"{user_call('embedding')}: weights must be [n_embeddings, d_model], got {list(weights.shape)}"
            )
        flat = self.xp.reshape(indices, (-1,))
        self._check_range("embedding", flat, weights.shape[0], 0)
        rows = self.xp.take(weights, flat, axis=0)
        return self.xp.reshape(rows, (*indices.shape, weights.shape[1]))

    def embedding_backward(self, weights, output_grad, indices):
        xp = self.xp
        grad = xp.zeros(weights.shape, dtype=output_grad.dtype, device=output_grad.device)
        rows = xp.reshape(output_grad, (-1, weights.shape[1]))
        self.index_update(grad, (xp.reshape(indices, (-1,)),), rows, ADD)
        return grad

    def linear(self, input, weight, bias):
        if input.ndim < 1 or weight.ndim != 2 or input.shape[-1] != weight.shape[0]:
            raise ValueError(
                f"{user_call('linear')}: the input's last dim must match the weight's first ([d_in, d_out]), got "
                f"input {list(input.shape)} and weight {list(weight.shape)}"
            )
        rows = self._rows(input, weight.shape[0])
        out = self.float_matmul(rows, weight)
        if bias is not None:
            out += bias  # into the product, which is this kernel's own: no second buffer
        if rows is input:
            return out
        return self.xp.reshape(out, (*input.shape[:-1], weight.shape[1]))

    def linear_x_backward(self, weight, output_grad):
        rows = self._rows(output_grad, weight.shape[1])
        grad = self.float_matmul(rows, self.float_swap_dims(weight, 0, 1))
        if rows is output_grad:
            return grad
        return self.xp.reshape(grad, (*output_grad.shape[:-1], weight.shape[0]))

    def linear_weight_backward(self, x, output_grad):
        rows = self._rows(x, x.shape[-1])
        return self.float_matmul(
            self.float_swap_dims(rows, 0, 1), self._rows(output_grad, output_grad.shape[-1])
        )

    def linear_bias_backward(self, output_grad):
        rows = self._rows(output_grad, output_grad.shape[-1])
        return self.xp.sum(rows, axis=0, dtype=output_grad.dtype)

    def _rows(self, tensor, n):
        """[..., n] as the matrix [rows, n]: a matrix as it is (the common case, no reshape)."""
        return tensor if tensor.ndim == 2 else self.xp.reshape(tensor, (-1, n))
