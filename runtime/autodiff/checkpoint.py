"""Gradient checkpointing: the strategies (forward time) and the Checkpointer (backward time).

NoCheckpointing keeps every value a backward rule asks for. BalancedCheckpointing keeps, for a
MemoryBound op whose inputs are all tracked, only a recipe (its call arguments); a consumer that
needs such an output saves a reference to its Node, and the Checkpointer recomputes it during
backward from its parents (themselves kept or recomputed), holding each recomputed value only
until its last reader has taken it. A recipe keeps its op's inputs that cannot be recomputed
(burn's Backup actions) until a backward starts; then the recipes nobody needs are dropped, and
each needed one right after it has run (docs/semantics.md#gradient-checkpointing).
"""

from burnpy.runtime.activity import from_origin
from burnpy.runtime.autodiff.node import Node
from burnpy.runtime.autodiff.steps import ROOT_STEP, SELF


class CheckpointStrategy:
    name: str
    # Can a declared MemoryBound op be recomputed instead of kept? If so, a step keeps each
    # MemoryBound input as its Node, to recompute (the op recorder does this inline, per input).
    recomputes: bool

    def __repr__(self):
        return self.name


class NoCheckpointing(CheckpointStrategy):
    """Every op is ComputeBound: whatever backward needs is kept from the forward pass."""

    name = "NoCheckpointing"
    recomputes = False


class BalancedCheckpointing(CheckpointStrategy):
    """Declared MemoryBound ops are recomputed, unless an input is untracked (then ComputeBound).
    Only a MemoryBound node has a recipe, until a backward consumes its step (after which no new
    op can use it: its graph raises GraphConsumed)."""

    name = "BalancedCheckpointing"
    recomputes = True


class Checkpointer:
    """Recomputes MemoryBound values during one backward pass, each once, holding each value
    only until its last reader has taken it (burn's BackwardStates with their `n_required`)."""

    __slots__ = ("needed", "cache", "recipes")

    def __init__(self, tape):
        self.needed: dict[int, int] = {}  # node id -> reads still to come
        self.cache: dict[int, object] = {}  # node id -> recomputed value
        self.recipes: dict[int, object] = {}  # id -> (Backward, recipe, its inputs), until run
        for node in tape:
            if node.step is ROOT_STEP:
                continue
            for value in node.saved:
                if value is SELF:
                    self._count(node)
                elif isinstance(value, Node):
                    self._count(value)
        # Every step of the tape is consumed by this pass, so the recipes leave their steps now:
        # a needed one runs once and is dropped with the inputs it kept; the others are dropped
        # here (burn drops unused Backup actions when it builds the checkpointer).
        for node in tape:
            recipe = node.recipe
            if recipe is not None:
                if node.id in self.needed:
                    backward = node.step
                    self.recipes[node.id] = (backward, recipe, backward.recipe_inputs(recipe))
                node.recipe = None

    def _count(self, node: Node) -> None:
        # A value is recomputed once, so its recipe's inputs are counted once, on first sight.
        stack = [node]
        while stack:
            node = stack.pop()
            key = node.id
            if key in self.needed:
                self.needed[key] += 1
                continue
            self.needed[key] = 1
            stack.extend(v for v in node.step.recipe_inputs(node.recipe) if type(v) is Node)

    def resolve(self, value, owner: Node):
        if value is SELF:
            return self.retrieve(owner)
        if isinstance(value, Node):
            return self.retrieve(value)
        return value

    def retrieve(self, node: Node):
        """The node's value; the last reader takes it out of the cache."""
        key = node.id
        if key not in self.cache:
            self._recompute(node)
        remaining = self.needed[key] - 1
        if remaining:
            self.needed[key] = remaining
            return self.cache[key]
        del self.needed[key]
        return self.cache.pop(key)

    def _recompute(self, target: Node) -> None:
        # Post-order over the recipe inputs not yet in the cache, without Python recursion.
        stack = [target]
        while stack:
            node = stack[-1]
            key = node.id
            if key in self.cache:  # an input listed twice (x * x) is computed once
                stack.pop()
                continue
            backward, recipe, inputs = self.recipes[key]
            missing = [v for v in inputs if type(v) is Node and v.id not in self.cache]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            del self.recipes[key]
            with from_origin(backward.recompute_origin):
                self.cache[key] = backward.recompute(recipe, self.retrieve)
