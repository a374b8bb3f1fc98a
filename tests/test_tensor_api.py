"""burn-tensor's composed Tensor methods: values against numpy written independently, gradients
against central finite differences in float64, on both backends."""

import numpy as np
import pytest

from burnpy.generated import Device, Tensor

BACKENDS = {"numpy": Device.numpy(), "torch": Device.torch()}
RNG = np.random.default_rng(7)


def arr(*shape):
    """Distinct values away from 0 and from each other (no ties, no kinks at 0)."""
    n = int(np.prod(shape))
    values = (RNG.permutation(n) + 1) * 0.37 * RNG.choice([-1, 1], n)
    return values.reshape(shape)


def tensor(array, device):
    return Tensor.from_data(np.asarray(array), device=device)


def as_list(result):
    return list(result) if isinstance(result, list | tuple) else [result]


def fd_gradient(fn, x, cotangents, eps=1e-6):
    """d/dx of sum_i <fn(x)_i, cot_i>, central differences on the plain numpy device."""
    cpu = BACKENDS["numpy"]

    def objective(a):
        return sum(
            float((out.to_numpy() * c).sum())
            for out, c in zip(as_list(fn(tensor(a, cpu))), cotangents)
        )

    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (objective(up) - objective(down)) / (2 * eps)
    return grad


def check(fn, ref, x, device, grad=True):
    """fn's values against ref(x) on `device`; with grad, its VJP against finite differences."""
    expected = as_list(ref(x))
    got = as_list(fn(tensor(x, device)))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        e = np.asarray(e)
        assert g.shape == e.shape
        np.testing.assert_allclose(g.to_numpy(), e, rtol=1e-12, atol=1e-12)
    if not grad:
        return
    leaf = tensor(x, device.autodiff()).require_grad()
    outs = as_list(fn(leaf))
    cotangents = [RNG.standard_normal(o.shape) for o in outs]
    loss = None
    for o, c in zip(outs, cotangents):
        term = o.mul(tensor(c, device)).sum()
        loss = term if loss is None else loss.add(term)
    g = leaf.grad(loss.backward())
    np.testing.assert_allclose(g.to_numpy(), fd_gradient(fn, x, cotangents), atol=1e-6)


@pytest.fixture(params=sorted(BACKENDS))
def device(request):
    return BACKENDS[request.param]


