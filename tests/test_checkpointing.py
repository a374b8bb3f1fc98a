"""Gradient checkpointing (docs/semantics.md#gradient-checkpointing): what each strategy stores,
that Balanced really recomputes and releases what it recomputed, and that it changes no
gradient.

Per op, identical gradients under both strategies are checked by the spec-driven suite
(tests/test_ops.py::test_both_strategies_give_the_same_gradients, every differentiable entry
of ops.yaml); here, whole graphs whose values are recomputed through several levels.
"""

import tracemalloc

import numpy as np
import pytest

from burnpy.generated import Device, GradientCheckpointingStrategy, Tensor, introspect
from burnpy.generated.catalogue import AUTODIFF_OPS
from burnpy.runtime.autodiff import graph
from burnpy.runtime.autodiff.checkpoint import Checkpointer
from burnpy.runtime.autodiff.node import ComputingProperty
from burnpy.runtime.autodiff.ops import AutodiffRole
from burnpy.runtime.autodiff.steps import Backward

pytestmark = pytest.mark.usefixtures("own_heap")

CPU = Device.numpy()
AD = CPU.autodiff()
CK = AD.gradient_checkpointing()
STRATEGIES = {"NoCheckpointing": AD, "Balanced": CK}  # by name: devices compare equal
MEMORY_BOUND = {op.name: op.memory_bound for op in AUTODIFF_OPS if op.role is AutodiffRole.RECORD}


def leaf(values, device):
    return Tensor.from_data(np.asarray(values, dtype=np.float64), device=device).require_grad()


def data(values, device):
    return Tensor.from_data(np.asarray(values, dtype=np.float64), device=device)


def prop(tensor) -> ComputingProperty:
    return tensor.primitive.node.properties


@pytest.fixture
def recomputations(monkeypatch):
    """Counts the retro-forwards run, and keeps every Checkpointer made, to inspect after."""
    seen = {"runs": 0, "checkpointers": []}
    recompute = Backward.recompute

    def counting_recompute(self, recipe, retrieve):
        seen["runs"] += 1
        return recompute(self, recipe, retrieve)

    class Recorded(Checkpointer):
        __slots__ = ()

        def __init__(self, tape):
            super().__init__(tape)
            seen["checkpointers"].append(self)

    monkeypatch.setattr(Backward, "recompute", counting_recompute)
    monkeypatch.setattr(graph, "Checkpointer", Recorded)
    return seen


def test_the_seed_flag_table_holds_under_balanced():
    a = data([[1.0, 2.0], [3.0, 4.0]], CK)
    w = leaf([[1.0, 2.0], [3.0, 4.0]], CK)
    c = Tensor.ones([2, 2], device=CPU, dtype="float64")
    balanced = GradientCheckpointingStrategy.Balanced
    table = {
        "a": (a, True, False, False, balanced),
        "w": (w, True, True, True, balanced),
        "c(flex)": (c, False, False, False, None),
        "a*a": (a * a, True, False, False, balanced),
        "a*w": (a * w, True, True, False, balanced),
        "c*w": (c * w, True, True, False, balanced),
    }
    for name, (t, autodiff, tracked, require_grad, strategy) in table.items():
        flags = (t.is_autodiff(), t.is_tracked(), t.is_require_grad())
        assert flags == (autodiff, tracked, require_grad), name
        assert t.gradient_checkpointing_strategy() is strategy, name
    grads = (a * w + c * w).sum().backward()  # the seed: w's gradient is a + c
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), a.to_numpy() + 1.0)


@pytest.mark.parametrize("device", STRATEGIES.values(), ids=STRATEGIES.keys())
def test_ops_yaml_decides_what_is_memory_bound(device):
    """Under Balanced an op's output is MemoryBound exactly when its ops.yaml entry says
    `autodiff: memory_bound`; under NoCheckpointing nothing is."""
    w = leaf([[0.5, 1.0], [1.5, 2.0]], device)
    outputs = {
        "float_exp": w.exp(),
        "float_tanh": w.tanh(),
        "float_mul": w * w,
        "float_mul_scalar": w * 2.0,
        "float_matmul": w @ w,
        "float_sum": w.sum(),
    }
    assert {MEMORY_BOUND[name] for name in outputs} == {True, False}  # both kinds are here
    for name, out in outputs.items():
        balanced = (
            device.gradient_checkpointing_strategy() is GradientCheckpointingStrategy.Balanced
        )
        memory_bound = balanced and MEMORY_BOUND[name]
        expected = ComputingProperty.MemoryBound if memory_bound else ComputingProperty.ComputeBound
        assert prop(out) is expected, name


def test_an_untracked_parent_makes_a_memory_bound_op_compute_bound():
    w = leaf([1.0, 2.0], CK)
    c = data([3.0, 4.0], CK)
    assert prop(w * w) is ComputingProperty.MemoryBound
    constant_times_w = c * w
    assert prop(constant_times_w) is ComputingProperty.ComputeBound
    assert constant_times_w.primitive.node.recipe is None  # no recipe to keep


