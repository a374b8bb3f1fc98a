"""Shape and indexing behaviour the spec-driven suite cannot express from one ops.yaml sample:
burn's wrong repeat_dim gradient, index and shape errors, cat over mixed inputs, slice ranges,
every update mode, and gradients where windows or indices overlap."""

import numpy as np
import pytest

from burnpy.generated import IndexingUpdateOp, Tensor
from opinfo import BACKENDS, devices
from burnpy.runtime.errors import StrategyMismatch

CPU = AD = CK = None  # the plain, autodiff and balanced devices of the backend under test


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request):
    """Every test runs on every backend ops.yaml declares."""
    global CPU, AD, CK
    on = devices(request.param)
    CPU, AD, CK = on["plain"], on["autodiff"], on["balanced"]


def T(data, device=None, dtype=None):
    """A tensor on the backend under test (its plain device unless told)."""
    return Tensor.from_data(data, device=device or CPU, dtype=dtype)


def leaf(data, device=None):
    return T(np.asarray(data, dtype=np.float64), device or AD).require_grad()


def grad_of(output, weights, *leaves):
    """Gradients of sum(output * weights) for each leaf, as numpy (None if it got none)."""
    grads = (output * T(weights, AD)).sum().backward()
    return [None if (g := t.grad(grads)) is None else g.to_numpy() for t in leaves]


def finite_difference(f, x, weights, eps=1e-6):
    """d sum(f(x) * weights) / dx by central differences, f over numpy arrays."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        grad[index] = (np.sum(f(up) * weights) - np.sum(f(down) * weights)) / (2 * eps)
    return grad


# -- repeat_dim: burn's gradient is wrong when the repeated dim has size > 1 --------------------


def burns_repeat_dim_gradient(g, dim, times):
    """burn-autodiff's rule: views dim as [size, times], consecutive elements grouped."""
    size = g.shape[dim] // times
    split = g.shape[:dim] + (size, times) + g.shape[dim + 1 :]
    return g.reshape(split).sum(axis=dim + 1)


def test_repeat_dim_gradient_sums_the_tiled_copies_not_neighbours():
    x = leaf([[1.0, 2.0]])
    out = x.repeat_dim(1, 2)
    assert out.to_numpy().tolist() == [[1.0, 2.0, 1.0, 2.0]]  # tiled, as burn's forward
    weights = np.array([[1.0, 2.0, 3.0, 4.0]])
    (grad,) = grad_of(out, weights, x)
    # out[0] and out[2] are copies of x[0]: 1 + 3; out[1] and out[3] of x[1]: 2 + 4
    np.testing.assert_array_equal(grad, [[4.0, 6.0]])
    # burn groups (1 + 2) and (3 + 4): this pins where we knowingly differ from burn
    np.testing.assert_array_equal(burns_repeat_dim_gradient(weights, 1, 2), [[3.0, 7.0]])


@pytest.mark.parametrize("shape,dim,times", [((2, 3), 1, 2), ((3, 2), 0, 3), ((2, 1, 2), 1, 4)])
def test_repeat_dim_gradient_matches_finite_differences(shape, dim, times):
    x = np.random.default_rng(0).uniform(-1, 1, size=shape)
    weights = np.random.default_rng(1).uniform(0.5, 1.5, size=np.repeat(x, times, dim).shape)
    t = leaf(x)
    (grad,) = grad_of(t.repeat_dim(dim, times), weights, t)
    expected = finite_difference(lambda a: np.concatenate([a] * times, axis=dim), x, weights)
    np.testing.assert_allclose(grad, expected, atol=1e-6)


def test_repeat_dim_zero_times_gives_an_empty_dim_and_zero_gradient():
    x = leaf([[1.0, 2.0]])
    out = x.repeat_dim(1, 0)
    assert out.shape == (1, 0)
    (grad,) = grad_of(out.sum_dim(1) + x, np.ones((1, 2)), x)
    np.testing.assert_array_equal(grad, [[1.0, 1.0]])


# -- indices out of range ----------------------------------------------------------------------


