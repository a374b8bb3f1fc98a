"""Backends chosen at run time: torch devices and names, moves between every pair of
backends and the gradients that flow back through them, the error of an op on two backends,
and torch as an optional extra."""

import itertools
import re
import sys

import numpy as np
import pytest

import background
import burnpy.generated.dispatch as dispatch
from burnpy.codegen.validate import DTYPES
from burnpy.runtime.dtypes import OP_DTYPES
from burnpy.generated import Device, Distribution, GradientCheckpointingStrategy, Tensor
from opinfo import BACKENDS, OPS, ROOT, devices
from burnpy.runtime.backends.registry import device_name
from burnpy.runtime.device import DispatchDevice

PAIRS = list(itertools.product(BACKENDS, repeat=2))
ACROSS = [(source, target) for source, target in PAIRS if source != target]
DATA = {
    "float": [[1.5, -2.0, 0.0], [0.25, 3.0, -0.5]],
    "int": [[1, -2, 0], [3, 0, 7]],
    "bool": [[True, False, False], [False, True, True]],
}


def _pair_ids(pair):
    return f"{pair[0]}->{pair[1]}"


# -- devices ---------------------------------------------------------------------------------


def _named(spec: str) -> Device:
    """The torch device `spec` names, as burn's LibTorchDevice, without asking torch whether it
    can use it (`Device.torch` asks: see test_from_pytorch.py)."""
    return Device(DispatchDevice("Torch", device_name("Torch", spec)))


def test_torch_devices_are_named_as_burns_libtorch_devices():
    """The names come from ops.yaml's device kinds."""
    assert repr(Device.torch()) == "Device<Torch(Cpu)>"
    assert repr(_named("cuda:0")) == "Device<Torch(Cuda(0))>"
    assert str(_named("CUDA:1")) == "Device<Torch(Cuda(1))>"
    assert repr(_named("cuda:0").autodiff()) == (
        "Device<Autodiff { device: Torch(Cuda(0)), checkpointing: Disabled }>"
    )
    assert _named("cuda") == _named("cuda:0") != Device.torch()
    assert Device.torch() == Device.torch().autodiff().gradient_checkpointing()
    assert hash(Device.torch()) == hash(Device.torch().autodiff())
    assert Device.torch() != Device.numpy() and Device.torch().autodiff() != Device.numpy()


@pytest.mark.parametrize("spec", ["mps", "cpu:0", "cuda:x", "", "cuda:-1"])
def test_a_device_the_backend_does_not_declare_is_refused(spec):
    with pytest.raises(ValueError, match=r"has no device .*'cpu', 'cuda:N'"):
        Device.torch(spec)


# -- moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("to_autodiff", [False, True], ids=["to-plain", "to-autodiff"])
@pytest.mark.parametrize("from_autodiff", [False, True], ids=["from-plain", "from-autodiff"])
@pytest.mark.parametrize("kind", DATA)
@pytest.mark.parametrize("pair", PAIRS, ids=_pair_ids)
def test_to_device_between_every_pair_of_backends(pair, kind, from_autodiff, to_autodiff):
    source = devices(pair[0])["autodiff" if from_autodiff else "plain"]
    target = devices(pair[1])["balanced" if to_autodiff else "plain"]
    for dtype in DTYPES[kind]:
        data = np.array(DATA[kind]).astype(dtype)  # -2 wraps in an unsigned dtype
        tensor = Tensor.from_data(data, device=source)
        moved = tensor.to_device(target)
        assert moved.device() == target and moved.is_autodiff() is to_autodiff
        assert moved.tensor_kind() is tensor.tensor_kind() and moved.dtype == dtype
        np.testing.assert_array_equal(moved.to_numpy(), data)
        # the moved tensor computes on the target backend
        if kind == "bool":
            np.testing.assert_array_equal((~moved).to_numpy(), ~data)
        elif dtype in OP_DTYPES[kind]:
            np.testing.assert_array_equal((moved * 2).to_numpy(), data * 2)
        else:  # a narrower Int width is held and reshaped, not computed on
            np.testing.assert_array_equal(moved.reshape([6]).to_numpy(), data.reshape(6))
        if to_autodiff and not (kind == "float" and from_autodiff):
            assert moved.gradient_checkpointing_strategy() is GradientCheckpointingStrategy.Balanced


@pytest.mark.parametrize("pair", PAIRS, ids=_pair_ids)
def test_an_autodiff_float_keeps_its_strategy_and_stays_tracked(pair):
    """burn: the moved tensor keeps the tensor's strategy; the target's is ignored."""
    w = Tensor.from_data([1.0, 2.0], device=devices(pair[0])["autodiff"]).require_grad()
    moved = w.to_device(devices(pair[1])["balanced"])
    assert moved.is_tracked() and not moved.is_require_grad()
    assert moved.gradient_checkpointing_strategy() is GradientCheckpointingStrategy.Disabled


