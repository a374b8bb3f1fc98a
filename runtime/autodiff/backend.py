"""The Autodiff decorator: `Autodiff[inner backend, strategy]`, one specialization per pair.

Only float tensors change: their primitive becomes an AutodiffTensor. Int and bool tensors, the
device and every non-float op pass through to the inner backend. Each float op of the
catalogue becomes a method of the specialization, built once from its AutodiffOp (generated
from ops.yaml) and its backward rule (runtime/autodiff/rules).
"""

from dataclasses import dataclass

from runtime.autodiff import graph
from runtime.autodiff.checkpoint import (
    BalancedCheckpointing,
    CheckpointStrategy,
    NoCheckpointing,
    kept,
)
from runtime.autodiff.node import ComputingProperty, Node, Requirement, next_id
from runtime.autodiff.recorder import compile_recorder, outputs
from runtime.autodiff.rules import Rule
from runtime.autodiff.steps import UNTRACKED_STEP, Backward
from runtime.autodiff.tensor import AutodiffTensor
from runtime.device import GradientCheckpointingStrategy

NONE = Requirement.None_
TRACKED = Requirement.GradInBackward
MEMORY_BOUND = ComputingProperty.MemoryBound
COMPUTE_BOUND = ComputingProperty.ComputeBound


@dataclass(frozen=True)
class AutodiffOp:
    """What the decorator needs to know of a float op; generated from its ops.yaml entry.

    role: "record" (differentiable: a node and a step), "leaf" (the float result is a new
    untracked leaf: creation, int/bool -> float), "forward" (no float result: runs on the
    inner primitives, no graph edge).
    """

    name: str
    args: tuple[str, ...]
    float_inputs: tuple[int, ...]
    role: str
    memory_bound: bool = False
    float_output: int | None = None  # which output is the float one, for multi-output ops
    lists: bool = False  # does a float argument take a list of tensors (cat)?


# to_device to another backend: no catalogue op of its own (float_to_device routes here), but a
# recorded, compute-bound op like it. Its output lives on the target backend; its step runs on
# the source backend, whose primitive the gradient must become again (the rule moves it back).
MOVE_ACROSS = AutodiffOp("move_across", ("tensor", "target", "device"), (0,), "record")

_SPECIALIZATIONS: dict = {}


def autodiff_backend(inner, strategy: GradientCheckpointingStrategy, ops) -> "Autodiff":
    """`Autodiff<inner, C>` for a runtime strategy: made once per pair, then shared."""
    key = (inner.variant, strategy)
    backend = _SPECIALIZATIONS.get(key)
    if backend is None:
        checkpointing = (
            BalancedCheckpointing()
            if strategy is GradientCheckpointingStrategy.Balanced
            else NoCheckpointing()
        )
        backend = _SPECIALIZATIONS[key] = Autodiff(inner, checkpointing, ops)
    return backend


