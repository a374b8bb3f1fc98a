"""burn's tests of max_pool1d/2d (and `_with_indices`), avg_pool1d/2d and adaptive_avg_pool1d/2d/3d
(burn-backend-tests tensor/float/module/ and autodiff/), through `burnpy.generated.module`, with burn's
data, expected values and tolerances, on both backends and, for gradients, under both
checkpointing strategies."""

import itertools
import math

import numpy as np
import pytest

from burn_pool_cases import (
    ADAPTIVE_AVG_POOL1D,
    ADAPTIVE_AVG_POOL1D_GRADS,
    ADAPTIVE_AVG_POOL2D,
    ADAPTIVE_AVG_POOL2D_GRADS,
    ADAPTIVE_AVG_POOL3D,
    ADAPTIVE_AVG_POOL3D_GRADS,
    AVG_POOL1D,
    AVG_POOL1D_GRADS,
    AVG_POOL2D,
    AVG_POOL2D_GRADS,
    MAX_POOL1D,
    MAX_POOL1D_GRADS,
    MAX_POOL2D,
    MAX_POOL2D_GRADS,
)
from burncheck import (
    AUTODIFF_DEVICES,
    DEVICES,
    Tolerance,
    arange,
    assert_approx_eq,
    assert_eq,
    tensor,
)
from burnpy.generated import module

# -- max pools: burn's explicit cases ---------------------------------------------------------

MAX_POOL = {1: module.max_pool1d, 2: module.max_pool2d}
MAX_POOL_WITH_INDICES = {1: module.max_pool1d_with_indices, 2: module.max_pool2d_with_indices}


def max_cases(table, n):
    return [pytest.param(n, options, x, expected, id=name) for name, options, x, expected in table]


def max_pool_call(n, options, x, *, with_indices):
    options = dict(options)
    kernel_size = options.pop("kernel_size")
    op = (MAX_POOL_WITH_INDICES if with_indices else MAX_POOL)[n]
    return op(x, kernel_size, **options)


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize(
    "n, options, x, expected", [*max_cases(MAX_POOL1D, 1), *max_cases(MAX_POOL2D, 2)]
)
def test_max_pool(make_device, n, options, x, expected):
    x = tensor(x, make_device())
    if "indices" in expected:
        output, indices = max_pool_call(n, options, x, with_indices=True)
        assert_eq(indices, expected["indices"])
    else:
        output = max_pool_call(n, options, x, with_indices=False)
    assert_approx_eq(output, expected["expected"], Tolerance.default())


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize(
    "n, options, x, expected",
    [*max_cases(MAX_POOL1D_GRADS, 1), *max_cases(MAX_POOL2D_GRADS, 2)],
)
@pytest.mark.parametrize("with_indices", [False, True], ids=["max_pool", "with_indices"])
def test_max_pool_grads(make_device, n, options, x, expected, with_indices):
    # burn's gradient tests call max_pool*d; the `_with_indices` form has the same gradient
    # (burn's max_pool*d backward is max_pool*d_with_indices_backward).
    x = tensor(x, make_device(), grad=True)
    output = max_pool_call(n, options, x, with_indices=with_indices)
    if with_indices:
        output = output[0]
    grads = output.backward()
    assert_approx_eq(x.grad(grads), expected["x_grad"], Tolerance.default())


# -- avg pools --------------------------------------------------------------------------------


def per_dim(fields, name, n):
    if n == 1:
        return fields[name]
    return [fields[f"{name}_{i + 1}"] for i in range(n)]


def avg_pool(fields, n, device, *, grad=False):
    size = [fields["length"]] if n == 1 else [fields["height"], fields["width"]]
    x = arange([fields["batch_size"], fields["channels"], *size], device, grad=grad)
    op = module.avg_pool1d if n == 1 else module.avg_pool2d
    output = op(
        x,
        per_dim(fields, "kernel_size", n),
        stride=per_dim(fields, "stride", n),
        padding=per_dim(fields, "padding", n),
        count_include_pad=fields["count_include_pad"],
    )
    return x, output


