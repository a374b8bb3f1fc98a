"""Every mistake in the words of the call the user made, and the behaviours that used to raise:
the method or function the user typed (not the dispatch function or kernel it routes to), the
argument, what was given and what is expected, with the same type and words on every backend;
never NumPy's or Torch's own text. After each error a graph built before still differentiates."""

import numpy as np
import pytest

from burnpy.generated import Device, Tensor, module

DEVICES = {
    "numpy": Device.numpy(),
    "numpy-autodiff": Device.numpy().autodiff(),
    "numpy-balanced": Device.numpy().autodiff().gradient_checkpointing(),
    "torch": Device.torch(),
    "torch-autodiff": Device.torch().autodiff(),
    "torch-balanced": Device.torch().autodiff().gradient_checkpointing(),
}
# what NumPy and Torch say in their own words
FOREIGN = (
    "operands could not be broadcast",
    "The size of tensor",
    "gufunc",
    "AxisError",
    "out of bounds for array",
    "no dimensions",
    "zero-dimensional",
    "enforce fail",
    "DefaultCPUAllocator",
    "Unable to allocate",
    "Expected size",
    "3-dimensional vectors",
    "float_",
    "int_",
)


def f(d, *shape):
    return Tensor.ones(list(shape), device=d)


def scalar(d, value=2.0):
    return Tensor.from_data(value, device=d)


def other_backend(d):
    return Device.torch() if "NumPy" in repr(d) else Device.numpy()


