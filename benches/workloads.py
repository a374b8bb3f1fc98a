"""The benchmarks' work, defined once for every column: inputs, and the raw-numpy reference.

Imports numpy only, so the PyTorch worker process builds exactly the same inputs from the same
seeds without importing this project. The raw-numpy MLP is written by hand, forward and backward,
as someone who only had numpy would write it; it is both the timing reference and the
correctness reference every other column is compared with before anything is timed.
"""

from dataclasses import dataclass

import numpy as np

from benches.timing import Column

OP_SHAPE = (8, 8)
OP_DTYPE = np.float32

# op -> (raw numpy statement, tensor-library statement) over the inputs `a` and `b`. Ours and
# PyTorch share the method syntax, so both tensor columns run the same statement.
OPS = {
    "add": ("a + b", "a + b"),
    "mul": ("a * b", "a * b"),
    "matmul": ("a @ b", "a @ b"),
    "exp": ("np.exp(a)", "a.exp()"),
    "sum": ("a.sum()", "a.sum()"),
}

MLP_SIZES = (784, 256, 256, 10)
MLP_BATCHES = (64, 1)


def op_inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(-1.0, 1.0, (2, *OP_SHAPE)).astype(OP_DTYPE)
    return a, b


def op_reference(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray(eval(OPS[op][0], {"np": np, "a": a, "b": b}))


@dataclass(frozen=True)
class MLPProblem:
    """One training step's inputs: weights are [in, out], biases [out], labels int64 [batch]."""

    x: np.ndarray
    labels: np.ndarray
    params: tuple[np.ndarray, ...]  # W1, b1, W2, b2, W3, b3

    @property
    def batch(self) -> int:
        return self.x.shape[0]


def mlp_problem(batch: int, sizes=MLP_SIZES, dtype=np.float32, seed: int = 0) -> MLPProblem:
    """Weights drawn like torch.nn.Linear's (uniform in +-1/sqrt(fan_in)); the same seed gives
    the same weights at every batch size, and batch 1 is the first row of any larger batch."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        bound = 1.0 / np.sqrt(fan_in)
        params.append(rng.uniform(-bound, bound, (fan_in, fan_out)).astype(dtype))
        params.append(rng.uniform(-bound, bound, (fan_out,)).astype(dtype))
    data = np.random.default_rng(seed + 1)
    x = data.standard_normal((max(batch, max(MLP_BATCHES)), sizes[0])).astype(dtype)[:batch]
    labels = data.integers(0, sizes[-1], max(batch, max(MLP_BATCHES)))[:batch]
    return MLPProblem(np.ascontiguousarray(x), labels, tuple(params))


def numpy_dot_for(batch: int):
    """The product a numpy user would pick: `@` in general, `np.dot` at batch 1, where `@` does
    not hand the K=1 outer products of the weight gradients to BLAS (about 5x slower there)."""
    return np.dot if batch == 1 else np.matmul


def numpy_mlp_step(problem: MLPProblem, dot=np.matmul):
    """Forward + backward by hand: (mean softmax cross-entropy, gradients of the params)."""
    x, labels = problem.x, problem.labels
    W1, b1, W2, b2, W3, b3 = problem.params
    rows = np.arange(problem.batch)
    z1 = dot(x, W1) + b1
    h1 = np.maximum(z1, 0)
    z2 = dot(h1, W2) + b2
    h2 = np.maximum(z2, 0)
    z3 = dot(h2, W3) + b3
    shifted = z3 - z3.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(axis=1, keepdims=True)
    loss = -(shifted[rows, labels] - np.log(total[:, 0])).mean()

    g3 = e / total
    g3[rows, labels] -= 1
    g3 /= problem.batch
    g2 = dot(g3, W3.T) * (z2 > 0)
    g1 = dot(g2, W2.T) * (z1 > 0)
    grads = (dot(x.T, g1), g1.sum(0), dot(h1.T, g2), g2.sum(0), dot(h2.T, g3), g3.sum(0))
    return loss, grads


def assert_same(what: str, got, expected, rtol: float, atol_scale: float) -> None:
    """got == expected up to float rounding; atol is relative to expected's largest entry, so
    the check is as strict for a 1e-4 gradient as for a 1.0 loss."""
    got = np.asarray(got, dtype=np.float64).reshape(np.shape(expected))
    expected = np.asarray(expected, dtype=np.float64)
    atol = atol_scale * float(np.max(np.abs(expected), initial=0.0))
    if not np.allclose(got, expected, rtol=rtol, atol=atol):
        worst = float(np.max(np.abs(got - expected)))
        raise BenchMismatch(
            f"{what}: differs from raw numpy's result (max abs diff {worst:.3g}, "
            f"allowed {atol:.3g} + {rtol:g} * |expected|); the columns do not compute the same "
            "thing, so timing them would be meaningless"
        )


class BenchMismatch(AssertionError):
    pass


class FloorMoved(AssertionError):
    """A guarded figure missed its target: `make bench` fails, after every table is printed."""


# float32 losses after a few optimiser steps of differently ordered arithmetic
LOSS_RTOL = 1e-4


def check_losses(losses: dict, reference: str = "PyTorch") -> None:
    """Every column's losses, step by step, are the reference column's."""
    expected = losses[reference]
    for column, got in losses.items():
        for index, (a, b) in enumerate(zip(got, expected, strict=True)):
            if abs(a - b) > LOSS_RTOL * abs(b):
                raise BenchMismatch(
                    f"{column}: loss of step {index + 1} is {a:.7f}, {reference}'s {b:.7f}"
                )


# float32 tolerances: BLAS libraries sum in different orders; 784-long dot products in float32
# differ by a few 1e-6 relative.
F32_RTOL, F32_ATOL_SCALE = 2e-4, 2e-5


def check_mlp_step(column: str, batch: int, loss, grads, reference) -> None:
    ref_loss, ref_grads = reference
    assert_same(f"{column} MLP batch {batch}: loss", loss, ref_loss, F32_RTOL, F32_ATOL_SCALE)
    names = ("W1", "b1", "W2", "b2", "W3", "b3")
    for name, got, expected in zip(names, grads, ref_grads):
        assert_same(
            f"{column} MLP batch {batch}: grad {name}", got, expected, F32_RTOL, F32_ATOL_SCALE
        )


def numpy_mlp_column(problem: MLPProblem):
    """The hand-written numpy step as a timed column (with the product a numpy user would pick)."""
    dot = numpy_dot_for(problem.batch)
    return Column("step(problem, dot)", {"step": numpy_mlp_step, "problem": problem, "dot": dot})
