"""Property-based tests (hypothesis, few examples): random graphs and random broadcast shapes.

- A random graph of memory-bound and compute-bound ops, some inputs tracked and some not,
  gives the same gradients under NoCheckpointing and BalancedCheckpointing (the Checkpointer
  recomputes exactly what was not kept) and leaves the Checkpointer nothing behind.
- Broadcasting is undone once, centrally: any pair of broadcastable shapes gets the gradient of
  numpy's broadcast sum for both operands.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burnpy.generated import Device, Tensor, introspect

pytestmark = pytest.mark.usefixtures("own_heap")

AD = Device.numpy().autodiff()
CK = AD.gradient_checkpointing()

UNARY = {  # name -> (method, keeps the graph memory-bound under Balanced?)
    "tanh": lambda t: t.tanh(),
    "exp_small": lambda t: (t * 0.1).exp(),
    "scale": lambda t: t * 1.5,
    "sigmoid": lambda t: t.sigmoid(),
    "sum_dim": lambda t: t.sum_dim(1),  # compute-bound, keeps the dim
    "square": lambda t: t * t,  # the same node twice as both parents
}
BINARY = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "matmul": lambda a, b: a @ b.transpose(),  # compute-bound
    "sub": lambda a, b: a - b,
}

steps = st.lists(
    st.one_of(
        st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), st.integers(0, 7)),
        st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), st.integers(0, 7)),
    ),
    min_size=1,
    max_size=8,
)


def run_graph(program, device, leaves_data, tracked_mask):
    leaves = []
    for data, tracked in zip(leaves_data, tracked_mask):
        t = Tensor.from_data(data, device=device)
        leaves.append(t.require_grad() if tracked else t)
    values = list(leaves)
    for kind, name, pick in program:
        a = values[pick % len(values)]
        if kind == "unary":
            out = UNARY[name](a)
            if out.shape != a.shape:  # sum_dim: broadcast back to keep shapes uniform
                out = out + a * 0.0
        else:
            b = values[(pick * 3 + 1) % len(values)]
            out = BINARY[name](a, b)
            if out.shape != a.shape:  # matmul of [3, 3] by [3, 3]^T keeps [3, 3]
                out = out.reshape(a.shape)
        values.append(out)
    loss = sum((v * (i + 1.0)).sum() for i, v in enumerate(values[len(leaves) :]))
    grads = loss.backward()
    return [leaf.grad(grads) for leaf in leaves]


@settings(max_examples=30, deadline=None)
@given(
    program=steps,
    seed=st.integers(0, 2**16),
    tracked_mask=st.lists(st.booleans(), min_size=3, max_size=3).filter(any),
)
def test_random_graphs_give_the_same_gradients_under_both_strategies(program, seed, tracked_mask):
    rng = np.random.default_rng(seed)
    leaves_data = [rng.uniform(-1, 1, size=(3, 3)) for _ in range(3)]
    try:
        plain = run_graph(program, AD, leaves_data, tracked_mask)
    except RuntimeError:  # nothing tracked reached the loss: both strategies must agree on it
        plain = None
    try:
        balanced = run_graph(program, CK, leaves_data, tracked_mask)
    except RuntimeError:
        balanced = None
    assert (plain is None) == (balanced is None)
    for a, b in zip(plain or [], balanced or []):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a.to_numpy(), b.to_numpy(), rtol=1e-12, atol=1e-12)
    assert introspect.saved_bytes() == 0  # nothing of either graph is left


def broadcastable_pair():
    """Two shapes that broadcast: each dim of one is the other's or 1, ranks may differ."""
    return st.lists(st.integers(1, 3), min_size=0, max_size=3).flatmap(
        lambda full: st.tuples(
            st.just(tuple(full)),
            st.tuples(*[st.sampled_from([n, 1]) for n in full]).flatmap(
                lambda dims: st.integers(0, len(dims)).map(lambda cut: tuple(dims[cut:]))
            ),
        )
    )


@settings(max_examples=40, deadline=None)
@given(shapes=broadcastable_pair(), swap=st.booleans(), op=st.sampled_from(["add", "mul", "sub"]))
def test_broadcast_gradients_sum_back_to_each_operand(shapes, swap, op):
    lhs_shape, rhs_shape = shapes[::-1] if swap else shapes
    rng = np.random.default_rng(0)
    x, y = rng.uniform(0.5, 1.5, size=lhs_shape), rng.uniform(0.5, 1.5, size=rhs_shape)
    a = Tensor.from_data(x, device=AD).require_grad()
    b = Tensor.from_data(y, device=AD).require_grad()
    grads = BINARY[op](a, b).sum().backward()
    out_shape = np.broadcast_shapes(x.shape, y.shape)
    ones = np.ones(out_shape)
    d_lhs = {"add": ones, "sub": ones, "mul": ones * y}[op]
    d_rhs = {"add": ones, "sub": -ones, "mul": ones * x}[op]

    def reduce_to(grad, shape):  # numpy's broadcast, undone
        grad = (
            grad.sum(axis=tuple(range(grad.ndim - len(shape)))) if grad.ndim > len(shape) else grad
        )
        axes = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
        return grad.sum(axis=axes, keepdims=True)

    np.testing.assert_allclose(a.grad(grads).to_numpy(), reduce_to(d_lhs, x.shape), rtol=1e-12)
    np.testing.assert_allclose(b.grad(grads).to_numpy(), reduce_to(d_rhs, y.shape), rtol=1e-12)
