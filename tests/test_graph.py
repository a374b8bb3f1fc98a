"""The autodiff graph's lifecycle and memory: what backward consumes, what stays alive,
what dropping tensors frees, the Gradients API, failing ops, threads, a long training loop.

Memory facts are read through `burnpy.generated.introspect`. Tests that claim a graph is freed *at
once* run with the cycle collector disabled: reference counting alone must free it.
"""

import gc
import pickle
import sys
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import background

from burnpy.generated import Device, Tensor, introspect
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.node import ComputingProperty, Requirement, new_node, next_id
from burnpy.runtime.autodiff.steps import UNTRACKED_STEP, Backward
from burnpy.runtime.errors import BACKWARD_NEEDS_TRACKED, GraphConsumed

pytestmark = pytest.mark.usefixtures("own_heap")

CPU = Device.numpy()
AD = CPU.autodiff()
ROOT = Path(__file__).resolve().parent.parent
CK = AD.gradient_checkpointing()
both_strategies = pytest.mark.parametrize("device", [AD, CK], ids=["NoCheckpointing", "Balanced"])


def leaf(data, device):
    return Tensor.from_data(np.asarray(data, dtype=np.float64), device=device).require_grad()


def data(values, device):
    return Tensor.from_data(np.asarray(values, dtype=np.float64), device=device)


@pytest.fixture
def refcounting_only():
    """Disable the cycle collector: whatever must be freed has to go by reference counts."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def mark() -> int:
    """Node ids grow monotonically: nodes made after this call have larger ids."""
    return next_id()


def nodes_since(start: int) -> set[int]:
    return {n.id for n in introspect.live_nodes() if n.id > start}


def steps_since(start: int) -> list:
    return [n for n in introspect.live_steps() if n.id > start]


def ids(*tensors) -> set[int]:
    return {t.node_id().value for t in tensors}


# -- lifecycle ------------------------------------------------------------------------------


@both_strategies
def test_a_second_backward_through_a_consumed_graph_says_what_happened_and_what_to_do(device):
    w = leaf([[1.0, 2.0], [3.0, 4.0]], device)
    loss = (w * 3.0).tanh().sum()
    loss.backward()
    with pytest.raises(GraphConsumed) as error:
        loss.backward()
    message = str(error.value)
    assert isinstance(error.value, RuntimeError)
    assert f"NodeId {{ value: {loss.node_id().value} }}" in message
    assert "consumed by an earlier backward()" in message
    assert "run the forward pass again" in message  # how to get a second backward
    assert "sum" in message  # how to get the gradients of several outputs
    assert "detach()" in message  # how to keep computing from a consumed value


@both_strategies
def test_a_new_graph_over_a_consumed_intermediate_raises_before_consuming_anything(device):
    w = leaf([1.0, 2.0, 3.0], device)
    h = (w * 2.0).exp()
    h.sum().backward()
    fresh = (w * 4.0).sum()  # a graph of its own, not consumed
    with pytest.raises(GraphConsumed, match=f"value: {h.node_id().value} "):
        (fresh + (h * 2.0).sum()).backward()
    np.testing.assert_array_equal(w.grad(fresh.backward()).to_numpy(), [4.0, 4.0, 4.0])
    # What the message advises: cut the consumed value loose and go on from it.
    grads = ((h.detach() * 2.0).sum() + (w * 4.0).sum()).backward()
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), [4.0, 4.0, 4.0])


@both_strategies
def test_leaves_serve_any_number_of_backward_passes(device):
    w = leaf([[1.0, -2.0], [0.5, 3.0]], device)
    for scale in (1.0, 2.0, 3.0):
        grads = (w * scale).tanh().sum().backward()
        expected = scale * (1 - np.tanh(scale * w.to_numpy()) ** 2)
        np.testing.assert_allclose(w.grad(grads).to_numpy(), expected, rtol=1e-12)
    for _ in range(2):  # backward from the leaf itself: its gradient is the seed
        np.testing.assert_array_equal(w.grad(w.backward()).to_numpy(), np.ones((2, 2)))


def test_an_op_on_untracked_inputs_registers_an_empty_step():
    """The seed's `a*a`: untracked, yet registered; it lives and dies with its tensor."""
    a = data([1.0, 2.0], AD)
    aa = a * a
    assert not aa.is_tracked()
    assert aa.primitive.node.step is UNTRACKED_STEP
    assert aa.node_id().value in {n.id for n in introspect.live_steps()}
    with pytest.raises(RuntimeError) as error:
        aa.backward()
    assert str(error.value) == BACKWARD_NEEDS_TRACKED
    del error
    node_id = aa.node_id().value
    del aa
    assert node_id not in {n.id for n in introspect.live_nodes()}


