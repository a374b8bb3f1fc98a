"""burn's quantized-op tests (burn-backend-tests/tests/tensor/float/quantization/ops/extended),
ported with their data, expected values and tolerances: each `test_<file>__<burn's name>`, on
NumPy, Torch and an autodiff device."""

import numpy as np
import pytest

from burnpy.generated import Device, QuantScheme, QuantValue, Tensor
from tests.burn.quantcheck import approx, bools, exact, floats, ints, q8, q8b, td, tol

DEVICES = {
    "numpy": Device.numpy,
    "torch": Device.torch,
    "autodiff": lambda: Device.numpy().autodiff(),
}


def pytest_generate_tests(metafunc):
    """Every test on NumPy; the first of each burn file on Torch and an autodiff device too
    (the q-ops' code is the same on every backend: the kernels differ, and those each file's
    first test reaches; the whole set on every device would triple the time)."""
    name = metafunc.function.__name__
    stem = name.split("__")[0]
    first = next(n for n in globals() if n.startswith(stem + "__"))
    ids = list(DEVICES) if name == first else ["numpy"]
    metafunc.parametrize("device", [DEVICES[i]() for i in ids], ids=ids)


def test_abs__should_support_abs_ops(device):  # abs.rs
    tensor = q8(device, [[0.0, -1.0, 2.0], [3.0, 4.0, -5.0]])
    output = tensor.abs()
    approx(output, td([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]), tol(0, 1e-1))


def test_add__test_add_d2(device):  # add.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
    output = tensor_1 + tensor_2
    approx(output, td([[6.0, 8.0, 10.0], [12.0, 14.0, 16.0]]), tol(0, 1e-1))


