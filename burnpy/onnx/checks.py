"""What a model must be before the importer reads it: what onnxruntime refuses is refused here,
each problem naming the node (or the graph input, output or initializer) at fault.

Three stages, each a list of small checks:
1. the graph's structure (`STRUCTURE`): a known opset, unique graph inputs, every node with an
   output, one producer per name, every value read produced by something;
2. onnx's checker on every node and initializer (inputs, outputs and attribute types against
   the op's schema), then its shape inference in strict mode (the ranges it knows);
3. the attributes' ranges where shape inference cannot see them (`ATTRIBUTE_CHECKS`, one list
   per op type): a permutation is a permutation, an axis is in range, split sizes add up, a
   shape has at most one -1 and holds the input, a weight fits its convolution, a block size
   divides.
"""

from __future__ import annotations

import numpy as np

from burnpy.onnx.errors import Refusal, UnsupportedError

# -- 1. structure ---------------------------------------------------------------------------


def _opsets(proto) -> list:
    """The default domain's opset is one onnx (and so this importer) knows."""
    from onnx import defs

    newest = defs.onnx_opset_version()
    problems = []
    for opset in proto.opset_import:
        if opset.domain in ("", "ai.onnx") and not 1 <= opset.version <= newest:
            problems.append(
                f"opset {opset.version} of the ai.onnx domain is not one this importer knows "
                f"(1 to {newest}; onnx {_onnx_version()})"
            )
    return problems


def _onnx_version() -> str:
    import onnx

    return onnx.__version__


def _node_label(index: int, node) -> str:
    return f"{node.op_type} node '{node.name or f'{node.op_type}_{index}'}'"


def _ir_version(proto) -> list:
    """The model's IR version is one onnx knows."""
    import onnx

    if 1 <= proto.ir_version <= onnx.IR_VERSION:
        return []
    return [
        f"IR version {proto.ir_version} is not one this importer knows (1 to {onnx.IR_VERSION})"
    ]


def _inputs_unique(proto) -> list:
    """Each graph input is declared once."""
    seen, problems = set(), []
    for value in proto.graph.input:
        if value.name in seen:
            problems.append(f"graph input '{value.name}' is declared more than once")
        seen.add(value.name)
    return problems


def _nodes_have_outputs(proto) -> list:
    """Every node writes at least one value (a node without outputs computes nothing: the
    file is damaged)."""
    return [
        f"{_node_label(i, node)}: the node has no outputs"
        for i, node in enumerate(proto.graph.node)
        if not any(node.output)
    ]


def _one_producer_per_name(proto) -> list:
    """A value is a graph input, an initializer or one node's output: never two of these."""
    graph = proto.graph
    producer = {}
    for value in graph.input:
        producer.setdefault(value.name, "the graph input")
    problems = []
    for tensor in graph.initializer:
        if producer.get(tensor.name) == "an initializer":
            problems.append(f"initializer '{tensor.name}' is declared more than once")
        producer.setdefault(tensor.name, "an initializer")
    for i, node in enumerate(graph.node):
        for name in node.output:
            if not name:
                continue
            if name in producer:
                problems.append(
                    f"{_node_label(i, node)}: output '{name}' is already produced by "
                    f"{producer[name]}"
                )
            else:
                producer[name] = _node_label(i, node)
    return problems


def _values_have_producers(proto) -> list:
    """Every value a node reads, and every graph output, is produced by something."""
    graph = proto.graph
    known = (
        {v.name for v in graph.input}
        | {t.name for t in graph.initializer}
        | {name for node in graph.node for name in node.output}
    )
    problems = [
        f"{_node_label(i, node)}: input '{name}' is produced by no node, graph input or initializer"
        for i, node in enumerate(graph.node)
        for name in node.input
        if name and name not in known
    ]
    problems += [
        f"graph output '{value.name}' is produced by no node, graph input or initializer"
        for value in graph.output
        if value.name not in known
    ]
    return problems


