"""burnpy.capture: a step recorded once and replayed as generated code must leave exactly what the
eager step leaves (np.array_equal: same kernels, same order), on both backends and both
checkpointing strategies, and refuse what it cannot replay."""

import linecache
import traceback
import types
import warnings

import numpy as np
import pytest

from burnpy import capture, nn, optim
from burnpy.nn.functional import cross_entropy
from examples import digits_cnn as example
from examples.digits_cnn import make_model, step_loss
from burnpy.generated import Device, Tensor, module
from burnpy.generated.backends import BACKENDS
from burnpy.runtime.autodiff import graph
from burnpy.runtime.autodiff.gradients import Gradients
from burnpy.runtime.autodiff.steps import Backward, JointBackward
from burnpy.runtime.backends.registry import backend_for

BACKEND_NAMES = ["numpy", "torch"]


def autodiff_device(backend: str, checkpointing: bool):
    if backend == "torch":
        pytest.importorskip("torch")
        device = Device.torch().autodiff()
    else:
        device = Device.numpy().autodiff()
    return device.gradient_checkpointing() if checkpointing else device


def mlp(device):
    Device.numpy().seed(0)  # the same initial weights for every copy
    layers = [
        nn.Linear(12, 16, device=Device.numpy()),
        nn.Relu(),
        nn.Linear(16, 5, device=Device.numpy()),
    ]
    return nn.Sequential(*layers).to_device(device)


def batches(device, shape, classes, count, seed=1):
    rng = np.random.default_rng(seed)
    return [
        (
            Tensor.from_data(rng.standard_normal(shape).astype(np.float32), device=device),
            Tensor.from_data(rng.integers(0, classes, shape[0]), device=device),
        )
        for _ in range(count)
    ]


def assert_same_training(model_a, opt_a, model_b, opt_b):
    """Equal parameters (require-grad leaves in both) and equal optimiser state, bit for bit."""
    for (name, a), (_, b) in zip(model_a.named_parameters(), model_b.named_parameters()):
        assert np.array_equal(a.to_numpy(), b.to_numpy()), name
        assert b.is_require_grad() and a.dtype == b.dtype
    for pid_a, pid_b in zip(model_a.param_ids(), model_b.param_ids()):
        state_a, state_b = opt_a.state.get(pid_a), opt_b.state.get(pid_b)
        assert (state_a is None) == (state_b is None)
        if state_a is None:
            continue
        assert list(state_a) == list(state_b)
        for key, value in state_a.items():
            other = state_b[key]
            if isinstance(value, Tensor):
                assert np.array_equal(value.to_numpy(), other.to_numpy()), key
                assert other.device() == value.device()
            else:
                assert type(other) is type(value) and other == value, key


OPTIMISERS = {
    "sgd_momentum": lambda: optim.SGD(0.05, momentum=0.9),
    "adam": lambda: optim.Adam(1e-2),
    "adamw": lambda: optim.AdamW(1e-2, weight_decay=0.01),
    "adam_clipped": lambda: optim.Adam(1e-2, weight_decay=1e-3, grad_clip_norm=0.5),
}


# Each optimiser's update on each backend; checkpointing changes the forward and backward only,
# so Balanced runs with the optimiser that records the most (decay, clipping, moments).
TRAINING_LOOPS = [(o, b, False) for o in OPTIMISERS for b in BACKEND_NAMES]
TRAINING_LOOPS += [("adam_clipped", b, True) for b in BACKEND_NAMES]


