"""ONNX's node suite in reverse: each case the importer passes is loaded, exported again, and
the exported file run by onnxruntime and by onnx's reference evaluator against the case's
expected outputs, with the case's tolerances (the judge of burnpy.onnx.conformance).

The exported model takes its inputs as the imported one holds them (the narrow ints as int64,
the 8- and 4-bit floats as float32, docs/onnx.md): the case's inputs are converted so. `refused`:
the export raised UnsupportedError (naming the kernels); `mismatch`: a runner's value differs;
`error`: the export or a runner crashed. A bfloat16 input or output goes in and comes out as
float32 through a Cast, since onnxruntime's Python binding has no bfloat16 array."""

from __future__ import annotations

import collections

import numpy as np

RESULTS = ("pass", "refused", "mismatch", "error")


def held(array) -> np.ndarray:
    """A case's input as the imported model holds it."""
    from burnpy.onnx.ir import ML_DTYPES, storage

    names = {v: k for k, v in ML_DTYPES.items()}
    array = np.asarray(array)
    dtype = storage(names.get(str(array.dtype), str(array.dtype)))
    if dtype == "int64" and array.dtype == np.uint64:
        return array.view(np.int64)
    return array.astype(dtype)


def reverse(model, data_sets, rtol, atol, runners: dict) -> dict:
    """{runner: (result, detail)} of one case's imported model exported again; `runners`:
    {name: run(model bytes, data sets, rtol, atol) -> (result, detail)},
    burnpy.onnx.conformance's."""
    from burnpy import Tensor
    from burnpy import onnx as importer
    from burnpy.onnx.exporter import export

    first, expected = data_sets[0]
    if any(x is None for x in expected) or not _flat(expected):
        return {r: ("refused", "an optional output left empty: no tensor") for r in runners}
    if any(isinstance(x, list) and any(i is None or isinstance(i, list) for i in x) for x in first):
        return {r: ("refused", "a nested or optional element of a sequence input") for r in runners}
    if any(np.asarray(x).dtype.kind in "OSU" for x in _flat(first) + _flat(expected)):
        why = "a string input or output (an array of str, no Tensor: nothing to record)"
        return {r: ("refused", why) for r in runners}

    def tensor(x):
        return Tensor.from_data(held(x), dtype=str(held(x).dtype))

    args = tuple(
        None if x is None else [tensor(i) for i in x] if isinstance(x, list) else tensor(x)
        for x in first
    )
    names = [f"input_{i}" for i in range(len(args))]
    try:
        proto = export(model, args, input_names=names)
    except importer.UnsupportedError as error:
        return {r: ("refused", "; ".join(error.problems)) for r in runners}
    except Exception as error:  # an export that crashes: what this table counts as error
        return {r: ("error", f"export: {type(error).__name__}: {error}") for r in runners}
    # a sequence is one input per element and one output per element; an input the model
    # reads as a shape or axes is a constant of the file, not an input
    taken = [i.name for i in proto.graph.input]
    converted = []
    for ins, outs in data_sets:
        fed = dict(zip(_names(names, ins), _flat(ins)))
        if set(taken) - set(fed):
            return {
                r: ("refused", "a sequence of another length in a later data set") for r in runners
            }
        converted.append(([_fed(held(fed[name])) for name in taken], _flat(outs)))
    data = _through_float32(proto).SerializeToString()
    return {name: run(data, converted, rtol, atol) for name, run in runners.items()}


def _flat(values) -> list:
    """A case's inputs or outputs with each sequence's elements in its place and empty
    optionals left out, as the exported file takes and gives them."""
    flat = []
    for value in values:
        if isinstance(value, list):
            flat.extend(value)
        elif value is not None:
            flat.append(value)
    return flat


def _names(names, values) -> list:
    """The exported file's input names of a case's inputs, laid out as _flat lays them."""
    laid = []
    for name, value in zip(names, values):
        if isinstance(value, list):
            laid.extend(f"{name}_{i}" for i in range(len(value)))
        elif value is not None:
            laid.append(name)
    return laid


def _fed(array: np.ndarray) -> np.ndarray:
    return array.astype(np.float32) if array.dtype.name == "bfloat16" else array


def _through_float32(proto):
    """The exported model with each bfloat16 input taken as float32 and each bfloat16 output
    given as float32, through a Cast (both exact): onnxruntime's Python binding takes and
    gives no bfloat16 array. The file's own nodes are unchanged."""
    import onnx

    bf16, f32 = onnx.TensorProto.BFLOAT16, onnx.TensorProto.FLOAT
    graph = proto.graph
    if not any(v.type.tensor_type.elem_type == bf16 for v in [*graph.input, *graph.output]):
        return proto
    model = onnx.ModelProto()
    model.CopyFrom(proto)
    graph = model.graph
    casts_in, casts_out = [], []
    for value in graph.input:
        if value.type.tensor_type.elem_type == bf16:
            wide = f"{value.name}_fed_float32"
            casts_in.append(onnx.helper.make_node("Cast", [wide], [value.name], to=bf16))
            value.name, value.type.tensor_type.elem_type = wide, f32
    for value in graph.output:
        if value.type.tensor_type.elem_type == bf16:
            wide = f"{value.name}_read_float32"
            casts_out.append(onnx.helper.make_node("Cast", [value.name], [wide], to=f32))
            value.name, value.type.tensor_type.elem_type = wide, f32
    nodes = casts_in + list(graph.node) + casts_out
    del graph.node[:]
    graph.node.extend(nodes)
    return model


def summary(results: dict) -> str:
    """docs/onnx.md's table: per runner, the imported cases exported and what they gave."""
    lines = [
        "| exported, run by | imported cases | pass | refused | mismatch | error |",
        "|---|---|---|---|---|---|",
    ]
    for runner, by_case in results.items():
        counts = collections.Counter(result for _, result, _ in by_case.values())
        cells = " | ".join(str(counts[k]) for k in RESULTS)
        lines.append(f"| {runner} | {len(by_case)} | {cells} |")
    return "\n".join(lines)