def test_out_of_range_indices_name_the_index_and_the_dim():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    bad = T([[0, 3], [1, 0]])
    with pytest.raises(ValueError, match=r"gather: index 3 is out of range for dim 1 of size 3"):
        x.gather(1, bad)
    with pytest.raises(ValueError, match=r"select: index -1 is out of range for dim 0 of size 2"):
        x.select(0, T([0, -1]))
    with pytest.raises(ValueError, match=r"scatter: index 3 .* dim 1"):
        x.scatter(1, bad, T([[1.0, 1.0], [1.0, 1.0]]), "add")
    with pytest.raises(ValueError, match=r"select_assign: index 2 .* dim 0"):
        x.select_assign(0, T([2]), T([[0.0, 0.0, 0.0]]), "assign")
    with pytest.raises(ValueError, match=r"gather_nd: index 5 .* dim 1 of size 3"):
        x.gather_nd(T([[1, 5]]))
    with pytest.raises(ValueError, match=r"scatter_nd: index 2 .* dim 0 of size 2"):
        x.scatter_nd(T([[2]]), T([[0.0, 0.0, 0.0]]), "add")


def test_index_errors_are_also_index_errors_so_iteration_stops():
    x = T([[1, 2], [3, 4]])
    with pytest.raises(IndexError):
        x[2]
    rows = [row.tolist() for row in x]  # Python's sequence protocol: __getitem__ until IndexError
    assert rows == [[1, 2], [3, 4]]


def test_indices_must_be_int_tensors_of_any_int_dtype():
    x = T(np.array([[1, 2, 3]], dtype=np.int32))
    with pytest.raises(TypeError, match="expected an Int tensor"):
        x.select(1, T([0.0, 1.0]))
    index = T(np.array([2, 0], dtype=np.int64))  # another int dtype than x's
    assert x.select(1, index).tolist() == [[3, 1]]


