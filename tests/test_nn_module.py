"""burnpy.nn.Module: parameters found from attributes, ParamIds, devices, modes, copies."""

import copy
import pickle

import numpy as np
import pytest

from burnpy import nn
from burnpy.generated import Device, Tensor

try:
    import torch as _torch
except ImportError:
    _torch = None

DEVICES = ["numpy"] + (["torch"] if _torch is not None else [])


def device_of(name):
    return Device.numpy() if name == "numpy" else Device.torch()


class Affine(nn.Module):
    """x @ w + b, from plain tensors."""

    def __init__(self, d_in, d_out, device):
        super().__init__()
        self.weight = Tensor.from_data(
            np.arange(d_in * d_out, dtype=np.float32).reshape(d_in, d_out) / 10, device=device
        )
        self.bias = Tensor.zeros([d_out], device=device)

    def forward(self, x):
        return x @ self.weight + self.bias


class Net(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.first = Affine(3, 4, device)
        self.blocks = [Affine(4, 4, device), nn.Relu()]
        self.heads = {"a": Affine(4, 2, device)}
        self.scale = Tensor.ones([1], device=device)
        self.register_buffer("count", Tensor.zeros([1], device=device))
        self.steps = Tensor.from_data([0], device=device)  # Int: a buffer

    def forward(self, x):
        x = self.first(x)
        for block in self.blocks:
            x = block(x)
        return self.heads["a"](x) * self.scale


def test_named_parameters_in_definition_order():
    net = Net(Device.numpy())
    names = [name for name, _ in net.named_parameters()]
    assert names == [
        "first.weight",
        "first.bias",
        "blocks.0.weight",
        "blocks.0.bias",
        "heads.a.weight",
        "heads.a.bias",
        "scale",
    ]
    assert [n for n, _ in net.named_buffers()] == ["count", "steps"]
    assert [t.shape for t in net.parameters()] == [t.shape for _, t in net.named_parameters()]
    assert net.num_params() == 12 + 4 + 16 + 4 + 8 + 2 + 1
    ids = net.param_ids()
    assert len(set(ids)) == len(ids) and all(isinstance(i, int) for i in ids)


def test_sequential_children_named_by_index():
    d = Device.numpy()
    seq = nn.Sequential(Affine(2, 3, d), nn.Relu(), Affine(3, 1, d))
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    x = Tensor.from_data([[1.0, -2.0]], device=d)
    expected = np.maximum(x.to_numpy() @ seq[0].weight.to_numpy(), 0) @ seq[2].weight.to_numpy()
    np.testing.assert_allclose(seq(x).to_numpy(), expected, rtol=1e-6)
    with pytest.raises(TypeError, match="position 1"):
        nn.Sequential(nn.Relu(), 3)


def test_parameters_on_autodiff_device_are_grad_leaves_and_get_gradients():
    ad = Device.numpy().autodiff()
    net = Net(ad)
    assert all(t.is_require_grad() for t in net.parameters())
    assert not any(t.is_require_grad() for _, t in net.named_buffers())
    x = Tensor.from_data([[1.0, 2.0, 3.0]], device=ad)
    grads = net(x).sum().backward()
    assert all(t.grad(grads) is not None for t in net.parameters())


@pytest.mark.parametrize("name", DEVICES)
def test_to_device_moves_in_place_and_keeps_ids(name):
    net = Net(Device.numpy())
    ids = net.param_ids()
    before = [t.to_numpy() for t in net.parameters()]
    target = device_of(name).autodiff()
    assert net.to_device(target) is net
    assert net.param_ids() == ids
    for tensor, data in zip(net.parameters(), before):
        assert tensor.device() == target and tensor.is_require_grad()
        np.testing.assert_array_equal(tensor.to_numpy(), data)
    assert all(t.device() == target for _, t in net.named_buffers())
    net.to_device(Device.numpy())
    assert not any(t.is_autodiff() for t in net.parameters())


def test_train_eval_and_valid():
    ad = Device.numpy().autodiff()
    net = Net(ad)
    assert net.training and all(m.training for m in net.modules())
    assert net.eval() is net and not any(m.training for m in net.modules())
    assert net.train() is net and net.blocks[1].training
    valid = net.valid()
    assert valid is not net and valid.param_ids() == net.param_ids()
    assert not any(t.is_autodiff() for t in valid.parameters())
    assert all(t.is_autodiff() for t in net.parameters())
    for a, b in zip(valid.parameters(), net.parameters()):
        np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


def test_no_grad_marks_parameters_and_survives_moves():
    ad = Device.numpy().autodiff()
    net = Affine(2, 2, ad).no_grad()
    assert not net.weight.is_require_grad()
    net.to_device(Device.numpy()).to_device(ad)
    assert not net.weight.is_require_grad()


@pytest.mark.parametrize("name", DEVICES)
def test_deepcopy_and_pickle_give_independent_equal_modules(name):
    ad = device_of(name).autodiff()
    net = Net(ad)
    for clone in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert clone.param_ids() == net.param_ids()
        for a, b in zip(clone.parameters(), net.parameters()):
            assert a.is_require_grad() and a.device() == b.device()
            assert a.node_id() != b.node_id()  # fresh leaves, no shared graph
            np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())
        x = Tensor.from_data([[1.0, 2.0, 3.0]], device=ad)
        np.testing.assert_allclose(clone(x).to_numpy(), net(x).to_numpy())
        grads = clone(x).sum().backward()
        assert net.first.weight.grad(grads) is None and clone.first.weight.grad(grads) is not None


def test_tensor_deepcopy_and_pickle():
    t = Tensor.from_data([[1.0, 2.0]], device=Device.numpy().autodiff()).require_grad()
    for clone in (copy.deepcopy(t), pickle.loads(pickle.dumps(t))):
        np.testing.assert_array_equal(clone.to_numpy(), t.to_numpy())
        assert clone.is_require_grad()


def test_repr_shows_tree_with_shapes():
    text = repr(Net(Device.numpy()))
    assert text.startswith("Net {")
    assert "first: Affine {" in text and "weight: param [3, 4] float32" in text
    assert "blocks.1: Relu" in text and "count: buffer [1] float32" in text


def test_missing_super_init_is_explained():
    class Broken(nn.Module):
        def __init__(self):
            self.w = Tensor.ones([1])

    with pytest.raises(TypeError, match="super\\(\\).__init__"):
        Broken()
