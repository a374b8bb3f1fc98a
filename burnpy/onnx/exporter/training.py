"""A training step as an ONNX file: the step recorded by capture (its forward, the backward
pass's kernels and the optimiser's update), every kernel lowered to plain ONNX operators.

The file's inputs are what the step reads (the parameters, the optimiser's state, the batch,
the numbers it takes, a learning rate among them), its outputs the step's results (the loss)
and then the updated parameters and state, each named after what it replaces (`NAME_new`)."""

from __future__ import annotations

import inspect

import numpy as np

from burnpy.capture.recorder import CaptureError, EntryKind, Integer, Value
from burnpy.capture.replay import CapturedStep
from burnpy.capture.signature import Arguments
from burnpy.onnx.exporter.graph import Graph, Refused, numpy_dtype, tensor_type
from burnpy.onnx.exporter.trace import values_in
from burnpy.onnx.exporter.lower import lower_call


class _Recorded(CapturedStep):
    """A captured step that keeps its recording's tape (as the compiler would get it)."""

    recorded = None

    def _compile(self, name, tape, values, outputs, backends, source, owned):
        self.recorded = (list(tape.entries), list(values), list(outputs))
        return None


def export_training_step(step, args, path=None, *, opset=None):
    """Export one call of `step(*args)` (a function that computes a loss, calls `backward`
    and an optimiser's `step`, as `burnpy.capture` takes it) to the ONNX file `path` (None:
    write nothing); returns the onnx.ModelProto. The call runs once, as a captured step's
    first call does: the model and the optimiser advance by that step."""
    import onnx

    from burnpy.onnx.exporter import ExportError, _write, default_opset, runtime_opset

    label = getattr(step, "__name__", "step")
    captured = _Recorded(step, False, True)
    walked = Arguments(inspect.signature(step).bind(*args).arguments)
    try:
        captured(*args)
    except CaptureError as error:
        raise ExportError(label, [str(error)]) from None
    entries, inputs, outputs = captured.recorded
    (recordings,) = captured._recordings.values()
    names = _output_names(inputs, outputs, walked, recordings[-1])
    newest = default_opset()
    chosen = newest if opset is None else int(opset)
    proto = _build(entries, inputs, outputs, names, chosen, label)
    if opset is None:
        runs = runtime_opset({n.op_type for n in proto.graph.node}, newest)
        if runs != newest:
            proto = _build(entries, inputs, outputs, names, runs, label)
    if path is not None:
        _write(path, proto.SerializeToString())
    return proto


def _build(entries, inputs, outputs, names, opset: int, label: str):
    import onnx

    from burnpy.onnx.exporter import ExportError

    g = Graph(opset)
    env: dict = {}
    for value in inputs:
        if type(value) is Value:
            env[value] = g.name(value.name)
        else:
            env[("number", id(value))] = g.name(value.name)
    problems = []
    for entry in entries:
        if entry.kind is EntryKind.GUARD:
            continue
        if entry.kind is EntryKind.SCALAR:
            if entry.target not in _SCALARS:
                problems.append(f"number arithmetic `{entry.target}` in the step")
                continue
            operands = [_scalar(g, env, a) for a in entry.args]
            if entry.target in ("/", "**") or "float" in {_kind(a) for a in entry.args}:
                operands = [g.cast(o, np.float64) for o in operands]
            env[("number", id(entry.out))] = g.node(_SCALARS[entry.target], operands)
            continue
        if any(type(v) is Value and v not in env for v in values_in((entry.args, entry.kwargs))):
            if entry.kind is not EntryKind.CALL or not _lowered(entry.target):
                problems.append(_unexportable(entry))
            elif not problems:  # else it reads what a refused line made: named once, there
                problems.append(
                    f"{entry.target} ({entry.label}): reads what a forward kept for it, "
                    "which is not exported"
                )
            continue
        if entry.kind in (EntryKind.OP, EntryKind.INPLACE) and entry.target in _OPERATORS:
            _operator(g, env, entry)
            continue
        if entry.kind is not EntryKind.CALL:
            problems.append(_unexportable(entry))
            continue
        kernel = entry.target
        op = kernel.removesuffix("_keeping")
        try:
            lower_call(g, env, kernel, op, entry.args, entry.kwargs, entry.out)
        except Refused as refusal:
            problems.append(f"{kernel} ({entry.label}): {refusal}")
    if problems:
        raise ExportError(label, problems)
    nodes = list(g.nodes)
    for value, name in zip(outputs, names):
        source = env[value] if type(value) is Value else env[("number", id(value))]
        nodes.append(onnx.helper.make_node("Identity", [source], [name], name=f"/{name}"))
    used = {i for node in nodes for i in node.input}
    graph_inputs = []
    for value in inputs:
        if type(value) is Value and env[value] in used:
            graph_inputs.append(_info(env[value], numpy_dtype(value.data), value.data.shape))
        elif type(value) is not Value and env[("number", id(value))] in used:
            kind = np.int64 if type(value) is Integer else np.float64
            graph_inputs.append(_info(env[("number", id(value))], kind, ()))
    graph_outputs = [
        (
            _info(name, numpy_dtype(v.data), v.data.shape)
            if type(v) is Value
            else _info(name, np.int64 if type(v) is Integer else np.float64, ())
        )
        for v, name in zip(outputs, names)
    ]
    graph = onnx.helper.make_graph(
        nodes,
        label,
        graph_inputs,
        graph_outputs,
        initializer=[
            onnx.numpy_helper.from_array(np.ascontiguousarray(a).reshape(a.shape), n)
            for n, a in g.initializers.items()
        ],
    )
    opsets = [onnx.helper.make_opsetid("", opset)]
    proto = onnx.helper.make_model(
        graph,
        opset_imports=opsets,
        producer_name="burnpy",
        ir_version=onnx.helper.find_min_ir_version_for(opsets),
    )
    onnx.checker.check_model(proto, full_check=True)
    onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
    return proto