@pytest.mark.parametrize("strategy", ["autodiff", "balanced"])
@pytest.mark.parametrize("pair", ACROSS, ids=_pair_ids)
def test_gradients_flow_back_to_each_leafs_backend(pair, strategy):
    """w lives on the source, v on the target; the graph crosses over and back:
    loss = sum(tanh(exp(w * 1) * v) * w). Each gradient lands on its own leaf's backend."""
    source, target = devices(pair[0]), devices(pair[1])
    w0 = np.array([[0.5, -1.0, 0.25], [1.5, 0.75, -0.5]])
    v0 = np.array([[1.0, 0.5, -2.0], [0.25, -0.5, 1.5]])
    w = Tensor.from_data(w0, device=source[strategy]).require_grad()
    v = Tensor.from_data(v0, device=target[strategy]).require_grad()
    h = (w * 1.0).exp()  # memory-bound on the source: Balanced recomputes it in backward
    crossed = (h.to_device(target[strategy]) * v).tanh()
    assert crossed.device() == target["plain"] and crossed.is_tracked()
    loss = (crossed.to_device(source[strategy]) * w).sum()
    grads = loss.backward()
    t = np.tanh(np.exp(w0) * v0)
    dw, dv = w.grad(grads), v.grad(grads)
    assert dw.device() == source["plain"] and not dw.is_autodiff()
    assert dv.device() == target["plain"] and not dv.is_autodiff()
    np.testing.assert_allclose(dw.to_numpy(), t + w0 * (1 - t**2) * v0 * np.exp(w0), rtol=1e-12)
    np.testing.assert_allclose(dv.to_numpy(), w0 * (1 - t**2) * np.exp(w0), rtol=1e-12)


@pytest.mark.parametrize("pair", ACROSS, ids=_pair_ids)
def test_a_broadcast_gradient_is_reduced_on_the_source_backend(pair):
    b = Tensor.from_data([0.5, -1.0, 2.0], device=devices(pair[0])["autodiff"]).require_grad()
    x = Tensor.ones([4, 3], device=devices(pair[1])["autodiff"])
    grads = (b.to_device(devices(pair[1])["autodiff"]) * x).sum().backward()
    np.testing.assert_array_equal(b.grad(grads).to_numpy(), [4.0, 4.0, 4.0])


# -- mixing ------------------------------------------------------------------------------------


def _mixes(a, b):
    """Two tensors of the same kind on the given devices, and an op on them."""
    return [
        (Tensor.from_data([1.0, 2.0], device=a), Tensor.from_data([3.0, 4.0], device=b), "mul"),
        (Tensor.from_data([[1.0]], device=a), Tensor.from_data([[3.0]], device=b), "matmul"),
        (Tensor.from_data([1, 2], device=a), Tensor.from_data([3, 4], device=b), "add"),
        (Tensor.from_data([True], device=a), Tensor.from_data([False], device=b), "bool_and"),
    ]


@pytest.mark.parametrize(
    "modes", [("plain", "plain"), ("autodiff", "plain"), ("plain", "autodiff")]
)
@pytest.mark.parametrize("pair", ACROSS, ids=_pair_ids)
def test_an_op_on_two_backends_names_both_devices(pair, modes):
    a, b = devices(pair[0])[modes[0]], devices(pair[1])[modes[1]]
    for lhs, rhs, method in _mixes(a, b):
        message = f"two backends: {lhs.device()} and {rhs.device()}; move one with"
        with pytest.raises(TypeError, match=re.escape(message)) as e:
            getattr(lhs, method)(rhs)
        assert repr(a.device) in str(e.value) and repr(b.device) in str(e.value)
    # the dispatch functions check it too, without the Tensor API in front
    lhs, rhs, _ = _mixes(a, b)[0]
    with pytest.raises(TypeError, match="two backends"):
        dispatch.float_mul(lhs, rhs)


# -- agreement on special values ---------------------------------------------------------------

# (det's square matrices are checked by its own spec's samples)
UNARY = [op for op in OPS if [a.type for a in op.args] == ["float"] and op.returns == ("float",) and op.contract != "square"]  # fmt: skip


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "numpy"])
@pytest.mark.parametrize("op", UNARY, ids=lambda op: op.name)
def test_backends_agree_on_nan_and_inf(op, backend):
    values = np.array([[np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]], dtype=np.float32)
    function = getattr(dispatch, op.name)
    with np.errstate(all="ignore"):
        expected = function(Tensor.from_data(values, device=devices("numpy")["plain"]))
    actual = function(Tensor.from_data(values, device=devices(backend)["plain"]))
    np.testing.assert_allclose(actual.to_numpy(), expected.to_numpy(), rtol=1e-6, atol=0)


