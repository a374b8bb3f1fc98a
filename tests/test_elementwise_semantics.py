"""Element-wise semantics the spec-driven suite cannot express: burn's int division and
remainder, clamp gradients on the bounds, gelu's exact gradient (where burn's is the tanh
approximation's), rounding half to even, numerically stable activations, NaN and infinity,
and the operators that route by kind."""

import math

import numpy as np
import pytest
from scipy import special

from burnpy.generated import Device, Tensor
from burnpy.generated.dispatch import gelu_backward, relu_backward

AD = Device.numpy().autodiff()


def grad_of(method, x, *args, dtype="float64"):
    """The gradient of sum(method(x, *args)) at x, on an autodiff device."""
    leaf = Tensor.from_data(np.asarray(x, dtype=dtype), device=AD).require_grad()
    out = getattr(leaf, method)(*args)
    return leaf.grad(out.sum().backward()).to_numpy()


def ints(values, dtype="int64"):
    return Tensor.from_data(np.array(values, dtype=dtype))


# -- int division and remainder, as burn's (docs/design.md#values-dtypes-and-scalars) ----------


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_int_division_truncates_toward_zero(dtype):
    lhs, rhs = [-7, 7, -7, 7, -6, 0], [2, 2, -2, -2, 3, 5]
    expected = [math.trunc(a / b) for a, b in zip(lhs, rhs)]  # [-3, 3, -3, 3, -2, 0]
    assert expected != [a // b for a, b in zip(lhs, rhs)]  # not Python's floor division
    quotient = ints(lhs, dtype) / ints(rhs, dtype)
    assert quotient.dtype == dtype and quotient.tolist() == expected
    assert (ints([-7, 7], dtype) / 2).tolist() == [-3, 3]
    assert ints([-7, 7], dtype).div(-2).tolist() == [3, -3]


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_int_remainder_takes_the_divisors_sign(dtype):
    lhs, rhs = [-7, 7, -7, 7, 6], [2, 2, -2, -2, -3]
    expected = [1, 1, -1, -1, 0]
    assert expected == [a % b for a, b in zip(lhs, rhs)]  # Python's %, not C's fmod
    assert expected != [int(math.fmod(a, b)) for a, b in zip(lhs, rhs)]
    assert (ints(lhs, dtype) % ints(rhs, dtype)).tolist() == expected
    assert (ints([-7, 7], dtype) % -3).tolist() == [-1, -2]
    assert ints([-7, 7], dtype).remainder(3).tolist() == [2, 1]


def test_float_remainder_takes_the_divisors_sign():
    x = Tensor.from_data([-7.5, 7.5, -7.5, 7.5])
    divisor = Tensor.from_data([2.0, 2.0, -2.0, -2.0])
    np.testing.assert_array_equal((x % divisor).to_numpy(), [0.5, 1.5, -1.5, -0.5])
    np.testing.assert_array_equal((x % -2.0).to_numpy(), [-1.5, -0.5, -1.5, -0.5])


def test_int_powers_of_negative_exponents_truncate_as_burns_float_route():
    base = ints([2, -2, 1, -1, -1, 3])
    exponent = ints([-1, -1, -3, -3, -2, 0])
    assert base.powi(exponent).tolist() == [0, 0, 1, -1, 1, 1]
    assert (base**exponent).tolist() == [0, 0, 1, -1, 1, 1]
    assert ints([2, -1, 1, 5]).powi(-2).tolist() == [0, 1, 1, 0]
    assert ints([3, -2], "int32").powi(3).dtype == "int32"


# -- clamps --------------------------------------------------------------------------------------

BOUNDS = [-1.0, 0.0, 0.5, 1.0, 2.0]  # below, on min, inside, on max, above


def test_clamp_gradient_is_zero_where_clamped_and_passes_on_the_bounds():
    """burn clamps with strict comparisons (x < min, x > max): a value on a bound keeps g."""
    np.testing.assert_array_equal(grad_of("clamp", BOUNDS, 0.0, 1.0), [0, 1, 1, 1, 0])
    np.testing.assert_array_equal(grad_of("clamp_min", BOUNDS, 0.0), [0, 1, 1, 1, 1])
    np.testing.assert_array_equal(grad_of("clamp_max", BOUNDS, 1.0), [1, 1, 1, 1, 0])


def test_hard_sigmoid_differentiates_through_its_clamp():
    # 0.5 * x + 0.5 is clamped below x = -1 and above x = 1; on both bounds g passes
    np.testing.assert_array_equal(
        grad_of("hard_sigmoid", BOUNDS, 0.5, 0.5), [0.5, 0.5, 0.5, 0.5, 0.0]
    )


def test_clamp_with_min_above_max_gives_max_as_burn():
    """burn's clamp is clamp_min, then clamp_max: with min > max every value becomes max, as
    numpy's clip and torch's clamp give."""
    x = Tensor.from_data([-1.0, 0.5, 3.0])
    np.testing.assert_array_equal(x.clamp(2.0, 1.0).to_numpy(), np.clip([-1.0, 0.5, 3.0], 2, 1))
    np.testing.assert_array_equal(x.clamp(2.0, 1.0).to_numpy(), [1.0, 1.0, 1.0])
    assert ints([-5, 5]).clamp(2, 1).tolist() == [1, 1]


def test_clamp_keeps_nan():
    x = Tensor.from_data([np.nan, 5.0])
    np.testing.assert_array_equal(x.clamp(0.0, 1.0).to_numpy(), [np.nan, 1.0])


# -- gelu: burn's backward is the tanh approximation's; ours matches the exact forward -----------


def burn_gelu_backward(x):
    """burn-backend's default `gelu_backward` (ops/activation.rs), transcribed."""
    c1, c2, c3, c4 = 0.0356774, 0.797885, 0.0535161, 0.398942
    tanh = np.tanh(c1 * x**3 + c2 * x)
    return 0.5 * tanh + (c3 * x**3 + c4 * x) * (1 - tanh**2) + 0.5


def test_gelu_gradient_is_the_exact_forms_derivative_not_burns_tanh_approximation():
    x = np.array([-3.0, -2.0, -0.5, 0.0, 0.7, 2.0, 3.0])
    exact = 0.5 * (1 + special.erf(x / np.sqrt(2))) + x * np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
    eps = 1e-6
    central = (
        Tensor.from_data(x + eps).gelu().to_numpy() - Tensor.from_data(x - eps).gelu().to_numpy()
    ) / (2 * eps)
    ours = grad_of("gelu", x)
    np.testing.assert_allclose(ours, exact, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours, central, rtol=1e-7, atol=1e-8)
    # the gelu_backward op the rule calls is the exact derivative too
    ones = Tensor.from_data(np.ones_like(x))
    np.testing.assert_allclose(
        gelu_backward(Tensor.from_data(x), ones).to_numpy(), exact, rtol=1e-12, atol=1e-12
    )
    # burn's rule disagrees with its own forward by ~9e-4 at |x| = 2
    assert abs(burn_gelu_backward(2.0) - exact[5]) > 5e-4
    assert abs(burn_gelu_backward(-2.0) - exact[1]) > 5e-4


def test_gelu_is_the_exact_erf_form():
    x = np.array([-2.0, 0.5, 3.0])
    expected = x * 0.5 * (1 + special.erf(x / np.sqrt(2)))
    np.testing.assert_allclose(Tensor.from_data(x).gelu().to_numpy(), expected, rtol=1e-15)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_tanh_gelu_gives_its_limits_at_infinities_and_keeps_nan(backend, dtype):
    """gelu_approximate is x beyond +10 and 0 beyond -10 (its tanh is ±1 there), inf and 0 at
    ±inf (not -inf · 0), with slopes 1 and 0; NaN stays NaN. Recorded: its slope is kept."""
    if backend == "torch":
        pytest.importorskip("torch")
    device = (Device.torch() if backend == "torch" else Device.numpy()).autodiff()
    x = np.array([np.nan, np.inf, -np.inf, 30.0, -30.0, 1.5], dtype=dtype)
    leaf = Tensor.from_data(x, device=device).require_grad()
    out = leaf.gelu_approximate()
    grad = leaf.grad(out.sum().backward()).to_numpy()
    k = np.sqrt(2 / np.pi)
    t = np.tanh(k * (1.5 + 0.044715 * 1.5**3))
    finite = 0.5 * 1.5 * (1 + t)
    slope = 0.5 * (1 + t) + 0.5 * 1.5 * (1 - t * t) * k * (1 + 3 * 0.044715 * 1.5**2)
    rtol = 1e-6 if dtype == "float32" else 1e-14
    np.testing.assert_allclose(out.to_numpy(), [np.nan, np.inf, 0, 30, 0, finite], rtol=rtol)
    np.testing.assert_allclose(grad, [np.nan, 1, 0, 1, 0, slope], rtol=rtol)


# -- rounding ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_round_takes_halves_to_even(dtype):
    x = Tensor.from_data([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 3.5], dtype=dtype)
    np.testing.assert_array_equal(x.round().to_numpy(), [0, 2, 2, -0, -2, -2, 2, 4])


def test_rounding_gradients_are_zero():
    x = [-1.7, -0.2, 0.4, 2.6]
    for method in ("round", "floor", "ceil", "trunc"):
        np.testing.assert_array_equal(grad_of(method, x), np.zeros(4))


def test_powi_scalar_zero_has_a_zero_gradient_at_zero():
    """x^0 is constant: 0, not 0 * 0^-1 = NaN."""
    np.testing.assert_array_equal(grad_of("powi", [0.0, 2.0], 0), [0.0, 0.0])
    np.testing.assert_array_equal(grad_of("powf", [0.0, 2.0], 0.0), [0.0, 0.0])


# -- stable activations --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_softmax_and_log_softmax_are_stable_for_large_inputs(dtype):
    big = Tensor.from_data([[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0]], dtype=dtype)
    small = np.array([[0.0, 1.0, 2.0]])
    tol = 2e-3 if dtype == "float16" else 1e-6
    softmax = big.softmax(1).to_numpy()
    assert np.isfinite(softmax).all()
    np.testing.assert_allclose(softmax[0], special.softmax(small, axis=1)[0], rtol=tol, atol=tol)
    np.testing.assert_allclose(softmax[1], [0.0, 0.0, 1.0], atol=tol)
    log_softmax = big.log_softmax(1).to_numpy()
    np.testing.assert_allclose(log_softmax[1], [-2000.0, -1000.0, 0.0], rtol=tol)
    softmin = big.softmin(1).to_numpy()
    np.testing.assert_allclose(softmin[1], [1.0, 0.0, 0.0], atol=tol)


def test_softmax_gradients_stay_finite_for_large_inputs():
    x = [[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0]]
    for method in ("softmax", "log_softmax", "softmin"):
        leaf = Tensor.from_data(np.array(x), device=AD).require_grad()
        out = getattr(leaf, method)(1)
        weights = Tensor.from_data(np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]), device=AD)
        grad = leaf.grad((out * weights).sum().backward()).to_numpy()
        assert np.isfinite(grad).all(), method
        np.testing.assert_allclose(grad.sum(axis=1), [0.0, 0.0], atol=1e-9)  # shift-invariant


