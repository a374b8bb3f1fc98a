"""The benchmark's math (benches/): the hand-written numpy MLP is right, and our MLP computes the
same loss and gradients. No timing here; `make bench` times."""

import numpy as np
import pytest

from benches import ours, workloads
from burnpy.generated import Device, Tensor

SIZES = (5, 4, 3, 3)


def problem(batch):
    return workloads.mlp_problem(batch, sizes=SIZES, dtype=np.float64)


def numpy_loss(p, params):
    return workloads.numpy_mlp_step(workloads.MLPProblem(p.x, p.labels, tuple(params)))[0]


@pytest.mark.parametrize("batch", [3, 1])
def test_numpy_mlp_gradients_match_finite_differences(batch):
    p = problem(batch)
    _, grads = workloads.numpy_mlp_step(p, workloads.numpy_dot_for(batch))
    eps = 1e-6
    for index, grad in enumerate(grads):
        numeric = np.zeros_like(grad)
        for position in np.ndindex(grad.shape):
            shifted = [q.copy() for q in p.params]
            shifted[index][position] += eps
            up = numpy_loss(p, shifted)
            shifted[index][position] -= 2 * eps
            numeric[position] = (up - numpy_loss(p, shifted)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_numpy_mlp_loss_is_the_mean_cross_entropy():
    p = problem(3)
    W1, b1, W2, b2, W3, b3 = p.params
    logits = np.maximum(np.maximum(p.x @ W1 + b1, 0) @ W2 + b2, 0) @ W3 + b3
    softmax = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    expected = -np.log(softmax[np.arange(3), p.labels]).mean()
    assert workloads.numpy_mlp_step(p)[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("batch", [3, 1])
def test_our_mlp_matches_the_numpy_reference(batch):
    p = problem(batch)
    ref_loss, ref_grads = workloads.numpy_mlp_step(p, workloads.numpy_dot_for(batch))
    loss, grads = ours.MLP(p, Device.numpy()).step_numpy()
    np.testing.assert_allclose(loss.reshape(()), ref_loss, rtol=1e-12)
    for got, expected in zip(grads, ref_grads, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-14)


def test_the_honesty_check_rejects_a_wrong_gradient():
    p = problem(2)
    reference = workloads.numpy_mlp_step(p)
    loss, grads = reference
    wrong = [g.copy() for g in grads]
    wrong[2][0, 0] += 1e-3 * np.abs(wrong[2]).max()
    workloads.check_mlp_step("same", 2, loss, grads, reference)
    with pytest.raises(workloads.BenchMismatch, match="grad W2"):
        workloads.check_mlp_step("wrong", 2, loss, wrong, reference)


@pytest.mark.parametrize("op", sorted(workloads.OPS))
def test_our_op_columns_compute_numpy_results(op):
    a, b = workloads.op_inputs()
    expected = workloads.op_reference(op, a, b)
    for device in ours.strategies(Device.numpy()).values():
        got = ours.run_op(op, device, a, b)
        workloads.assert_same(op, got, expected, workloads.F32_RTOL, workloads.F32_ATOL_SCALE)


def test_the_transformer_step_bench_trains_as_pytorch_does():
    """benches/steps.py's transformer, on both of our backends: the losses of three AdamW steps
    with per-parameter clipping are PyTorch's, from the same weights and batch."""
    pytest.importorskip("torch")
    from benches import steps

    steps.check("transformer", steps.transformer_columns())


def test_the_resnet_bench_builds_torchvisions_resnet18():
    """benches/real_models.py's ResNet-18, loaded from torchvision's resnet18 weights, computes
    its logits (training mode: batch statistics)."""
    torch = pytest.importorskip("torch")
    from benches import real_models

    device = Device.numpy().autodiff()
    net, ours = real_models.resnet18_pair(torch, 10, device)
    images = np.random.default_rng(0).standard_normal((4, 3, 64, 64)).astype(np.float32)
    expected = net(torch.from_numpy(images)).detach().numpy()
    got = ours(Tensor.from_data(images, device=device)).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())


def test_the_gpt2_bench_builds_the_same_model_as_its_pytorch_twin():
    torch = pytest.importorskip("torch")
    from benches import real_models

    device = Device.numpy().autodiff()
    Device.numpy().seed(0)
    gpt = real_models.GPT2(50, 8, 16, 2, 1, device=device)
    ids = np.random.default_rng(1).integers(0, 50, (2, 8))
    expected = real_models.torch_gpt2(torch, gpt)(torch.from_numpy(ids)).detach().numpy()
    got = gpt(Tensor.from_data(ids, device=device)).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-6)


