"""The Torch backend keeps every tensor on its device: no kernel copies to the host or reads a
device value back to Python, so on a GPU an op only queues kernels. Without a GPU here, the CPU
stands in: a patched torch counts the calls that would be host round trips."""

import math
import re
import shutil
from contextlib import contextmanager

import numpy as np
import pytest

import burnpy.generated.dispatch as dispatch
from burnpy.generated import Device, Tensor
from opinfo import OPS, devices, float_inputs, samples
from burnpy.runtime.errors import IndexOutOfRange

torch = pytest.importorskip("torch")
torch_backend = pytest.importorskip("burnpy.runtime.backends.torch")

HOST_COPIES = ("cpu", "numpy")  # a GPU tensor's way to the host
HOST_READS = ("item", "tolist", "__bool__", "__int__", "__index__", "__float__")  # each syncs

# Ops that hand data to the host by definition (none is a kernel of the catalogue yet).
READS_DATA = frozenset()


@pytest.fixture
def calls(monkeypatch):
    """The calls made to each of HOST_COPIES while `calls.counting` is on."""

    class Calls(dict):
        counting = False

    made = Calls()
    for name in HOST_COPIES:
        original = getattr(torch.Tensor, name)

        def counted(self, *args, _name=name, _original=original, **kwargs):
            if made.counting:
                made[_name] = made.get(_name, 0) + 1
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(torch.Tensor, name, counted)
    return made


def _run(sample, device, differentiable):
    """The op forward, and its backward when the device records one."""
    names = float_inputs(sample) if differentiable else ()
    result, leaves = sample.call(device, requires_grad=names)
    if leaves:
        out = result[0] if isinstance(result, tuple) else result
        out.sum().backward()


@pytest.mark.parametrize(
    "op", [op for op in OPS if op.name not in READS_DATA], ids=lambda o: o.name
)
def test_no_kernel_copies_a_tensor_to_the_host(op, calls):
    differentiable = bool(op.autodiff) and "float" in op.returns
    for name, device in devices("torch").items():
        for dtype in op.dtypes:
            for sample in samples(op, dtype):
                calls.counting = True
                try:
                    _run(sample, device, differentiable and name != "plain")
                finally:
                    calls.counting = False
                assert not calls, f"{op.name} ({dtype}, {name}) copied to the host: {dict(calls)}"


# -- the index range checks --------------------------------------------------------------------


@contextmanager
def as_on_a_gpu():
    """The CPU taken for a device Python cannot read in place, and every read that would sync
    made an error: the range checks must then run on the device."""

    def refused(self, *args, **kwargs):
        raise AssertionError("a device value was read back to Python")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(torch_backend, "HOST_READABLE", frozenset())
        for name in HOST_READS + HOST_COPIES:
            patch.setattr(torch.Tensor, name, refused)
        yield


def _data():
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    return data, Tensor.from_data(data, device=Device.torch())


def _indices(values):
    return Tensor.from_data(np.asarray(values, dtype=np.int64), device=Device.torch())


def test_gather_select_and_scatter_check_their_indices_on_the_device():
    data, tensor = _data()
    picks, rows = _indices([[3, 0], [2, 2], [0, 1]]), _indices([2, 0])
    ones = Tensor.from_data(np.ones((3, 2), np.float32), device=Device.torch())
    with as_on_a_gpu():
        gathered = tensor.gather(1, picks)
        selected = tensor.select(0, rows)
        scattered = tensor.scatter(1, picks, ones, "add")
    expected_scatter = data.copy()
    for i, row in enumerate([[3, 0], [2, 2], [0, 1]]):
        for j in row:
            expected_scatter[i, j] += 1
    assert gathered.to_numpy().tolist() == [[3.0, 0.0], [6.0, 6.0], [8.0, 9.0]]
    assert selected.to_numpy().tolist() == [data[2].tolist(), data[0].tolist()]
    np.testing.assert_array_equal(scattered.to_numpy(), expected_scatter)


@pytest.mark.parametrize(
    "call, op",
    [
        (lambda t: t.gather(1, _indices([[0], [4], [1]])), "gather"),
        (lambda t: t.select(0, _indices([0, -1])), "select"),
        (
            lambda t: t.scatter(1, _indices([[5], [0], [0]]), t.slice([(0, 3), (0, 1)]), "add"),
            "scatter",
        ),
    ],
)
def test_a_bad_index_fails_the_device_side_check(call, op):
    # torch's assert raises at once on a CPU; on a GPU, at the next synchronizing call
    tensor = _data()[1]
    with as_on_a_gpu(), pytest.raises(RuntimeError, match=f"{op}: an index is out of range"):
        call(tensor)


def test_a_bad_index_on_the_cpu_is_named():
    with pytest.raises(IndexOutOfRange, match="index 4 is out of range for dim 1 of size 4"):
        _data()[1].gather(1, _indices([[0], [4], [1]]))
    with pytest.raises(IndexOutOfRange, match="index -1 is out of range for dim 0 of size 3"):
        _data()[1].select(0, _indices([0, -1]))


# -- kernels bound to torch's own -----------------------------------------------------------


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_relu_backward_passes_the_gradient_of_a_nan_output(backend):
    """burn masks where output <= 0: a NaN output is not masked (ATen's threshold_backward,
    which the Torch backend binds, agrees)."""
    output = np.array([np.nan, -1.0, 0.0, -0.0, 2.0, np.inf, -np.inf], dtype=np.float32)
    grad = np.array([1.0, 2.0, 3.0, 4.0, 5.0, np.inf, 7.0], dtype=np.float32)
    expected = np.array([g if not o <= 0 else 0.0 for o, g in zip(output, grad)], np.float32)
    device = devices(backend)["plain"]
    got = dispatch.relu_backward(
        Tensor.from_data(output, device=device), Tensor.from_data(grad, device=device)
    )
    np.testing.assert_array_equal(got.to_numpy(), expected)


