"""The habits Python users bring, checked against numpy and PyTorch: None and int-list indexing,
`t.T`, `no_grad`, `state_dict` / `load_state_dict`, `Module.cast`, `load_pytorch(strict=False)`,
`grad_clip_total_norm=`, and bfloat16 on both backends."""

import threading

import ml_dtypes
import numpy as np
import pytest
import torch
from safetensors.numpy import save_file

from burnpy import nn, optim
from burnpy.generated import Device, Tensor, module, no_grad

BACKENDS = {"numpy": Device.numpy(), "torch": Device.torch()}
DEVICES = {
    **BACKENDS,
    "numpy-autodiff": Device.numpy().autodiff(),
    "torch-autodiff": Device.torch().autodiff(),
    "torch-balanced": Device.torch().autodiff().gradient_checkpointing(),
}
BF16 = np.dtype(ml_dtypes.bfloat16)
X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)

# numpy's basic and advanced indexing, in every position
KEYS = [
    None,
    (slice(None), None),
    [0, 1],
    (1, [1, 2]),
    (None, 0, ..., None),
    ([0, 1], [2, 0]),
    (slice(None), [0, 2], [1, 3]),
    ([0, 1], slice(None), [1, 3]),  # separated: the picked dims go first
    (1, slice(None), [[0, 1], [2, 3]]),  # an int beside a list is one too
    (..., [1, -1]),
    (slice(1, None), None, [2], 0),
    ([[0], [1]], [0, 1, 2]),
    (np.array([1, 0]),),
    (slice(None, None, -1), [0, 0, 1]),
    (1, ..., [3, 0], 2),
    ([],),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_indexing_matches_numpy(device, key):
    result = Tensor.from_data(X, device=DEVICES[device])[key]
    expected = X[key]
    assert result.shape == expected.shape
    np.testing.assert_array_equal(result.to_numpy(), expected)


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch-autodiff", "torch-balanced"])
def test_indexing_differentiates_as_torch(device):
    """Repeated positions accumulate their gradients, as torch's advanced indexing does."""
    x = np.random.default_rng(0).normal(size=(3, 4, 5))
    keys = [(None, [0, 0, 2]), (slice(None), [1, 1, 3], None), (1, [[0], [2]], [4, 4, 0])]
    for key in keys:
        leaf = Tensor.from_data(x, device=DEVICES[device], dtype="float64").require_grad()
        ours = leaf[key]
        reference = torch.tensor(x, requires_grad=True)
        theirs = reference[key]
        weights = np.random.default_rng(1).normal(size=theirs.shape)
        (theirs * torch.tensor(weights)).sum().backward()
        grad = leaf.grad(
            (ours * Tensor.from_data(weights, device=DEVICES[device])).sum().backward()
        )
        np.testing.assert_allclose(grad.to_numpy(), reference.grad.numpy(), rtol=1e-12)


def test_an_int_tensor_indexes_in_any_position():
    d = Device.torch()
    rows = Tensor.from_data([[0, 1], [1, 0]], device=d)
    t = Tensor.from_data(X[0], device=d)
    np.testing.assert_array_equal(t[rows].to_numpy(), X[0][[[0, 1], [1, 0]]])
    np.testing.assert_array_equal(t[:, rows].to_numpy(), X[0][:, [[0, 1], [1, 0]]])


@pytest.mark.parametrize("device", DEVICES)
def test_T_swaps_the_last_two_dims(device):
    t = Tensor.from_data(X, device=DEVICES[device])
    np.testing.assert_array_equal(t.T.to_numpy(), np.swapaxes(X, -1, -2))
    np.testing.assert_array_equal(t[0, 0].T.to_numpy(), X[0, 0].T)


# -- no_grad --------------------------------------------------------------------------------


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch-autodiff", "torch-balanced"])
def test_no_grad_records_nothing_and_nests(device):
    d = DEVICES[device]
    w = Tensor.from_data([1.0, 2.0], device=d).require_grad()
    before = (w * w).sum()
    with no_grad():
        inside = (w * w).exp().sum()
        with no_grad():
            nested = w.sin()
        after_nested = w * 3.0  # still inside the outer block
        fresh = Tensor.from_data([3.0], device=d).require_grad()  # leaves can still be made
    assert not inside.is_tracked() and not nested.is_tracked() and not after_nested.is_tracked()
    assert inside.is_autodiff() and fresh.is_require_grad()
    np.testing.assert_allclose(inside.to_numpy(), [np.exp(1.0) + np.exp(4.0)], rtol=1e-6)
    with pytest.raises(RuntimeError, match="requires a tracked autodiff tensor"):
        inside.backward()
    outside = (w * w * w).sum()
    assert outside.is_tracked()
    np.testing.assert_allclose(w.grad(outside.backward()).to_numpy(), [3.0, 12.0])
    np.testing.assert_allclose(w.grad(before.backward()).to_numpy(), [2.0, 4.0])


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch-balanced"])
def test_no_grad_covers_list_optional_and_multi_output_recorders(device):
    """Every recorder shape consults no_grad: a list of inputs (cat), an optional input
    (linear's bias), several float outputs (rfft); values still numpy's."""
    d = DEVICES[device]
    x = np.array([[0.5, -1.0, 2.0, 0.25]])
    w = np.arange(8.0).reshape(4, 2) / 8
    b = np.array([0.1, -0.2])
    xt, wt, bt = (Tensor.from_data(a, device=d).require_grad() for a in (x, w, b))
    with no_grad():
        joined = Tensor.cat([xt, xt], 0)
        projected = module.linear(xt, wt, bt)
        real, imag = module.rfft(xt, 1)
    for result in (joined, projected, real, imag):
        assert result.is_autodiff() and not result.is_tracked()
    np.testing.assert_allclose(joined.to_numpy(), np.concatenate([x, x]))
    np.testing.assert_allclose(projected.to_numpy(), x @ w + b, rtol=1e-6)
    np.testing.assert_allclose(real.to_numpy(), np.fft.rfft(x, axis=1).real, atol=1e-6)
    np.testing.assert_allclose(imag.to_numpy(), np.fft.rfft(x, axis=1).imag, atol=1e-6)
    assert module.rfft(xt, 1)[0].is_tracked() and module.linear(xt, wt, bt).is_tracked()


def test_no_grad_is_a_decorator_and_per_thread():
    w = Tensor.from_data([1.0, 2.0], device=DEVICES["numpy-autodiff"]).require_grad()

    @no_grad()
    def evaluate(t):
        return t.tanh()

    assert not evaluate(w).is_tracked()
    assert w.tanh().is_tracked()
    seen = []
    with no_grad():
        other = threading.Thread(target=lambda: seen.append((w * w).is_tracked()))
        other.start()
        other.join()
        assert not (w * w).is_tracked()
    assert seen == [True]  # another thread keeps recording


def test_no_grad_is_left_on_an_exception():
    w = Tensor.from_data([1.0], device=DEVICES["numpy-autodiff"]).require_grad()
    with pytest.raises(ZeroDivisionError):
        with no_grad():
            raise ZeroDivisionError
    assert (w * w).is_tracked()


# -- state dicts, casts, PyTorch records ------------------------------------------------------


def _torch_pair(device):
    """A torch Linear + BatchNorm1d and the same model of ours, with torch's values loaded."""
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2)).eval()
    ours = nn.Sequential(nn.Linear(3, 2, device=device), nn.BatchNorm(2, device=device)).eval()
    state = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
    result = ours.load_state_dict(
        {
            "0.weight": state["0.weight"].T,
            "0.bias": state["0.bias"],
            "1.gamma": state["1.weight"],
            "1.beta": state["1.bias"],
            "1.running_mean": state["1.running_mean"],
            "1.running_var": state["1.running_var"],
        }
    )
    return theirs, ours, state, result


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch"])
def test_load_state_dict_gives_torch_forward(device):
    theirs, ours, state, result = _torch_pair(DEVICES[device])
    assert result == ([], []) and result.missing_keys == [] and result.unexpected_keys == []
    x = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    expected = theirs(torch.tensor(x)).detach().numpy()
    got = ours(Tensor.from_data(x, device=DEVICES[device])).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert list(ours.state_dict()) == [
        "0.weight",
        "0.bias",
        "1.gamma",
        "1.beta",
        "1.running_mean",
        "1.running_var",
    ]
    np.testing.assert_array_equal(ours.state_dict()["0.weight"], state["0.weight"].T)
    if DEVICES[device].is_autodiff():
        assert all(p.is_require_grad() for p in ours.parameters())


