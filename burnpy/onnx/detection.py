"""The operators whose output's shape follows the data: NonMaxSuppression (a detector's last
step) and Unique. They run eagerly, reading their inputs' values when the model runs
(`ops.non_max_suppression`, `ops.unique`), as NonZero and Compress do; `burnpy.capture`
refuses them, naming the generated line and the ONNX node. Unique's values are the input's
entries gathered at the positions found, so gradients flow to the input."""

from __future__ import annotations

from burnpy.onnx.emit import OPS, Outputs, Site
from burnpy.onnx.expr import Lit


def non_max_suppression(n: Site):
    most = n.number_code(2) if n.has(2) else Lit(0)
    iou = n.number_code(3) if n.has(3) else Lit(0.0)
    least_score = n.number_code(4) if n.has(4) else Lit(None)
    center = bool(n.attr("center_point_box", 0))
    return OPS.non_max_suppression(n.x(0), n.x(1), most, iou, least_score, center)


def unique(n: Site):
    return Outputs(OPS.unique(n.x(0), n.attr("axis"), bool(n.attr("sorted", 1))), 4)
