"""capture(fn, compile=True): the fused C kernels against the backend's own kernels (NaN and ±inf
included), a compiled training step against the uncompiled replay over steps, the readable
source, the memory plan, and the replay without a compiler or after a failed build. The kernels
are built once per test session into a temporary cache."""

import os
import re
import shutil
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

import background
from burnpy import capture, nn, optim
from burnpy.capture import compiler, csource, fusion, toolchain, writer
from burnpy.capture.recorder import Entry, EntryKind, Tape, Value
from burnpy.nn import functional as F
from burnpy.generated import Device, Tensor
from burnpy.runtime.backends import numpy_winograd
from burnpy.runtime.backends.registry import backend_for
from test_conv_winograd import taken  # noqa: F401  (the fixture: how Winograd's calls went)

pytestmark = pytest.mark.skipif(
    shutil.which("gcc") is None and shutil.which("cc") is None,
    reason="needs a C compiler (the replay without one is tested by hiding it from PATH)",
)
ROOT = Path(__file__).resolve().parent.parent
TOLERANCE = {np.float32: dict(rtol=1e-5, atol=1e-6), np.float64: dict(rtol=1e-12, atol=1e-13)}


# Every fused kernel of both dtypes, built into this module's cache by a child process started
# with the session (tests/background.py), one compiler at a time: the tests' own core is not
# taken. Only when a test that calls them all is selected: otherwise (a few tests picked) each
# test builds what it calls. A step's element-wise chains are the tests' to build.
BUILD_ALL = """
import os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.environ["BURNPY_CACHE"] = sys.argv[1]
from burnpy.capture import compiler
for dtype in ("float32", "float64"):
    compiler.library(dtype)
"""
CALLS_THEM_ALL = "test_each_fused_kernel_gives_the_backends_values_nan_and_inf_included"
_STARTED = {}


def start_in_background(config, names):
    if CALLS_THEM_ALL in names and (shutil.which("gcc") or shutil.which("cc")):

        def command(folder):
            return [[sys.executable, "-c", BUILD_ALL, str(folder / "cache")]]

        _STARTED["kernels"] = background.start(config, command, 600, cwd=ROOT)


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory):
    """The kernels of this module's tests, built once into a cache of their own."""
    job = _STARTED.get("kernels")
    if job is None:
        folder = tmp_path_factory.mktemp("kernels")
    else:
        assert job.wait() == [0], job.output(0)
        folder = job.folder / "cache"
    old = os.environ.get("BURNPY_CACHE")
    os.environ["BURNPY_CACHE"] = str(folder)
    yield
    if old is None:
        del os.environ["BURNPY_CACHE"]
    else:
        os.environ["BURNPY_CACHE"] = old


# -- each fused kernel against the backend's kernel, NaN and ±inf included --------------------


def special(dtype, shape=(6, 8), seed=0):
    """Values with NaN, +inf and -inf in rows of their own, huge and tiny ones, and plain ones."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    x[0, 3] = np.nan
    x[1, 1] = np.inf
    x[2, 5] = -np.inf
    x[3, :4] = [1e4, 30.0, -30.0, 1e-30]
    x[4, :3] = [0.0, -0.0, -1e4]
    return x


def kernel_cases(dtype):
    """(kernel, args, kwargs) calls of every fused pattern on special values."""
    backend = backend_for("NumPy")
    rng = np.random.default_rng(1)
    x, grad = special(dtype), special(dtype, seed=2)
    gamma = rng.standard_normal(8).astype(dtype)
    beta = rng.standard_normal(8).astype(dtype)
    _, kept = backend.layer_norm_keeping(x, gamma, beta, 1e-5)
    with np.errstate(invalid="ignore"):
        _, inverse_rms = backend.rms_norm_keeping(x, gamma, 1e-5)
    probabilities = backend.softmax(x, 1)
    moments = [np.abs(special(dtype, seed=s)) for s in (3, 4)]
    adam = dict(lr=1e-2, beta_1=0.9, beta_2=0.999, epsilon=1e-8)
    corrections = dict(bias_correction_1=0.19, bias_correction_2=0.002)
    sgd = dict(lr=0.1, momentum=0.9, dampening=0.1, weight_decay=1e-3)
    tanh_gelu = [  # the tanh GELU, on backends that have it as a kernel of its own
        ("gelu_approximate", (x,), {}),
        ("gelu_approximate_keeping", (x,), {}),
        ("gelu_approximate_backward", (x, grad), {}),
    ]
    targets = np.array([0, 7, 3, 3, 5, 1])
    ones = np.ones(1, dtype)
    _, kept_probabilities = backend.cross_entropy_class_targets_keeping(x, targets)
    # [N, C, *spatial]: channels 0 to 2 with NaN, +inf, -inf and the huge values, channel 3 plain
    plain = rng.standard_normal((2, 1, 8)).astype(dtype)
    images = np.concatenate([x.reshape(2, 3, 8), plain], axis=1).reshape(2, 4, 2, 4)
    images_grad = special(dtype, (8, 8), seed=6).reshape(2, 4, 2, 4)
    gamma_c, beta_c, mean_c = (rng.standard_normal(4).astype(dtype) for _ in range(3))
    variance_c = np.abs(rng.standard_normal(4)).astype(dtype)
    with np.errstate(invalid="ignore"):
        _, batch_mean, batch_variance = backend.batch_norm_training(images, gamma_c, beta_c, 1e-5)
    statistics_grads = (images_grad, gamma_c * 0.5, beta_c * 0.25)
    # a depthwise convolution's (groups == channels) odd planes: NaN, ±inf and a huge value in
    # channels 0 to 2, and a kernel with an inf (the padding's zeros times it are NaN)
    planes = rng.standard_normal((2, 4, 5, 7)).astype(dtype)
    planes[0, 0, 2, 3], planes[1, 1, 0, 0], planes[0, 2, 4, 6], planes[1, 2, 1, 1] = (
        np.nan,
        np.inf,
        -np.inf,
        1e4,
    )
    kernels = [rng.standard_normal((4, 1, k, k)).astype(dtype) for k in (3, 5)]
    infinite = kernels[0].copy()
    infinite[2, 0, 1, 2] = np.inf
    depthwise = [  # (weight, bias, stride, padding, dilation, padding_end)
        (kernels[0], beta_c, (1, 1), (1, 1), (1, 1), None),
        (kernels[1], None, (1, 1), (2, 2), (1, 1), None),
        (kernels[1], beta_c, (2, 2), (2, 2), (1, 1), None),
        (kernels[0], None, (2, 1), (1, 0), (2, 1), (0, 2)),
        (infinite, beta_c, (1, 2), (1, 1), (1, 1), None),
    ]
    # a convolution of few input channels, and max pools, of planes' own size (3x3, stride 1,
    # padding 1: the plan may write the result over the planes) and smaller
    few = rng.standard_normal((4, 4, 3, 3)).astype(dtype)
    same, halved = ((3, 3), (1, 1), (1, 1), (1, 1), False), ((3, 3), (2, 2), (1, 1), (1, 1), True)
    _, pooled_at = backend.max_pool2d_with_indices(planes, *same)
    three, uneven = np.ascontiguousarray(planes[:, :3]), ((2, 1), (0, 2), (1, 1), 1, None)
    pooled_grad = special(dtype, (8, 35), seed=7).reshape(2, 4, 5, 7)
    return [
        *(
            ("conv2d", (planes, weight, bias, stride, padding, dilation, 4, end), {})
            for weight, bias, stride, padding, dilation, end in depthwise
        ),
        ("conv2d", (planes, few, beta_c, (1, 1), (1, 1), (1, 1), 1, None), {}),
        ("conv2d", (three, np.ascontiguousarray(few[:, :3]), None, *uneven), {}),
        ("max_pool2d_with_indices", (planes, *same), {}),
        ("max_pool2d_with_indices", (planes, *halved), {}),
        ("max_pool2d", (planes, *halved), {}),
        ("max_pool2d_keeping", (planes, *same), {}),
        ("max_pool2d_with_indices_backward", (planes, *same, pooled_grad, pooled_at), {}),
        ("float_mean_dim", (x, 1), {}),
        ("batch_norm", (images, gamma_c, beta_c, mean_c, variance_c, 1e-5), {}),
        ("batch_norm_training", (images, gamma_c, beta_c, 1e-5), {}),
        ("batch_norm_training", (plain, gamma_c[:1], beta_c[:1], 1e-5), {}),
        (
            "batch_norm_training_backward",
            (images, gamma_c, (images_grad, None, None), batch_mean, batch_variance, 1e-5),
            {},
        ),
        (
            "batch_norm_training_backward",
            (images, gamma_c, statistics_grads, mean_c, variance_c, 1e-5, (True, False, True)),
            {},
        ),
        (
            "cross_entropy_class_targets_backward",
            (x, targets, ones * 0.5),
            dict(probabilities=kept_probabilities),
        ),
        *(case for case in tanh_gelu if hasattr(backend, case[0])),
        ("sgd_step", (special(dtype, seed=5), grad, moments[0]), dict(**sgd, nesterov=True)),
        ("sgd_step", (special(dtype, seed=5), grad, moments[0]), dict(**sgd, nesterov=False)),
        (
            "sgd_step",
            (special(dtype, seed=5), grad, None),
            dict(lr=0.1, momentum=0.0, dampening=0.0, weight_decay=1e-3, nesterov=False),
        ),
        ("gelu", (x,), {}),
        ("gelu_keeping", (x,), {}),
        ("gelu_backward", (x, grad), {}),
        ("layer_norm", (x, gamma, None, 1e-5), {}),
        ("layer_norm_keeping", (x, gamma, beta, 1e-5), {}),
        ("layer_norm_backward", (x, gamma, grad, 1e-5), {}),
        ("layer_norm_backward", (x, gamma, grad, 1e-5, (True, True, True), kept), {}),
        ("rms_norm", (x, gamma, 1e-5), {}),
        ("rms_norm_keeping", (x, gamma, 1e-5), {}),
        ("rms_norm_backward", (x, gamma, grad, 1e-5), {}),
        ("rms_norm_backward", (x, gamma, grad, 1e-5, (True, False), inverse_rms), {}),
        ("rms_norm_backward", (x, gamma, grad, 1e-5, (False, True), inverse_rms), {}),
        ("softmax", (x, 1), {}),
        ("log_softmax", (x, -1), {}),
        ("softmax_backward", (probabilities, grad, 1), {}),
        ("clip_by_norm", (grad, 1.0), {}),
        ("clip_by_norm", (np.nan_to_num(grad, posinf=0, neginf=0, nan=0), 1.0), {}),
        (
            "adam_step",
            (special(dtype, seed=5), grad, *moments, None),
            dict(**adam, weight_decay=0.1, **corrections, decoupled=True),
        ),
        (
            "adam_step",
            (special(dtype, seed=5), grad, None, None, None),
            dict(**adam, weight_decay=0.1, **corrections),
        ),
    ]


def _wrapped(value, arrays):
    if isinstance(value, np.ndarray):
        arrays.append(Value(value, None, f"v{len(arrays)}"))
        return arrays[-1]
    if type(value) in (tuple, list):
        return type(value)(_wrapped(v, arrays) for v in value)
    if type(value) is dict:
        return {key: _wrapped(v, arrays) for key, v in value.items()}
    return value


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_fused_kernel_gives_the_backends_values_nan_and_inf_included(dtype):
    backend = backend_for("NumPy")
    calls = []
    fused_entry_outputs = {}  # each call's recorded results, as Values
    for kernel, args, kwargs in kernel_cases(dtype):
        with np.errstate(all="ignore"):
            expected = getattr(backend, kernel)(*args, **kwargs)
        values: list = []
        entry = Entry(
            EntryKind.CALL,
            kernel,
            _wrapped(args, values),
            _wrapped(kwargs, values),
            _wrapped(expected, values),
            kernel,
            "forward",
            "NumPy",
        )
        fused = fusion.fuse(entry, backend)
        assert fused is not None, f"{kernel} was not fused"
        fusion.check_arguments(fused)  # its arguments fit its C parameters, in order
        calls.append((kernel, fused, entry.out))
    _assert_the_kernels_give(calls, dtype)


def _assert_the_kernels_give(calls, dtype):
    """Each (label, Fused, the recorded results as Values) call's kernel gives those results,
    with its outputs in new arrays and in each input's array the plan could give them."""
    library = compiler.library(np.dtype(dtype).name)
    for label, fused, recorded in calls:
        for in_place in _in_place_choices(fused):
            # each output in a new array, or (as the plan may have it) in an input's array
            written = {id(v): np.full_like(v.data, 7.0) for v in fused.outputs}
            for output, source in in_place.items():
                written[id(output)] = source.data.copy().reshape(output.data.shape)
            arrays = {id(source): written[id(o)] for o, source in in_place.items()}
            # (the compiled step makes a C-contiguous copy of each of `copies` first)
            arrays.update((id(v), np.ascontiguousarray(v.data)) for v in fused.copies)
            args = [
                written.get(id(a), arrays.get(id(a), getattr(a, "data", a))) for a in fused.args
            ]
            library[fused.name](*args)
            for alias, source in fused.aliases:
                written[id(alias)] = written[id(source)]
            for value in _flat(recorded):
                np.testing.assert_allclose(
                    written[id(value)],
                    value.data,
                    **TOLERANCE[dtype],
                    err_msg=f"{label}, in place of {[s.name for s in in_place.values()]}",
                )