def test_shapes_are_checked_with_value_errors():
    x = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises(ValueError, match="in every dim but 1"):
        x.gather(1, T([[0, 1]]))
    with pytest.raises(ValueError, match="`indices` must be 1-d"):
        x.select(1, T([[0]]))
    with pytest.raises(ValueError, match="slice has shape"):
        x.slice_assign([(0, 1)], T([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="cannot be broadcast"):
        x.expand([3, 3])
    with pytest.raises(ValueError, match="not a permutation"):
        x.permute([1])
    with pytest.raises(ValueError, match="repeats a dim"):
        x.permute([0, 0])
    with pytest.raises(ValueError, match="the mask is not broadcast"):
        x.mask_select(T([True, False, True]))
    with pytest.raises(ValueError, match="every dim but dim 0 must match"):
        Tensor.cat([x, T([[1.0, 2.0]])], 0)
    with pytest.raises(ValueError, match="at least 1"):
        x.unfold(1, 2, 0)


# -- cat -----------------------------------------------------------------------------------


def test_cat_sends_each_input_its_stretch_of_the_gradient():
    a, b = leaf([[1.0, 2.0]]), leaf([[3.0, 4.0], [5.0, 6.0]])
    out = Tensor.cat([a, b, a], 0)
    weights = np.arange(8.0).reshape(4, 2)
    grad_a, grad_b = grad_of(out, weights, a, b)
    np.testing.assert_array_equal(grad_a, weights[0:1] + weights[3:4])  # a is there twice
    np.testing.assert_array_equal(grad_b, weights[1:3])


def test_cat_lifts_plain_inputs_as_constants():
    a = leaf([[1.0], [2.0]])
    plain = T(np.array([[3.0], [4.0]]))
    untracked = T(np.array([[5.0], [6.0]]), device=AD)
    out = Tensor.cat([plain, a, untracked], 1)
    assert out.is_autodiff() and out.device() == AD
    assert out.to_numpy().tolist() == [[3.0, 1.0, 5.0], [4.0, 2.0, 6.0]]
    (grad,) = grad_of(out, np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), a)
    np.testing.assert_array_equal(grad, [[2.0], [5.0]])


def test_cat_of_plain_tensors_stays_plain_and_of_untracked_ones_untracked():
    plain = Tensor.cat([T([1.0]), T([2.0])], 0)
    assert not plain.is_autodiff()
    untracked = Tensor.cat([T([1.0], device=AD)], 0)
    assert untracked.is_autodiff() and not untracked.is_tracked()


def test_cat_merges_every_inputs_strategy():
    with pytest.raises(StrategyMismatch):
        Tensor.cat([T([1.0], device=AD), T([2.0], device=CK)], 0)


def test_cat_refuses_mixed_kinds_and_dtypes_and_an_empty_list():
    with pytest.raises(TypeError, match="cannot mix"):
        Tensor.cat([T([1.0]), T([1])], 0)
    with pytest.raises(TypeError, match="dtypes differ"):
        Tensor.cat([T([1.0]), T([1.0], dtype="float64")], 0)
    with pytest.raises(ValueError, match="at least one"):
        Tensor.cat([], 0)


def test_cat_gradients_are_the_same_under_balanced_checkpointing():
    def run(device):
        a, b = leaf([[1.0, 2.0]], device), leaf([[3.0, 4.0]], device)
        out = Tensor.cat([a * 2.0, b.exp()], 1)
        grads = (out * out).sum().backward()
        return a.grad(grads).to_numpy(), b.grad(grads).to_numpy()

    for plain, balanced in zip(run(AD), run(CK)):
        np.testing.assert_array_equal(plain, balanced)


# -- slices ------------------------------------------------------------------------------------

X = np.arange(20.0).reshape(4, 5)


@pytest.mark.parametrize(
    "slices,expected",
    [
        ([(1, 3)], X[1:3]),  # trailing dims taken whole
        ([(0, 4, -1)], X[3::-1]),  # burn: the range 0..4 walked backwards
        ([(0, 5, -2), None], X[3::-2]),  # from 3 down by 2: 3, 1
        ([None, (-3, None)], X[:, -3:]),  # negative bounds count from the end
        ([(-2, -1), (1, 100)], X[-2:-1, 1:]),  # out-of-range ends are clamped (burn)
        ([(3, 1)], X[3:1]),  # start past end: empty
        ([1, -1], X[1:2, 4:5]),  # ints keep their dim with size 1 (burn's Slice::index)
        ([slice(3, 0, -1)], X[3:0:-1]),  # Python slices keep Python's meaning
        ([slice(None, None, -2), slice(1, None, 3)], X[::-2, 1::3]),
    ],
)
def test_slice_ranges_follow_burn_and_python_slices_follow_python(slices, expected):
    x = T(X)
    np.testing.assert_array_equal(x.slice(slices).to_numpy(), expected)


def test_slice_assign_with_a_negative_step_writes_in_reverse():
    x = T([0.0, 1.0, 2.0, 3.0, 4.0])
    values = T([10.0, 11.0, 12.0, 13.0, 14.0])
    # burn's doc example: s![..;-1] assigns in reverse
    assert x.slice_assign([(0, None, -1)], values).tolist() == [14.0, 13.0, 12.0, 11.0, 10.0]
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]  # the receiver is unchanged


def test_slice_argument_errors():
    x = T(X)
    with pytest.raises(ValueError, match="step of 0"):
        x.slice([(0, 2, 0)])
    with pytest.raises(ValueError, match="3 entries for a tensor of rank 2"):
        x.slice([None, None, None])
    with pytest.raises(ValueError, match="index 4 is out of range for dim 0 of size 4"):
        x.slice([4])
    with pytest.raises(TypeError, match="not an int, None, a slice"):
        x.slice(["a"])


def test_strided_slice_gradients_land_on_the_read_positions():
    x = leaf(X)
    out = x.slice([(0, 4, -2), slice(None, None, 2)])  # rows 3, 1; cols 0, 2, 4
    weights = np.arange(6.0).reshape(2, 3) + 1
    (grad,) = grad_of(out, weights, x)
    expected = np.zeros_like(X)
    expected[3::-2, ::2] = weights
    np.testing.assert_array_equal(grad, expected)