@pytest.mark.parametrize(
    "optimiser, backend, checkpointing",
    TRAINING_LOOPS,
    ids=[f"{o}-{b}-{'balanced' if c else 'no_ckpt'}" for o, b, c in TRAINING_LOOPS],
)
def test_training_loop_ends_with_the_eager_loops_parameters(optimiser, backend, checkpointing):
    device = autodiff_device(backend, checkpointing)
    eager_model, captured_model = mlp(device), mlp(device)
    eager_opt, captured_opt = OPTIMISERS[optimiser](), OPTIMISERS[optimiser]()
    step = capture(step_loss)
    for i, (x, y) in enumerate(batches(device, (6, 12), 5, 4)):
        lr = 0.05 / (i + 1)  # a new rate every step: an input, never re-recorded for
        eager_loss = step_loss(eager_model, eager_opt, lr, x, y)
        captured_loss = step(captured_model, captured_opt, lr, x, y)
        assert np.array_equal(eager_loss.to_numpy(), captured_loss.to_numpy()), i
        assert_same_training(eager_model, eager_opt, captured_model, captured_opt)
    # the first step (no optimiser state yet) and the others: two signatures, one recording each
    assert len(step.signatures) == 2
    assert all(len(recordings) == 1 for recordings in step._recordings.values())


@pytest.mark.parametrize("checkpointing", [False, True], ids=["no_ckpt", "balanced"])
@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_digits_cnn_step_is_bit_identical(backend, checkpointing):
    device = autodiff_device(backend, checkpointing)

    eager_model, captured_model = make_model(device, 0), make_model(device, 0)
    eager_opt, captured_opt = optim.Adam(3e-3), optim.Adam(3e-3)
    step = capture(step_loss)
    for x, y in batches(device, (4, 1, 8, 8), 10, 3):
        eager = step_loss(eager_model, eager_opt, 3e-3, x, y)
        captured = step(captured_model, captured_opt, 3e-3, x, y)
        assert np.array_equal(eager.to_numpy(), captured.to_numpy())
    assert_same_training(eager_model, eager_opt, captured_model, captured_opt)


def test_balanced_checkpointing_recomputations_are_recorded():
    device = Device.numpy().autodiff().gradient_checkpointing()
    w = Tensor.from_data(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), device=device)
    w = w.require_grad()

    def gradient(w, scale):  # a chain of memory-bound ops: recomputed during backward
        y = ((w * scale).exp() * w).tanh().sin()
        return w.grad((y * y).sum().backward())

    step = capture(gradient)
    for scale in (0.5, 0.7, 0.9):
        assert np.array_equal(step(w, scale).to_numpy(), gradient(w, scale).to_numpy())
    assert "recomputed" in step.source()


def _renamed(function, name: str):
    """`function` under another name, the same code: what a refactoring might leave."""
    code = function.__code__.replace(co_name=name, co_qualname=name)
    return types.FunctionType(
        code, function.__globals__, name, function.__defaults__, function.__closure__
    )


def test_labels_and_phases_are_told_by_the_runtime_not_read_from_names(monkeypatch):
    def step(model, opt, lr, x, y):
        loss = cross_entropy(model(x), y)
        loss = loss + loss * 0.5  # two gradients reach `loss`: a gradient sum
        opt.step(model, loss.backward(), lr=lr)
        return loss

    device = autodiff_device("numpy", checkpointing=True)
    ((x, y),) = batches(device, (6, 12), 5, 1)

    def source() -> str:
        captured = capture(step)
        captured(mlp(device), optim.Adam(1e-2), 1e-2, x, y)
        return captured.source()

    expected = source()
    for label in ("backward seed: ones", "relu recomputed", "gradient accumulated"):
        assert f"# {label}" in expected, label
    assert "# -- optimiser update" in expected
    # the helpers that run backward, its sums, its seed and an update, renamed: same code
    helpers = [(graph, "_ones"), (Gradients, "register"), (optim.Optimizer, "step")]
    helpers += [(Backward, "run"), (Backward, "recompute"), (JointBackward, "run")]
    for owner, name in helpers:
        monkeypatch.setattr(owner, name, _renamed(getattr(owner, name), f"renamed_{name}"))
    assert source() == expected


