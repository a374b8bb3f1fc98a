"""burn-nn's losses: burn's own unit tests (loss/*.rs) with its data, expected values and
tolerances on both backends, and every loss against PyTorch's in float64, value and gradients."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from burn.burncheck import DEVICES, Tolerance, assert_approx_eq, assert_eq
from burnpy import nn
from burnpy.nn import functional as F
from burnpy.generated import Device, Tensor


def t(data, device, dtype=np.float32):
    return Tensor.from_data(np.asarray(data, dtype=dtype), device=device)


def ints(data, device):
    return Tensor.from_data(np.asarray(data, dtype=np.int64), device=device)


# -- burn's unit tests ---------------------------------------------------------------------------
@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_huber_loss(make_device):
    d = make_device()
    predict, targets = t([-2.0, -0.5, 0.0, 0.3, 1.0], d), t([0.0] * 5, d)
    huber = nn.HuberLoss(0.5)
    assert_approx_eq(
        huber.forward_no_reduction(predict, targets),
        [0.875, 0.125, 0.0, 0.045, 0.375],
        Tolerance.default(),
    )
    assert_approx_eq(huber(predict, targets, "auto"), [0.284], Tolerance.default())
    assert_approx_eq(huber(predict, targets, "sum"), [1.42], Tolerance.default())
    assert (huber.delta, huber.lin_bias) == (0.5, 0.125)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_huber_ad_loss(backend):
    d = Device.of(backend).autodiff()
    predict = t([-2.0, -0.5, 0.0, 0.3, 1.0], d).require_grad()
    loss = nn.HuberLoss(0.5).forward_no_reduction(predict, t([0.0] * 5, d))
    grads = loss.backward()
    assert_approx_eq(predict.grad(grads), [-0.5, -0.5, 0.0, 0.3, 0.5], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_kl_div_loss(make_device):
    d = make_device()
    predict, targets = t([[-1.0, -0.5], [-2.0, -0.2]], d), t([[0.4, 0.6], [0.1, 0.9]], d)
    kl = nn.KLDivLoss(log_target=False)
    absolute = Tolerance.rel_abs(0.0, 1e-5)
    assert_approx_eq(
        kl.forward_no_reduction(predict, targets),
        [[0.0334837139, -0.0064953566], [-0.0302585065, 0.0851755068]],
        absolute,
    )
    assert_approx_eq(kl(predict, targets, "sum"), [0.08191], absolute)
    assert_approx_eq(kl(predict, targets, "batch_mean"), [0.04095], absolute)
    assert_approx_eq(kl(predict, targets), [0.04095], absolute)  # auto is batch_mean
    predict, targets = t([-1.0, -2.0], d), t([-0.5, -1.5], d)
    kl = nn.KLDivLoss(log_target=True)
    assert_approx_eq(
        kl.forward_no_reduction(predict, targets), [0.3032653299, 0.1115650801], absolute
    )
    assert_approx_eq(kl(predict, targets, "batch_mean"), [0.207415204965], absolute)
    assert_approx_eq(kl(predict, targets, "sum"), [0.414830409931], absolute)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_kl_div_ad_loss(backend):
    d = Device.of(backend).autodiff()
    predict = t([[-1.0, -0.5]], d).require_grad()
    grads = nn.KLDivLoss()(predict, t([[0.4, 0.6]], d), "sum").backward()
    assert_approx_eq(predict.grad(grads), [[-0.4, -0.6]], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_soft_margin_hinge_margin_ranking_mse(make_device):
    d = make_device()
    logits, targets = t([[0.5, -1.0], [2.0, -0.5]], d), t([[1.0, -1.0], [-1.0, 1.0]], d)
    soft = nn.SoftMarginLoss()
    assert_approx_eq(
        soft.forward_no_reduction(logits, targets),
        [[0.474077, 0.313262], [2.126928, 0.974077]],
        Tolerance.default(),
    )
    assert_approx_eq(soft(logits, targets, "mean"), [0.972086], Tolerance.default())
    assert_approx_eq(soft(logits, targets, "sum"), [3.888344], Tolerance.default())

    x, y = t([0.5, 2.0, 1.5], d), t([1.0, -1.0, -1.0], d)
    hinge = nn.HingeEmbeddingLoss()
    assert_approx_eq(hinge.forward_no_reduction(x, y), [0.5, 0.0, 0.0], Tolerance.default())
    assert_approx_eq(hinge(x, y, "mean"), [0.166_667], Tolerance.default())
    assert_approx_eq(hinge(x, y, "sum"), [0.5], Tolerance.default())

    first, second, y = t([1.0, 2.0, 3.0], d), t([2.0, 1.0, 0.5], d), t([1.0, -1.0, 1.0], d)
    ranking = nn.MarginRankingLoss(margin=0.5)
    assert_approx_eq(
        ranking.forward_no_reduction(first, second, y), [1.5, 1.5, 0.0], Tolerance.default()
    )
    assert_approx_eq(ranking(first, second, y, "mean"), [1.0], Tolerance.default())
    assert_approx_eq(ranking(first, second, y, "sum"), [3.0], Tolerance.default())

    logits, targets = t([[1.0, 2.0], [3.0, 4.0]], d), t([[2.0, 1.0], [3.0, 2.0]], d)
    mse = nn.MseLoss()
    assert_eq(mse.forward_no_reduction(logits, targets), [[1.0, 1.0], [0.0, 4.0]])
    assert_eq(mse(logits, targets, "auto"), [1.5])
    assert_eq(mse(logits, targets, "sum"), [6.0])


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_gaussian_nll_loss(make_device):
    d = make_device()
    x, y, var = t([1.0, 2.0], d), t([1.5, 1.0], d), t([0.5, 1.0], d)
    loss = nn.GaussianNLLLoss()
    assert_approx_eq(loss.forward_no_reduction(x, y, var), [-0.096574, 0.5], Tolerance.default())
    assert_approx_eq(loss(x, y, var, "mean"), [0.201713], Tolerance.default())
    assert_approx_eq(loss(x, y, var, "sum"), [0.403426], Tolerance.default())
    full = nn.GaussianNLLLoss(full=True)
    assert_approx_eq(
        full.forward_no_reduction(x, y, var), [0.822365, 1.418939], Tolerance.default()
    )
    clamped = loss.forward_no_reduction(x, y, t([1e-8, 1e-8], d))
    assert_approx_eq(
        clamped, loss.forward_no_reduction(x, y, t([1e-6, 1e-6], d)).to_numpy(), Tolerance.default()
    )


BCE_LOGITS = [0.8271, 0.9626, 0.3796, 0.2355]
BCE_MULTI = [[0.5150, 0.3097, 0.7556], [0.4974, 0.9879, 0.1564]]


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_binary_cross_entropy(make_device):
    d = make_device()
    targets = ints([1, 0, 1, 0], d)
    bce = nn.BinaryCrossEntropyLoss(device=d)
    assert_approx_eq(bce(t([1.0, 0.0, 1.0, 0.0], d), targets), [0.0], Tolerance.default())
    # all wrong: each log is clamped at -100
    assert_approx_eq(bce(t([0.0, 1.0, 0.0, 1.0], d), targets), [100.0], Tolerance.default())
    logits, targets = t(BCE_LOGITS, d), ints([0, 1, 0, 1], d)
    rel = Tolerance.relative_only(1e-4)
    assert_approx_eq(bce(logits.sigmoid(), targets), [0.7491], rel)
    assert_approx_eq(nn.BinaryCrossEntropyLoss(logits=True)(logits, targets), [0.7491], rel)
    weighted = nn.BinaryCrossEntropyLoss(weights=[3.0, 7.0], device=d)
    assert_approx_eq(weighted(logits.sigmoid(), targets), [3.1531], rel)
    smoothed = nn.BinaryCrossEntropyLoss(smoothing=0.1, device=d)
    assert_approx_eq(smoothed(logits.sigmoid(), targets), [0.7490], rel)
    logits, targets = t(BCE_MULTI, d), ints([[1, 0, 1], [1, 0, 0]], d)
    assert_approx_eq(nn.BinaryCrossEntropyLoss(logits=True)(logits, targets), [0.7112], rel)
    weighted = nn.BinaryCrossEntropyLoss(weights=[3.0, 7.0, 0.9], logits=True, device=d)
    assert_approx_eq(weighted(logits, targets), [3.1708], Tolerance.default())
    smoothed = nn.BinaryCrossEntropyLoss(smoothing=0.1, device=d)
    assert_approx_eq(smoothed(logits.sigmoid(), targets), [0.7228], Tolerance.default())
    with pytest.raises(ValueError, match="one value per class \\(3\\)"):
        nn.BinaryCrossEntropyLoss(weights=[3.0, 7.0], logits=True, device=d)(logits, targets)
    with pytest.raises(ValueError, match="have to be positive"):
        nn.BinaryCrossEntropyLoss(weights=[3.0, 0.0])


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_cosine_embedding_loss(make_device):
    d = make_device()
    x = t([[1.0, 0.0], [0.0, 1.0]], d)
    loss = nn.CosineEmbeddingLoss()
    same = ints([1, 1], d)
    assert_approx_eq(loss.forward_no_reduction(x, x, same), [0.0, 0.0], Tolerance.default())
    assert_approx_eq(loss(x, x, same), [0.0], Tolerance.default())
    opposite = ints([-1, -1], d)
    assert_approx_eq(loss.forward_no_reduction(x, x, opposite), [1.0, 1.0], Tolerance.default())
    assert_approx_eq(loss(x, x, opposite), [1.0], Tolerance.default())
    assert_approx_eq(
        nn.CosineEmbeddingLoss(reduction="sum")(x, x, opposite), [2.0], Tolerance.default()
    )
    assert_approx_eq(nn.CosineEmbeddingLoss(margin=0.5)(x, x, opposite), [0.5], Tolerance.default())
    mixed = ints([1, -1], d)
    assert_approx_eq(loss.forward_no_reduction(x, x, mixed), [0.0, 1.0], Tolerance.default())
    assert_approx_eq(loss(x, x, mixed), [0.5], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_multi_margin_and_triplet_margin(make_device):
    d = make_device()
    x, y = t([[0.1, 0.2, 0.7], [0.9, 0.05, 0.05]], d), ints([2, 0], d)
    loss = nn.MultiMarginLoss()
    assert_approx_eq(loss.forward_no_reduction(x, y), [0.3, 0.1], Tolerance.default())
    assert_approx_eq(loss(x, y, "mean"), [0.2], Tolerance.default())
    assert_approx_eq(loss(x, y, "sum"), [0.4], Tolerance.default())
    assert_approx_eq(
        nn.MultiMarginLoss(p=2).forward_no_reduction(x, y), [0.136_667, 0.015], Tolerance.default()
    )
    anchor = t([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]], d)
    positive = t([[1.0, 1.0], [1.0, 2.0], [0.0, 0.0]], d)
    negative = t([[1.0, 0.0], [0.0, 0.0], [5.0, 0.0]], d)
    triplet = nn.TripletMarginLoss()
    assert_approx_eq(
        triplet.forward_no_reduction(anchor, positive, negative),
        [1.414214, 0.585786, 0.0],
        Tolerance.default(),
    )
    assert_approx_eq(triplet(anchor, positive, negative, "mean"), [0.666_667], Tolerance.default())
    assert_approx_eq(triplet(anchor, positive, negative, "sum"), [2.0], Tolerance.default())


def test_loss_settings_are_checked():
    with pytest.raises(ValueError, match="non-negative"):
        nn.HuberLoss(-1.0)
    with pytest.raises(ValueError, match="p = 1 or p = 2"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match="beta must be positive"):
        nn.SmoothL1Loss(beta=0.0)
    with pytest.raises(ValueError, match="p must be positive"):
        nn.LpLoss(0.0)
    with pytest.raises(ValueError, match="reduction must be one of"):
        nn.MseLoss()(Tensor.from_data([1.0]), Tensor.from_data([2.0]), "batch_mean")
    with pytest.raises(ValueError, match="one shape"):
        nn.HuberLoss(1.0)(Tensor.from_data([1.0, 2.0]), Tensor.from_data([2.0]))
    with pytest.raises(ValueError, match="`targets` must be non-negative"):
        nn.PoissonNllLoss()(Tensor.from_data([1.0]), Tensor.from_data([-2.0]))
    assert repr(nn.HuberLoss(0.5)) == "HuberLoss(delta=0.5)"


# -- against PyTorch, in float64 -----------------------------------------------------------------
RNG = np.random.default_rng(0)
X = RNG.normal(size=(4, 3))
Y = RNG.normal(size=(4, 3))
SIGNS = np.where(RNG.normal(size=(4, 3)) > 0, 1.0, -1.0)
PROBS = RNG.dirichlet(np.ones(3), size=4)
COUNTS = RNG.poisson(2.0, size=(4, 3)).astype(np.float64)
CLASSES = np.array([2, 0, 1, 2])

# name: (ours(x, *others), torch's(x, *others), the other inputs); x is the differentiated one
AGAINST_TORCH = {
    "mse": (lambda x, y: F.mse_loss(x, y), lambda x, y: TF.mse_loss(x, y), [Y]),
    "l1": (lambda x, y: nn.LpLoss.l1()(x, y), lambda x, y: TF.l1_loss(x, y), [Y]),
    "lp3": (
        lambda x, y: F.lp_loss(x, y, 3.0, reduction="sum"),
        lambda x, y: ((x - y).abs() ** 3).sum(),
        [Y],
    ),
    "huber": (
        lambda x, y: F.huber_loss(x, y, 0.7, reduction="sum"),
        lambda x, y: TF.huber_loss(x, y, delta=0.7, reduction="sum"),
        [Y],
    ),
    "smooth_l1": (
        lambda x, y: nn.SmoothL1Loss(beta=0.6).forward_with_reduction(x, y),
        lambda x, y: TF.smooth_l1_loss(x, y, beta=0.6),
        [Y],
    ),
    "kl_div": (
        lambda x, y: nn.KLDivLoss()(x.log_softmax(1), y),
        lambda x, y: TF.kl_div(x.log_softmax(1), y, reduction="batchmean"),
        [PROBS],
    ),
    "kl_div_log_target": (
        lambda x, y: nn.KLDivLoss(log_target=True)(x.log_softmax(1), y.log(), "sum"),
        lambda x, y: TF.kl_div(x.log_softmax(1), y.log(), reduction="sum", log_target=True),
        [PROBS],
    ),
    "gaussian_nll_full": (
        lambda x, y, v: nn.GaussianNLLLoss(full=True)(x, y, v),
        lambda x, y, v: TF.gaussian_nll_loss(x, y, v, full=True),
        [Y, PROBS],
    ),
    "poisson_nll": (
        lambda x, y: nn.PoissonNllLoss()(x, y),
        lambda x, y: TF.poisson_nll_loss(x, y),
        [COUNTS],
    ),
    "poisson_nll_full_rates": (
        lambda x, y: nn.PoissonNllLoss(log_input=False, full=True)(x.exp(), y, "sum"),
        lambda x, y: TF.poisson_nll_loss(x.exp(), y, log_input=False, full=True, reduction="sum"),
        [COUNTS],
    ),
    "hinge_embedding": (
        lambda x, y: nn.HingeEmbeddingLoss(margin=0.5)(x, y),
        lambda x, y: TF.hinge_embedding_loss(x, y, margin=0.5),
        [SIGNS],
    ),
    "margin_ranking": (
        lambda x, s, y: nn.MarginRankingLoss(margin=0.2)(x, s, y),
        lambda x, s, y: TF.margin_ranking_loss(x, s, y, margin=0.2),
        [Y, SIGNS],
    ),
    "soft_margin": (
        lambda x, y: nn.SoftMarginLoss()(x, y),
        lambda x, y: TF.soft_margin_loss(x, y),
        [SIGNS],
    ),
    "bce": (
        lambda x, y: nn.BinaryCrossEntropyLoss()(x.sigmoid(), y),
        lambda x, y: TF.binary_cross_entropy(x.sigmoid(), y.double()),
        [(SIGNS > 0).astype(np.int64)],
    ),
    "bce_logits_weights": (
        lambda x, y: nn.BinaryCrossEntropyLoss(logits=True, weights=[0.5, 2.0, 1.5])(x, y),
        lambda x, y: TF.binary_cross_entropy_with_logits(
            x, y.double(), weight=torch.tensor([0.5, 2.0, 1.5], dtype=torch.float64)
        ),
        [(SIGNS > 0).astype(np.int64)],
    ),
    "cross_entropy_smoothed_weighted": (
        lambda x, y: nn.CrossEntropyLoss(weights=[0.5, 2.0, 1.5], smoothing=0.1)(x, y),
        lambda x, y: TF.cross_entropy(
            x,
            y,
            weight=torch.tensor([0.5, 2.0, 1.5], dtype=torch.float64),
            label_smoothing=0.1,
        ),
        [CLASSES],
    ),
    "cross_entropy_probabilities": (
        lambda x, y: nn.CrossEntropyLoss(logits=False)(x.softmax(1), y),
        lambda x, y: TF.nll_loss(x.softmax(1).log(), y),
        [CLASSES],
    ),
    "multi_margin_p2": (
        lambda x, y: nn.MultiMarginLoss(p=2, margin=0.8)(x, y, "sum"),
        lambda x, y: TF.multi_margin_loss(x, y, p=2, margin=0.8, reduction="sum"),
        [CLASSES],
    ),
    "cosine_embedding": (
        lambda x, y, s: nn.CosineEmbeddingLoss(margin=0.1)(x, y, s),
        lambda x, y, s: TF.cosine_embedding_loss(x, y, s, margin=0.1),
        [Y, SIGNS[:, 0].astype(np.int64)],
    ),
}


def _ours_input(value, device):
    dtype = np.int64 if value.dtype == np.int64 else np.float64
    return Tensor.from_data(value, device=device, dtype=dtype)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("name", list(AGAINST_TORCH))
def test_against_torch(name, backend):
    ours, theirs, others = AGAINST_TORCH[name]
    device = Device.of(backend).autodiff()
    x = Tensor.from_data(X, device=device, dtype=np.float64).require_grad()
    loss = ours(x, *[_ours_input(o, device) for o in others])
    grad = x.grad(loss.backward()).to_numpy()
    xr = torch.tensor(X, requires_grad=True)
    expected = theirs(xr, *[torch.tensor(o) for o in others])
    expected.backward()
    assert loss.shape == (1,)
    np.testing.assert_allclose(loss.to_numpy()[0], expected.item(), rtol=1e-10)
    np.testing.assert_allclose(grad, xr.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_triplet_margin_against_torch(backend):
    """torch adds its eps (1e-6) to the differences before the norm, burn does not: they agree
    to that eps."""
    device = Device.of(backend).autodiff()
    a, p, n = X, Y, PROBS
    x = Tensor.from_data(a, device=device, dtype=np.float64).require_grad()
    loss = nn.TripletMarginLoss(margin=1.5, p=3.0)(
        x, _ours_input(p, device), _ours_input(n, device)
    )
    xr = torch.tensor(a, requires_grad=True)
    expected = TF.triplet_margin_loss(xr, torch.tensor(p), torch.tensor(n), margin=1.5, p=3.0)
    expected.backward()
    np.testing.assert_allclose(loss.to_numpy()[0], expected.item(), atol=1e-5)
    np.testing.assert_allclose(x.grad(loss.backward()).to_numpy(), xr.grad.numpy(), atol=1e-5)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_ctc_loss_against_torch(backend, reduction):
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(6, 2, 4))
    targets = np.array([[1, 2, 2], [3, 1, 0]])
    input_lengths, target_lengths = np.array([6, 5]), np.array([3, 2])
    device = Device.of(backend).autodiff()
    x = Tensor.from_data(logits, device=device, dtype=np.float64).require_grad()
    args = [_ours_input(v, device) for v in (targets, input_lengths, target_lengths)]
    ctc = nn.CTCLoss(blank=0)
    loss = ctc.forward_with_reduction(x.log_softmax(2), *args, reduction)
    grad = x.grad(loss.sum().backward()).to_numpy()
    xr = torch.tensor(logits, requires_grad=True)
    expected = TF.ctc_loss(
        xr.log_softmax(2),
        torch.tensor(targets),
        torch.tensor(input_lengths),
        torch.tensor(target_lengths),
        reduction=reduction,
    )
    expected.sum().backward()
    np.testing.assert_allclose(
        loss.to_numpy().ravel(), expected.detach().numpy().ravel(), rtol=1e-9
    )
    np.testing.assert_allclose(grad, xr.grad.numpy(), rtol=1e-7, atol=1e-10)
    with pytest.raises(ValueError, match="target length <= input length"):
        ctc(x.log_softmax(2), args[0], _ours_input(np.array([1, 5]), device), args[2])


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_ctc_loss_uniform_cases(make_device):
    d = make_device()

    def uniform(time, classes):
        return Tensor.full([time, 1, classes], float(np.log(1 / classes)), device=d)

    # [1, 1] in 3 steps has one path, 1 0 1: (1/2)^3
    loss = nn.CTCLoss()(uniform(3, 2), ints([[1, 1]], d), ints([3], d), ints([2], d))
    assert_approx_eq(loss, [3 * np.log(2)], Tolerance.rel_abs(1e-3, 1e-3))
    # blank 2, target [0, 1] in 3 steps: 5 paths of (1/3)^3
    loss = nn.CTCLoss(blank=2)(uniform(3, 3), ints([[0, 1]], d), ints([3], d), ints([2], d))
    assert_approx_eq(loss, [-np.log(5 / 27)], Tolerance.default())
    # [1, 1] in 2 steps has no path: +inf, or 0 with zero_infinity
    args = (ints([[1, 1]], d), ints([2], d), ints([2], d))
    infinite = nn.CTCLoss()(uniform(2, 3), *args).to_numpy()
    assert np.isposinf(infinite).all()
    assert_approx_eq(
        nn.CTCLoss(zero_infinity=True)(uniform(2, 3), *args), [0.0], Tolerance.default()
    )
    finite = nn.CTCLoss(zero_infinity=True)(
        uniform(2, 2), ints([[1]], d), ints([2], d), ints([1], d)
    )
    assert_approx_eq(finite, [-np.log(0.75)], Tolerance.default())
    with pytest.raises(ValueError, match="blank index 3 must be less than num_classes 3"):
        nn.CTCLoss(blank=3)(uniform(2, 3), *args)


# -- RNNTLoss: burn's tests, whose expected values come from torchaudio's rnnt_loss -------------
def rnnt_logits(bs, time, u, v):
    """burn's make_logits: sin(0.1·(11 b + 7 t + 13 u + 3 v))."""
    b, t_, u_, v_ = np.meshgrid(*(np.arange(n) for n in (bs, time, u, v)), indexing="ij")
    return np.sin((b * 11 + t_ * 7 + u_ * 13 + v_ * 3) * 0.1).astype(np.float32)


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_rnnt_uniform_and_empty_target(make_device):
    d = make_device()
    rnnt = nn.RNNTLoss(logits=False)
    log_uniform = np.log(0.5)
    loss = rnnt(
        t(np.full((1, 2, 2, 2), log_uniform), d), ints([[1]], d), ints([2], d), ints([1], d)
    )
    # two alignments of three emissions each, every emission of probability 1/2
    assert_approx_eq(loss, [-np.log(2 * 0.5**3)], Tolerance.rel_abs(0.0, 1e-4))
    loss = rnnt(
        t(np.full((1, 3, 2, 2), log_uniform), d), ints([[1]], d), ints([3], d), ints([0], d)
    )
    assert_approx_eq(loss, [-np.log(0.5**3)], Tolerance.rel_abs(0.0, 1e-4))
    logits = t(np.sin(np.arange(24) * 0.3).reshape(1, 2, 3, 4), d)
    args = (ints([[1, 2]], d), ints([2], d), ints([2], d))
    fused = nn.RNNTLoss()(logits, *args)
    assert_approx_eq(
        fused, rnnt(logits.log_softmax(3), *args).to_numpy(), Tolerance.rel_abs(0, 1e-4)
    )
    with pytest.raises(ValueError, match="blank index 5"):
        nn.RNNTLoss(blank=5)(
            t(np.zeros((1, 2, 2, 3)), d), ints([[1]], d), ints([2], d), ints([1], d)
        )
    with pytest.raises(ValueError, match="must be \\[batch_size 2"):
        nn.RNNTLoss()(
            t(np.zeros((2, 3, 2, 3)), d), ints([[1]], d), ints([3, 3], d), ints([1, 1], d)
        )
    with pytest.raises(ValueError, match="logit_lengths length 1 must equal batch_size 2"):
        nn.RNNTLoss()(
            t(np.zeros((2, 3, 2, 3)), d), ints([[1], [2]], d), ints([3], d), ints([1, 1], d)
        )