# (name, call on a device, exception type, words the message must contain)
CASES = [
    # the method the user called, not the dispatch function it routes to
    ("transpose of a vector", lambda d: f(d, 3).transpose(), ValueError, ["transpose: ", "[3]"]),
    ("T of a vector", lambda d: f(d, 3).T, ValueError, ["T: ", "out of range", "[3]"]),
    (
        "sqrt of an int tensor",
        lambda d: Tensor.from_data([1, 4], device=d).sqrt(),
        TypeError,
        ["sqrt: ", "expected a Float tensor, got an Int tensor", "float()"],
    ),
    (
        "two backends",
        lambda d: f(d, 2) + Tensor.ones([2], device=other_backend(d)),
        TypeError,
        ["add: ", "two backends", "to_device"],
    ),
    (
        "two dtypes",
        lambda d: f(d, 2) * Tensor.ones([2], device=d, dtype="float64"),
        TypeError,
        ["mul: ", "dtypes differ (float32 and float64)"],
    ),
    # a kernel's own check, under the name of the call
    (
        "pool bigger than the input",
        lambda d: module.max_pool2d(f(d, 1, 1, 2, 2), 3),
        ValueError,
        ["max_pool2d: ", "kernel of 3", "size 2"],
    ),
    (
        "select_assign of another shape",
        lambda d: f(d, 2, 3).select_assign(1, Tensor.from_data([0], device=d), f(d, 2, 2), "add"),
        ValueError,
        ["select_assign: ", "[2, 2]", "select shape [2, 1]"],
    ),
    # module functions check their shapes in our words
    (
        "layer_norm gamma of another size",
        lambda d: module.layer_norm(f(d, 2, 5), f(d, 4), f(d, 4)),
        ValueError,
        ["layer_norm: ", "`gamma` must be [5]", "[2, 5]", "[4]"],
    ),
    (
        "attention head dims differ",
        lambda d: module.attention(f(d, 1, 1, 2, 4), f(d, 1, 1, 2, 3), f(d, 1, 1, 2, 3)),
        ValueError,
        ["attention: ", "`query` [1, 1, 2, 4]", "`key` [1, 1, 2, 3]", "head dim"],
    ),
    (
        "attention key and value of other lengths",
        lambda d: module.attention(f(d, 1, 1, 2, 4), f(d, 1, 1, 3, 4), f(d, 1, 1, 5, 4)),
        ValueError,
        ["attention: ", "`key` [1, 1, 3, 4]", "`value` [1, 1, 5, 4]", "sequence length"],
    ),
    (
        "linear bias of another size",
        lambda d: module.linear(f(d, 2, 3), f(d, 3, 4), f(d, 5)),
        ValueError,
        ["linear: ", "`bias` must be [d_out] = [4]", "[5]"],
    ),
    (
        "conv2d weight of rank 3",
        lambda d: module.conv2d(f(d, 1, 2, 4, 4), f(d, 3, 2, 2)),
        ValueError,
        ["conv2d: ", "`weight` must have rank 4", "[3, 2, 2]"],
    ),
    (
        "avg_pool1d of rank 4",
        lambda d: module.avg_pool1d(f(d, 1, 1, 4, 4), 2),
        ValueError,
        ["avg_pool1d: ", "`x` must have rank 3", "[1, 1, 4, 4]"],
    ),
    (
        "adaptive_avg_pool2d of rank 3",
        lambda d: module.adaptive_avg_pool2d(f(d, 1, 4, 4), [2, 2]),
        ValueError,
        ["adaptive_avg_pool2d: ", "`x` must have rank 4", "[1, 4, 4]"],
    ),
    (
        "unfold4d of rank 3",
        lambda d: module.unfold4d(f(d, 1, 4, 4), [2, 2]),
        ValueError,
        ["unfold4d: ", "`x` must have rank 4", "[1, 4, 4]"],
    ),
    (
        "interpolate of rank 3",
        lambda d: module.interpolate(f(d, 1, 4, 4), [2, 2], mode="nearest"),
        ValueError,
        ["interpolate: ", "rank 4", "[1, 4, 4]"],
    ),
    (
        "batch_norm statistics of another size",
        lambda d: module.batch_norm(f(d, 2, 3, 4), f(d, 4), f(d, 3), f(d, 3), f(d, 3), 1e-5),
        ValueError,
        ["batch_norm: ", "`gamma` must be [channels] = [3]", "[4]"],
    ),
    (
        "ctc_loss of rank 2",
        lambda d: module.ctc_loss(
            f(d, 4, 3),
            Tensor.from_data([[1]], device=d),
            Tensor.from_data([4], device=d),
            Tensor.from_data([1], device=d),
        ),
        ValueError,
        ["ctc_loss: ", "`log_probs` must be [time, batch, classes]", "[4, 3]"],
    ),
    (
        "fold4d of the wrong block count",
        lambda d: module.fold4d(f(d, 1, 4, 7), [3, 3], [2, 2]),
        ValueError,
        ["fold4d: ", "[batch, channels * 4, 4]", "[1, 4, 7]"],
    ),
    (
        "cross on a dim of size 2",
        lambda d: f(d, 3, 2).cross(f(d, 3, 2), 1),
        ValueError,
        ["cross: ", "dim 1 must have size 3", "[3, 2]"],
    ),
    (
        "reshape with -1 that does not divide",
        lambda d: f(d, 2, 3).reshape([4, -1]),
        ValueError,
        ["reshape", "6 elements", "[4, -1]"],
    ),
    # rank-0 tensors have no dim to join along
    (
        "cat of rank-0 tensors",
        lambda d: Tensor.cat([scalar(d), scalar(d)], 0),
        ValueError,
        ["cat: ", "rank-0", "reshape it to [1]"],
    ),
    # an allocation beyond the machine's memory is a MemoryError on every backend
    (
        "arange beyond the memory",
        lambda d: Tensor.arange(0, 10**12, device=d),
        MemoryError,
        ["arange: ", "bytes"],
    ),
    (
        "repeat_dim beyond the memory",
        lambda d: f(d, 2).repeat_dim(0, 10**12),
        MemoryError,
        ["repeat_dim: ", "does not fit in this machine's memory"],
    ),
    (
        "an op on a huge expanded view",
        lambda d: f(d, 1).expand([10**6, 10**6]) * 2.0,
        MemoryError,
        ["mul: ", "does not fit in this machine's memory", "[1000000, 1000000]"],
    ),
    # two tensors' shapes, refused on a Tensor method's plain path as by the routing
    (
        "shapes that do not broadcast",
        lambda d: f(d, 2) * f(d, 3),
        ValueError,
        ["mul: ", "`lhs` [2] and `rhs` [3] do not broadcast"],
    ),
    (
        "a matmul of mismatched dims",
        lambda d: f(d, 2, 3).matmul(f(d, 2, 3)),
        ValueError,
        ["matmul: ", "lhs's last dim (3) must equal rhs's second-to-last (2)"],
    ),
    # indexing speaks of `t[...]`
    ("index out of range", lambda d: f(d, 2, 3)[5], IndexError, ["t[...]: ", "index 5", "size 2"]),
    ("an index list out of range", lambda d: f(d, 2, 3)[:, [0, 3]], IndexError, ["t[...]: ", "3"]),
    ("a float index", lambda d: f(d, 2, 3)[1.5], TypeError, ["t[...]: ", "float 1.5"]),
    ("two ellipses", lambda d: f(d, 2, 3)[..., ...], ValueError, ["t[...]: ", "one `...`"]),
    (
        "index lists that do not broadcast",
        lambda d: f(d, 3, 3)[[0, 1], [0, 1, 2]],
        IndexError,
        ["t[...]: ", "broadcast", "[2] and [3]"],
    ),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("call, error, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_mistake_is_said_in_the_words_of_the_call(device, call, error, words):
    d = DEVICES[device]
    tracked = d.is_autodiff()
    w = Tensor.from_data([[1.0, -2.0], [3.0, 0.5]], device=d)
    w = w.require_grad() if tracked else w
    before = (w * w).sum()  # a graph built before the mistake
    with pytest.raises(error) as caught:
        call(d)
    message = str(caught.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    for foreign in FOREIGN:
        assert foreign not in message, f"{foreign!r} in {message!r}"
    if tracked:
        np.testing.assert_allclose(w.grad(before.backward()).to_numpy(), 2 * w.to_numpy())


def test_a_mistake_reads_the_same_on_every_backend():
    for name, call, error, _ in CASES:
        messages = set()
        for backend in ("numpy", "torch"):
            with pytest.raises(error) as caught:
                call(DEVICES[backend])
            messages.add(str(caught.value).replace("Torch", "NumPy"))
        assert len(messages) == 1, (name, messages)


def test_a_dispatch_function_called_directly_keeps_its_name():
    from burnpy.generated.dispatch import float_mul

    with pytest.raises(ValueError, match=r"^float_mul: shapes `lhs` \[2\] and `rhs` \[3\]"):
        float_mul(f(Device.numpy(), 2), f(Device.numpy(), 3))


# -- behaviours that used to raise ----------------------------------------------------------


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("op", ["softmax", "log_softmax", "softmin"])
def test_softmax_over_an_empty_dim_is_empty(device, op):
    """PyTorch returns an empty tensor (and an empty gradient)."""
    d = DEVICES[device]
    x = Tensor.zeros([2, 0], device=d)
    x = x.require_grad() if d.is_autodiff() else x
    y = getattr(x, op)(1)
    assert y.shape == (2, 0) and y.dtype == np.float32
    if d.is_autodiff():
        assert x.grad(y.sum().backward()).shape == (2, 0)


@pytest.mark.parametrize("device", DEVICES)
def test_reductions_along_dim_0_of_a_rank_0_tensor_see_its_one_element(device):
    """As PyTorch: dim 0 of a rank-0 tensor is its one element; the result stays rank 0."""
    d = DEVICES[device]
    x = scalar(d, 2.5)
    for result in (x.max_dim(0), x.min_dim(0), x.mean_dim(0), x.sort(0), x.topk(1, 0)):
        assert result.shape == () and result.item() == 2.5
    for values, indices in (x.max_dim_with_indices(0), x.sort_with_indices(0)):
        assert values.item() == 2.5 and indices.shape == () and indices.item() == 0
    assert x.argmax(0).item() == 0 and x.argsort(0).item() == 0
    assert Tensor.from_data(7, device=d).mean_dim(0).item() == 7
    if d.is_autodiff():
        leaf = x.require_grad()
        assert leaf.grad(leaf.max_dim(0).backward()).item() == 1.0