# -- shape methods: (method call, numpy reference, input shape) ---------------------------------
SHAPE_CASES = {
    "narrow": (lambda t: t.narrow(1, 1, 2), lambda a: a[:, 1:3], (3, 4)),
    "narrow_negative_dim": (lambda t: t.narrow(-2, 2, 1), lambda a: a[2:3], (3, 4)),
    "unsqueeze": (lambda t: t.unsqueeze(4), lambda a: a.reshape(1, 1, 3, 4), (3, 4)),
    "unsqueeze_dim": (lambda t: t.unsqueeze_dim(1), lambda a: a[:, None], (3, 4)),
    "unsqueeze_dim_last": (lambda t: t.unsqueeze_dim(-1), lambda a: a[..., None], (3, 4)),
    "unsqueeze_dims": (lambda t: t.unsqueeze_dims([0, -1]), lambda a: a[None, ..., None], (3, 4)),
    "unsqueeze_dims_repeated": (
        lambda t: t.unsqueeze_dims([0, 0, 3]),
        lambda a: a.reshape(1, 1, 3, 1, 4),
        (3, 4),
    ),
    "squeeze": (lambda t: t.squeeze(), lambda a: a.reshape(3, 4), (1, 3, 1, 4)),
    "squeeze_dim": (lambda t: t.squeeze_dim(1), lambda a: a[:, 0], (3, 1, 4)),
    "squeeze_dims": (lambda t: t.squeeze_dims([0, -2]), lambda a: a[0, :, 0], (1, 3, 1, 4)),
    "flatten": (lambda t: t.flatten(1, 2), lambda a: a.reshape(2, 12, 1), (2, 3, 4, 1)),
    "t": (lambda t: t.t(), lambda a: np.swapaxes(a, -1, -2), (2, 3, 4)),
    "movedim": (lambda t: t.movedim(0, 2), lambda a: np.moveaxis(a, 0, 2), (2, 3, 4)),
    "movedim_lists": (
        lambda t: t.movedim([0, 1], [2, 0]),
        lambda a: np.moveaxis(a, [0, 1], [2, 0]),
        (2, 3, 4),
    ),
    # burn's direction: result[i] = x[(i + shift) mod n], numpy's roll by -shift
    "roll_dim": (lambda t: t.roll_dim(1, 1), lambda a: np.roll(a, -1, axis=1), (3, 4)),
    "roll": (
        lambda t: t.roll([1, -1, 5], [0, 1, -1]),
        lambda a: np.roll(np.roll(a, -1, axis=0), -4, axis=1),
        (3, 4),
    ),
    "repeat": (lambda t: t.repeat([2, 1, 3]), lambda a: np.tile(a, (2, 1, 3)), (2, 3, 1)),
    "slice_dim_range": (lambda t: t.slice_dim(1, (1, 3)), lambda a: a[:, 1:3], (3, 4)),
    "slice_dim_step": (
        lambda t: t.slice_dim(-1, slice(None, None, 2)),
        lambda a: a[:, ::2],
        (3, 4),
    ),
    "slice_dim_index": (lambda t: t.slice_dim(0, -1), lambda a: a[-1:], (3, 4)),
    "select_dim": (lambda t: t.select_dim(1, 2), lambda a: a[:, 2], (3, 4)),
    "slice_fill": (
        lambda t: t.slice_fill([(0, 2), (1, 3)], 5.0),
        lambda a: np.where(np.pad(np.ones((2, 2)), ((0, 1), (1, 1))) > 0, 5.0, a),
        (3, 4),
    ),
    "chunk": (lambda t: t.chunk(2, 1), lambda a: np.split(a, 2, axis=1), (3, 4)),
    "chunk_uneven": (lambda t: t.chunk(4, 0), lambda a: [a[0:2], a[2:4], a[4:5]], (5, 2)),
    "chunk_more_than_size": (lambda t: t.chunk(5, 0), lambda a: [a[0:1], a[1:2]], (2, 3)),
    "split": (lambda t: t.split(3, 1), lambda a: [a[:, :3], a[:, 3:]], (2, 5)),
    "split_with_sizes": (
        lambda t: t.split_with_sizes([1, 0, 4], 1),
        lambda a: [a[:, :1], a[:, 1:]],
        (2, 5),
    ),
    "iter_dim": (lambda t: list(t.iter_dim(1)), lambda a: np.split(a, 3, axis=1), (2, 3)),
    "stack": (
        lambda t: Tensor.stack([t, t.mul(2.0)], 1),
        lambda a: np.stack([a, 2 * a], 1),
        (3, 4),
    ),
    "stack_last": (
        lambda t: Tensor.stack([t, t.neg()], -1),
        lambda a: np.stack([a, -a], -1),
        (3, 4),
    ),
    "pad_ltrb": (
        lambda t: t.pad((1, 2, 0, 1)),
        lambda a: np.pad(a, ((0, 0), (0, 1), (1, 2))),
        (2, 3, 4),
    ),
    "pad_pairs_value": (
        lambda t: t.pad([(2, 0), (1, 1)], 7.5),
        lambda a: np.pad(a, ((2, 0), (1, 1)), constant_values=7.5),
        (3, 4),
    ),
    "pad_reflect": (
        lambda t: t.pad((2, 3, 1, 2), "reflect"),
        lambda a: np.pad(a, ((1, 2), (2, 3)), mode="reflect"),
        (3, 4),
    ),
    "pad_edge": (
        lambda t: t.pad([(1, 0), (0, 3)], "edge"),
        lambda a: np.pad(a, ((0, 0), (1, 0), (0, 3)), mode="edge"),
        (2, 3, 4),
    ),
}


@pytest.mark.parametrize("case", sorted(SHAPE_CASES))
def test_shape_methods(case, device):
    fn, ref, shape = SHAPE_CASES[case]
    check(fn, ref, arr(*shape), device)


