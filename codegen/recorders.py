"""The Autodiff decorator's recorder of each differentiable op: what it binds, saves and links.

A recorder runs the op's forward on the inner backend, then makes the output's Node and the
state its step needs (burn's `OpsStep`): which inputs are tracked, what their VJPs need saved,
and, under BalancedCheckpointing, the recipe that recomputes a memory-bound output. Everything
it decides depends only on the op's entry, its backward rule and the strategy, so it is decided
here, at generate time; `templates/recorders.py.jinja` lays the statements out (black breaks
the long lines, as for every generated file). One factory per op serves both strategies: the
Autodiff specialization binds it to its forward kernel, its shared `Backward`, its inner backend
and `balanced` (BalancedCheckpointing), the one thing the strategies differ by.

The rule's signature (runtime/autodiff/rules) says what each VJP needs; only what the VJPs of
the *tracked* inputs name is saved (burn: `mul` keeps lhs only when rhs needs a gradient).
"""

from dataclasses import dataclass

from runtime.autodiff.ops import AutodiffOp, FloatInput, rule_for
from runtime.autodiff.rules import Needed, Needs, Rule


@dataclass(frozen=True)
class Recorder:
    """One recorder's pieces, in the order the template writes them."""

    name: str
    args: str  # the recorded function's parameters
    prologue: tuple[
        str, ...
    ]  # bind the inputs, run the forward, find the order and what is tracked
    untracked_test: str  # true when no input is tracked, or inside `no_grad`
    untracked: str  # what it returns otherwise (the seed: an untracked op still gets a node)
    record: tuple[str, ...]  # what the step keeps, before its Node is made
    node: str  # the local the Node is bound to: `out_node`, or `hub` for several float outputs
    fields: tuple[tuple[str, str], ...]  # new_node's keyword arguments: the Node's fields
    result: str  # the return expression: the outputs wrapped as AutodiffTensors
    saved: tuple[str, ...]  # rule.saved: the order of a step's saved values

    @property
    def saved_literal(self) -> str:
        return _tuple([f'"{n}"' for n in self.saved]) if self.saved else "()"


# the names a recorder uses besides the op's arguments
LOCALS = (
    "forward", "BACKWARD", "inner", "balanced", "result", "out", "order", "parents", "inputs",
    "out_node", "hub", "memory_bound", "untracked_node",
)  # fmt: skip


# how a recorder reads an input's shape, device or dtype from its primitive
_READ = {
    Needs.SHAPE: "{}.shape",
    Needs.DEVICE: "inner.device_of({})",
    Needs.DTYPE: "inner.dtype({})",
}


def recorder(op: AutodiffOp) -> Recorder:
    clash = set(op.args) & {*LOCALS, *_input_locals(op)}
    if clash:
        raise ValueError(f"{op.name}: argument names {sorted(clash)} clash with the recorder's")
    return _Decisions(op, rule_for(op)).recorder()


def _input_locals(op: AutodiffOp) -> list[str]:
    whats = ("node", "nodes", "value", "tracked", "held", "parents")
    return [f"{i.name}_{what}" for i in op.inputs for what in whats]