def test_the_max_pool_kernel_is_torchs_over_every_window_geometry():
    """max_pool2d's C kernel, the two passes over rows then columns (undilated windows) and the
    window-by-window loops (dilated ones, planes with a NaN), against torch's values and
    indices: windows of 1 to 4, strides 1 to 3, paddings up to half a window, ceil mode, on
    planes of small integers (ties in every window) with a plane of -inf (its indices 0, burn's
    choice, where torch has each window's first) and one with a NaN."""
    torch = pytest.importorskip("torch")
    kernel = compiler.library("float32")["max_pool2d_f32"]
    rng = np.random.default_rng(3)
    cases = 0
    for k, stride, dilation, ceil in np.ndindex(4, 3, 2, 2):
        k, stride, dilation = k + 1, stride + 1, dilation + 1
        for pad in range(k // 2 + 1):
            h, w = rng.integers(k * dilation, 13, size=2)
            x = rng.integers(-3, 3, (3, 2, h, w)).astype(np.float32)
            x[0, 1] = -np.inf
            x[1, 0, h // 2, w // 2] = np.nan
            want, want_at = torch.nn.functional.max_pool2d(
                torch.from_numpy(x), k, stride, pad, dilation, bool(ceil), True
            )
            ho, wo = want.shape[-2:]
            out = np.full((6, ho, wo), 7.0, np.float32)
            at = np.full((6, ho, wo), -1, np.int64)
            planes = x.reshape(6, h, w)
            geometry = (6, h, w, ho, wo, k, k, stride, stride, pad, pad, dilation, dilation, 1)
            kernel(*geometry, planes, out, at)
            where = f"window {k}, stride {stride}, padding {pad}, dilation {dilation}"
            np.testing.assert_array_equal(out.reshape(want.shape), want.numpy(), err_msg=where)
            at = at.reshape(want.shape)
            assert (
                at[0, 1] == 0
            ).all(), where  # a window of -inf only: 0, burn's (torch's: its first)
            at[0, 1] = want_at[0, 1]
            np.testing.assert_array_equal(at, want_at.numpy(), err_msg=where)
            values_only = np.full_like(out, 7.0)
            kernel(*geometry, planes, values_only, None)
            np.testing.assert_array_equal(values_only, out, err_msg=where)
            cases += 1
    assert cases == 96


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_fused_batch_norm_sums_are_the_backends_bit_for_bit(dtype):
    """A channel's statistics and its gradient's sums in numpy's own order: rows of under 8,
    of 8 to 128 and of over 128 values (split in halves), one value a row."""
    backend, library = backend_for("NumPy"), compiler.library(np.dtype(dtype).name)
    suffix = csource.SUFFIXES[np.dtype(dtype).name]
    rng = np.random.default_rng(7)
    for shape in [(5, 3, 1), (4, 3, 2, 3), (3, 2, 7, 9), (2, 2, 17, 21), (6, 4)]:
        x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
        grad = rng.standard_normal(shape).astype(dtype)
        gamma, beta = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
        n, c, s = shape[0], shape[1], x.size // (shape[0] * shape[1])
        out, mean, variance = np.empty_like(x), np.empty_like(gamma), np.empty_like(gamma)
        library[f"batch_norm_training_{suffix}"](n, c, s, x, gamma, beta, 1e-5, out, mean, variance)
        expected = backend.batch_norm_training(x, gamma, beta, 1e-5)
        for got, want in zip((out, mean, variance), expected):
            np.testing.assert_array_equal(got, want, err_msg=f"forward {shape}")
        dx, dgamma, dbeta = np.empty_like(x), np.empty_like(gamma), np.empty_like(gamma)
        arrays = (x, gamma, grad, None, None, mean, variance)
        library[f"batch_norm_training_backward_{suffix}"](n, c, s, *arrays, 1e-5, dx, dgamma, dbeta)
        expected = backend.batch_norm_training_backward(
            x, gamma, (grad, None, None), mean, variance, 1e-5
        )
        for got, want in zip((dx, dgamma, dbeta), expected):
            np.testing.assert_array_equal(got, want, err_msg=f"backward {shape}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_embedding_gradient_kernel_is_the_backends_bit_for_bit(dtype):
    """Each index's rows summed in numpy's order (np.add.reduceat's: the first row plus the
    pairwise sum of the rest): runs of one row, of under 8, of 8 to 128 and of over 128 rows,
    NaN, ±inf and signed zeros in them, rows no index reads; the output written over the rows'
    own buffer (the plan may give it them when there are as many rows as the vocabulary); an
    index outside the vocabulary never written (the forward raised on it before)."""
    backend, library = backend_for("NumPy"), compiler.library(np.dtype(dtype).name)
    kernel = library[f"embedding_backward_{csource.SUFFIXES[np.dtype(dtype).name]}"]
    rng = np.random.default_rng(5)
    for vocab, n, d in [(5, 0, 3), (1, 1, 1), (9, 7, 4), (40, 40, 3), (7, 300, 5), (64, 1024, 8)]:
        indices = rng.integers(0, max(vocab - 1, 1), n)  # (the last row: read by none)
        indices[: n // 2] = 0  # one long run
        indices[n // 2 : n // 2 + 20] = min(1, vocab - 1)  # one of 8 to 128 rows
        rows = (rng.standard_normal((n, d)) * 10.0 ** rng.integers(-6, 6, (n, d))).astype(dtype)
        if n > 8:
            rows[0, 0], rows[1, 1], rows[2, 2 % d], rows[n - 1, 0] = np.nan, np.inf, -np.inf, -0.0
            rows[indices == indices[-2]] = -0.0  # a run of -0.0 only: -0.0, as numpy sums it
        want = backend.embedding_backward(np.zeros((vocab, d), dtype), rows, indices)
        for over_rows in (False, True) if n == vocab else (False,):
            out = rows.copy() if over_rows else np.full((vocab, d), 7.0, dtype)
            kernel(n, d, vocab, indices, out if over_rows else rows, out)
            where = f"vocabulary {vocab}, {n} rows{' (over them)' if over_rows else ''}"
            np.testing.assert_array_equal(out, want, err_msg=where)
            np.testing.assert_array_equal(np.signbit(out), np.signbit(want), err_msg=where)
    rows = np.ones((4, 2), dtype)
    out = np.full((3, 2), 7.0, dtype)
    kernel(4, 2, 3, np.array([0, 3, -1, 2]), rows, out)
    np.testing.assert_array_equal(out, [[1, 1], [0, 0], [1, 1]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_fused_cross_entropy_is_the_backends_bit_for_bit(dtype):
    """cross-entropy's fused calls (the C kernels around numpy's exp, BLAS's row sums and
    numpy's log), run in the order the compiled step runs them, give the backend's loss and
    probabilities bit for bit, with and without the probabilities kept: one row and many (the
    mean's pairwise sum over under 8, 8 to 128 and over 128 rows), one class and many, NaN,
    ±inf and huge values."""
    backend = backend_for("NumPy")
    rng = np.random.default_rng(4)
    for rows, d, special in [(1, 10, 0), (7, 1, 0), (9, 33, 0), (130, 10, 0), (300, 1000, 0)] + [
        (6, 8, 1),
        (300, 20, 1),
    ]:
        scale = 10.0 ** rng.integers(-2, 3, (rows, d))
        logits = (rng.standard_normal((rows, d)) * scale).astype(dtype)
        if special:  # (a NaN makes the loss NaN: the sum's order is checked without them)
            logits[0, 0], logits[1, d - 1], logits[2, 0], logits[3, :] = (
                np.nan,
                np.inf,
                -np.inf,
                1e4,
            )
            logits[4, :3] = [-np.inf, -1e4, 0.0]
        targets = rng.integers(0, d, rows)
        for kernel in ("cross_entropy_class_targets_keeping", "cross_entropy_class_targets"):
            with np.errstate(all="ignore"):
                want = getattr(backend, kernel)(logits, targets)
            got = _run_fused(kernel, (logits, targets), want, np.dtype(dtype).name)
            for value, expected in zip(got, want if type(want) is tuple else (want,)):
                np.testing.assert_array_equal(value, expected, err_msg=f"{kernel} [{rows}, {d}]")


def _run_fused(kernel: str, inputs: tuple, recorded, dtype: str) -> list:
    """The results of the fused calls of the NumPy backend's `kernel` recorded with `inputs`
    and `recorded` (its results), run in order: those before it (library functions and
    kernels), then its own."""
    backend, library = backend_for("NumPy"), compiler.library(dtype)
    tape = Tape()  # (the rule names the arrays between its calls on the recording's tape)
    args = tuple(tape.value(a, "input") for a in inputs)
    out = tape.wrap(recorded, "recorded")
    entry = Entry(EntryKind.CALL, kernel, args, {}, out, kernel, "forward", "NumPy")
    fused = fusion.fuse(entry, backend)
    assert fused is not None, f"{kernel} was not fused"
    arrays = {id(v): v.data.copy() for v in args}  # (each array the calls read or write)
    with np.errstate(all="ignore"):
        for call in (*fused.before, fused):
            if type(call) is fusion.Library:
                result = call.function(*[arrays.get(id(a), a) for a in call.args])
                if call.out is not None:
                    arrays[id(call.out)] = result
                continue
            fusion.check_arguments(call)
            for output in call.outputs:
                arrays.setdefault(id(output), np.full_like(output.data, 7.0))
            library[call.name](*[arrays.get(id(a), getattr(a, "data", a)) for a in call.args])
    return [arrays[id(value)] for value in _flat(out)]


def embedding_step(model, opt, ids):
    """An embedding trained to its next token's row, by SGD: every kernel exact."""
    x = model(ids[:, :-1])  # (a view: the kernel reads a contiguous copy of it)
    target = model(ids[:, 1:]).detach()
    loss = ((x - target) * (x - target)).mean()
    opt.step(model, loss.backward(), lr=0.5)
    return loss


def test_a_compiled_embedding_trains_as_the_uncompiled_replay_bit_for_bit():
    rng = np.random.default_rng(2)
    ids = rng.integers(0, 12, (3, 40))
    ids[0] = 4  # (one token read 39 times a step)
    device = Device.numpy().autodiff()
    runs = []
    for compiled in (False, True):
        Device.numpy().seed(0)
        model = nn.Embedding(12, 6, device=Device.numpy()).to_device(device)
        step = capture(embedding_step, compile=compiled)
        opt = optim.SGD(0.5)
        tokens = Tensor.from_data(ids, device=device)
        losses = [step(model, opt, tokens).to_numpy() for _ in range(4)]
        runs.append((losses, model.weight.to_numpy(), step))
    (plain_losses, plain_weight, _), (losses, weight, step) = runs
    assert all(np.array_equal(a, b) for a, b in zip(losses, plain_losses))
    np.testing.assert_array_equal(weight, plain_weight)
    assert "embedding_backward_f32(" in step.source()
    assert "Fuses: embedding_backward" in step.kernels()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_masked_fill_and_its_softmax_are_one_kernel_nan_and_inf_included(dtype):
    """float_mask_fill then softmax (attention's masked scores), and softmax_backward then the
    fill's backward, as one kernel each: masks of the scores' shape, over the heads
    ([batch, 1, seq_q, seq_k], also as `expand` leaves it: not C-contiguous), over the
    queries (padding, [batch, 1, 1, seq_k]) and over batch and heads ([seq_q, seq_k]); fills
    -inf (a row all masked gives NaN, as eager) and burn's min_float."""
    backend = backend_for("NumPy")
    scores = special(dtype, (24, 8)).reshape(2, 3, 4, 8)  # [batch, heads, seq_q, seq_k]
    grad = special(dtype, (24, 8), seed=2).reshape(scores.shape)
    rng = np.random.default_rng(3)
    causal = np.triu(np.ones((4, 8), bool), 1)
    causal[3] = True  # one query that attends to nothing
    masks = {
        "same shape": rng.random(scores.shape) < 0.3,
        "over heads": np.ascontiguousarray(np.broadcast_to(causal, (2, 1, 4, 8))),
        "expanded": np.broadcast_to(causal, (2, 4, 8)).reshape(2, 1, 4, 8),
        "padding": (rng.random((2, 1, 1, 8)) < 0.3),
        "over batch and heads": causal,
    }
    assert not masks["expanded"].flags.c_contiguous
    calls = []
    for name, mask in masks.items():
        for value in (-np.inf, -1.0e4):
            with np.errstate(all="ignore"):
                filled = backend.float_mask_fill(scores, mask, value)
                probabilities = backend.softmax(filled, 3)
                gradient = backend.softmax_backward(probabilities, grad, 3)
                backward = backend.float_mask_fill(gradient, mask, 0.0)
            values: list = []
            x_, mask_, grad_ = _wrapped((scores, mask, grad), values)
            filled_, y_, gradient_, backward_ = _wrapped(
                (filled, probabilities, gradient, backward), values
            )
            pairs = [
                (("float_mask_fill", (x_, mask_, value), filled_), ("softmax", (filled_, 3), y_)),
                (
                    ("softmax_backward", (y_, grad_, 3), gradient_),
                    ("float_mask_fill", (gradient_, mask_, 0.0), backward_),
                ),
            ]
            for first, second in pairs:
                entries = [
                    Entry(EntryKind.CALL, k, a, {}, o, k, "forward", "NumPy")
                    for k, a, o in (first, second)
                ]
                fused = fusion.fuse_pair(*entries, backend)
                label = f"{first[0]} then {second[0]}, mask {name}, fill {value}"
                assert fused is not None, f"{label} was not fused"
                assert bool(fused.copies) == (name == "expanded")
                calls.append((label, fused, entries[1].out))
    _assert_the_kernels_give(calls, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_an_added_bias_and_its_softmax_are_one_kernel_nan_and_inf_included(dtype):
    """float_add of the scores and a bias (an imported attention's additive mask) then
    softmax, as one kernel: biases of the scores' shape, over the heads (also as `expand`
    leaves it: not C-contiguous), over the queries ([batch, 1, 1, seq_k]) and over batch and
    heads ([seq_q, seq_k]), on either side of the add, with -inf, burn's min_float and NaN in
    them."""
    backend = backend_for("NumPy")
    scores = special(dtype, (24, 8)).reshape(2, 3, 4, 8)  # [batch, heads, seq_q, seq_k]
    rng = np.random.default_rng(4)
    causal = np.where(np.triu(np.ones((4, 8), bool), 1), -np.inf, 0.0).astype(dtype)
    causal[3] = np.finfo(dtype).min  # one query that attends to nothing, burn's way
    causal[0, 0] = np.nan
    biases = {
        "same shape": rng.standard_normal(scores.shape).astype(dtype),
        "over heads": np.ascontiguousarray(np.broadcast_to(causal, (2, 1, 4, 8))),
        "expanded": np.broadcast_to(causal, (2, 4, 8)).reshape(2, 1, 4, 8),
        "padding": np.where(rng.random((2, 1, 1, 8)) < 0.3, -1e4, 0.0).astype(dtype),
        "over batch and heads": causal,
    }
    assert not biases["expanded"].flags.c_contiguous
    calls = []
    for name, bias in biases.items():
        for operands in ((scores, bias), (bias, scores)):
            with np.errstate(all="ignore"):
                summed = backend.float_add(*operands)
                probabilities = backend.softmax(summed, 3)
            values: list = []
            a_, b_, summed_, y_ = _wrapped((*operands, summed, probabilities), values)
            entries = [
                Entry(EntryKind.CALL, "float_add", (a_, b_), {}, summed_, "", "forward", "NumPy"),
                Entry(EntryKind.CALL, "softmax", (summed_, 3), {}, y_, "", "forward", "NumPy"),
            ]
            fused = fusion.fuse_pair(*entries, backend)
            label = f"bias {name}, {'after' if operands[0] is scores else 'before'} the scores"
            assert fused is not None and fused.kernel is fusion.BIASED_SOFTMAX, label
            assert bool(fused.copies) == (name == "expanded")
            calls.append((label, fused, y_))
    _assert_the_kernels_give(calls, dtype)


def test_an_added_operand_and_a_softmax_it_cannot_compute_in_one_kernel_stay_two_calls():
    """A bias broadcast over the last dim or over two runs of dims, of another dtype, two
    operands both broadcast, a softmax over another dim than the last: declined."""
    backend = backend_for("NumPy")
    scores = np.random.default_rng(0).standard_normal((2, 3, 4, 8))
    cases = {
        "over the last dim": (scores, np.zeros((2, 3, 4, 1)), 3),
        "over two runs": (scores, np.zeros((1, 3, 1, 8)), 3),
        "another dtype": (scores, np.zeros((2, 1, 4, 8), np.float32), 3),
        "both broadcast": (scores[:, :1], np.zeros((1, 3, 4, 8)), 3),
        "softmax over dim 2": (scores, np.zeros((2, 1, 4, 8)), 2),
    }
    for name, (lhs, rhs, dim) in cases.items():
        summed = backend.float_add(lhs, rhs)
        values: list = []
        lhs_, rhs_, summed_, y = _wrapped((lhs, rhs, summed, backend.softmax(summed, dim)), values)
        add = Entry(EntryKind.CALL, "float_add", (lhs_, rhs_), {}, summed_, "", "forward")
        softmax = Entry(EntryKind.CALL, "softmax", (summed_, dim), {}, y, "", "forward")
        assert fusion.fuse_pair(add, softmax, backend) is None, name


def test_a_masked_fill_and_a_softmax_it_cannot_compute_in_one_kernel_stay_two_calls():
    """Masks broadcast over the last dim or over two runs of dims, a softmax over another dim
    than the last: the pair rule declines (each call is then fused or kept on its own)."""
    backend = backend_for("NumPy")
    scores = np.random.default_rng(0).standard_normal((2, 3, 4, 8))
    cases = {
        "over the last dim": (np.zeros((2, 3, 4, 1), bool), 3),
        "over two runs": (np.zeros((1, 3, 1, 8), bool), 3),
        "softmax over dim 2": (np.zeros((2, 1, 4, 8), bool), 2),
    }
    for name, (mask, dim) in cases.items():
        filled = backend.float_mask_fill(scores, mask, -np.inf)
        values: list = []
        x, mask_, filled_, y = _wrapped(
            (scores, mask, filled, backend.softmax(filled, dim)), values
        )
        fill = Entry(
            EntryKind.CALL, "float_mask_fill", (x, mask_, -np.inf), {}, filled_, "", "forward"
        )
        softmax = Entry(EntryKind.CALL, "softmax", (filled_, dim), {}, y, "", "forward")
        assert fusion.fuse_pair(fill, softmax, backend) is None, name


def _in_place_choices(fused):
    """{} (every output its own array), then each output written over each input of its size
    that the plan could give it (a whole array of its dtype and size)."""
    yield {}
    inputs = [a for a in fused.args if type(a) is Value and not any(a is o for o in fused.outputs)]
    for output in fused.outputs:
        for source in inputs:
            same = source.data.dtype == output.data.dtype and source.data.size == output.data.size
            if same and source.data.flags.c_contiguous:
                yield {output: source}


def _flat(value):
    if type(value) is Value:
        yield value
    elif type(value) in (tuple, list):
        for item in value:
            yield from _flat(item)


# -- the depthwise convolution against torch ---------------------------------------------------

# (batch, channels, size, kernel, stride, padding, dilation, padding_end)
DEPTHWISE = [
    (1, 3, (7, 9), (3, 3), (1, 1), (1, 1), (1, 1), None),  # batch 1, odd sizes
    (2, 4, (11, 8), (5, 5), (2, 2), (2, 2), (1, 1), None),  # stride 2, MobileNet's 5x5
    (1, 5, (9, 10), (3, 5), (2, 1), (0, 2), (2, 1), None),  # dilation, a stride per dim
    (3, 2, (6, 7), (3, 3), (3, 2), (1, 0), (1, 2), (2, 1)),  # stride 3, end padding
    (2, 3, (2, 3), (3, 3), (1, 1), (2, 2), (1, 1), None),  # more padding than input
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", DEPTHWISE)
def test_a_compiled_depthwise_convolution_and_its_gradients_are_torchs(case, dtype):
    torch = pytest.importorskip("torch")
    from burnpy.generated import module

    batch, channels, size, kernel, stride, padding, dilation, end = case
    rng = np.random.default_rng(0)
    arrays = [
        rng.standard_normal((batch, channels, *size)),
        rng.standard_normal((channels, 1, *kernel)),
        rng.standard_normal(channels),
    ]
    device = Device.numpy().autodiff()
    x, weight, bias = (
        Tensor.from_data(a.astype(dtype), device=device).require_grad() for a in arrays
    )
    options = dict(stride=stride, padding=padding, dilation=dilation, groups=channels)

    def forward(x, weight, bias):
        return module.conv2d(x, weight, bias, padding_end=end, **options)

    def gradients(x, weight, bias, grad):
        grads = (forward(x, weight, bias) * grad).sum().backward()
        return x.grad(grads), weight.grad(grads)

    compiled, compiled_gradients = capture(forward, compile=True), capture(gradients, compile=True)
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in arrays)  # float64
    pads = [padding[1], end[1] if end else padding[1], padding[0], end[0] if end else padding[0]]
    padded = torch.nn.functional.pad(tx, pads)
    expected = torch.nn.functional.conv2d(padded, tw, tb, **{**options, "padding": 0})
    grad = rng.standard_normal(expected.shape)
    expected.backward(torch.tensor(grad))
    tolerance = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    for _ in range(2):  # the recording, then the compiled replay
        out = compiled(x, weight, bias)
        dx, dw = compiled_gradients(x, weight, bias, Tensor.from_data(grad.astype(dtype)))
        np.testing.assert_allclose(out.to_numpy(), expected.detach().numpy(), **tolerance)
        np.testing.assert_allclose(dx.to_numpy(), tx.grad.numpy(), **tolerance)
        np.testing.assert_allclose(dw.to_numpy(), tw.grad.numpy(), **tolerance)
    suffix = "f32" if dtype == np.float32 else "f64"
    assert f"depthwise_conv2d_{suffix}(" in compiled.source()


# -- a pointwise convolution called past the backend's checks -----------------------------------

# (batch, channels in, channels out, groups, size, stride, bias, padding)
POINTWISE = [
    (1, 16, 24, 1, (7, 9), (1, 1), True, (0, 0)),  # MobileNet's pointwise layer at batch 1
    (3, 8, 6, 2, (6, 5), (2, 1), False, (0, 0)),  # groups, a stride per dim, no bias
    (2, 4, 4, 1, (5, 5), (1, 1), True, (1, 0)),  # padded: the backend's conv2d, not pointwise
]


@pytest.mark.parametrize("case", POINTWISE)
def test_a_compiled_pointwise_convolution_is_numpys(case):
    from burnpy.generated import module

    batch, channels_in, channels_out, groups, size, stride, with_bias, padding = case
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch, channels_in, *size))
    weight = rng.standard_normal((channels_out, channels_in // groups, 1, 1))
    bias = rng.standard_normal(channels_out) if with_bias else np.zeros(channels_out)
    padded = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    picked = padded[:, :, :: stride[0], :: stride[1]]
    rows, columns = channels_out // groups, channels_in // groups
    expected = (
        np.concatenate(
            [
                np.einsum(
                    "oc,bchw->bohw",
                    weight[g * rows : (g + 1) * rows, :, 0, 0],
                    picked[:, g * columns : (g + 1) * columns],
                )
                for g in range(groups)
            ],
            1,
        )
        + bias[:, None, None]
    )
    device = Device.numpy()
    tensors = [Tensor.from_data(a.astype(np.float32), device=device) for a in (x, weight, bias)]
    options = dict(stride=stride, padding=padding, groups=groups)

    def forward(x, weight, bias):
        return module.conv2d(x, weight, bias if with_bias else None, **options) * 2.0

    step = capture(forward, compile=True)
    for _ in range(2):  # the recording, then the compiled replay
        out = step(*tensors).to_numpy()
        np.testing.assert_allclose(out, expected * 2.0, rtol=1e-5, atol=1e-5)
    direct = "correlate_pointwise(" in step.source()
    assert direct == (padding == (0, 0))


# -- attention against torch --------------------------------------------------------------------

# (causal, queries, keys): burn's causal mask is aligned bottom-right, so with more queries than
# keys the first queries see no key (their output is 0)
ATTENTION = [(True, 16, 16), (False, 12, 20), (True, 8, 12), (True, 12, 8)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", ATTENTION)
def test_a_compiled_attention_and_its_gradients_are_torchs(case, dtype):
    """Attention without mask, bias or softcap: numpy's products around one C kernel for the
    softmax and one for its backward, the queries read as the transposed view a head split
    makes; a NaN in a query makes that query's row NaN and no other."""
    torch = pytest.importorskip("torch")
    from burnpy.generated import module

    causal, queries, keys = case
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal((2, n, 3, 5)) for n in (queries, keys, keys)]  # [b, s, h, d]
    arrays[0][1, queries - 1, 0, 4] = np.nan  # (the last query sees every key)
    grad = rng.standard_normal((2, 3, queries, 5))
    device = Device.numpy().autodiff()

    def heads(t):
        return t.swap_dims(1, 2)  # [b, h, s, d], a transposed view

    def step(q, k, v, grad):
        out = module.attention(heads(q), heads(k), heads(v), is_causal=causal)
        grads = (out * grad).sum().backward()
        return out, q.grad(grads), k.grad(grads), v.grad(grads)

    q, k, v = (torch.tensor(a, requires_grad=True) for a in arrays)
    seen = None
    if causal:  # key j is seen by query i when j <= i + keys - queries
        seen = torch.arange(keys)[None, :] <= torch.arange(queries)[:, None] + keys - queries
    out = torch.nn.functional.scaled_dot_product_attention(
        *(t.transpose(1, 2) for t in (q, k, v)), attn_mask=seen
    )
    if causal and queries > keys:  # (burn's 0 for a query that sees no key)
        out = out.masked_fill(~seen.any(-1)[:, None], 0.0)
    out.backward(torch.tensor(grad))
    expected = [out.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()]
    compiled = capture(step, compile=True)
    tolerance = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    for _ in range(2):  # the recording, then the compiled replay
        inputs = [Tensor.from_data(a.astype(dtype), device=device).require_grad() for a in arrays]
        got = compiled(*inputs, Tensor.from_data(grad.astype(dtype), device=device))
        for result, reference in zip(got, expected):
            np.testing.assert_allclose(result.to_numpy(), reference, **tolerance)
    suffix = "f32" if dtype == np.float32 else "f64"
    assert f"attention_softmax_{suffix}(" in compiled.source()
    assert f"attention_softmax_backward_{suffix}(" in compiled.source()


# -- Winograd's convolution against torch ------------------------------------------------------

# (batch, channels in, channels out, size, padding, padding_end): each with at least
# numpy_winograd.TILES tiles of 2x2 outputs, and more than fusion.FEW_CHANNELS channels in
WINOGRAD = [
    (1, 6, 5, (13, 11), (1, 1), None),  # odd output sizes: half tiles at the ends
    (3, 5, 4, (8, 9), (0, 0), None),  # no padding
    (3, 6, 2, (6, 7), (2, 2), (0, 1)),  # end padding of its own
    (2, 64, 32, (16, 16), (1, 1), None),  # ResNet's, 576 products a sum
]


def _torch_conv(torch, x, weight, bias, padding, end, stride=(1, 1)):
    pads = [padding[1], end[1] if end else padding[1], padding[0], end[0] if end else padding[0]]
    padded = torch.nn.functional.pad(torch.tensor(x), pads)
    conv = torch.nn.functional.conv2d(padded, torch.tensor(weight), torch.tensor(bias), stride)
    return conv.numpy()


def _compiled_conv(torch, dtype, x, weights, bias, stride, padding, end) -> str:
    """A compiled inference conv2d of `x` by each of `weights`, recorded and replayed, against
    torch's float64 values within the float32 (float64) rounding of its sums, NaN and ±inf where
    torch has them; the compiled step's source."""
    from burnpy.generated import module

    def forward(x, weight, bias):
        return module.conv2d(x, weight, bias, stride=stride, padding=padding, padding_end=end)

    step = capture(forward, compile=True)
    rounding = 4e-6 if dtype == np.float32 else 1e-13
    for w in weights:
        expected = _torch_conv(torch, x, w, bias, padding, end, stride)
        tolerance = rounding * np.abs(expected[np.isfinite(expected)]).max()
        for _ in range(2):  # the recording, then the compiled replay
            out = step(*(Tensor.from_data(a.astype(dtype)) for a in (x, w, bias))).to_numpy()
            np.testing.assert_array_equal(np.isnan(out), np.isnan(expected))
            np.testing.assert_array_equal(np.isinf(out), np.isinf(expected))
            np.testing.assert_allclose(out, expected, rtol=0, atol=tolerance)
    return step.source()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", WINOGRAD)
def test_a_compiled_convolution_is_winograds_and_torchs(case, dtype, taken):
    """A 3x3 stride-1 convolution in a compiled step is the NumPy backend's, Winograd's
    F(2x2, 3x3) over enough tiles: torch's float64 values within the float32 rounding of its
    sums; an inf or NaN lands in the positions whose windows read it, as in the direct product
    (NaN where an inf in the weight meets the padding's zeros), and no others."""
    torch = pytest.importorskip("torch")

    batch, channels_in, channels_out, size, padding, end = case
    rng = np.random.default_rng(1)
    x = rng.standard_normal((batch, channels_in, *size))
    weight = rng.standard_normal((channels_out, channels_in, 3, 3))
    bias = rng.standard_normal(channels_out)
    _compiled_conv(torch, dtype, x, (weight,), bias, (1, 1), padding, end)
    # (built without a C compiler, the columns' way only: nothing reaches Winograd's transforms)
    built = numpy_winograd._winograd is not None
    assert set(taken) == ({"winograd"} if built else set()) and (taken or not built)
    x[0, 0, 2, 3], x[-1, -1, 4, 5], x[0, -1, 0, 0] = np.nan, np.inf, -np.inf
    infinite = weight.copy()
    infinite[1, 0, 1, 2] = np.inf
    taken.clear()
    _compiled_conv(torch, dtype, x, (weight, infinite), bias, (1, 1), padding, end)
    assert set(taken) == ({"columns"} if built else set()) and (taken or not built)


# (batch, channels in, channels out, size, kernel, stride, padding, padding_end): at most
# fusion.FEW_CHANNELS channels in
FEW_CHANNELS = [
    (1, 3, 16, (15, 17), (3, 3), (2, 2), (1, 1), None),  # MobileNet's first layer
    (2, 3, 6, (19, 16), (7, 7), (2, 2), (3, 3), None),  # ResNet's, channels out not 4 a group
    (2, 1, 5, (9, 40), (3, 3), (1, 1), (0, 0), None),  # one channel; rows of several blocks
    (1, 4, 3, (10, 12), (5, 3), (3, 1), (2, 0), (0, 2)),  # uneven strides, an end padding
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", FEW_CHANNELS)
def test_a_compiled_inference_convolution_of_few_channels_is_summed_directly(case, dtype):
    """A convolution of few input channels in a step without a backward sums its windows
    directly, to torch's float64 values within the rounding of its sums; an inf or NaN lands
    where the windows read it (NaN where an inf in the weight meets the padding's zeros)."""
    torch = pytest.importorskip("torch")

    batch, channels_in, channels_out, size, kernel, stride, padding, end = case
    rng = np.random.default_rng(3)
    x = rng.standard_normal((batch, channels_in, *size))
    weight = rng.standard_normal((channels_out, channels_in, *kernel))
    bias = rng.standard_normal(channels_out)
    x[0, 0, 2, 3], x[-1, -1, 4, 5], x[0, -1, 0, 0] = np.nan, np.inf, -np.inf
    infinite = weight.copy()
    infinite[1, 0, 0, 1] = np.inf

    compiled = _compiled_conv(torch, dtype, x, (weight, infinite), bias, stride, padding, end)
    assert f"few_channels_conv2d_{'f32' if dtype == np.float32 else 'f64'}(" in compiled


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_compiled_inference_mean_over_the_last_dim_is_numpys(dtype):
    """A mean over the last dim of a step without a backward (a squeeze-and-excite pool) is
    one C loop a row, to numpy's float64 mean within the rounding of its sum; NaN and inf as
    numpy's; a step with a backward keeps the backend's kernel, bit for bit."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 5, 49))
    x[0, 1, 3], x[1, 2, 0], x[1, 3, 7], x[1, 3, 8] = np.nan, np.inf, np.inf, -np.inf
    step = capture(lambda t: t.mean_dim(2), compile=True)
    with np.errstate(invalid="ignore"):  # (inf - inf)
        expected = x.mean(axis=2, keepdims=True)
    rounding = 1e-6 if dtype == np.float32 else 1e-15
    for _ in range(2):  # the recording, then the compiled replay
        with np.errstate(invalid="ignore"):
            out = step(Tensor.from_data(x.astype(dtype))).to_numpy()
        assert out.shape == (2, 5, 1) and out.dtype == dtype
        np.testing.assert_array_equal(np.isnan(out), np.isnan(expected))
        np.testing.assert_allclose(out, expected, rtol=rounding, atol=rounding)
    assert f"row_mean_{'f32' if dtype == np.float32 else 'f64'}(" in step.source()
    device = Device.numpy().autodiff()
    t = Tensor.from_data(rng.standard_normal((2, 5, 49)).astype(dtype), device=device)

    def trained(t):
        mean = t.mean_dim(2)
        return mean, t.grad((mean * mean).sum().backward())

    compiled, uncompiled = capture(trained, compile=True), capture(trained)
    for got, want in zip(compiled(t.require_grad()), uncompiled(t.require_grad())):
        np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
    assert "row_mean" not in compiled.source()


# (shape, kernel, stride, padding, dilation, ceil_mode)
MAX_POOLS = [
    ((4, 8, 32, 32), (3, 3), (2, 2), (1, 1), (1, 1), False),  # ResNet's
    ((2, 3, 9, 10), (3, 3), (2, 2), (1, 1), (2, 1), True),  # dilated; ceil mode: a last window
    ((1, 2, 7, 8), (2, 2), None, (0, 0), (1, 1), False),  # stride None: the kernel's
]


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("case", MAX_POOLS)
def test_a_compiled_max_pool_is_torchs_and_the_uncompiled_steps(case, backend):
    """max_pool2d (its indices too) in one C kernel, forward and, on NumPy, backward: values
    and indices torch's where the windows are finite; a window's NaN, ties and a window of -inf
    only as the backend's own kernel has them (numpy: the first NaN; torch: the last), and the
    gradients of a training step bit for bit the uncompiled step's."""
    torch = pytest.importorskip("torch")
    from burnpy.generated import module

    shape, kernel, stride, padding, dilation, ceil = case
    device = Device.numpy() if backend == "numpy" else Device.torch()
    options = dict(stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil)
    rng = np.random.default_rng(5)
    x = rng.standard_normal(shape).astype(np.float32)
    pooled, indices = torch.nn.functional.max_pool2d(
        torch.from_numpy(x), kernel, stride or kernel, padding, dilation, ceil, True
    )

    def forward(t):
        return module.max_pool2d_with_indices(t, kernel, **options)

    compiled = capture(forward, compile=True)
    for _ in range(2):  # the recording, then the compiled replay
        out, at = compiled(Tensor.from_data(x, device=device))
        np.testing.assert_array_equal(out.to_numpy(), pooled.numpy())
        np.testing.assert_array_equal(at.to_numpy(), indices.numpy())
    assert "max_pool2d_f32(" in compiled.source()
    special = x.copy()
    special[0, 0, :2, :4] = np.nan  # several NaNs a window
    special[0, 1, :3, :3] = -np.inf
    special[-1, -1, 2, 2:6] = 7.0  # ties
    eager = [t.to_numpy() for t in forward(Tensor.from_data(special, device=device))]
    for _ in range(2):
        got = [t.to_numpy() for t in compiled(Tensor.from_data(special, device=device))]
        for a, b in zip(got, eager):
            np.testing.assert_array_equal(a, b)

    def step(t):
        y = module.max_pool2d(t, kernel, **options)
        return t.grad((y * y).sum().backward())

    t = Tensor.from_data(x, device=device.autodiff()).require_grad()
    trained, expected = capture(step, compile=True), step(t).to_numpy()
    for _ in range(2):
        np.testing.assert_array_equal(trained(t).to_numpy(), expected)
    assert "max_pool2d_f32(" in trained.source()
    assert ("max_pool2d_backward_f32(" in trained.source()) is (backend == "numpy")


def test_a_compiled_training_step_convolves_as_the_uncompiled_one(taken):
    """A step with a backward, compiled, makes its convolutions with the backend's kernels, as
    the uncompiled step does (Winograd's forward and input gradient here): bit for bit."""
    from burnpy.generated import module

    rng = np.random.default_rng(2)
    device = Device.numpy().autodiff()
    arrays = (rng.standard_normal((2, 8, 12, 12)), rng.standard_normal((4, 8, 3, 3)))
    x, weight = (Tensor.from_data(a.astype(np.float32), device=device) for a in arrays)
    x, weight = x.require_grad(), weight.require_grad()

    def step(x, weight):
        out = module.conv2d(x, weight, padding=(1, 1))
        grads = (out * out).sum().backward()
        return out, x.grad(grads), weight.grad(grads)

    compiled, uncompiled = capture(step, compile=True), capture(step)
    for _ in range(2):
        for got, expected in zip(compiled(x, weight), uncompiled(x, weight)):
            np.testing.assert_array_equal(got.to_numpy(), expected.to_numpy())
    # forward and input gradient, 4 runs each (none built without a C compiler)
    assert taken.count("winograd") == (8 if numpy_winograd._winograd is not None else 0)


# -- a compiled training step against the uncompiled replay ----------------------------------


def block(dtype):
    """A small pre-norm block: layer_norm, linear, gelu, rms_norm, linear, softmax rows,
    classes."""
    Device.numpy().seed(0)
    layers = [
        nn.LayerNorm(16, device=Device.numpy()),
        nn.Linear(16, 32, device=Device.numpy()),
        nn.Gelu(),
        nn.RmsNorm(32, device=Device.numpy()),
        nn.Linear(32, 5, device=Device.numpy()),
    ]
    model = nn.Sequential(*layers)
    if dtype == np.float64:
        model = model.cast("float64")
    return model.to_device(Device.numpy().autodiff())


def training_step(model, opt, lr, x, y):
    logits = model(x)
    attention = F.softmax(logits, 1) * F.log_softmax(logits, 1)
    loss = F.cross_entropy(logits, y) - attention.mean() * 0.1
    opt.step(model, loss.backward(), lr=lr)
    return loss


# compiled against uncompiled: (losses' rtol, parameters' rtol and atol)
ACCURACY = {np.float32: (1e-5, 1e-4), np.float64: (1e-12, 1e-12)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_compiled_step_trains_as_the_uncompiled_replay_within_rounding(dtype):
    rng = np.random.default_rng(0)
    device = Device.numpy().autodiff()
    x = Tensor.from_data(rng.standard_normal((24, 16)).astype(dtype), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 24), device=device)
    runs = []
    for compiled in (False, True):
        model = block(dtype)
        opt = optim.AdamW(1e-2, weight_decay=0.01, grad_clip_norm=1.0)
        step = capture(training_step, compile=compiled)
        losses = [float(step(model, opt, 1e-2, x, y).to_numpy()[0]) for _ in range(8)]
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    losses_rtol, params_tolerance = ACCURACY[dtype]
    np.testing.assert_allclose(losses, plain_losses, rtol=losses_rtol)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=params_tolerance, atol=params_tolerance)
    suffix = "f32" if dtype == np.float32 else "f64"
    gelu = "gelu_keeping" if dtype == np.float32 else "gelu"  # (float64 keeps no slope)
    source, kernels = step.source(), step.kernels()
    for name in (
        f"layer_norm_{suffix}",
        f"{gelu}_{suffix}",
        f"rms_norm_{suffix}",
        f"rms_norm_backward_{suffix}",
        f"softmax_{suffix}",
        f"adam_step_{suffix}",
    ):
        assert f"    {name}(" in source or f" = {name}(" in source or f"{name}(\n" in source
        assert f"void {name}(" in kernels
    assert "Fuses: layer_norm" in kernels and "Fuses: adam_step" in kernels
    assert "Fuses: rms_norm" in kernels
    memory = step.memory()
    assert 0 < memory.planned <= memory.eager
    assert "planned peak" in str(memory)


def test_a_compiled_step_is_written_as_black_writes_it_the_same_at_each_compile(monkeypatch):
    """The writer lays out the long kernel calls itself (black takes milliseconds a statement):
    the text is black's own layout, and the same step compiled twice is planned and written
    the same; `compile_seconds` is the compile's share of the recording call."""
    pytest.importorskip("black")
    rng = np.random.default_rng(0)
    device = Device.numpy().autodiff()
    x = Tensor.from_data(rng.standard_normal((24, 16)).astype(np.float32), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 24), device=device)
    sources = []
    for by_black in (False, True):
        if by_black:  # every long statement laid out by black itself
            monkeypatch.setattr(writer, "_laid_out", lambda statement, width: None)
        step = capture(training_step, compile=True)
        started = time.perf_counter()
        step(block(np.float32), optim.AdamW(1e-2, grad_clip_norm=1.0), 1e-2, x, y)
        assert 0 < step.compile_seconds < time.perf_counter() - started
        sources.append(step.source())
    assert sources[0] == sources[1]
    assert any(line.endswith("(") for line in sources[0].splitlines())  # (some are laid out)


def attention_step(model, opt, x, target):
    """Causal self-attention (burn's MultiHeadAttention: masked fill with min_float, softmax)."""
    batch, seq, _ = x.shape
    mask = nn.generate_autoregressive_mask(batch, seq, x.device())  # (expanded: a view)
    out = model(x, mask_attn=mask).context
    loss = ((out - target) * (out - target)).mean()
    opt.step(model, loss.backward(), lr=1e-2)
    return loss


def test_causal_attention_compiles_its_masked_softmax_and_trains_as_the_uncompiled_replay():
    dtype = np.float64  # (the kernels' float32 values: the test above)
    rng = np.random.default_rng(1)
    device = Device.numpy().autodiff()
    x, target = (
        Tensor.from_data(rng.standard_normal((2, 6, 8)).astype(dtype), device=device)
        for _ in range(2)
    )
    runs = []
    for compiled in (False, True):
        Device.numpy().seed(0)
        model = nn.MultiHeadAttention(8, 2, dropout=0.0, device=Device.numpy())
        model = model.cast(np.dtype(dtype).name).to_device(device)
        step = capture(attention_step, compile=compiled)
        opt = optim.Adam(1e-2)
        losses = [float(step(model, opt, x, target).to_numpy()[0]) for _ in range(3)]
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    losses_rtol, params_tolerance = ACCURACY[dtype]
    np.testing.assert_allclose(losses, plain_losses, rtol=losses_rtol)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=params_tolerance, atol=params_tolerance)
    source = step.source()
    assert "masked_softmax_f64(" in source and "masked_softmax_backward_f64(" in source
    assert "numpy_ascontiguousarray(" in source  # the expanded mask, copied once per kernel
    assert "Fuses: float_mask_fill, softmax." in step.kernels()


def test_no_compiler_replays_uncompiled_and_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no cc, gcc or clang on it
    monkeypatch.delenv("CC", raising=False)
    compiler.LOADED.clear()  # (the libraries this process has loaded already)
    rng = np.random.default_rng(0)
    device = Device.numpy().autodiff()
    x = Tensor.from_data(rng.standard_normal((8, 16)).astype(np.float32), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 8), device=device)
    steps = []
    for compiled in (False, True):
        model, opt = block(np.float32), optim.AdamW(1e-2)
        step = capture(training_step, compile=compiled)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            losses = [step(model, opt, 1e-2, x, y).to_numpy() for _ in range(3)]
        steps.append((losses, caught, step))
    (plain, _, _), (losses, caught, step) = steps
    assert all(np.array_equal(a, b) for a, b in zip(losses, plain))
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "no C compiler found" in messages[0] and "gcc" in messages[0]
    with pytest.raises(LookupError, match="not compiled"):
        step.kernels()


def test_a_failed_build_replays_uncompiled_with_the_compilers_message(monkeypatch, tmp_path):
    monkeypatch.setenv("BURNPY_CACHE", str(tmp_path))
    monkeypatch.setattr(toolchain, "FLAGS", toolchain.FLAGS + ("-fno-such-flag",))
    compiler.LOADED.clear()
    rng = np.random.default_rng(0)
    device = Device.numpy().autodiff()
    x = Tensor.from_data(rng.standard_normal((8, 16)).astype(np.float32), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 8), device=device)
    model, opt = block(np.float32), optim.AdamW(1e-2)
    step = capture(training_step, compile=True)
    with pytest.warns(RuntimeWarning, match="(?s)replays uncompiled: compiling it failed.*no-such"):
        step(model, opt, 1e-2, x, y)
    assert np.isfinite(step(model, opt, 1e-2, x, y).to_numpy()).all()
    assert not list(tmp_path.rglob("*.so"))  # nothing half-built left under a library's name


def chain_step(x, bias):
    return (x * 2.0 + bias).relu() - x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_an_element_wise_chain_is_one_loop_with_the_eager_values_nan_and_inf_included(dtype):
    device = Device.numpy()
    x = Tensor.from_data(special(dtype), device=device)
    bias = Tensor.from_data(special(dtype, seed=3)[1].copy(), device=device)  # (+inf in it)
    step = capture(chain_step, compile=True)
    with np.errstate(all="ignore"):
        expected = chain_step(x, bias).to_numpy()
        for _ in range(2):  # the recording, then the compiled replay
            got = step(x, bias).to_numpy()
    np.testing.assert_allclose(got, expected, **TOLERANCE[dtype])
    suffix = csource.SUFFIXES[np.dtype(dtype).name]
    assert f"chain_0_{suffix}(48, x, bias, 2.0, " in step.source()
    assert "Fuses: float_mul_scalar, float_add, relu, float_sub." in step.kernels()


def exact_gelu(x, erf):
    """GELU as an imported model computes it (ONNX's Div, Erf, Add, Mul, Mul)."""
    return x * (erf(x / 2.0**0.5) + 1.0) * 0.5


def tanh_gelu(x, tanh):
    """GPT-2's GELU as an imported model computes it (Pow, Mul, Add, Mul, Tanh, Add, Mul)."""
    return 0.5 * x * (tanh((x + 0.044715 * x**3.0) * (2 / np.pi) ** 0.5) + 1.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("form", ["erf", "tanh"])
def test_an_imported_gelu_is_one_loop_with_the_math_library_s_values_within_rounding(form, dtype):
    """erf and tanh declare their C expressions: each GELU form fuses into chains, equal to
    scipy's erf and numpy's tanh in float64 to the dtype's rounding."""
    from scipy import special as scipy_special

    gelu, math = (exact_gelu, scipy_special.erf) if form == "erf" else (tanh_gelu, np.tanh)
    x = special(dtype)
    x[np.abs(x) > 1e3] = 7.0  # (a cube of 1e4 overflows float32: inf - inf is NaN either way)
    step = capture(lambda x: gelu(x, getattr(type(x), form)), compile=True)
    with np.errstate(all="ignore"):
        for _ in range(2):  # the recording, then the compiled replay
            got = step(Tensor.from_data(x, device=Device.numpy())).to_numpy()
        expected = gelu(x.astype(np.float64), math)
    np.testing.assert_allclose(got, expected.astype(dtype), **TOLERANCE[dtype])
    fused = " ".join(line for line in step.kernels().splitlines() if "Fuses:" in line)
    assert f"float_{form}" in fused and f"float_{form}(" not in step.source()


def test_an_input_of_another_layout_than_recorded_runs_the_uncompiled_function():
    device = Device.numpy()
    data = special(np.float32)
    bias = Tensor.from_data(special(np.float32, seed=3)[1].copy(), device=device)
    step = capture(chain_step, compile=True)
    with np.errstate(all="ignore"):
        step(Tensor.from_data(data, device=device), bias)  # recorded C-contiguous
        transposed = Tensor.from_data(np.ascontiguousarray(data.T).T, device=device)
        assert not transposed.to_numpy().flags.c_contiguous
        got = step(transposed, bias).to_numpy()
        expected = chain_step(transposed, bias).to_numpy()
    np.testing.assert_array_equal(got, expected)  # the uncompiled replay: eager's bits
    assert len(step.signatures) == 1


def test_a_compiled_update_writes_over_the_parameters_only_when_nothing_else_holds_them():
    rng = np.random.default_rng(0)
    device = Device.numpy().autodiff()
    x = Tensor.from_data(rng.standard_normal((24, 16)).astype(np.float32), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 24), device=device)
    runs = []
    for compiled in (False, True):
        model, opt = block(np.float32), optim.SGD(0.1, momentum=0.9, weight_decay=1e-3)
        step = capture(training_step, compile=compiled)
        losses = [float(step(model, opt, 0.1, x, y).to_numpy()[0]) for _ in range(5)]
        kept = model.parameters()[1]  # a tensor the user keeps: never written over
        before = kept.to_numpy().copy()
        losses.append(float(step(model, opt, 0.1, x, y).to_numpy()[0]))
        assert np.array_equal(kept.to_numpy(), before)
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-5)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)
    assert " if owned[0] else empty(" in step.source()
    memory = step.memory()
    assert memory.planned <= memory.eager


def sliced_step(x):
    a, b, c = x.split(2, 1)
    loss = (a * a).sum() + (b * 3.0).sum() + c.exp().sum()
    return loss, x.grad(loss.backward())


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_the_gradients_of_a_split_are_written_into_one_buffer_with_eagers_values(backend):
    if backend == "torch":
        pytest.importorskip("torch")
    device = (Device.torch() if backend == "torch" else Device.numpy()).autodiff()
    data = np.random.default_rng(0).standard_normal((4, 6))
    data[0, :] = [np.nan, np.inf, -np.inf, 1e300, -0.5, 2.0]
    x = Tensor.from_data(data, device=device).require_grad()
    step = capture(sliced_step, compile=True)
    with np.errstate(all="ignore"):
        expected = [t.to_numpy() for t in sliced_step(x)]
        for _ in range(2):  # the recording, then the compiled replay
            got = [t.to_numpy() for t in step(x)]
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)
    source = step.source()
    assert "summed into one buffer" in source and "float_slice_assign" not in source
    assert "[(slice(0, 4, 1), slice(2, 4, 1))] = " in source


# -- the Torch backend: its optimiser updates and element-wise chains on the tensors' memory ---


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_torch_backend_step_runs_the_updates_and_chains_in_c_within_rounding(dtype):
    pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    device = Device.torch().autodiff()
    x = Tensor.from_data(rng.standard_normal((24, 16)).astype(dtype), device=device)
    y = Tensor.from_data(rng.integers(0, 5, 24), device=device)
    runs = []
    for compiled in (False, True):
        model = block(dtype).to_device(device)
        opt = optim.AdamW(1e-2, weight_decay=0.01, grad_clip_norm=1.0)
        step = capture(training_step, compile=compiled)
        losses = [float(step(model, opt, 1e-2, x, y).to_numpy()[0]) for _ in range(8)]
        kept = model.parameters()[1]  # a tensor the user keeps: never written over
        before = kept.to_numpy().copy()
        losses.append(float(step(model, opt, 1e-2, x, y).to_numpy()[0]))
        assert np.array_equal(kept.to_numpy(), before)
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    losses_rtol, params_tolerance = ACCURACY[dtype]
    np.testing.assert_allclose(losses, plain_losses, rtol=losses_rtol)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=params_tolerance, atol=params_tolerance)
    suffix = "f32" if dtype == np.float32 else "f64"
    source = step.source()
    for name in (f"adam_step_{suffix}", f"clip_by_norm_{suffix}", f"chain_0_{suffix}"):
        assert f"    {name}(" in source or f" = {name}(" in source
    assert f"layer_norm_{suffix}" not in source  # (ATen's fused kernel stays the backend's)
    assert " if owned[0] else empty(" in source and "torch.float" in source
    memory = step.memory()
    assert 0 < memory.planned <= memory.eager