def test_buffers_and_random_masks_of_a_training_step_match_eager():
    device = Device.numpy().autodiff()

    def model():
        Device.numpy().seed(0)
        layers = [
            nn.Conv2d(2, 4, 3, padding=1, device=Device.numpy()),
            nn.BatchNorm(4, device=Device.numpy()),  # running statistics: buffers, updated
            nn.Relu(),
            nn.Dropout(0.3),
        ]
        return nn.Sequential(*layers).to_device(device)

    def step(model, opt, x):
        loss = model(x).mean()
        opt.step(model, loss.backward())
        return loss

    eager_model, captured_model = model(), model()
    eager_opt, captured_opt = optim.SGD(0.1, momentum=0.5), optim.SGD(0.1, momentum=0.5)
    captured = capture(step)
    rng = np.random.default_rng(0)
    for i in range(3):
        x = Tensor.from_data(rng.standard_normal((3, 2, 5, 5)).astype(np.float32), device=device)
        Device.numpy().seed(10 + i)
        eager = step(eager_model, eager_opt, x)
        Device.numpy().seed(10 + i)
        assert np.array_equal(
            captured(captured_model, captured_opt, x).to_numpy(), eager.to_numpy()
        )
        for (name, a), (_, b) in zip(eager_model.named_buffers(), captured_model.named_buffers()):
            assert np.array_equal(a.to_numpy(), b.to_numpy()), name
    assert_same_training(eager_model, eager_opt, captured_model, captured_opt)


def test_replays_do_not_run_the_step_function():
    device = Device.numpy().autodiff()
    calls = []

    @capture
    def step(x, w, scale):
        calls.append(1)
        loss = ((x @ w).relu() * scale).sum()
        grads = loss.backward()
        return loss, w.grad(grads)

    rng = np.random.default_rng(0)
    x = Tensor.from_data(rng.standard_normal((3, 4)).astype(np.float32), device=device)
    w = Tensor.from_data(rng.standard_normal((4, 2)).astype(np.float32), device=device)
    w = w.require_grad()
    for scale in (0.5, 2.0, -1.5):
        loss, grad = step(x, w, scale)
        expected_loss = ((x @ w).relu() * scale).sum()
        expected_grad = w.grad(expected_loss.backward())
        assert np.array_equal(loss.to_numpy(), expected_loss.to_numpy())
        assert np.array_equal(grad.to_numpy(), expected_grad.to_numpy())
    assert len(calls) == 1
    assert len(step.signatures) == 1


def test_gradients_result_is_keyed_by_the_input_leaves():
    device = Device.numpy().autodiff()
    rng = np.random.default_rng(2)
    w = Tensor.from_data(rng.standard_normal((3, 3)).astype(np.float32), device=device)
    w = w.require_grad()
    x = Tensor.from_data(rng.standard_normal((2, 3)).astype(np.float32), device=device)

    @capture
    def step(x, w):
        # w is read three times: its gradient is a sum, the third term added in place
        return ((x @ w) * (x @ w) + (x @ w).exp()).sum().backward()

    for _ in range(3):
        grads = step(x, w)
        expected = ((x @ w) * (x @ w) + (x @ w).exp()).sum().backward()
        assert np.array_equal(w.grad(grads).to_numpy(), w.grad(expected).to_numpy())
    assert "+=" in step.source()  # the in-place accumulation, recorded as such


def test_other_shapes_and_changed_modules_record_new_signatures():
    device = Device.numpy().autodiff()
    model = mlp(device)
    step = capture(lambda model, x: model(x).sum())
    x = Tensor.from_data(np.ones((2, 12), np.float32), device=device)
    step(model, x)
    step(model, x)
    assert len(step.signatures) == 1
    step(model, Tensor.from_data(np.ones((3, 12), np.float32), device=device))
    assert len(step.signatures) == 2
    model.fc = nn.Linear(5, 2, device=device)  # a module that holds one more layer
    step(model, x)
    assert len(step.signatures) == 3
    step(model.eval(), x)  # another mode
    assert len(step.signatures) == 4


