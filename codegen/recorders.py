"""The Autodiff decorator's recorder of each differentiable op, written out as Python source.

A recorder runs the op's forward on the inner backend, then makes the output's Node and the
state its step needs (burn's `OpsStep`): which inputs are tracked, what their VJPs need saved,
and, under BalancedCheckpointing, the recipe that recomputes a memory-bound output. Everything
it decides depends only on the op's entry, its backward rule and the strategy, so it is decided
here, at generate time, and written into `generated/recorders.py` as straight-line code: one
factory per (op, strategy) that the runtime's Autodiff specialization binds to its forward
kernel, its shared `Backward` and its inner backend.

The rule's signature (runtime/autodiff/rules) says what each VJP needs; only what the VJPs of
the *tracked* inputs name is saved (burn: `mul` keeps lhs only when rhs needs a gradient).
"""

from dataclasses import dataclass

from runtime.autodiff.rules import Rule


@dataclass(frozen=True)
class Input:
    """A float input of a recorded op."""

    name: str
    optional: bool = False  # may be None: no parent, no context, nothing saved
    many: bool = False  # a list of tensors (cat): each element an input of its own


@dataclass(frozen=True)
class Recorded:
    """What a recorder is generated from (an op of the catalogue, or the runtime's move)."""

    name: str
    args: tuple[str, ...]
    inputs: tuple[Input, ...]
    returns: tuple[str, ...]  # the result kinds, in order
    memory_bound: bool

    @property
    def float_outputs(self) -> tuple[int, ...]:
        return tuple(i for i, kind in enumerate(self.returns) if kind == "float")


@dataclass(frozen=True)
class RecorderSource:
    name: str
    saved: tuple[str, ...]  # rule.saved: the order of a step's saved values
    plain: str  # the factory's source under NoCheckpointing
    balanced: str | None  # under BalancedCheckpointing; None when it is the same code

    @property
    def saved_literal(self) -> str:
        return _tuple([f'"{n}"' for n in self.saved]) if self.saved else "()"


# the names a recorder's body uses besides the op's arguments
LOCALS = (
    "forward", "BACKWARD", "inner", "result", "out", "order", "saved", "parent_ids", "inputs",
    "shapes", "out_node", "hub", "memory_bound",
)  # fmt: skip


def rule_of(op: Recorded) -> Rule:
    names = tuple(i.name for i in op.inputs)
    return Rule(op.name, op.args, names, multi_output=len(op.returns) > 1)


def recorder_source(op: Recorded) -> RecorderSource:
    rule = rule_of(op)
    clash = set(op.args) & {*LOCALS, *_input_locals(op)}
    if clash:
        raise ValueError(f"{op.name}: argument names {sorted(clash)} clash with the recorder's")
    plain = _Writer(op, rule, recomputes=False).factory()
    balanced = _Writer(op, rule, recomputes=True).factory()
    same = balanced.replace("_balanced(", "(", 1) == plain
    return RecorderSource(op.name, rule.saved, plain, None if same else balanced)


def _input_locals(op: Recorded) -> list[str]:
    whats = ("node", "nodes", "value", "tracked", "held", "parents")
    return [f"{i.name}_{what}" for i in op.inputs for what in whats]