def test_load_state_dict_strict_names_the_keys_and_changes_nothing():
    _, ours, _, _ = _torch_pair(Device.numpy())
    good = ours.state_dict()
    bad = {**good, "2.weight": np.zeros(1, np.float32)}
    del bad["1.beta"]
    with pytest.raises(
        ValueError, match=r"missing keys \['1.beta'\], unexpected keys \['2.weight'\]"
    ):
        ours.load_state_dict(bad)
    wrong_dtype = {**good, "1.gamma": np.zeros(2, np.float64), "0.bias": np.full(2, 9, np.float32)}
    with pytest.raises(TypeError, match="1.gamma"):
        ours.load_state_dict(wrong_dtype)
    for name, value in ours.state_dict().items():  # nothing half-loaded
        np.testing.assert_array_equal(value, good[name])
    loose = {"0.bias": np.full(2, 7, np.float32), "extra": np.zeros(1)}
    assert ours.load_state_dict(loose, strict=False) == (
        ["0.weight", "1.gamma", "1.beta", "1.running_mean", "1.running_var"],
        ["extra"],
    )
    np.testing.assert_array_equal(ours.state_dict()["0.bias"], [7, 7])
    np.testing.assert_array_equal(ours.state_dict()["0.weight"], good["0.weight"])


def test_load_pytorch_strict_false_skips_an_extra_buffer(tmp_path):
    theirs, _, state, _ = _torch_pair(Device.numpy())
    path = tmp_path / "model.safetensors"
    save_file({**state, "1.extra_buffer": np.ones(2, np.float32)}, str(path))
    ours = nn.Sequential(
        nn.Linear(3, 2, device=Device.numpy()), nn.BatchNorm(2, device=Device.numpy())
    )
    ours = ours.eval()
    with pytest.raises(ValueError, match="unexpected keys .*1.extra_buffer"):
        nn.load_pytorch(ours, path)
    nn.load_pytorch(ours, path, strict=False)
    x = np.random.default_rng(1).normal(size=(4, 3)).astype(np.float32)
    np.testing.assert_allclose(
        ours(Tensor.from_data(x)).to_numpy(),
        theirs(torch.tensor(x)).detach().numpy(),
        rtol=1e-5,
        atol=1e-6,
    )