# -- torch specifics -------------------------------------------------------------------------


def test_torch_autograd_records_nothing():
    """Our Autodiff differentiates; torch only computes: no primitive requires grad."""
    torch = pytest.importorskip("torch")
    w = Tensor.from_data([[0.5, 1.5]], device=devices("torch")["autodiff"]).require_grad()
    loss = (w.exp() * w).sum()
    grad = w.grad(loss.backward())
    for tensor in (w, loss, grad):
        primitive = tensor.inner_primitive()
        assert isinstance(primitive, torch.Tensor)
        assert not primitive.requires_grad and primitive.grad_fn is None
    np.testing.assert_allclose(grad.to_numpy(), np.exp([[0.5, 1.5]]) * [[1.5, 2.5]], rtol=1e-6)


def test_torch_data_is_copied_in_and_out():
    pytest.importorskip("torch")
    source = np.array([1.0, 2.0], dtype=np.float32)
    t = Tensor.from_data(source, device=Device.torch())
    source[0] = 99.0
    out = t.to_numpy()
    out[1] = -1.0
    assert t.tolist() == [1.0, 2.0]
    reversed_view = np.arange(4.0)[::-1]  # negative strides, which torch cannot wrap
    assert Tensor.from_data(reversed_view, device=Device.torch()).tolist() == [3.0, 2.0, 1.0, 0.0]


def test_seeded_random_on_torch():
    pytest.importorskip("torch")
    device = Device.torch()
    device.seed(7)
    first = Tensor.random([3], Distribution.normal(0.0, 1.0), device=device).tolist()
    device.seed(7)
    assert Tensor.random([3], Distribution.normal(0.0, 1.0), device=device).tolist() == first
    uniform = Tensor.random([1000], Distribution.uniform(2.0, 3.0), device=device).to_numpy()
    assert uniform.min() >= 2.0 and uniform.max() < 3.0
    half = Tensor.random([2], device=device.autodiff(), dtype="float16")
    assert half.dtype == np.float16 and half.is_autodiff()


# One fresh interpreter for the checks that need one: what `import burnpy.generated` loads, and the
# package without torch. Each line it prints is "<check> <result>".
FRESH = """
import sys
sys.modules["torch"] = None  # `import torch` now raises ImportError, as if it were not installed
from burnpy import generated
print("loaded", sorted(m for m in ("ml_dtypes", "scipy", "torch") if sys.modules.get(m)))
from burnpy.generated import Device, Tensor
assert Tensor.ones([2]).sum().item() == 2.0
assert (Tensor.ones([2, 3]) * 2.0).mean().item() == 2.0
print("used", sorted(m for m in ("ml_dtypes", "scipy") if sys.modules.get(m)))
half = Tensor.full([2], 1.5, dtype="bfloat16")  # the name parses: ml_dtypes imported now
print("bfloat16", half.dtype, half.to_numpy().astype("float32").tolist(), half.sum().item())
for make in (Device.torch, lambda: Device.of("torch", "cuda:0")):
    try:
        make()
    except ImportError as error:
        print("torch", error)
"""


_STARTED = {}


def start_in_background(config, names):
    """The fresh interpreter, started with the session (tests/background.py)."""
    if background.tests_taking(globals(), "fresh") & {*names}:
        command = [sys.executable, "-c", FRESH]
        _STARTED["fresh"] = background.start(config, lambda _: [command], 60, cwd=ROOT)


@pytest.fixture(scope="module")
def fresh() -> dict:
    job = _STARTED["fresh"]
    assert job.wait() == [0], job.output(0)
    lines = {}
    for line in job.output(0).splitlines():
        check, _, result = line.partition(" ")
        lines.setdefault(check, []).append(result)
    return lines


def test_neither_ml_dtypes_nor_scipy_is_imported_before_it_is_needed(fresh):
    """bfloat16 (ml_dtypes) and the special functions (scipy) are imported when first used:
    not by `import burnpy.generated`, nor by the first float32 tensors and their kernels."""
    assert fresh["loaded"] == ["[]"]
    assert fresh["used"] == ["[]"]
    assert fresh["bfloat16"] == ["bfloat16 [1.5, 1.5] 3.0"]


