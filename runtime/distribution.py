"""burn's `Distribution` for `Tensor.random`."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Distribution:
    """`Distribution.uniform(lo, hi)`, `Distribution.normal(mean, std)`, `Distribution.default()`."""

    name: str
    a: float
    b: float

    @staticmethod
    def uniform(low: float, high: float) -> "Distribution":
        return Distribution("uniform", float(low), float(high))

    @staticmethod
    def normal(mean: float, std: float) -> "Distribution":
        return Distribution("normal", float(mean), float(std))

    @staticmethod
    def default() -> "Distribution":
        """burn's default: uniform on [0, 1)."""
        return Distribution.uniform(0.0, 1.0)

    def __repr__(self):
        if self.name == "uniform":
            return f"Uniform({self.a}, {self.b})"
        return f"Normal({self.a}, {self.b})"
