"""An op's recorder, compiled once per (op, strategy): the forward on the inner backend, then
the output's Node and its step's state, written out as straight-line Python.

Everything a recorder decides — which arguments are float inputs, what each input's VJP needs
saved, what a recomputable output keeps — depends only on the op, its rule and the strategy.
Interpreting that on every call (a loop over the inputs, a plan per set of tracked inputs, a
call per saved value) cost three times an 8x8 op's forward. So it is decided once, here, and
the decisions are written out as the source of one function per op, the way `dataclasses`
writes `__init__` (and torchgen writes PyTorch's autograd wrappers, at build time instead).
The source is registered with linecache: `inspect.getsource(AD.float_mul)` shows it, and
tracebacks point into it.

What float_mul becomes under NoCheckpointing (Balanced also keeps a recipe, see
`inspect.getsource(BACKENDS.NumPy.Balanced.float_mul)`):

    def float_mul(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        ...
        result = forward(lhs_value, rhs_value)
        ...
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked):
            ...
        saved = (rhs_value if lhs_tracked else None, lhs_value if rhs_tracked else None)
        ...
"""

import linecache

from runtime.autodiff.node import ComputingProperty, Node, Requirement, next_id
from runtime.autodiff.steps import SELF, UNTRACKED_STEP
from runtime.autodiff.tensor import AutodiffTensor

# the names a recorder's body uses besides the op's arguments
LOCALS = ("result", "out", "order", "saved", "parent_ids", "inputs", "out_node", "memory_bound")


def compile_recorder(op, rule, backward, inner, recomputes: bool):
    """The recorder of a differentiable op without a list input (AutodiffOp `op`)."""
    source = _source(op, rule, recomputes)
    filename = f"<autodiff recorder {op.name}, recomputes={recomputes}>"
    namespace = {
        "forward": backward.forward,
        "BACKWARD": backward,
        "inner": inner,
        "NONE": Requirement.None_,
        "TRACKED": Requirement.GradInBackward,
        "COMPUTE_BOUND": ComputingProperty.ComputeBound,
        "MEMORY_BOUND": ComputingProperty.MemoryBound,
        "SELF": SELF,
        "UNTRACKED_STEP": UNTRACKED_STEP,
        "Node": Node,
        "next_id": next_id,
        "AutodiffTensor": AutodiffTensor,
        "outputs": outputs,
    }
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return namespace[op.name]


def outputs(float_output, result, tensor):
    """The op's results with its float output (at index `float_output`) wrapped."""
    result = list(result)
    result[float_output] = tensor
    return tuple(result)


def _source(op, rule, recomputes: bool) -> str:
    clash = set(op.args) & {*LOCALS, *_input_locals(op)}
    if clash:
        raise ValueError(f"{op.name}: argument names {sorted(clash)} clash with the recorder's")
    inputs = [op.args[i] for i in op.float_inputs]
    # Balanced recomputes a declared memory-bound op's output, if every input is tracked
    memory_bound = op.memory_bound and recomputes
    lines = [f"def {op.name}({', '.join(op.args)}):"]
    lines += _forward(op, inputs)
    if memory_bound:
        every_input = " and ".join(f"{name}_tracked" for name in inputs)
        lines.append(f"    memory_bound = {every_input if len(inputs) > 1 else True}")
    saved_names = _saved_names(rule, inputs)
    if recomputes:  # a MemoryBound input is kept as its Node, to be recomputed in backward
        kept = [name for name in inputs if memory_bound or name in dict(saved_names)]
        lines += [
            f"    {name}_held = {name}_node if {name}_node.properties is MEMORY_BOUND "
            f"else {name}_value"
            for name in kept
        ]
    lines.append(f"    saved = {_tuple(_saved(op, saved_names, inputs, recomputes, memory_bound))}")
    lines.append(f"    parent_ids = {_parent_ids(inputs)}")
    if len(inputs) == 1:
        lines.append(f"    inputs = [{inputs[0]}_node]")
    else:
        lines.append(
            f"    inputs = [{', '.join(f'{n}_node if {n}_tracked else None' for n in inputs)}]"
        )
    shapes = "None"  # only an op of one argument surely cannot broadcast
    if len(op.args) > 1:
        shapes = f"[{', '.join(f'{name}_value.shape' for name in inputs)}]"
    recipe, properties = "None", "COMPUTE_BOUND"
    if memory_bound:
        held = _tuple([f"{a}_held" if a in inputs else a for a in op.args])
        recipe = f"{held} if memory_bound else None"
        properties = "MEMORY_BOUND if memory_bound else COMPUTE_BOUND"
    lines.append(
        f"    out_node = Node(parent_ids, order + 1, next_id(), TRACKED, {properties}, BACKWARD, "
        f"inputs, {shapes}, saved, {recipe})"
    )
    lines.append(f"    return {_wrap(op)}")
    return "\n".join(lines) + "\n"


