"""Gradients: a type-erased container of inner float primitives keyed by node id."""

from burnpy.runtime.activity import from_origin
from burnpy.runtime.autodiff.node import NONE


class Gradients:
    """What backward returns: the gradient of every Grad leaf it reached, by node id.

    During backward it also holds the GradInBackward gradients still to be used; each leaves the
    container (and is freed) as soon as the step of its node has run.
    """

    __slots__ = ("_grads", "_owned")

    def __init__(self):
        self._grads: dict[int, object] = {}
        # Ids whose entry is a sum this container allocated: nobody else sees that buffer, so
        # further contributions are added in place instead of allocating a new sum each time.
        self._owned: set[int] = set()

    def register(self, node_id, grad) -> None:
        """Accumulate `grad` into the entry of `node_id`.

        A rule may return an alias (add's VJP returns `g` to both inputs, a reduction's VJP a
        broadcast view), so a registered value is never written to; the first sum is a new
        buffer, owned here, and later ones go into it.
        """
        key = node_id
        old = self._grads.get(key)
        if old is None:
            self._grads[key] = grad
            return
        with from_origin("gradient accumulated"):
            if key in self._owned:
                old += grad
            else:
                self._grads[key] = old + grad
                self._owned.add(key)

    def register_slot(self, node_id, slot: int, count: int, grad) -> None:
        """Accumulate `grad` into slot `slot` of the `count` gradients of a node whose op has
        several float outputs (a list, None where an output got no gradient)."""
        slots = self._grads.get(node_id)
        if slots is None:
            slots = self._grads[node_id] = [None] * count
        old = slots[slot]
        slots[slot] = grad if old is None else old + grad

    def consume(self, node):
        """Take out the gradient of a GradInBackward node whose step is about to run."""
        self._owned.discard(node.id)
        return self._grads.pop(node.id)

    def get(self, node):
        if node.requirement is NONE:
            return None  # an untracked alias of a leaf (burn 0.22.1)
        return self._grads.get(node.id)

    def remove(self, node):
        if node.requirement is NONE:
            return None
        self._owned.discard(node.id)
        return self._grads.pop(node.id, None)

    def replace(self, node, grad) -> None:
        """Set the gradient of a tracked tensor, whether or not it had one."""
        if node.requirement is NONE:
            raise ValueError(
                "grad_replace() on an untracked tensor: it has no gradient to replace (an "
                "untracked alias of a leaf reads None too); call it on the require_grad() leaf"
            )
        self._owned.discard(node.id)
        self._grads[node.id] = grad

    def __len__(self):
        return len(self._grads)

    def __repr__(self):
        return f"Gradients({sorted(self._grads)})"