def test_random_ops_draw_fresh_values_on_every_replay():
    device = Device.numpy().autodiff()
    dropout = nn.Dropout(0.5)
    x = Tensor.from_data(np.ones((4, 8), np.float32), device=device)
    step = capture(lambda x: dropout(x * 1.0))
    Device.numpy().seed(7)
    captured = [step(x).to_numpy() for _ in range(3)]
    Device.numpy().seed(7)
    eager = [dropout(x * 1.0).to_numpy() for _ in range(3)]
    for a, b in zip(captured, eager):
        assert np.array_equal(a, b)
    assert not np.array_equal(captured[1], captured[2])
    assert "float_random(" in step.source()


READS = {
    "x.sum().item()": "item\\(\\) reads a tensor's value \\(the output of float_sum\\)",
    "float(x.sum())": "float\\(t\\) reads a tensor's value \\(the output of float_sum\\)",
    "bool(x.sum() > 0)": "bool\\(t\\) reads a tensor's value \\(the output of float_greater_elem",
    "x.to_numpy()": "to_numpy\\(\\) reads a tensor's value",
    "x.tolist()": "tolist\\(\\) reads a tensor's value",
    "x[x > 2.0]": "t\\[mask\\] runs float_mask_select, which makes a result whose shape depends",
    "(x > 2.0).argwhere()": "argwhere\\(\\) runs bool_argwhere, which makes a result whose shape",
}


@pytest.mark.parametrize("body", list(READS))
def test_what_cannot_be_replayed_raises_capture_error(body):
    device = Device.numpy().autodiff()
    model = mlp(device)
    before = [p.to_numpy() for p in model.parameters()]
    x = Tensor.from_data(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    step = capture(eval(f"lambda x, model: {body}"))
    with pytest.raises(capture.CaptureError, match=READS[body]):
        step(x, model)
    assert isinstance(capture.CaptureError("x"), RuntimeError)
    # nothing half-changed: the seam is closed, the module holds its own tensors
    assert BACKENDS.NumPy.inner is backend_for("NumPy")
    assert type(backend_for("NumPy")).__name__ == "NumPyBackend"
    assert all(np.array_equal(p.to_numpy(), q) for p, q in zip(model.parameters(), before))


def test_fallback_runs_eagerly_and_warns_once():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.arange(4, dtype=np.float32), device=device)
    step = capture(lambda x: (x * 2.0, x.sum().item()), fallback=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [step(x) for _ in range(3)]
    assert [r[1] for r in results] == [6.0, 6.0, 6.0]
    assert np.array_equal(results[2][0].to_numpy(), np.arange(4, dtype=np.float32) * 2)
    assert len(caught) == 1 and "runs eagerly" in str(caught[0].message)


def test_source_names_values_after_ops_and_is_registered_for_tracebacks():
    device = Device.numpy().autodiff()
    model, opt = mlp(device), optim.Adam(1e-3)
    step = capture(step_loss)
    ((x, y),) = batches(device, (2, 12), 5, 1)
    step(model, opt, 1e-3, x, y)
    source = step.source()
    assert source == step.source(step.signatures[-1])
    assert "matmul_0 = float_matmul(" in source or "linear_0 = linear(" in source
    assert "# linear backward" in source and "# -- optimiser update" in source
    for forbidden in ("Tensor(", "Node(", "Gradients("):
        assert forbidden not in source
    recording = step._recordings[step.signatures[-1].key][-1]
    filename = recording.source.filename
    lines = source.splitlines()
    assert linecache.getline(filename, 1).rstrip("\n") == lines[0]
    assert linecache.getline(filename, len(lines)).rstrip("\n") == lines[-1]


def test_a_captured_step_called_by_one_being_recorded_is_part_of_its_recording():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.arange(4, dtype=np.float32), device=device)
    inner = capture(lambda x: x.exp())
    inner(x)  # recorded on its own first
    outer = capture(lambda x: inner(x * 2.0).sum())
    for _ in range(2):
        assert np.array_equal(outer(x).to_numpy(), (x * 2.0).exp().sum().to_numpy())
    assert "float_exp(" in outer.source()