class _Decisions:
    """The statements and expressions of one recorder."""

    def __init__(self, op: AutodiffOp, rule: Rule):
        self.op, self.rule = op, rule
        self.inputs = op.inputs
        self.names = [i.name for i in op.inputs]
        self.single = op.outputs == 1

    def recorder(self) -> Recorder:
        op = self.op
        tracked = [f"{n}_tracked" for n in self.names]
        one_output = len(op.float_outputs) == 1
        node = "out_node" if one_output else "hub"
        return Recorder(
            name=op.name,
            args=", ".join(op.args),
            prologue=(
                *self._bind(),
                *([] if op.keeps else self._forward()),
                *self._order(),
                *self._tracked(),
            ),
            untracked_test=(  # inside `no_grad` an op records nothing, whatever it is given
                f"not ({' or '.join(tracked)})" if len(tracked) > 1 else f"not {tracked[0]}"
            )
            + " or GRAD_MODE.paused",
            untracked=(
                f"AutodiffTensor({self._call('forward')}, untracked_node(order))"
                if op.keeps
                else self._wrap("untracked_node(order)") if one_output else self._untracked()
            ),
            record=self._record(),
            node=node,
            fields=self._fields(),
            result=self._wrap("out_node") if one_output else self._hub_outputs(),
            saved=self.rule.saved,
        )

    # -- the prologue --------------------------------------------------------------------------
    def _bind(self) -> list[str]:
        lines = []
        for i in self.inputs:
            n = i.name
            if i.many:
                lines += [
                    f"{n}_nodes = [t.node for t in {n}]",
                    f"{n}_value = [t.primitive for t in {n}]",
                ]
            elif i.optional:
                lines += [
                    f"{n}_node = None if {n} is None else {n}.node",
                    f"{n}_value = None if {n} is None else {n}.primitive",
                ]
            else:
                lines += [f"{n}_node = {n}.node", f"{n}_value = {n}.primitive"]
        return lines

    def _call(self, kernel: str) -> str:
        """The forward kernel's call on the inputs' primitives."""
        return (
            f"{kernel}({', '.join(f'{a}_value' if a in self.names else a for a in self.op.args)})"
        )

    def _forward(self) -> list[str]:
        op = self.op
        call = self._call("forward")
        if self.single:
            return [f"out = {call}"]
        floats = op.float_outputs
        if len(floats) == 1:
            return [f"result = {call}", f"out = result[{floats[0]}]"]
        return [f"result = {call}", f"out = ({', '.join(f'result[{i}]' for i in floats)})"]

    def _order(self) -> list[str]:
        first, *rest = self.inputs
        if first.many:
            lines = [f"order = max([n.order for n in {first.name}_nodes])"]
        else:
            lines = [f"order = {first.name}_node.order"]
        for i in rest:
            n = i.name
            if i.many:
                lines.append(f"order = max(order, *[n.order for n in {n}_nodes])")
            else:
                guard = f"{n} is not None and " if i.optional else ""
                lines += [f"if {guard}{n}_node.order > order:", f"    order = {n}_node.order"]
        return lines

    def _tracked(self) -> list[str]:
        lines = []
        for i in self.inputs:
            n = i.name
            if i.many:
                lines += [
                    f"{n}_parents = tuple([m if m.requirement is not NONE else None for m in {n}_nodes])",
                    f"{n}_tracked = any({n}_parents)",
                ]
            elif i.optional:
                lines.append(f"{n}_tracked = {n} is not None and {n}_node.requirement is not NONE")
            else:
                lines.append(f"{n}_tracked = {n}_node.requirement is not NONE")
        return lines

    # -- what the step keeps -------------------------------------------------------------------
    def _record(self) -> tuple[str, ...]:
        # an op that keeps something runs its keeping forward only when it is recorded, and a
        # memory-bound one not under Balanced either, which recomputes rather than keeps
        keeps, name = self.op.keeps, self.op.name
        lines = []
        if keeps and self.op.memory_bound:
            lines.append(
                f"out, {keeps} = ({self._call('forward')}, None) if balanced else "
                f"{self._call(f'inner.{name}_keeping')}"
            )
        elif keeps:
            lines.append(f"out, {keeps} = {self._call(f'inner.{name}_keeping')}")
        if self.op.memory_bound:  # Balanced recomputes it, when every input is tracked
            lines.append(" and ".join(["memory_bound = balanced", *self._every_tracked()]))
        saved = {v.of for v in self.rule.saved_values if v.needs is Needs.INPUT}
        for i in self.inputs:  # Balanced keeps a MemoryBound input as its Node, recomputed
            if i.many or not (self.op.memory_bound or i.name in saved):
                continue
            n = i.name
            present = f"{n} is not None and " if i.optional else ""
            lines.append(
                f"{n}_held = {n}_node if balanced and {present}{n}_node.properties is MEMORY_BOUND"
                f" else {n}_value"
            )
        if self._parents_need_inputs():
            lines.append(f"inputs = {self._inputs()}")
        return tuple(lines)

    def _every_tracked(self) -> list[str]:
        return [f"{n}_tracked" for n in self.names] if len(self.names) > 1 else []

    def _fields(self) -> tuple[tuple[str, str], ...]:
        op, memory_bound = self.op, self.op.memory_bound
        fields = [
            ("parents", self._parent_ids()),
            ("order", "order + 1"),
            ("id", "next_id()"),
            ("requirement", "TRACKED"),
            (
                "properties",
                (
                    "MEMORY_BOUND if memory_bound else COMPUTE_BOUND"
                    if memory_bound
                    else "COMPUTE_BOUND"
                ),
            ),
            ("step", "BACKWARD"),
            ("inputs", "inputs" if self._parents_need_inputs() else self._inputs()),
        ]
        if len(op.args) > 1:  # each input's shape, to undo broadcasting
            fields.append(("shapes", self._shapes()))
        if self.rule.saved:
            fields.append(("saved", _tuple(self._saved(self._saved_names()))))
        if memory_bound:
            held = _tuple([f"{a}_held" if a in self.names else a for a in op.args])
            fields.append(("recipe", f"{held} if memory_bound else None"))
        return tuple(fields)

    def _inputs(self) -> str:
        """Node.inputs: per float input its Node if tracked, else None (a tuple for a list)."""
        return f"[{', '.join(self._parent(i) for i in self.inputs)}]"

    def _parent(self, i: FloatInput) -> str:
        if i.many:
            return f"{i.name}_parents"
        if len(self.inputs) == 1:
            return f"{i.name}_node"  # the only input, tracked by now
        return f"{i.name}_node if {i.name}_tracked else None"

    def _parents_need_inputs(self) -> bool:
        inputs = self.inputs
        return any(i.many or i.optional for i in inputs) or len(inputs) > 2

    def _parent_ids(self) -> str:
        inputs = self.inputs
        if not self._parents_need_inputs() and len(inputs) == 1:
            return f"[{inputs[0].name}_node.id]"
        if not self._parents_need_inputs():
            a, b = (i.name for i in inputs)
            return (
                f"[{a}_node.id, {b}_node.id] if {a}_tracked and {b}_tracked "
                f"else [{a}_node.id] if {a}_tracked else [{b}_node.id]"
            )
        if not any(i.many for i in inputs):
            return "[m.id for m in inputs if m is not None]"
        parts = [f"*{i.name}_parents" if i.many else f"inputs[{k}]" for k, i in enumerate(inputs)]
        every = parts[0][1:] if len(parts) == 1 else f"({', '.join(parts)})"
        return f"[m.id for m in {every} if m is not None]"

    def _shapes(self) -> str:
        shapes = []
        for i in self.inputs:
            n = i.name
            if i.many:
                shapes.append(f"tuple([v.shape for v in {n}_value])")
            elif i.optional:
                shapes.append(f"None if {n} is None else {n}_value.shape")
            else:
                shapes.append(f"{n}_value.shape")
        return f"[{', '.join(shapes)}]"

    def _saved_names(self) -> list[tuple[Needed, list[str]]]:
        """Each value of rule.saved, with the inputs whose VJPs need it."""
        needs = self.rule.needs
        return [
            (v, [n for n, need in zip(self.names, needs) if v.name in need])
            for v in self.rule.saved_values
        ]

    def _saved(self, saved_names) -> list[str]:
        """rule.saved's values in order: one that every input's VJP needs is saved whatever is
        tracked (one input at least is, by now); another only if an input that needs it is."""
        values = []
        for needed, needed_by in saved_names:
            value = self._saved_value(needed)
            if len(needed_by) < len(self.names):
                if needed.needs is Needs.OUTPUT and self.op.memory_bound:  # a conditional
                    value = f"({value})"
                value += f" if {' or '.join(f'{n}_tracked' for n in needed_by)} else None"
            values.append(value)
        return values

    def _saved_value(self, needed: Needed) -> str:
        op, of = self.op, needed.of
        many = {i.name: i.many for i in self.inputs}
        match needed.needs:
            case Needs.OUTPUT:
                return "SELF if memory_bound else out" if op.memory_bound else "out"
            case Needs.KEPT | Needs.ARGUMENT:
                return of
            case Needs.INDICES:  # the int output of a (float, int) op
                (index,) = [i for i in range(op.outputs) if i not in op.float_outputs]
                return f"result[{index}]"
            case Needs.INPUT:
                return f"{of}_value" if many[of] else f"{of}_held"
        read = _READ[needed.needs]  # an input's shape, device or dtype
        return (
            f"[{read.format('v')} for v in {of}_value]" if many[of] else read.format(f"{of}_value")
        )

    # -- the outputs ---------------------------------------------------------------------------
    def _wrap(self, node: str) -> str:
        """The result with its one float output wrapped as an AutodiffTensor."""
        if self.single:
            return f"AutodiffTensor(out, {node})"
        return _tuple(
            f"AutodiffTensor(out, {node})" if i in self.op.float_outputs else f"result[{i}]"
            for i in range(self.op.outputs)
        )

    def _untracked(self) -> str:
        return _tuple(
            (
                f"AutodiffTensor(result[{i}], untracked_node(order))"
                if i in self.op.float_outputs
                else f"result[{i}]"
            )
            for i in range(self.op.outputs)
        )

    def _hub_outputs(self) -> str:
        """Several float outputs: each its own Node, a child of the op's node (the hub)."""
        count = len(self.op.float_outputs)
        parts, slot = [], 0
        for i in range(self.op.outputs):
            if i not in self.op.float_outputs:
                parts.append(f"result[{i}]")
                continue
            parts.append(f"AutodiffTensor(result[{i}], output_node(hub, {slot}, {count}))")
            slot += 1
        return _tuple(parts)


def _tuple(items) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
