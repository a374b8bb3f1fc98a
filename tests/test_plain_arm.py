"""The Tensor methods' plain arms in C (runtime/plain_arm.py): every call gives what the Python
method gives (its values, its kind, its errors), and the C arm is built wherever the install had
a C compiler."""

import gc
import inspect
import shutil
import sys

import numpy as np
import pytest

from burnpy import Device, Tensor
from burnpy.generated import QuantScheme, QuantValue
from burnpy.generated.backends import BACKENDS as ROUTING
from burnpy.runtime import plain_arm
from burnpy.runtime.dispatch import DISABLED

pytestmark = pytest.mark.skipif(
    not plain_arm.BUILT and not any(map(shutil.which, ("cc", "gcc", "clang"))),
    reason="no C compiler here: the install built no plain arms, and the methods run in Python",
)

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
Q8S = QuantScheme().with_value(QuantValue.Q8S)


def _arms() -> dict:
    return {
        name: method
        for name, method in vars(Tensor).items()
        if plain_arm.PlainArm is not None and type(method) is plain_arm.PlainArm
    }


def test_the_install_built_the_plain_arms():
    """A C compiler is here, so `make install` built the extension: a failed build would leave
    every method in Python, silently slower."""
    assert plain_arm.BUILT
    arms = _arms()
    for name in ("add", "sub", "mul", "div", "matmul", "neg", "sum", "mean", "exp", "log", "relu"):
        assert name in arms, name
    assert Tensor.__add__ is Tensor.add and Tensor.__matmul__ is Tensor.matmul


def _operands(n, dtype, device, seed=0):
    rng = np.random.default_rng(seed)
    values = [rng.uniform(0.1, 1.9, (4, 4)).astype(dtype) for _ in range(n)]
    return values, [Tensor.from_data(v, device=device) for v in values]


def _same(out, expected) -> None:
    assert type(out) is Tensor and out.kind is expected.kind and out.context is expected.context
    np.testing.assert_array_equal(out.to_numpy(), expected.to_numpy(), strict=True)


@pytest.mark.parametrize("backend", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_plain_arm_gives_the_python_methods_tensor(backend, dtype):
    """Each arm against the method it wraps, bit for bit, with the same kind and context."""
    device = DEVICES[backend]()
    for arm in _arms().values():
        _, tensors = _operands(arm.operands, dtype, device)
        out, expected = arm(*tensors), arm.__wrapped__(*tensors)
        _same(out, expected)
        assert out.context is DISABLED


@pytest.mark.parametrize("backend", DEVICES)
def test_the_commonest_ops_equal_numpy(backend):
    """The per-op bench's ops, through their arms, against numpy."""
    (x, y), (a, b) = _operands(2, np.float32, DEVICES[backend]())
    cases = {
        "a + b": (a + b, x + y),
        "a - b": (a - b, x - y),
        "a * b": (a * b, x * y),
        "a / b": (a / b, x / y),
        "a @ b": (a @ b, x @ y),
        "-a": (-a, -x),
        "a.exp()": (a.exp(), np.exp(x)),
        "a.sum()": (a.sum(), np.sum(x, keepdims=True).reshape(1)),
    }
    for text, (out, expected) in cases.items():
        assert out.shape == expected.shape, text
        np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-6, err_msg=text)


@pytest.mark.parametrize("backend", DEVICES)
def test_a_call_that_is_not_plain_is_the_methods(backend):
    """Tracked operands, a scalar, another dtype, another kind, a bound method read off a
    tensor, keywords, a dim given to a whole reduction: each is what the Python method gives."""
    device = DEVICES[backend]()
    (x, y), (a, b) = _operands(2, np.float32, device)
    w = Tensor.from_data(y, device=device.autodiff()).require_grad()
    tracked = Tensor.from_data(x, device=device.autodiff()) * w
    assert tracked.is_tracked()
    np.testing.assert_array_equal(w.grad(tracked.sum().backward()).to_numpy(), x)
    _same(a + 2.0, Tensor.add.__wrapped__(a, 2.0))
    _same(a.add(rhs=b), Tensor.add.__wrapped__(a, b))
    bound = a.add
    assert bound.__self__ is a
    _same(bound(b), a + b)
    i, j = (Tensor.from_data(v.astype(np.int64), device=device) for v in (x * 10, y * 10))
    np.testing.assert_array_equal(
        (i + j).to_numpy(), (x * 10).astype(np.int64) + (y * 10).astype(np.int64)
    )
    wide = Tensor.from_data(y.astype(np.float64), device=device)
    _same_outcome(lambda method: method(a, wide), Tensor.add)
    other = Tensor.from_data(y, device=DEVICES["torch" if backend == "numpy" else "numpy"]())
    _same_outcome(lambda method: method(a, other), Tensor.mul)
    with pytest.raises(TypeError, match="sum_dim"):
        a.sum(0)
    for arm in _arms().values():  # a receiver that is no Tensor: no slot of it is read
        _same_outcome(lambda method: method(*[3.0] * arm.operands), arm)


