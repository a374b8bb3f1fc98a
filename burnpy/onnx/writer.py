"""Laying out an imported model as a Python file: a docstring naming the graph, its inputs
and outputs; `class Model(nn.Module)` whose `__init__` declares the parameters (the graph's
float initializers) and constants (buffers), and whose `forward` is the graph, one statement
per node under a comment naming the ONNX op and node. Formatted with black when installed."""

from __future__ import annotations

import re

from burnpy.nn import record
from burnpy.onnx import flow
from burnpy.onnx.emit import IMAGES, ML, OPS, SELF, STRINGS
from burnpy.onnx.expr import Lit, Name, ints, render, render_targets, uses
from burnpy.onnx.ir import STRING, storage


def escaped(text) -> str:
    """`text` (a model's name, a node's name, a file's path) as one line of a comment or of
    the docstring: every character outside printable ASCII (so every line break Python's
    tokenizer or str.splitlines knows: \\n \\r \\x0b \\x0c \\x1c-\\x1e U+0085 U+2028 U+2029),
    the backslash and the double quote written as escapes. It can end neither the comment nor
    the docstring, and the docstring reads back as the model's text."""
    return "".join(_escaped(c) for c in str(text))


def _escaped(c: str) -> str:
    if c == "\\" or c == '"':
        return "\\" + c
    if " " <= c <= "~":
        return c
    code = ord(c)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else (f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    )


def _shape_text(value) -> str:
    if value.shape is None:
        return "[?]"
    return "[" + ", ".join(escaped(d) if d is not None else "?" for d in value.shape) + "]"


def _zeros(array):
    """Zeros of the array's shape and dtype (float32 for a quantized weight, which `load`
    replaces by its quantized values)."""
    dtype = "float32" if isinstance(array, record.Quantized) else str(array.dtype)
    return Name("Tensor").zeros(ints(array.shape), device=Name("device"), dtype=dtype)


def source(graph, emitter, name: str, origin: str) -> str:
    """The text of the model's module (unformatted)."""
    inputs = [emitter.name_of(v.name) for v in graph.inputs]
    lines = ["        device = ops.device_of(self)"] if graph.inputs else []
    floats = {str(a.dtype) for a in graph.initializers.values() if a.dtype.kind == "f"}
    for value in graph.inputs:
        code = Name(emitter.name_of(value.name))
        dtype = storage(value.dtype)
        if floats == {value.dtype}:  # the model's dtype, which `cast` may have changed
            dtype = OPS.float_dtype(SELF, dtype)
        shape = None if value.shape is None else [d if isinstance(d, int) else None for d in value.shape]  # fmt: skip
        read = OPS.tensor(code, dtype, Name("device"), value.name, shape)
        if value.dtype == STRING:  # an array of str (burnpy/onnx/strings.py)
            read = STRINGS.array(code, value.name, shape)
        if value.sequence:  # a list of Tensors (burnpy/onnx/sequences.py)
            read = OPS.sequence(code, dtype, Name("device"), value.name)
        if value.optional:  # None, or the value
            read = OPS.optional(code, dtype, Name("device"), value.name, value.sequence)
        lines.append(f"        {code.id} = {render(read)}")
    for statement in emitter.statements:
        lines += statement_lines(statement, 8)
    outputs = [render(emitter.use(v.name, False)) for v in graph.outputs]
    lines.append(f"        return {', '.join(outputs)}")
    body = "\n".join(lines)
    init = ["        super().__init__()", "        self.device = device"]
    if emitter.used_params:
        init.append("        # parameters: the float initializers the graph reads as weights")
        for code, array in emitter.used_params.items():
            init.append(f"        self.{Name(code).id} = {render(_zeros(array))}")
    if emitter.buffers:
        init.append("        # buffers: the graph's constants, scalars and running statistics")
        for code, array in emitter.buffers.items():
            init.append(
                f"        {render(SELF.register_buffer(Lit(Name(code).id), _zeros(array)))}"
            )
    describe = "\n".join(f"    {escaped(v.name)}: {v.dtype} {_shape_text(v)}" for v in graph.inputs)
    describe_out = "\n".join(
        f"    {escaped(v.name)}: {v.dtype} {_shape_text(v)}" for v in graph.outputs
    )
    # the helper modules the code calls (strings, ml, images), read off its lines, not comments
    code_lines = [line for line in lines if not line.lstrip().startswith("#")]
    helpers = ["ops"] + [h.id for h in (IMAGES, ML, STRINGS) if any(re.search(rf"\b{h.id}\.", t) for t in code_lines)]  # fmt: skip
    imports = ["from burnpy import nn", f"from burnpy.onnx import {', '.join(sorted(helpers))}"]
    needs_module = any(uses(s.expr, "module") for s in flow.statements(emitter.statements))
    names = ["Tensor"] + (["module"] if needs_module else [])
    imports.append(f"from burnpy.generated import {', '.join(names)}")
    header = (
        f'"""{name}: the ONNX graph \'{escaped(graph.name)}\' as a burnpy model, written by burnpy.onnx\n'
        f"from {escaped(origin)} (regenerate it rather than edit it).\n\nInputs:\n{describe}\n"
        f'Outputs:\n{describe_out}\n"""\n'
    )
    signature = ", ".join(["self"] + inputs)
    return (
        f"{header}\n"
        + "\n".join(imports)
        + "\n\n\nclass Model(nn.Module):\n"
        + '    """`Model(device)` builds it (zeros); `.load(path)` reads the weights."""\n\n'
        + "    def __init__(self, device=None):\n"
        + "\n".join(init)
        + f"\n\n    def forward({signature}):\n"
        + body
        + "\n"
    )


