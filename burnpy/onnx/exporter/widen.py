"""Where onnxruntime has no CPU kernel for an operator at bfloat16 or float16 (Mul, Add, Div,
Expand of bfloat16...), the node runs on float32 between Casts: its 16-bit inputs widened, its
16-bit outputs rounded back. Only the operators whose values stay the same: those that move
or compare values (float32 holds every 16-bit value), and +, -, *, / and their kin, whose
float32 result rounded once is what ml_dtypes' bfloat16 arithmetic (and burnpy's kernels) give.
A matrix product or a sum of bfloat16 values too: burnpy's kernels (as torch's) accumulate
bfloat16 in float32 and round the result once, which is what the widened node does; float16
ones accumulate in float16, so theirs are left as they are, as is a node whose float32 form
has no kernel either. Without onnxruntime nothing changes.
"""

from __future__ import annotations

import functools

NARROW = ("tensor(bfloat16)", "tensor(float16)")
SAME_VALUES = frozenset(
    ("Add", "Sub", "Mul", "Div", "Neg", "Abs", "Min", "Max", "Clip", "Where", "Equal", "Less")
    + ("Greater", "LessOrEqual", "GreaterOrEqual", "IsInf", "IsNaN", "Expand", "Transpose")
    + ("Reshape", "Gather", "GatherElements", "GatherND", "Concat", "Slice", "Tile")
    + ("Identity", "Squeeze", "Unsqueeze", "Flatten", "ReduceMax", "ReduceMin")
    + ("ArgMax", "ArgMin")
)
# bfloat16 only: the operators whose burnpy kernels accumulate in float32 (`accumulator`)
SUMS_IN_FLOAT32 = frozenset(("MatMul", "ReduceSum"))
BFLOAT16 = "tensor(bfloat16)"
WIDE = "tensor(float)"


@functools.cache
def _kernels() -> dict:
    """op type -> [(first version, last version, {constraint: allowed types})] of
    onnxruntime's CPU kernels (empty without onnxruntime)."""
    try:
        from onnxruntime.capi import _pybind_state
    except ImportError:
        return {}
    found: dict = {}
    for k in _pybind_state.get_all_opkernel_def():
        if k.domain in ("", "ai.onnx") and k.provider == "CPUExecutionProvider":
            first, last = k.version_range
            found.setdefault(k.op_name, []).append((first, last, dict(k.type_constraints)))
    return found


def _binding(schema, node, types: dict) -> dict | None:
    """{type constraint or type string: the element type the node gives it}; None when a
    value's type is unknown."""
    binding = {}
    for formals, names in ((schema.inputs, node.input), (schema.outputs, node.output)):
        for i, name in enumerate(names):
            if not name:
                continue
            if i >= len(formals) and not formals:
                return None
            formal = formals[min(i, len(formals) - 1)]
            kind = types.get(name)
            if kind is None:
                return None
            binding[formal.type_str] = kind
    return binding


def _runs(op: str, since: int, binding: dict) -> bool:
    for first, last, constraints in _kernels().get(op, ()):
        if first <= since <= last and all(
            c not in binding or binding[c] in allowed for c, allowed in constraints.items()
        ):
            return True
    return False


def widen(nodes: list, types: dict, opset: int, name) -> list:
    """`nodes` with each 16-bit float node onnxruntime cannot run put between Casts to and
    from float32; `types`: value name -> ONNX type string (`tensor(bfloat16)`), `name` mints
    a new value name."""
    import onnx

    if not _kernels() or not any(t in NARROW for t in types.values()):
        return nodes
    out, widened_of = [], {}  # a 16-bit value -> its float32 Cast (made once)
    for node in nodes:
        if node.domain or node.op_type not in SAME_VALUES | SUMS_IN_FLOAT32:
            out.append(node)
            continue
        try:
            schema = onnx.defs.get_schema(node.op_type, opset, node.domain)
        except onnx.defs.SchemaError:
            out.append(node)
            continue
        binding = _binding(schema, node, types)
        narrow = binding is not None and any(t in NARROW for t in binding.values())
        if narrow and node.op_type in SUMS_IN_FLOAT32:
            narrow = all(t == BFLOAT16 for t in binding.values() if t in NARROW)
        if not narrow or _runs(node.op_type, schema.since_version, binding):
            out.append(node)
            continue
        wide = {c: WIDE if t in NARROW else t for c, t in binding.items()}
        if not _runs(node.op_type, schema.since_version, wide):
            out.append(node)
            continue
        inputs = []
        for value in node.input:
            if value and types.get(value) in NARROW:
                if value not in widened_of:
                    widened_of[value] = name(f"{value}_float32")
                    out.append(_cast(value, widened_of[value], onnx.TensorProto.FLOAT, name))
                value = widened_of[value]
            inputs.append(value)
        outputs, back = [], []
        for value in node.output:
            if value and types.get(value) in NARROW:
                widened = name(f"{value}_float32")
                back.append(_cast(widened, value, _element(types[value]), name))
                value = widened
            outputs.append(value)
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        del copy.input[:], copy.output[:]
        copy.input.extend(inputs)
        copy.output.extend(outputs)
        out.append(copy)
        out.extend(back)
    return out


def types_of(model) -> dict:
    """value name -> onnxruntime's type string (`tensor(bfloat16)`) of every typed value of
    `model`'s graph (after shape inference)."""
    graph, found = model.graph, {}
    for value in [*graph.input, *graph.output, *graph.value_info]:
        if value.type.HasField("tensor_type"):
            found[value.name] = _kind(value.type.tensor_type.elem_type)
    for tensor in graph.initializer:
        found[tensor.name] = _kind(tensor.data_type)
    return found


def _kind(element: int) -> str:
    import onnx

    return f"tensor({onnx.TensorProto.DataType.Name(element).lower()})"


def _element(kind: str) -> int:
    import onnx

    return getattr(onnx.TensorProto, kind[len("tensor(") : -1].upper())


def _cast(source: str, target: str, to: int, name):
    import onnx

    return onnx.helper.make_node("Cast", [source], [target], name=name("/Cast"), to=to)