def test_take(device):
    indices = np.array([[0, 2], [3, 3]])
    x = arr(3, 4, 2)
    check(
        lambda t: t.take(1, tensor(indices, t.device())),
        lambda a: np.take(a, indices, axis=1),
        x,
        device,
    )


def test_pad_int_and_stack_bool(device):
    x = np.arange(6).reshape(2, 3)
    got = tensor(x, device).pad((1, 0, 1, 1), 9).to_numpy()
    np.testing.assert_array_equal(got, np.pad(x, ((1, 1), (1, 0)), constant_values=9))
    b = tensor(x > 2, device)
    np.testing.assert_array_equal(Tensor.stack([b, b], 0).to_numpy(), np.stack([x > 2] * 2))


# -- numeric methods ---------------------------------------------------------------------------
NUMERIC_CASES = {
    "sum_dims": (lambda t: t.sum_dims([0, 2]), lambda a: a.sum((0, 2), keepdims=True)),
    "mean_dims": (lambda t: t.mean_dims([-1, 1]), lambda a: a.mean((1, 2), keepdims=True)),
    "prod_dims": (lambda t: t.prod_dims([1]), lambda a: a.prod(1, keepdims=True)),
    "max_dims": (lambda t: t.max_dims([0, 1]), lambda a: a.max((0, 1), keepdims=True)),
    "min_dims": (lambda t: t.min_dims([2]), lambda a: a.min(2, keepdims=True)),
    "max_abs_dims": (
        lambda t: t.max_abs_dims([0, 2]),
        lambda a: np.abs(a).max((0, 2), keepdims=True),
    ),
    "sum_dims_squeeze": (lambda t: t.sum_dims_squeeze([0, 2]), lambda a: a.sum((0, 2))),
    "max_pair": (
        lambda t: t.max_pair(t.flip([2])),
        lambda a: np.maximum(a, a[:, :, ::-1]),
    ),
    "min_pair": (
        lambda t: t.min_pair(t.flip([0])),
        lambda a: np.minimum(a, a[::-1]),
    ),
    "sort_descending": (lambda t: t.sort_descending(1), lambda a: -np.sort(-a, 1)),
    "sort_descending_with_indices": (
        lambda t: t.sort_descending_with_indices(2)[0],
        lambda a: -np.sort(-a, 2),
    ),
    "tril": (lambda t: t.tril(0), lambda a: np.tril(a, 0)),
    "tril_below": (lambda t: t.tril(-1), lambda a: np.tril(a, -1)),
    "triu": (lambda t: t.triu(1), lambda a: np.triu(a, 1)),
    "triu_below": (lambda t: t.triu(-1), lambda a: np.triu(a, -1)),
    "dot": (
        lambda t: t.flatten(0, 2).dot(t.flatten(0, 2).mul(0.1).exp()),
        lambda a: np.array([np.sum(a * np.exp(0.1 * a))]),
    ),
    "add_scalar": (lambda t: t.add_scalar(1.5), lambda a: a + 1.5),
    "sub_scalar": (lambda t: t.sub_scalar(1.5), lambda a: a - 1.5),
    "mul_scalar": (lambda t: t.mul_scalar(-2.0), lambda a: a * -2.0),
    "div_scalar": (lambda t: t.div_scalar(4.0), lambda a: a / 4.0),
    "remainder_scalar": (lambda t: t.remainder_scalar(0.5), lambda a: np.mod(a, 0.5)),
    "powf_scalar": (lambda t: t.abs().powf_scalar(1.5), lambda a: np.abs(a) ** 1.5),
    "powi_scalar": (lambda t: t.powi_scalar(3), lambda a: a**3),
}


@pytest.mark.parametrize("case", sorted(NUMERIC_CASES))
def test_numeric_methods(case, device):
    fn, ref = NUMERIC_CASES[case]
    check(fn, ref, arr(2, 3, 4), device)


