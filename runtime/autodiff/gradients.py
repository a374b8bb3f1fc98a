"""Gradients: a type-erased container of inner float primitives keyed by node id."""

from runtime.autodiff.node import Requirement


class Gradients:
    __slots__ = ("_grads",)

    def __init__(self):
        self._grads: dict[int, object] = {}

    def register(self, node_id, grad) -> None:
        """Accumulate by addition (never in place: a rule may return an alias)."""
        key = node_id.value
        old = self._grads.get(key)
        self._grads[key] = grad if old is None else old + grad

    def consume(self, node):
        """A Grad leaf keeps its entry; a GradInBackward entry is freed as it is used."""
        if node.requirement is Requirement.Grad:
            return self._grads.get(node.id.value)
        return self._grads.pop(node.id.value, None)

    def get(self, node):
        if node.requirement is Requirement.None_:
            return None  # an untracked alias of a leaf (burn 0.22.1)
        return self._grads.get(node.id.value)

    def remove(self, node):
        if node.requirement is Requirement.None_:
            return None
        return self._grads.pop(node.id.value, None)

    def replace(self, node, grad) -> None:
        self._grads[node.id.value] = grad

    def __len__(self):
        return len(self._grads)

    def __repr__(self):
        return f"Gradients({sorted(self._grads)})"