@pytest.mark.parametrize("dtype", ["float64", "bfloat16"])
def test_cast_casts_every_float_tensor_and_keeps_ids_and_leaves(dtype):
    _, ours, state, _ = _torch_pair(Device.torch().autodiff())
    ids = ours.param_ids()
    ours.cast(dtype)
    assert ours.param_ids() == ids
    assert all(p.dtype == np.dtype(dtype) and p.is_require_grad() for p in ours.parameters())
    np.testing.assert_array_equal(
        ours.state_dict()["1.running_var"], state["1.running_var"].astype(dtype)
    )


# -- clipping by the total norm -----------------------------------------------------------------


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch-autodiff"])
@pytest.mark.parametrize("max_norm", [0.5, 1e3])  # clipped, and under the threshold
@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_grad_clip_total_norm_is_torch_clip_grad_norm(device, max_norm, name):
    rng = np.random.default_rng(0)
    weight, bias = rng.normal(size=(3, 2)), rng.normal(size=(2,))
    x = rng.normal(size=(4, 3))
    ours = nn.Linear(3, 2, device=DEVICES[device]).cast("float64")
    ours.load_state_dict({"weight": weight, "bias": bias})
    theirs = torch.nn.Linear(3, 2).double()
    with torch.no_grad():
        theirs.weight.copy_(torch.tensor(weight.T))
        theirs.bias.copy_(torch.tensor(bias))
    (theirs(torch.tensor(x)) ** 2).sum().backward()
    torch.nn.utils.clip_grad_norm_(theirs.parameters(), max_norm)
    if name == "SGD":
        optim.SGD(0.1, grad_clip_total_norm=max_norm).step(
            ours, (ours(Tensor.from_data(x, device=DEVICES[device])) ** 2.0).sum().backward()
        )
        torch.optim.SGD(theirs.parameters(), 0.1).step()
    else:
        optim.Adam(0.1, epsilon=1e-8, grad_clip_total_norm=max_norm).step(
            ours, (ours(Tensor.from_data(x, device=DEVICES[device])) ** 2.0).sum().backward()
        )
        torch.optim.Adam(theirs.parameters(), 0.1, eps=1e-8).step()
    np.testing.assert_allclose(ours.weight.to_numpy(), theirs.weight.detach().numpy().T, rtol=1e-9)
    np.testing.assert_allclose(ours.bias.to_numpy(), theirs.bias.detach().numpy(), rtol=1e-9)