def cross_entropy_step(x, y):
    loss = F.cross_entropy(x, y)
    return loss, x.grad(loss.backward())


def test_a_class_index_out_of_range_raises_the_eager_error_before_the_fused_backward_reads_it():
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.ones((4, 3), np.float32), device=device).require_grad()
    step = capture(cross_entropy_step, compile=True)
    for _ in range(2):  # the recording, then the compiled replay
        step(x, Tensor.from_data(np.array([0, 1, 2, 1]), device=device))
    assert "cross_entropy_backward_f32(" in step.source()
    bad = Tensor.from_data(np.array([0, 1, 5, 1]), device=device)
    with pytest.raises(Exception) as eager:
        cross_entropy_step(x, bad)
    with pytest.raises(type(eager.value), match=re.escape(str(eager.value))):
        step(x, bad)


def conv_net():
    Device.numpy().seed(3)
    numpy = Device.numpy()
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1, bias=False, device=numpy),
        nn.BatchNorm(8, device=numpy),
        nn.Relu(),
        nn.Flatten(),
        nn.Linear(8 * 6 * 6, 10, device=numpy),
    ).to_device(numpy.autodiff())


def conv_batch(seed, device):
    """Six 3x6x6 float32 images and their classes, on `device`."""
    rng = np.random.default_rng(seed)
    x = Tensor.from_data(rng.standard_normal((6, 3, 6, 6)).astype(np.float32), device=device)
    return x, Tensor.from_data(rng.integers(0, 10, 6), device=device)


