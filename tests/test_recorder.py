"""The compiled recorders (runtime/autodiff/recorder.py) and the routing's dtype check: what a
reader is promised (the source is visible), what a recorder keeps for each set of tracked
inputs, and that a bad catalogue entry or bad input fails clearly. Gradients themselves are
checked against finite differences for every op in test_ops.py."""

import inspect

import numpy as np
import pytest

from generated import Device, Tensor
from generated.backends import BACKENDS
from generated.dispatch import float_mul
from runtime.autodiff.backend import AutodiffOp
from runtime.autodiff.recorder import compile_recorder
from runtime.autodiff.rules import Rule
from runtime.autodiff.steps import SELF, Backward

AD = Device.numpy().autodiff()
CK = AD.gradient_checkpointing()


def tensor(values, device, grad=False, dtype=np.float64):
    t = Tensor.from_data(np.asarray(values, dtype=dtype), device=device)
    return t.require_grad() if grad else t


def node(t):
    return t.primitive.node


def test_a_recorder_shows_its_source():
    source = inspect.getsource(BACKENDS.NumPy.NoCheckpointing.float_mul)
    assert source.startswith("def float_mul(lhs, rhs):")
    assert "result = forward(lhs_value, rhs_value)" in source
    balanced = inspect.getsource(BACKENDS.NumPy.Balanced.float_mul)
    assert "memory_bound = lhs_tracked and rhs_tracked" in balanced


@pytest.mark.parametrize(
    "lhs_grad, rhs_grad, saved",
    [(True, True, ("rhs", "lhs")), (True, False, ("rhs",)), (False, True, ("lhs",))],
)
def test_mul_saves_only_what_the_tracked_inputs_need(lhs_grad, rhs_grad, saved):
    """burn: mul keeps lhs only when rhs needs a gradient, and rhs only when lhs does."""
    lhs = tensor([1.0, 2.0], AD, lhs_grad)
    rhs = tensor([3.0, 4.0], AD, rhs_grad)
    out = node(lhs * rhs)
    values = {"rhs": rhs.primitive.primitive, "lhs": lhs.primitive.primitive}
    kept = dict(zip(out.step.rule.saved, out.saved))
    assert {name for name, value in kept.items() if value is not None} == set(saved)
    for name in saved:
        assert kept[name] is values[name]
    assert out.parents == [n.id for n, g in ((node(lhs), lhs_grad), (node(rhs), rhs_grad)) if g]


def test_balanced_keeps_a_memory_bound_input_as_its_node_and_the_output_as_self():
    w = tensor([0.5, 1.5], CK, grad=True)
    e = w.exp()  # memory-bound, every input tracked: recomputed, its recipe kept
    assert node(e).recipe == (w.primitive.primitive,)
    assert node(e).saved == (SELF,)
    y = e * w  # needs e: keeps its Node, to recompute it in backward
    kept = dict(zip(node(y).step.rule.saved, node(y).saved))
    assert kept["lhs"] is node(e)
    grads = y.sum().backward()
    x = np.array([0.5, 1.5])
    np.testing.assert_allclose(w.grad(grads).to_numpy(), np.exp(x) * x + np.exp(x))


def test_a_catalogue_argument_named_like_a_recorder_local_is_refused():
    op = AutodiffOp("float_exp", ("tensor", "saved"), (0,), "record")
    rule = Rule("float_exp", ("tensor", "saved"), ("tensor",))
    inner = BACKENDS.NumPy.inner
    backward = Backward(rule, inner, inner.float_exp, (0,))
    with pytest.raises(ValueError, match=r"float_exp: argument names \['saved'\] clash"):
        compile_recorder(op, rule, backward, inner, recomputes=False)


@pytest.mark.parametrize("device", [Device.numpy(), AD], ids=["plain", "autodiff"])
def test_the_routing_refuses_two_dtypes_and_accepts_equal_ones(device):
    f32 = tensor([1.0, 2.0], device, dtype=np.float32)
    f64 = tensor([1.0, 2.0], device, dtype=np.float64)
    with pytest.raises(TypeError, match=r"float_mul: dtypes differ \(float32 and float64\)"):
        float_mul(f32, f64)
    # an equal dtype that is another object (numpy dtypes with metadata) passes
    other = np.ones(2, dtype=np.dtype("float32", metadata={"unit": "m"}))
    same = Tensor.from_data(other, device=device)
    assert same.to_numpy().dtype is not f32.to_numpy().dtype  # (the slow path is taken)
    np.testing.assert_array_equal((f32 * same).to_numpy(), [1.0, 2.0])


def test_a_three_input_op_records_its_tracked_parents(monkeypatch):
    """No catalogue op has three float inputs yet; the recorder's general form is ready."""
    from runtime.autodiff import rules

    monkeypatch.setitem(rules.RULES, "fake_add3", (lambda g: g, lambda g, c: g * c, lambda g: g))
    op = AutodiffOp("fake_add3", ("a", "b", "c"), (0, 1, 2), "record")
    rule = Rule("fake_add3", op.args, op.args)
    inner = BACKENDS.NumPy.inner
    backward = Backward(rule, inner, lambda a, b, c: a + b + c, (0, 1, 2))
    record = compile_recorder(op, rule, backward, inner, recomputes=False)
    a, b, c = (tensor([1.0, 2.0], AD, grad) for grad in (True, False, True))
    out = record(a.primitive, b.primitive, c.primitive)
    np.testing.assert_array_equal(out.primitive, [3.0, 6.0])
    assert out.node.parents == [node(a).id, node(c).id]
    assert out.node.inputs == [node(a), None, node(c)]
    assert out.node.saved == (None,)  # only b's VJP needs c, and b is untracked