# -- memory ---------------------------------------------------------------------------------


@both_strategies
def test_dropping_a_never_backwarded_graph_frees_it_at_once(device, refcounting_only):
    start, base = mark(), introspect.saved_bytes()
    w = leaf(np.linspace(-1, 1, 12).reshape(3, 4), device)
    x = data(np.ones((2, 3)), device)
    loss = ((x @ w).tanh() * w.sum_dim(0)).exp().mean()
    assert len(steps_since(start)) == 6
    assert introspect.saved_bytes() > base
    del loss
    assert nodes_since(start) == ids(w, x)
    assert steps_since(start) == []
    assert introspect.saved_bytes() == base


@both_strategies
def test_one_held_tensor_keeps_exactly_its_own_graph(device, refcounting_only):
    start = mark()
    w = leaf([1.0, 2.0, 3.0], device)
    h = (w * 2.0).exp()
    loss = (h * 3.0).sum()
    del loss  # the graph above h goes; h and what it was computed from stay
    assert len(steps_since(start)) == 2
    grads = h.sum().backward()  # ... and can still be backwarded
    np.testing.assert_allclose(w.grad(grads).to_numpy(), 2 * np.exp(2 * w.to_numpy()))
    assert steps_since(start) == []


@both_strategies
def test_after_backward_only_what_the_user_holds_stays_alive(device, refcounting_only):
    start, base = mark(), introspect.saved_bytes()
    w = leaf(np.linspace(-1, 1, 12).reshape(3, 4), device)
    x = data(np.arange(6.0).reshape(2, 3) / 6, device)
    h = (x @ w + 0.5).tanh()
    loss = (h * h.exp()).sum()
    grads = loss.backward()
    assert nodes_since(start) == ids(w, x, h, loss)  # nothing in between
    assert steps_since(start) == []
    assert introspect.saved_bytes() == base
    assert len(grads) == 1  # every GradInBackward gradient was freed once used


def test_backward_frees_each_intermediate_gradient_once_used():
    """A 40-deep chain: backward's peak holds a few gradients, not one per step."""
    w = leaf(np.ones(20_000), AD)
    y = w
    for _ in range(40):
        y = y * 1.01
    loss = y.sum()
    del y
    tracemalloc.start()
    grads = loss.backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    np.testing.assert_allclose(w.grad(grads).to_numpy(), np.full(20_000, 1.01**40))
    assert peak < 4 * w.to_numpy().nbytes


def test_a_non_scalar_root_is_seeded_without_a_buffer_of_ones():
    w = leaf(np.ones(100_000), AD)
    y = w * 2.0
    tracemalloc.start()
    grads = y.backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), np.full(100_000, 2.0))
    assert peak < 1.5 * w.to_numpy().nbytes  # the gradient itself, no seed of the same size


# -- gradients ------------------------------------------------------------------------------


@both_strategies
def test_gradients_accumulate_by_node_id(device):
    """w takes four contributions, one of them the very buffer add's VJP also gives v's path."""
    w = leaf([1.0, 2.0], device)
    v = leaf([3.0, 4.0], device)
    deep_v = v * 1.0 * 1.0
    loss = ((w + deep_v) * 1.0).sum() + (w * 3.0).sum() + (w * 5.0).sum() + (w * w).sum()
    grads = loss.backward()
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), 9.0 + 2 * w.to_numpy())
    np.testing.assert_array_equal(v.grad(grads).to_numpy(), [1.0, 1.0])


