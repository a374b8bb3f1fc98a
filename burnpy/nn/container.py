"""`Sequential` and `Flatten`."""

from burnpy.generated import Tensor
from burnpy.nn.module import Module


class Sequential(Module):
    """Runs its modules in order; they are named 0, 1, ... in records and parameter names."""

    def __init__(self, *modules):
        super().__init__()
        for index, module in enumerate(modules):
            if not isinstance(module, Module):
                raise TypeError(
                    f"Sequential takes modules, got {type(module).__name__} at position {index}"
                )
        self.layers = list(modules)

    def forward(self, x: Tensor) -> Tensor:
        for module in self.layers:
            x = module(x)
        return x

    def _local(self):
        # The list's own name is left out: children are "0", "1", ... as in torch's Sequential.
        for path, value in super()._local():
            yield path.removeprefix("layers."), value

    def _set_local(self, path, value):
        super()._set_local("layers." + path, value)

    def __getitem__(self, index):
        return self.layers[index]

    def __len__(self):
        return len(self.layers)

    def __iter__(self):
        return iter(self.layers)


class Flatten(Module):
    """Merges dims `start_dim` through `end_dim` (inclusive; negative counts from the end)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, x: Tensor) -> Tensor:
        shape = list(x.shape)
        start = self.start_dim % len(shape)
        end = self.end_dim % len(shape)
        if start > end:
            raise ValueError(
                f"Flatten(start_dim={self.start_dim}, end_dim={self.end_dim}) is empty for a "
                f"tensor of rank {len(shape)}"
            )
        merged = 1
        for size in shape[start : end + 1]:
            merged *= size
        return x.reshape(shape[:start] + [merged] + shape[end + 1 :])

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
