"""Translations of ONNX's sampling operators (GridSample, AffineGrid, RoiAlign): 2-d bilinear
grid sampling is the catalogue's `grid_sample_2d`; the other modes, volumetric grids,
AffineGrid and RoiAlign the compositions of burnpy/onnx/sampling.py. ImageDecoder is one call
of burnpy/onnx/images.py, decoding on the host when the model runs."""

from __future__ import annotations

from burnpy.onnx.emit import IMAGES, OPS as ops, Site
from burnpy.onnx.expr import Lit

# ONNX's names of the modes (opset 16's, and those from opset 20) -> sampling.py's.
GRID_MODES = {"bilinear": "linear", "linear": "linear", "nearest": "nearest", "bicubic": "cubic", "cubic": "cubic"}  # fmt: skip
PADDING_MODES = ("zeros", "border", "reflection")
SAMPLED = ("float32", "float64")


def grid_sample(n: Site):
    rank = n.known_rank(0)
    if rank < 3 or (n.opset < 20 and rank != 4):
        n.refuse(f"GridSample of a {rank}-d input is not supported at opset {n.opset}")
    mode = n.attr("mode", "linear" if n.opset >= 20 else "bilinear")
    if mode not in GRID_MODES:
        n.refuse(f"GridSample mode {mode!r} is not one of {sorted(GRID_MODES)}")
    padding = n.attr("padding_mode", "zeros")
    if padding not in PADDING_MODES:
        n.refuse(f"GridSample padding_mode {padding!r} is not one of {list(PADDING_MODES)}")
    if n.dtype(0) not in SAMPLED:
        n.refuse(f"GridSample of {n.dtype(0)} is not supported (float32 and float64)")
    align_corners = bool(n.attr("align_corners", 0))
    if rank == 4 and GRID_MODES[mode] == "linear":
        return n.x(0).grid_sample_2d(
            n.x(1), mode="bilinear", padding_mode=padding, align_corners=align_corners
        )
    return ops.grid_sample(n.x(0), n.x(1), GRID_MODES[mode], padding, align_corners)


def affine_grid(n: Site):
    if n.dtype(0) not in SAMPLED:
        n.refuse(f"AffineGrid of {n.dtype(0)} is not supported (float32 and float64)")
    return ops.affine_grid(n.x(0), n.ints_code(1), bool(n.attr("align_corners", 0)))


def roi_align(n: Site):
    if n.dtype(0) not in SAMPLED:
        n.refuse(f"RoiAlign of {n.dtype(0)} is not supported (float32 and float64)")
    if n.known_rank(0) != 4:
        n.refuse("RoiAlign takes a 4-d input [n, c, h, w]")
    mode = n.attr("mode", "avg")
    if mode not in ("avg", "max"):
        n.refuse(f"RoiAlign mode {mode!r} is not one of ['avg', 'max']")
    # before opset 16 the regions are not shifted by half a pixel
    default = "half_pixel" if n.opset >= 16 else "output_half_pixel"
    transformation = n.attr("coordinate_transformation_mode", default)
    if transformation not in ("half_pixel", "output_half_pixel"):
        n.refuse(f"RoiAlign coordinate_transformation_mode {transformation!r} is not supported")
    return ops.roi_align(
        n.x(0),
        n.x(1),
        n.x(2),
        mode=mode,
        height=n.attr("output_height", 1),
        width=n.attr("output_width", 1),
        sampling_ratio=n.attr("sampling_ratio", 0),
        spatial_scale=Lit(float(n.attr("spatial_scale", 1.0))),
        half_pixel=transformation == "half_pixel",
    )


def image_decoder(n: Site):
    from burnpy.onnx.images import PIXEL_FORMATS

    pixel_format = n.attr("pixel_format", "RGB")
    if pixel_format not in PIXEL_FORMATS:
        n.refuse(f"pixel_format {pixel_format!r} is not one of {', '.join(PIXEL_FORMATS)}")
    if n.dtype(0) != "uint8" or n.rank(0) not in (1, None):
        n.refuse(f"ImageDecoder takes a 1-d uint8 tensor of bytes, not {n.dtype(0)} {n.shape(0)}")
    return IMAGES.decode(n.x(0), pixel_format, n.node.name, n.device())