def test_accumulation_never_writes_into_a_registered_buffer():
    """A rule may give one buffer to two inputs: sums go to a buffer of the container's own."""
    shared = np.ones(2)
    a, b = (
        new_node(
            parents=(), order=0, id=next_id(), requirement=Requirement.Grad,
            properties=ComputingProperty.Ambiguous,
        )
        for _ in "ab"
    )  # fmt: skip
    grads = Gradients()
    grads.register(a.id, shared)
    grads.register(b.id, shared)
    grads.register(a.id, np.full(2, 2.0))
    grads.register(a.id, np.full(2, 3.0))  # into the sum allocated by the line above
    np.testing.assert_array_equal(grads.get(a), [6.0, 6.0])
    np.testing.assert_array_equal(grads.get(b), [1.0, 1.0])
    np.testing.assert_array_equal(shared, [1.0, 1.0])


def test_grad_remove_takes_the_gradient_out():
    w = leaf([1.0, 2.0], AD)
    grads = (w * 2.0).sum().backward()
    np.testing.assert_array_equal(w.grad_remove(grads).to_numpy(), [2.0, 2.0])
    assert w.grad(grads) is None
    assert w.grad_remove(grads) is None
    assert len(grads) == 0


def test_grad_replace_sets_the_gradient_with_or_without_one():
    w = leaf([1.0, 2.0], AD)
    other = leaf([0.0], AD)  # not part of the graph: it has no entry yet
    grads = (w * 2.0).sum().backward()
    w.grad_replace(grads, Tensor.from_data([7.0, 8.0], dtype="float64"))
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), [7.0, 8.0])
    assert other.grad(grads) is None
    other.grad_replace(grads, Tensor.from_data([5.0], dtype="float64"))
    np.testing.assert_array_equal(other.grad(grads).to_numpy(), [5.0])
    with pytest.raises(TypeError, match="plain float tensor"):
        w.grad_replace(grads, data([1.0, 1.0], AD))


def test_an_untracked_alias_of_a_leaf_gets_no_gradient():
    """burn 0.22.1: the alias shares the leaf's id but is untracked, so it reads None."""
    a = data([1.0, 2.0], AD)
    w = a.require_grad()
    assert a.node_id() == w.node_id()
    grads = (w * 3.0).sum().backward()
    assert a.grad(grads) is None
    assert a.grad_remove(grads) is None
    with pytest.raises(ValueError, match="untracked"):
        a.grad_replace(grads, Tensor.from_data([0.0, 0.0], dtype="float64"))
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), [3.0, 3.0])


@both_strategies
def test_gradients_are_plain_tensors_on_the_inner_device(device):
    w = leaf([[1.0, 2.0]], device)
    g = w.grad((w * w).sum().backward())
    assert not g.is_autodiff()
    assert g.device() == CPU and not g.device().is_autodiff()
    assert g.gradient_checkpointing_strategy() is None
    assert g.dtype == np.float64 and g.shape == (1, 2)
    np.testing.assert_array_equal(g.to_numpy(), [[2.0, 4.0]])


# -- failures and threads -------------------------------------------------------------------


@both_strategies
def test_a_failing_op_leaves_the_graph_as_it_was(device, refcounting_only):
    w = leaf(np.ones((2, 3)), device)
    h = w * 2.0
    start = mark()
    with pytest.raises(ValueError):
        h @ data(np.ones((4, 5)), device)
    with pytest.raises(ValueError):
        h + data(np.ones((3, 2)), device)
    assert nodes_since(start) == set()  # no dangling node
    grads = (h @ data(np.ones((3, 1)), device)).sum().backward()
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), np.full((2, 3), 2.0))