def test_log_sigmoid_is_stable_for_large_magnitudes():
    x = Tensor.from_data([-1000.0, -40.0, 0.0, 40.0, 1000.0])
    expected = [-1000.0, -40.0, -math.log(2), -math.exp(-40.0), 0.0]
    np.testing.assert_allclose(x.log_sigmoid().to_numpy(), expected, rtol=1e-6)
    grad = grad_of("log_sigmoid", [-1000.0, 0.0, 1000.0])
    np.testing.assert_allclose(grad, [1.0, 0.5, 0.0])


# -- NaN and infinity ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_is_nan_and_is_inf_classify_special_values(dtype):
    x = Tensor.from_data([np.nan, np.inf, -np.inf, 0.0, -1.5, np.nan], dtype=dtype)
    assert x.is_nan().tolist() == [True, False, False, False, False, True]
    assert x.is_inf().tolist() == [False, True, True, False, False, False]
    assert (x != x).tolist() == x.is_nan().tolist()  # NaN is the one value unequal to itself
    assert not (x == np.nan).to_numpy().any()


def test_is_nan_has_no_graph_edge():
    leaf = Tensor.from_data([np.nan, 1.0], device=AD).require_grad()
    mask = leaf.is_nan()
    assert mask.dtype == np.bool_ and not mask.is_tracked()