def test_expand_to_a_shape_it_cannot_broadcast_to_is_a_value_error():
    tensor = Tensor.from_data(np.zeros((2, 3), np.float32), device=Device.torch())
    with pytest.raises(ValueError, match=r"shape \[2, 3\] cannot be broadcast to \[3, 3\]"):
        tensor.expand([3, 3])
    assert tensor.expand([4, 2, 3]).shape == (4, 2, 3)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float16", "float32"])
def test_full_sums_keep_the_dtype_and_burns_shape(dtype):
    values = np.array([[1, 2], [3, 4]], dtype=dtype)
    tensor = Tensor.from_data(values, device=Device.torch())
    total = tensor.sum()
    assert total.shape == (1,) and total.to_numpy().dtype == np.dtype(dtype)
    assert total.to_numpy().tolist() == [10]


def test_the_full_sum_runs_in_c_where_the_install_had_a_compiler():
    """torch_sum.c: a failed build would leave the Python function, silently slower."""
    if not any(map(shutil.which, ("cc", "gcc", "clang"))):
        pytest.skip("no C compiler here: the full sum is the Python function")
    assert type(torch_backend.TorchBackend.float_sum).__name__ == "FullSum"


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (2, 3), (0, 4)])
def test_the_c_full_sum_gives_what_its_python_function_gives(shape):
    """Each of its ways: sum_to_size's fresh result, and the function's for a 0-d input and a
    [1]-shaped one (which sum_to_size would hand back as it is)."""
    full_sum = torch_backend.TorchBackend.float_sum
    python = getattr(full_sum, "__wrapped__", full_sum)
    tensor = torch.arange(math.prod(shape), dtype=torch.float32).reshape(shape) - 0.5
    total = full_sum(tensor)
    assert total is not tensor and total.shape == (1,)
    assert torch.equal(total, python(tensor))
    assert total.item() == pytest.approx(float(np.sum(tensor.numpy(), dtype=np.float64)))


def test_the_c_full_sums_errors_are_its_python_functions():
    full_sum = torch_backend.TorchBackend.float_sum
    python = getattr(full_sum, "__wrapped__", full_sum)
    for args in ((np.ones(2),), (torch.ones(2), torch.ones(2)), ()):
        with pytest.raises(Exception) as raised:
            python(*args)
        with pytest.raises(type(raised.value), match=re.escape(str(raised.value))):
            full_sum(*args)
    assert full_sum.__name__ == "float_sum"


@pytest.mark.parametrize("shape", [(1,), (1, 1), (3,), (2, 3), (0,)])
def test_a_full_sum_is_torchs_in_a_buffer_of_its_own(shape):
    values = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) + 0.5
    tensor = Tensor.from_data(values, device=Device.torch())
    total = tensor.sum()
    expected = torch.sum(torch.from_numpy(values)).reshape(1)
    assert torch.equal(total.primitive, expected)
    # an input already of shape [1] is summed into a new tensor, not handed back
    assert (
        total.primitive.untyped_storage().data_ptr()
        != (tensor.primitive.untyped_storage().data_ptr())
        or not values.size
    )


@pytest.mark.parametrize(
    "values",
    [2.5, [-0.0], [[-0.0]], [1.0, float("nan")], [float("inf"), -float("inf")], [1e38, 1e38]],
)
def test_the_torch_backends_full_sum_is_torchs_full_reduction_in_burns_shape(values):
    """0-d and [1] inputs included (-0.0 sums to 0.0), NaN and ±inf, overflow."""
    tensor = torch.tensor(values)
    total = torch_backend.BACKEND.float_sum(tensor)
    expected = torch.sum(tensor).reshape(1)
    assert total.shape == (1,) and str(total.tolist()) == str(expected.tolist())


@pytest.mark.parametrize(
    "batch, d_in, d_out", [(64, 256, 10), (16, 512, 3), (1, 256, 10), (64, 96, 128)]
)
@pytest.mark.parametrize("lead", [(), (2,)])
def test_the_linear_kernels_products_are_numpys_and_row_major(lead, batch, d_in, d_out):
    """A narrow output (few columns, more rows) is computed transposed: the values and the
    row-major layout are a plain product's, over a matrix and over a stack of rows."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((*lead, batch, d_in)).astype(np.float32)
    grad = rng.standard_normal((*lead, batch, d_out)).astype(np.float32)
    weight = rng.standard_normal((d_in, d_out)).astype(np.float32)
    bias = rng.standard_normal(d_out).astype(np.float32)
    x64, grad64, weight64 = (a.astype(np.float64) for a in (x, grad, weight))
    backend, t = torch_backend.BACKEND, torch.from_numpy
    results = {
        "linear": (backend.linear(t(x), t(weight), t(bias)), x64 @ weight64 + bias),
        "x": (backend.linear_x_backward(t(weight), t(grad)), grad64 @ weight64.T),
        "weight": (
            backend.linear_weight_backward(t(x), t(grad)),
            x64.reshape(-1, d_in).T @ grad64.reshape(-1, d_out),
        ),
    }
    for name, (out, expected) in results.items():
        assert out.is_contiguous(), name
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-4, err_msg=name)
