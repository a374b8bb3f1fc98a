"""Which initializers an imported model trains: its parameters; the others are buffers (saved
and moved with the model, never optimised) or constants folded at import.

A float initializer of more than one element is a parameter, unless the graph reads it only
where ONNX takes a constant (an exponent, a shape, bounds, a quantization scale:
`CONSTANT_INPUTS`). A scalar or one-element float (GELU's exponent, an attention mask's fill
value) is a buffer: Adam would move it as it moves a weight. A user names the parameters
instead with `parameters=`.

An exporter that finds two initializers holding equal values writes one and an `Identity` for
the other (the TorchScript exporter does): the model then holds one parameter where the source
held two. `aliases` finds them, so that the importer can say so, and `untied` gives each alias
its own copy."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from burnpy.onnx.ir import Graph

REDUCTIONS = ("ReduceMax", "ReduceMin", "ReduceMean", "ReduceSum", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")  # fmt: skip
# (op type -> input positions) where ONNX takes a constant of the model, not a weight.
CONSTANT_INPUTS = {
    "Pow": (1,),
    "Reshape": (1,),
    "Expand": (1,),
    "Tile": (1,),
    "Slice": (1, 2, 3, 4),
    "Pad": (1, 2, 3),
    "Resize": (1, 2, 3),
    "Upsample": (1,),
    "ConstantOfShape": (0,),
    "Range": (0, 1, 2),
    "Clip": (1, 2),
    "TopK": (1,),
    "OneHot": (1, 2),
    "Squeeze": (1,),
    "Unsqueeze": (1,),
    "Split": (1,),
    "CumSum": (1,),
    "Dropout": (1, 2),
    "BatchNormalization": (3, 4),  # the running statistics
    # quantization's scales and zero points
    "QuantizeLinear": (1, 2),
    "DequantizeLinear": (1, 2),
    "QLinearMatMul": (1, 2, 4, 5, 6, 7),
    "QLinearConv": (1, 2, 4, 5, 6, 7),
    **{op: (1,) for op in REDUCTIONS},
}


class TiedParametersWarning(UserWarning):
    """An exporter's aliases of one initializer became one shared parameter."""


def _uses(graph: Graph) -> dict:
    """name -> [(node, input position)] of every node input."""
    uses = {}
    for node in graph.nodes:
        for position, name in enumerate(node.inputs):
            if name:
                uses.setdefault(name, []).append((node, position))
    return uses


def default_parameters(graph: Graph) -> frozenset:
    """The float initializers of more than one element that some node reads as data."""
    uses = _uses(graph)
    outputs = {v.name for v in graph.outputs}

    def as_data(name):
        return name in outputs or any(
            position not in CONSTANT_INPUTS.get(node.op_type, ()) for node, position in uses.get(name, ())  # fmt: skip
        )

    return frozenset(
        name
        for name, array in graph.initializers.items()
        if np.asarray(array).dtype.kind == "f" and np.asarray(array).size > 1 and as_data(name)
    )


def chosen_parameters(graph: Graph, parameters, label: str) -> frozenset:
    """The initializers `parameters` names (each a float initializer of the graph), or the
    default ones when it is None."""
    if parameters is None:
        return default_parameters(graph)
    if isinstance(parameters, str):
        raise TypeError("parameters= takes a collection of initializer names, not one string")
    names = frozenset(parameters)
    floats = {n for n, a in graph.initializers.items() if np.asarray(a).dtype.kind == "f"}
    unknown = sorted(names - floats)
    if unknown:
        raise ValueError(
            f"{label}: parameters= names {unknown}, which are not float initializers of the "
            f"graph (its float initializers: {sorted(floats)[:20]}"
            f"{' ...' if len(floats) > 20 else ''})"
        )
    return names


def aliases(graph: Graph) -> dict:
    """alias name -> the initializer it copies, for every Identity (or chain of them) that reads
    a float initializer."""
    found = {}
    for node in graph.nodes:  # topological order: a chain's start comes first
        if node.op_type != "Identity" or not node.inputs or not node.outputs[0]:
            continue
        source = found.get(node.inputs[0], node.inputs[0])
        if (
            source in graph.initializers
            and np.asarray(graph.initializers[source]).dtype.kind == "f"
        ):
            found[node.outputs[0]] = source
    return found


def untied(graph: Graph) -> Graph:
    """The graph where each alias of an initializer is an initializer of its own, a copy."""
    found = aliases(graph)
    if not found:
        return graph
    initializers = dict(graph.initializers)
    for alias, source in found.items():
        initializers[alias] = np.array(graph.initializers[source], copy=True)
    nodes = tuple(n for n in graph.nodes if not (n.op_type == "Identity" and n.outputs[0] in found))  # fmt: skip
    return dataclasses.replace(graph, initializers=initializers, nodes=nodes)


def report_tied(graph: Graph, parameters: frozenset, label: str) -> None:
    """Warn, naming them, when an exporter's aliases share one parameter."""
    shared = {}
    for alias, source in aliases(graph).items():
        if source in parameters:
            shared.setdefault(source, []).append(alias)
    if shared:
        listed = "; ".join(f"'{s}' also as {', '.join(repr(a) for a in found)}" for s, found in shared.items())  # fmt: skip
        warnings.warn(
            f"{label}: the exporter wrote one initializer for several weights of equal values, "
            f"so they are one shared parameter here: {listed}. Pass untie=True to "
            "burnpy.onnx.load / generate to give each its own parameter.",
            TiedParametersWarning,
            stacklevel=4,  # the caller of load or generate
        )