def conv_step(model, opt, x, y):
    loss = F.cross_entropy(model(x), y)
    opt.step(model, loss.backward(), lr=0.05)
    return loss


def test_a_compiled_conv_net_with_batch_norm_and_sgd_trains_as_the_uncompiled_replay_bit_for_bit():
    """Batch norm and its backward, cross-entropy's backward, the element-wise chains and SGD
    round as the backend's kernels do: float32 training, where one rounding of difference
    grows from step to step, stays the uncompiled replay's to the bit."""
    device = Device.numpy().autodiff()
    x, y = conv_batch(5, device)
    runs = []
    for compiled in (False, True):
        model, opt = conv_net(), optim.SGD(0.05, momentum=0.9, weight_decay=5e-4)
        step = capture(conv_step, compile=compiled)
        losses = [step(model, opt, x, y).to_numpy() for _ in range(4)]
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    for got, want in zip(losses + params, plain_losses + plain_params):
        np.testing.assert_array_equal(got, want)
    for name in ("batch_norm_training_f32", "cross_entropy_backward_f32", "sgd_step_f32"):
        assert f"void {name}(" in step.kernels()


def test_a_compiled_torch_conv_net_runs_batch_norm_and_its_backward_in_c_within_rounding():
    """On the Torch backend batch norm and its backward are the library's C kernels on the
    tensors' memory (ATen's differ from them by roundings): four SGD steps stay the uncompiled
    replay's within capture's float32 bounds."""
    pytest.importorskip("torch")
    device = Device.torch().autodiff()
    x, y = conv_batch(6, device)
    runs = []
    for compiled in (False, True):
        model, opt = conv_net().to_device(device), optim.SGD(0.05, momentum=0.9)
        step = capture(conv_step, compile=compiled)
        losses = [float(step(model, opt, x, y).to_numpy()[0]) for _ in range(4)]
        runs.append((losses, [p.to_numpy() for p in model.parameters()], step))
    (plain_losses, plain_params, _), (losses, params, step) = runs
    losses_rtol, params_tolerance = ACCURACY[np.float32]
    np.testing.assert_allclose(losses, plain_losses, rtol=losses_rtol)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=params_tolerance, atol=params_tolerance)
    for name in ("batch_norm_training_f32", "batch_norm_training_backward_f32", "sgd_step_f32"):
        assert f"void {name}(" in step.kernels()