def test_sort_and_argsort_descending_indices(device):
    x = arr(3, 4)
    t = tensor(x, device)
    order = np.argsort(-x, axis=1)
    np.testing.assert_array_equal(t.argsort_descending(1).to_numpy(), order)
    np.testing.assert_array_equal(t.sort_descending_with_indices(1)[1].to_numpy(), order)


def test_comparison_and_bitwise_scalar_spellings(device):
    x = np.array([[1, 2, 3], [4, 5, 6]])
    t = tensor(x, device)
    for spelling, expected in {
        "equal_scalar": x == 3,
        "not_equal_scalar": x != 3,
        "greater_scalar": x > 3,
        "greater_equal_scalar": x >= 3,
        "lower_scalar": x < 3,
        "lower_equal_scalar": x <= 3,
        "bitwise_and_scalar": x & 3,
        "bitwise_or_scalar": x | 3,
        "bitwise_xor_scalar": x ^ 3,
        "bitwise_left_shift_scalar": x << 3,
        "bitwise_right_shift_scalar": x >> 3,
        "add_scalar": x + 3,
        "mul_scalar": x * 3,
        "powi_scalar": x**3,
    }.items():
        np.testing.assert_array_equal(getattr(t, spelling)(3).to_numpy(), expected, spelling)


def test_scalar_spellings_reject_tensors():
    t = tensor([1.0, 2.0], BACKENDS["numpy"])
    with pytest.raises(TypeError, match="mul_scalar: takes a number"):
        t.mul_scalar(t)


def test_masks_eye_and_grid(device):
    ones = np.ones((3, 4), bool)
    for offset in (-1, 0, 2):
        tril = Tensor.tril_mask([2, 3, 4], offset, device=device).to_numpy()
        triu = Tensor.triu_mask([3, 4], offset, device=device).to_numpy()
        diag = Tensor.diag_mask([3, 4], offset, device=device).to_numpy()
        np.testing.assert_array_equal(tril, np.broadcast_to(~np.tril(ones, offset), (2, 3, 4)))
        np.testing.assert_array_equal(triu, ~np.triu(ones, offset))
        np.testing.assert_array_equal(diag, ~np.eye(3, 4, offset, dtype=bool))
    np.testing.assert_array_equal(Tensor.eye(3, device=device).to_numpy(), np.eye(3))
    grid = Tensor.cartesian_grid([2, 3], device=device).to_numpy()
    np.testing.assert_array_equal(grid, np.moveaxis(np.indices((2, 3)), 0, -1))


def test_one_hot(device):
    values = np.array([[0, 3], [-1, 2]])
    np.testing.assert_array_equal(
        tensor(values, device).one_hot(4).to_numpy(), np.eye(4, dtype=int)[values]
    )
    floats = tensor(values.astype(np.float64), device).one_hot_fill(4, 5.0, -1.0, 0)
    expected = np.moveaxis(np.where(np.eye(4)[values] > 0, 5.0, -1.0), -1, 0)
    np.testing.assert_array_equal(floats.to_numpy(), expected)
    with pytest.raises(ValueError, match="one_hot: values must lie"):
        tensor(values, device).one_hot(3)


def test_nonzero_and_like_constructors(device):
    mask = np.array([[True, False, True], [False, False, True]])
    coords = tensor(mask, device).nonzero()
    for got, expected in zip(coords, np.nonzero(mask)):
        np.testing.assert_array_equal(got.to_numpy(), expected)
    t = tensor(np.arange(6, dtype=np.int32).reshape(2, 3), device)
    assert t.zeros_like().tolist() == [[0] * 3] * 2 and t.zeros_like().dtype == np.int32
    assert t.ones_like().tolist() == [[1] * 3] * 2
    assert t.empty_like().shape == (2, 3) and t.rank() == 2 and t.dims() == [2, 3]
    assert Tensor.from_floats([1, 2], device=device).dtype == np.float32
    assert Tensor.from_ints([1.0, 2.0], device=device).dtype == np.int32
    assert Tensor.arange_step(1, 8, 3, device=device).tolist() == [1, 4, 7]


