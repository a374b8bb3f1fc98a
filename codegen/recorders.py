"""The Autodiff decorator's recorder of each differentiable op, as typed values: what it binds,
runs, tests, saves and links.

A recorder runs the op's forward on the inner backend, then makes the output's Node and the
state its step needs (burn's `OpsStep`): which inputs are tracked, what their VJPs need saved,
and, under BalancedCheckpointing, the recipe that recomputes a memory-bound output. Everything
it decides depends only on the op (`AutodiffOp`), its backward rule (`rule_for(op)`) and the
strategy, so `recorder(op)` decides it here, at generate time, into a `Recorder`: each value
says what a statement is, never how it is spelled. `templates/recorder.jinja` has one macro
per kind of value and lays them out (black breaks the long lines, as for every generated file).

One factory per op serves both strategies: the Autodiff specialization binds it to its forward
kernel, its shared `BACKWARD` step, its inner backend and `balanced` (BalancedCheckpointing),
the one thing the strategies differ by.

The rule's signature (runtime/autodiff/rules) says what each VJP needs; only what the VJPs of
the *tracked* inputs name is saved (burn: `mul` keeps lhs only when rhs needs a gradient).
"""

from dataclasses import dataclass
from enum import Enum

from burnpy.runtime.autodiff.ops import AutodiffOp, FloatInput, rule_for
from burnpy.runtime.autodiff.rules import Needed, Needs, Rule

# -- the model ---------------------------------------------------------------------------------


class Passing(Enum):
    """How a float input reaches the recorder, which says how it is bound, ordered and tracked."""

    PLAIN = "a tensor"
    OPTIONAL = "a tensor or None: None is no parent, and nothing is saved for it"
    LIST = "a list of tensors (cat): each element a parent of its own"


@dataclass(frozen=True)
class Input:
    """A float input, bound as `<name>_node` and `<name>_value` (`<name>_nodes` for a list)."""

    name: str
    passing: Passing


@dataclass(frozen=True)
class Argument:
    """One of the op's arguments as the forward (and the recipe) is called with it: a float
    input's primitive (in the recipe: what is held of it), else the argument itself."""

    name: str
    tensor: bool


class Outputs(Enum):
    """What an op returns: what `out` is, and where each float result gets its Node."""

    ONE = "one float tensor: `out`, linked to the op's Node"
    ONE_FLOAT = "several results, one of them float (values, indices): `out` is that one"
    SEVERAL_FLOATS = "several float results: `out` is their tuple, the op's Node is their hub"


@dataclass(frozen=True)
class Forward:
    """The forward, run before anything is decided: `out = forward(...)`, or, for several
    results, `result = forward(...)` and `out` its float ones."""

    outputs: Outputs
    floats: tuple[int, ...]  # the float results' positions


@dataclass(frozen=True)
class Keeping:
    """The forward of an op that keeps something for its backward (ops.yaml's `keeps`): run
    only once the op is recorded, as `inner.<op>_keeping`, which returns `out` and the kept
    value. `recomputed`: a memory-bound op, which Balanced recomputes rather than keeps, runs the
    plain forward there and keeps None."""

    kernel: str
    kept: str
    recomputed: bool


class Link(Enum):
    """The Node a float result is returned with."""

    UNTRACKED = "a new untracked Node: no input is tracked"
    OWN = "the op's Node"
    HUB = "a Node of its own, a child of the op's Node (the hub)"


class Source(Enum):
    """Where a returned result is read from."""

    OUT = "`out`, the op's one float result"
    RESULT = "`result[position]`"
    FORWARD = "the forward's call: an op that keeps runs it only when recorded"


@dataclass(frozen=True)
class Output:
    """One result as the recorder returns it: a float one wrapped as an AutodiffTensor with its
    Node (`link`), an int one (`link` None) as the forward gave it."""

    position: int
    source: Source
    link: Link | None = None
    slot: int = 0  # a HUB Node's index among the op's float results
    slots: int = 0  # how many float results the hub has