def _same_outcome(call, arm) -> None:
    """`call` through the arm and through the method it wraps: the same tensor, or the same
    error and message."""
    try:
        expected = call(arm.__wrapped__)
    except Exception as error:  # the method refuses: the arm must say the same
        with pytest.raises(type(error)) as raised:
            call(arm)
        assert str(raised.value) == str(error)
    else:
        _same(call(arm), expected)


@pytest.mark.parametrize("backend", DEVICES)
def test_a_kernel_that_refuses_raises_the_methods_error(backend):
    """Shapes that do not broadcast: the kernel raises in C, the method runs the call again and
    raises its own message, naming the op and both shapes."""
    device = DEVICES[backend]()
    a = Tensor.from_data(np.ones((2, 3), np.float32), device=device)
    b = Tensor.from_data(np.ones((4, 5), np.float32), device=device)
    for arm, call in ((Tensor.add, lambda m: m(a, b)), (Tensor.matmul, lambda m: m(a, b))):
        _same_outcome(call, arm)
    with pytest.raises(Exception, match=r"add: shapes `lhs` \[2, 3\] and `rhs` \[4, 5\]"):
        a + b


class _Interrupting:
    """A stand-in inner backend whose float_add is interrupted (Ctrl-C), counting its calls."""

    def __init__(self, inner):
        self._inner, self.calls = inner, 0

    def __getattr__(self, name):
        if name != "float_add":
            return getattr(self._inner, name)

        def interrupted(*args):
            self.calls += 1
            raise KeyboardInterrupt

        return interrupted


def test_an_interrupt_in_the_kernel_is_not_run_again():
    """Only an Exception hands the call to the method; a KeyboardInterrupt stops it at once."""
    a = Tensor.from_data(np.ones((2, 2), np.float32), device=Device.numpy())
    interrupting = _Interrupting(ROUTING.NumPy.inner)
    with ROUTING.substitute("NumPy", interrupting):
        with pytest.raises(KeyboardInterrupt):
            a + a
        assert interrupting.calls == 1
        np.testing.assert_array_equal((a * a).to_numpy(), np.ones((2, 2)))  # its kernel, via C


def test_an_arm_reads_as_its_method():
    """Help, signatures and editors see the method: its name, docstring and parameters."""
    arm = Tensor.add
    assert arm.__name__ == "add" and arm.__qualname__ == "Tensor.add"
    assert arm.__doc__ == arm.__wrapped__.__doc__ and "float_add" in arm.__doc__
    assert str(inspect.signature(arm)) == str(inspect.signature(arm.__wrapped__))
    assert Tensor.exp.__doc__ == "Element-wise e^x."
    assert "Tensor.add" in repr(arm)


@pytest.mark.parametrize("backend", DEVICES)
@pytest.mark.parametrize("balanced", [False, True], ids=["NoCheckpointing", "Balanced"])
def test_a_tracked_call_runs_its_strategys_recorder_in_c(backend, balanced, monkeypatch):
    """Tensors of one autodiff kind and context: the arm runs the routing's autodiff arm itself,
    the op of the context's specialization (Balanced keeps the output of two tracked inputs as
    a recipe), without the dispatch function, and the result trains as the method's."""
    import burnpy.generated.tensor as methods  # noqa: PLC0415
    from burnpy.runtime.autodiff.recording import COMPUTE_BOUND, MEMORY_BOUND  # noqa: PLC0415

    device = DEVICES[backend]().autodiff()
    device = device.gradient_checkpointing() if balanced else device
    (x, y), _ = _operands(2, np.float32, device)
    a, b = (Tensor.from_data(v, device=device).require_grad() for v in (x, y))
    calls, float_add = [], methods.float_add
    monkeypatch.setattr(methods, "float_add", lambda *t: calls.append(t) or float_add(*t))
    out = a + b
    assert calls == [] and out.is_tracked()
    assert out.primitive.node.properties is (MEMORY_BOUND if balanced else COMPUTE_BOUND)
    _same(out, Tensor.add.__wrapped__(a, b))
    grads = (out * a).sum().backward()
    np.testing.assert_allclose(a.grad(grads).to_numpy(), 2 * x + y, rtol=1e-6)
    np.testing.assert_allclose(b.grad(grads).to_numpy(), x, rtol=1e-6)