def test_getitem_reads_like_numpy():
    x = T(X)
    np.testing.assert_array_equal(x[1].to_numpy(), X[1])
    np.testing.assert_array_equal(x[-1, 2:].to_numpy(), X[-1, 2:])
    np.testing.assert_array_equal(x[..., ::-2].to_numpy(), X[..., ::-2])
    np.testing.assert_array_equal(x[1, ...].to_numpy(), X[1, ...])
    assert x[2, 3].shape == () and x[2, 3].item() == X[2, 3]
    np.testing.assert_array_equal(x[x > 12.0].to_numpy(), X[X > 12.0])
    np.testing.assert_array_equal(x[T([3, 0, 3])].to_numpy(), X[[3, 0, 3]])
    np.testing.assert_array_equal(x[None, :, [1, 0]].to_numpy(), X[None, :, [1, 0]])
    with pytest.raises(TypeError, match="ints, slices"):
        x["a"]


def test_getitem_is_differentiable():
    x = leaf(X)
    (grad,) = grad_of(x[1, 1:3], np.array([2.0, 3.0]), x)
    expected = np.zeros_like(X)
    expected[1, 1:3] = [2.0, 3.0]
    np.testing.assert_array_equal(grad, expected)


# -- update modes ----------------------------------------------------------------------------


def test_update_ops_parse_from_names():
    assert IndexingUpdateOp.of("Add") is IndexingUpdateOp.Add
    assert IndexingUpdateOp.of(IndexingUpdateOp.Max) is IndexingUpdateOp.Max
    with pytest.raises(ValueError, match="not an IndexingUpdateOp"):
        IndexingUpdateOp.of("sum")
    with pytest.raises(TypeError, match="update= takes"):
        IndexingUpdateOp.of(1)


@pytest.mark.parametrize("update", ["mul", "min", "max"])
def test_scatter_and_select_assign_implement_assign_and_add_only(update):
    x = T([[1.0, 2.0]])
    with pytest.raises(NotImplementedError, match="use assign, add"):
        x.scatter(1, T([[0]]), T([[5.0]]), update)
    with pytest.raises(NotImplementedError, match="use assign, add"):
        x.select_assign(1, T([0]), T([[5.0]]), update)


def test_add_accumulates_repeated_indices_and_assign_overwrites():
    x = T([[1.0, 2.0, 3.0]])
    idx = T([[0, 0, 2]])
    v = T([[10.0, 20.0, 30.0]])
    assert x.scatter(1, idx, v, "add").tolist() == [[31.0, 2.0, 33.0]]
    assert x.select_assign(1, T([2, 2]), v[:, :2], "add").tolist() == [[1.0, 2.0, 33.0]]
    assert x.scatter(1, T([[2, 0, 1]]), v, "assign").tolist() == [[20.0, 30.0, 10.0]]


@pytest.mark.parametrize("update", ["assign", "add"])
@pytest.mark.parametrize("method", ["scatter", "select_assign"])
def test_scatter_and_select_assign_gradients(update, method):
    rng = np.random.default_rng(5)
    x, v = rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 2))
    if method == "scatter":
        index = np.array([[2, 0], [1, 2]])
        where = (np.arange(2)[:, None], index)
    else:
        index = np.array([2, 0])
        where = (slice(None), index)

    def reference(a, b):
        out = a.copy()
        if update == "add":
            np.add.at(out, where, b)
        else:
            out[where] = b
        return out

    weights = rng.uniform(0.5, 1.5, (2, 3))
    tx, tv = leaf(x), leaf(v)
    out = getattr(tx, method)(1, T(index), tv, update)
    grad_x, grad_v = grad_of(out, weights, tx, tv)
    np.testing.assert_allclose(grad_x, finite_difference(lambda a: reference(a, v), x, weights))
    np.testing.assert_allclose(grad_v, finite_difference(lambda b: reference(x, b), v, weights))