def test_the_torch_convolution_bench_compares_equal_values_and_names_the_product_shapes():
    """Each of ResNet-18's convolutions gives torch's values on the backend (columns raises
    otherwise), and the product is the path of the last stage's 3x3 ones only (two images: the
    path depends on an image's positions, not on the batch)."""
    from benches import conv_positions

    paths = {s: conv_positions.columns(*s, batch=2)[1] for s in conv_positions.SHAPES}
    assert [shape for shape, product in paths.items() if product] == [
        (256, 512, 3, 2, 4),
        (512, 512, 3, 1, 2),
    ]


def test_a_failed_codegen_run_misses_its_target_whatever_its_time():
    """`make bench` counts a command that exited non-zero as missed, not as a fast run."""
    from benches.speed import Table

    table = Table()
    assert table.target("quick", 0.5, 3.0, " s").endswith("met")
    assert table.failed("broken", 3.0, " s").endswith("FAILED")
    assert [(work, met) for work, met, *_ in table.targets] == [("quick", True), ("broken", False)]


def test_the_product_floor_counts_pytorchs_products_and_attention_only():
    """real_steps' floor line: the share of PyTorch's profiled step its products and its fused
    attention take, by their profiler names."""
    import torch

    from benches.real_steps import product_shares, shares

    assert shares(
        [("aten::mm", 0.2), ("aten::add", 0.1), ("aten::_scaled_dot_product_x", 0.3)], 1.0
    ) == {
        "products": 0.2,
        "attention": 0.3,
    }
    a = torch.randn(256, 256)
    q = torch.randn(2, 4, 256, 64)
    products = product_shares(torch, lambda: a @ a + a)
    assert products["products"] > 0.3 and products["attention"] == 0.0
    assert product_shares(torch, lambda: a.exp())["products"] == 0.0
    attention = torch.nn.functional.scaled_dot_product_attention
    assert product_shares(torch, lambda: attention(q, q, q))["attention"] > 0.3


def test_the_optimizer_update_bench_checks_its_two_ways_agree(monkeypatch):
    """benches.optimizer_updates compares the blocked and whole updates bit for bit before
    timing them, and says so when they differ."""
    from benches import optimizer_updates
    from burnpy.runtime.backends import numpy_optim

    shapes = [(300, 500), (7,)]  # one over a block, one under
    optimizer_updates.check(shapes)
    blocks = numpy_optim.blocks
    monkeypatch.setattr(numpy_optim, "blocks", lambda *arrays: (blocks(*arrays) or [None])[:-1])
    with pytest.raises(workloads.BenchMismatch, match="SGD"):
        optimizer_updates.check(shapes)


def test_the_winograd_bench_checks_both_ways_against_torch(monkeypatch):
    """benches.winograd compares Winograd's and the columns' convolutions with torch's before
    timing them, and names the one that differs."""
    torch = pytest.importorskip("torch")
    from benches import winograd
    from burnpy.runtime.backends import numpy_winograd

    winograd.check(4, 8, 8, torch)
    correlate = numpy_winograd.correlate

    def off(*args, **kwargs):
        out = correlate(*args, **kwargs)
        return None if out is None else out + 1e-3 * np.abs(out).max()

    monkeypatch.setattr(numpy_winograd, "correlate", off)
    with pytest.raises(workloads.BenchMismatch, match="Winograd's forward"):
        winograd.check(4, 8, 8, torch)
