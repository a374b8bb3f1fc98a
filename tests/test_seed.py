"""Every fact the seed (autodiff-decorator.en.md) prints, reproduced through the public API, on
every backend ops.yaml declares (the seed's Flex is our NumPy or Torch, with their names)."""

from types import SimpleNamespace

import numpy as np
import pytest

from burnpy.generated import GradientCheckpointingStrategy, Requirement, Tensor
from opinfo import BACKENDS, devices
from burnpy.runtime.device import AutodiffDevice

MISMATCH = (
    "assertion `left == right` failed: Gradient checkpointing strategy mismatch: Balanced vs "
    "Disabled. Tensors in the same operation must share a strategy.\n  left: Balanced\n right: Disabled"
)


@pytest.fixture(params=BACKENDS)
def on(request):
    """The seed's three devices on one backend: flex (plain), ad, ad_ckpt, and its names."""
    d = devices(request.param)
    variant = d["plain"].device.variant
    return SimpleNamespace(
        name=request.param,
        variant=variant,
        flex=d["plain"],
        ad=d["autodiff"],
        ad_ckpt=d["balanced"],
    )


@pytest.fixture(params=["NoCheckpointing", "Balanced"])
def device(request, on):
    """Each of the backend's two autodiff devices."""
    return on.ad if request.param == "NoCheckpointing" else on.ad_ckpt


def test_device_reprs_names_and_equality(on):
    flex, ad, ad_ckpt, v = on.flex, on.ad, on.ad_ckpt, on.variant
    assert repr(flex) == f"Device<{v}(Cpu)>"
    assert repr(ad) == f"Device<Autodiff {{ device: {v}(Cpu), checkpointing: Disabled }}>"
    assert repr(ad_ckpt) == f"Device<Autodiff {{ device: {v}(Cpu), checkpointing: Balanced }}>"
    assert str(ad) == repr(ad)
    assert flex.backend_name() == f"dispatch<{on.name}>"
    assert ad.backend_name() == ad_ckpt.backend_name() == f"dispatch<autodiff<{on.name}>>"
    assert flex == ad and ad == ad_ckpt  # equality compares the inner device only
    assert hash(flex) == hash(ad) == hash(ad_ckpt)
    assert ad.autodiff() is ad and ad_ckpt.autodiff().gradient_checkpointing_strategy() is (
        GradientCheckpointingStrategy.Balanced
    )


def _flags(t):
    strategy = t.gradient_checkpointing_strategy()
    return (t.is_autodiff(), t.is_tracked(), t.is_require_grad(), strategy)


def test_the_six_tensor_flag_table(device, on):
    s = device.gradient_checkpointing_strategy()
    a = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device)
    w = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device).require_grad()
    c = Tensor.from_data([[1.0, 1.0], [1.0, 1.0]], device=on.flex)
    assert _flags(a) == (True, False, False, s)
    assert _flags(w) == (True, True, True, s)
    assert _flags(c) == (False, False, False, None)
    assert _flags(a * a) == (True, False, False, s)
    assert _flags(a * w) == (True, True, False, s)
    assert _flags(c * w) == (True, True, False, s)


def test_an_op_on_untracked_inputs_still_registers_its_empty_step(on):
    a = Tensor.from_data([1.0, 2.0], device=on.ad)
    node = (a * a).primitive.node
    assert node.requirement is Requirement.None_
    assert repr(node.step) == "UntrackedOpsStep"


def test_c_times_w_lands_on_the_autodiff_device_and_c_is_a_constant(on):
    c = Tensor.from_data([2.0, 3.0, 4.0, 5.0], device=on.flex)
    w = Tensor.from_data([1.0, 1.0, 1.0, 1.0], device=on.ad).require_grad()
    product = c * w
    assert repr(product.device()) == (
        f"Device<Autodiff {{ device: {on.variant}(Cpu), checkpointing: Disabled }}>"
    )
    grads = product.sum().backward()
    assert w.grad(grads).to_numpy().tolist() == [2.0, 3.0, 4.0, 5.0]
    assert c.grad(grads) is None and not c.is_autodiff()  # c itself is not changed