STRUCTURE = (_ir_version, _opsets, _inputs_unique, _nodes_have_outputs, _one_producer_per_name, _values_have_producers)  # fmt: skip


# -- 2. onnx's checker and strict shape inference --------------------------------------------


def _first_lines(error: Exception) -> str:
    """An onnx error's message without its C++ framing, on one line."""
    text = str(error).replace("[ShapeInferenceError] Inference error(s): ", "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return " ".join(lines) or type(error).__name__


def _checker(proto) -> list:
    """onnx's checker on each node of the default domain (its inputs and outputs, the types of
    its attributes against its op's schema; an op's version that onnx marks deprecated, which
    onnxruntime still runs, is not held against it) and each initializer. Its whole-graph rules
    are left out where they are stricter than onnxruntime (a shape on every graph input and output,
    nodes stored in topological order); the structure checks above hold the rest. A node of
    another domain or holding a subgraph is refused by the importer, naming why."""
    from onnx import AttributeProto, TensorProto, checker

    context = checker.C.CheckerContext()
    context.ir_version = proto.ir_version
    context.opset_imports = {o.domain: o.version for o in proto.opset_import}
    scope = checker.C.LexicalScopeContext()
    subgraphs = (AttributeProto.GRAPH, AttributeProto.GRAPHS)
    problems = []
    for i, node in enumerate(proto.graph.node):
        if node.domain not in ("", "ai.onnx") or any(a.type in subgraphs for a in node.attribute):
            continue
        try:
            checker.check_node(node, context, scope)
        except checker.ValidationError as error:
            if "is deprecated in domain_version" in str(error):  # onnxruntime runs it
                continue
            problems.append(f"{_node_label(i, node)}: onnx's checker: {_first_lines(error)}")
    for tensor in proto.graph.initializer:
        if tensor.data_location == TensorProto.EXTERNAL:  # read, and checked, by ir.parse
            continue
        try:
            checker.check_tensor(tensor, context)
        except checker.ValidationError as error:
            problems.append(f"initializer '{tensor.name}': onnx's checker: {_first_lines(error)}")
    return problems


def inferred(proto, label: str):
    """The model with every value's type and shape as onnx's strict shape inference finds
    them, after onnx's checker; their errors as an UnsupportedError naming the node."""
    from onnx import shape_inference

    problems = _checker(proto)
    if problems:
        raise UnsupportedError(label, problems)
    try:
        return shape_inference.infer_shapes(proto, check_type=True, strict_mode=True, data_prop=True)  # fmt: skip
    except shape_inference.InferenceError as error:
        # an error inside the body onnx gives a standard op (MeanVarianceNormalization's at
        # opset 13) is onnx's, not the model's: onnxruntime runs such a node
        if str(error).count("Inference error(s):") < 2:
            raise UnsupportedError(label, [f"onnx's shape inference: {_first_lines(error)}"]) from None  # fmt: skip
        return shape_inference.infer_shapes(proto, check_type=True, data_prop=True)


# -- 3. attribute ranges -------------------------------------------------------------------


def _rank(graph, name: str):
    value = graph.values.get(name) if name else None
    return None if value is None or value.shape is None else len(value.shape)


def _constant(graph, name: str):
    """The value of `name` when an initializer or a Constant node's `value` holds it."""
    if name in graph.initializers:
        return np.asarray(graph.initializers[name])
    for node in graph.nodes:
        if node.op_type == "Constant" and node.outputs[:1] == (name,):
            value = node.attr("value")
            return None if value is None or isinstance(value, str) else np.asarray(value)
    return None


def _in_range(axis: int, rank: int, what: str, extra: int = 0):
    """`axis` indexes a rank-`rank` tensor (or one of `rank + extra` places)."""
    bound = rank + extra
    if not -bound <= axis < bound:
        raise Refusal(f"{what} {axis} is out of range for rank {rank} (from {-bound} to {bound - 1})")  # fmt: skip


def permutation(node, graph):
    """Transpose's `perm` is a permutation of the input's axes."""
    perm = node.attr("perm")
    if perm is None:
        return
    rank = _rank(graph, node.inputs[0])
    size = len(perm) if rank is None else rank
    if sorted(perm) != list(range(size)):
        raise Refusal(f"attribute perm {list(perm)} is not a permutation of range({size})")


def axis_of_input(node, graph):
    """`axis` indexes input 0's axes."""
    rank = _rank(graph, node.inputs[0])
    axis = node.attr("axis")
    if axis is not None and rank is not None:
        _in_range(axis, rank, "attribute axis")


def axis_or_rank(node, graph):
    """Flatten's `axis` is from -rank to rank (rank flattens everything into the first dim)."""
    rank = _rank(graph, node.inputs[0])
    axis = node.attr("axis")
    if axis is not None and rank is not None:
        _in_range(axis, rank, "attribute axis", extra=1)


def axes_of_input(node, graph):
    """`axes` (an attribute, or a constant input 1 from the opsets that moved it there) are
    distinct axes of input 0; Unsqueeze's index the output, of rank + len(axes)."""
    axes = node.attr("axes")
    if axes is None and len(node.inputs) > 1 and node.inputs[1]:
        known = _constant(graph, node.inputs[1])
        axes = None if known is None else [int(a) for a in known.reshape(-1)]
    rank = _rank(graph, node.inputs[0]) if node.inputs else None
    if axes is None or rank is None:
        return
    extra = len(axes) if node.op_type == "Unsqueeze" else 0
    for axis in axes:
        _in_range(axis, rank, "axis", extra)
    if len({a % (rank + extra) for a in axes}) < len(axes):
        raise Refusal(f"axes {list(axes)} repeat an axis")


def split_sizes(node, graph):
    """Split's sizes (attribute `split` or input 1) are one per output, not negative, and add
    up to the split dim when it is known."""
    sizes = node.attr("split")
    if sizes is None and len(node.inputs) > 1 and node.inputs[1]:
        known = _constant(graph, node.inputs[1])
        sizes = None if known is None else [int(s) for s in known.reshape(-1)]
    axis_of_input(node, graph)
    if sizes is None:
        return
    if len(sizes) != len(node.outputs):
        raise Refusal(f"{len(sizes)} split sizes {list(sizes)} for {len(node.outputs)} outputs")
    if any(s < 0 for s in sizes):
        raise Refusal(f"split sizes {list(sizes)} are negative")
    value = graph.values.get(node.inputs[0])
    if value is None or value.shape is None:
        return
    dim = value.shape[node.attr("axis", 0) % len(value.shape)]
    if isinstance(dim, int) and sum(sizes) != dim:
        raise Refusal(f"split sizes {list(sizes)} add up to {sum(sizes)}, not the dim {dim}")


def target_shape(node, graph):
    """Reshape's constant shape has at most one -1 and nothing below it (and no 0 beside a -1
    where 0 means an empty dim), and holds as many elements as a static input."""
    shape = _constant(graph, node.inputs[1]) if len(node.inputs) > 1 else None
    if shape is None:
        return
    dims = [int(d) for d in shape.reshape(-1)]
    if dims.count(-1) > 1:
        raise Refusal(f"shape {dims} has more than one -1")
    if any(d < -1 for d in dims):
        raise Refusal(f"shape {dims} has a dim below -1")
    allowzero = node.attr("allowzero", 0)
    if allowzero and -1 in dims and 0 in dims:
        raise Refusal(f"shape {dims} has both -1 and 0 with allowzero=1")
    given = _static_shape(graph, node.inputs[0])
    if given is None or (not allowzero and len(dims) > len(given) and 0 in dims[len(given) :]):
        return
    sizes = [given[i] if d == 0 and not allowzero else d for i, d in enumerate(dims)]
    known = int(np.prod([d for d in sizes if d != -1]))
    total = int(np.prod(given))
    if (total != known) if -1 not in sizes else (known == 0 or total % known):
        raise Refusal(f"shape {dims} does not hold the input's {total} elements (shape {list(given)})")  # fmt: skip


def _static_shape(graph, name: str):
    value = graph.values.get(name) if name else None
    return value.shape if value is not None and value.static else None


def axis_input(node, graph):
    """CumSum's constant axis (input 1) indexes input 0's axes."""
    axis = _constant(graph, node.inputs[1]) if len(node.inputs) > 1 else None
    rank = _rank(graph, node.inputs[0])
    if axis is not None and rank is not None:
        _in_range(int(axis.reshape(-1)[0]), rank, "axis")


def convolution(node, graph):
    """A convolution's weight fits its input: kernel_shape is the weight's spatial dims, and the
    input's channels are the weight's (times `group`; ConvTranspose: the weight's first dim)."""
    x, w = _static_shape(graph, node.inputs[0]), _static_shape(graph, node.inputs[1])
    if w is None:
        return
    kernel = node.attr("kernel_shape")
    if kernel is not None and list(kernel) != list(w[2:]):
        raise Refusal(f"kernel_shape {list(kernel)} is not the weight's spatial dims {list(w[2:])}")  # fmt: skip
    group = node.attr("group", 1)
    if x is None or len(x) < 2:
        return
    expected = w[0] if node.op_type == "ConvTranspose" else w[1] * group
    if x[1] != expected or group < 1 or (node.op_type == "Conv" and w[0] % group):
        raise Refusal(f"the input's {x[1]} channels do not fit the weight {list(w)} with group={group}")  # fmt: skip


def block_size(node, graph):
    """DepthToSpace's channels divide by blocksize squared; SpaceToDepth's height and width by
    blocksize."""
    x, size = _static_shape(graph, node.inputs[0]), node.attr("blocksize")
    if x is None or size is None or size < 1 or len(x) != 4:
        return
    divided = [x[1] / size**2] if node.op_type == "DepthToSpace" else [x[2] / size, x[3] / size]
    if any(d != int(d) for d in divided):
        raise Refusal(f"blocksize {size} does not divide the input's shape {list(x)}")


REDUCTIONS = ("ReduceMax", "ReduceMin", "ReduceMean", "ReduceSum", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")  # fmt: skip
ATTRIBUTE_CHECKS = {
    "Transpose": (permutation,),
    "Gather": (axis_of_input,),
    "GatherElements": (axis_of_input,),
    "ScatterElements": (axis_of_input,),
    "Concat": (axis_of_input,),
    "Softmax": (axis_of_input,),
    "LogSoftmax": (axis_of_input,),
    "Hardmax": (axis_of_input,),
    "ArgMax": (axis_of_input,),
    "ArgMin": (axis_of_input,),
    "Compress": (axis_of_input,),
    "OneHot": (axis_or_rank,),
    "Flatten": (axis_or_rank,),
    "Squeeze": (axes_of_input,),
    "Unsqueeze": (axes_of_input,),
    **{op: (axes_of_input,) for op in REDUCTIONS},
    "LayerNormalization": (axis_of_input,),
    "CumSum": (axis_input,),
    "Split": (split_sizes,),
    "Reshape": (target_shape,),
    "Conv": (convolution,),
    "ConvTranspose": (convolution,),
    "DepthToSpace": (block_size,),
    "SpaceToDepth": (block_size,),
}


def attributes(graph) -> list:
    """The problems of every node's attributes, one line per node, naming it."""
    problems = []
    for node in graph.nodes:
        if node.domain:
            continue
        for check in ATTRIBUTE_CHECKS.get(node.op_type, ()):
            try:
                check(node, graph)
            except Refusal as refusal:
                problems.append(f"{node.where}: {refusal}")
    return problems


def structure(proto) -> list:
    """The problems of the graph's structure, each naming its node, input or output."""
    return [problem for check in STRUCTURE for problem in check(proto)]
