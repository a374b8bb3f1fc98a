"""The ModelProto of a recorded call: its kernels lowered, its state as initializers, its
inputs and outputs typed (with the dynamic axes asked for), checked before it is returned."""

from __future__ import annotations

import warnings

import numpy as np

from burnpy.capture.recorder import CaptureError, EntryKind, Value
from burnpy.onnx.exporter.graph import Graph, Refused, numpy_dtype, tensor_type, to_numpy
from burnpy.onnx.exporter.lower import lower_call
from burnpy.onnx.exporter.trace import trace, values_in
from burnpy.onnx.exporter.widen import types_of, widen

_KEEPING = "_keeping"


def build(model, args, input_names, output_names, dynamic_axes, opset, label):
    import onnx

    from burnpy.onnx.exporter import ExportError

    try:
        traced = trace(model, args, input_names)
    except CaptureError as error:
        raise ExportError(label, [str(error)]) from None
    g = Graph(opset)
    env: dict = {}
    for name, value in traced.inputs:
        env[value] = g.name(name)
    quantized = {}  # a quantized parameter's name -> its int8 values
    for dotted, value, _ in traced.state:
        env[value] = g.name(dotted)
        if type(value.data).__name__ == "QuantizedTensor":
            quantized[env[value]] = _quantized(g, env[value], value.data)
    axes = {name: _axes(name, spec) for name, spec in dynamic_axes.items()}
    labels = {}  # a dynamic axis's recorded size -> its label
    for name, value in traced.inputs:
        for axis, label in axes.get(name, {}).items():
            if -value.data.ndim <= axis < value.data.ndim:
                size = value.data.shape[axis]
                g.dynamic.setdefault(size, (env[value], axis % value.data.ndim))
                labels.setdefault(size, label)
    problems, recorded = [], {}
    for entry in traced.tape.entries:
        if entry.kind in (EntryKind.SCALAR, EntryKind.GUARD):
            continue
        if entry.kind is not EntryKind.CALL:
            problems.append(
                f"`{entry.target}` on arrays outside a kernel ({entry.label or 'the forward'}): "
                "only kernel calls are exported"
            )
            continue
        op = entry.target.removesuffix(_KEEPING)
        if any(type(v) is Value and v not in env for v in values_in((entry.args, entry.kwargs))):
            continue  # it reads the result of a call already refused: named once, there
        computed = traced.tape.at_run_time.get(entry.out) if type(entry.out) is Value else None
        if g.dynamic and computed is not None and all(v in env for v in computed[1]):
            env[entry.out] = _at_run_time(g, env, computed, entry.out.data)
            recorded[env[entry.out]] = entry.out.data
            continue
        try:
            # a keeping forward lowers as its op: what it keeps is for a backward not exported
            lower_call(g, env, op, op, entry.args, entry.kwargs, entry.out)
        except Refused as refusal:
            problems.append(f"{op}{_origin(entry)}: {refusal}")
            continue
        for value in values_in(entry.out):
            if value in env:
                recorded[env[value]] = value.data
    # an output the recording did not make (a constant the model holds) is a constant
    sources = [env.get(v) if type(v) is Value else g.constant(to_numpy(v)) for v in traced.outputs]
    arrays = [v.data if type(v) is Value else v for v in traced.outputs]
    missing = [s for s in sources if s is None]
    if problems or missing:
        if not problems:
            problems = ["an output is computed outside the recorded kernels"]
        raise ExportError(label, problems)
    names = _output_names(traced.outputs, output_names)
    for source, name in zip(sources, names):
        g.nodes.append(onnx.helper.make_node("Identity", [source], [name], name=f"/{name}"))
    used = {i for node in g.nodes for i in node.input}
    inputs = [(env[v], v.data) for name, v in traced.inputs if name not in traced.read]
    fixed = [(env[v], v.data) for name, v in traced.inputs if name in traced.read]
    if fixed:
        warnings.warn(
            f"export: {label} reads the value of {', '.join(n for n, _ in fixed)} while it runs "
            "(as a shape, axes or sizes): the file holds the value given as a constant, and "
            "takes no such input",
            UserWarning,
            stacklevel=3,
        )
    state = [
        (env[v], quantized.get(env[v], v.data)) for _, v, _ in traced.state if env[v] in used
    ] + fixed
    known = {name for name, _ in inputs} | set(names)
    unknown = sorted(set(axes) - known)
    if unknown:
        raise ValueError(
            f"dynamic_axes names {unknown}, which are not inputs or outputs; they are "
            f"{sorted(known)}"
        )
    # an output not named in dynamic_axes: a dim of a dynamic axis's recorded size is that axis
    for name, array in zip(names, arrays):
        if name not in axes and labels:
            axes[name] = {i: labels[d] for i, d in enumerate(array.shape) if d in labels}
    graph = onnx.helper.make_graph(
        g.nodes,
        label,
        [_info(name, array, axes.get(name)) for name, array in inputs],
        [_info(name, array, axes.get(name)) for name, array in zip(names, arrays)],
        initializer=[_tensor(name, array) for name, array in state]
        + [_tensor(name, array) for name, array in g.initializers.items()],
    )
    opsets = [onnx.helper.make_opsetid("", opset)]
    proto = onnx.helper.make_model(
        graph,
        opset_imports=opsets,
        producer_name="burnpy",
        ir_version=onnx.helper.find_min_ir_version_for(opsets),
    )
    weights = [name for name, _ in state]
    inferred = _check(graph, opsets, weights, recorded)
    # a 16-bit float node onnxruntime has no kernel for runs on float32 between Casts
    widened = widen(list(graph.node), types_of(inferred), opset, g.name)
    if len(widened) != len(graph.node):
        del proto.graph.node[:]
        proto.graph.node.extend(widened)
        _check(proto.graph, opsets, weights, recorded)
    return proto


