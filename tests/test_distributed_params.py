"""Distributed parameters in one process: the Tensor marks, and the backward hook that the
distributed library reduces gradients with (when it runs, what it is given, what it changes)."""

import numpy as np
import pytest

from burnpy import nn, optim
from burnpy.generated import Device, Tensor
from burnpy.runtime.autodiff import hooks
from burnpy.runtime.autodiff.steps import CONSUMED

AD = Device.numpy().autodiff()
DEVICES = {"NoCheckpointing": AD, "Balanced": AD.gradient_checkpointing()}


def leaf(values, device=AD):
    return Tensor.from_data(np.asarray(values, dtype=np.float64), device=device).require_grad()


# -- the marks -------------------------------------------------------------------------------


def test_set_distributed_params_gives_a_marked_handle_on_the_same_leaf():
    w = leaf([1.0, 2.0])
    marked = w.set_distributed_params(42)
    assert marked.distributed_params() == 42 and marked.is_distributed()
    assert w.distributed_params() is None and not w.is_distributed()  # the receiver is unchanged
    assert marked.node_id() == w.node_id() and marked.is_require_grad()
    assert marked.require_grad().distributed_params() == 42
    assert marked.detach().distributed_params() is None  # a new leaf, as in burn
    assert w.set_distributed(3).distributed_params() == 3  # burn-tensor's name


def test_marks_on_what_is_not_a_parameter_are_refused():
    with pytest.raises(RuntimeError, match=r"^Requires autodiff tensor\.$"):
        Tensor.ones([2], device=Device.numpy()).set_distributed_params(1)
    with pytest.raises(TypeError, match="Float tensor; this one is Int"):
        Tensor.from_data([1, 2], device=AD).set_distributed_params(1)
    with pytest.raises(TypeError, match="Float tensor; this one is Bool"):
        Tensor.from_data([True], device=AD).set_distributed_params(1)
    with pytest.raises(TypeError, match="param_id must be an int, got bool"):
        leaf([1.0]).set_distributed_params(True)
    with pytest.raises(RuntimeError, match="require_grad"):
        Tensor.ones([2], device=AD).set_distributed_params(1)  # an untracked leaf
    with pytest.raises(RuntimeError, match="require_grad"):
        (leaf([1.0]) * 2.0).set_distributed_params(1)  # an intermediate
    assert Tensor.ones([2], device=Device.numpy()).distributed_params() is None


def test_an_optimiser_step_keeps_the_marks():
    model = nn.Linear(3, 2, device=AD)
    model.map_parameters(lambda name, pid, t: t.set_distributed_params(pid))
    x = Tensor.from_data(np.ones((4, 3), dtype=np.float32), device=AD)
    before = [p.to_numpy() for p in model.parameters()]
    optim.SGD(0.1).step(model, model(x).sum().backward())
    assert [p.distributed_params() for p in model.parameters()] == model.param_ids()
    assert all(p.is_require_grad() for p in model.parameters())
    assert not any(np.array_equal(a, p.to_numpy()) for a, p in zip(before, model.parameters()))


# -- the hook --------------------------------------------------------------------------------


class Recorder:
    """A hook that wants the marked leaves and records what it is told."""

    def __init__(self, replace=None, fail=False):
        self.events = []
        self.replace = replace
        self.fail = fail
        self.watch = None  # a callable run at each completion, its result recorded

    def wants(self, node):
        return node.distributed_params is not None

    def begin(self, backend):
        self.events.append(("begin",))
        return self

    def complete(self, node, grad):
        if self.fail:
            raise ValueError("refused")
        seen = self.watch() if self.watch else None
        self.events.append(("complete", node.distributed_params, np.array(grad), seen))
        return grad if self.replace is None else np.full_like(grad, self.replace)

    def finish(self):
        self.events.append(("finish",))


@pytest.fixture
def recorder():
    made = []

    def register(**kwargs):
        hook = Recorder(**kwargs)
        hooks.register(hook)
        made.append(hook)
        return hook

    yield register
    for hook in made:
        hooks.unregister(hook)


X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
W1 = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]])
W2 = np.array([[1.0, -1.0, 0.5], [0.25, 2.0, -0.75]])


def reference():
    """numpy's gradients of sum(tanh(X W1) W2) + sum(W1 * W1)."""
    h = np.tanh(X @ W1)
    g_h = np.ones((2, 3)) @ W2.T
    return {1: X.T @ (g_h * (1 - h**2)) + 2 * W1, 2: h.T @ np.ones((2, 3))}


@pytest.mark.parametrize("strategy", DEVICES)
def test_each_marked_gradient_is_handed_over_once_complete_before_backward_ends(recorder, strategy):
    device = DEVICES[strategy]
    hook = recorder()
    w1 = leaf(W1, device).set_distributed_params(1)
    w2 = leaf(W2, device).set_distributed_params(2)
    x = Tensor.from_data(X, device=device)
    h = x.matmul(w1).tanh()
    loss = h.matmul(w2).sum() + (w1 * w1).sum()  # w1 has two consumers
    hook.watch = lambda: h.primitive.node.step is CONSUMED
    grads = loss.backward()
    kinds = [event[0] for event in hook.events]
    assert kinds == ["begin", "complete", "complete", "finish"]
    (_, first, g_first, h_done), (_, second, g_second, h_done_2) = hook.events[1:3]
    # w2's gradient is complete before tanh's step has run, w1's only after both consumers.
    assert (first, h_done) == (2, False) and (second, h_done_2) == (1, True)
    expected = reference()
    np.testing.assert_allclose(g_first, expected[2], rtol=1e-12)
    np.testing.assert_allclose(g_second, expected[1], rtol=1e-12)
    np.testing.assert_allclose(w1.grad(grads).to_numpy(), expected[1], rtol=1e-12)


def test_what_the_hook_returns_becomes_the_gradient_and_the_rest_is_untouched(recorder):
    recorder(replace=7.0)
    w1 = leaf(W1).set_distributed_params(1)
    w2 = leaf(W2)  # not marked
    loss = Tensor.from_data(X, device=AD).matmul(w1).tanh().matmul(w2).sum() + (w1 * w1).sum()
    grads = loss.backward()
    np.testing.assert_array_equal(w1.grad(grads).to_numpy(), np.full((3, 2), 7.0))
    np.testing.assert_allclose(w2.grad(grads).to_numpy(), reference()[2], rtol=1e-12)


def test_a_pass_without_marked_leaves_does_not_begin_the_hook(recorder):
    hook = recorder()
    (leaf([1.0, 2.0]) * 3.0).sum().backward()
    assert hook.events == []


def test_a_marked_root_is_complete_at_once(recorder):
    hook = recorder()
    grads = leaf([1.0, 2.0]).set_distributed_params(5).backward()
    assert [e[0] for e in hook.events] == ["begin", "complete", "finish"]
    np.testing.assert_array_equal(hook.events[1][2], [1.0, 1.0])
    assert len(grads) == 1


def test_a_failing_hook_still_finishes_and_its_error_is_raised(recorder):
    hook = recorder(fail=True)
    w = leaf([1.0, 2.0]).set_distributed_params(1)
    with pytest.raises(ValueError, match="refused"):
        (w * w).sum().backward()
    assert hook.events == [("begin",), ("finish",)]