def test_a_traceback_through_a_replay_shows_its_lines():
    device = Device.numpy().autodiff()
    model = mlp(device)
    step = capture(lambda model, x, y: cross_entropy(model(x), y))
    x = Tensor.from_data(np.ones((2, 12), np.float32), device=device)
    step(model, x, Tensor.from_data(np.array([0, 4]), device=device))
    # a class index out of range: the cross-entropy kernel's gather refuses
    with pytest.raises(IndexError) as raised:
        step(model, x, Tensor.from_data(np.array([0, 7]), device=device))
    shown = "".join(traceback.format_exception(raised.value))
    # (recorded, the forward is the kernel that keeps the probabilities for the backward)
    assert "<capture _lambda_ #" in shown and "cross_entropy_class_targets_keeping(" in shown


def test_a_tracked_non_leaf_argument_is_refused():
    device = Device.numpy().autodiff()
    w = Tensor.from_data(np.ones((2, 2), np.float32), device=device).require_grad()
    with pytest.raises(capture.CaptureError, match="takes leaves"):
        capture(lambda t: t * 2.0)(w * 3.0)


def test_the_digits_example_trains_the_same_with_capture(digits_smoke, capsys):
    captured = example.main(digits_smoke["args"] + ["--capture"])
    captured_out = capsys.readouterr().out.splitlines()
    assert captured == digits_smoke["accuracy"]  # bit-identical training: the same accuracy
    assert captured_out[-1] == digits_smoke["out"][-1]


def test_library_functions_on_recorded_arrays_are_recorded_as_calls():
    """Runtime code that calls numpy on primitives outside kernels (ufuncs with out=, np.where)
    is part of the recording too: the written function computes what numpy computes."""
    from burnpy.capture.recorder import Tape
    from burnpy.capture.writer import write

    tape = Tape()
    a, b = tape.bind(np.arange(4.0), "a"), tape.bind(np.ones(4), "b")
    total = np.add(a, b)
    np.add(total, np.where(a > 1, a, b), out=total)  # in place, into a recorded value
    reduced = np.add.reduce(total)
    written = write("f", tape.entries, [a, b], [total, reduced], {}, "<capture test>")
    x, y = np.linspace(-1, 2, 4), np.full(4, 0.5)
    expected = x + y + np.where(x > 1, x, y)
    got_total, got_reduced = written.function(x, y)
    assert np.array_equal(got_total, expected) and got_reduced == np.add.reduce(expected)
    assert "numpy_add(" in written.text and "out=(" in written.text
    for read in (np.asarray, np.array, float):  # the data itself cannot leave a recording
        with pytest.raises(capture.CaptureError, match="reads a tensor's value"):
            read(a)


