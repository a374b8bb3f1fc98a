"""The interpolate kernel and its backward kernel, on both backends."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from kernel_check import BACKENDS, numerical_vjp

rng = np.random.default_rng(3)
MODES = ["nearest", "nearest_exact", "bilinear", "bicubic", "lanczos3"]


def source(o, in_size, out_size, align_corners):
    if align_corners:
        return o * (in_size - 1) / max(out_size - 1, 1)
    return (o + 0.5) * in_size / out_size - 0.5


def cubic(d):
    a, d = -0.75, abs(d)
    if d <= 1:
        return ((a + 2) * d - (a + 3)) * d * d + 1
    if d < 2:
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return 0.0


def lanczos3(d):
    if d == 0:
        return 1.0
    if abs(d) >= 3:
        return 0.0
    return math.sin(math.pi * d) * math.sin(math.pi * d / 3) / (math.pi * d * math.pi * d / 3)


def interpolate_loops(x, size, mode, align_corners):
    """burn-ndarray's per-pixel 2-D loops (lanczos3 normalised by its 2-D weight sum)."""
    B, C, H, W = x.shape
    OH, OW = size
    out = np.zeros((B, C, OH, OW))
    for b, c, oh, ow in np.ndindex(B, C, OH, OW):
        if mode in ("nearest", "nearest_exact"):
            shift = 0.5 if mode == "nearest_exact" else 0.0
            h = min(math.floor((oh + shift) * H / OH), H - 1)
            w = min(math.floor((ow + shift) * W / OW), W - 1)
            out[b, c, oh, ow] = x[b, c, h, w]
            continue
        y, xx = source(oh, H, OH, align_corners), source(ow, W, OW, align_corners)
        if mode == "bilinear":
            if not align_corners:
                y, xx = min(max(y, 0), H - 1), min(max(xx, 0), W - 1)
            y0, x0 = math.floor(y), math.floor(xx)
            y1, x1 = min(math.ceil(y), H - 1), min(math.ceil(xx), W - 1)
            ly, lx = y - y0, xx - x0
            out[b, c, oh, ow] = (
                x[b, c, y0, x0] * (1 - ly) * (1 - lx)
                + x[b, c, y0, x1] * (1 - ly) * lx
                + x[b, c, y1, x0] * ly * (1 - lx)
                + x[b, c, y1, x1] * ly * lx
            )
        elif mode == "bicubic":
            y0, x0 = math.floor(y), math.floor(xx)
            total = 0.0
            for i in range(-1, 3):
                for j in range(-1, 3):
                    weight = cubic(y - (y0 + i)) * cubic(xx - (x0 + j))
                    total += (
                        weight * x[b, c, min(max(y0 + i, 0), H - 1), min(max(x0 + j, 0), W - 1)]
                    )
            out[b, c, oh, ow] = total
        else:
            y0, x0 = math.floor(y), math.floor(xx)
            total = weights = 0.0
            for i in range(-2, 4):
                for j in range(-2, 4):
                    if 0 <= y0 + i < H and 0 <= x0 + j < W:
                        weight = lanczos3(y - (y0 + i)) * lanczos3(xx - (x0 + j))
                        total += weight * x[b, c, y0 + i, x0 + j]
                        weights += weight
            out[b, c, oh, ow] = total / weights if weights != 0 else total
    return out


SIZES = [((4, 5), (7, 3)), ((3, 3), (3, 3)), ((5, 2), (2, 6)), ((2, 3), (1, 1))]


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("in_size, out_size", SIZES)
def test_interpolate_forward(run, mode, align_corners, in_size, out_size):
    x = rng.standard_normal((2, 2, *in_size))
    out = run("interpolate", x, out_size, mode, align_corners)
    expected = interpolate_loops(x, out_size, mode, align_corners)
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-12)


TORCH_MODES = {
    "nearest": "nearest",
    "nearest_exact": "nearest-exact",
    "bilinear": "bilinear",
    "bicubic": "bicubic",
}


@pytest.mark.parametrize("mode", TORCH_MODES)
@pytest.mark.parametrize("align_corners", [True, False])
def test_interpolate_matches_torch(mode, align_corners):
    # torch's nearest is burn's floor rule; it takes no align_corners
    x = rng.standard_normal((1, 2, 5, 4)).astype(np.float32)
    nearest = mode.startswith("nearest")
    expected = F.interpolate(
        torch.from_numpy(x),
        size=(8, 3),
        mode=TORCH_MODES[mode],
        align_corners=None if nearest else align_corners,
    ).numpy()
    for run in BACKENDS:
        out = run.values[0]("interpolate", x, (8, 3), mode, align_corners)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("align_corners", [True, False])
def test_interpolate_backward(run, mode, align_corners):
    x = rng.standard_normal((1, 2, 4, 3))
    size = (6, 2)
    grad = rng.standard_normal((1, 2, *size))
    computed = run("interpolate_backward", x, grad, size, mode, align_corners)

    def forward(x):
        return interpolate_loops(x, size, mode, align_corners)

    expected = numerical_vjp(forward, [x], 0, grad)
    np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)


def test_unknown_mode_is_a_value_error():
    with pytest.raises(ValueError, match="unknown mode 'area'"):
        BACKENDS[0].values[0](
            "interpolate_backward",
            np.zeros((1, 1, 2, 2)),
            np.zeros((1, 1, 3, 3)),
            (3, 3),
            "area",
            True,
        )
