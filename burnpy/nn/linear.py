"""`Linear` and `Embedding`: burn-nn's layouts and default initializers."""

from burnpy.generated import Tensor
from burnpy.nn import init
from burnpy.nn.module import Module
from burnpy.nn.ops import module_ops


class Linear(Module):
    """y = x @ weight + bias, with weight [d_input, d_output] (burn's row layout, the transpose
    of PyTorch's). Default initializer: kaiming_uniform(1/sqrt(3)) over fan_in = d_input, for
    the bias too, i.e. U(±1/sqrt(d_input)) as PyTorch's default."""

    def __init__(self, d_input: int, d_output: int, bias: bool = True, *, device, initializer=None):
        super().__init__()
        initializer = initializer or init.KAIMING_DEFAULT
        self.weight = initializer.init([d_input, d_output], device, d_input, d_output)
        self.bias = initializer.init([d_output], device, d_input, d_output) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return module_ops().linear(x, self.weight, self.bias)

    def extra_repr(self):
        d_input, d_output = self.weight.shape
        return f"d_input={d_input}, d_output={d_output}, bias={self.bias is not None}"


class Embedding(Module):
    """Rows of weight [n_embedding, d_model] picked by Int indices [batch, seq]. Default
    initializer: normal(0, 1)."""

    def __init__(self, n_embedding: int, d_model: int, *, device, initializer=None):
        super().__init__()
        initializer = initializer or init.normal(0.0, 1.0)
        self.weight = initializer.init([n_embedding, d_model], device)

    def forward(self, indices: Tensor) -> Tensor:
        return module_ops().embedding(self.weight, indices)

    def extra_repr(self):
        n_embedding, d_model = self.weight.shape
        return f"n_embedding={n_embedding}, d_model={d_model}"