# -- float methods -----------------------------------------------------------------------------
FLOAT_CASES = {
    "var": (lambda t: t.var(1), lambda a: a.var(1, ddof=1, keepdims=True)),
    "var_bias": (lambda t: t.var_bias(-1), lambda a: a.var(-1, keepdims=True)),
    "var_mean": (
        lambda t: t.var_mean(0),
        lambda a: (a.var(0, ddof=1, keepdims=True), a.mean(0, keepdims=True)),
    ),
    "var_mean_bias": (
        lambda t: t.var_mean_bias(1),
        lambda a: (a.var(1, keepdims=True), a.mean(1, keepdims=True)),
    ),
    "cov": (lambda t: t.cov(1, 1), lambda a: np.cov(a)),
    "cov_dim0": (lambda t: t.cov(0, 0), lambda a: np.cov(a.T, bias=True)),
    "median_odd": (lambda t: t.median(0), lambda a: np.sort(a, 0)[1:2]),
    "median_even": (lambda t: t.median(1), lambda a: np.sort(a, 1)[:, 1:2]),
    "deg2rad": (lambda t: t.deg2rad(), np.deg2rad),
    "rad2deg": (lambda t: t.rad2deg(), np.rad2deg),
    "fmod": (lambda t: t.fmod(t.flip([1]).mul(0.2917)), lambda a: np.fmod(a, a[:, ::-1] * 0.2917)),
    "fmod_scalar": (lambda t: t.fmod_scalar(-0.7), lambda a: np.fmod(a, -0.7)),
}


@pytest.mark.parametrize("case", sorted(FLOAT_CASES))
def test_float_methods(case, device):
    fn, ref = FLOAT_CASES[case]
    check(fn, ref, arr(3, 4), device)


def test_median_with_indices(device):
    x = arr(3, 5)
    values, indices = tensor(x, device).median_with_indices(1)
    order = np.argsort(x, 1)[:, 2:3]
    np.testing.assert_array_equal(indices.to_numpy(), order)
    np.testing.assert_array_equal(values.to_numpy(), np.take_along_axis(x, order, 1))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf on purpose
def test_finite_nan_close(device):
    x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0, 1e-9])
    y = np.array([1.0 + 1e-7, np.nan, np.inf, np.inf, 1e-9, 0.0])
    t, u = tensor(x, device), tensor(y, device)
    np.testing.assert_array_equal(t.is_finite().to_numpy(), np.isfinite(x))
    assert t.contains_nan().tolist() == [True]
    assert tensor(x[2:], device).contains_nan().tolist() == [False]
    np.testing.assert_array_equal(t.is_close(u).to_numpy(), np.isclose(x, y))
    np.testing.assert_array_equal(
        t.is_close(u, rtol=0.0, atol=1e-8).to_numpy(), np.isclose(x, y, rtol=0.0, atol=1e-8)
    )
    assert tensor(x[[0, 4]], device).all_close(tensor(y[[0, 4]], device)) is True
    assert t.all_close(u) is False


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf on purpose
def test_fmod_infinite_divisor(device):
    x = np.array([2.5, -1.5, np.inf])
    inf = np.array([np.inf, -np.inf, np.inf])
    np.testing.assert_array_equal(
        tensor(x, device).fmod(tensor(inf, device)).to_numpy(), np.fmod(x, inf)
    )
    np.testing.assert_array_equal(tensor(x[:2], device).fmod_scalar(np.inf).to_numpy(), x[:2])


def test_categorical_and_random_like(device):
    probs = tensor(np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]), device)
    samples = probs.categorical(6).to_numpy()
    np.testing.assert_array_equal(samples, [[1] * 6, [2] * 6])
    weights = tensor(np.array([1.0, 3.0]), device).categorical(4000).to_numpy()
    assert abs(weights.mean() - 0.75) < 0.05
    like = probs.random_like()
    assert like.shape == (2, 3) and like.dtype == probs.dtype


# -- activations -------------------------------------------------------------------------------
def _softplus(a, beta=1.0):
    return np.log1p(np.exp(beta * a)) / beta


