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
        """The op's method: forward on the inner backend, then its Node and OpsStep. Everything
        that depends only on the op (what to save and how) is worked out here, once."""
        positions = op.float_inputs
        only_floats = positions == tuple(range(len(op.args)))  # no non-tensor argument
        float_output = op.float_output
        strategy, inner = self.strategy, self.inner
        checkpoint = strategy.checkpoint
        may_recompute = op.memory_bound and strategy.recomputes
        saving = {name: self._saver(op, name) for needs in rule.needs for name in needs}
        needs = rule.needs
        lists = op.lists
        broadcasts = len(op.args) > 1  # only an op of one argument surely cannot broadcast

        def record(*args):
            if lists:
                inputs = [args[i] for i in positions]  # AutodiffTensors; a list for `tensors`
                call, nodes, tracked = _gather(args, positions, inputs)
            else:
                inputs = args if only_floats else [args[i] for i in positions]
                nodes = [t.node for t in inputs]
                call = [t.primitive for t in inputs]
                if not only_floats:
                    primitives, call = call, list(args)
                    for i, primitive in zip(positions, primitives):
                        call[i] = primitive
                tracked = tuple([n if n.requirement is not NONE else None for n in nodes])
            result = forward(*call)
            out = result if float_output is None else result[float_output]
            order = 0
            for node in nodes:
                if node.order > order:
                    order = node.order
            parents = tuple([n.id for n in nodes if n.requirement is not NONE])
            if not parents:
                # Seed: an op on untracked inputs still registers its (empty) step.
                node = Node((), order + 1, NodeId.new(), NONE, COMPUTE_BOUND, UNTRACKED_STEP)
                return _outputs(float_output, result, AutodiffTensor(out, node))

            # an untracked input makes a declared memory-bound op compute-bound (burn §6.1)
            memory_bound = may_recompute and len(parents) == len(nodes)
            saved = {}
            for vjp_needs, parent in zip(needs, tracked):
                if parent is None or lists and type(parent) is tuple and not any(parent):
                    continue
                for name in vjp_needs:
                    if name not in saved:
                        saved[name] = saving[name](args, result, out, memory_bound)
            retro_forward = None
            if memory_bound:  # never for a list input: ops.yaml declares those compute_bound
                recipe = list(call)
                for i, tensor in zip(positions, inputs):
                    recipe[i] = checkpoint(tensor)
                retro_forward = RetroForward(forward, tuple(recipe), positions)
            # an op of several arguments may broadcast, so it keeps its inputs' shapes
            shapes = tuple([_shape(t) for t in inputs]) if broadcasts else None
            step = OpsStep(rule, inner, tracked, shapes, saved, retro_forward)
            properties = MEMORY_BOUND if memory_bound else COMPUTE_BOUND
            node = Node(parents, order + 1, NodeId.new(), TRACKED, properties, step)
            return _outputs(float_output, result, AutodiffTensor(out, node))

        return record

    def _saver(self, op: AutodiffOp, name: str):
        """How to get the value a VJP names, as `saver(args, result, out, memory_bound)`."""
        if name == "out":
            return lambda args, result, out, memory_bound: SELF if memory_bound else out
        if name == "indices" and op.float_output is not None:  # a (values, indices) op's int
            # output (gather and kin have an *argument* named indices instead)
            index = 1 - op.float_output
            return lambda args, result, out, memory_bound: result[index]
        if name not in op.args:  # `<input>_shape`, `<input>_device` or `<input>_dtype`
            input_name, _, what = name.rpartition("_")
            describe = {
                "shape": lambda p: p.shape,
                "device": self.inner.device_of,
                "dtype": self.inner.dtype,
            }[what]
            index = op.args.index(input_name)

            def description(args, result, out, memory_bound):
                tensor = args[index]
                if type(tensor) is list:
                    return [describe(t.primitive) for t in tensor]
                return describe(tensor.primitive)

            return description
        index = op.args.index(name)
        if index not in op.float_inputs:
            return lambda args, result, out, memory_bound: args[index]
        checkpoint = self.strategy.checkpoint

        def float_input(args, result, out, memory_bound):
            value = args[index]
            if type(value) is list:  # kept: the Checkpointer recomputes single values only
                return [t.primitive for t in value]
            return checkpoint(value)

        return float_input


def _outputs(float_output, result, tensor):
    """The op's results with its float output wrapped as an AutodiffTensor."""
    if float_output is None:
        return tensor
    result = list(result)
    result[float_output] = tensor
    return tuple(result)


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
