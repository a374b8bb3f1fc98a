"""burn's tests of embedding and linear (burn-backend-tests tensor/float/module/forward.rs,
linear.rs, autodiff/backward.rs, linear.rs), through `burnpy.generated.module`, with burn's data,
expected values and tolerances, on both backends and, for gradients, under both checkpointing
strategies."""

import numpy as np
import pytest

from burncheck import AUTODIFF_DEVICES, DEVICES, Tolerance, assert_approx_eq, assert_eq, tensor
from burnpy.generated import Tensor, module


def indices(data, device):
    return Tensor.from_data(np.asarray(data, dtype=np.int64), device=device)


@pytest.mark.parametrize("make_device", DEVICES)
def test_embedding_forward(make_device):
    device = make_device()
    weights = tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], device)
    output = module.embedding(weights, indices([[0, 1], [1, 1]], device))
    expected = [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]]
    assert_eq(output, expected)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_embedding_backward(make_device):
    device = make_device()
    weights = tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], device, grad=True)
    x = tensor(
        [[[1.0, 2.0], [4.0, 5.0], [3.0, 4.0]], [[4.0, 5.0], [8.0, 5.0], [1.0, 9.0]]],
        device,
        grad=True,
    )
    output = module.embedding(weights, indices([[0, 1], [1, 1]], device)).matmul(x)
    grads = output.backward()
    assert_eq(weights.grad(grads), [[3.0, 9.0, 7.0], [21.0, 35.0, 27.0]])


LINEAR_FORWARD = [
    pytest.param([[1.0, 2.0], [3.0, 4.0]], None, [1.0, 2.0], [7.0, 10.0], id="test_linear_1d"),
    pytest.param([[3.0], [4.0]], None, [1.0, 2.0], [11.0], id="test_linear_1d_one_element_output"),
    pytest.param(
        [[1.0, 2.0], [3.0, 4.0]],
        None,
        [[[1.0, 2.0], [3.0, 4.0]], [[-1.0, -2.0], [-3.0, -4.0]]],
        [[[7.0, 10.0], [15.0, 22.0]], [[-7.0, -10.0], [-15.0, -22.0]]],
        id="test_linear_forward_no_bias",
    ),
    pytest.param(
        [[1.0, 2.0], [3.0, 4.0]],
        [1.0, -1.0],
        [[[1.0, 2.0], [3.0, 4.0]], [[-1.0, -2.0], [-3.0, -4.0]]],
        [[[8.0, 9.0], [16.0, 21.0]], [[-6.0, -11.0], [-14.0, -23.0]]],
        id="test_linear_forward_with_bias",
    ),
]


@pytest.mark.parametrize("make_device", DEVICES)
@pytest.mark.parametrize("weight, bias, x, expected", LINEAR_FORWARD)
def test_linear_forward(make_device, weight, bias, x, expected):
    device = make_device()
    bias = None if bias is None else tensor(bias, device)
    output = module.linear(tensor(x, device), tensor(weight, device), bias)
    assert_approx_eq(output, expected, Tolerance.relative_only(1e-5))


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_should_diff_linear_with_bias(make_device):
    device = make_device()
    x = tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], device, grad=True)
    weight = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device, grad=True)
    bias = tensor([0.1, 0.2, 0.3], device, grad=True)
    grads = module.linear(x, weight, bias).backward()
    tolerance = Tolerance.default()
    expected_x = [[[6.0, 15.0], [6.0, 15.0]], [[6.0, 15.0], [6.0, 15.0]]]
    assert_approx_eq(x.grad(grads), expected_x, tolerance)
    assert_approx_eq(weight.grad(grads), [[16.0, 16.0, 16.0], [20.0, 20.0, 20.0]], tolerance)
    assert_approx_eq(bias.grad(grads), [4.0, 4.0, 4.0], tolerance)


@pytest.mark.parametrize("make_device", AUTODIFF_DEVICES)
def test_should_diff_linear_matches_matmul_decomposition(make_device):
    device = make_device()
    x_data = [[[1.0, -2.0], [3.0, 4.0]], [[-5.0, 6.0], [7.0, -8.0]]]
    w_data = [[0.5, -1.0, 2.0], [1.5, 2.5, -0.5]]

    x, weight = tensor(x_data, device, grad=True), tensor(w_data, device, grad=True)
    grads = module.linear(x, weight, None).backward()

    x_ref, weight_ref = tensor(x_data, device, grad=True), tensor(w_data, device, grad=True)
    grads_ref = x_ref.matmul(weight_ref.unsqueeze(3)).backward()

    tolerance = Tolerance.default()
    assert_approx_eq(x.grad(grads), x_ref.grad(grads_ref).to_numpy(), tolerance)
    assert_approx_eq(weight.grad(grads), weight_ref.grad(grads_ref).to_numpy(), tolerance)