def test_a_quantized_pair_goes_to_the_ops_dispatch_function(monkeypatch):
    """Float tensors of one kind that are neither plain nor tracked: the arm calls the dispatch
    function the method names, found in the method's module."""
    import burnpy.generated.tensor as methods  # noqa: PLC0415

    (x, y), (a, b) = _operands(2, np.float32, Device.numpy())
    qa, qb = a.quantize_dynamic(Q8S), b.quantize_dynamic(Q8S)
    calls, float_add = [], methods.float_add
    monkeypatch.setattr(methods, "float_add", lambda *t: calls.append(t) or float_add(*t))
    out = qa + qb
    assert calls == [(qa, qb)]
    _same_outcome(lambda method: method(qa, qb), Tensor.add)
    np.testing.assert_allclose(out.dequantize().to_numpy(), x + y, atol=0.05)


@pytest.mark.parametrize("backend", DEVICES)
def test_a_refused_call_names_the_method_and_keeps_nothing_more_alive(backend):
    """A refusal on an arm's path runs the call again through the method, so the message names
    the user's call (`add`, not `float_add`), and the refused first try keeps nothing alive: no
    node, and no more references to the operands than the method's own refusal keeps (a frame
    that caught an error and raised another holds both in a cycle, which only the collector,
    off here, would free)."""
    from burnpy.runtime.autodiff import introspect  # noqa: PLC0415
    from burnpy.runtime.autodiff.node import next_id  # noqa: PLC0415

    device = DEVICES[backend]().autodiff()
    a = Tensor.from_data(np.ones((2, 3), np.float32), device=device).require_grad()
    wide = Tensor.from_data(np.ones((2, 3)), device=device)
    other = Tensor.from_data(np.ones((4, 5), np.float32), device=device)
    plain = [
        Tensor.from_data(np.ones(s, np.float32), device=device.inner()) for s in ((2, 3), (4, 5))
    ]
    refusals = [
        (TypeError, r"^add: dtypes differ \(float32 and float64\)", Tensor.add, (a, wide)),
        (ValueError, r"^matmul: cannot multiply `lhs` \[2, 3\]", Tensor.matmul, (a, other)),
        (ValueError, r"^add: shapes `lhs` \[2, 3\] and `rhs` \[4, 5\]", Tensor.add, plain),
    ]
    if backend == "numpy":  # a quantized pair: the dispatch function refuses (the routed path)
        quantized = [t.quantize_dynamic(Q8S) for t in plain]
        refusals.append((ValueError, r"^add: shapes", Tensor.add, quantized))
    gc.disable()  # what a refusal made must go by reference counts
    try:
        start = next_id()
        for error, message, arm, operands in refusals:
            kept = []
            for call in (arm.__wrapped__, arm):
                counts = [sys.getrefcount(t) for t in operands]
                with pytest.raises(error, match=message):
                    call(*operands)
                kept.append([sys.getrefcount(t) - n for t, n in zip(operands, counts)])
            assert kept[1] == kept[0], (message, kept)
        assert {node.id for node in introspect.live_nodes() if node.id > start} == set()
    finally:
        gc.enable()


def test_a_refusal_inside_an_except_block_leaves_the_handled_errors_frames_alone():
    """What a refused call frees stops at the error the caller is handling: that error's frames
    (a debugger's, a report's) keep their locals."""
    device = Device.numpy().autodiff()
    a = Tensor.from_data(np.ones((2, 3), np.float32), device=device).require_grad()

    def failing():
        kept = [1, 2, 3]  # noqa: F841  (read back through the traceback below)
        raise KeyError("the caller's")

    try:
        failing()
    except KeyError as handled:
        with pytest.raises(ValueError, match="^matmul: cannot multiply") as refused:
            a @ Tensor.from_data(np.ones((4, 5), np.float32), device=device)
        assert refused.value.__context__.__context__ is handled  # the kernel's error's
        assert handled.__traceback__.tb_next.tb_frame.f_locals == {"kept": [1, 2, 3]}


@pytest.mark.parametrize("balanced", [False, True], ids=["NoCheckpointing", "Balanced"])
def test_no_arm_enters_its_method_or_the_routing(balanced):
    """Every arm, plain and tracked, runs without a Python frame of the Tensor method or of the
    dispatch function: only the recorder and the kernels run in Python."""
    device = Device.numpy().autodiff()
    device = device.gradient_checkpointing() if balanced else device
    entered = []

    def watch(frame, event, arg):
        if event == "call":
            entered.append(frame.f_code.co_filename)

    for arm in _arms().values():
        values, plain = _operands(arm.operands, np.float32, Device.numpy())
        tracked = [Tensor.from_data(v, device=device).require_grad() for v in values]
        for tensors in (plain, tracked):
            entered.clear()
            sys.setprofile(watch)
            try:
                out = arm(*tensors)
            finally:
                sys.setprofile(None)
            assert out.is_tracked() is (tensors is tracked), arm
            skipped = [
                f for f in entered if f.endswith(("tensor.py", "_ops.py")) and "generated" in f
            ]
            assert skipped == [], (arm, skipped)
