"""The translations of the newer fused sequence operators: LinearAttention (a recurrent
state over the tokens), CausalConvWithState (a depthwise causal convolution carrying its last
positions) and ai.onnx.preview's FlexAttention, whose score and probability modifiers are
subgraphs written in place, like an If's branch, between the node's steps. Each is a call of
a composition in burnpy/onnx/ops.py."""

from __future__ import annotations

from dataclasses import replace

from burnpy.onnx.emit import OPS, Body, Outputs, Statement
from burnpy.onnx.expr import Lit
from burnpy.onnx.flow import Branch
from burnpy.onnx.ir import ELEMENT_TYPES, Graph

# LinearAttention's update rules: (whether it decays the state, whether it corrects by beta).
UPDATE_RULES = {
    "linear": (False, False),
    "gated": (True, False),
    "delta": (False, True),
    "gated_delta": (True, True),
}
SOFTMAX_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _present(site, first: int, last: int) -> list:
    """Inputs first..last as code, left-out ones None, up to the last one given."""
    given = [i for i in range(first, last + 1) if site.has(i)]
    return [site.opt(i) for i in range(first, (max(given) + 1) if given else first)]


def _rank_three(site, inputs: dict) -> None:
    for i, name in inputs.items():
        if site.has(i) and site.rank(i) not in (None, 3):
            site.refuse(f"its {name} must be rank 3; it is rank {site.rank(i)}")


def linear_attention(site):
    rule = site.attr("update_rule", "gated_delta")
    if rule not in UPDATE_RULES:
        site.refuse(f"update_rule {rule!r} is not one of {', '.join(UPDATE_RULES)}")
    for given, (i, name) in zip(UPDATE_RULES[rule], ((4, "decay"), (5, "beta"))):
        if given != site.has(i):
            needs = "needs" if given else "takes no"
            site.refuse(f"update_rule {rule!r} {needs} {name} input (input {i})")
    q_heads, kv_heads = site.attr("q_num_heads", 0), site.attr("kv_num_heads", 0)
    if q_heads <= 0 or kv_heads <= 0 or q_heads % kv_heads:
        site.refuse(
            f"q_num_heads ({q_heads}) must be a positive multiple of kv_num_heads ({kv_heads})"
        )
    _rank_three(site, {0: "query", 1: "key", 2: "value", 4: "decay", 5: "beta"})
    options = {"q_heads": q_heads, "kv_heads": kv_heads}
    if site.attr("scale", 0.0):
        options["scale"] = Lit(float(site.attr("scale")))
    args = [site.x(0), site.x(1), site.x(2)] + _present(site, 3, 5)
    return Outputs(OPS.linear_attention(*args, **options), 2)


def causal_conv_with_state(site):
    activation = site.attr("activation", "none")
    if activation not in ("none", "silu", "swish"):
        site.refuse(f"activation {activation!r} is not one of none, silu, swish")
    _rank_three(site, {0: "input", 1: "weight", 3: "past_state"})
    args = [site.x(0), site.x(1)] + _present(site, 2, 3)
    options = {"silu": True} if activation != "none" else {}
    return Outputs(OPS.causal_conv_with_state(*args, **options), 2)


def flex_attention(site):
    """softmax(score_mod(q k^T scale)) -> prob_mod -> @ v: without modifiers one call, with
    them the scores and probabilities bound to each modifier's input, its statements written
    in place and its output read on."""
    for i in range(3):
        if site.rank(i) not in (None, 4):
            site.refuse(f"its input {i} must be rank 4; it is rank {site.rank(i)}")
    dtype = _softmax_dtype(site)
    scale = site.attr("scale")
    scale = Lit(None if scale is None else float(scale))
    q, k, v = site.x(0), site.x(1), site.x(2)
    emitter, node = site.emitter, site.node
    targets = tuple(emitter.name_of(o) if o else "_" for o in node.outputs)
    mods = [(name, site.attr(name)) for name in ("score_mod", "prob_mod")]
    if all(graph is None for _, graph in mods):
        call = OPS.flex_attention(q, k, v, scale, dtype)
        return Branch(node, targets, None, Body((), (call,)), None)
    statements = []
    value = OPS.flex_scores(q, k, scale, dtype)
    for name, graph in mods:
        if graph is not None:
            value = _modified(site, statements, name, graph, value)
        if name == "score_mod":
            value = value.softmax(-1)
    return Branch(node, targets, None, Body(tuple(statements), (OPS.flex_output(value, v),)), None)