def test_without_torch_the_package_works_and_a_torch_device_names_the_extra(fresh):
    """Device.torch() fails at once, not at the first tensor, and says what to install."""
    lines = fresh["torch"]
    assert len(lines) == 2, lines
    for line in lines:
        assert "the Torch backend needs a library that is not installed (torch)" in line
        assert "install it with `pip install 'burnpy[torch]'`" in line


class _Counting:
    """A stand-in inner backend: every kernel the routing fetches is counted, then run."""

    def __init__(self, inner, calls):
        self._inner, self._calls = inner, calls

    def __getattr__(self, name):
        kernel = getattr(self._inner, name)
        if not callable(kernel):
            return kernel

        def counted(*args, **kwargs):
            self._calls.append(name)
            return kernel(*args, **kwargs)

        return counted


@pytest.mark.parametrize("autodiff", [False, True], ids=["plain", "tracked"])
def test_a_substitution_routes_tensors_made_before_it_and_is_undone_after(autodiff):
    """The dispatch functions read a tensor's routing table off its kind: a substitution must
    reach tensors that existed before it, and leave the shared table in place after it."""
    from burnpy.generated.backends import BACKENDS as ROUTING  # noqa: PLC0415

    device = Device.numpy().autodiff() if autodiff else Device.numpy()
    x, y = np.arange(6.0).reshape(2, 3), np.linspace(-1.0, 1.0, 3)
    a, b = Tensor.from_data(x, device=device), Tensor.from_data(y, device=device)
    shared, calls = ROUTING.NumPy, []
    with ROUTING.substitute("NumPy", _Counting(shared.inner, calls)):
        inside = a * b + a
        assert a.kind.routing is ROUTING.NumPy is not shared
    assert calls.count("float_mul") == 1 and calls.count("float_add") == 1
    assert a.kind.routing is ROUTING.NumPy is shared
    counted = len(calls)
    outside = a * b + a
    assert len(calls) == counted  # the stand-in is no longer called
    for out in (inside, outside):
        np.testing.assert_array_equal(out.to_numpy(), x * y + x)


def test_a_substitution_builds_an_autodiff_specialization_only_when_a_dispatch_asks(monkeypatch):
    """A substitution's table has Autodiff specializations of its own (over the stand-in, never
    the shared ones), each built the first time a dispatch reads it, then kept: a recording of
    untracked tensors (an export's trace) builds none."""
    from burnpy.generated.backends import BACKENDS as ROUTING  # noqa: PLC0415
    from burnpy.runtime import routing  # noqa: PLC0415

    shared, calls = ROUTING.NumPy, []
    counting = _Counting(shared.inner, calls)
    built, build = [], routing.new_autodiff_backend

    def counted(inner, strategy, autodiff):  # (a package's own table is over a stand-in of its own)
        if inner is counting:
            built.append(strategy)
        return build(inner, strategy, autodiff)

    monkeypatch.setattr(routing, "new_autodiff_backend", counted)
    plain = Tensor.from_data([1.0, 2.0], device=Device.numpy())
    tracked = Tensor.from_data([1.0, 2.0], device=Device.numpy().autodiff()).require_grad()
    with ROUTING.substitute("NumPy", counting):
        stand_in = ROUTING.NumPy
        plain * plain
        assert built == [] and calls == ["float_mul"]
        (tracked * tracked).sum().backward()
        assert built == [GradientCheckpointingStrategy.Disabled]
        assert stand_in.NoCheckpointing is stand_in.NoCheckpointing is not shared.NoCheckpointing
        assert stand_in.NoCheckpointing.inner is stand_in.inner
        assert stand_in.Balanced.strategy.recomputes and built[-1] is not built[0]
    assert ROUTING.NumPy is shared


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_plain_float_tensor_with_an_enabled_context_takes_the_routing(backend):
    """A Tensor method runs the plain path only for untracked plain float tensors; a bitcast on
    an autodiff device is a plain Float tensor that carries its device's Enabled context, and
    its product goes through the routing onto the autodiff kind, as a constant."""
    device = getattr(Device, backend)().autodiff()
    bits = np.array([1065353216, 1073741824], dtype=np.int32)  # 1.0 and 2.0 as float32
    x = Tensor.from_data(bits, device=device).bitcast()
    w = Tensor.from_data([3.0, -1.0], device=device).require_grad()
    for out in (x * x, x.mul(x), x @ x, x.sum()):
        assert out.kind.is_autodiff and out.device() == device
    product = x * w
    assert product.is_tracked()
    np.testing.assert_array_equal(product.to_numpy(), bits.view(np.float32) * [3.0, -1.0])
    np.testing.assert_array_equal(w.grad(product.sum().backward()).to_numpy(), [1.0, 2.0])