def cases(table, n):
    return [pytest.param(fields, n, expected, id=name) for name, fields, expected in table]


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("fields, n, expected", [*cases(AVG_POOL1D, 1), *cases(AVG_POOL2D, 2)])
def test_avg_pool(make_device, fields, n, expected):
    _, output = avg_pool(fields, n, make_device())
    assert_approx_eq(output, expected["expected"], Tolerance.default())


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize(
    "fields, n, expected", [*cases(AVG_POOL1D_GRADS, 1), *cases(AVG_POOL2D_GRADS, 2)]
)
def test_avg_pool_grads(make_device, fields, n, expected):
    x, output = avg_pool(fields, n, make_device(), grad=True)
    grads = output.backward()
    assert_approx_eq(x.grad(grads), expected["expected"], Tolerance.default())


SIX_BY_SIX = np.arange(36.0).reshape(1, 1, 6, 6)


@pytest.mark.parametrize("make_device", DEVICES)
def test_avg_pool1d_ceil_mode(make_device):
    x = tensor([[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]], make_device())
    floor = module.avg_pool1d(x, 3, stride=2, padding=0, count_include_pad=True)
    assert_approx_eq(floor, [[[1.0, 3.0]]], Tolerance.default())
    ceil = module.avg_pool1d(x, 3, stride=2, padding=0, count_include_pad=False, ceil_mode=True)
    assert_approx_eq(ceil, [[[1.0, 3.0, 4.5]]], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_avg_pool1d_ceil_mode_count_include_pad(make_device):
    x = tensor([[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]], make_device())
    output = module.avg_pool1d(x, 3, stride=2, padding=1, count_include_pad=True, ceil_mode=True)
    # burn's tolerance: default() with a half-precision relative of 1e-2 (f32: default)
    assert_approx_eq(output, [[[0.3333, 2.0, 4.0, 2.5]]], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_avg_pool2d_ceil_mode(make_device):
    x = tensor(SIX_BY_SIX, make_device())
    floor = module.avg_pool2d(x, [3, 3], stride=[2, 2], padding=[0, 0], count_include_pad=True)
    assert_approx_eq(floor, [[[[7.0, 9.0], [19.0, 21.0]]]], Tolerance.default())
    ceil = module.avg_pool2d(
        x, [3, 3], stride=[2, 2], padding=[0, 0], count_include_pad=False, ceil_mode=True
    )
    expected = [[[[7.0, 9.0, 10.5], [19.0, 21.0, 22.5], [28.0, 30.0, 31.5]]]]
    assert_approx_eq(ceil, expected, Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_avg_pool2d_ceil_mode_count_include_pad(make_device):
    x = tensor(SIX_BY_SIX, make_device())
    output = module.avg_pool2d(
        x, [3, 3], stride=[2, 2], padding=[1, 1], count_include_pad=True, ceil_mode=True
    )
    expected = [
        [
            [
                [1.5556, 3.3333, 4.6667, 2.6667],
                [8.3333, 14.0000, 16.0000, 8.5000],
                [16.3333, 26.0000, 28.0000, 14.5000],
                [10.1667, 16.0000, 17.0000, 8.7500],
            ]
        ]
    ]
    assert_approx_eq(output, expected, Tolerance.default())


# -- adaptive avg pools -----------------------------------------------------------------------

ADAPTIVE = {
    1: module.adaptive_avg_pool1d,
    2: module.adaptive_avg_pool2d,
    3: module.adaptive_avg_pool3d,
}


def adaptive_fields(fields, n):
    """(input size, output size) from burn's differently named TestCase fields."""
    size = {1: ["length"], 2: ["height", "width"], 3: ["depth", "height", "width"]}[n]
    if "output_size" in fields:
        out = fields["output_size"]
    elif "output_size_1" in fields:
        out = [fields["output_size_1"], fields["output_size_2"]]
    else:
        out = [fields[f"{name}_out"] for name in size]
        out = out[0] if n == 1 else out
    return [fields[name] for name in size], out


def adaptive_avg_pool(fields, n, device, *, grad=False):
    size, output_size = adaptive_fields(fields, n)
    x = arange([fields["batch_size"], fields["channels"], *size], device, grad=grad)
    return x, ADAPTIVE[n](x, output_size)


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize(
    "fields, n, expected",
    [
        *cases(ADAPTIVE_AVG_POOL1D, 1),
        *cases(ADAPTIVE_AVG_POOL2D, 2),
        *cases(ADAPTIVE_AVG_POOL3D, 3),
    ],
)
def test_adaptive_avg_pool(make_device, fields, n, expected):
    _, output = adaptive_avg_pool(fields, n, make_device())
    assert_approx_eq(output, expected["expected"], Tolerance.default())


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
@pytest.mark.parametrize(
    "fields, n, expected",
    [
        *cases(ADAPTIVE_AVG_POOL1D_GRADS, 1),
        *cases(ADAPTIVE_AVG_POOL2D_GRADS, 2),
        *cases(ADAPTIVE_AVG_POOL3D_GRADS, 3),
    ],
)
def test_adaptive_avg_pool_grads(make_device, fields, n, expected):
    x, output = adaptive_avg_pool(fields, n, make_device(), grad=True)
    grads = output.backward()
    assert_approx_eq(x.grad(grads), expected["expected"], Tolerance.default())


def adaptive_avg_pool3d_loops(x, output_size):
    """Each output cell averages input [floor(i * L / n), ceil((i + 1) * L / n)) per axis."""
    out = np.zeros((*x.shape[:2], *output_size))
    for cell in itertools.product(*map(range, output_size)):
        window = tuple(
            slice(i * size // n, math.ceil((i + 1) * size / n))
            for i, size, n in zip(cell, x.shape[2:], output_size)
        )
        out[(..., *cell)] = x[(..., *window)].mean(axis=(-3, -2, -1))
    return out


# burn checks these three with loose facts only (finite, non-negative, a mean near the input's);
# the loop reference above pins every value, and burn's facts are kept.
@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize(
    "shape, output_size, mean",
    [
        pytest.param(
            [1, 2, 4, 6, 8], [2, 3, 2], 383.0 / 2.0, id="test_adaptive_avg_pool3d_asymmetric"
        ),
        pytest.param(
            [1, 2, 5, 7, 9], [3, 4, 5], None, id="test_adaptive_avg_pool3d_dyn_filter_size"
        ),
        pytest.param([1, 1, 2, 3, 4], [3, 4, 5], 11.5, id="test_adaptive_avg_pool3d_bigger_output"),
    ],
)
def test_adaptive_avg_pool3d_against_loops(make_device, shape, output_size, mean):
    x = arange(shape, make_device())
    output = module.adaptive_avg_pool3d(x, output_size).to_numpy()
    assert output.shape == (*shape[:2], *output_size)
    assert np.isfinite(output).all() and (output >= 0).all()
    if mean is not None:
        assert abs(output.mean() - mean) < 2.0
    expected = adaptive_avg_pool3d_loops(
        np.arange(math.prod(shape), dtype=np.float64).reshape(shape), output_size
    )
    assert_approx_eq(output, expected, Tolerance.default())


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_adaptive_avg_pool3d_backward_dyn_filter(make_device):
    # burn checks non-negative, non-zero gradients; each of the 2*3*4 output cells spreads a
    # seed of one over its window, so the gradient sums to 24 and every input is covered.
    x = arange([1, 1, 4, 6, 8], make_device(), grad=True)
    grads = module.adaptive_avg_pool3d(x, [2, 3, 4]).backward()
    grad = x.grad(grads).to_numpy()
    assert (grad > 0).all()
    assert abs(grad.sum() - 24.0) < 1e-4
