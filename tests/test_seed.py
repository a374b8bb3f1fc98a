"""Every fact the seed (autodiff-decorator.en.md) prints, reproduced through the public API."""

import numpy as np
import pytest

from generated import Device, GradientCheckpointingStrategy, Requirement, Tensor
from runtime.device import AutodiffDevice

FLEX = Device.numpy()
AD = FLEX.autodiff()
AD_CKPT = AD.gradient_checkpointing()

MISMATCH = (
    "assertion `left == right` failed: Gradient checkpointing strategy mismatch: Balanced vs "
    "Disabled. Tensors in the same operation must share a strategy.\n  left: Balanced\n right: Disabled"
)


def test_device_reprs_names_and_equality():
    assert repr(FLEX) == "Device<NumPy(Cpu)>"
    assert repr(AD) == "Device<Autodiff { device: NumPy(Cpu), checkpointing: Disabled }>"
    assert repr(AD_CKPT) == "Device<Autodiff { device: NumPy(Cpu), checkpointing: Balanced }>"
    assert str(AD) == repr(AD)
    assert FLEX.backend_name() == "dispatch<numpy>"
    assert AD.backend_name() == AD_CKPT.backend_name() == "dispatch<autodiff<numpy>>"
    assert FLEX == AD and AD == AD_CKPT  # equality compares the inner device only
    assert hash(FLEX) == hash(AD) == hash(AD_CKPT)
    assert AD.autodiff() is AD and AD_CKPT.autodiff().gradient_checkpointing_strategy() is (
        GradientCheckpointingStrategy.Balanced
    )


def _flags(t):
    strategy = t.gradient_checkpointing_strategy()
    return (t.is_autodiff(), t.is_tracked(), t.is_require_grad(), strategy)


@pytest.mark.parametrize("device", [AD, AD_CKPT], ids=["NoCheckpointing", "Balanced"])
def test_the_six_tensor_flag_table(device):
    s = device.gradient_checkpointing_strategy()
    a = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device)
    w = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device).require_grad()
    c = Tensor.from_data([[1.0, 1.0], [1.0, 1.0]], device=FLEX)
    assert _flags(a) == (True, False, False, s)
    assert _flags(w) == (True, True, True, s)
    assert _flags(c) == (False, False, False, None)
    assert _flags(a * a) == (True, False, False, s)
    assert _flags(a * w) == (True, True, False, s)
    assert _flags(c * w) == (True, True, False, s)


def test_an_op_on_untracked_inputs_still_registers_its_empty_step():
    a = Tensor.from_data([1.0, 2.0], device=AD)
    node = (a * a).primitive.node
    assert node.requirement is Requirement.None_
    assert repr(node.step) == "UntrackedOpsStep"


def test_c_times_w_lands_on_the_autodiff_device_and_c_is_a_constant():
    c = Tensor.from_data([2.0, 3.0, 4.0, 5.0], device=FLEX)
    w = Tensor.from_data([1.0, 1.0, 1.0, 1.0], device=AD).require_grad()
    product = c * w
    assert repr(product.device()) == (
        "Device<Autodiff { device: NumPy(Cpu), checkpointing: Disabled }>"
    )
    grads = product.sum().backward()
    assert w.grad(grads).to_numpy().tolist() == [2.0, 3.0, 4.0, 5.0]
    assert c.grad(grads) is None and not c.is_autodiff()  # c itself is not changed


@pytest.mark.parametrize("device", [AD, AD_CKPT], ids=["NoCheckpointing", "Balanced"])
def test_loss_gradient_is_a_plus_c(device):
    a = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device)
    w = Tensor.from_data([[0.5, -1.0], [2.0, 0.0]], device=device).require_grad()
    c = Tensor.ones([2, 2], device=FLEX)
    grads = (a * w + c * w).sum().backward()
    grad = w.grad(grads)
    np.testing.assert_array_equal(grad.to_numpy(), [[2.0, 3.0], [4.0, 5.0]])
    assert grad.device() == FLEX and not grad.is_autodiff()  # a plain tensor, inner device


def test_require_grad_on_an_intermediate_panics_with_burns_text():
    w = Tensor.from_data([1.0, 2.0], device=AD).require_grad()
    with pytest.raises(RuntimeError) as error:
        (w * 2.0).require_grad()
    assert str(error.value) == "Can't convert a non leaf tensor into a tracked tensor"


def test_require_grad_on_a_plain_device_panics_with_burns_text():
    with pytest.raises(RuntimeError) as error:
        Tensor.from_data([1.0], device=FLEX).require_grad()
    assert str(error.value) == "Tensor::require_grad requires autodiff; call Tensor::autodiff first"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Tensor.from_data([1.0, 2.0], device=AD) * 2.0,  # only constants
        lambda: Tensor.from_data([1.0, 2.0], device=AD),  # an untracked leaf
        lambda: Tensor.from_data([1.0, 2.0], device=FLEX),  # plain
        lambda: Tensor.from_data([1, 2], device=AD),  # an int
    ],
)
def test_backward_without_a_tracked_tensor_panics_with_burns_text(make):
    with pytest.raises(RuntimeError) as error:
        make().backward()
    assert str(error.value) == (
        "Tensor::backward requires a tracked autodiff tensor; call "
        "Tensor::autodiff().require_grad() on the source leaf before computing the output"
    )


def test_mixing_two_strategies_fails_the_merge_assertion():
    balanced = Tensor.from_data([1.0, 2.0], device=AD_CKPT)
    disabled = Tensor.from_data([1.0, 2.0], device=AD).require_grad()
    with pytest.raises(AssertionError) as error:
        balanced * disabled
    assert str(error.value) == MISMATCH


@pytest.mark.parametrize("device", [AD, AD_CKPT], ids=["NoCheckpointing", "Balanced"])
def test_int_and_bool_on_an_autodiff_device_report_it_and_carry_the_strategy(device):
    s = device.gradient_checkpointing_strategy()
    ints = Tensor.arange(0, 4, device=device)
    bools = ints.greater_elem(1)
    for t in (ints, bools, Tensor.from_data([1.0], device=device).int()):
        assert t.device().device == device.device
        assert isinstance(t.device().device, AutodiffDevice)
        assert t.device().gradient_checkpointing_strategy() is s
        assert t.is_autodiff() and not t.is_tracked() and not t.is_require_grad()
        assert t.gradient_checkpointing_strategy() is s
        assert not t.kind.is_autodiff  # never wrapped in an AutodiffTensor
    assert repr(ints.kind) == "NumPy(Int)"
    assert repr(Tensor.from_data([1.0], device=device).kind) == "Autodiff(NumPy(Autodiff))"


def test_node_ids_come_from_one_process_wide_counter():
    first = Tensor.from_data([1.0], device=AD).node_id()
    second = Tensor.from_data([1.0], device=AD_CKPT).node_id()
    assert second.value > first.value
    assert repr(first) == f"NodeId {{ value: {first.value} }}"
    leaf = Tensor.from_data([1.0], device=AD)
    assert leaf.require_grad().node_id() == leaf.node_id()  # same id, new Grad node
    assert Tensor.from_data([1], device=AD).node_id() is None


def test_backward_ignores_the_strategy():
    for device in (AD, AD_CKPT):
        x = Tensor.from_data([0.5, 1.5], device=device).require_grad()
        grads = (x.exp() * x).sum().backward()
        expected = np.exp([0.5, 1.5]) * (1 + np.array([0.5, 1.5]))
        np.testing.assert_allclose(x.grad(grads).to_numpy(), expected, rtol=1e-6)
