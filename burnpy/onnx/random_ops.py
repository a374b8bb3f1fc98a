"""The translations of ONNX's random operators: RandomUniform, RandomNormal and their Like
forms, Bernoulli, Multinomial, and Dropout (random in training mode). Each draws when the model
runs (burnpy/onnx/draws.py says from which generator: the device's, or one made from the node's
`seed` attribute), and is never folded at import."""

from __future__ import annotations

from burnpy.onnx.emit import OPS, Outputs, Site, Unfoldable
from burnpy.onnx.expr import Attr, Lit, ints
from burnpy.onnx.ir import FLOATS, storage


def _seed(n: Site) -> Lit:
    seed = n.attr("seed")
    return Lit(None if seed is None else float(seed))


def _float_out(n: Site) -> str:
    dtype = n.out_dtype(0)
    if dtype not in FLOATS:
        n.refuse(f"{n.op} to {dtype} is not supported (float outputs only)")
    return dtype


def random_uniform(n: Site):
    low, high = float(n.attr("low", 0.0)), float(n.attr("high", 1.0))
    return OPS.uniform(_shape(n), low, high, _float_out(n), _seed(n), n.device())


def random_normal(n: Site):
    mean, scale = float(n.attr("mean", 0.0)), float(n.attr("scale", 1.0))
    return OPS.normal(_shape(n), mean, scale, _float_out(n), _seed(n), n.device())


def _shape(n: Site):
    """The shape drawn: the `shape` attribute, or (the Like forms) the input's."""
    if n.op.endswith("Like"):
        return Attr(n.x(0), "shape")
    return ints(list(n.attr("shape")))


def bernoulli(n: Site):
    return OPS.bernoulli(n.x(0), storage(n.out_dtype(0)), _seed(n))


def multinomial(n: Site):
    if n.known_rank(0) != 2:
        n.refuse("Multinomial takes [batch, classes] log-probabilities")
    samples = int(n.attr("sample_size", 1))
    return OPS.multinomial(n.x(0), samples, n.out_dtype(0), _seed(n))


def dropout(n: Site):
    """Dropout: the identity unless in training mode (from opset 12, input 2: known at import,
    or an input the model picks its outcome by), where it draws its mask."""
    x = n.x(0)
    if n.opset < 12 or not n.has(2) or (n.is_const(2) and not bool(n.const(2))):
        if n.has_output(1):
            return Outputs(OPS.dropout(x, 0.0, False, None), 2)
        return x
    if n.folding:
        raise Unfoldable()  # a random draw: made when the model runs
    ratio = n.number_code(1) if n.has(1) else Lit(0.5)
    if n.is_const(2):
        return Outputs(OPS.dropout(x, ratio, Lit(True), _seed(n)), 2)
    return Outputs(OPS.dropout_if(x, ratio, n.x(2), _seed(n)), 2)
