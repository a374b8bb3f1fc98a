"""Laying out an imported model as a Python file: a docstring naming the graph, its inputs
and outputs; `class Model(nn.Module)` whose `__init__` declares the parameters (the graph's
float initializers) and constants (buffers), and whose `forward` is the graph, one statement
per node under a comment naming the ONNX op and node. Formatted with black when installed."""

from __future__ import annotations

from burnpy.nn import record
from burnpy.onnx.ir import storage


def _shape_text(value) -> str:
    if value.shape is None:
        return "[?]"
    return "[" + ", ".join(str(d) if d is not None else "?" for d in value.shape) + "]"


def _zeros(array) -> str:
    """Zeros of the array's shape and dtype (float32 for a quantized weight, which `load`
    replaces by its quantized values)."""
    dims = "[" + ", ".join(str(d) for d in array.shape) + "]"
    dtype = "float32" if isinstance(array, record.Quantized) else array.dtype
    return f'Tensor.zeros({dims}, device=device, dtype="{dtype}")'


def source(graph, emitter, name: str, origin: str) -> str:
    """The text of the model's module (unformatted)."""
    inputs = [emitter.name_of(v.name) for v in graph.inputs]
    lines = ["        device = ops.device_of(self)"] if graph.inputs else []
    floats = {str(a.dtype) for a in graph.initializers.values() if a.dtype.kind == "f"}
    for value in graph.inputs:
        code = emitter.name_of(value.name)
        dtype = repr(storage(value.dtype))
        if floats == {value.dtype}:  # the model's dtype, which `cast` may have changed
            dtype = f"ops.float_dtype(self, {dtype})"
        shape = None if value.shape is None else tuple(d if isinstance(d, int) else None for d in value.shape)  # fmt: skip
        lines.append(
            f"        {code} = ops.tensor({code}, {dtype}, device, {value.name!r}, {shape!r})"
        )
    for statement in emitter.statements:
        node = statement.node
        lines.append(f"        # {node.op_type} {node.name}")
        lines.append(f"        {', '.join(statement.targets)} = {statement.expr}")
    outputs = [emitter.use(v.name, False) for v in graph.outputs]
    lines.append(f"        return {', '.join(outputs)}")
    body = "\n".join(lines)
    init = ["        super().__init__()", "        self.device = device"]
    if emitter.used_params:
        init.append("        # parameters: the graph's float initializers")
        for code, array in emitter.used_params.items():
            init.append(f"        self.{code} = {_zeros(array)}")
    if emitter.buffers:
        init.append("        # buffers: the graph's constants and running statistics")
        for code, array in emitter.buffers.items():
            init.append(f'        self.register_buffer("{code}", {_zeros(array)})')
    describe = "\n".join(f"    {v.name}: {v.dtype} {_shape_text(v)}" for v in graph.inputs)
    describe_out = "\n".join(f"    {v.name}: {v.dtype} {_shape_text(v)}" for v in graph.outputs)
    imports = ["from burnpy import nn", "from burnpy.onnx import ops"]
    names = ["Tensor"] + (["module"] if "module." in body else [])
    imports.append(f"from burnpy.generated import {', '.join(names)}")
    header = (
        f'"""{name}: the ONNX graph \'{graph.name}\' as a burnpy model, written by burnpy.onnx\n'
        f"from {origin} (regenerate it rather than edit it).\n\nInputs:\n{describe}\n"
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


def formatted(text: str) -> str:
    """`text` formatted with black (the project's line length) when black is installed."""
    try:
        import black
    except ImportError:
        return text
    return black.format_str(text, mode=black.Mode(line_length=100))
