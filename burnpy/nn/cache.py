"""`TensorCache`: a layer's output kept between the steps of autoregressive decoding (burn-nn's
`cache` module), so each step computes only the newest position."""

from burnpy.generated import Tensor


class TensorCache:
    """Holds one tensor, empty at first. The decoding loop feeds the whole sequence so far at
    every step, [batch, seq, d_model]; the cache remembers what the layer gave for the earlier
    positions."""

    def __init__(self):
        self.value = None

    def forward_autoregressive(self, tensor, dim_cat: int, func):
        """`func(tensor)` on the first call; afterwards `func` of the last position only,
        joined along `dim_cat` to what the earlier calls gave."""
        if self.value is None:
            self.value = func(tensor)
        else:
            seq = tensor.shape[1]
            newest = func(tensor.slice([slice(None), slice(seq - 1, seq)]))
            self.value = Tensor.cat([self.value, newest], dim_cat)
        return self.value

    def forward_full(self, tensor, func):
        """`func(tensor)` on the first call, the same value afterwards (a fixed input, such as
        the encoder's memory a decoder attends to)."""
        if self.value is None:
            self.value = func(tensor)
        return self.value
