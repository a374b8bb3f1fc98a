"""The ONNX lowerings of generated/onnx.py and of the op reference: each exportable op's
arguments and its `onnx:` key, written back as a literal the exporter parses again."""

from dataclasses import dataclass

from burnpy.codegen.model import Catalogue, Op, QOp
from burnpy.codegen import onnx_spec as spec


@dataclass(frozen=True)
class Lowering:
    name: str
    args: str  # the tuple literal of its arguments' names
    value: str  # the key as plain data (onnx_spec.literal)
    shown: str  # as `explain` and the docs show it


def lowerings(catalogue: Catalogue) -> list[Lowering]:
    ops = (*catalogue.ops, *catalogue.quantized)
    return [lowering(op) for op in ops if op.onnx is not None]


def lowering(op: Op | QOp) -> Lowering:
    args = tuple(a.name for a in op.args)
    return Lowering(op.name, repr(args), repr(spec.literal(op.onnx)), spec.show(op.onnx))


def exports(op: Op) -> str:
    """How an op exports, in words: its lowering, through the ops it calls, or not at all."""
    if op.onnx is not None:
        return f"`{spec.show(op.onnx)}`"
    if op.composite:
        return "through the ops it calls"
    return "—"
