"""The optimisers update the parameter's and the state's buffers in place when nothing else holds
them, and never write into a buffer someone kept: the values are the same bits either way."""

import numpy as np
import pytest

from burnpy import capture, nn, optim
from burnpy.generated import Device, Tensor

RULES = {
    "sgd": lambda: optim.SGD(0.1, momentum=0.9, dampening=0.1, weight_decay=0.01, nesterov=True),
    "adam": lambda: optim.Adam(0.01, weight_decay=0.1, amsgrad=True),
    "adamw": lambda: optim.AdamW(0.01, weight_decay=0.1),
    "rmsprop": lambda: optim.RMSProp(0.01, weight_decay=0.1, momentum=0.9, centered=True),
}
BACKENDS = ("numpy", "torch")


def _device(backend):
    if backend == "torch":
        pytest.importorskip("torch")
    return Device.of(backend).autodiff()


def _address(tensor) -> int:
    """Where the tensor's data lives (without keeping a reference to its array)."""
    primitive = tensor.inner_primitive()
    if isinstance(primitive, np.ndarray):
        return primitive.__array_interface__["data"][0]
    return primitive.data_ptr()


def _model(device):
    Device.numpy().seed(3)
    return nn.Linear(4, 3, device=Device.numpy()).to_device(device)


def _step(model, opt, x):
    opt.step(model, (model(x) * model(x)).sum().backward())


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rule", RULES)
def test_an_update_nobody_else_holds_happens_in_place_with_the_same_values(rule, backend):
    device = _device(backend)
    x = Tensor.from_data(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4), device=device)
    model, reference, opt, opt_reference = _model(device), _model(device), RULES[rule](), None
    opt_reference = RULES[rule]()
    for step in range(3):
        address = _address(model.weight)
        _step(model, opt, x)
        assert _address(model.weight) == address, f"step {step + 1} moved the weight"
        held = reference.weight  # a tensor kept by the user: the reference updates out of place
        _step(reference, opt_reference, x)
        assert _address(reference.weight) != _address(held)
        del held
        for ours, theirs in zip(model.parameters(), reference.parameters()):
            np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())
    state = next(iter(opt.state.values()))
    kept = [name for name, value in state.items() if isinstance(value, Tensor)]
    assert kept  # the moments (and buffers) were updated where they were
    before = {name: _address(state[name]) for name in kept}
    del state
    _step(model, opt, x)
    state = next(iter(opt.state.values()))
    moved = [n for n in kept if _address(state[n]) != before[n]]
    # AMSGrad's running maximum and RMSProp's momentum buffer are each step's own arrays
    assert set(moved) <= {"max_moment_2", "buf"}, moved


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kept", ["parameter", "its inner tensor", "a state tensor", "a view"])
def test_a_held_buffer_is_never_written_into(kept, backend):
    device = _device(backend)
    x = Tensor.from_data(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4), device=device)
    model, reference = _model(device), _model(device)
    opt, opt_reference = RULES["adamw"](), RULES["adamw"]()
    _step(model, opt, x)
    _step(reference, opt_reference, x)
    held = {
        "parameter": lambda: model.weight,
        "its inner tensor": lambda: model.weight.inner(),
        "a state tensor": lambda: next(iter(opt.state.values()))["moment_1"],
        "a view": lambda: model.weight.inner().reshape([-1]),
    }[kept]()
    values = held.to_numpy()
    _step(model, opt, x)
    _step(reference, opt_reference, x)
    np.testing.assert_array_equal(held.to_numpy(), values)  # untouched
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())


# -- the same in a captured step's replay ---------------------------------------------------------


def _loss_step(model, opt, x):
    loss = (model(x) * model(x)).sum()
    opt.step(model, loss.backward())
    return loss


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("rule", RULES)
def test_a_captured_update_nobody_else_holds_happens_in_place_with_the_eager_bits(rule, backend):
    device = _device(backend)
    x = Tensor.from_data(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4), device=device)
    model, eager, opt, opt_eager = _model(device), _model(device), RULES[rule](), RULES[rule]()
    step = capture(_loss_step)
    for index in range(4):  # recorded without state, recorded with it, then replayed
        address = _address(model.weight)
        state = next(iter(opt.state.values()), {})
        before = {n: _address(v) for n, v in state.items() if isinstance(v, Tensor)}
        del state
        loss = step(model, opt, x)
        expected = _loss_step(eager, opt_eager, x)
        np.testing.assert_array_equal(loss.to_numpy(), expected.to_numpy())
        for ours, theirs in zip(model.parameters(), eager.parameters()):
            np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())
        if index >= 2:  # a replay
            assert _address(model.weight) == address, f"step {index + 1} moved the weight"
            state = next(iter(opt.state.values()))
            moved = [n for n in before if _address(state[n]) != before[n]]
            del state
            # AMSGrad's running maximum and RMSProp's momentum buffer are each step's own arrays
            assert set(moved) <= {"max_moment_2", "buf"}, moved
    assert "in_place=owned[0] and owned[1]" in step.source()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kept", ["parameter", "a state tensor"])
def test_a_captured_update_never_writes_into_a_held_buffer(kept, backend):
    device = _device(backend)
    x = Tensor.from_data(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4), device=device)
    model, eager = _model(device), _model(device)
    opt, opt_eager = RULES["adamw"](), RULES["adamw"]()
    step = capture(_loss_step)
    for _ in range(3):  # both recordings, and a replay
        step(model, opt, x)
        _loss_step(eager, opt_eager, x)
    held = {
        "parameter": lambda: model.weight,
        "a state tensor": lambda: next(iter(opt.state.values()))["moment_1"],
    }[kept]()
    values = held.to_numpy()
    step(model, opt, x)
    _loss_step(eager, opt_eager, x)
    np.testing.assert_array_equal(held.to_numpy(), values)  # untouched
    for ours, theirs in zip(model.parameters(), eager.parameters()):
        np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_compiled_step_updates_in_place_what_it_does_not_fuse(backend):
    """RMSProp has no fused kernel: its update call stays the backend's in the compiled
    function, with the same in_place decision at each replay."""
    device = _device(backend)
    x = Tensor.from_data(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4), device=device)
    model, eager, opt, opt_eager = _model(device), _model(device), RULES["rmsprop"](), None
    opt_eager = RULES["rmsprop"]()
    step = capture(_loss_step, compile=True)
    for index in range(3):
        address = _address(model.weight)
        step(model, opt, x)
        _loss_step(eager, opt_eager, x)
        for ours, theirs in zip(model.parameters(), eager.parameters()):
            np.testing.assert_allclose(ours.to_numpy(), theirs.to_numpy(), rtol=1e-6, atol=1e-7)
    assert _address(model.weight) == address
    assert "rmsprop_step(" in step.source() and "in_place=owned[" in step.source()
