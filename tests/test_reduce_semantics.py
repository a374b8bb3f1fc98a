"""Reductions, scans and order statistics: what the spec-driven suite cannot express.

Where burn's backward is wrong (prod's `g * out / x` at zeros, topk under autodiff), these pin
the correct gradient against a brute-force one; the rest pins burn's tie and NaN rules, the
(values, indices) pair under autodiff, and int rounding.
"""

import itertools

import numpy as np
import pytest

from burnpy.generated import Device, Distribution, Tensor

PLAIN = Device.numpy()
AUTODIFF = PLAIN.autodiff()
BALANCED = AUTODIFF.gradient_checkpointing()


def leaf(data, device=AUTODIFF):
    return Tensor.from_data(np.array(data, dtype=np.float64), device=device).require_grad()


def gradient(x, y, cotangent=None):
    """d sum(y * cotangent) / dx, as numpy."""
    weights = np.ones(y.shape) if cotangent is None else cotangent
    grads = (y * Tensor.from_data(weights, device=x.device())).sum().backward()
    return x.grad(grads).to_numpy()


def brute_prod_gradient(x, axis):
    """The product of the other elements of each lane, by multiplying them out."""
    x = np.moveaxis(x, axis, -1)
    grad = np.empty_like(x)
    for index in np.ndindex(x.shape):
        lane = x[index[:-1]]
        grad[index] = np.prod(np.delete(lane, index[-1]))
    return np.moveaxis(grad, -1, axis)


def brute_cumprod_gradient(x, g):
    """d sum_j g_j * prod_{i<=j} x_i / d x_k over the last axis, term by term."""
    grad = np.zeros_like(x)
    n = x.shape[-1]
    for lane in np.ndindex(x.shape[:-1]):
        for k, j in itertools.product(range(n), range(n)):
            if j >= k:
                others = np.delete(x[lane][: j + 1], k)
                grad[lane][k] += g[lane][j] * np.prod(others)
    return grad


# -- prod: burn's rule is NaN at a zero ---------------------------------------------------------

LANES_WITH_ZEROS = [[0.0, 2.0, -3.0], [0.0, 0.0, 4.0], [1.5, -2.0, 0.5]]


@pytest.mark.parametrize("device", [AUTODIFF, BALANCED], ids=["no-ckpt", "balanced"])
def test_prod_dim_gradient_is_exact_at_zeros(device):
    data = np.array(LANES_WITH_ZEROS)
    x = leaf(data, device)
    grad = gradient(x, (x * 1.0).prod_dim(1))

    with np.errstate(divide="ignore", invalid="ignore"):
        burn = np.prod(data, axis=1, keepdims=True) / data  # burn's `g * out / x`
    assert np.isnan(burn).any()  # the case burn gets wrong
    np.testing.assert_array_equal(grad, brute_prod_gradient(data, 1))
    np.testing.assert_array_equal(grad[0], [-6.0, 0.0, 0.0])  # one zero: the others' product
    np.testing.assert_array_equal(grad[1], [0.0, 0.0, 0.0])  # two zeros: nothing moves it


def test_prod_gradient_is_exact_at_zeros():
    data = np.array([[0.0, 2.0], [-3.0, 0.5]])
    x = leaf(data)
    grad = gradient(x, x.prod())
    np.testing.assert_array_equal(grad, [[-3.0, 0.0], [0.0, 0.0]])
    y = leaf(data[1:])
    np.testing.assert_array_equal(gradient(y, y.prod()), [[0.5, -3.0]])  # no zero: p / x


# -- cumprod: zero-safe (docs/semantics.md#reductions-scans-and-order-statistics) ----------------


@pytest.mark.parametrize("device", [AUTODIFF, BALANCED], ids=["no-ckpt", "balanced"])
def test_cumprod_gradient_with_zeros_matches_the_expanded_products(device):
    data = np.array([[0.5, 0.0, 2.0, -1.5], [1.5, -2.0, 0.0, 0.0], [0.0, 3.0, 0.5, 2.0]])
    cotangent = np.random.default_rng(0).uniform(0.5, 1.5, size=data.shape)
    x = leaf(data, device)
    grad = gradient(x, (x * 1.0).cumprod(1), cotangent)
    assert np.isfinite(grad).all()
    np.testing.assert_allclose(grad, brute_cumprod_gradient(data, cotangent), rtol=1e-12)


