"""Misuse: every mistake gets one clear error, the same type and words on every backend, plain
and autodiff, naming the op and what was expected; never a silent wrong value or another
library's message. After each error, a graph built before it still gives the right gradients."""

import numpy as np
import pytest

from burnpy.generated import Device, Tensor, module

DEVICES = {
    "numpy": Device.numpy(),
    "numpy-autodiff": Device.numpy().autodiff(),
    "numpy-balanced": Device.numpy().autodiff().gradient_checkpointing(),
    "torch": Device.torch(),
    "torch-autodiff": Device.torch().autodiff(),
}


def f(d, shape=(2, 3)):
    return Tensor.ones(list(shape), device=d)


def i(d, values=(4, 5), dtype="int64"):
    return Tensor.from_data(list(values), device=d, dtype=dtype)


# (name, call on a device, exception type, words the message must contain)
CASES = [
    # arguments silently converted before
    (
        "shape from a str",
        lambda d: Tensor.zeros("12", device=d),
        TypeError,
        ["zeros", "`shape`", "'12'"],
    ),
    (
        "shape of floats",
        lambda d: Tensor.zeros([2.5], device=d),
        TypeError,
        ["zeros", "list or tuple of ints"],
    ),
    ("reshape to floats", lambda d: f(d).reshape([2.5, 3]), TypeError, ["reshape", "`shape`"]),
    (
        "repeat a fraction",
        lambda d: f(d).repeat_dim(0, 2.7),
        TypeError,
        ["repeat_dim", "`times`", "2.7"],
    ),
    ("power of a str", lambda d: f(d) ** "2", TypeError, ["powf", "real number", "'2'"]),
    ("a bool dim", lambda d: f(d).sum_dim(True), TypeError, ["sum_dim", "`dim`", "True"]),
    (
        "cat of a tensor",
        lambda d: Tensor.cat(f(d), 0),
        TypeError,
        ["cat", "`tensors`", "list or tuple"],
    ),
    ("cat of nothing", lambda d: Tensor.cat([], 0), ValueError, ["cat", "at least one"]),
    ("shape of letters", lambda d: Tensor.zeros("abc", device=d), TypeError, ["zeros", "'abc'"]),
    (
        "fill with a str",
        lambda d: Tensor.full([2], "x", device=d),
        TypeError,
        ["full", "`fill_value`", "'x'"],
    ),
    ("grad of None", lambda d: f(d).grad(None), TypeError, ["grad()", "Gradients", "NoneType"]),
    ("add a str", lambda d: f(d) + "a", TypeError, ["add", "real number", "'a'"]),
    ("negative size", lambda d: Tensor.zeros([2, -1], device=d), ValueError, ["zeros", "negative"]),
    ("a dim out of range", lambda d: f(d).sum_dim(5), ValueError, ["sum_dim", "`dim` 5", "rank 2"]),
    ("repeated dims", lambda d: f(d).permute([0, 0]), ValueError, ["permute", "repeats a dim"]),
    (
        "unknown mode",
        lambda d: module.interpolate(f(d, (1, 1, 2, 2)), 3, mode="cubic"),
        ValueError,
        ["interpolate", "`mode`", "nearest_exact"],
    ),
    (
        "stride of zero",
        lambda d: module.conv2d(f(d, (1, 1, 3, 3)), f(d, (1, 1, 2, 2)), stride=0),
        ValueError,
        ["conv2d", "stride must be non-zero"],
    ),
    (
        "stride of three ints",
        lambda d: module.conv2d(f(d, (1, 1, 3, 3)), f(d, (1, 1, 2, 2)), stride=(1, 1, 1)),
        ValueError,
        ["conv2d", "`stride`", "2 ints"],
    ),
    (
        "int weight",
        lambda d: module.linear(f(d), i(d)),
        TypeError,
        ["linear", "`weight`", "float()"],
    ),
    # shapes checked by us, not by the backend
    (
        "broadcast mismatch",
        lambda d: f(d) + f(d, (4,)),
        ValueError,
        ["add: ", "[2, 3]", "[4]", "broadcast"],
    ),
    (
        "matmul mismatch",
        lambda d: f(d) @ f(d, (4, 2)),
        ValueError,
        ["matmul: ", "[2, 3]", "[4, 2]"],
    ),
    (
        "mask mismatch",
        lambda d: f(d).mask_fill(f(d, (4,)).bool(), 1.0),
        ValueError,
        ["mask_fill: ", "[4]"],
    ),
    (
        "mask_where mismatch",
        lambda d: f(d).mask_where(f(d, (4,)).bool(), f(d)),
        ValueError,
        ["mask_where: ", "broadcast"],
    ),
    ("prelu mismatch", lambda d: f(d).prelu(f(d, (4,))), ValueError, ["prelu", "[4]"]),
    ("max of nothing", lambda d: f(d, (0, 3)).max(), ValueError, ["cannot reduce an empty", "[0]"]),
    (
        "transpose a vector",
        lambda d: f(d, (3,)).transpose(),
        ValueError,
        ["transpose: ", "out of range", "[3]"],
    ),
    (
        "gather on rank 0",
        lambda d: Tensor.from_data(1.0, device=d).gather(0, i(d, (0,))),
        ValueError,
        ["gather: ", "rank 0"],
    ),
    (
        "gather of another rank",
        lambda d: f(d).gather(1, i(d, (0,))),
        ValueError,
        ["gather: ", "`indices`", "rank"],
    ),
    (
        "cat of other shapes",
        lambda d: Tensor.cat([f(d), f(d, (1, 2))], 0),
        ValueError,
        ["cat: ", "every dim but dim 0"],
    ),
    (
        "reshape to other numel",
        lambda d: f(d).reshape([4, 2]),
        ValueError,
        ["reshape", "holds 8 elements", "[2, 3]"],
    ),
    # one behaviour on every backend
    (
        "int division by zero",
        lambda d: i(d) / 0,
        ZeroDivisionError,
        ["div: ", "division by zero"],
    ),
    (
        "int remainder by zero",
        lambda d: i(d) % i(d, (1, 0)),
        ZeroDivisionError,
        ["remainder: ", "division by zero"],
    ),
    (
        "int32 overflow",
        lambda d: i(d, dtype="int32") + 2**40,
        OverflowError,
        ["add", "int32", str(2**40)],
    ),
    (
        "data beyond int64",
        lambda d: Tensor.from_data([2**63], device=d),
        OverflowError,
        ["from_data", "int64"],
    ),
    (
        "ragged data",
        lambda d: Tensor.from_data([[1.0, 2.0], [3.0]], device=d),
        ValueError,
        ["from_data", "ragged"],
    ),
    (
        "beyond the address space",
        lambda d: Tensor.zeros([2**40, 2**40], device=d),
        MemoryError,
        ["zeros", "address"],
    ),
    (
        "beyond the memory",
        lambda d: Tensor.zeros([2**20, 2**20, 64], device=d),
        MemoryError,
        ["zeros", "bytes"],
    ),
    (
        "mixed float dtypes",
        lambda d: f(d) + Tensor.ones([2, 3], device=d, dtype="float64"),
        TypeError,
        ["dtypes differ", "float32", "float64"],
    ),
    ("float with int", lambda d: f(d, (2,)) + i(d), TypeError, ["cannot mix", "float()"]),
    (
        "class targets of one row",
        lambda d: module.cross_entropy_class_targets(f(d), i(d, (1,))),
        ValueError,
        ["cross_entropy_class_targets", "`targets` [batch]", "[1]"],
    ),
    (
        "class targets as a column",
        lambda d: module.cross_entropy_class_targets(f(d), i(d, (1, 2)).reshape([2, 1])),
        ValueError,
        ["cross_entropy_class_targets", "`targets` [batch]", "[2, 1]"],
    ),
]


