"""The optimisers' fused updates (`burnpy.generated.optim`) against float64 references, on every
backend: each Adam/AdamW variant, the first step (no moments yet), and clipping by norm on both
sides of its threshold. Then what their being untracked means under autodiff."""

import itertools

import numpy as np
import pytest

import refs
from burnpy.generated import Device, Tensor, optim
from opinfo import BACKENDS, devices

HYPER = dict(lr=0.05, beta_1=0.9, beta_2=0.999, epsilon=1e-5, weight_decay=0.3)


def _arrays(seed=0, shape=(3, 4)):
    rng = np.random.default_rng(seed)
    param, grad, m = (rng.standard_normal(shape) for _ in range(3))
    v, v_max = rng.uniform(0.0, 2.0, shape), rng.uniform(0.0, 2.0, shape)
    return param, grad, m, v, v_max


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("first", [False, True])
@pytest.mark.parametrize(
    "decoupled, cautious, amsgrad",
    [c for c in itertools.product([False, True], repeat=3) if c[0] or not c[1]],
)
def test_adam_step_matches_the_float64_reference(backend, first, decoupled, cautious, amsgrad):
    device = devices(backend)["plain"]
    param, grad, m, v, v_max = _arrays()
    if first:
        m = v = v_max = None
    flags = dict(decoupled=decoupled, cautious=cautious, amsgrad=amsgrad)
    time = 1 if first else 7
    corrections = dict(
        bias_correction_1=1 - HYPER["beta_1"] ** time, bias_correction_2=1 - HYPER["beta_2"] ** time
    )
    expected = refs.adam_step(
        param, grad, m, v, v_max, *HYPER.values(), *corrections.values(), *flags.values()
    )
    tensor = lambda a: None if a is None else Tensor.from_data(a, device=device)
    got = optim.adam_step(*map(tensor, (param, grad, m, v, v_max)), **HYPER, **corrections, **flags)
    for name, g, e in zip(("param", "moment_1", "moment_2", "max_moment_2"), got, expected):
        np.testing.assert_allclose(g.to_numpy(), e, rtol=1e-12, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("threshold", [0.5, 100.0])
def test_clip_by_norm_scales_only_beyond_the_threshold(backend, dtype, threshold):
    grad = np.random.default_rng(1).standard_normal((5, 3)).astype(dtype)
    got = optim.clip_by_norm(Tensor.from_data(grad, device=devices(backend)["plain"]), threshold)
    expected = refs.clip_by_norm(grad, threshold)
    np.testing.assert_allclose(got.to_numpy(), expected, rtol=1e-6 if dtype == "float32" else 1e-12)
    norm = np.linalg.norm(got.to_numpy().astype(np.float64))
    assert norm == pytest.approx(min(threshold, np.linalg.norm(grad.astype(np.float64))), rel=1e-5)


@pytest.mark.parametrize("backend", BACKENDS)
def test_clip_by_norm_keeps_nan_and_zeros(backend):
    device = devices(backend)["plain"]
    nan = optim.clip_by_norm(Tensor.from_data([1.0, float("nan")], device=device), 1.0)
    assert np.isnan(nan.to_numpy()).all()  # as grad * clamp(NaN, max=1): no value is trusted
    zeros = optim.clip_by_norm(Tensor.from_data([0.0, 0.0], device=device), 1.0)
    np.testing.assert_array_equal(zeros.to_numpy(), [0.0, 0.0])


def test_the_updates_are_untracked_under_autodiff():
    device = Device.numpy().autodiff()
    param = Tensor.from_data([1.0, -2.0], device=device).require_grad()
    grad = Tensor.from_data([0.5, 0.5], device=device).require_grad()
    clipped = optim.clip_by_norm(grad, 0.1)
    results = optim.adam_step(
        param, clipped, **HYPER, bias_correction_1=0.1, bias_correction_2=0.001
    )
    for result in (clipped, *results):
        assert result.device() == device
        assert not result.is_require_grad()
    # nothing was recorded for them: the parameter's own graph is untouched
    grads = (param * 2.0).sum().backward()
    np.testing.assert_array_equal(param.grad(grads).to_numpy(), [2.0, 2.0])
    assert grad.grad(grads) is None


def test_a_moment_of_another_shape_is_refused_by_name():
    with pytest.raises(ValueError, match="`param` \\[2\\] and `grad` \\[3\\] must have one shape"):
        optim.adam_step(
            Tensor.from_data([1.0, 2.0]),
            Tensor.from_data([1.0, 2.0, 3.0]),
            **HYPER,
            bias_correction_1=0.1,
            bias_correction_2=0.001,
        )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("first", [False, True])
@pytest.mark.parametrize(
    "momentum, dampening, nesterov", [(0.0, 0.1, False), (0.9, 0.1, False), (0.9, 0.0, True)]
)
def test_sgd_step_matches_the_float64_reference(backend, first, momentum, dampening, nesterov):
    device = devices(backend)["plain"]
    param, grad, velocity, _, _ = _arrays(2)
    velocity = None if first else velocity
    options = dict(lr=0.1, momentum=momentum, dampening=dampening, weight_decay=0.01)
    expected = refs.sgd_step(param, grad, velocity, *options.values(), nesterov)
    tensor = lambda a: None if a is None else Tensor.from_data(a, device=device)
    got = optim.sgd_step(*map(tensor, (param, grad, velocity)), **options, nesterov=nesterov)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.to_numpy(), e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("first", [False, True])
@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_rmsprop_step_matches_the_float64_reference(backend, first, centered, momentum):
    device = devices(backend)["plain"]
    param, grad, grad_avg, square_avg, buffer = _arrays(3)
    square_avg = square_avg + grad_avg * grad_avg  # a state a run could reach: avg >= mean²
    if first:
        square_avg = grad_avg = buffer = None
    options = dict(lr=0.01, alpha=0.99, epsilon=1e-5, weight_decay=0.1, momentum=momentum)
    expected = refs.rmsprop_step(
        param, grad, square_avg, grad_avg, buffer, *options.values(), centered
    )
    tensor = lambda a: None if a is None else Tensor.from_data(a, device=device)
    got = optim.rmsprop_step(
        *map(tensor, (param, grad, square_avg, grad_avg, buffer)), **options, centered=centered
    )
    for g, e in zip(got, expected):
        assert np.isfinite(e).all()
        np.testing.assert_allclose(g.to_numpy(), e, rtol=1e-12, atol=1e-12)


# A parameter larger than one block, not a whole number of blocks: the last one is short.
LARGE = (300, 701)


def spied_blocks(monkeypatch):
    """The block counts numpy_optim.blocks gives while the test runs (None: not by blocks)."""
    from burnpy.runtime.backends import numpy_optim

    counts, blocks = [], numpy_optim.blocks

    def spy(*arrays):
        parts = blocks(*arrays)
        counts.append(None if parts is None else len(parts))
        return parts

    monkeypatch.setattr(numpy_optim, "blocks", spy)
    return counts


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("nesterov, dampening", [(False, 0.0), (True, 0.0), (False, 0.25)])
def test_a_large_in_place_sgd_step_goes_by_blocks_with_the_whole_kernels_bits(
    monkeypatch, dtype, nesterov, dampening
):
    """The NumPy backend runs a large in-place step over cache-sized blocks (numpy_optim): the
    same values as the float64 reference, the same bits as the shared kernel over the whole
    arrays, in the buffers given."""
    from burnpy.runtime.backends import numpy_optim
    from burnpy.runtime.backends.kernels.optim import OptimKernels
    from burnpy.runtime.backends.numpy import BACKEND

    rng = np.random.default_rng(3)
    param, grad, velocity = (rng.standard_normal(LARGE).astype(dtype) for _ in range(3))
    settings = (0.05, 0.9, dampening, 0.3, nesterov)
    whole = OptimKernels.sgd_step(BACKEND, param.copy(), grad, velocity.copy(), *settings, True)
    expected = refs.sgd_step(*(a.astype(np.float64) for a in (param, grad, velocity)), *settings)
    p, v = param.copy(), velocity.copy()
    counts = spied_blocks(monkeypatch)
    got = BACKEND.sgd_step(p, grad, v, *settings, in_place=True)
    assert counts == [len(range(0, param.nbytes, numpy_optim.BLOCK_BYTES))]
    assert got[0] is p and got[1] is v
    for name, g, w, e in zip(("param", "velocity"), got, whole, expected):
        np.testing.assert_array_equal(g, w, err_msg=name)
        tolerance = 1e-5 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(g, e, rtol=tolerance, atol=tolerance, err_msg=name)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("decoupled, cautious", [(False, False), (True, False), (True, True)])
def test_a_large_in_place_adam_step_goes_by_blocks_with_the_whole_kernels_bits(
    monkeypatch, dtype, decoupled, cautious
):
    from burnpy.runtime.backends import numpy_optim
    from burnpy.runtime.backends.kernels.optim import OptimKernels
    from burnpy.runtime.backends.numpy import BACKEND

    rng = np.random.default_rng(4)
    param, grad, m = (rng.standard_normal(LARGE).astype(dtype) for _ in range(3))
    v = rng.uniform(0.0, 2.0, LARGE).astype(dtype)
    settings = (*HYPER.values(), 1 - 0.9**7, 1 - 0.999**7, decoupled, cautious, False)
    whole = OptimKernels.adam_step(
        BACKEND, param.copy(), grad, m.copy(), v.copy(), None, *settings, True
    )
    wide = (a.astype(np.float64) for a in (param, grad, m, v))
    expected = refs.adam_step(*wide, None, *settings)
    p, m_, v_ = param.copy(), m.copy(), v.copy()
    counts = spied_blocks(monkeypatch)
    got = BACKEND.adam_step(p, grad, m_, v_, None, *settings, in_place=True)
    assert counts == [len(range(0, param.nbytes, numpy_optim.BLOCK_BYTES))]
    assert got[0] is p and got[1] is m_ and got[2] is v_ and got[3] is v_
    for name, g, w, e in zip(
        ("param", "moment_1", "moment_2", "max_moment_2"), got, whole, expected
    ):
        np.testing.assert_array_equal(g, w, err_msg=name)
        tolerance = 1e-5 if dtype == "float32" else 1e-12
        np.testing.assert_allclose(g, e, rtol=tolerance, atol=tolerance, err_msg=name)