@pytest.mark.parametrize("device", STRATEGIES.values(), ids=STRATEGIES.keys())
def test_a_compute_bound_output_is_kept_only_when_a_consumer_needs_it(device):
    x = data(np.ones((4, 8)), device)
    w = leaf(np.full((8, 16), 0.1), device)
    base = introspect.saved_bytes()
    m = x @ w  # compute-bound; w's gradient needs x, x needs none (untracked): only x is saved
    total = m.sum()  # sum's rule needs only m's shape
    assert introspect.saved_bytes() - base == x.to_numpy().nbytes
    e = m.exp()  # NoCheckpointing: exp keeps its output; Balanced: its recipe keeps m
    assert introspect.saved_bytes() - base == x.to_numpy().nbytes + m.to_numpy().nbytes
    del total, e


def test_balanced_stores_a_recipe_and_recomputes_in_backward(recomputations):
    """x -> a = 2x -> b = exp(a) -> c = tanh(b): NoCheckpointing keeps b and c (the outputs
    exp and tanh differentiate with); Balanced keeps only x, the first recipe's input, and
    recomputes a, b and c, once each."""
    x_np = np.linspace(-1.0, 0.5, 1000)
    saved, runs = {}, {}
    for name, device in STRATEGIES.items():
        x = leaf(x_np, device)
        base = introspect.saved_bytes()
        loss = (x * 2.0).exp().tanh().sum()
        saved[name] = introspect.saved_bytes() - base
        before = recomputations["runs"]
        grads = loss.backward()
        runs[name] = recomputations["runs"] - before
        b = np.exp(2 * x_np)
        expected = (1 - np.tanh(b) ** 2) * b * 2
        np.testing.assert_allclose(x.grad(grads).to_numpy(), expected, rtol=1e-12)
    assert saved == {"NoCheckpointing": 2 * x_np.nbytes, "Balanced": x_np.nbytes}
    assert runs == {"NoCheckpointing": 0, "Balanced": 3}


def test_recomputed_values_are_released_once_their_last_reader_is_done(recomputations):
    """Fan-out and a repeated input (y * y): every recomputed value is read exactly as often
    as counted, so the checkpointer ends the pass empty, holding nothing."""
    x_np = np.array([0.1, -0.4, 0.7])
    x = leaf(x_np, CK)
    y = (x * 1.5).exp()
    loss = (y * y + y.tanh() + (y * 2.0).sigmoid()).sum()
    del y
    grads = loss.backward()
    (checkpointer,) = recomputations["checkpointers"]
    assert checkpointer.cache == {} and checkpointer.needed == {} and checkpointer.recipes == {}
    assert recomputations["runs"] == 5  # once each: x * 1.5, y, tanh(y), y * 2, sigmoid(y * 2)
    y = np.exp(1.5 * x_np)
    s = 1 / (1 + np.exp(-2 * y))
    dy = 2 * y + (1 - np.tanh(y) ** 2) + 2 * s * (1 - s)
    np.testing.assert_allclose(x.grad(grads).to_numpy(), dy * y * 1.5, rtol=1e-12)


def test_balanced_lowers_the_peak_of_an_activation_heavy_model():
    """benches/memory.py's model in small: 16 layers of matmul -> +bias -> tanh -> scale.
    NoCheckpointing keeps two activations per layer, Balanced one (the matmul's output)."""
    rng = np.random.default_rng(0)
    x_np = rng.normal(size=(256, 64))
    ws = [rng.normal(size=(64, 64)) / 8 for _ in range(16)]
    peaks, grads = {}, {}
    for name, device in STRATEGIES.items():
        x = data(x_np, device)
        params = [(leaf(w, device), leaf(np.zeros(64), device)) for w in ws]
        tracemalloc.start()
        y = x
        for w, b in params:
            y = (y @ w + b).tanh() * 0.9
        loss = y.sum()
        del y
        result = loss.backward()
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        grads[name] = [w.grad(result).to_numpy() for w, _ in params]
    assert peaks["Balanced"] < 0.6 * peaks["NoCheckpointing"]  # the target for the bench
    for plain, balanced in zip(grads["NoCheckpointing"], grads["Balanced"]):
        np.testing.assert_allclose(balanced, plain, rtol=1e-12)


def test_both_strategies_agree_on_a_graph_with_fan_out_broadcasting_and_repeats():
    rng = np.random.default_rng(1)
    values = rng.uniform(0.5, 1.5, size=(3, 4)), rng.uniform(0.5, 1.5, size=(4,))
    results = []
    for device in STRATEGIES.values():
        w, b = leaf(values[0], device), leaf(values[1], device)
        h = (w * b + 1.0).log()
        g = h.exp() * h - (h / b).sqrt() + (w @ w.transpose()).sum_dim(1) * h.sigmoid()
        grads = (g * g).mean().backward()
        results.append([w.grad(grads).to_numpy(), b.grad(grads).to_numpy()])
    for plain, balanced in zip(*results):
        np.testing.assert_allclose(balanced, plain, rtol=1e-12)