# -- operators that route by kind ------------------------------------------------------------------


def test_bitwise_operators_route_by_kind():
    a, b = ints([12, -3, 5]), ints([10, 6, -1])
    assert (a & b).tolist() == [8, 4, 5]
    assert (a | b).tolist() == [14, -1, -1]
    assert (a ^ b).tolist() == [6, -5, -6]
    assert (~a).tolist() == [-13, 2, -6]
    assert (a & 4).tolist() == [4, 4, 4]
    assert (a << 2).tolist() == [48, -12, 20]
    assert (a >> ints([1, 1, 1])).tolist() == [6, -2, 2]  # arithmetic: the sign is kept
    p, q = Tensor.from_data([True, True, False]), Tensor.from_data([True, False, False])
    assert (p & q).tolist() == [True, False, False]
    assert (p | q).tolist() == [True, True, False]
    assert (p ^ q).tolist() == [False, True, False]
    assert (~p).tolist() == [False, False, True]


def test_a_routed_operator_refuses_a_kind_it_has_no_method_for():
    with pytest.raises(
        TypeError, match=r"__and__ is not defined for a Float tensor \(it takes Int/Bool\)"
    ):
        Tensor.from_data([1.0]) & Tensor.from_data([1.0])
    with pytest.raises(TypeError, match="Float/Int"):
        Tensor.from_data([True]) ** 2