def _forward(op, inputs) -> list[str]:
    """Bind each float input's node and value, run the forward, and return early (the seed: with
    an empty step registered) if no input is tracked (burn's infer rule)."""
    lines = []
    for name in inputs:
        lines += [f"    {name}_node = {name}.node", f"    {name}_value = {name}.primitive"]
    call = [f"{a}_value" if a in inputs else a for a in op.args]
    lines.append(f"    result = forward({', '.join(call)})")
    lines.append(
        "    out = result" if op.float_output is None else f"    out = result[{op.float_output}]"
    )
    lines.append(f"    order = {inputs[0]}_node.order")
    for name in inputs[1:]:
        lines += [f"    if {name}_node.order > order:", f"        order = {name}_node.order"]
    lines += [f"    {name}_tracked = {name}_node.requirement is not NONE" for name in inputs]
    return lines + [
        f"    if not ({' or '.join(f'{name}_tracked' for name in inputs)}):",
        "        out_node = Node([], order + 1, next_id(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)",
        f"        return {_wrap(op)}",
    ]


def _saved(op, saved_names, inputs, recomputes, memory_bound) -> list[str]:
    """rule.saved's values in order: one that every input's VJP needs is saved whatever is
    tracked (one input at least is, by now); another only if an input that needs it is."""
    values = []
    for name, needed_by in saved_names:
        value = _saved_value(op, name, inputs, recomputes, memory_bound)
        if len(needed_by) < len(inputs):
            value = f"({value})" if " if " in value else value
            value += f" if {' or '.join(f'{n}_tracked' for n in needed_by)} else None"
        values.append(value)
    return values


def _parent_ids(inputs) -> str:
    """The tracked inputs' ids (Node.parents), as one expression."""
    if len(inputs) == 1:
        return f"[{inputs[0]}_node.id]"
    if len(inputs) == 2:
        a, b = inputs
        return (
            f"[{a}_node.id, {b}_node.id] if {a}_tracked and {b}_tracked "
            f"else [{a}_node.id] if {a}_tracked else [{b}_node.id]"
        )
    ids = ", ".join(f"{n}_node.id" for n in inputs)
    tracked = ", ".join(f"{n}_tracked" for n in inputs)
    return f"[i for i, t in zip(({ids}), ({tracked})) if t]"


def _tuple(items) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _input_locals(op) -> list[str]:
    inputs = [op.args[i] for i in op.float_inputs]
    return [f"{n}_{what}" for n in inputs for what in ("node", "value", "tracked", "held")]


def _wrap(op) -> str:
    if op.float_output is None:
        return "AutodiffTensor(out, out_node)"
    return f"outputs({op.float_output}, result, AutodiffTensor(out, out_node))"


def _saved_names(rule, inputs) -> list[tuple[str, list[str]]]:
    """Each name of rule.saved, with the inputs whose VJPs need it."""
    return [
        (value, [name for name, needs in zip(inputs, rule.needs) if value in needs])
        for value in rule.saved
    ]


def _saved_value(op, name: str, inputs, recomputes: bool, memory_bound: bool) -> str:
    if name == "out":
        return "SELF if memory_bound else out" if memory_bound else "out"
    if name == "indices" and op.float_output is not None:  # a (values, indices) op's int output
        return f"result[{1 - op.float_output}]"  # (gather and kin have an *argument* indices)
    if name in inputs:
        return f"{name}_held" if recomputes else f"{name}_value"
    if name in op.args:
        return name
    # `<input>_shape`, `<input>_device` or `<input>_dtype`
    input_name, _, what = name.rpartition("_")
    return {
        "shape": f"{input_name}_value.shape",
        "device": f"inner.device_of({input_name}_value)",
        "dtype": f"inner.dtype({input_name}_value)",
    }[what]