def test_loss_gradient_is_a_plus_c(device, on):
    a = Tensor.from_data([[1.0, 2.0], [3.0, 4.0]], device=device)
    w = Tensor.from_data([[0.5, -1.0], [2.0, 0.0]], device=device).require_grad()
    c = Tensor.ones([2, 2], device=on.flex)
    grads = (a * w + c * w).sum().backward()
    grad = w.grad(grads)
    np.testing.assert_array_equal(grad.to_numpy(), [[2.0, 3.0], [4.0, 5.0]])
    assert grad.device() == on.flex and not grad.is_autodiff()  # a plain tensor, inner device


def test_require_grad_on_an_intermediate_panics_with_burns_text(on):
    w = Tensor.from_data([1.0, 2.0], device=on.ad).require_grad()
    with pytest.raises(RuntimeError) as error:
        (w * 2.0).require_grad()
    assert str(error.value) == "Can't convert a non leaf tensor into a tracked tensor"


def test_require_grad_on_a_plain_device_panics_with_burns_text(on):
    with pytest.raises(RuntimeError) as error:
        Tensor.from_data([1.0], device=on.flex).require_grad()
    assert str(error.value) == "Tensor::require_grad requires autodiff; call Tensor::autodiff first"


@pytest.mark.parametrize(
    "make",
    [
        lambda on: Tensor.from_data([1.0, 2.0], device=on.ad) * 2.0,  # only constants
        lambda on: Tensor.from_data([1.0, 2.0], device=on.ad),  # an untracked leaf
        lambda on: Tensor.from_data([1.0, 2.0], device=on.flex),  # plain
        lambda on: Tensor.from_data([1, 2], device=on.ad),  # an int
    ],
)
def test_backward_without_a_tracked_tensor_panics_with_burns_text(make, on):
    with pytest.raises(RuntimeError) as error:
        make(on).backward()
    assert str(error.value) == (
        "Tensor::backward requires a tracked autodiff tensor; call "
        "Tensor::autodiff().require_grad() on the source leaf before computing the output"
    )


def test_mixing_two_strategies_fails_the_merge_assertion(on):
    balanced = Tensor.from_data([1.0, 2.0], device=on.ad_ckpt)
    disabled = Tensor.from_data([1.0, 2.0], device=on.ad).require_grad()
    with pytest.raises(AssertionError) as error:
        balanced * disabled
    assert str(error.value) == MISMATCH


def test_int_and_bool_on_an_autodiff_device_report_it_and_carry_the_strategy(device, on):
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
    assert repr(ints.kind) == f"{on.variant}(Int)"
    assert repr(Tensor.from_data([1.0], device=device).kind) == f"Autodiff({on.variant}(Autodiff))"


def test_node_ids_come_from_one_process_wide_counter(on):
    first = Tensor.from_data([1.0], device=on.ad).node_id()
    second = Tensor.from_data([1.0], device=on.ad_ckpt).node_id()
    assert second.value > first.value
    assert repr(first) == f"NodeId {{ value: {first.value} }}"
    leaf = Tensor.from_data([1.0], device=on.ad)
    assert leaf.require_grad().node_id() == leaf.node_id()  # same id, new Grad node
    assert Tensor.from_data([1], device=on.ad).node_id() is None


def test_backward_ignores_the_strategy(on):
    for device in (on.ad, on.ad_ckpt):
        x = Tensor.from_data([0.5, 1.5], device=device).require_grad()
        grads = (x.exp() * x).sum().backward()
        expected = np.exp([0.5, 1.5]) * (1 + np.array([0.5, 1.5]))
        np.testing.assert_allclose(x.grad(grads).to_numpy(), expected, rtol=1e-6)