# Python's arithmetic on the step's numbers, as ONNX operators on scalars (float64, int64)
_SCALARS = {"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "**": "Pow", "u-": "Neg", "abs": "Abs"}


# Python's operators on arrays outside kernels (a backward rule's `g * slope`, the gradient
# sums' `+=`), as numpy computes them: a number operand in the array's dtype
_OPERATORS = {"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "u-": "Neg"}
_OPERATORS.update({f"{symbol}=": op for symbol, op in _OPERATORS.items() if symbol != "u-"})


def _operator(g: Graph, env: dict, entry) -> None:
    """An operator's node; an augmented assignment rebinds its target to the result."""
    target = entry.args[0] if entry.kind is EntryKind.INPLACE else entry.out
    dtype = numpy_dtype(target.data)
    operands = []
    for operand in entry.args:
        if type(operand) is Value:
            name = env[operand]
            operands.append(name if numpy_dtype(operand.data) == dtype else g.cast(name, dtype))
        elif ("number", id(operand)) in env:
            operands.append(g.cast(env[("number", id(operand))], dtype))
        else:
            operands.append(g.constant(getattr(operand, "plain", operand), dtype=dtype))
    env[target] = g.node(_OPERATORS[entry.target], operands)


def _kind(value) -> str:
    return "int" if type(value) in (int, Integer) else "float"


def _scalar(g: Graph, env: dict, value) -> str:
    """A number operand: the step's (an input, or computed from inputs) or a constant."""
    found = env.get(("number", id(value)))
    if found is not None:
        return found
    plain = getattr(value, "plain", value)
    return g.constant(plain, dtype=np.int64 if type(plain) is int else np.float64)


def _lowered(kernel: str) -> bool:
    from burnpy.generated.onnx import LOWERINGS
    from burnpy.onnx.exporter import lowerings

    return kernel in lowerings.BACKWARD or kernel.removesuffix("_keeping") in LOWERINGS


def _unexportable(entry) -> str:
    if entry.kind is EntryKind.CALL:
        return f"{entry.target} ({entry.label}): the exporter has no lowering for this kernel"
    return f"`{entry.target}` on arrays outside a kernel ({entry.label})"


def _info(name, dtype, shape):
    import onnx

    return onnx.helper.make_tensor_value_info(name, tensor_type(dtype), list(shape))


def _output_names(inputs, outputs, walked, recording) -> list[str]:
    """The step's results (`loss` for one, else `result_i`), then each updated tensor named
    after the input it replaces (`NAME_new`): the modules' changed tensors, then the
    optimisers' state, in the order capture writes them back."""
    replaced = []
    for (_, entries), specs in zip(walked.modules, recording.modules):
        replaced += [inputs[index].name for (_, _, index), spec in zip(entries, specs) if spec]
    for (_, _, states), after in zip(walked.optimizers, recording.optimizers):
        before = dict(states)
        for pid, state in zip(walked.param_ids, after):
            keys = dict(before.get(pid, ()))
            for key, _ in state or ():
                index = keys.get(key)
                replaced.append(
                    inputs[index].name if index is not None else f"{key}_{len(replaced)}"
                )
    results = len(outputs) - len(replaced)
    names = ["loss"] if results == 1 else [f"result_{i}" for i in range(results)]
    return names + [f"{name}_new" for name in replaced]
