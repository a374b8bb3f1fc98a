"""What a PyTorch user's habits meet: `t[index] = value` (against numpy's and torch's
assignment, gradients against torch's autograd), the accuracy idiom's rank rule, and the
messages that name the burnpy call for a PyTorch one."""

import numpy as np
import pytest
import torch

from burnpy import nn, optim
from burnpy.nn.functional import cross_entropy
from burnpy.generated import Device, Tensor, no_grad

BACKENDS = {"numpy": Device.numpy(), "torch": Device.torch()}
AUTODIFF = {"numpy": Device.numpy().autodiff(), "torch": Device.torch().autodiff()}
X = np.arange(3 * 4 * 5, dtype=np.float32).reshape(3, 4, 5)

# (key, value): every kind of index, with a number, a broadcast tensor or a full one
ASSIGNMENTS = [
    (0, -1.0),
    ((1, 2), np.float32(7.0)),
    ((slice(None), 1), np.arange(5, dtype=np.float32)),
    ((slice(None, None, 2), slice(1, 3)), np.ones((2, 2, 5), dtype=np.float32)),
    ((..., 4), np.arange(4, dtype=np.float32)),
    ((None, 1), 3.5),
    ([0, 2], np.arange(5, dtype=np.float32)),
    (([0, 2], [1, 3]), np.array([10.0, 20.0], dtype=np.float32).reshape(2, 1)),
    ((1, [0, 0, 3], slice(2, 4)), np.arange(6, dtype=np.float32).reshape(3, 2)),  # twice: last
    ("mask", 0.0),
    ("mask", "mask-values"),
]


def _key_value(key, value, device):
    mask = X % 3 == 0
    if isinstance(key, str):
        key = mask
        value = X[mask] * -1.0 if value == "mask-values" else value
    ours_key = Tensor.from_data(key, device=device.inner()) if key is mask else key
    return key, value, ours_key


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "key, value", ASSIGNMENTS, ids=[f"{k!r}={type(v).__name__}" for k, v in ASSIGNMENTS]
)
def test_setitem_matches_numpy(backend, key, value):
    device = BACKENDS[backend]
    key, value, ours_key = _key_value(key, value, device)
    expected = X.copy()
    expected[key] = value
    t = Tensor.from_data(X, device=device)
    same = t
    t[ours_key] = Tensor.from_data(value, device=device) if isinstance(value, np.ndarray) else value
    assert same is t  # the object takes the new value
    np.testing.assert_array_equal(t.to_numpy(), expected)


@pytest.mark.parametrize("backend", AUTODIFF)
@pytest.mark.parametrize("key, value", ASSIGNMENTS[:-3] + ASSIGNMENTS[-2:])
def test_setitem_differentiates_as_torch(backend, key, value):
    """Gradients flow to the kept elements and to the value, as torch's autograd gives them
    (a position assigned twice: torch keeps the last on CPU, so does ours)."""
    device = AUTODIFF[backend]
    key, value, ours_key = _key_value(key, value, device)
    rng = np.random.default_rng(0)
    x, weights = rng.normal(size=X.shape), rng.normal(size=X.shape)
    theirs_x = torch.tensor(x, requires_grad=True)
    theirs = theirs_x * 2.0
    ours_x = Tensor.from_data(x, device=device).require_grad()
    ours = ours_x * 2.0
    if isinstance(value, np.ndarray):
        v = rng.normal(size=value.shape)
        theirs_v = torch.tensor(v, requires_grad=True)
        ours_v = Tensor.from_data(v, device=device).require_grad()
        theirs[torch.tensor(key) if isinstance(key, np.ndarray) else key] = theirs_v
        ours[ours_key] = ours_v
    else:
        theirs[torch.tensor(key) if isinstance(key, np.ndarray) else key] = float(value)
        ours[ours_key] = float(value)
    (theirs * torch.tensor(weights)).sum().backward()
    grads = (ours * Tensor.from_data(weights, device=device)).sum().backward()
    np.testing.assert_allclose(ours.to_numpy(), theirs.detach().numpy())
    np.testing.assert_allclose(ours_x.grad(grads).to_numpy(), theirs_x.grad.numpy())
    if isinstance(value, np.ndarray):
        np.testing.assert_allclose(ours_v.grad(grads).to_numpy(), theirs_v.grad.numpy())