def test_one_clipping_at_a_time():
    with pytest.raises(ValueError, match="clip gradients one way"):
        optim.Adam(1e-3, grad_clip_norm=1.0, grad_clip_total_norm=1.0)


# -- bfloat16 -----------------------------------------------------------------------------------


def _pair(values, device):
    ours = Tensor.from_data(np.asarray(values, dtype=BF16), device=device)
    theirs = torch.tensor(np.asarray(values, dtype=np.float32)).to(torch.bfloat16)
    return ours, theirs


def _as_float(tensor):
    if isinstance(tensor, torch.Tensor):
        return tensor.float().numpy()
    assert tensor.dtype == BF16
    return tensor.to_numpy().astype(np.float32)


@pytest.mark.parametrize("device", DEVICES)
def test_bfloat16_computes_what_torch_computes(device):
    d = DEVICES[device]
    rng = np.random.default_rng(0)
    a, ta = _pair(rng.normal(size=(3, 4)), d)
    b, tb = _pair(rng.normal(size=(4, 5)), d)
    c, tc = _pair(rng.normal(size=(3, 4)), d)
    long, tlong = _pair(rng.uniform(0.5, 1.5, size=(4096,)), d)
    pairs = [
        (a + c, ta + tc),
        (a * c - a / (c.abs() + 1.0), ta * tc - ta / (tc.abs() + 1.0)),
        (a.exp(), ta.exp()),
        (a.tanh(), ta.tanh()),
        (a.softmax(1), ta.softmax(1)),
        (a @ b, ta @ tb),
        (a.sum_dim(1), ta.sum(1, keepdim=True)),
        (a.mean(), ta.mean().reshape(1)),
        (a.max_dim(0), ta.max(0, keepdim=True).values),
        (long.sum(), tlong.sum().reshape(1)),  # accumulated in float32: 4096 terms stay exact-ish
    ]
    for ours, theirs in pairs:
        np.testing.assert_allclose(_as_float(ours), _as_float(theirs), rtol=1e-2, atol=1e-2)
    assert Tensor.zeros([2], device=d, dtype="bfloat16").dtype == BF16
    np.testing.assert_array_equal(a.cast("float32").to_numpy(), ta.float().numpy())
    np.testing.assert_array_equal(a.cast("float32").cast("bfloat16").to_numpy(), a.to_numpy())


@pytest.mark.parametrize("device", ["numpy-autodiff", "torch-autodiff", "torch-balanced"])
def test_bfloat16_gradients_are_torchs(device):
    rng = np.random.default_rng(1)
    x, tx = _pair(rng.normal(size=(3, 4)), DEVICES[device])
    w, tw = _pair(rng.normal(size=(4, 2)), DEVICES[device])
    leaf = w.require_grad()
    tw.requires_grad_(True)
    grad = leaf.grad((x @ leaf).tanh().sum().backward())
    (tx @ tw).tanh().sum().backward()
    assert grad.dtype == BF16
    np.testing.assert_allclose(_as_float(grad), _as_float(tw.grad), rtol=2e-2, atol=2e-2)