class Autodiff:
    def __init__(self, inner, strategy: CheckpointStrategy, ops):
        self.inner = inner
        self.variant = inner.variant
        self.strategy = strategy
        self.name = f"autodiff<{inner.name}>"
        for op in (*ops, MOVE_ACROSS):
            setattr(self, op.name, self._method(op))

    def __repr__(self):
        return f"Autodiff<{self.inner.variant}, {self.strategy}>"

    # -- AutodiffBackend ----------------------------------------------------------------------
    @staticmethod
    def from_inner(primitive) -> AutodiffTensor:
        return AutodiffTensor.new(primitive)

    @staticmethod
    def inner_primitive(tensor: AutodiffTensor):
        return tensor.primitive

    def backward(self, tensor: AutodiffTensor):
        return graph.backward(tensor, self.inner)

    # -- building the float ops ---------------------------------------------------------------
    def _method(self, op: AutodiffOp):
        forward = getattr(self.inner, op.name)
        if op.role == "leaf":
            return lambda *args: AutodiffTensor.new(forward(*args))
        positions = op.float_inputs
        if op.role == "forward":

            def forward_only(*args):
                args = list(args)
                for i in positions:
                    args[i] = args[i].primitive
                return forward(*args)

            return forward_only
        rule = Rule(
            op.name, op.args, tuple(op.args[i] for i in positions), op.float_output is not None
        )
        return self._recorder(op, rule, forward)

    def _recorder(self, op: AutodiffOp, rule: Rule, forward):
        """The op's method: forward on the inner backend, then its Node and step, compiled
        for the op (runtime/autodiff/recorder.py); an op with a list input is interpreted."""
        backward = Backward(rule, self.inner, forward, op.float_inputs)
        if not op.lists:
            return compile_recorder(op, rule, backward, self.inner, self.strategy.recomputes)
        positions = op.float_inputs
        float_output = op.float_output

        def record_list(*args):
            """Each element of the list is an input and a parent of its own; such an op is
            compute-bound (ops.yaml says so), and rare enough (cat) not to be worth compiling."""
            inputs = [args[i] for i in positions]
            call, nodes, tracked = _gather(args, positions, inputs)
            result = forward(*call)
            out = result if float_output is None else result[float_output]
            order = max(node.order for node in nodes)
            if Requirement.from_nodes(nodes) is NONE:
                node = Node((), order + 1, next_id(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)
                return _outputs(float_output, result, AutodiffTensor(out, node))
            parents = [n.id for n in nodes if n.requirement is not NONE]
            needed = {
                name
                for parent, needs in zip(tracked, rule.needs)
                if parent is not None and any_of(parent)
                for name in needs
            }
            saved = tuple(
                [
                    self._saved_value(op, name, args, result, out) if name in needed else None
                    for name in rule.saved
                ]
            )
            shapes = tuple([_shape(tensor) for tensor in inputs])
            node = Node(
                parents, order + 1, next_id(), TRACKED, COMPUTE_BOUND, backward, tracked, shapes,
                saved,
            )  # fmt: skip
            return _outputs(float_output, result, AutodiffTensor(out, node))

        return record_list

    def _saved_value(self, op: AutodiffOp, name: str, args, result, out):
        """A value a VJP of a list-input op names (what a compiled recorder writes out)."""
        if name == "out":
            return out
        if name == "indices" and op.float_output is not None:  # a (values, indices) op's int
            return result[1 - op.float_output]  # output (gather has an *argument* indices)
        if name in op.args:
            index = op.args.index(name)
            value = args[index]
            if type(value) is list:  # kept: the Checkpointer recomputes single values only
                return [t.primitive for t in value]
            if index not in op.float_inputs:
                return value
            return kept(value) if self.strategy.recomputes else value.primitive
        # `<input>_shape`, `<input>_device` or `<input>_dtype`
        input_name, _, what = name.rpartition("_")
        describe = {
            "shape": lambda p: p.shape,
            "device": self.inner.device_of,
            "dtype": self.inner.dtype,
        }[what]
        tensor = args[op.args.index(input_name)]
        if type(tensor) is list:
            return [describe(t.primitive) for t in tensor]
        return describe(tensor.primitive)


def any_of(parents) -> bool:
    """Is a parent (a tuple of them for a list input) tracked?"""
    return any(p is not None for p in parents) if type(parents) is tuple else True


def _outputs(float_output, result, tensor):
    """The op's results with its float output wrapped as an AutodiffTensor."""
    return tensor if float_output is None else outputs(float_output, result, tensor)


def _gather(args, positions, inputs):
    """The call arguments, input nodes and parents of an op with a list input (cat)."""
    call, nodes = list(args), []
    for i, tensor in zip(positions, inputs):
        if type(tensor) is list:  # each element is an input, and a parent, of its own
            call[i] = [t.primitive for t in tensor]
            nodes += [t.node for t in tensor]
        else:
            call[i] = tensor.primitive
            nodes.append(tensor.node)
    return call, nodes, tuple(_tracked(tensor) for tensor in inputs)


def _tracked(tensor):
    """A float input's parent: its Node if tracked, else None; a tuple of them for a list."""
    if type(tensor) is list:
        return tuple(_tracked(t) for t in tensor)
    node = tensor.node
    return node if node.requirement is not NONE else None


def _shape(tensor):
    if type(tensor) is list:
        return tuple(t.primitive.shape for t in tensor)
    return tensor.primitive.shape