# -- constants: what every replay would compute the same, computed once --------------------------


class Picker(nn.Module):
    """Rows of x picked by an int buffer's positions shifted by one, a causal mask from a
    range: an imported model's kind of constants."""

    def __init__(self, positions):
        super().__init__()
        self.register_buffer("positions", positions)

    def forward(self, x):
        rows = x.select(0, self.positions + 1)
        n = rows.shape[1]
        causal = Tensor.arange(0, n).reshape([n, 1]) >= Tensor.arange(0, n).reshape([1, n])
        return rows.mask_fill(causal.bool_not(), 0.0) * 2.0


def test_what_constants_and_small_buffers_compute_is_computed_once_and_checked_each_replay():
    device = Device.numpy()
    x = Tensor.from_data(np.arange(30.0, dtype=np.float32).reshape(6, 5), device=device)
    model = Picker(Tensor.from_data(np.array([0, 2, 3, 4, 1]), device=device))
    step = capture(lambda model, x: model(x), compile=True)

    def expected(positions):
        rows = x.to_numpy()[np.asarray(positions) + 1]
        return np.where(np.tril(np.ones((5, 5), bool)), rows, 0) * 2

    for _ in range(2):  # the recording, then the compiled replay
        np.testing.assert_array_equal(step(model, x).to_numpy(), expected([0, 2, 3, 4, 1]))
    source = step.source()
    assert "int_add_scalar(" not in source and "int_arange(" not in source
    assert "same_values(model_positions" in source  # the buffer the folded values came from
    # new values in the buffer: the check fails, the step records again, nothing stale
    model.positions = Tensor.from_data(np.array([4, 3, 2, 1, 0]), device=device)
    np.testing.assert_array_equal(step(model, x).to_numpy(), expected([4, 3, 2, 1, 0]))
    np.testing.assert_array_equal(step(model, x).to_numpy(), expected([4, 3, 2, 1, 0]))