RNNT_CASES = {
    "basic_b1": (
        (1, 4, 3, 3),
        [[1, 2]],
        [4],
        [2],
        [4.4491],
        {
            (0, 0, 0): [-0.2041, -0.2246, 0.4287],
            (0, 2, 0): [0.0079, -0.0640, 0.0561],
            (0, 3, 2): [-0.6899, 0.3231, 0.3667],
        },
    ),
    "batched_b2": (
        (2, 5, 4, 4),
        [[1, 2, 3], [2, 1, 3]],
        [5, 5],
        [3, 3],
        [7.9356, 7.2033],
        {
            (0, 0, 0): [-0.3161, -0.3113, 0.2796, 0.3479],
            (1, 0, 0): [-0.2766, 0.2602, -0.2248, 0.2411],
            (0, 4, 3): [-0.8216, 0.2296, 0.2786, 0.3133],
            (1, 4, 3): [-0.7185, 0.2735, 0.2437, 0.2012],
        },
    ),
    "variable_lengths_b3": (
        (3, 6, 4, 5),
        [[1, 2, 3], [4, 1, 0], [2, 0, 0]],
        [6, 4, 5],
        [3, 2, 1],
        [10.7458, 8.0196, 8.3316],
        {
            (0, 0, 0): [-0.4232, -0.3114, 0.1992, 0.2478, 0.2876],
            (0, 5, 3): [-0.8016, 0.2170, 0.2172, 0.1991, 0.1683],
            (1, 0, 0): [-0.2502, 0.2160, 0.2173, 0.2002, -0.3833],
        },
    ),
}


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("case", list(RNNT_CASES))
def test_burn_rnnt_against_torchaudio_values(backend, case):
    shape, targets, logit_lengths, target_lengths, expected, expected_grads = RNNT_CASES[case]
    d = Device.of(backend).autodiff()
    logits = t(rnnt_logits(*shape), d).require_grad()
    args = (ints(targets, d), ints(logit_lengths, d), ints(target_lengths, d))
    loss = nn.RNNTLoss()(logits, *args)
    tolerance = Tolerance.rel_abs(0.0, 1e-3)
    assert_approx_eq(loss, expected, tolerance)
    grad = logits.grad(loss.sum().backward()).to_numpy()
    for index, values in expected_grads.items():
        assert_approx_eq(grad[index], values, tolerance)
    # each (b, t, u) cell's gradient sums to zero over the vocabulary (a log-softmax's does)
    np.testing.assert_allclose(grad.sum(-1), 0.0, atol=1e-3)
    if case == "variable_lengths_b3":
        assert np.abs(grad[1, 4:]).max() < 1e-3  # sample 1 ends at t = 4
        assert np.abs(grad[1, :4, 3]).max() < 1e-3  # and has 2 labels: u = 3 is unused
        assert np.abs(grad[2, 5]).max() < 1e-3
    if case == "batched_b2":
        total = nn.RNNTLoss().forward_with_reduction(logits, *args, "sum")
        assert_approx_eq(total, [15.1389], tolerance)