def test_add__test_add_broadcast(device):  # add.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0]])
    tensor_2 = q8(device, [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    output = tensor_1 + tensor_2
    approx(output, td([[3.0, 5.0, 7.0], [6.0, 8.0, 10.0]]), tol(0, 1e-1))


def test_add__test_add_different_strides_rhs(device):  # add.rs
    tensor_1 = q8(device, [[0.0, 1.0], [2.0, 3.0]]) * 1
    tensor_2 = q8(device, [[4.0, 5.0], [6.0, 7.0]]) * 1
    output = tensor_1 + tensor_2.transpose()
    approx(output, td([[4.0, 7.0], [7.0, 10.0]]), tol(0, 1e-1))


def test_add__test_add_different_strides_lhs(device):  # add.rs
    tensor_1 = q8(device, [[0.0, 1.0], [2.0, 3.0]]) * 1
    tensor_2 = q8(device, [[4.0, 5.0], [6.0, 7.0]]) * 1
    output = tensor_1.transpose() + tensor_2
    approx(output, td([[4.0, 7.0], [7.0, 10.0]]), tol(0, 1e-1))


def test_add__test_add_different_strides_broadcast(device):  # add.rs
    tensor_1 = q8(device, [[0.0, 1.0], [2.0, 3.0]]) * 1
    tensor_2 = q8(device, [[4.0, 5.0]]) * 1
    output = tensor_1.transpose() + tensor_2
    approx(output, td([[4.0, 7.0], [5.0, 8.0]]), tol(0, 1e-1))


def test_add__should_support_add_scalar_ops(device):  # add.rs
    scalar = 2.0
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor + scalar
    approx(output, td([[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]), tol(0, 1e-1))


def test_aggregation__test_should_mean(device):  # aggregation.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.mean()
    approx(output, td([15.0 / 6.0]), tol(0, 1e-1))


def test_aggregation__test_should_sum(device):  # aggregation.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.sum()
    approx(output, td([15.0]), tol(0, 1e-1))


def test_aggregation__test_should_mean_last_dim(device):  # aggregation.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.mean_dim(1)
    expected = td([[3.0 / 3.0], [12.0 / 3.0]])
    approx(output, expected, tol(0, 1e-1))


def test_aggregation__test_should_sum_last_dim(device):  # aggregation.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.sum_dim(1)
    approx(output, td([[3.0], [12.0]]), tol(0, 1e-1))


def test_aggregation__test_should_sum_first_dim(device):  # aggregation.rs
    tensor = q8(device, [[3.0, 1.0, 2.0], [4.0, 2.0, 3.0]])
    output = tensor.sum_dim(0)
    approx(output, td([[7.0, 3.0, 5.0]]), tol(0, 1e-1))


def test_aggregation__test_should_mean_first_dim(device):  # aggregation.rs
    tensor = q8(device, [[3.0, 1.0, 2.0], [4.0, 2.0, 3.0]])
    output = tensor.mean_dim(0)
    approx(output, td([[7.0 / 2.0, 3.0 / 2.0, 5.0 / 2.0]]), tol(0, 1e-1))


def test_aggregation__test_should_sum_mid_dim_3d_non_contiguous_1(device):  # aggregation.rs
    tensor = q8(device, [[[2.0, 4.0, 1.0], [7.0, -5.0, 3.0]], [[3.0, 1.0, 2.0], [4.0, 2.0, 3.0]]])
    output = tensor.swap_dims(0, 2).sum_dim(1)
    approx(output, np.reshape([9.0, 7.0, -1.0, 3.0, 4.0, 5.0], [3, 1, 2]), tol(0, 1e-1))


def test_aggregation__test_should_sum_mid_dim_3d_non_contiguous_2(device):  # aggregation.rs
    tensor = q8(device, [[[2.0, 4.0, 1.0], [7.0, -5.0, 3.0]], [[3.0, 1.0, 2.0], [4.0, 2.0, 3.0]]])
    output = tensor.swap_dims(0, 1).sum_dim(1)
    approx(output, np.reshape([5.0, 5.0, 3.0, 11.0, -3.0, 6.0], [2, 1, 3]), tol(0, 1e-1))


def test_aggregation__test_prod_float(device):  # aggregation.rs
    tensor = q8(device, [[2.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.prod()
    approx(output, td([240.0]), tol(1e-1, 1e-1))
    tensor_with_zero = q8(device, [[2.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor_with_zero.prod()
    approx(output, td([0.0]), tol(1e-1, 1e-1))


def test_aggregation__test_prod_dim_float(device):  # aggregation.rs
    tensor = q8(device, [[2.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.prod_dim(1)
    approx(output, td([[4.0], [60.0]]), tol(0, 1e-1))
    tensor_with_zero = q8(device, [[2.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor_with_zero.prod_dim(1)
    expected = td([[0.0], [60.0]])
    approx(output, expected, tol(0, 1e-1))


def test_all__test_all(device):  # all.rs
    tensor = q8(device, [[0.0, 1.0, 0.0], [1.0, -1.0, 1.0]])
    data_actual = tensor.all().to_numpy()
    data_expected = td([False])
    exact(data_actual, data_expected)
    tensor = q8(device, [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    data_actual = tensor.all().to_numpy()
    data_expected = td([True])
    exact(data_actual, data_expected)


def test_all__test_all_dim(device):  # all.rs
    tensor = q8(device, [[0.0, 1.0, 0.0], [1.0, -1.0, 1.0]])
    data_actual = tensor.all_dim(1).to_numpy()
    data_expected = td([[False], [True]])
    exact(data_actual, data_expected)


def test_any__test_any(device):  # any.rs
    tensor = q8(device, [[0.0, 0.0, 0.0], [1.0, -1.0, 0.0]])
    data_actual = tensor.any().to_numpy()
    data_expected = td([True])
    exact(data_actual, data_expected)
    tensor = q8(device, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    data_actual = tensor.any().to_numpy()
    data_expected = td([False])
    exact(data_actual, data_expected)


def test_any__test_any_dim(device):  # any.rs
    tensor = q8(device, [[0.0, 0.0, 0.0], [1.0, -1.0, 0.0]])
    data_actual = tensor.any_dim(1).to_numpy()
    data_expected = td([[False], [True]])
    exact(data_actual, data_expected)


def test_arg__test_argmax_2d_dim0(device):  # arg.rs
    tensor = q8(device, [[10.0, 11.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.argmax(0)
    exact(output, td([[0, 0, 1]]))


def test_arg__test_argmin_2d_dim0(device):  # arg.rs
    tensor = q8(device, [[10.0, 11.0, 2.0], [30.0, 4.0, 5.0]])
    output = tensor.argmin(0)
    exact(output, td([[0, 1, 0]]))


def test_arg__test_argmax_2d_dim1(device):  # arg.rs
    tensor = q8(device, [[10.0, 11.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.argmax(1)
    exact(output, td([[1], [2]]))


def test_arg__test_argmin_2d_dim1(device):  # arg.rs
    tensor = q8(device, [[10.0, 11.0, 2.0], [30.0, 4.0, 5.0]])
    output = tensor.argmin(1)
    exact(output, td([[2], [1]]))


def test_cat__should_support_cat_ops_2d_dim0(device):  # cat.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0, 6.0]])
    output = Tensor.cat([tensor_1, tensor_2], 0)
    expected = td([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    approx(output, expected, tol(0, 1e-1))


def test_cat__should_support_cat_ops_2d_dim1(device):  # cat.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0, 6.0]])
    output = Tensor.cat([tensor_1, tensor_2], 1)
    expected = td([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    approx(output, expected, tol(0, 1e-1))


def test_cat__should_support_cat_ops_3d(device):  # cat.rs
    tensor_1 = q8(device, [[[1.0, 2.0, 3.0]], [[1.1, 2.1, 3.1]]])
    tensor_2 = q8(device, [[[4.0, 5.0, 6.0]]])
    output = Tensor.cat([tensor_1, tensor_2], 0)
    expected = td([[[1.0, 2.0, 3.0]], [[1.1, 2.1, 3.1]], [[4.0, 5.0, 6.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_cat__should_panic_when_dimensions_are_not_the_same(device):  # cat.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = Tensor.cat([tensor_1, tensor_2], 0)


def test_cat__should_panic_when_cat_exceeds_dimension(device):  # cat.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0, 6.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = Tensor.cat([tensor_1, tensor_2], 3)


def test_ceil__should_support_ceil_ops(device):  # ceil.rs
    tensor = q8(device, [[24.0423, 87.9478, 76.1838], [59.6929, 43.8169, 94.8826]])
    output = tensor.ceil()
    expected = td([[25.0, 88.0, 77.0], [60.0, 44.0, 96.0]])
    approx(output, expected, tol(1e-1, 1e-1))


def test_chunk__test_chunk_evenly_divisible(device):  # chunk.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tensors = tensor.chunk(3, 0)
    assert len(tensors) == 3
    expected = [td([0.0, 1.0]), td([2.0, 3.0]), td([4.0, 5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_chunk__test_chunk_not_evenly_divisible(device):  # chunk.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    tensors = tensor.chunk(4, 0)
    assert len(tensors) == 4
    expected = [td([0.0, 1.0]), td([2.0, 3.0]), td([4.0, 5.0]), td([6.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_chunk__test_chunk_not_divisible(device):  # chunk.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tensors = tensor.chunk(7, 0)
    assert len(tensors) == 6
    expected = [td([0.0]), td([1.0]), td([2.0]), td([3.0]), td([4.0]), td([5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_chunk__test_chunk_multi_dimension(device):  # chunk.rs
    tensor = q8(device, [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]])
    tensors = tensor.chunk(2, 1)
    assert len(tensors) == 2
    expected = [td([[0.0, 1.0, 2.0]]), td([[3.0, 4.0, 5.0]])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_chunk__test_invalid_dim(device):  # chunk.rs
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _tensors = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]).chunk(6, 1)


def test_clamp__clamp_min(device):  # clamp.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.clamp_min(2.0)
    approx(output, td([[2.0, 2.0, 2.0], [3.0, 4.0, 5.0]]), tol(0, 1e-1))


def test_clamp__clamp_max(device):  # clamp.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.clamp_max(2.0)
    approx(output, td([[0.0, 1.0, 2.0], [2.0, 2.0, 2.0]]), tol(0, 1e-1))


def test_clamp__clamp_min_max(device):  # clamp.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.clamp(1.0, 4.0)
    approx(output, td([[1.0, 1.0, 2.0], [3.0, 4.0, 4.0]]), tol(0, 1e-1))


def test_cos__should_support_cos_ops(device):  # cos.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.cos()
    expected = td([[1.0, 0.5403, -0.4161], [-0.9899, -0.6536, 0.2836]])
    approx(output, expected, tol(0, 1e-1))


def test_cosh__should_support_cosh_ops(device):  # cosh.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.cosh()
    expected = td([[1.0000, 1.5431, 3.7622], [10.0677, 27.3082, 74.2100]])
    approx(output, expected, tol(2e-2, 1e-1))


def test_div__should_support_div_ops(device):  # div.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor_1 / tensor_2
    expected = td([[0.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    approx(output, expected, tol(0, 1e-1))


def test_div__test_div_broadcast(device):  # div.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0]])
    tensor_2 = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor_1 / tensor_2
    approx(output, td([[0.0, 1.0, 1.0], [0.0, 0.25, 0.4]]), tol(0, 1e-1))


def test_div__should_support_div_scalar_ops(device):  # div.rs
    scalar = 2.0
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor / scalar
    approx(output, td([[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]]), tol(0, 1e-1))


def test_erf__should_support_erf_ops(device):  # erf.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.erf()
    expected = td([[0.0000, 0.8427, 0.9953], [1.0000, 1.0000, 1.0000]])
    approx(output, expected, tol(0, 1e-1))


def test_erf__should_support_erf_ops_with_negative_number(device):  # erf.rs
    tensor = q8(device, [[-0.056, -0.043, -0.089], [3.0, 4.0, 5.0]])
    output = tensor.erf()
    expected = td([[-0.06312324, -0.048490416, -0.10016122], [1.0000, 1.0000, 1.0000]])
    approx(output, expected, tol(0, 1e-1))


def test_exp__should_support_exp_ops(device):  # exp.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.exp()
    expected = td([[1.0, 2.71830, 7.3891], [20.0855, 54.5981, 148.4132]])
    approx(output, expected, tol(2e-2, 1e-1))


def test_expand__expand_2d(device):  # expand.rs
    tensor = q8(device, [1.0, 2.0, 3.0])
    output = tensor.expand([3, 3])
    approx(output, td([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), tol(0, 1e-1))
    tensor = q8(device, [4.0, 7.0, 2.0, 3.0])
    output = tensor.expand([2, 4])
    approx(output, td([[4.0, 7.0, 2.0, 3.0], [4.0, 7.0, 2.0, 3.0]]), tol(0, 1e-1))


def test_expand__expand_3d(device):  # expand.rs
    tensor = q8(device, [[1.0, 2.0], [3.0, 4.0]])
    output = tensor.expand([3, 2, 2])
    expected = td([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_expand__expand_higher_dimensions(device):  # expand.rs
    tensor = q8(device, [[1.0, 2.0, 3.0, 4.0]])
    output = tensor.expand([2, 3, 4])
    expected = td(
        [
            [[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]],
            [[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]],
        ]
    )
    approx(output, expected, tol(0, 1e-1))


def test_expand__broadcast_single(device):  # expand.rs
    tensor = q8(device, [1.0])
    output = tensor.expand([2, 3])
    exact(output, td([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))


def test_expand__should_fail_expand_incompatible_shapes(device):  # expand.rs
    tensor = q8(device, [1.0, 2.0, 3.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _expanded_tensor = tensor.expand([2, 2])


@pytest.mark.xfail(strict=True, reason="Tensor.expand takes no -1 (burn's 'keep this size')")
def test_expand__should_all_negative_one(device):  # expand.rs
    tensor = q8(device, [1.0, 2.0, 3.0])
    output = tensor.expand([2, -1])
    approx(output, td([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), tol(0, 1e-1))


def test_expand__should_panic_negative_one_on_non_existing_dim(device):  # expand.rs
    tensor = q8(device, [1.0, 2.0, 3.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _expanded_tensor = tensor.expand([-1, 3])


def test_flip__flip_float(device):  # flip.rs
    tensor = q8(device, [[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]])
    flipped = tensor.flip([0, 2])
    expected = td([[[5.0, 4.0, 3.0]], [[2.0, 1.0, 0.0]]])
    approx(flipped, expected, tol(0, 1e-1))
    flipped = tensor.flip([])
    exact(tensor, flipped.to_numpy())


def test_flip__flip_duplicated_axes(device):  # flip.rs
    tensor = q8(device, [[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.flip([0, 0, 1])


def test_flip__flip_out_of_bound_axis(device):  # flip.rs
    tensor = q8(device, [[[0.0, 1.0, 2.0]], [[3.0, 4.0, 5.0]]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.flip([3, 0, 1])


def test_floor__should_support_floor_ops(device):  # floor.rs
    tensor = q8(device, [[24.0423, 87.9478, 76.1838], [59.6929, 43.8169, 94.8826]])
    output = tensor.floor()
    expected = td([[24.0, 87.0, 76.0], [59.0, 43.0, 95.0]])
    approx(output, expected, tol(1e-1, 1e-1))


def test_gather_scatter__should_gather_1d_dim0(device):  # gather_scatter.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    indices = ints(device, [1, 1, 0, 1, 2])
    output = tensor.gather(0, indices)
    approx(output, td([1.0, 1.0, 0.0, 1.0, 2.0]), tol(0, 1e-1))


def test_gather_scatter__should_gather_2d_dim0(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [[0, 1, 0], [1, 0, 1]])
    output = tensor.gather(0, indices)
    approx(output, td([[0.0, 4.0, 2.0], [3.0, 1.0, 5.0]]), tol(0, 1e-1))


def test_gather_scatter__should_gather_2d_dim1(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [[2, 1, 0, 0], [2, 0, 1, 2]])
    output = tensor.gather(1, indices)
    approx(output, td([[2.0, 1.0, 0.0, 0.0], [5.0, 3.0, 4.0, 5.0]]), tol(0, 1e-1))


def test_gather_scatter__should_gather_3d_dim1(device):  # gather_scatter.rs
    tensor = q8(device, [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]])
    indices = ints(device, [[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 1, 1]]])
    output = tensor.gather(1, indices)
    expected = td([[[3.0, 1.0, 2.0], [0.0, 4.0, 2.0]], [[6.0, 7.0, 11.0], [6.0, 10.0, 11.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_gather_scatter__should_gather_2d_only_1dim(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [[1, 2]]).reshape([2, 1])
    output = tensor.gather(1, indices)
    approx(output, td([[1.0], [5.0]]), tol(0, 1e-1))


def test_gather_scatter__should_scatter_1d(device):  # gather_scatter.rs
    tensor = q8(device, [0.0, 0.0, 0.0])
    values = q8(device, [5.0, 4.0, 3.0])
    indices = ints(device, [1, 0, 2])
    output = tensor.scatter(0, indices, values, "add")
    approx(output, td([4.0, 5.0, 3.0]), tol(0, 1e-1))


def test_gather_scatter__should_scatter_2d_dim0(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    values = q8(device, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    indices = ints(device, [[1, 0, 1], [1, 1, 0]])
    output = tensor.scatter(0, indices, values, "add")
    approx(output, td([[0.0, 2.0, 6.0], [5.0, 5.0, 3.0]]), tol(0, 1e-1))


def test_gather_scatter__should_scatter_2d_dim1(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    values = q8(device, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    indices = ints(device, [[1, 0, 2], [1, 2, 0]])
    output = tensor.scatter(1, indices, values, "add")
    approx(output, td([[2.0, 1.0, 3.0], [6.0, 4.0, 5.0]]), tol(0, 1e-1))


def test_gather_scatter__should_scatter_3d_dim1(device):  # gather_scatter.rs
    tensor = q8(device, [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]])
    values = q8(
        device, [[[12.0, 13.0, 14.0], [15.0, 16.0, 17.0]], [[18.0, 19.0, 20.0], [21.0, 22.0, 23.0]]]
    )
    indices = ints(device, [[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [0, 1, 1]]])
    output = tensor.scatter(1, indices, values, "add")
    expected = td([[[15.0, 14.0, 33.0], [15.0, 20.0, 5.0]], [[45.0, 26.0, 8.0], [9.0, 32.0, 54.0]]])
    approx(output, expected, tol(0, 2e-1))


def test_gather_scatter__should_scatter_2d_dim1_diff_shape(device):  # gather_scatter.rs
    tensor = q8(device, [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    values = q8(device, [[1.0], [4.0]])
    indices = ints(device, [[1], [2]])
    output = tensor.scatter(1, indices, values, "add")
    approx(output, td([[0.0, 1.0, 0.0], [0.0, 0.0, 4.0]]), tol(0, 1e-1))


def test_log__should_support_log_ops(device):  # log.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.log()
    expected = td([[-np.inf, 0.0, np.log(2.0)], [1.0986, 1.3862, 1.6094]])
    approx(output, expected, tol(0, 1e-1))


def test_log1p__should_support_exp_log1p(device):  # log1p.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.log1p()
    expected = td([[0.0, np.log(2.0), 1.0986], [1.3862, 1.6094, 1.7917]])
    approx(output, expected, tol(0, 1e-1))


def test_map_comparison__test_equal(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 1.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.equal(tensor_2)
    data_actual_inplace = tensor_1.equal(tensor_2)
    data_expected = td([[True, True, False], [True, False, False]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_not_equal(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 1.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.not_equal(tensor_2)
    data_actual_inplace = tensor_1.not_equal(tensor_2)
    data_expected = td([[False, False, True], [False, True, True]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_greater_equal_elem(device):  # map_comparison.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    data_actual_cloned = tensor.greater_equal_elem(4.0)
    data_actual_inplace = tensor.greater_equal_elem(4.0)
    data_expected = td([[False, False, False], [False, True, True]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_greater(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 1.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.greater(tensor_2)
    data_actual_inplace = tensor_1.greater(tensor_2)
    data_expected = td([[False, False, True], [False, False, True]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_greater_equal(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 1.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 2.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.greater_equal(tensor_2)
    data_actual_inplace = tensor_1.greater_equal(tensor_2)
    data_expected = td([[True, True, False], [True, False, True]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_lower_elem(device):  # map_comparison.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    data_actual_cloned = tensor.lower_elem(4.0)
    data_actual_inplace = tensor.lower_elem(4.0)
    data_expected = td([[True, True, True], [True, False, False]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_lower(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 1.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 2.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.lower(tensor_2)
    data_actual_inplace = tensor_1.lower(tensor_2)
    data_expected = td([[False, False, True], [False, True, False]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_map_comparison__test_lower_equal(device):  # map_comparison.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[0.0, 1.0, 1.0], [3.0, 5.0, 4.0]])
    data_actual_cloned = tensor_1.lower_equal(tensor_2)
    data_actual_inplace = tensor_1.lower_equal(tensor_2)
    data_expected = td([[True, True, False], [True, True, False]])
    exact(data_actual_cloned, data_expected)
    exact(data_actual_inplace, data_expected)


def test_mask__should_support_mask_where_ops(device):  # mask.rs
    tensor = q8(device, [[1.0, 7.0], [2.0, 3.0]])
    mask = bools(device, [[True, False], [False, True]])
    value = q8(device, [[1.8, 2.8], [3.8, 4.8]])
    output = tensor.mask_where(mask, value)
    expected = td([[1.8, 7.0], [2.0, 4.8]])
    approx(output, expected, tol(0, 1e-1))


def test_mask__should_support_mask_fill_ops(device):  # mask.rs
    tensor = q8(device, [[1.0, 7.0], [2.0, 3.0]])
    mask = bools(device, [[True, False], [False, True]])
    output = tensor.mask_fill(mask, 2.0)
    expected = td([[2.0, 7.0], [2.0, 2.0]])
    approx(output, expected, tol(0, 1e-1))


def test_maxmin__test_max_dim_2d(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.max_dim(1)
    expected = td([[2.0], [5.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_maxmin__test_max_dim_with_indices_2d_with_dim_0th(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output, index = tensor.max_dim_with_indices(0)
    output_expected = td([[3.0, 4.0, 5.0]])
    index_expected = td([[1, 1, 1]])
    approx(output, output_expected, tol(2e-2, 1e-2))
    exact(index, index_expected)


def test_maxmin__test_max_dim_with_indices_2d(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output, index = tensor.max_dim_with_indices(1)
    output_expected = td([[2.0], [5.0]])
    index_expected = td([[2], [2]])
    approx(output, output_expected, tol(2e-2, 1e-2))
    exact(index, index_expected)


def test_maxmin__test_min_dim_2d(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.min_dim(1)
    expected = td([[0.0], [3.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_maxmin__test_min_dim_with_indices_2d(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output, index = tensor.min_dim_with_indices(1)
    output_expected = td([[0.0], [3.0]])
    index_expected = td([[0], [0]])
    approx(output, output_expected, tol(2e-2, 1e-2))
    exact(index, index_expected)


def test_maxmin__test_min_dim_2d_with_0th_dim(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.min_dim(0)
    expected = td([[0.0, 1.0, 2.0]])
    approx(output, expected, tol(2e-2, 3e-2))


def test_maxmin__test_max_dim_2d_with_0th_dim(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.max_dim(0)
    expected = td([[3.0, 4.0, 5.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_maxmin__test_min_dim_with_indices_2d_with_0th_dim(device):  # maxmin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output, index = tensor.min_dim_with_indices(0)
    output_expected = td([[0.0, 1.0, 2.0]])
    index_expected = td([[0, 0, 0]])
    approx(output, output_expected, tol(2e-2, 3e-2))
    exact(index, index_expected)


def test_maxmin__test_maximum_pair(device):  # maxmin.rs
    a = q8(device, [1.0, 5.0, 3.0, 4.0])
    b = q8(device, [2.0, 1.0, 4.0, 5.0])
    output = a.max_pair(b)
    expected = td([2.0, 5.0, 4.0, 5.0])
    approx(output, expected, tol(2e-2, 1e-2))


def test_maxmin__test_minimum_pair(device):  # maxmin.rs
    a = q8(device, [1.0, 5.0, 3.0, 4.0])
    b = q8(device, [2.0, 1.0, 4.0, 5.0])
    output = a.min_pair(b)
    expected = td([1.0, 1.0, 3.0, 4.0])
    approx(output, expected, tol(2e-2, 1e-2))


def test_mul__should_support_mul_ops(device):  # mul.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = tensor_1
    output = tensor_1 * tensor_2
    expected = td([[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]])
    approx(output, expected, tol(5e-2, 1e-2))


def test_mul__test_mul_broadcast(device):  # mul.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0]])
    tensor_2 = q8(device, [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    output = tensor_1 * tensor_2
    expected = td([[0.0, 4.0, 10.0], [0.0, 7.0, 16.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_mul__test_mul_broadcast_2_dims(device):  # mul.rs
    tensor_1 = q8(device, [[0.0], [1.0], [2.0]])
    tensor_2 = q8(device, [[3.0, 4.0, 5.0]])
    output = tensor_1 * tensor_2
    expected = td([[0.0, 0.0, 0.0], [3.0, 4.0, 5.0], [6.0, 8.0, 10.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_mul__should_support_mul_scalar_ops(device):  # mul.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    scalar = 2.0
    output = tensor * scalar
    expected = td([[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_narrow__test_narrow(device):  # narrow.rs
    tensor = q8(device, [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]])
    output = tensor.narrow(0, 0, 2)
    expected = td([[1.0, 2.0, 3.0], [7.0, 8.0, 9.0]])
    assert output.shape == (
        2,
        3,
    )
    approx(output, expected, tol(0, 1e-1))
    output = tensor.narrow(1, 1, 2)
    expected = td([[2.0, 3.0], [8.0, 9.0], [14.0, 15.0]])
    assert output.shape == (
        3,
        2,
    )
    approx(output, expected, tol(0, 1e-1))


def test_narrow__test_narrow_invalid_dim(device):  # narrow.rs
    tensor = q8(device, [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = tensor.narrow(2, 0, 2)


def test_narrow__test_narrow_invalid_start(device):  # narrow.rs
    tensor = q8(device, [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = tensor.narrow(0, 3, 2)


def test_narrow__test_narrow_invalid_zero_length(device):  # narrow.rs
    tensor = q8(device, [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = tensor.narrow(0, 1, 0)


def test_narrow__test_narrow_invalid_length(device):  # narrow.rs
    tensor = q8(device, [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = tensor.narrow(0, 0, 4)


def test_neg__should_support_neg_ops(device):  # neg.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.neg()
    expected = td([[-0.0, -1.0, -2.0], [-3.0, -4.0, -5.0]])
    approx(output, expected, tol(0, 1e-1))


def test_permute__permute_float(device):  # permute.rs
    tensor = q8(
        device,
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
    ).reshape([2, 2, 4])
    permuted = tensor.permute([2, 1, 0])
    expected = td(
        [
            [[0.0, 8.0], [4.0, 12.0]],
            [[1.0, 9.0], [5.0, 13.0]],
            [[2.0, 10.0], [6.0, 14.0]],
            [[3.0, 11.0], [7.0, 15.0]],
        ]
    )
    approx(permuted, expected, tol(1e-1, 1e-1))
    permuted = tensor.permute([-1, 1, 0])
    approx(permuted, expected, tol(1e-1, 1e-1))
    permuted = tensor.permute([0, 1, 2])
    approx(permuted, tensor.dequantize().to_numpy(), tol(1e-4, 1e-4))


def test_permute__edge_repeated_axes(device):  # permute.rs
    tensor = q8(
        device,
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
    ).reshape([2, 2, 4])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.permute([0, 0, 1])


def test_permute__edge_out_of_bound_axis(device):  # permute.rs
    tensor = q8(
        device,
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
    ).reshape([2, 2, 4])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.permute([3, 0, 1])


def test_powf__should_support_powf_ops(device):  # powf.rs
    tensor = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_pow = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 2.0]])
    output = tensor.powf(tensor_pow)
    expected = td([[1.0, 1.0, 4.0], [27.0, 256.0, 25.0]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf__should_support_neg_power(device):  # powf.rs
    tensor = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_pow = q8(device, [[-0.95, -0.67, -0.45], [-0.24, -0.5, -0.6]])
    output = tensor.powf(tensor_pow)
    expected = td([[1.0, 1.0, 0.73204285], [0.76822936, 0.5, 0.38073079]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf__should_support_neg_values_with_even_power(device):  # powf.rs
    tensor = q8(device, [[0.0, -1.0, -2.0], [-3.0, -4.0, -5.0]])
    tensor_pow = q8(device, [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]])
    output = tensor.powf(tensor_pow)
    expected = td([[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf__should_support_neg_values_with_odd_power(device):  # powf.rs
    tensor = q8(device, [[0.0, -1.0, -2.0], [-3.0, -4.0, -4.0]])
    tensor_pow = q8(device, [[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]])
    output = tensor.powf(tensor_pow)
    expected = td([[0.0, -1.0, -8.0], [-27.0, -64.0, -64.0]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf_scalar__should_support_powf_ops(device):  # powf_scalar.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.powf_scalar(0.71)
    expected = td([[0.0, 1.0, 1.6358], [2.182, 2.6759, 3.1352]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf_scalar__should_support_neg_power(device):  # powf_scalar.rs
    tensor = q8(device, [[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.powf_scalar(-0.33)
    expected = td([[1.0, 1.0, 0.79553646], [0.695905, 0.6328783, 0.58794934]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf_scalar__should_support_neg_values_with_even_power(device):  # powf_scalar.rs
    tensor = q8(device, [[0.0, -1.0, -2.0], [-3.0, -4.0, -5.0]])
    output = tensor.powf_scalar(2.0)
    expected = td([[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_powf_scalar__should_support_neg_values_with_odd_power(device):  # powf_scalar.rs
    tensor = q8(device, [[0.0, -1.0, -2.0], [-3.0, -4.0, -4.0]])
    output = tensor.powf_scalar(3.0)
    expected = td([[0.0, -1.0, -8.0], [-27.0, -64.0, -64.0]])
    approx(output, expected, tol(4e-2, 1e-2))


def test_recip__should_support_recip_ops(device):  # recip.rs
    tensor = q8(device, [[0.5, 1.0, 2.0], [3.0, -4.0, -5.0]])
    output = tensor.recip()
    expected = td([[2.0, 1.0, 0.5], [0.33333, -0.25, -0.2]])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_remainder_basic(device):  # remainder.rs
    lhs = q8(device, [-3.0, -2.0, -1.0, 1.0, 2.0, 2.0])
    rhs = q8(device, [2.0, 3.0, 1.0, 2.0, 1.0, 2.0])
    output = lhs.remainder(rhs)
    expected = td([1.0, 1.0, 0.0, 1.0, 0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_remainder_float(device):  # remainder.rs
    lhs = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    rhs = q8(device, [1.4233, 2.7313, 0.2641, 1.9651, 0.5897])
    output = lhs.remainder(rhs)
    expected = td([1.0, 2.0, 0.0949, 0.0698, 0.2824])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_remainder_float_scalar(device):  # remainder.rs
    tensor = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    output = tensor.remainder_scalar(-1.5)
    expected = td([-0.5, -1.0, 0.0, -0.5, -1.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_be_zero(device):  # remainder.rs
    lhs = q8(device, [0.0, 0.0, 0.0])
    rhs = q8(device, [3.5, -2.1, 1.5])
    output = lhs.remainder(rhs)
    expected = td([0.0, 0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_be_zero_scalar(device):  # remainder.rs
    tensor = q8(device, [0.0, 0.0, 0.0])
    output = tensor.remainder_scalar(3.5)
    expected = td([0.0, 0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_have_no_remainder(device):  # remainder.rs
    lhs = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    rhs = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    output = lhs.remainder(rhs)
    expected = td([0.0, 0.0, 0.0, 0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_have_no_remainder_scalar(device):  # remainder.rs
    tensor = q8(device, [4.0, 4.0])
    output = tensor.remainder_scalar(4.0)
    expected = td([0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_be_negative(device):  # remainder.rs
    lhs = q8(device, [-7.0, -3.0, 2.0, 6.0])
    rhs = q8(device, [-2.5, -2.1, -1.5, -3.25])
    output = lhs.remainder(rhs)
    expected = td([-2.0, -0.9, -1.0, -0.5])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_be_negative_scalar(device):  # remainder.rs
    tensor = q8(device, [-7.0, -3.0, 2.0, 6.0])
    output = tensor.remainder_scalar(-2.5)
    expected = td([-2.0, -0.50, -0.50, -1.5])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_fp_dividends(device):  # remainder.rs
    tensor = q8(device, [-7.5, -2.5, 2.5, 7.5])
    output = tensor.remainder_scalar(3.0)
    expected = td([1.5, 0.5, 2.5, 1.5])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_large_divisor(device):  # remainder.rs
    lhs = q8(device, [-1.0, 1.0, -1.5, 1.5, -1.0, 1.0, -1.5, 1.5])
    rhs = q8(device, [10.0, 10.0, 10.0, 10.0, -10.0, -10.0, -10.0, -10.0])
    output = lhs.remainder(rhs)
    expected = td([9.0, 1.0, 8.5, 1.5, -1.0, -9.0, -1.5, -8.5])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_large_divisor_scalar(device):  # remainder.rs
    tensor = q8(device, [-1.0, 1.0])
    output = tensor.remainder_scalar(10.0)
    expected = td([9.0, 1.0])
    approx(output, expected, tol(0, 1e-1))


def test_remainder__should_support_remainder_op(device):  # remainder.rs
    lhs = q8(device, [-3.0, -2.0, -1.0, 1.0, 2.0, 2.0])
    rhs = q8(device, [2.0, 3.0, 1.0, 2.0, 1.0, 2.0])
    output = lhs % rhs
    expected = td([1.0, 1.0, 0.0, 1.0, 0.0, 0.0])
    approx(output, expected, tol(0, 1e-1))


def test_repeat_dim__should_support_repeat_ops(device):  # repeat_dim.rs
    tensor = q8(device, [[0.0, 1.0, 2.0, 3.0]])
    output = tensor.repeat_dim(0, 4)
    expected = td(
        [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]
    )
    approx(output, expected, tol.PERMISSIVE)


def test_repeat_dim__should_support_repeat_on_dims_larger_than_1(device):  # repeat_dim.rs
    tensor = q8(
        device,
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
    ).reshape([4, 2, 2])
    output = tensor.repeat_dim(2, 2)
    expected = td(
        [
            [[0.0, 1.0, 0.0, 1.0], [2.0, 3.0, 2.0, 3.0]],
            [[4.0, 5.0, 4.0, 5.0], [6.0, 7.0, 6.0, 7.0]],
            [[8.0, 9.0, 8.0, 9.0], [10.0, 11.0, 10.0, 11.0]],
            [[12.0, 13.0, 12.0, 13.0], [14.0, 15.0, 14.0, 15.0]],
        ]
    )
    approx(output, expected, tol(1e-1, 1e-1))


def test_reshape__should_support_reshape_1d(device):  # reshape.rs
    tensor = q8(device, [[0.0, 1.0, 2.0, 3.0]])
    output = tensor.reshape([1, 4])
    expected = td([[0.0, 1.0, 2.0, 3.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_reshape__should_support_reshape_2d(device):  # reshape.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.reshape([6])
    expected = td([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    approx(output, expected, tol(2e-2, 1e-2))


@pytest.mark.xfail(strict=True, reason="Tensor.reshape takes no 0 (burn's 'keep this size')")
def test_reshape__should_support_dim_infererence(device):  # reshape.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]).reshape(
        [4, 3]
    )
    reshaped = tensor.reshape([2, -1])
    assert reshaped.shape == (2, 6)
    reshaped = reshaped.reshape([0, 2, -1])
    assert reshaped.shape == (2, 2, 3)
    reshaped = tensor.reshape([-1])
    assert reshaped.shape == (12,)
    reshaped = tensor.reshape([0, 3])
    assert reshaped.shape == (4, 3)


def test_reshape__multiple_neg_ones(device):  # reshape.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.reshape([-1, -1])


def test_reshape__neg_value(device):  # reshape.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.reshape([-2, -1])


def test_round__should_support_round_ops(device):  # round.rs
    tensor = q8(device, [[24.0423, 87.9478, 76.1838], [59.6929, 43.8169, 94.8826]])
    output = tensor.round()
    expected = td([[24.0, 88.0, 76.0], [60.0, 44.0, 95.0]])
    approx(output, expected, tol(0, 1e-1))


def test_round__should_round_ties_even(device):  # round.rs
    tensor = q8(device, [5.5])
    output = tensor.round()
    expected = td([6.0])
    approx(output, expected, tol(0, 1e-1))


def test_select__should_select_1d(device):  # select.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0])
    indices = ints(device, [1, 1, 0, 1, 2])
    output = tensor.select(0, indices)
    expected = td([1.0, 1.0, 0.0, 1.0, 2.0])
    approx(output, expected, tol(2e-2, 1e-2))


def test_select__should_select_2d_dim0_same_num_dim(device):  # select.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [1, 0])
    output = tensor.select(0, indices)
    expected = td([[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_select__should_select_2d_dim0_more_num_dim(device):  # select.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [1, 0, 1, 1])
    output = tensor.select(0, indices)
    expected = td([[3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [3.0, 4.0, 5.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_select__should_select_2d_dim1(device):  # select.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    indices = ints(device, [1, 1, 0, 1, 2])
    output = tensor.select(1, indices)
    expected = td([[1.0, 1.0, 0.0, 1.0, 2.0], [4.0, 4.0, 3.0, 4.0, 5.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_select__should_select_assign_1d(device):  # select.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    values = q8(device, [5.0, 4.0, 3.0, 2.0, 1.0])
    indices = ints(device, td([1, 1, 0, 1, 2]))
    output = tensor.select_assign(0, indices, values, "add")
    expected = td([3.0, 12.0, 3.0])
    approx(output, expected, tol(0, 1e-1))


def test_select__should_select_assign_2d_dim0(device):  # select.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    values = tensor
    indices = ints(device, td([1, 0]))
    output = tensor.select_assign(0, indices, values, "add")
    expected = td([[3.0, 5.0, 7.0], [3.0, 5.0, 7.0]])
    approx(output, expected, tol(0, 1e-1))


def test_select__should_select_assign_2d_dim1(device):  # select.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    values = tensor
    indices = ints(device, td([1, 0, 2]))
    output = tensor.select_assign(1, indices, values, "add")
    expected = td([[1.0, 1.0, 4.0], [7.0, 7.0, 10.0]])
    approx(output, expected, tol(0, 1e-1))


def test_sin__should_support_sin_ops(device):  # sin.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.sin()
    expected = td([[0.0, 0.8414, 0.9092], [0.1411, -0.7568, -0.9589]])
    approx(output, expected, tol(0, 1e-1))


def test_sinh__should_support_sinh_ops(device):  # sinh.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.sinh()
    expected = td([[0.0000, 1.1752, 3.6269], [10.0179, 27.2899, 74.2032]])
    approx(output, expected, tol(3e-2, 1e-2))


def test_slice__should_support_full_sliceing_1d(device):  # slice.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0])
    data = tensor.to_numpy()
    output = tensor.slice([slice(0, 4)])
    exact(output, data)


def test_slice__should_support_partial_sliceing_1d(device):  # slice.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0])
    output = tensor.slice([slice(1, 3)])
    expected = td([1.0, 2.0])
    approx(output, expected, tol(2e-2, 1e-2))


def test_slice__should_support_full_sliceing_2d(device):  # slice.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    data = tensor.to_numpy()
    output = tensor.slice([slice(0, 2)])
    exact(output, data)
    output = tensor.slice([slice(0, 2), slice(0, 3)])
    exact(output, data)


def test_slice__should_support_partial_sliceing_2d(device):  # slice.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.slice([slice(0, 2), slice(0, 2)])
    expected = td([[0.0, 1.0], [3.0, 4.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_slice__should_support_partial_sliceing_3d(device):  # slice.rs
    tensor = q8(
        device,
        [
            [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]],
            [[8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]],
        ],
    )
    output = tensor.slice([slice(1, 2), slice(1, 2), slice(0, 2)])
    expected = td([[[12.0, 13.0]]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_slice__should_support_partial_sliceing_3d_non_contiguous(device):  # slice.rs
    tensor = q8(
        device,
        [
            [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]],
            [[8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]],
        ],
    )
    output = tensor.transpose().slice([slice(1, 2), slice(1, 2), slice(0, 2)])
    expected = td([[[9.0, 13.0]]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_slice__should_support_slice_assign_1d(device):  # slice.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    tensor_assigned = q8(device, [10.0, 5.0])
    output = tensor.slice_assign([slice(0, 2)], tensor_assigned)
    expected = td([10.0, 5.0, 2.0])
    approx(output, expected, tol(0, 1e-1))


def test_slice__should_support_slice_assign_2d(device):  # slice.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_assigned = q8(device, [[10.0, 5.0]])
    output = tensor.slice_assign([slice(1, 2), slice(0, 2)], tensor_assigned)
    expected = td([[0.0, 1.0, 2.0], [10.0, 5.0, 5.0]])
    approx(output, expected, tol(0, 1e-1))


def test_slice__slice_should_not_corrupt_potentially_inplace_operations(device):  # slice.rs
    tensor = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    tensor = tensor.slice([slice(0, 3)]) + tensor.slice([slice(2, 5)])
    expected = td([4.0, 6.0, 8.0])
    approx(tensor, expected, tol(0, 1e-1))


def test_slice__slice_assign_should_not_corrupt_potentially_inplace_operations(device):  # slice.rs
    tensor = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    values = q8(device, [10.0, 20.0, 30.0])
    tensor_1 = tensor.slice_assign([slice(0, 3)], values)
    tensor_2 = tensor + 2
    expected = td([10.0, 20.0, 30.0, 4.0, 5.0])
    approx(tensor_1, expected, tol(0, 1e-1))
    expected = td([3.0, 4.0, 5.0, 6.0, 7.0])
    approx(tensor_2, expected, tol(0, 1e-1))


def test_slice__clamp_when_slice_exceeds_dimension(device):  # slice.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    data = tensor.to_numpy()
    output = tensor.slice([slice(0, 4)])
    exact(output, data)


def test_slice__negative_dimensions(device):  # slice.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    data = tensor.to_numpy()
    output = tensor.slice([slice(0, 4), slice(0, 4)])
    exact(output, data)
    output = tensor.slice([slice(0, 1), slice(0, 1)])
    data = td([[0.0]])
    approx(output, data, tol(2e-2, 1e-2))
    output = tensor.slice([slice(0, -1), slice(0, -2)])
    approx(output, data, tol(2e-2, 1e-2))


def test_slice__missing_dimensions(device):  # slice.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    data = tensor.to_numpy()
    output = tensor.slice([slice(0, 4), slice(0, 4)])
    exact(output, data)
    data = td([[0.0]])
    output = tensor.slice([slice(0, -1), slice(0, -2)])
    approx(output, data, tol(2e-2, 1e-2))
    output = tensor.slice([slice(0, 1), slice(None)])
    data = td([[0.0, 1.0, 2.0]])
    approx(output, data, tol(2e-2, 1e-2))
    output = tensor.slice([slice(None), slice(0, 2)])
    data = td([[0.0, 1.0], [3.0, 4.0]])
    approx(output, data, tol(2e-2, 1e-2))
    output = tensor.slice([slice(None), slice(None)])
    data = td([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    approx(output, data, tol(2e-2, 1e-2))


def test_slice__should_panic_when_slice_with_too_many_dimensions(device):  # slice.rs
    tensor = q8(device, [0.0, 1.0, 2.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = tensor.slice([slice(0, 1), slice(0, 1)])


def test_sort_argsort__test_sort_1d_float(device):  # sort_argsort.rs
    tensor = q8(device, [0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 5.2, 4.0, 0.99, 3.0, -8.1])
    values = tensor.sort(0)
    values_expected = td([-8.1, -0.3, -0.21, 0.0, 0.5, 0.94, 0.99, 1.2, 2.1, 2.3, 3.0, 4.0, 5.2])
    approx(values, values_expected, tol(0, 1e-1))


def test_sort_argsort__test_argsort_1d_float(device):  # sort_argsort.rs
    tensor = q8(device, [0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 5.2, 4.0, 0.99, 3.0, -8.1])
    indices = tensor.argsort(0)
    indices_expected = td([12, 6, 2, 3, 0, 5, 10, 1, 4, 7, 11, 9, 8])
    exact(indices, indices_expected)


def test_sort_argsort__test_sort_with_indices_descending_float(device):  # sort_argsort.rs
    tensor = q8(device, [0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 5.2, 4.0, 0.99, 3.0, -8.1])
    values, indices = tensor.sort_with_indices(0, True)
    values_expected = td([5.2, 4.0, 3.0, 2.3, 2.1, 1.2, 0.99, 0.94, 0.5, 0.0, -0.21, -0.3, -8.1])
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([8, 9, 11, 7, 4, 1, 10, 5, 0, 3, 2, 6, 12])
    exact(indices, indices_expected)
    tensor = q8(
        device, [-0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 4.0, 0.99, 3.0, -8.1]
    ).reshape([2, 2, 3])
    values, indices = tensor.sort_with_indices(1, True)
    values_expected = td(
        [[[0.0, 2.1, 0.94], [-0.5, 1.2, -0.21]], [[0.99, 3.0, 4.0], [-0.3, 2.3, -8.1]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([[[1, 1, 1], [0, 0, 0]], [[1, 1, 0], [0, 0, 1]]])
    exact(indices, indices_expected)


def test_sort_argsort__test_sort_float(device):  # sort_argsort.rs
    tensor = q8(
        device, [-0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 4.0, 0.99, 3.0, -8.1]
    ).reshape([2, 2, 3])
    values = tensor.sort(0)
    values_expected = td(
        [[[-0.5, 1.2, -0.21], [0.0, 2.1, -8.1]], [[-0.3, 2.3, 4.0], [0.99, 3.0, 0.94]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    values = tensor.sort(1)
    values_expected = td(
        [[[-0.5, 1.2, -0.21], [0.0, 2.1, 0.94]], [[-0.3, 2.3, -8.1], [0.99, 3.0, 4.0]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    values = tensor.sort(2)
    values_expected = td(
        [[[-0.5, -0.21, 1.2], [0.0, 0.94, 2.1]], [[-0.3, 2.3, 4.0], [-8.1, 0.99, 3.0]]]
    )
    approx(values, values_expected, tol(0, 1e-1))


def test_sort_argsort__test_sort_with_indices_float(device):  # sort_argsort.rs
    tensor = q8(
        device, [-0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 4.0, 0.99, 3.0, -8.1]
    ).reshape([2, 2, 3])
    values, indices = tensor.sort_with_indices(0)
    values_expected = td(
        [[[-0.5, 1.2, -0.21], [0.0, 2.1, -8.1]], [[-0.3, 2.3, 4.0], [0.99, 3.0, 0.94]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([[[0, 0, 0], [0, 0, 1]], [[1, 1, 1], [1, 1, 0]]])
    exact(indices, indices_expected)
    values, indices = tensor.sort_with_indices(1)
    values_expected = td(
        [[[-0.5, 1.2, -0.21], [0.0, 2.1, 0.94]], [[-0.3, 2.3, -8.1], [0.99, 3.0, 4.0]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([[[0, 0, 0], [1, 1, 1]], [[0, 0, 1], [1, 1, 0]]])
    exact(indices, indices_expected)
    values, indices = tensor.sort_with_indices(2)
    values_expected = td(
        [[[-0.5, -0.21, 1.2], [0.0, 0.94, 2.1]], [[-0.3, 2.3, 4.0], [-8.1, 0.99, 3.0]]]
    )
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([[[0, 2, 1], [0, 2, 1]], [[0, 1, 2], [2, 0, 1]]])
    exact(indices, indices_expected)


def test_sort_argsort__test_argsort_float(device):  # sort_argsort.rs
    tensor = q8(
        device, [-0.5, 1.2, -0.21, 0.0, 2.1, 0.94, -0.3, 2.3, 4.0, 0.99, 3.0, -8.1]
    ).reshape([2, 2, 3])
    indices = tensor.argsort(0)
    indices_expected = td([[[0, 0, 0], [0, 0, 1]], [[1, 1, 1], [1, 1, 0]]])
    exact(indices, indices_expected)
    indices = tensor.argsort(1)
    indices_expected = td([[[0, 0, 0], [1, 1, 1]], [[0, 0, 1], [1, 1, 0]]])
    exact(indices, indices_expected)
    indices = tensor.argsort(2)
    indices_expected = td([[[0, 2, 1], [0, 2, 1]], [[0, 1, 2], [2, 0, 1]]])
    exact(indices, indices_expected)


def test_sort_argsort__test_sort_descending_1d(device):  # sort_argsort.rs
    tensor = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    values = tensor.sort(0, True)
    values_expected = td([5.0, 4.0, 3.0, 2.0, 1.0])
    approx(values, values_expected, tol(0, 1e-1))


def test_split__test_split_evenly_divisible(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tensors = tensor.split(2, 0)
    assert len(tensors) == 3
    expected = [td([0.0, 1.0]), td([2.0, 3.0]), td([4.0, 5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_split__test_split_not_evenly_divisible(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    tensors = tensor.split(2, 0)
    assert len(tensors) == 4
    expected = [td([0.0, 1.0]), td([2.0, 3.0]), td([4.0, 5.0]), td([6.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_split__test_split_along_dim1(device):  # split.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensors = tensor.split(2, 1)
    assert len(tensors) == 2
    expected = [td([[0.0, 1.0], [3.0, 4.0]]), td([[2.0], [5.0]])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_split__test_split_split_size_larger_than_tensor_size(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tensors = tensor.split(10, 0)
    assert len(tensors) == 1
    expected = [td([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_split__test_split_with_zero_split_size_non_zero_tensor(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.split(0, 0)


def test_split__test_split_invalid_dim(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.split(1, 2)


def test_split__test_split_with_sizes(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    tensors = tensor.split_with_sizes([2, 3, 1], 0)
    assert len(tensors) == 3
    expected = [td([0.0, 1.0]), td([2.0, 3.0, 4.0]), td([5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_split__test_split_with_sizes_invalid_sum(device):  # split.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _ = tensor.split_with_sizes([2, 2, 1], 0)


def test_split__test_split_with_sizes_zero_length(device):  # split.rs
    tensor = q8(device, [0.0, 2.0, 5.0])
    tensors = tensor.split_with_sizes([0, 1, 2], 0)
    assert len(tensors) == 2
    expected = [td([0.0]), td([2.0, 5.0])]
    for index, tensor in enumerate(tensors):
        approx(tensor, expected[index], tol(0, 1e-1))


def test_sqrt__should_support_sqrt_ops(device):  # sqrt.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.sqrt()
    expected = td([[0.0, 1.0, np.sqrt(2.0)], [1.73205, 2.0, 2.2360]])
    approx(output, expected, tol(0, 1e-1))


def test_stack__should_support_stack_ops_2d_dim0(device):  # stack.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0, 6.0]])
    output = Tensor.stack([tensor_1, tensor_2], 0)
    expected = td([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_stack__should_support_stack_ops_2d_dim1(device):  # stack.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0, 6.0]])
    output = Tensor.stack([tensor_1, tensor_2], 1)
    expected = td([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_stack__should_support_stack_ops_3d(device):  # stack.rs
    tensor_1 = q8(device, [[[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]]])
    tensor_2 = q8(device, [[[4.0, 5.0, 6.0]], [[6.0, 5.0, 4.0]]])
    output = Tensor.stack([tensor_1, tensor_2], 0)
    expected = td([[[[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]]], [[[4.0, 5.0, 6.0]], [[6.0, 5.0, 4.0]]]])
    approx(output, expected, tol(0, 1e-1))


def test_stack__should_panic_when_dimensions_are_not_the_same(device):  # stack.rs
    tensor_1 = q8(device, [[1.0, 2.0, 3.0]])
    tensor_2 = q8(device, [[4.0, 5.0]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = Tensor.stack([tensor_1, tensor_2], 0)


def test_stack__should_panic_when_stack_exceeds_dimension(device):  # stack.rs
    tensor_1 = q8(device, [[[1.0, 2.0, 3.0]], [[3.0, 2.0, 1.0]]])
    tensor_2 = q8(device, [[[4.0, 5.0, 6.0]]])
    with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)):
        _output = Tensor.stack([tensor_1, tensor_2], 3)


def test_sub__should_support_sub_ops(device):  # sub.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    tensor_2 = q8(device, [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]])
    output = tensor_1 - tensor_2
    expected = td([[-6.0, -6.0, -6.0], [-6.0, -6.0, -6.0]])
    approx(output, expected, tol(0, 1e-1))


def test_sub__test_sub_broadcast(device):  # sub.rs
    tensor_1 = q8(device, [[0.0, 1.0, 2.0]])
    tensor_2 = q8(device, [[3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
    output = tensor_1 - tensor_2
    expected = td([[-3.0, -3.0, -3.0], [-6.0, -6.0, -6.0]])
    approx(output, expected, tol(0, 1e-1))


def test_sub__should_support_sub_scalar_ops(device):  # sub.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    scalar = 2.0
    output = tensor - scalar
    expected = td([[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]])
    approx(output, expected, tol(2e-2, 1e-2))


def test_tan__should_support_tan_ops(device):  # tan.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.tan()
    expected = td([[0.0, 1.5574, -2.1850], [-0.1425, 1.1578, -3.3805]])
    approx(output, expected, tol(0, 1e-1))


def test_tanh__should_support_tanh_ops(device):  # tanh.rs
    tensor = q8(device, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    output = tensor.tanh()
    expected = td([[0.0, 0.7615, 0.9640], [0.9950, 0.9993, 0.9999]])
    approx(output, expected, tol(0, 1e-1))


def test_ternary_matmul__q2s_ternary_matmul_all_zero_weight_is_zero(device):  # ternary_matmul.rs
    a = floats(device, [[1.0, -2.0, 3.0]])
    w = floats(device, [[0.0], [0.0], [0.0]])
    scheme = QuantScheme().with_value(QuantValue.Q2S)
    wq = w.quantize_dynamic(scheme)
    out = a.matmul(wq)
    approx(out, td([[0.0]]), tol(0, 1e-6))


def test_topk__test_topk_with_indices(device):  # topk.rs
    tensor = q8(device, [1.0, 2.0, 3.0, 4.0, 5.0])
    values, indices = tensor.topk_with_indices(3, 0)
    values_expected = td([5.0, 4.0, 3.0])
    approx(values, values_expected, tol.PERMISSIVE)
    indices_expected = td([4, 3, 2])
    exact(indices, indices_expected)


def test_topk__test_topk_with_indices_3d(device):  # topk.rs
    tensor = q8(device, [[[1.0, 4.0, 7.0], [2.0, 5.0, 6.0]], [[3.0, 0.0, 9.0], [8.0, 2.0, 7.0]]])
    values, indices = tensor.topk_with_indices(2, 2)
    values_expected = td([[[7.0, 4.0], [6.0, 5.0]], [[9.0, 3.0], [8.0, 7.0]]])
    approx(values, values_expected, tol(0, 1e-1))
    indices_expected = td([[[2, 1], [2, 1]], [[2, 0], [0, 2]]])
    exact(indices, indices_expected)


def test_transpose__should_support_transpose_ops(device):  # transpose.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]).reshape(
        [2, 2, 3]
    )
    output = tensor.transpose()
    expected = td([[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]], [[6.0, 9.0], [7.0, 10.0], [8.0, 11.0]]])
    approx(output, expected, tol(0, 1e-1))


def test_transpose__should_support_swap_dims(device):  # transpose.rs
    tensor = q8(device, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]).reshape(
        [2, 2, 3]
    )
    output = tensor.swap_dims(0, 2)
    expected = td([[[0.0, 6.0], [3.0, 9.0]], [[1.0, 7.0], [4.0, 10.0]], [[2.0, 8.0], [5.0, 11.0]]])
    approx(output, expected, tol(0, 1e-1))