def written_constant_step(x):
    zeros = Tensor.zeros([4, 5], device=x.device())
    base = zeros + 1.0  # a constant of the recording, folded: the assignment writes a copy
    base[1:3] = x[1:3]
    return base * x


def test_a_folded_constant_keeps_its_values_through_the_replays_that_read_it():
    device = Device.numpy()
    step = capture(written_constant_step, compile=True)
    rng = np.random.default_rng(0)
    for _ in range(3):
        data = rng.standard_normal((4, 5)).astype(np.float32)
        x = Tensor.from_data(data, device=device)
        want = np.ones((4, 5), np.float32)
        want[1:3] = data[1:3]
        np.testing.assert_array_equal(step(x).to_numpy(), want * data)


def accumulated_step(x):
    y = x.sum_dim(1)
    loss = (y + y).sum() + (y * 3.0).sum()
    return x.grad(loss.backward())


def test_a_constant_gradient_accumulated_in_place_is_computed_at_every_replay():
    """A linear loss's gradients are constants of the recording, but the one accumulated in
    place (`add_2 += expand_1`) is computed at every replay: folded, it would hold the sum."""
    device = Device.numpy().autodiff()
    x = Tensor.from_data(np.arange(6.0).reshape(2, 3), device=device).require_grad()
    step = capture(accumulated_step, compile=True)
    for _ in range(3):
        np.testing.assert_array_equal(step(x).to_numpy(), np.full((2, 3), 5.0))
    assert "gradient accumulated" in step.source()