# -- CrossEntropyLoss: burn's tests, the reference written out in numpy ----------------------------
def log_softmax_np(x):
    shifted = x - x.max(1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(1, keepdims=True))


CE_LOGITS = np.random.default_rng(9).normal(size=(4, 5)).astype(np.float32)
CE_ONE_HOT = np.eye(5, dtype=np.float32)[[2, 0, 4, 1]]


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_cross_entropy_loss(make_device):
    d = make_device()
    logits, targets = t(CE_LOGITS, d), ints([2, 0, 4, 1], d)
    log_p = log_softmax_np(CE_LOGITS.astype(np.float64))
    plain = -(log_p * CE_ONE_HOT).sum(1).mean()
    assert_approx_eq(nn.CrossEntropyLoss()(logits, targets), [plain], Tolerance.default())
    smoothed_zero = nn.CrossEntropyLoss(smoothing=0.0)(logits, targets)
    assert_approx_eq(smoothed_zero, [plain], Tolerance.default())
    weights = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    weighted = -(log_p * CE_ONE_HOT * weights).sum() / (1.0 + 2.0 + 3.0 + 5.0)
    for smoothing in (None, 0.0):
        loss = nn.CrossEntropyLoss(weights=weights, smoothing=smoothing, device=d)
        assert_approx_eq(loss(logits, targets), [weighted], Tolerance.default())
    # smoothing 0.05 over 5 classes: 0.96 on the target, 0.01 elsewhere
    smoothed_targets = CE_ONE_HOT * 0.95 + 0.01
    expected = -(log_p * smoothed_targets).sum(1).mean()
    assert_approx_eq(
        nn.CrossEntropyLoss(smoothing=0.05)(logits, targets), [expected], Tolerance.default()
    )


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_cross_entropy_loss_with_pad_tokens(make_device):
    d = make_device()
    logits, targets = t(CE_LOGITS, d), ints([2, 0, 4, 1], d)
    # pad tokens 1 and 2: samples 0 and 3 count as zero, the mean still over all four
    kept = CE_ONE_HOT * np.array([[0.0], [1.0], [1.0], [0.0]], dtype=np.float32)
    expected = -(log_softmax_np(CE_LOGITS.astype(np.float64)) * kept).sum(1).mean()
    for smoothing in (None, 0.0):
        loss = nn.CrossEntropyLoss(pad_tokens=[1, 2], smoothing=smoothing)(logits, targets)
        assert_approx_eq(loss, [expected], Tolerance.default())


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_cross_entropy_logits_flag(make_device):
    d = make_device()
    probs = t(
        [
            [0.1, 0.2, 0.7, 0.0, 0.0],
            [0.7, 0.1, 0.1, 0.1, 0.0],
            [0.2, 0.2, 0.2, 0.2, 0.2],
            [0.0, 0.3, 0.3, 0.2, 0.2],
        ],
        d,
    )
    targets = ints([2, 0, 4, 1], d)
    assert_approx_eq(nn.CrossEntropyLoss()(probs, targets), [1.354197], Tolerance.default())
    assert_approx_eq(
        nn.CrossEntropyLoss(logits=False)(probs, targets), [0.88169014], Tolerance.default()
    )


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_lp_and_smooth_l1_losses(make_device):
    d = make_device()
    predictions = t([[1.0, 2.0], [3.0, 4.0]], d)
    targets = t([[2.0, 1.0], [3.0, 2.0]], d)
    for loss, unreduced, auto, total in (
        (nn.LpLoss.l1(), [[1.0, 1.0], [0.0, 2.0]], 1.0, 4.0),
        (nn.LpLoss.l2(), [[1.0, 1.0], [0.0, 4.0]], 1.5, 6.0),
        (nn.LpLoss(3.0), [[1.0, 1.0], [0.0, 8.0]], 2.5, 10.0),
    ):
        assert_approx_eq(
            loss.forward_no_reduction(predictions, targets), unreduced, Tolerance.default()
        )
        assert_approx_eq(loss(predictions, targets, "auto"), [auto], Tolerance.default())
        assert_approx_eq(loss(predictions, targets, "sum"), [total], Tolerance.default())
    half = nn.LpLoss(0.5)
    targets_half = t([[2.0, 1.0], [3.0, 0.0]], d)
    assert_approx_eq(
        half.forward_no_reduction(predictions, targets_half),
        [[1.0, 1.0], [0.0, 2.0]],
        Tolerance.default(),
    )
    assert_approx_eq(half(predictions, targets_half, "sum"), [4.0], Tolerance.default())
    cube = t([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], d)
    cube_targets = t([[[0.0, 2.0], [3.0, 5.0]], [[4.0, 6.0], [7.0, 10.0]]], d)
    assert_approx_eq(nn.LpLoss.l2()(cube, cube_targets), [0.875], Tolerance.default())

    smooth = nn.SmoothL1Loss()
    assert_approx_eq(
        smooth(t([[0.0, 0.5]], d), t([[0.0, 0.0]], d)), [[0.0, 0.125]], Tolerance.default()
    )
    assert_approx_eq(
        smooth(t([[0.0, 2.0]], d), t([[0.0, 0.0]], d)), [[0.0, 1.5]], Tolerance.default()
    )
    assert_approx_eq(smooth(t([-3.0], d), t([0.0], d)), [2.5], Tolerance.default())
    assert_approx_eq(
        smooth(t([0.5, 1.5, 3.0], d), t([0.0, 0.0, 0.0], d)), [0.125, 1.0, 2.5], Tolerance.default()
    )
    assert_approx_eq(
        nn.SmoothL1Loss(beta=0.5)(t([0.25, 1.0], d), t([0.0, 0.0], d)),
        [0.0625, 0.75],
        Tolerance.default(),
    )
    pair = (t([[0.5, 2.0]], d), t([[0.0, 0.0]], d))
    assert_approx_eq(smooth.forward_with_reduction(*pair, "mean"), [0.8125], Tolerance.default())
    assert_approx_eq(smooth.forward_with_reduction(*pair, "sum"), [1.625], Tolerance.default())
    per_row = nn.SmoothL1Loss(beta=2.0).forward_reduce_dims(
        t([[0.0, 1.0, 4.0], [5.0, 5.0, 5.0]], d), t([[0.0, 0.0, 0.0], [5.0, 5.0, 5.0]], d), [1]
    )
    assert_approx_eq(per_row, [[3.25 / 3.0], [0.0]], Tolerance.default())


