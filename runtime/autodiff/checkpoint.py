"""Gradient checkpointing: the strategies (forward time) and the Checkpointer (backward time).

NoCheckpointing keeps every value a backward rule asks for. BalancedCheckpointing keeps, for a
MemoryBound op whose inputs are all tracked, only a RetroForward recipe; a consumer that needs
such an output saves a reference to its Node, and the Checkpointer recomputes it during
backward from its parents (themselves kept or recomputed), holding each recomputed value only
until its last reader has taken it (burn-semantics §6).
"""

from runtime.autodiff.node import Node, Requirement
from runtime.autodiff.steps import SELF


class CheckpointStrategy:
    name: str
    recomputes: bool  # can a declared MemoryBound op be recomputed instead of kept?

    def memory_bound(self, declared_memory_bound: bool, nodes) -> bool:
        raise NotImplementedError

    def checkpoint(self, tensor):
        """What a step saves for an input it needs: its primitive, or its Node to recompute."""
        raise NotImplementedError

    def __repr__(self):
        return self.name


class NoCheckpointing(CheckpointStrategy):
    """Every op is ComputeBound: whatever backward needs is kept from the forward pass."""

    name = "NoCheckpointing"
    recomputes = False

    def memory_bound(self, declared_memory_bound, nodes):
        return False

    def checkpoint(self, tensor):
        return tensor.primitive


class BalancedCheckpointing(CheckpointStrategy):
    """Declared MemoryBound ops are recomputed, unless an input is untracked (then ComputeBound)."""

    name = "BalancedCheckpointing"
    recomputes = True

    def memory_bound(self, declared_memory_bound, nodes):
        if not declared_memory_bound:
            return False
        for node in nodes:
            if node.requirement is Requirement.None_:
                return False
        return True

    def checkpoint(self, tensor):
        node = tensor.node
        recomputable = getattr(node.step, "retro_forward", None) is not None
        return node if recomputable else tensor.primitive


class Checkpointer:
    """Recomputes MemoryBound values during one backward pass, each exactly as often as needed."""

    __slots__ = ("needed", "cache")

    def __init__(self, tape):
        self.needed: dict[int, int] = {}  # node id -> reads still to come
        self.cache: dict[int, object] = {}  # node id -> recomputed value
        for node in tape:
            saved = getattr(node.step, "saved", None)
            if saved:
                for value in saved.values():
                    if value is SELF:
                        self._count(node)
                    elif isinstance(value, Node):
                        self._count(value)

    def _count(self, node: Node) -> None:
        # A value is recomputed once, so its recipe's inputs are counted once, on first sight.
        stack = [node]
        while stack:
            node = stack.pop()
            key = node.id.value
            if key in self.needed:
                self.needed[key] += 1
                continue
            self.needed[key] = 1
            stack.extend(v for v in node.step.retro_forward.inputs() if isinstance(v, Node))

    def resolve(self, value, owner: Node):
        if value is SELF:
            return self.retrieve(owner)
        if isinstance(value, Node):
            return self.retrieve(value)
        return value

    def retrieve(self, node: Node):
        """The node's value; the last reader takes it out of the cache."""
        key = node.id.value
        if key not in self.cache:
            self._recompute(node)
        remaining = self.needed[key] - 1
        if remaining:
            self.needed[key] = remaining
            return self.cache[key]
        del self.needed[key]
        return self.cache.pop(key)

    def _recompute(self, target: Node) -> None:
        # Post-order over the not-yet-computed recipe inputs, without Python recursion.
        stack = [(target, False)]
        while stack:
            node, inputs_ready = stack.pop()
            key = node.id.value
            if key in self.cache:
                continue
            recipe = node.step.retro_forward
            if not inputs_ready:
                stack.append((node, True))
                stack.extend(
                    (v, False)
                    for v in recipe.inputs()
                    if isinstance(v, Node) and v.id.value not in self.cache
                )
                continue
            args = list(recipe.args)
            for i in recipe.float_positions:
                if isinstance(args[i], Node):
                    args[i] = self.retrieve(args[i])
            self.cache[key] = recipe.forward(*args)