def test_pow_takes_tensors_and_scalars_of_both_kinds():
    x = Tensor.from_data([1.5, 2.0])
    np.testing.assert_allclose((x ** Tensor.from_data([2.0, 0.5])).to_numpy(), [2.25, 2**0.5])
    np.testing.assert_allclose((x**2).to_numpy(), [2.25, 4.0])
    np.testing.assert_allclose(x.powi(ints([3, -1])).to_numpy(), [3.375, 0.5])
    assert x.powi(ints([3, -1])).dtype == np.float32  # an int64 exponent does not promote
    assert (ints([2, 3]) ** ints([3, 2])).tolist() == [8, 9]


def test_comparisons_exist_for_floats_ints_and_bools():
    f, i = Tensor.from_data([1.0, 2.0, 3.0]), ints([1, 2, 3])
    for t in (f, i):
        other = t.full_like(2)
        assert (t >= other).tolist() == [False, True, True]
        assert (t <= other).tolist() == [True, True, False]
        assert (t > 2).tolist() == [False, False, True]
        assert (t < 2).tolist() == [True, False, False]
        assert (t != other).tolist() == [True, False, True]
        assert (t == 2).tolist() == [False, True, False]
    b = Tensor.from_data([True, False])
    assert (b == True).tolist() == [True, False]  # noqa: E712 - the Bool tensor operator
    assert (b != Tensor.from_data([True, True])).tolist() == [False, True]


@pytest.mark.parametrize("repeat", [1, 1000], ids=["small", "large"])  # both NumPy kernels
def test_relu_backward_is_exact_where_burn_masks(repeat):
    """burn: mask output <= 0, fill 0. A NaN output passes its gradient; a masked inf gradient
    gives 0 (not NaN, as a multiply by the mask would); kept values are bit-exact."""
    output = np.tile(np.array([1.0, 0.0, -1.0, np.nan, 2.0, -0.0], np.float32), repeat)
    grad = np.tile(np.array([np.inf, -3.0, np.inf, 5.0, -2.0, 7.0], np.float32), repeat)
    out = relu_backward(Tensor.from_data(output), Tensor.from_data(grad)).to_numpy()
    expected = np.where(output <= 0, np.float32(0), grad)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.view(np.int32), expected.view(np.int32))
