"""An ONNX model as a small typed IR: frozen dataclasses for the graph, its nodes, its values
(element type and shape, a dynamic dim kept as its name or None) and its initializers, with
the nodes in topological order. Every error names the node it is about."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace

import numpy as np

from burnpy.onnx.errors import Refusal

# ONNX element types -> the dtype names this importer speaks; the narrow ints compute as
# int64 and wrap to their width where the result depends on it (burnpy/onnx/ops.py#wrap).
ELEMENT_TYPES = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    8: "string",
    9: "bool",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    14: "complex64",
    15: "complex128",
    16: "bfloat16",
    17: "float8e4m3fn",
    18: "float8e4m3fnuz",
    19: "float8e5m2",
    20: "float8e5m2fnuz",
    21: "uint4",
    22: "int4",
    23: "float4e2m1",
    24: "float8e8m0",
    25: "uint2",
    26: "int2",
}
FLOATS = ("float32", "float64", "float16", "bfloat16")
WIDE_INTS = ("int64", "int32")
NARROW_INTS = (
    "int8",
    "int16",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int4",
    "uint4",
    "int2",
    "uint2",
)
# The 8- and 4-bit floats: held as float32 (which holds their values exactly); only casts and
# moves take them, since arithmetic in float32 would not round to their precision.
NARROW_FLOATS = ("float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float4e2m1", "float8e8m0")  # fmt: skip
# Strings are no Tensors: NumPy arrays of Python str, which only the string operators take
# (burnpy/onnx/strings.py).
STRING = "string"
SUPPORTED = FLOATS + WIDE_INTS + NARROW_INTS + NARROW_FLOATS + ("bool", STRING)
# ml_dtypes' names of the narrow types (numpy's dtype names for them)
ML_DTYPES = {
    "float8e4m3fn": "float8_e4m3fn",
    "float8e4m3fnuz": "float8_e4m3fnuz",
    "float8e5m2": "float8_e5m2",
    "float8e5m2fnuz": "float8_e5m2fnuz",
    "float4e2m1": "float4_e2m1fn",
    "float8e8m0": "float8_e8m0fnu",
    "int4": "int4",
    "uint4": "uint4",
    "int2": "int2",
    "uint2": "uint2",
}


def storage(dtype: str) -> str:
    """The dtype a value of ONNX type `dtype` is held in."""
    if dtype in NARROW_INTS:
        return "int64"
    return "float32" if dtype in NARROW_FLOATS else dtype


@dataclass(frozen=True)
class Value:
    """A named value: its element type (None when unknown) and shape (None when the rank is
    unknown; a dim is an int, or a str / None when dynamic)."""

    name: str
    dtype: str | None
    shape: tuple | None
    sequence: bool = False  # a sequence of tensors of `dtype` (a Python list of Tensors)
    optional: bool = False  # an optional tensor or sequence (None or the value)

    @property
    def static(self) -> bool:
        return self.shape is not None and all(isinstance(d, int) for d in self.shape)


@dataclass(frozen=True)
class Node:
    name: str
    op_type: str
    domain: str
    opset: int  # the model's version of the node's domain
    inputs: tuple  # "" for an optional input left out
    outputs: tuple
    attributes: tuple  # (name, value) pairs; a subgraph (If's branches, Loop's body) as a Graph

    def attr(self, name: str, default=None):
        for key, value in self.attributes:
            if key == name:
                return value
        return default

    @property
    def where(self) -> str:
        domain = self.domain or "ai.onnx"
        return f"{self.op_type} node '{self.name}' (domain {domain}, opset {self.opset})"


@dataclass(frozen=True)
class Graph:
    name: str
    inputs: tuple  # Values fed by the caller, in order
    outputs: tuple  # Values
    initializers: dict = field(hash=False)  # name -> numpy array
    nodes: tuple  # Nodes, topologically sorted
    values: dict = field(hash=False)  # name -> Value, for every value whose type is known
    opsets: dict = field(hash=False)  # domain -> version
    # the initializers the model trains (burnpy/onnx/roles.py); the others are buffers
    parameters: frozenset = frozenset()


def subgraphs(graph: Graph):
    """Every subgraph of `graph`'s nodes (If's branches, Loop's and Scan's bodies), nested ones
    included, each once."""
    for node in graph.nodes:
        for _, value in node.attributes:
            if isinstance(value, Graph):
                yield value
                yield from subgraphs(value)


def _value(info) -> Value:
    return _typed(info.name, info.type)


def _typed(name: str, type_proto) -> Value:
    kind = type_proto.WhichOneof("value")
    if kind == "optional_type":  # an optional tensor or sequence: None or the value
        inner = _typed(name, type_proto.optional_type.elem_type)
        return replace(inner, optional=True) if not inner.optional else Value(name, "optional", None)  # fmt: skip
    element = type_proto.sequence_type.elem_type if kind == "sequence_type" else None
    if element is not None and element.WhichOneof("value") == "tensor_type":
        elem_type = element.tensor_type.elem_type
        dtype = ELEMENT_TYPES.get(elem_type) if elem_type else None
        return Value(name, dtype, None, sequence=True)
    if kind != "tensor_type":
        return Value(name, kind or "unknown", None)  # a map, a nested sequence: refused
    tensor = type_proto.tensor_type
    dtype = ELEMENT_TYPES.get(tensor.elem_type) if tensor.elem_type else None
    if not tensor.HasField("shape"):
        return Value(name, dtype, None)
    dims = []
    for dim in tensor.shape.dim:
        which = dim.WhichOneof("value")
        dims.append(dim.dim_value if which == "dim_value" else (dim.dim_param or None))
    return Value(name, dtype, tuple(dims))


def _attribute(attr):
    from onnx import AttributeProto, helper

    if attr.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS):
        return "<graph>"
    if attr.type == AttributeProto.TENSOR:
        return array_of(attr.t)
    if attr.type in (
        AttributeProto.SPARSE_TENSOR,
        AttributeProto.TENSORS,
        AttributeProto.TYPE_PROTO,
    ):
        return f"<{AttributeProto.AttributeType.Name(attr.type).lower()}>"
    value = helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, list):
        return tuple(v.decode() if isinstance(v, bytes) else v for v in value)
    return value


def array_of(tensor_proto, base_dir: str | None = None) -> np.ndarray:
    """An initializer's values, once it is seen to hold every element it declares; external
    data is read only from a file inside `base_dir` (the folder of a model given by path, or
    the caller's explicit base_dir=), never from the current folder."""
    from onnx import TensorProto, numpy_helper

    count = math.prod(tensor_proto.dims)
    if any(d < 0 for d in tensor_proto.dims):
        raise Refusal(f"it declares the negative dims {list(tensor_proto.dims)}")
    if tensor_proto.data_location == TensorProto.EXTERNAL:
        _check_external(tensor_proto, base_dir, count)
        return numpy_helper.to_array(tensor_proto, base_dir)
    held = _held(tensor_proto)
    if held < count:
        raise Refusal(f"it declares {count} elements {list(tensor_proto.dims)} and holds {held}")
    return numpy_helper.to_array(tensor_proto)


def _bits(tensor_proto) -> int:
    from onnx import helper

    bits = {"int4": 4, "uint4": 4, "float4e2m1": 4, "int2": 2, "uint2": 2}
    name = ELEMENT_TYPES.get(tensor_proto.data_type)
    if name in bits:
        return bits[name]
    return 8 * np.dtype(helper.tensor_dtype_to_np_dtype(tensor_proto.data_type)).itemsize


def _held(tensor_proto) -> int:
    """How many elements the tensor's data holds (an upper bound for packed types)."""
    if tensor_proto.raw_data:
        return len(tensor_proto.raw_data) * 8 // _bits(tensor_proto)
    fields = ("float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data")  # fmt: skip
    per_item = max(1, 32 // _bits(tensor_proto)) if tensor_proto.int32_data else 1
    return max(len(getattr(tensor_proto, f)) for f in fields) * per_item


def _check_external(tensor_proto, base_dir, count: int):
    entries = {e.key: e.value for e in tensor_proto.external_data}
    location = entries.get("location", "")
    if base_dir is None:
        raise Refusal(
            f"its data is in the external file {location!r}; a model given as bytes or a "
            "ModelProto reads external data only from an explicit base_dir= (the folder the "
            "model came from)"
        )
    folder = os.path.realpath(base_dir)
    path = os.path.realpath(os.path.join(folder, location))
    if not location or os.path.isabs(location) or os.path.commonpath([folder, path]) != folder:
        raise Refusal(f"its external file {location!r} is not a file inside {folder}")
    if not os.path.isfile(path):
        raise Refusal(f"its external file {location!r} does not exist in {folder}")
    offset = int(entries.get("offset", 0) or 0)
    need = -(-count * _bits(tensor_proto) // 8)
    length = int(entries.get("length", need) or need)
    if offset < 0 or length < need or offset + length > os.path.getsize(path):
        raise Refusal(
            f"it declares {count} elements {list(tensor_proto.dims)}, more than its external "
            f"file {location!r} holds at offset {offset}"
        )


def parse(model, base_dir: str | None = None) -> Graph:
    """The IR of a ModelProto (its types and shapes as onnx's shape inference knows them)."""
    opsets = {(o.domain or ""): o.version for o in model.opset_import}
    opsets[""] = opsets.get("ai.onnx", opsets.get("", 1))
    return _graph(model.graph, opsets, base_dir, frozenset(), 0)


# How deeply subgraphs may nest (a Loop in an If in a Loop ...): the work of reading a model
# stays bounded, and Python's own nesting limit is far away.
MAX_DEPTH = 16


def _graph(graph, opsets: dict, base_dir, outer: frozenset, depth: int) -> Graph:
    """The IR of a GraphProto: the main graph, or a subgraph (depth > 0) that may read the
    values of its enclosing graphs (`outer`)."""
    if depth > MAX_DEPTH:
        raise Refusal(f"subgraph '{graph.name}' is nested more than {MAX_DEPTH} deep")
    initializers, problems = {}, []
    for tensor in graph.initializer:
        try:
            initializers[tensor.name] = array_of(tensor, base_dir)
        except Refusal as refusal:
            problems.append(f"initializer '{tensor.name}': {refusal}")
        except Exception as error:  # unknown element type, a damaged tensor
            problems.append(f"initializer '{tensor.name}': cannot be read ({error})")
    if problems:
        raise Refusal(*problems)
    values = {}
    for info in list(graph.input) + list(graph.value_info) + list(graph.output):
        values[info.name] = _value(info)
    for name, array in initializers.items():
        dtype = STRING if array.dtype == object else str(array.dtype)
        values.setdefault(name, Value(name, dtype, tuple(array.shape)))
    inputs = tuple(values[i.name] for i in graph.input if i.name not in initializers)
    outputs = tuple(values[o.name] for o in graph.output)
    nodes = []
    for index, proto in enumerate(graph.node):
        domain = "" if proto.domain == "ai.onnx" else proto.domain
        node = Node(
            name=proto.name or f"{proto.op_type}_{index}",
            op_type=proto.op_type,
            domain=domain,
            opset=opsets.get(domain, 1),
            inputs=tuple(proto.input),
            outputs=tuple(proto.output),
            attributes=(),
        )
        node = replace(node, attributes=_attributes(node, proto, problems))
        problems += _attribute_problems(node, proto)
        nodes.append(node)
    if problems:
        raise Refusal(*problems)
    known = set(initializers) | {v.name for v in graph.input} | outer
    inner = frozenset(known | {o for node in nodes for o in node.outputs if o})
    for i, (node, proto) in enumerate(zip(nodes, graph.node)):
        bodies = {}
        for attr in proto.attribute:
            if attr.type == attr.GRAPH:
                try:
                    bodies[attr.name] = _graph(attr.g, opsets, base_dir, inner, depth + 1)
                except Refusal as refusal:
                    problems += [f"{node.where}: subgraph '{attr.name}': {p}" for p in refusal.args]  # fmt: skip
        if bodies:
            pairs = tuple((k, bodies.get(k, v)) for k, v in node.attributes)
            nodes[i] = replace(node, attributes=pairs)
    if problems:
        raise Refusal(*problems)
    return Graph(
        name=graph.name,
        inputs=inputs,
        outputs=outputs,
        initializers=initializers,
        nodes=toposort(nodes, known),
        values=values,
        opsets=opsets,
    )


def _attributes(node: Node, proto, problems: list) -> tuple:
    """The node's (name, value) pairs; an attribute that cannot be read is added to
    `problems`."""
    pairs = []
    for attr in proto.attribute:
        try:
            pairs.append((attr.name, _attribute(attr)))
        except Refusal as refusal:
            problems.append(f"{node.where}: attribute '{attr.name}': {refusal}")
        except Exception as error:  # an undecodable string, a damaged tensor
            problems.append(f"{node.where}: attribute '{attr.name}' cannot be read ({error})")
    return tuple(pairs)


def _attribute_problems(node: Node, proto) -> list:
    """An attribute whose type is not the one its operator's schema declares (a string where
    an int belongs), one line each."""
    from onnx import AttributeProto, defs

    try:
        schema = defs.get_schema(node.op_type, node.opset, node.domain)
    except defs.SchemaError:
        return []  # an operator onnx does not know: the translation table refuses it
    problems = []
    for attr in proto.attribute:
        declared = schema.attributes.get(attr.name)
        if declared is not None and attr.type != declared.type:
            given = AttributeProto.AttributeType.Name(attr.type).lower()
            wanted = AttributeProto.AttributeType.Name(declared.type).lower()
            problems.append(
                f"{node.where}: attribute '{attr.name}' is a {given}; the operator takes a {wanted}"
            )
    return problems


def captured(node: Node) -> set:
    """The values of enclosing graphs that `node`'s subgraphs read (its implicit inputs)."""
    names = set()
    for _, body in node.attributes:
        if isinstance(body, Graph):
            made = set(body.initializers) | {v.name for v in body.inputs}
            made |= {o for inner in body.nodes for o in inner.outputs}
            read = {i for inner in body.nodes for i in inner.inputs if i}
            read |= {n for inner in body.nodes for n in captured(inner)}
            read |= {v.name for v in body.outputs}
            names |= read - made
    return names


def toposort(nodes: list, known: set) -> tuple:
    """The nodes in an order where each comes after the producers of its inputs (the file's
    order among the ready ones); a missing producer or a cycle names the nodes it blocks."""
    producers = {out: i for i, node in enumerate(nodes) for out in node.outputs if out}
    waiting = {}
    pending = [0] * len(nodes)
    for i, node in enumerate(nodes):
        for name in set(node.inputs) | captured(node):
            if not name or name in known:
                continue
            if name not in producers:
                raise Refusal(f"{node.where}: input '{name}' is produced by no node")
            pending[i] += 1
            waiting.setdefault(producers[name], []).append(i)
    import heapq

    ready = [i for i, count in enumerate(pending) if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(nodes[i])
        for j in waiting.get(i, ()):
            pending[j] -= 1
            if pending[j] == 0:
                heapq.heappush(ready, j)
    if len(order) < len(nodes):
        stuck = ", ".join(nodes[i].where for i, c in enumerate(pending) if c)
        raise Refusal(f"the graph has a cycle through {stuck}")
    return tuple(order)
