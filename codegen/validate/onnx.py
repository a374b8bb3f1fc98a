"""An entry's `onnx:` key: it parses (codegen/onnx_spec.py), takes tensors and numbers as
inputs and other arguments as attributes, or names a function of the lowering module. (That
each operator and attribute exists in ONNX is checked against onnx's schemas by
tests/test_onnx_export.py: the generator does not import onnx.)"""

from burnpy.codegen import onnx_spec as spec
from burnpy.codegen.kernels import function_names
from burnpy.codegen.load import plain
from burnpy.codegen.model import SCALAR_TYPES, Arg, ArgKind
from burnpy.codegen.validate.report import Where, suggest

# what an operand of a node may be: a tensor, or a number made a constant
_OPERANDS = (*SCALAR_TYPES, ArgKind.REAL)


def check_onnx(where: Where, args: tuple[Arg, ...]):
    try:
        lowering = spec.parse(plain(where.entry.value["onnx"]), tuple(a.name for a in args))
    except spec.SpecError as error:
        raise where.error("onnx", error.problem, error.hint) from None
    if isinstance(lowering, spec.Function):
        names = function_names(spec.LOWERINGS_MODULE)  # from its source: no burnpy import
        if lowering.name not in names:
            raise where.error(
                "onnx",
                f"`onnx:` names no function {lowering.name!r} of {spec.LOWERINGS_MODULE}",
                suggest(lowering.name, names, "write one there, or name one that is"),
            )
        return lowering
    kinds = {a.name: a for a in args}
    for node in lowering.nodes():
        for item in node.inputs:
            if isinstance(item, spec.Ref) and not (
                kinds[item.name].is_tensor or kinds[item.name].type in _OPERANDS
            ):
                raise where.error(
                    "onnx",
                    f"`onnx:` {node.op} takes {item.name} ({kinds[item.name].spelled}) as an input",
                    "an input is a tensor or a number argument; pass others as attributes",
                )
        for name, value in node.attributes:
            if isinstance(value, spec.Ref) and kinds[value.name].is_tensor:
                raise where.error(
                    "onnx",
                    f"`onnx:` attribute {name} of {node.op} is the tensor {value.name}",
                    "an attribute is a non-tensor argument or a literal",
                )
    return lowering
