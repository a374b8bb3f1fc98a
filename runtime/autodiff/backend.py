"""The Autodiff decorator: `Autodiff[inner backend, strategy]`, one specialization per pair.

Only float tensors change: their primitive becomes an AutodiffTensor. Int and bool tensors, the
device and every non-float op pass through to the inner backend. Each float op of the
catalogue becomes a method of the specialization, built once from its AutodiffOp (generated
from ops.yaml) and its backward rule (runtime/autodiff/rules).
"""

from dataclasses import dataclass

from runtime.autodiff import graph
from runtime.autodiff.checkpoint import BalancedCheckpointing, CheckpointStrategy, NoCheckpointing
from runtime.autodiff.node import ComputingProperty, Node, NodeId, Requirement
from runtime.autodiff.rules import Rule
from runtime.autodiff.steps import SELF, UNTRACKED_STEP, OpsStep, RetroForward
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
        return lambda *args: self._record(op, rule, forward, args)

    def _record(self, op: AutodiffOp, rule: Rule, forward, args):
        positions = op.float_inputs
        inputs = [args[i] for i in positions]  # AutodiffTensors; a list of them for `tensors`
        call = list(args)
        nodes = []
        for i, tensor in zip(positions, inputs):
            if type(tensor) is list:  # each element is an input, and a parent, of its own
                call[i] = [t.primitive for t in tensor]
                nodes += [t.node for t in tensor]
            else:
                call[i] = tensor.primitive
                nodes.append(tensor.node)
        result = forward(*call)
        out = result if op.float_output is None else result[op.float_output]
        order = max(n.order for n in nodes) + 1
        if Requirement.from_nodes(nodes) is NONE:
            # Seed: an op on untracked inputs still registers its (empty) step.
            node = Node((), order, NodeId.new(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)
            return self._outputs(op, result, AutodiffTensor(out, node))

        strategy = self.strategy
        tracked = tuple(_tracked(tensor) for tensor in inputs)
        memory_bound = strategy.memory_bound(op.memory_bound, nodes)
        saved = {}
        for vjp_needs, parent in zip(rule.needs, tracked):
            if parent is None or type(parent) is tuple and parent.count(None) == len(parent):
                continue
            for name in vjp_needs:
                if name not in saved:
                    saved[name] = self._save(name, op, args, result, out, memory_bound)
        retro_forward = None
        if memory_bound:  # never for a list input: ops.yaml declares those compute_bound
            recipe = list(call)
            for i, tensor in zip(positions, inputs):
                recipe[i] = strategy.checkpoint(tensor)
            retro_forward = RetroForward(forward, tuple(recipe), positions)
        step = OpsStep(
            rule,
            self.inner,
            tracked,
            tuple(_shape(tensor) for tensor in inputs),
            saved,
            retro_forward,
        )
        parents = tuple(n.id for n in nodes if n.requirement is not NONE)
        properties = MEMORY_BOUND if memory_bound else COMPUTE_BOUND
        node = Node(parents, order, NodeId.new(), TRACKED, properties, step)
        return self._outputs(op, result, AutodiffTensor(out, node))

    def _save(self, name, op, args, result, out, memory_bound):
        if name == "out":
            return SELF if memory_bound else out
        if name == "indices" and op.float_output is not None:  # a (values, indices) op's int
            # output (gather and kin have an *argument* named indices instead)
            return result[1 - op.float_output]
        if name not in op.args:  # `<input>_shape`, `<input>_device` or `<input>_dtype`
            input_name, _, what = name.rpartition("_")
            tensor = args[op.args.index(input_name)]
            if type(tensor) is list:
                return [self._describe(what, t.primitive) for t in tensor]
            return self._describe(what, tensor.primitive)
        index = op.args.index(name)
        value = args[index]
        if index not in op.float_inputs:
            return value
        if type(value) is list:  # kept: the Checkpointer recomputes single values only
            return [t.primitive for t in value]
        return self.strategy.checkpoint(value)

    def _describe(self, what, primitive):
        if what == "shape":
            return primitive.shape
        if what == "device":
            return self.inner.device_of(primitive)
        return self.inner.dtype(primitive)

    @staticmethod
    def _outputs(op, result, float_output):
        if op.float_output is None:
            return float_output
        result = list(result)
        result[op.float_output] = float_output
        return tuple(result)


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
