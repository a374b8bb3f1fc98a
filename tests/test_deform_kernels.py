"""deform_conv2d and its backward kernel, on both backends, against burn-ndarray's loops."""

import math
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

import background
from kernel_check import BACKENDS, numerical_vjp

ROOT = Path(__file__).resolve().parent.parent

rng = np.random.default_rng(17)


def bilinear(plane, y, x):
    height, width = plane.shape
    if not (y > -1 and y < height and x > -1 and x < width):
        return 0.0
    y0, x0 = math.floor(y), math.floor(x)
    total = 0.0
    for row, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for col, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= row < height and 0 <= col < width:
                total += wy * wx * plane[row, col]
    return total


def deform_loops(x, offset, weight, mask, bias, stride, padding, dilation, wg, og):
    batch, channels = x.shape[:2]
    out_channels, cpg, kh, kw = weight.shape
    out_h, out_w = offset.shape[2:]
    out = np.zeros((batch, out_channels, out_h, out_w))
    for b, o, oy, ox in np.ndindex(batch, out_channels, out_h, out_w):
        group = o // (out_channels // wg)
        total = 0.0 if bias is None else bias[o]
        for ci, ky, kx in np.ndindex(cpg, kh, kw):
            c = group * cpg + ci
            g = c // (channels // og)
            tap = ky * kw + kx
            dy = offset[b, (g * kh * kw + tap) * 2, oy, ox]
            dx = offset[b, (g * kh * kw + tap) * 2 + 1, oy, ox]
            y = oy * stride[0] - padding[0] + ky * dilation[0] + dy
            xx = ox * stride[1] - padding[1] + kx * dilation[1] + dx
            value = bilinear(x[b, c], y, xx)
            if mask is not None:
                value *= mask[b, g * kh * kw + tap, oy, ox]
            total += weight[o, ci, ky, kx] * value
        out[b, o, oy, ox] = total
    return out


CASES = {
    "mask_bias_padding": dict(
        x=(1, 2, 4, 4), out_channels=2, kernel=(2, 2), stride=(1, 1), padding=(1, 1),
        dilation=(1, 1), wg=1, og=1, mask=True, bias=True,
    ),
    "groups_stride_dilation": dict(
        x=(2, 4, 5, 5), out_channels=2, kernel=(2, 2), stride=(2, 1), padding=(0, 1),
        dilation=(2, 1), wg=2, og=2, mask=False, bias=False,
    ),
}  # fmt: skip


def make_inputs(case):
    batch, channels, height, width = case["x"]
    kh, kw = case["kernel"]
    out_h = (height + 2 * case["padding"][0] - case["dilation"][0] * (kh - 1) - 1) // case[
        "stride"
    ][0] + 1
    out_w = (width + 2 * case["padding"][1] - case["dilation"][1] * (kw - 1) - 1) // case["stride"][
        1
    ] + 1
    og = case["og"]
    x = rng.standard_normal(case["x"])
    offset = rng.uniform(-1.5, 1.5, (batch, 2 * og * kh * kw, out_h, out_w))
    weight = rng.standard_normal((case["out_channels"], channels // case["wg"], kh, kw))
    mask = rng.uniform(0, 1, (batch, og * kh * kw, out_h, out_w)) if case["mask"] else None
    bias = rng.standard_normal(case["out_channels"]) if case["bias"] else None
    options = (case["stride"], case["padding"], case["dilation"], case["wg"], og)
    return [x, offset, weight, mask, bias], options


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("name", CASES)
def test_deform_conv2d_forward(run, name):
    inputs, options = make_inputs(CASES[name])
    out = run("deform_conv2d", *inputs, *options)
    np.testing.assert_allclose(out, deform_loops(*inputs, *options), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("run", BACKENDS)
def test_zero_offsets_are_a_convolution(run):
    inputs, options = make_inputs(CASES["mask_bias_padding"])
    x, offset, weight, _, bias = inputs
    out = run("deform_conv2d", x, np.zeros_like(offset), weight, None, bias, *options)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.zeros_like(out)
    for b, o, i, j in np.ndindex(out.shape):
        expected[b, o, i, j] = np.sum(padded[b, :, i : i + 2, j : j + 2] * weight[o]) + bias[o]
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def finite_difference_vjps() -> dict:
    """Per case: its inputs, an output gradient and the finite-difference VJP of the loops for
    each input (None for an input left out)."""
    cases = {}
    for name, case in CASES.items():
        inputs, options = make_inputs(case)
        grad = rng.standard_normal(deform_loops(*inputs, *options).shape)

        def forward(*values):
            return deform_loops(*values, *options)

        expected = [
            None if value is None else numerical_vjp(forward, inputs, position, grad)
            for position, value in enumerate(inputs)
        ]
        cases[name] = (inputs, options, grad, expected)
    return cases


# The finite differences (the Python loops, many times over) are computed once for both
# backends, in a child process started with the session (tests/background.py).
FINITE_DIFFERENCES = """
import pickle, sys
sys.path.insert(0, "tests")
import test_deform_kernels
with open(sys.argv[1], "wb") as f:
    pickle.dump(test_deform_kernels.finite_difference_vjps(), f)
"""
_STARTED = {}


def start_in_background(config, names):
    if background.tests_taking(globals(), "vjps") & {*names}:

        def command(folder):
            return [[sys.executable, "-c", FINITE_DIFFERENCES, str(folder / "vjps")]]

        _STARTED["vjps"] = background.start(config, command, 300, cwd=ROOT)


@pytest.fixture(scope="module")
def vjps() -> dict:
    job = _STARTED["vjps"]
    assert job.wait() == [0], job.output(0)
    return pickle.loads((job.folder / "vjps").read_bytes())


@pytest.mark.parametrize("run", BACKENDS)
@pytest.mark.parametrize("name", CASES)
def test_deform_conv2d_backward(run, name, vjps):
    inputs, options, grad, expected = vjps[name]
    computed = run("deform_conv2d_backward", *inputs, grad, *options)
    for value, want in zip(computed, expected, strict=True):
        if want is None:
            assert value is None
            continue
        np.testing.assert_allclose(value, want, rtol=1e-5, atol=1e-7)
