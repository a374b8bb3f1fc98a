"""burn's rfft/irfft tests (cubecl/fft.rs fixed-value cases, autodiff/rfft.rs) through
`burnpy.generated.module.rfft`/`irfft`, on both backends and both autodiff strategies, with burn's
data, expected values and tolerances (Tolerance::absolute(1e-3 / 1e-4); default for the
autodiff round trips)."""

import math

import numpy as np
import pytest

from burnpy.generated import Tensor, module
from signal_check import BACKENDS, BALANCED, STRATEGIES, assert_approx_eq, autodiff_device, device

R = 1 / math.sqrt(2)
SINE = [0.0, R + 0.5, 1.0, R - 0.5, 0.0, -(R - 0.5), -1.0, -(R + 0.5)]
COSINE = [1.0, R, 0.0, -R, -1.0, -R, 0.0, R]
ABS = dict(relative=0.0, absolute=1e-3)

# (signal, dim, n, expected re, expected im)
RFFT = {
    "constant": ([1.0, 1.0, 1.0, 1.0], 0, None, [4, 0, 0], [0, 0, 0]),
    "length2": ([1.0, -1.0], 0, None, [0, 2], [0, 0]),
    "dim1_sine_wave": ([SINE], 1, None, [[0] * 5], [[0, -4, -2, 0, 0]]),
    "dim1_cosine_wave": ([COSINE], 1, None, [[0, 4, 0, 0, 0]], [[0] * 5]),
    "dim1_2d_distinct_rows": (
        [[0, R, 1, R, 0, -R, -1, -R], [0, 1, 0, -1, 0, 1, 0, -1]],
        1,
        None,
        [[0] * 5] * 2,
        [[0, -4, 0, 0, 0], [0, 0, -4, 0, 0]],
    ),
    "n_larger_than_signal": ([1.0, 0.0, 0.0, 0.0], 0, 8, [1] * 5, [0] * 5),
    "n_smaller_than_signal": ([1.0, 0, 0, 0, 99, 99, 99, 99], 0, 4, [1] * 3, [0] * 3),
}


@pytest.mark.parametrize("name", sorted(RFFT))
@pytest.mark.parametrize("backend", BACKENDS)
def test_rfft(backend, name):
    signal, dim, n, re, im = RFFT[name]
    out_re, out_im = module.rfft(
        Tensor.from_data(np.float32(signal), device=device(backend)), dim, n
    )
    assert_approx_eq(out_re.to_numpy(), re, **ABS)
    assert_approx_eq(out_im.to_numpy(), im, **ABS)


@pytest.mark.parametrize("backend", BACKENDS)
def test_irfft(backend):
    d = device(backend)
    cases = [  # irfft_dim1_imaginary_spectrum, _real_spectrum, irfft_dim0_2d_tensor
        ([[0.0] * 5], [[0.0, -4.0, -2.0, 0.0, 0.0]], 1, [SINE]),
        ([[0.0, 4.0, 0.0, 0.0, 0.0]], [[0.0] * 5], 1, [COSINE]),
        (
            [[0.0, 0.0], [4.0, 4.0], [0, 0], [0, 0], [0, 0]],
            [[0.0, 0.0]] * 5,
            0,
            [[c, c] for c in COSINE],
        ),
    ]
    for re, im, dim, expected in cases:
        out = module.irfft(*(Tensor.from_data(np.float32(a), device=d) for a in (re, im)), dim)
        assert_approx_eq(out.to_numpy(), expected, **ABS)
    with pytest.raises(ValueError, match="power of two"):
        module.rfft(Tensor.from_data(np.float32([1, 2, 3, 4]), device=d), 0, 5)


RANDOM = [
    0.26,
    0.13,
    0.36,
    0.24,
    0.40,
    0.93,
    0.12,
    0.18,
    0.03,
    0.74,
    0.33,
    0.70,
    0.07,
    0.61,
    0.32,
    0.66,
]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_should_diff_rfft(backend, strategy):
    d = autodiff_device(backend, strategy)
    x = Tensor.from_data(np.float32(RANDOM[:8]), device=d).require_grad()
    y = Tensor.from_data(np.float32(RANDOM[8:]), device=d)
    x_re, x_im = module.rfft(x, 0)
    y_re, y_im = module.rfft(y, 0)
    loss = (x_re * y_re + x_im * y_im).sum()
    prod = (x.grad(loss.backward()).to_numpy() * x.to_numpy()).sum()
    assert_approx_eq([prod], [loss.item()], **BALANCED)


# autodiff/rfft.rs round trips: (data, reshape, dim, n, how many leading entries compare)
ROUND_TRIPS = {
    "round_trip": (RANDOM, None, 0, None, 16),
    "with_dim_nonzero": (RANDOM, (1, 1, -1, 1, 1), 2, None, 16),
    "with_some_n_greater": (RANDOM[:13], None, 0, 16, 13),
    "with_some_n_less": (RANDOM + [0.16, 0.05, 0.69], None, 0, 16, 16),
}


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_round_trip(backend, strategy, name):
    data, shape, dim, n, keep = ROUND_TRIPS[name]
    d = autodiff_device(backend, strategy)
    x = Tensor.from_data(np.float32(data), device=d)
    x = (x if shape is None else x.reshape(shape)).require_grad()
    re, im = module.rfft(x * 3.0, dim, n)
    y = module.irfft(re * 2.0, im * 2.0, dim, n) / 6.0
    grad = x.grad(((y * y).sum() * 0.5).backward()).to_numpy().reshape(-1)
    assert_approx_eq(grad[:keep], np.float32(data)[:keep], **BALANCED)


@pytest.mark.parametrize("length,keep", [(7, 7), (12, 9)])  # inverse_with_some_n_greater/less
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_round_trip_inverse(backend, strategy, length, keep):
    d = autodiff_device(backend, strategy)
    data = np.float32(RANDOM[:length])
    t = Tensor.from_data(data, device=d).require_grad()
    x = module.irfft(t * 2.0, t.zeros_like(), 0, 16) / 6.0
    y, _ = module.rfft(x * 3.0, 0, 16)
    grad = t.grad(((y * y).sum() * 0.5).backward()).to_numpy()
    assert_approx_eq(grad[:keep], data[:keep], **BALANCED)