class _Writer:
    """The lines of one recorder: bind the inputs, forward, return early when nothing is
    tracked (the seed: an untracked op still gets a node), else save, link and wrap."""

    def __init__(self, op: Recorded, rule: Rule, recomputes: bool):
        self.op, self.rule, self.recomputes = op, rule, recomputes
        self.inputs = op.inputs
        self.names = [i.name for i in op.inputs]
        # Balanced recomputes a memory-bound op's output, when every input is tracked
        self.memory_bound = op.memory_bound and recomputes
        self.lines: list[str] = []

    def emit(self, *lines: str) -> None:
        self.lines += [f"        {line}" if line else "" for line in lines]

    def factory(self) -> str:
        op = self.op
        suffix = "_balanced" if self.recomputes else ""
        head = [
            f"def record_{op.name}{suffix}(forward, BACKWARD, inner):",
            f"    def {op.name}({', '.join(op.args)}):",
        ]
        self._bind()
        self._forward()
        self._untracked()
        self._record()
        return "\n".join(head + self.lines + ["", f"    return {op.name}"]) + "\n"

    # -- the steps -----------------------------------------------------------------------------
    def _bind(self) -> None:
        for i in self.inputs:
            n = i.name
            if i.many:
                self.emit(
                    f"{n}_nodes = [t.node for t in {n}]", f"{n}_value = [t.primitive for t in {n}]"
                )
            elif i.optional:
                self.emit(
                    f"if {n} is None:",
                    f"    {n}_node = {n}_value = None",
                    "else:",
                    f"    {n}_node = {n}.node",
                    f"    {n}_value = {n}.primitive",
                )
            else:
                self.emit(f"{n}_node = {n}.node", f"{n}_value = {n}.primitive")

    def _forward(self) -> None:
        op = self.op
        call = [f"{a}_value" if a in self.names else a for a in op.args]
        self.emit(f"result = forward({', '.join(call)})")
        floats = op.float_outputs
        if op.returns == ("float",):
            self.emit("out = result")
        elif len(floats) == 1:
            self.emit(f"out = result[{floats[0]}]")
        else:
            self.emit(f"out = ({', '.join(f'result[{i}]' for i in floats)})")
        first, *rest = self.inputs
        if first.many:
            self.emit(f"order = max([n.order for n in {first.name}_nodes])")
        else:
            self.emit(f"order = {first.name}_node.order")
        for i in rest:
            n = i.name
            if i.many:
                self.emit(f"order = max(order, *[n.order for n in {n}_nodes])")
            else:
                guard = f"{n} is not None and " if i.optional else ""
                self.emit(f"if {guard}{n}_node.order > order:", f"    order = {n}_node.order")
        for i in self.inputs:
            n = i.name
            if i.many:
                self.emit(
                    f"{n}_parents = tuple([m if m.requirement is not NONE else None for m in {n}_nodes])",
                    f"{n}_tracked = any({n}_parents)",
                )
            elif i.optional:
                self.emit(f"{n}_tracked = {n} is not None and {n}_node.requirement is not NONE")
            else:
                self.emit(f"{n}_tracked = {n}_node.requirement is not NONE")

    def _untracked(self) -> None:
        tracked = " or ".join(f"{n}_tracked" for n in self.names)
        tracked = f"({tracked})" if len(self.names) > 1 else tracked
        self.emit(f"if not {tracked} or GRAD_MODE.paused:")  # inside `no_grad`: record nothing
        if len(self.op.float_outputs) == 1:
            self.emit(
                "    out_node = Node([], order + 1, next_id(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)",
                f"    return {self._wrap()}",
            )
        else:
            self.emit(f"    return {self._wrap_untracked_outputs()}")

    def _record(self) -> None:
        names, memory_bound = self.names, self.memory_bound
        if memory_bound:
            every = " and ".join(f"{n}_tracked" for n in names)
            self.emit(f"memory_bound = {every if len(names) > 1 else True}")
        saved_names = self._saved_names()
        if self.recomputes:  # a MemoryBound input is kept as its Node, recomputed in backward
            for i in self.inputs:
                if i.many or not (memory_bound or i.name in dict(saved_names)):
                    continue
                n = i.name
                held = f"{n}_node if {n}_node.properties is MEMORY_BOUND else {n}_value"
                self.emit(
                    f"{n}_held = None if {n} is None else ({held})"
                    if i.optional
                    else f"{n}_held = {held}"
                )
        self.emit(f"saved = {_tuple(self._saved(saved_names))}")
        self.emit(f"inputs = [{', '.join(self._parent(i) for i in self.inputs)}]")
        self.emit(f"parent_ids = {self._parent_ids()}")
        self.emit(f"shapes = {self._shapes()}")
        recipe, properties = "None", "COMPUTE_BOUND"
        if memory_bound:
            held = _tuple([f"{a}_held" if a in names else a for a in self.op.args])
            recipe = f"{held} if memory_bound else None"
            properties = "MEMORY_BOUND if memory_bound else COMPUTE_BOUND"
        node = "out_node" if len(self.op.float_outputs) == 1 else "hub"
        args = [
            "parent_ids", "order + 1", "next_id()", "TRACKED", properties, "BACKWARD", "inputs",
            "shapes", "saved", recipe,
        ]  # fmt: skip
        self.emit(*_call(f"{node} = Node(", args, indent=8))
        self.emit(f"return {self._wrap() if node == 'out_node' else self._wrap_hub_outputs()}")

    # -- expressions ---------------------------------------------------------------------------
    def _parent(self, i: Input) -> str:
        """A float input's entry of Node.inputs: its Node if tracked, else None (a tuple of
        them for a list)."""
        if i.many:
            return f"{i.name}_parents"
        if len(self.inputs) == 1:
            return f"{i.name}_node"  # the only input, tracked by now
        return f"{i.name}_node if {i.name}_tracked else None"

    def _parent_ids(self) -> str:
        inputs = self.inputs
        simple = not any(i.many or i.optional for i in inputs)
        if simple and len(inputs) == 1:
            return f"[{inputs[0].name}_node.id]"
        if simple and len(inputs) == 2:
            a, b = (i.name for i in inputs)
            return (
                f"[{a}_node.id, {b}_node.id] if {a}_tracked and {b}_tracked "
                f"else [{a}_node.id] if {a}_tracked else [{b}_node.id]"
            )
        parts = [f"*{i.name}_parents" if i.many else f"inputs[{k}]" for k, i in enumerate(inputs)]
        return f"[m.id for m in ({', '.join(parts)},) if m is not None]"

    def _shapes(self) -> str:
        """Each input's shape, to undo broadcasting; None when no input can broadcast (an op of
        one argument)."""
        if len(self.op.args) == 1:
            return "None"
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

    def _saved_names(self) -> list[tuple[str, list[str]]]:
        """Each name of rule.saved, with the inputs whose VJPs need it."""
        needs = self.rule.needs
        return [
            (v, [n for n, need in zip(self.names, needs) if v in need]) for v in self.rule.saved
        ]

    def _saved(self, saved_names) -> list[str]:
        """rule.saved's values in order: one that every input's VJP needs is saved whatever is
        tracked (one input at least is, by now); another only if an input that needs it is."""
        values = []
        for name, needed_by in saved_names:
            value = self._saved_value(name)
            if len(needed_by) < len(self.names) or any(i.optional for i in self.inputs):
                value = f"({value})" if " if " in value else value
                value += f" if {' or '.join(f'{n}_tracked' for n in needed_by)} else None"
            values.append(value)
        return values

    def _saved_value(self, name: str) -> str:
        op = self.op
        if name == "out":
            return "SELF if memory_bound else out" if self.memory_bound else "out"
        if name == "indices" and name not in op.args:  # the int output of a (float, int) op
            (index,) = [i for i, kind in enumerate(op.returns) if kind != "float"]
            return f"result[{index}]"
        by_name = {i.name: i for i in self.inputs}
        if name in by_name:
            many = by_name[name].many
            return f"{name}_held" if self.recomputes and not many else f"{name}_value"
        if name in op.args:
            return name
        # `<input>_shape`, `<input>_device` or `<input>_dtype`
        input_name, _, what = name.rpartition("_")
        of = {
            "shape": "{}.shape",
            "device": "inner.device_of({})",
            "dtype": "inner.dtype({})",
        }[what]
        if by_name[input_name].many:
            return f"[{of.format('v')} for v in {input_name}_value]"
        return of.format(f"{input_name}_value")

    def _wrap(self) -> str:
        """The result with its one float output wrapped as an AutodiffTensor."""
        returns = self.op.returns
        if returns == ("float",):
            return "AutodiffTensor(out, out_node)"
        parts = [
            "AutodiffTensor(out, out_node)" if kind == "float" else f"result[{i}]"
            for i, kind in enumerate(returns)
        ]
        return _tuple(parts)

    def _wrap_untracked_outputs(self) -> str:
        untracked = "Node([], order + 1, next_id(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)"
        parts = [
            f"AutodiffTensor(result[{i}], {untracked})" if kind == "float" else f"result[{i}]"
            for i, kind in enumerate(self.op.returns)
        ]
        return _tuple(parts)

    def _wrap_hub_outputs(self) -> str:
        """Several float outputs: each its own Node, a child of the op's node (the hub, whose
        step runs the rule) through a step that puts its gradient in its slot of the hub's."""
        count = len(self.op.float_outputs)
        parts, slot = [], 0
        for i, kind in enumerate(self.op.returns):
            if kind != "float":
                parts.append(f"result[{i}]")
                continue
            node = (
                f"Node([hub.id], order + 2, next_id(), TRACKED, COMPUTE_BOUND, "
                f"output_step({slot}, {count}), [hub])"
            )
            parts.append(f"AutodiffTensor(result[{i}], {node})")
            slot += 1
        return _tuple(parts)


def _call(head: str, args: list[str], indent: int) -> list[str]:
    """`head` + args + `)` on one line if it fits, else one argument a line, as black lays out a
    call that cannot fit (so the file needs no formatter)."""
    line = f"{head}{', '.join(args)})"
    if indent + len(line) <= 100:
        return [line]
    return [head, *(f"    {a}," for a in args), ")"]


def _tuple(items) -> str:
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