@pytest.mark.parametrize("reduction", ["assign", "add", "mul", "min", "max"])
def test_scatter_nd_gradients_for_every_reduction(reduction):
    rng = np.random.default_rng(7)
    data, values = rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2, 2))
    index = np.array([[2], [0]])
    ufunc = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}

    def reference(d, v):
        out = d.copy()
        if reduction == "assign":
            out[index[:, 0]] = v
        else:
            ufunc[reduction].at(out, index[:, 0], v)
        return out

    weights = rng.uniform(0.5, 1.5, (3, 2))
    td, tv = leaf(data), leaf(values)
    out = td.scatter_nd(T(index), tv, reduction)
    np.testing.assert_allclose(out.to_numpy(), reference(data, values))
    grad_d, grad_v = grad_of(out, weights, td, tv)
    np.testing.assert_allclose(
        grad_d, finite_difference(lambda d: reference(d, values), data, weights), atol=1e-8
    )
    np.testing.assert_allclose(
        grad_v, finite_difference(lambda v: reference(data, v), values, weights), atol=1e-8
    )


# -- gradients where reads overlap -----------------------------------------------------------


def test_unfold_gradient_adds_overlapping_windows():
    x = np.random.default_rng(3).uniform(-1, 1, (2, 6))
    windows = np.lib.stride_tricks.sliding_window_view(x, 3, axis=1)  # step 1: overlaps
    weights = np.random.default_rng(4).uniform(0.5, 1.5, windows.shape)
    t = leaf(x)
    (grad,) = grad_of(t.unfold(1, 3, 1), weights, t)
    expected = finite_difference(
        lambda a: np.lib.stride_tricks.sliding_window_view(a, 3, axis=1), x, weights
    )
    np.testing.assert_allclose(grad, expected, atol=1e-8)


def test_unfold_with_a_window_longer_than_the_dim_has_no_windows():
    x = T(np.ones((2, 2, 3)))
    assert x.unfold(1, 3, 1).shape == (2, 0, 3, 3)


def test_gather_with_repeated_indices_accumulates_the_gradient():
    x = leaf([[1.0, 2.0, 3.0]])
    (grad,) = grad_of(x.gather(1, T([[1, 1, 1, 0]])), np.ones((1, 4)), x)
    np.testing.assert_array_equal(grad, [[1.0, 3.0, 0.0]])


def test_mask_select_gradient_is_zero_where_the_mask_is_false():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    mask = T([[True, False], [False, True]])
    out = x.mask_select(mask)
    assert out.tolist() == [1.0, 4.0]
    (grad,) = grad_of(out, np.array([5.0, 7.0]), x)
    np.testing.assert_array_equal(grad, [[5.0, 0.0], [0.0, 7.0]])


def test_cross_gradient_is_reduced_to_a_broadcast_inputs_shape():
    """burn's cross backward does not undo broadcasting; the step does it here."""
    lhs, rhs = leaf([[1.0, 2.0, 3.0]]), leaf([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    weights = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    grad_l, grad_r = grad_of(lhs.cross(rhs, 1), weights, lhs, rhs)
    assert grad_l.shape == (1, 3) and grad_r.shape == (2, 3)
    expected = np.cross(rhs.to_numpy(), weights).sum(axis=0, keepdims=True)
    np.testing.assert_allclose(grad_l, expected)


def test_argwhere_lists_true_positions_in_row_major_order():
    mask = T([[False, True], [True, True]])
    assert mask.argwhere().tolist() == [[0, 1], [1, 0], [1, 1]]
    assert mask.argwhere(dtype="int32").dtype == np.int32
    assert T(np.zeros((0, 3), bool)).argwhere().shape == (0, 2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_gather_and_scatter_count_a_negative_dim_from_the_end(backend):
    """At the dispatch level too (the Tensor methods normalize dims before they route)."""
    from burnpy.generated.dispatch import float_gather, float_scatter_add

    device = devices(backend)["plain"]
    values = np.arange(12.0).reshape(3, 4)
    indices = np.array([[0], [3], [1]])
    x = Tensor.from_data(values, device=device)
    i = Tensor.from_data(indices, device=device)
    np.testing.assert_array_equal(
        float_gather(-1, x, i).to_numpy(), np.take_along_axis(values, indices, axis=1)
    )
    ones = Tensor.from_data(np.ones((3, 1)), device=device)
    expected = np.zeros((3, 4))
    np.put_along_axis(expected, indices, 1.0, axis=1)
    np.testing.assert_array_equal(float_scatter_add(-1, x * 0.0, i, ones).to_numpy(), expected)
