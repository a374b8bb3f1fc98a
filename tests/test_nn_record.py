"""Records: Module.save / load (safetensors, dotted names, checks) and nn.load_pytorch."""

import json

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import save_file

from burnpy import nn
from burnpy.generated import Device, Tensor

try:
    import torch
except ImportError:
    torch = None


class Tiny(nn.Module):
    def __init__(self, device, seed=0):
        super().__init__()
        device.seed(seed)
        self.w = nn.init.uniform(-1.0, 1.0).init([3, 2], device)
        self.norm = nn.GroupNorm(1, 2, device=device)
        self.register_buffer("steps", Tensor.from_data([seed], device=device))

    def forward(self, x):
        return self.norm((x @ self.w).reshape([x.shape[0], 2, 1]))


def test_save_writes_dotted_names_and_load_restores_values_and_ids(tmp_path):
    ad = Device.numpy().autodiff()
    a, b = Tiny(ad, seed=1), Tiny(ad, seed=2)
    a.norm.gamma = Tensor.from_data([2.0, 3.0], device=ad)
    a.save(tmp_path / "a.safetensors")
    with safe_open(str(tmp_path / "a.safetensors"), framework="numpy") as f:
        assert sorted(f.keys()) == ["norm.beta", "norm.gamma", "steps", "w"]
        np.testing.assert_array_equal(f.get_tensor("w"), a.w.to_numpy())
    assert b.load(tmp_path / "a.safetensors") is b
    for (name, x), (_, y) in zip(
        a.named_parameters() + a.named_buffers(), b.named_parameters() + b.named_buffers()
    ):
        np.testing.assert_array_equal(x.to_numpy(), y.to_numpy(), err_msg=name)
    assert b.param_ids() == a.param_ids()
    assert all(t.is_require_grad() and t.device() == ad for t in b.parameters())
    x = Tensor.from_data([[1.0, 2.0, 3.0]], device=ad)
    np.testing.assert_array_equal(b(x).to_numpy(), a(x).to_numpy())


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_load_onto_a_torch_device(tmp_path):
    a = Tiny(Device.numpy(), seed=1)
    a.save(tmp_path / "a.safetensors")
    b = Tiny(Device.torch(), seed=2).load(tmp_path / "a.safetensors")
    assert all(t.device() == Device.torch() for t in b.parameters())
    np.testing.assert_array_equal(b.w.to_numpy(), a.w.to_numpy())


def test_load_refuses_mismatches(tmp_path):
    d = Device.numpy()
    good = {n: t.to_numpy() for n, t in Tiny(d).named_parameters() + Tiny(d).named_buffers()}
    path = tmp_path / "r.safetensors"

    save_file({**good, "w": good["w"].astype(np.float64)}, str(path))
    with pytest.raises(TypeError, match="w: the record holds dtype float64"):
        Tiny(d).load(path)
    save_file({**good, "w": np.zeros((2, 3), np.float32)}, str(path))
    with pytest.raises(ValueError, match=r"w: the record holds shape \[2, 3\]"):
        Tiny(d).load(path)
    extra = {k: v for k, v in good.items() if k != "norm.beta"}
    extra["norm.bias"] = good["norm.beta"]
    save_file(extra, str(path))
    with pytest.raises(
        ValueError, match=r"missing keys \['norm.beta'\], unexpected keys \['norm.bias'\]"
    ):
        Tiny(d).load(path)


@pytest.mark.skipif(torch is None, reason="torch not installed")
def test_load_pytorch_transposes_linear_and_renames_norms(tmp_path):
    from safetensors.torch import save_file as save_torch

    class Ours(nn.Module):
        def __init__(self, device):
            super().__init__()
            self.fc = nn.Linear(3, 4, device=device)
            self.bn = nn.BatchNorm(4, device=device)
            self.out = nn.Sequential(nn.Relu(), nn.Linear(4, 2, bias=False, device=device))

    ref = torch.nn.Module()
    ref.fc = torch.nn.Linear(3, 4)
    ref.bn = torch.nn.BatchNorm1d(4)
    ref.head = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(4, 2, bias=False))
    with torch.no_grad():
        ref.bn.weight.uniform_()
        ref.bn.bias.uniform_()
        ref.bn.running_mean.uniform_()
    state = {k: v.contiguous() for k, v in ref.state_dict().items()}
    save_torch(state, str(tmp_path / "torch.safetensors"))

    ours = Ours(Device.numpy().autodiff())
    ids = ours.param_ids()
    key_map = {"head.1.weight": "out.1.weight"}
    assert nn.load_pytorch(ours, tmp_path / "torch.safetensors", key_map=key_map) is ours
    assert ours.param_ids() == ids
    np.testing.assert_array_equal(ours.fc.weight.to_numpy(), state["fc.weight"].numpy().T)
    np.testing.assert_array_equal(ours.fc.bias.to_numpy(), state["fc.bias"].numpy())
    np.testing.assert_array_equal(ours.bn.gamma.to_numpy(), state["bn.weight"].numpy())
    np.testing.assert_array_equal(ours.bn.beta.to_numpy(), state["bn.bias"].numpy())
    np.testing.assert_array_equal(ours.bn.running_mean.to_numpy(), state["bn.running_mean"].numpy())
    np.testing.assert_array_equal(ours.out[1].weight.to_numpy(), state["head.1.weight"].numpy().T)
    assert all(t.is_require_grad() for t in ours.parameters())
    with pytest.raises(ValueError, match="unexpected keys \\['head.1.weight'\\]"):
        nn.load_pytorch(Ours(Device.numpy()), tmp_path / "torch.safetensors")


def test_record_metadata_holds_param_ids(tmp_path):
    m = Tiny(Device.numpy())
    m.save(tmp_path / "m.safetensors")
    with safe_open(str(tmp_path / "m.safetensors"), framework="numpy") as f:
        ids = json.loads(f.metadata()["burnpy.param_ids"])
    assert ids == dict(zip([n for n, _ in m.named_parameters()], m.param_ids()))