def _softmax_dtype(site) -> str:
    precision = site.attr("softmax_precision")
    if precision is None:
        return "float64" if site.dtype(0) == "float64" else "float32"
    dtype = ELEMENT_TYPES.get(precision)
    if dtype not in SOFTMAX_FLOATS:
        site.refuse(f"softmax_precision {precision} is not a float ({', '.join(SOFTMAX_FLOATS)})")
    return dtype


def _modified(site, statements: list, name: str, graph, value):
    """`value` bound to the modifier's input, its statements appended: its output's code."""
    if not isinstance(graph, Graph):
        site.refuse(f"its attribute '{name}' must be a graph")
    if len(graph.inputs) != 1 or len(graph.outputs) != 1:
        site.refuse(
            f"its '{name}' takes {len(graph.inputs)} inputs and gives {len(graph.outputs)} "
            f"outputs; it must take 1 and give 1"
        )
    bound = site.emitter.name_of(graph.inputs[0].name)
    step = "scores" if name == "score_mod" else "probabilities"
    statements.append(Statement(replace(site.node, name=f"{site.node.name}: {step}"), (bound,), value))  # fmt: skip
    code = site.emitter.body(graph, name)
    statements.extend(code.statements)
    return code.outputs[0]


def typed_modifiers(proto, label: str):
    """`proto` (inferred) with the types and shapes of FlexAttention's modifier subgraphs,
    which onnx's shape inference leaves out: each is checked and inferred as a model of its
    own, taking the values it reads from the graphs around it as inputs of their types."""
    from onnx import AttributeProto, helper

    def walk(graph, scope: dict):
        types = dict(scope)
        for value in list(graph.input) + list(graph.value_info) + list(graph.output):
            types[value.name] = value
        for tensor in graph.initializer:
            types[tensor.name] = helper.make_tensor_value_info(tensor.name, tensor.data_type, tensor.dims)  # fmt: skip
        for node in graph.node:
            for attr in node.attribute:
                bodies = [attr.g] if attr.type == AttributeProto.GRAPH else list(attr.graphs)
                for body in bodies:
                    if node.domain == "ai.onnx.preview" and node.op_type == "FlexAttention":
                        _infer_body(proto, body, types, f"{node.op_type} node '{node.name}'", label)  # fmt: skip
                    walk(body, types)

    walk(proto.graph, {})
    return proto


def _infer_body(proto, body, types: dict, where: str, label: str):
    from onnx import helper

    from burnpy.onnx import checks
    from burnpy.onnx.errors import UnsupportedError

    made = {v.name for v in body.input} | {t.name for t in body.initializer}
    made |= {o for node in body.node for o in node.output}
    read = [i for node in body.node for i in node.input if i and i not in made]
    outer = [types[name] for name in dict.fromkeys(read) if name in types]
    graph = helper.make_graph(
        body.node, body.name, list(body.input) + outer, body.output, body.initializer
    )
    alone = helper.make_model(graph, opset_imports=proto.opset_import, ir_version=proto.ir_version)
    try:
        inferred = checks.inferred(alone, label)
    except UnsupportedError as error:
        raise UnsupportedError(label, [f"{where}: its subgraph '{body.name}': {p}" for p in error.problems]) from None  # fmt: skip
    del body.value_info[:]
    body.value_info.extend(inferred.graph.value_info)