ACTIVATION_CASES = {
    "hardtanh": (lambda t: t.hardtanh(-1.0, 2.0), lambda a: np.clip(a, -1.0, 2.0)),
    "relu6": (lambda t: t.mul(3.0).relu6(), lambda a: np.clip(3 * a, 0, 6)),
    "tanhshrink": (lambda t: t.tanhshrink(), lambda a: a - np.tanh(a)),
    "gelu_approximate": (
        lambda t: t.gelu_approximate(),
        lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a**3))),
    ),
    "softplus": (lambda t: t.softplus(2.0), lambda a: _softplus(a, 2.0)),
    "quiet_softmax": (
        lambda t: t.quiet_softmax(1),
        lambda a: np.exp(a) / (1 + np.exp(a).sum(1, keepdims=True)),
    ),
    "hard_swish": (lambda t: t.hard_swish(), lambda a: a * np.clip(a / 6 + 0.5, 0, 1)),
    "mish": (lambda t: t.mish(), lambda a: a * np.tanh(_softplus(a))),
    "elu": (lambda t: t.elu(0.7), lambda a: np.where(a > 0, a, 0.7 * (np.exp(a) - 1))),
    "celu": (lambda t: t.celu(0.7), lambda a: np.where(a > 0, a, 0.7 * (np.exp(a / 0.7) - 1))),
    "selu": (
        lambda t: t.selu(),
        lambda a: 1.0507009873554805 * np.where(a > 0, a, 1.6732632423543772 * (np.exp(a) - 1)),
    ),
    "thresholded_relu": (lambda t: t.thresholded_relu(0.5), lambda a: np.where(a > 0.5, a, 0)),
    "threshold": (lambda t: t.threshold(0.5, -2.0), lambda a: np.where(a > 0.5, a, -2.0)),
    "glu": (
        lambda t: t.glu(1),
        lambda a: a[:, :2] / (1 + np.exp(-a[:, 2:])),
    ),
    "softsign": (lambda t: t.softsign(), lambda a: a / (1 + np.abs(a))),
    "hard_shrink": (lambda t: t.hard_shrink(1.0), lambda a: np.where(np.abs(a) > 1.0, a, 0)),
    "soft_shrink": (
        lambda t: t.soft_shrink(1.0),
        lambda a: np.where(np.abs(a) > 1.0, a - np.sign(a), 0),
    ),
    "shrink": (
        lambda t: t.shrink(1.0, 0.25),
        lambda a: np.where(np.abs(a) > 1.0, a - 0.25 * np.sign(a), 0),
    ),
}


@pytest.mark.parametrize("case", sorted(ACTIVATION_CASES))
def test_activations(case, device):
    fn, ref = ACTIVATION_CASES[case]
    check(fn, ref, arr(3, 4), device)


# -- argument errors ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda t: t.narrow(1, 3, 2), ValueError, "narrow: start 3 \\+ length 2 exceeds"),
        (lambda t: t.narrow(2, 0, 1), ValueError, "narrow: dim=2 is out of range"),
        (lambda t: t.unsqueeze(1), ValueError, "unsqueeze: `rank` is the rank to reach"),
        (lambda t: t.squeeze_dim(0), ValueError, "squeeze_dim: dim 0 has size 3"),
        (lambda t: t.unsqueeze_dim(1.0), TypeError, "unsqueeze_dim: dim must be an int"),
        (lambda t: t.pad((1, 2, 3)), TypeError, "pad: padding is"),
        (lambda t: t.pad((4, 0, 0, 0), "reflect"), ValueError, "reflect padding"),
        (lambda t: t.pad((1, 0, 0, 0), "wrap"), ValueError, "pad: mode 'wrap'"),
        (lambda t: t.split_with_sizes([1, 1], 1), ValueError, "add up to 2"),
        (lambda t: t.glu(0), ValueError, "glu: dim 0 has odd size 3"),
        (lambda t: t.movedim([0], [0, 1]), ValueError, "movedim: src"),
        (lambda t: t.dot(t), ValueError, "dot: needs two rank-1"),
        (lambda t: t.int().is_finite(), TypeError, "is_finite: needs a Float tensor"),
    ],
)
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(tensor(arr(3, 4), BACKENDS["numpy"]))
