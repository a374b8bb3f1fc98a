"""A recorded call lowered to ONNX nodes, kernel by kernel, as the catalogue's `onnx:` keys say.

Each kernel call of the tape is bound to its catalogue entry's arguments (tensors become the
names of ONNX values, everything else stays a Python value) and lowered by the entry's
expression or lowering function, as generated/onnx.py holds them (codegen/onnx_spec.py: a node
is {"op", "inputs", "attributes"}, an argument {"arg": name}, a string {"value": text}). A kernel without a lowering, or one
whose lowering refuses these arguments, is a problem; every problem is collected, so that one
export names them all.
"""

from __future__ import annotations

import numpy as np

from burnpy.capture.recorder import Integer, Number, Value
from burnpy.generated.onnx import LOWERINGS
from burnpy.onnx.exporter import lowerings
from burnpy.onnx.exporter.graph import Graph, Refused, numpy_dtype


class Call:
    """One kernel call as a lowering sees it. `names`: each tensor argument's ONNX value (a
    list for a `tensors` argument, None for an optional one left out); `values`: the other
    arguments, as Python values; `arrays`: each tensor argument's recorded array (shape and
    dtype), `results` the call's recorded results; `dtype` the receiver's dtype."""

    def __init__(self, kernel: str, op: str, names: dict, values: dict, arrays: dict, results):
        self.kernel, self.op = kernel, op
        self.names, self.values, self.arrays, self.results = names, values, arrays, results
        first = next(
            (a for a in arrays.values() if a is not None and not isinstance(a, list)), None
        )
        if first is None:
            first = next((a[0] for a in arrays.values() if isinstance(a, list) and a), None)
        self.dtype = numpy_dtype(first) if first is not None else numpy_dtype(results[0])

    def shape(self, arg: str) -> tuple:
        return tuple(self.arrays[arg].shape)

    def rank(self, arg: str) -> int:
        return len(self.arrays[arg].shape)

    @property
    def out_shape(self) -> tuple:
        return tuple(self.results[0].shape)


def lower_call(g: Graph, env: dict, kernel: str, op: str, args, kwargs, out) -> list[str]:
    """Lower one kernel call: adds its nodes to `g` and maps its results' Values in `env`."""
    found = lowerings.BACKWARD.get(kernel) or LOWERINGS.get(op)
    if found is None:
        raise Refused("the catalogue gives it no ONNX lowering (no `onnx:` key)")
    arg_names, lowering = found
    bound = dict(zip(arg_names, args))
    bound.update(kwargs)
    names, values, arrays = {}, {}, {}
    for name in arg_names:
        value = bound.get(name)
        if type(value) is Value:
            names[name], arrays[name] = env[value], value.data
        elif type(value) in (list, tuple) and value and all(type(v) is Value for v in value):
            names[name], arrays[name] = [env[v] for v in value], [v.data for v in value]
        elif value is None:
            names[name], values[name], arrays[name] = None, None, None
        elif type(value) in (Number, Integer) and ("number", id(value)) in env:
            names[name] = env[("number", id(value))]  # a number the exported step takes
            values[name] = value.plain
        else:
            values[name] = _plain(value)
    results = list(_flat(out))
    if op != kernel and kernel not in lowerings.BACKWARD:  # a keeping forward: (output, kept);
        results = results[:1]  # what it keeps is for the backward
    call = Call(kernel, op, names, values, arrays, [r.data for r in results if r is not None])
    if "function" in lowering:
        produced = getattr(lowerings, lowering["function"])(g, call)
    else:
        produced = evaluate(g, lowering, call)
    produced = produced if isinstance(produced, (tuple, list)) else (produced,)
    for value, name in zip(results, produced):
        if value is not None and name is not None:
            env[value] = name
    return list(produced)


def evaluate(g: Graph, node: dict, call: Call) -> str:
    """The nodes of an expression lowering; returns the outer node's output."""
    inputs = []
    for item in node["inputs"]:
        if isinstance(item, dict) and "op" in item:
            inputs.append(evaluate(g, item, call))
        elif isinstance(item, dict) and item["arg"] in call.names:
            inputs.append(call.names[item["arg"]])
        else:  # a number: an argument's or a literal, a constant of the receiver's dtype
            number = call.values[item["arg"]] if isinstance(item, dict) else item
            inputs.append(g.constant(number, dtype=call.dtype))
    attributes = {name: _attribute(value, call) for name, value in node["attributes"].items()}
    return g.node(node["op"], inputs, **attributes)


def _attribute(value, call: Call):
    if isinstance(value, dict):
        return call.values[value["arg"]] if "arg" in value else value["value"]
    return value


def _flat(out):
    """A call's results in order, a nested tuple's flattened (layer_norm_keeping's
    (output, (mean, r)))."""
    if isinstance(out, (tuple, list)):
        for item in out:
            yield from _flat(item)
    else:
        yield out


def _plain(value):
    if type(value) in (Number, Integer):
        return value.plain
    if type(value) in (list, tuple):
        return type(value)(_plain(v) for v in value)
    return value