POISSON_PREDICTIONS = [0.0, 0.0, -40.0, 1.0, 2.0, 3.0]
POISSON_TARGETS = [1.0, 4.5, 2.5, 0.0, 0.0, 2.0]


@pytest.mark.parametrize("make_device", DEVICES)
def test_burn_poisson_nll_loss(make_device):
    d = make_device()
    x, y = t(POISSON_PREDICTIONS, d), t(POISSON_TARGETS, d)
    loss = nn.PoissonNllLoss()
    assert_approx_eq(
        loss.forward_no_reduction(x, y),
        [1.0000, 1.0000, 100.0000, 2.7183, 7.3891, 14.0855],
        Tolerance.default(),
    )
    assert_approx_eq(loss(x, y, "auto"), [21.0321], Tolerance.default())
    assert_approx_eq(loss(x, y, "sum"), [126.1929], Tolerance.default())
    full = nn.PoissonNllLoss(full=True)
    assert_approx_eq(
        full.forward_no_reduction(x, y),
        [1.0000, 4.9393, 101.1678, 2.7183, 7.3891, 14.7373],
        Tolerance.default(),
    )
    assert_approx_eq(full(x, y, "auto"), [21.9920], Tolerance.default())
    assert_approx_eq(full(x, y, "sum"), [131.9518], Tolerance.default())
    rates = t([0.0, 0.5, 1.0, 1.0, 2.71828, 7.38905, 20.0855], d)
    counts = t([2.0, 3.0, 1.0, 4.5, 0.0, 0.0, 2.0], d)
    assert_approx_eq(
        nn.PoissonNllLoss(log_input=False).forward_no_reduction(rates, counts),
        [36.84136, 2.579441, 1.0, 1.0, 2.71828, 7.38905, 14.0855],
        Tolerance.default(),
    )
    with pytest.raises(ValueError, match="positive number"):
        nn.PoissonNllLoss(eps=0.0)
    with pytest.raises(ValueError, match="one shape"):
        loss(t([0.0, 1.0, 2.0], d), t([0.0, 1.0], d))


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_burn_poisson_nll_loss_gradients(backend):
    d = Device.of(backend).autodiff()
    expected = [0.0000, -3.5000, -2.5000, 2.7183, 7.3891, 18.0855]
    for full in (False, True):
        x = t(POISSON_PREDICTIONS, d).require_grad()
        grads = nn.PoissonNllLoss(full=full)(x, t(POISSON_TARGETS, d), "sum").backward()
        assert_approx_eq(x.grad(grads), expected, Tolerance.default())