def statement_lines(statement, indent: int) -> list:
    """The lines of one statement of `forward`, nested bodies (burnpy/onnx/flow.py) included."""
    pad = " " * indent
    node = statement.node
    out = [f"{pad}# {escaped(node.op_type)} {escaped(node.name)}"]
    if isinstance(statement, flow.Statement):
        return out + [f"{pad}{', '.join(statement.targets)} = {render_targets(statement.expr)}"]
    if isinstance(statement, flow.Branch) and statement.cond is None:
        return out + _body(statement.then, statement.targets, indent)
    if isinstance(statement, flow.Branch):
        out.append(f"{pad}if {render(OPS.truth(statement.cond))}:")
        out += _body(statement.then, statement.targets, indent + 4)
        out.append(f"{pad}else:")
        return out + _body(statement.orelse, statement.targets, indent + 4)
    inner = " " * (indent + 4)
    going = statement.going
    tests = [going] if going else []
    if statement.limit is not None:
        out.append(f"{pad}{statement.bound} = {render(statement.limit)}")
        tests.append(f"{statement.step} < {statement.bound}")
    out.append(f"{pad}{statement.step} = 0")
    if going:
        out.append(f"{pad}{going} = {render(statement.start)}")
    if statement.carried:
        out.append(f"{pad}{', '.join(statement.carried)} = {', '.join(render(e) for e in statement.initial)}")  # fmt: skip
    for steps, _ in statement.scanned:
        out.append(f"{pad}{steps} = []")
    out.append(f"{pad}while {' and '.join(tests)}:")
    for name, expr in statement.binds:
        out.append(f"{inner}{name} = {render(expr)}")
    for inner_statement in statement.body.statements:
        out += statement_lines(inner_statement, indent + 4)
    if statement.carried:
        out.append(f"{inner}{', '.join(statement.carried)} = {', '.join(render(e) for e in statement.next_values)}")  # fmt: skip
    if going:
        out.append(f"{inner}{going} = {render(OPS.truth(statement.condition))}")
    for steps, expr in statement.scanned:
        out.append(f"{inner}{steps}.append({render(expr)})")
    out.append(f"{inner}{statement.step} += 1")
    if statement.targets:
        out.append(f"{pad}{', '.join(statement.targets)} = {', '.join(render(e) for e in statement.results)}")  # fmt: skip
    return out


def _body(body: flow.Body, targets: tuple, indent: int) -> list:
    out = []
    for statement in body.statements:
        out += statement_lines(statement, indent)
    values = ", ".join(render(e) for e in body.outputs)
    return out + [f"{' ' * indent}{', '.join(targets)} = {values}"]


def formatted(text: str) -> str:
    """`text` formatted with black (the project's line length) when black is installed."""
    try:
        import black
    except ImportError:
        return text
    return black.format_str(text, mode=black.Mode(line_length=100))