@dataclass(frozen=True)
class Recompute:
    """BalancedCheckpointing recomputes a memory-bound output rather than keep it, when every
    input is tracked: `memory_bound` says so at run time, and the Node holds the recipe (the
    forward's arguments, a float input as held)."""

    every: tuple[Input, ...]  # the inputs tested; none when the only one is tracked by now


class Parents(Enum):
    """How the Node's parents (the ids of its tracked inputs' Nodes) are listed."""

    ONLY = "the only input's: tracked by now"
    EITHER = "of two inputs, those tracked"
    INPUTS = "those of the local `inputs` that are not None"
    ELEMENTS = "those of `inputs` that are not None, a list's elements each one of them"


@dataclass(frozen=True)
class Saved:
    """A value of the step's `saved` tuple: the rule's name for it and what it stands for
    (`needed`), saved only when one of `when` is tracked (always when `when` is empty: every
    input's VJP needs it)."""

    needed: Needed
    when: tuple[Input, ...] = ()
    input: Input | None = None  # the float input an INPUT, SHAPE, DEVICE or DTYPE is read from
    position: int = 0  # INDICES: the int result's position
    recomputed: bool = False  # OUTPUT: Balanced may recompute it, saving SELF


@dataclass(frozen=True)
class NodeFields:
    """The Node's fields, as `new_node(...)` is called with them (runtime/autodiff/node.py)."""

    parents: Parents
    inputs: tuple[Input, ...]  # Node.inputs: per input its Node if tracked, else None
    shared: bool  # Node.inputs is first bound to the local `inputs`, which `parents` reads
    shapes: bool  # each input's shape, for the step to undo broadcasting
    saved: tuple[Saved, ...]  # rule.saved's values, in order


@dataclass(frozen=True)
class Recorder:
    """One op's recorder, statement by statement, in the order the template writes them."""

    name: str
    arguments: tuple[Argument, ...]
    inputs: tuple[Input, ...]  # bound, ordered and tested for tracking, in argument order
    forward: Forward | None  # None: the op keeps something, and runs `keeping` instead
    untracked: tuple[Output, ...]  # returned when nothing is tracked (an untracked Node each)
    keeping: Keeping | None
    recompute: Recompute | None  # None: a compute-bound op, whose output is always kept
    held: tuple[Input, ...]  # bound as `<name>_held`, its Node or its value (`_held`)
    outputs: Outputs  # names the Node's local: `out_node`, or `hub` for several float results
    node: NodeFields
    returned: tuple[Output, ...]


# the names a recorder uses besides the op's arguments
LOCALS = (
    "forward", "BACKWARD", "inner", "balanced", "result", "out", "order", "parents", "inputs",
    "out_node", "hub", "memory_bound", "untracked_node",
)  # fmt: skip


# -- the decisions -----------------------------------------------------------------------------


def recorder(op: AutodiffOp) -> Recorder:
    """The recorder of `op`, decided from the op and its rule."""
    clash = set(op.args) & {*LOCALS, *input_locals(op)}
    if clash:
        raise ValueError(f"{op.name}: argument names {sorted(clash)} clash with the recorder's")
    if op.keeps and op.outputs > 1:
        raise ValueError(f"{op.name}: an op that keeps `{op.keeps}` returns one result only")
    rule = rule_for(op)
    inputs = tuple(_input(i) for i in op.inputs)
    floats = op.float_outputs
    outputs = (
        Outputs.ONE
        if op.outputs == 1
        else Outputs.ONE_FLOAT if len(floats) == 1 else Outputs.SEVERAL_FLOATS
    )
    recompute = Recompute(inputs if len(inputs) > 1 else ()) if op.memory_bound else None
    saved = _saved(op, rule, inputs, recompute is not None)
    return Recorder(
        name=op.name,
        arguments=tuple(Argument(a, p in op.positions) for p, a in enumerate(op.args)),
        inputs=inputs,
        forward=None if op.keeps else Forward(outputs, floats),
        untracked=_returned(op, Link.UNTRACKED, outputs),
        keeping=(Keeping(f"{op.name}_keeping", op.keeps, op.memory_bound) if op.keeps else None),
        recompute=recompute,
        held=_held(inputs, saved, recompute),
        outputs=outputs,
        node=NodeFields(
            parents=_parents(inputs),
            inputs=inputs,
            shared=_shared(inputs),
            shapes=len(op.args) > 1,  # an op of one argument broadcasts nothing
            saved=saved,
        ),
        returned=_returned(
            op, Link.HUB if outputs is Outputs.SEVERAL_FLOATS else Link.OWN, outputs
        ),
    )


