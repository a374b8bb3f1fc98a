"""GridSample (every mode and padding, 2-d and volumetric), AffineGrid and RoiAlign imported:
values against onnxruntime and onnx's reference evaluator on both backends, in float64 (the
reference evaluator computes sampling positions in float32: it agrees to about 1e-7);
gradients against finite differences in float64."""

import itertools

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from onnx_node import (  # noqa: E402
    DEVICES,
    finite_difference,
    gradient,
    node_model,
    on_both_backends,
    onnxruntime,
    reference,
)

RNG = np.random.default_rng(3)


def grid_case(spatial, points, mode, padding, align_corners, batch=2):
    x = RNG.standard_normal((batch, 2, *spatial))
    # points past the edges (the paddings), none on a pixel's boundary (nearest's ties)
    grid = RNG.uniform(-1.3, 1.3, (batch, *points, len(spatial)))
    inputs = {"x": x, "grid": grid}
    attributes = dict(mode=mode, padding_mode=padding, align_corners=align_corners)
    return node_model("GridSample", inputs, attributes, 22), inputs


MODES = list(itertools.product(["nearest", "linear", "cubic"], ["zeros", "border", "reflection"], [0, 1]))  # fmt: skip


@pytest.mark.parametrize("mode,padding,align_corners", MODES)
def test_grid_sample_2d_equals_the_reference_and_onnxruntime(mode, padding, align_corners):
    model, inputs = grid_case((4, 5), (3, 4), mode, padding, align_corners)
    expected = reference(model, inputs)
    # cubic sampling past the edge: onnx's reference clamps the position into the image (as
    # border padding says), onnxruntime clamps each tap, as PyTorch does
    runtime = None if mode == "cubic" and padding == "border" else onnxruntime(model, inputs)
    for got in on_both_backends(model, inputs):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        if runtime is not None:
            np.testing.assert_allclose(got, runtime, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode,padding,align_corners", MODES)
def test_volumetric_grid_sample_equals_the_reference(mode, padding, align_corners):
    model, inputs = grid_case((3, 4, 2), (2, 3, 2), mode, padding, align_corners)
    expected = reference(model, inputs)
    # onnxruntime samples volumes linearly or by the nearest pixel only
    runtime = None if mode == "cubic" else onnxruntime(model, inputs)
    for got in on_both_backends(model, inputs):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        if runtime is not None:
            np.testing.assert_allclose(got, runtime, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(
    "spatial,points,mode,padding",
    [
        ((3, 4), (2, 2), "cubic", "reflection"),
        ((3, 4), (2, 2), "cubic", "zeros"),
        ((2, 3, 2), (2, 1, 1), "linear", "border"),
        ((2, 3, 2), (2, 1, 1), "nearest", "zeros"),
    ],
)
def test_grid_sample_gradients_match_finite_differences(spatial, points, mode, padding):
    model, inputs = grid_case(spatial, points, mode, padding, 0, batch=1)
    weights = RNG.standard_normal(reference(model, inputs).shape)
    # nearest's output is piecewise constant in the grid: no gradient reaches it
    for wrt in ("x",) if mode == "nearest" else ("x", "grid"):
        expected = finite_difference(model, inputs, wrt, weights)
        for device in DEVICES.values():
            got = gradient(model, inputs, wrt, weights, device().autodiff())
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


def affine_case(size, align_corners):
    rank = len(size) - 2
    theta = RNG.standard_normal((size[0], rank, rank + 1))
    inputs = {"theta": theta, "size": np.array(size, np.int64)}
    return node_model("AffineGrid", inputs, dict(align_corners=align_corners), 20), inputs


@pytest.mark.parametrize("size", [[2, 3, 4, 5], [1, 1, 1, 3], [2, 1, 3, 2, 4]])
@pytest.mark.parametrize("align_corners", [0, 1])
def test_affine_grid_equals_the_reference_and_onnxruntime(size, align_corners):
    model, inputs = affine_case(size, align_corners)
    expected = reference(model, inputs)
    # a single row with align_corners lies at -1 (the reference, the ONNX function's body and
    # PyTorch agree); onnxruntime puts it elsewhere
    single = align_corners and 1 in size[2:]
    runtime = None if single else onnxruntime(model, inputs)
    for got in on_both_backends(model, inputs):
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
        if runtime is not None:
            np.testing.assert_allclose(got, runtime, rtol=1e-6, atol=1e-7)


def test_affine_grid_gradients_match_finite_differences():
    model, inputs = affine_case([2, 1, 3, 2, 4], 0)
    weights = RNG.standard_normal((2, 3, 2, 4, 3))
    expected = finite_difference(model, inputs, "theta", weights)
    for device in DEVICES.values():
        got = gradient(model, inputs, "theta", weights, device().autodiff())
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


ROIS = np.array(
    [
        [0.5, 1.0, 6.3, 5.2],
        [2.0, 2.0, 3.0, 2.5],
        [-1.5, 6.0, 12.0, 11.5],
        [4.0, 3.0, 4.0, 3.0],  # empty
        [7.0, 6.0, 3.0, 1.0],  # reversed
    ]
)


def roi_case(mode, transformation, sampling_ratio, channels=3, regions=ROIS):
    inputs = {
        "x": RNG.standard_normal((2, channels, 8, 9)),
        "rois": regions,
        "batch_indices": np.array([1, 0, 1, 0, 1], np.int64)[: len(regions)],
    }
    attributes = dict(
        mode=mode,
        coordinate_transformation_mode=transformation,
        output_height=3,
        output_width=2,
        sampling_ratio=sampling_ratio,
        spatial_scale=0.8,
    )
    return node_model("RoiAlign", inputs, attributes, 16), inputs


ROI_MODES = list(itertools.product(["avg", "max"], ["half_pixel", "output_half_pixel"], [0, 2]))


@pytest.mark.parametrize("mode,transformation,sampling_ratio", ROI_MODES)
def test_roi_align_equals_the_reference_and_onnxruntime(mode, transformation, sampling_ratio):  # fmt: skip
    model, inputs = roi_case(mode, transformation, sampling_ratio)
    expected, runtime = reference(model, inputs), onnxruntime(model, inputs)
    for got in on_both_backends(model, inputs):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got, runtime, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("sampling_ratio", [0, 2])
def test_roi_align_gradients_match_finite_differences(mode, sampling_ratio):
    """With a sampling ratio the samples follow the regions: their gradient too (but for the
    empty region's in max mode, whose samples all tie)."""
    regions = ROIS[[0, 1, 2, 4]] if mode == "max" else ROIS
    model, inputs = roi_case(mode, "half_pixel", sampling_ratio, channels=1, regions=regions)
    weights = RNG.standard_normal(reference(model, inputs).shape)
    for wrt in ("x", "rois") if sampling_ratio else ("x",):
        expected = finite_difference(model, inputs, wrt, weights)
        for device in DEVICES.values():
            got = gradient(model, inputs, wrt, weights, device().autodiff())
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)