@both_strategies
def test_a_backward_that_fails_part_way_has_consumed_its_graph(device, monkeypatch):
    """Whatever step it failed at, a retry from any node of the graph says it was consumed
    (under Balanced the pass has taken the recipes even of the steps it did not reach)."""
    w = leaf([0.5, 1.0], device)
    h = (w * 2.0).exp()
    loss = (h * w).tanh().sum()
    run, calls = Backward.run, []

    def failing_run(self, *args):
        calls.append(self)
        if len(calls) == 2:
            raise MemoryError("simulated")
        return run(self, *args)

    monkeypatch.setattr(Backward, "run", failing_run)
    with pytest.raises(MemoryError):
        loss.backward()
    monkeypatch.undo()
    for root in (loss, h.sum()):
        with pytest.raises(GraphConsumed):
            root.backward()
    grads = ((w * 2.0).exp() * w).tanh().sum().backward()  # a fresh forward pass works
    assert w.grad(grads) is not None


@both_strategies
def test_one_graph_per_thread_several_threads_at_once(device):
    """Each thread trains on its own data; every gradient must match numpy's, at every step."""
    threads, steps = 4, 40
    barrier = threading.Barrier(threads)
    failures = []

    def train(seed):
        rng = np.random.default_rng(seed)
        x_np, w_np = rng.normal(size=(16, 8)), rng.normal(size=(8, 4))
        x = data(x_np, device)
        try:
            barrier.wait()
            for _ in range(steps):
                w = leaf(w_np, device)
                grads = ((x @ w).tanh() * float(seed)).sum().backward()
                t = np.tanh(x_np @ w_np)
                expected = x_np.T @ (seed * (1 - t * t))
                np.testing.assert_allclose(w.grad(grads).to_numpy(), expected, rtol=1e-12)
                w_np = w_np - 0.01 * expected
        except Exception as error:  # reported below, with the thread that saw it
            failures.append((seed, error))

    workers = [threading.Thread(target=train, args=(seed,)) for seed in range(1, threads + 1)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []


# -- a long training loop -------------------------------------------------------------------


def ten_thousand_steps() -> dict:
    """Linear regression by gradient descent, 10,000 steps after a warm-up: the nodes alive
    after it (and the ids of the data and the current parameter), tracemalloc's traced
    growth, the parameter."""
    rng = np.random.default_rng(0)
    x_np = rng.normal(size=(8, 3))
    y_np = x_np @ np.array([[1.0], [-2.0], [0.5]])
    start = mark()
    x, y = data(x_np, AD), data(y_np, AD)
    w = Tensor.zeros([3, 1], device=AD, dtype="float64").require_grad()

    def step(w):
        grads = ((x @ w - y) ** 2.0).mean().backward()
        updated = w.to_numpy() - 0.1 * w.grad(grads).to_numpy()
        return Tensor.from_data(updated, device=AD).require_grad()

    for _ in range(200):  # warm-up: caches, free lists
        w = step(w)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        w = step(w)
    growth = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    alive, kept = nodes_since(start), ids(x, y, w)
    return {"alive": alive, "kept": kept, "growth": growth, "w": w.to_numpy().ravel()}


# The loop runs in a fresh process started with the session (tests/background.py): its heap
# holds nothing of the suite's.
TEN_THOUSAND_STEPS = """
import pickle, sys
sys.path.insert(0, "tests")
import test_graph
with open(sys.argv[1], "wb") as f:
    pickle.dump(test_graph.ten_thousand_steps(), f)
"""
_STARTED = {}


def start_in_background(config, names):
    if "test_ten_thousand_training_steps_leave_no_graph_and_no_growth" in names:

        def command(folder):
            return [[sys.executable, "-c", TEN_THOUSAND_STEPS, str(folder / "result")]]

        _STARTED["steps"] = background.start(config, command, 300, cwd=ROOT)


def test_ten_thousand_training_steps_leave_no_graph_and_no_growth():
    """After 10,000 steps no node but the data and the current parameter is alive, and
    tracemalloc's traced memory grew by under 1 MB."""
    job = _STARTED["steps"]
    assert job.wait() == [0], job.output(0)
    found = pickle.loads((job.folder / "result").read_bytes())
    assert found["alive"] == found["kept"]
    assert found["growth"] < 2**20
    np.testing.assert_allclose(found["w"], [1.0, -2.0, 0.5], atol=1e-9)