def _input(i: FloatInput) -> Input:
    passing = Passing.LIST if i.many else Passing.OPTIONAL if i.optional else Passing.PLAIN
    return Input(i.name, passing)


def input_locals(op: AutodiffOp) -> list[str]:
    whats = ("node", "nodes", "value", "tracked", "held", "parents")
    return [f"{i.name}_{what}" for i in op.inputs for what in whats]


def _shared(inputs: tuple[Input, ...]) -> bool:
    """Whether Node.inputs is bound first, for `parents` to read: past two plain inputs the
    parents are listed from it rather than spelled out."""
    return len(inputs) > 2 or any(i.passing is not Passing.PLAIN for i in inputs)


def _parents(inputs: tuple[Input, ...]) -> Parents:
    if any(i.passing is Passing.LIST for i in inputs):
        return Parents.ELEMENTS
    if _shared(inputs):
        return Parents.INPUTS
    return Parents.ONLY if len(inputs) == 1 else Parents.EITHER


def _saved(op: AutodiffOp, rule: Rule, inputs: tuple[Input, ...], recomputes: bool):
    """rule.saved's values in order: one that every input's VJP needs is saved whatever is
    tracked (one input at least is, by now); another only if an input that needs it is."""
    by_name = {i.name: i for i in inputs}
    values = []
    for needed in rule.saved_values:
        needed_by = tuple(i for i, needs in zip(inputs, rule.needs) if needed.name in needs)
        values.append(
            Saved(
                needed,
                when=needed_by if len(needed_by) < len(inputs) else (),
                input=by_name.get(needed.of) if needed.needs in _OF_AN_INPUT else None,
                position=_int_result(op) if needed.needs is Needs.INDICES else 0,
                recomputed=recomputes and needed.needs is Needs.OUTPUT,
            )
        )
    return tuple(values)


def _held(inputs, saved: tuple[Saved, ...], recompute: Recompute | None) -> tuple[Input, ...]:
    """The inputs a step holds (for its VJPs, or in the recipe): Balanced holds a MemoryBound
    one as its Node, recomputed in backward rather than kept. A list is held as its values."""
    saved_inputs = {s.input for s in saved if s.needed.needs is Needs.INPUT}
    return tuple(
        i
        for i in inputs
        if i.passing is not Passing.LIST and (recompute is not None or i in saved_inputs)
    )


def _int_result(op: AutodiffOp) -> int:
    """The position of the int result of a (values, indices) op."""
    (position,) = [p for p in range(op.outputs) if p not in op.float_outputs]
    return position


# what is read from a float input: its value, shape, device or dtype
_OF_AN_INPUT = {Needs.INPUT, Needs.SHAPE, Needs.DEVICE, Needs.DTYPE}


def _returned(op: AutodiffOp, link: Link, outputs: Outputs) -> tuple[Output, ...]:
    """The results, each float one linked to its Node: before the op is recorded, an op that
    keeps has not run its forward yet; `out` holds a single float result, `result` several."""
    if op.keeps:
        return (Output(0, Source.FORWARD if link is Link.UNTRACKED else Source.OUT, link),)
    source = Source.RESULT if outputs is Outputs.SEVERAL_FLOATS else Source.OUT
    floats = op.float_outputs

    def output(position: int) -> Output:
        if position not in floats:
            return Output(position, Source.RESULT)
        if link is Link.HUB:
            return Output(position, source, link, floats.index(position), len(floats))
        return Output(position, source, link)

    return tuple(output(p) for p in range(op.outputs))