def test_a_kernel_writing_into_its_argument_is_replayed_in_place():
    from burnpy.capture.recorder import RecordingBackend, Tape
    from burnpy.capture.writer import write
    from burnpy.runtime.indexing import IndexingUpdateOp

    inner = backend_for("NumPy")
    tape = Tape()
    recording = RecordingBackend(inner, tape)
    target = tape.bind(np.zeros(4, np.float32), "target")
    ones = tape.bind(np.ones(3, np.float32), "ones")
    rows = (np.array([0, 2, 2]),)  # a repeated row accumulates
    recording.index_update(target, rows, ones, IndexingUpdateOp.Add)  # writes into target
    doubled = recording.float_mul_scalar(target, 2.0)
    written = write(
        "f", tape.entries, [target, ones], [doubled], {"NumPy": inner}, "<capture test>"
    )
    fresh = np.zeros(4, np.float32)
    (got,) = written.function(fresh, np.ones(3, np.float32))
    assert np.array_equal(fresh, [1, 0, 2, 0])  # written into, as the eager kernel writes
    assert np.array_equal(got, [2, 0, 4, 0])
    assert "index_update(target, " in written.text


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_an_int_used_in_arithmetic_is_an_input(backend):
    device = autodiff_device(backend, False)
    rng = np.random.default_rng(3)
    x = Tensor.from_data(rng.standard_normal((3, 4)).astype(np.float32), device=device)
    w = Tensor.from_data(rng.standard_normal((4, 2)).astype(np.float32), device=device)
    w = w.require_grad()
    calls = []

    def body(x, w, epoch):
        loss = ((x @ w) * epoch).sum() * (0.1 / (1 + epoch)) + epoch
        return loss, w.grad(loss.backward()), epoch * 2

    @capture
    def step(x, w, epoch):
        calls.append(epoch)
        return body(x, w, epoch)

    for epoch in (1, 2, 7, 1000003):
        loss, grad, doubled = step(x, w, epoch)
        expected_loss, expected_grad, _ = body(x, w, epoch)
        assert np.array_equal(loss.to_numpy(), expected_loss.to_numpy())
        assert np.array_equal(grad.to_numpy(), expected_grad.to_numpy())
        assert type(doubled) is int and doubled == 2 * epoch
    assert calls == [1]  # recorded once, replayed for every other epoch
    assert len(step.signatures) == 1
    assert "def step(x, w, epoch):" in step.source()


def test_an_int_that_shapes_a_tensor_records_again_for_each_value():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.arange(24, dtype=np.float32).reshape(4, 6) / 7, device=device)
    calls = []

    def body(x, n, width):
        rows = x.reshape([n, -1]).sum_dim(1)
        columns = x[:, :width] * 2.0
        total = x.sum()
        for _ in range(width):  # `range` asks for the int
            total = total * 0.5
        return rows, columns, total

    @capture
    def step(x, n, width):
        calls.append((n, width))
        return body(x, n, width)

    for n, width in ((2, 3), (3, 3), (2, 3), (8, 5), (3, 3)):
        results = step(x, n, width)
        for got, expected in zip(results, body(x, n, width)):
            assert got.shape == expected.shape
            assert np.array_equal(got.to_numpy(), expected.to_numpy())
    # each new value recorded again (a guard on it failed), a seen one replayed
    assert calls == [(2, 3), (3, 3), (8, 5)]
    assert "if int(n) != 8:" in step.source()


def test_a_float_is_still_no_int_inside_a_captured_step():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.ones((2, 6), np.float32), device=device)
    step = capture(lambda x, n: x.reshape([n, 4]))
    with pytest.raises(TypeError, match="list or tuple of ints"):
        step(x, 3.0)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        capture(lambda x, n: [x for _ in range(n)])(x, 2.0)


def test_a_bool_argument_stays_part_of_the_signature():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.arange(6, dtype=np.float32), device=device)
    calls = []

    @capture
    def step(x, double):
        calls.append(double)
        return x * 2.0 if double else x * 3.0

    for double in (True, False, True, False):
        expected = x * 2.0 if double else x * 3.0
        assert np.array_equal(step(x, double).to_numpy(), expected.to_numpy())
    assert calls == [True, False]
    assert len(step.signatures) == 2


def test_a_kernel_returning_a_tuple_in_a_tuple_replays():
    """layer_norm's keeping forward returns (output, (mean, 1/std)): the statistics reach its
    backward through the replay too."""
    device = Device.numpy().autodiff()
    rng = np.random.default_rng(4)
    gamma = Tensor.from_data(rng.standard_normal(6), device=device).require_grad()

    def step(x):
        return gamma.grad(module.layer_norm(x, gamma, None, epsilon=1e-5).sum().backward())

    captured = capture.capture(step)
    for seed in (5, 6, 7):
        x = Tensor.from_data(np.random.default_rng(seed).standard_normal((3, 6)), device=device)
        np.testing.assert_allclose(
            captured(x).to_numpy(), step(x).to_numpy(), rtol=1e-12, atol=1e-14
        )