def test_cumsum_gradient_is_the_reverse_running_sum():
    x = leaf([[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(
        gradient(x, x.cumsum(1), np.array([[1.0, 10.0, 100.0]])), [[111.0, 110.0, 100.0]]
    )


def test_cummax_gradient_goes_to_the_element_each_output_came_from():
    x = leaf([[1.0, 3.0, 2.0, 5.0, 4.0]])
    np.testing.assert_array_equal(x.cummax(1).to_numpy(), [[1.0, 3.0, 3.0, 5.0, 5.0]])
    np.testing.assert_array_equal(gradient(x, x.cummax(1)), [[1.0, 2.0, 0.0, 2.0, 0.0]])
    np.testing.assert_array_equal(gradient(x, x.cummin(1)), [[5.0, 0.0, 0.0, 0.0, 0.0]])


# -- topk: burn's autodiff has `unimplemented!` -------------------------------------------------


@pytest.mark.parametrize("device", [AUTODIFF, BALANCED], ids=["no-ckpt", "balanced"])
def test_topk_is_differentiable(device):
    data = np.array([[0.5, 3.0, -1.0, 2.0], [4.0, 1.0, 2.5, -3.0]])
    x = leaf(data, device)
    top = (x * 1.0).topk(2, 1)
    np.testing.assert_array_equal(top.to_numpy(), [[3.0, 2.0], [4.0, 2.5]])
    grad = gradient(x, top, np.array([[10.0, 20.0], [30.0, 40.0]]))
    np.testing.assert_array_equal(grad, [[0.0, 10.0, 0.0, 20.0], [30.0, 0.0, 40.0, 0.0]])


def test_topk_refuses_k_larger_than_the_dim():
    with pytest.raises(ValueError, match="k must be in"):
        Tensor.from_data([[1.0, 2.0]]).topk(3, 1)


def test_order_statistic_ties_go_to_the_lowest_index():
    """burn-backend-tests: `test_arg_extrema_ties_use_lowest_index`, topk's documented rule."""
    for t in (Tensor.from_data([[3.0, 3.0, -2.0, -2.0]]), Tensor.from_data([[3, 3, -2, -2]])):
        assert t.argmax(1).tolist() == [[0]]
        assert t.argmin(1).tolist() == [[2]]
        assert t.max_dim_with_indices(1)[1].tolist() == [[0]]
        assert t.min_dim_with_indices(1)[1].tolist() == [[2]]
        assert t.argtopk(3, 1).tolist() == [[0, 1, 2]]


def test_sorting_is_stable_in_both_directions():
    t = Tensor.from_data([[2, 1, 2, 1, 3]])
    assert t.argsort(1).tolist() == [[1, 3, 0, 2, 4]]
    assert t.argsort(1, descending=True).tolist() == [[4, 0, 2, 1, 3]]
    values, indices = t.float().sort_with_indices(1, descending=True)
    assert values.tolist() == [[3.0, 2.0, 2.0, 1.0, 1.0]]
    assert indices.tolist() == [[4, 0, 2, 1, 3]]
    assert t.sort(1).tolist() == [[1, 1, 2, 2, 3]]


def test_nan_wins_extrema_and_sorts_last_ascending():
    """burn: `test_argmax_and_argmin_nan_propagation` (the first NaN's index)."""
    t = Tensor.from_data([[1.0, np.nan, -3.0, np.nan]])
    assert t.argmax(1).tolist() == [[1]] and t.argmin(1).tolist() == [[1]]
    values, indices = t.max_dim_with_indices(1)
    assert np.isnan(values.item()) and indices.tolist() == [[1]]
    assert np.isnan(t.max().item())
    np.testing.assert_array_equal(t.sort(1).to_numpy(), [[-3.0, 1.0, np.nan, np.nan]])
    np.testing.assert_array_equal(
        t.sort(1, descending=True).to_numpy(), [[np.nan, np.nan, 1.0, -3.0]]
    )


# -- (values, indices) pairs under autodiff -----------------------------------------------------


@pytest.mark.parametrize("device", [AUTODIFF, BALANCED], ids=["no-ckpt", "balanced"])
def test_max_dim_with_indices_returns_a_tracked_float_and_an_int_with_the_context(device):
    data = np.array([[1.0, 5.0, 2.0], [7.0, -1.0, 3.0]])
    x = leaf(data, device)
    values, indices = x.max_dim_with_indices(1)

    assert values.is_tracked() and values.tensor_kind().value == "Float"
    assert indices.tensor_kind().value == "Int" and not indices.kind.is_autodiff
    assert indices.context is values.context is x.context  # the int carries the autodiff context
    assert indices.device() == x.device() and indices.device().is_autodiff()
    assert indices.tolist() == [[1], [0]]
    np.testing.assert_array_equal(gradient(x, values), [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


def test_max_and_max_abs_differentiate_through_their_parts():
    x = leaf([[1.0, -5.0], [2.0, 4.0]])
    np.testing.assert_array_equal(gradient(x, x.max()), [[0.0, 0.0], [0.0, 1.0]])
    np.testing.assert_array_equal(gradient(x, x.max_abs()), [[0.0, -1.0], [0.0, 0.0]])
    np.testing.assert_array_equal(gradient(x, x.min_dim(0)), [[1.0, 1.0], [0.0, 0.0]])


def test_indices_and_truth_tests_are_not_differentiable():
    x = leaf([[1.0, 0.0]])
    assert x.argmax(1).tensor_kind().value == "Int"
    assert x.any().tolist() == [True] and x.all().tolist() == [False]
    assert x.all_dim(0).tolist() == [[True, False]]


# -- int reductions -----------------------------------------------------------------------------


def test_int_mean_truncates_toward_zero():
    """burn divides the int sum by the count; numpy's `//` would floor -7 / 2 to -4."""
    assert Tensor.from_data([-7, 0]).mean().tolist() == [-3]
    assert Tensor.from_data([[-7, 0], [7, 0]]).mean_dim(1).tolist() == [[-3], [3]]


def test_int32_sums_and_products_stay_int32():
    t = Tensor.from_data(np.array([[2, 3], [4, 5]], dtype=np.int32))
    for result in (t.sum(), t.sum_dim(0), t.prod(), t.prod_dim(1), t.cumsum(0), t.cumprod(1)):
        assert result.dtype == np.int32


def test_int_random_is_uniform_on_a_half_open_range():
    PLAIN.seed(7)
    t = Tensor.random([2000], Distribution.uniform(-2, 3), dtype="int32")
    assert t.dtype == np.int32
    assert set(np.unique(t.to_numpy())) == {-2, -1, 0, 1, 2}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shape, dim, transposed",
    [
        ((1, 576, 49), 2, False),
        ((3, 5, 128), 2, False),
        ((2, 3, 129), 2, False),
        ((4, 49), 1, True),
        ((6, 49, 3), 1, False),
    ],
)
def test_a_mean_over_short_rows_is_the_float64_mean(shape, dim, transposed, dtype):
    """Short contiguous rows (a squeeze-and-excite block's pool) are summed by BLAS: as close
    to the exact mean as numpy's own reduce."""
    array = np.random.default_rng(0).standard_normal(shape) + 3.0
    x = Tensor.from_data(array.astype(dtype), device=PLAIN)
    if transposed:  # (not contiguous: numpy's reduce)
        x, array = x.transpose(), array.T
    out = x.mean_dim(dim).to_numpy()
    assert out.dtype == dtype
    np.testing.assert_allclose(
        out, array.mean(dim, keepdims=True), rtol=1e-6 if dtype == np.float32 else 1e-14
    )