@pytest.mark.parametrize("backend", AUTODIFF)
def test_setitem_on_a_require_grad_leaf(backend):
    device = AUTODIFF[backend]
    w = Tensor.from_data([1.0, 2.0, 3.0], device=device).require_grad()
    with pytest.raises(RuntimeError, match=r"t is a require_grad\(\) leaf.*no_grad"):
        w[0] = 5.0
    np.testing.assert_array_equal(w.to_numpy(), [1.0, 2.0, 3.0])  # untouched
    with no_grad():  # as torch allows, to initialise a parameter
        w[0] = 5.0
    assert w.is_require_grad()
    np.testing.assert_array_equal(w.to_numpy(), [5.0, 2.0, 3.0])
    grads = (w * w).sum().backward()
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), [10.0, 4.0, 6.0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_setitem_int_and_bool_tensors(backend):
    device = BACKENDS[backend]
    i = Tensor.from_data(np.arange(6).reshape(2, 3), device=device)
    i[:, [0, 2]] = Tensor.from_data([[7], [8]], device=device)
    np.testing.assert_array_equal(i.to_numpy(), [[7, 1, 7], [8, 4, 8]])
    # a value of another kind or dtype is cast to the tensor's, as torch casts it
    j = Tensor.from_data(np.zeros((2, 3), dtype=np.int32), device=device)
    j[1] = Tensor.from_data([1.7, -2.2, 3.0], device=device)
    expected = torch.zeros(2, 3, dtype=torch.int32)
    expected[1] = torch.tensor([1.7, -2.2, 3.0])
    assert j.dtype == np.int32
    np.testing.assert_array_equal(j.to_numpy(), expected.numpy())
    f = Tensor.zeros([3], device=device, dtype="float64")
    f[:] = Tensor.from_data([1, 2, 3], device=device)
    assert f.dtype == np.float64 and f.tolist() == [1.0, 2.0, 3.0]
    b = Tensor.from_data([True, False, True], device=device)
    b[1] = True
    b[[0]] = Tensor.from_data([False], device=device)
    np.testing.assert_array_equal(b.to_numpy(), [False, True, True])


@pytest.mark.parametrize("backend", BACKENDS)
def test_setitem_refusals(backend):
    t = Tensor.zeros([2, 3], device=BACKENDS[backend])
    with pytest.raises(ValueError, match=r"shape \[4\] does not broadcast to the selection's "):
        t[0] = Tensor.ones([4], device=BACKENDS[backend])
    with pytest.raises(IndexError, match=r"t\[\.\.\.\] = value: .*shape \[2, 3\]"):
        t[5] = 1.0
    np.testing.assert_array_equal(t.to_numpy(), np.zeros((2, 3)))


# -- the accuracy idiom ------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_accuracy_idiom_refuses_the_outer_broadcast(backend):
    device = BACKENDS[backend]
    logits = Tensor.from_data(np.eye(5, 3, dtype=np.float32), device=device)
    y = Tensor.from_data([0, 1, 2, 0, 0], device=device)
    for compare in (lambda a, b: a == b, lambda a, b: b != a, lambda a, b: a < b):
        with pytest.raises(
            ValueError, match=r"\[5(, 1)?\] and \[5(, 1)?\].*would broadcast to \[5, 5\]"
        ):
            compare(logits.argmax(1), y)
    # the fix the message names gives the right accuracy (numpy's)
    right = (logits.argmax(1).reshape([-1]) == y).float().mean().item()
    assert right == np.mean(np.eye(5, 3).argmax(1) == [0, 1, 2, 0, 0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_comparisons_that_broadcast_as_before(backend):
    """Same rank broadcasts as it did; a lower rank that adds no element ([1] from `mean()`, a
    row) too."""
    device = BACKENDS[backend]
    a = Tensor.from_data(X, device=device)
    cases = [
        (a, Tensor.from_data(X[:, :1], device=device), X > X[:, :1]),  # same rank, [3, 1, 5]
        (a, a.mean(), X > X.mean()),
        (a, Tensor.from_data(X[0, 0], device=device), X > X[0, 0]),  # a row: [5]
    ]
    for left, right, expected in cases:
        np.testing.assert_array_equal((left > right).to_numpy(), expected)


# -- messages naming the burnpy call ------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda t: t.sum(0), r"along a dim call `t.sum_dim\(0\)`"),
        (lambda t: t.mean(1), r"`t.mean_dim\(1\)`"),
        (lambda t: t.max(0), r"`t.max_dim\(0\)`.*`t.max_dim_with_indices\(0\)`"),
        (lambda t: t.min(dim=1), r"`t.min_dim\(1\)`"),
        (lambda t: t.prod(0), r"`t.prod_dim\(0\)`"),
        (lambda t: t.bool().any(0), r"`t.any_dim\(0\)`"),
        (lambda t: t.bool().all(0), r"`t.all_dim\(0\)`"),
    ],
)
def test_whole_reductions_name_the_dim_form(call, message):
    with pytest.raises(TypeError, match=message):
        call(Tensor.ones([2, 3]))


@pytest.mark.parametrize(
    "name, burnpy",
    [
        ("view", "reshape"),
        ("clone", "nothing to copy"),
        ("numpy", "to_numpy"),
        ("size", "t.shape"),
        ("to", "to_device"),
        ("cpu", "to_device"),
        ("requires_grad_", "require_grad"),
        ("zero_grad", "backward"),
        ("add_", "no in-place ops"),
        ("unsqueeze_", "unsqueeze_dim"),
        ("relu_", "no in-place ops: `t = t.relu"),
    ],
)
def test_tensor_pytorch_names(name, burnpy):
    with pytest.raises(AttributeError, match=f"no attribute '{name}'; burnpy.*{burnpy}"):
        getattr(Tensor.ones([2]), name)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'$"):
        Tensor.ones([2]).nonsense


@pytest.mark.parametrize(
    "name, burnpy", [("randn", "Distribution.normal"), ("from_numpy", "from_data")]
)
def test_tensor_class_pytorch_names(name, burnpy):
    with pytest.raises(
        AttributeError, match=f"type object 'Tensor' has no attribute '{name}'.*{burnpy}"
    ):
        getattr(Tensor, name)


def test_the_hints_leave_attribute_reads_specialisable():
    """A `__getattr__` on the Tensor's class or its type keeps CPython from specialising every
    attribute read and method call on a Tensor: the hints are descriptors, found only where a
    name is missing, and `dir` does not list them."""
    for cls in (*Tensor.__mro__, *type(Tensor).__mro__):
        assert "__getattr__" not in vars(cls), cls
        assert "__getattribute__" not in vars(cls) or cls in (object, type), cls
    t = Tensor.ones([2])
    assert "relu" in dir(t) and "relu_" not in dir(t) and "view" not in dir(t)
    assert "view" not in dir(Tensor) and "randn" not in dir(Tensor)
    assert getattr(t, "view", None) is None and not hasattr(Tensor, "randn")


def test_nn_module_and_optimiser_pytorch_names():
    with pytest.raises(AttributeError, match="'ReLU'; burnpy's equivalent: nn.Relu"):
        nn.ReLU()
    with pytest.raises(AttributeError, match="'MSELoss'; burnpy's equivalent: nn.MseLoss"):
        nn.MSELoss
    model = nn.Linear(2, 3, device=Device.numpy().autodiff())
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'zero_grad'"):
        model.zero_grad()
    with pytest.raises(AttributeError, match="model.to_device"):
        model.to("cpu")
    with pytest.raises(TypeError, match=r"Adam\(lr, \.\.\.\) takes the learning rate.*"):
        optim.Adam(model.parameters(), lr=1e-3)
    with pytest.raises(TypeError, match=r"opt = SGD\(0\.1\)`.*opt.step\(model, loss"):
        optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(AttributeError, match="'Adam' object has no attribute 'zero_grad'"):
        optim.Adam(1e-3).zero_grad()
    assert optim.Adam(lr=1e-3).lr == optim.Adam(1e-3).lr == 1e-3


def test_unsqueeze_says_it_takes_a_rank():
    with pytest.raises(ValueError, match=r"`rank` is the rank to reach.*call `unsqueeze_dim\(0\)`"):
        Tensor.ones([3]).unsqueeze(0)
    assert Tensor.ones([3]).unsqueeze(3).shape == (1, 1, 3)


def test_torch_device_it_cannot_use_is_refused_at_creation():
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA: Device.torch('cuda') is usable")
    with pytest.raises(RuntimeError, match=r"cannot use cuda:0.*\['cpu'\] available"):
        Device.torch("cuda")
    with pytest.raises(RuntimeError, match=r"cuda:3"):
        Device.torch("cuda:3")
    assert Device.torch("cpu") == Device.torch()


# -- cross-entropy's ignore_index, against torch ------------------------------------------------


@pytest.mark.parametrize("backend", AUTODIFF)
@pytest.mark.parametrize(
    "options",
    [{}, {"weights": True}, {"label_smoothing": 0.1}, {"weights": True, "label_smoothing": 0.2}],
)
def test_cross_entropy_ignore_index_is_torch(backend, options):
    device = AUTODIFF[backend]
    rng = np.random.default_rng(1)
    x = rng.normal(size=(7, 4))
    y = np.array([1, -100, 3, 0, -100, 2, 2])
    w = np.array([1.0, 2.0, 0.5, 3.0])
    ours = dict(options)
    theirs = {"label_smoothing": options.get("label_smoothing", 0.0)}
    if options.get("weights"):
        ours["weights"], theirs["weight"] = w, torch.tensor(w)
    xt = torch.tensor(x, requires_grad=True)
    expected = torch.nn.functional.cross_entropy(xt, torch.tensor(y), ignore_index=-100, **theirs)
    expected.backward()
    logits = Tensor.from_data(x, device=device).require_grad()
    loss = cross_entropy(logits, Tensor.from_data(y, device=device), ignore_index=-100, **ours)
    np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-12)
    np.testing.assert_allclose(logits.grad(loss.backward()).to_numpy(), xt.grad.numpy(), atol=1e-15)
    module = nn.CrossEntropyLoss(ignore_index=-100, weights=ours.get("weights"), device=device)
    module.smoothing = ours.get("label_smoothing")
    np.testing.assert_allclose(
        module(logits, Tensor.from_data(y, device=device)).item(), expected.item(), rtol=1e-12
    )


def test_cross_entropy_every_target_ignored_is_nan_as_torch():
    x, y = np.zeros((2, 3)), np.array([-1, -1])
    expected = torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(y), ignore_index=-1)
    ours = cross_entropy(Tensor.from_data(x), Tensor.from_data(y), ignore_index=-1).item()
    assert np.isnan(ours) and np.isnan(expected.item())


@pytest.mark.parametrize("backend", AUTODIFF)
def test_setitem_of_a_tracked_value_into_a_plain_tensor_tracks_it(backend):
    device = AUTODIFF[backend]
    t = Tensor.zeros([2, 3], device=device.inner())
    v = Tensor.from_data([1.0, 2.0, 3.0], device=device).require_grad()
    t[1] = v * 2.0
    assert t.is_tracked()
    grads = (t * t).sum().backward()
    np.testing.assert_array_equal(v.grad(grads).to_numpy(), [8.0, 16.0, 24.0])