@pytest.mark.parametrize("device", DEVICES, ids=list(DEVICES))
@pytest.mark.parametrize("call, error, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_misuse_gets_one_clear_error_and_the_graph_survives(device, call, error, words):
    d = DEVICES[device]
    tracked = "Autodiff" in repr(d)
    w = Tensor.from_data([[1.0, -2.0], [3.0, 0.5]], device=d)
    w = w.require_grad() if tracked else w
    before = (w * w).sum()  # a graph built before the mistake
    with pytest.raises(error) as caught:
        call(d)
    message = str(caught.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    for foreign in ("operands could not be broadcast", "The size of tensor", "invalid literal"):
        assert foreign not in message
    if tracked:
        np.testing.assert_allclose(w.grad(before.backward()).to_numpy(), 2 * w.to_numpy())


def test_the_same_message_on_every_backend():
    """A mistake reads the same on NumPy and Torch (the device name aside)."""
    for name, call, error, _ in CASES:
        messages = set()
        for backend in ("numpy", "torch"):
            with pytest.raises(error) as caught:
                call(DEVICES[backend])
            messages.add(str(caught.value).replace("Torch", "NumPy"))
        assert len(messages) == 1, (name, messages)


# -- what used to give a wrong value ------------------------------------------------------------


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_clamp_with_min_above_max_is_max_everywhere(backend):
    x = Tensor.from_data([-1.0, 0.5, 3.0], device=DEVICES[backend])
    np.testing.assert_array_equal(x.clamp(3.0, 1.0).to_numpy(), np.clip([-1.0, 0.5, 3.0], 3, 1))


@pytest.mark.parametrize("backend", ["numpy-autodiff", "torch-autodiff"])
def test_the_exponent_gradient_of_zero_to_a_positive_power_is_zero(backend):
    d = DEVICES[backend]
    base = Tensor.from_data([0.0, 2.0], device=d, dtype="float64")
    y = Tensor.from_data([1.5, 1.5], device=d, dtype="float64").require_grad()
    grad = y.grad(base.powf(y).sum().backward()).to_numpy()
    np.testing.assert_allclose(grad, [0.0, 2.0**1.5 * np.log(2.0)])  # the limit, not NaN


@pytest.mark.parametrize("backend", ["numpy-autodiff", "torch-autodiff"])
def test_grad_replace_checks_shape_dtype_and_device(backend):
    d = DEVICES[backend]
    w = Tensor.ones([2], device=d).require_grad()
    grads = (w * w).sum().backward()
    inner = Device.numpy() if backend.startswith("numpy") else Device.torch()
    other = Device.torch() if backend.startswith("numpy") else Device.numpy()
    with pytest.raises(ValueError, match="shape"):
        w.grad_replace(grads, Tensor.ones([3], device=inner))
    with pytest.raises(ValueError, match="dtype"):
        w.grad_replace(grads, Tensor.ones([2], device=inner, dtype="float64"))
    with pytest.raises(TypeError, match="plain float tensor of the"):
        w.grad_replace(grads, Tensor.ones([2], device=other))
    w.grad_replace(grads, Tensor.full([2], 7.0, device=inner))
    np.testing.assert_array_equal(w.grad(grads).to_numpy(), [7.0, 7.0])


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_square_of_a_float_tensor(backend):
    x = Tensor.from_data([-1.5, 2.0], device=DEVICES[backend])
    np.testing.assert_array_equal(x.square().to_numpy(), [2.25, 4.0])


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
def test_a_rank_0_scan_is_rank_0_on_every_backend(op):
    for backend in ("numpy", "torch"):
        out = getattr(Tensor.from_data(3.0, device=DEVICES[backend]), op)(0)
        assert out.shape == () and out.to_numpy() == 3.0