def _at_run_time(g: Graph, env: dict, computed, array) -> str:
    """With dynamic axes, an imported Shape or Range computed at run time (its recorded
    dtype), not the constant the recording holds."""
    op, sources, attributes = computed
    out = g.node(op, [env[v] for v in sources], **attributes)
    made = np.dtype(np.int64) if op == "Shape" else numpy_dtype(sources[0].data)
    return out if made == numpy_dtype(array) else g.cast(out, numpy_dtype(array))


def _quantized(g: Graph, name: str, tensor) -> np.ndarray:
    """A quantized parameter in QDQ form: its int8 values (returned, written under its name)
    and its scale, an initializer `NAME_scale` that DequantizeLinear reads. One scale per
    tensor; a per-block tensor gets no scale, and its dequantize is refused."""
    from burnpy.runtime.backends.registry import backend_for

    backend = backend_for("NumPy" if isinstance(tensor.values, np.ndarray) else "Torch")
    values, scales = backend.q_into_data(tensor)
    if scales.size == 1:
        g.scales[name] = g.initializer(scales.reshape(()).astype(np.float32), f"{name}_scale")
    return values.astype(np.int8)


def _origin(entry) -> str:
    return f" (in {entry.label})" if entry.label and entry.label != entry.target else ""


def _output_names(outputs, given) -> list[str]:
    if given is None:
        return ["output"] if len(outputs) == 1 else [f"output_{i}" for i in range(len(outputs))]
    given = list(given)
    if len(given) != len(outputs) or len(set(given)) != len(given):
        raise ValueError(f"output_names {given} must name each of the {len(outputs)} outputs once")
    return given


def _axes(name: str, spec) -> dict:
    if isinstance(spec, dict):
        return {int(axis): str(label) for axis, label in spec.items()}
    return {int(axis): f"{name}_dim_{axis}" for axis in spec}


def _info(name, array, axes):
    import onnx

    shape = list(array.shape)
    for axis, label in (axes or {}).items():
        if not -len(shape) <= axis < len(shape):
            raise ValueError(f"dynamic_axes: {name} has {len(shape)} dims, not an axis {axis}")
        shape[axis] = label
    return onnx.helper.make_tensor_value_info(name, tensor_type(numpy_dtype(array)), shape)


def _tensor(name, array):
    import onnx

    array = to_numpy(array)
    # (np.ascontiguousarray makes a 0-d array 1-d)
    return onnx.numpy_helper.from_array(np.ascontiguousarray(array).reshape(array.shape), name)


def _check(graph, opsets, state: list, recorded: dict):
    """onnx's full checker, then strict shape inference, whose every inferred type must be the
    recorded one (returned, typed): a lowering that computes another shape or dtype is a bug,
    caught here. Both
    run on the graph with its parameters and buffers as typed inputs instead of initializers:
    the same nodes and types, without serializing the weights twice."""
    import onnx

    weights = set(state)
    light = onnx.GraphProto()
    light.CopyFrom(graph)
    del light.initializer[:]
    light.initializer.extend(i for i in graph.initializer if i.name not in weights)
    light.input.extend(
        onnx.helper.make_tensor_value_info(i.name, i.data_type, list(i.dims))
        for i in graph.initializer
        if i.name in weights
    )
    model = onnx.helper.make_model(
        light, opset_imports=opsets, ir_version=onnx.helper.find_min_ir_version_for(opsets)
    )
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    for info in inferred.graph.value_info:
        array = recorded.get(info.name)
        if array is None:
            continue
        kind = info.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else None for d in kind.shape.dim]
        if kind.elem_type != tensor_type(numpy_dtype(array)):
            raise AssertionError(f"export: {info.name} is inferred of another dtype than recorded")
        static = all(d is not None for d in dims)
        if static and kind.HasField("shape") and tuple(dims) != tuple(array.shape):
            raise AssertionError(
                f"export: {info.name} is inferred of shape {dims}, recorded {list(array.shape)}"
            )
    return inferred
