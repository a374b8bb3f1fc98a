"""AutodiffTensor: the inner float primitive, its Node, and `rc`."""

from burnpy.runtime.autodiff.node import (
    NONE,
    ComputingProperty,
    Node,
    NodeId,
    Requirement,
    new_node,
    next_id,
    slots_in_c,
)
from burnpy.runtime.autodiff.steps import ROOT_STEP
from burnpy.runtime.errors import NON_LEAF_REQUIRE_GRAD, BurnPanic


class AutodiffTensor:
    """{primitive, node, rc}, the seed's three fields. burn counts the handles of a node through
    `rc` (an `Arc<NodeId>`) to decide what its memory manager may free; here the handles and the
    child steps refer to the Node itself, so Python's reference count of the Node does that job
    and frees a graph the moment nothing refers to it. `rc` is the node's id, kept by name."""

    __slots__ = ("primitive", "node")

    def __init__(self, primitive, node: Node):
        self.primitive = primitive
        self.node = node

    @property
    def rc(self) -> int:
        return self.node.id

    @staticmethod
    def new(primitive) -> "AutodiffTensor":
        """A fresh untracked leaf (`from_inner`, creation ops); registers nothing."""
        node = new_node(
            parents=(),
            order=0,
            id=next_id(),
            requirement=NONE,
            properties=ComputingProperty.Ambiguous,
        )
        return AutodiffTensor(primitive, node)

    def id(self) -> NodeId:
        return NodeId(self.node.id)

    def is_tracked(self) -> bool:
        return self.node.requirement is not NONE

    def require_grad(self) -> "AutodiffTensor":
        """A Grad leaf with the same id, registered with a RootStep; the receiver is unchanged."""
        requirement = self.node.requirement
        if requirement is Requirement.Grad:
            return self
        if requirement is Requirement.GradInBackward:
            raise BurnPanic(
                NON_LEAF_REQUIRE_GRAD,
                "only leaves can require gradients; to get an intermediate's gradient, "
                "`detach()` it into a new leaf and call `require_grad()` on that",
            )
        node = new_node(
            parents=(),
            order=0,
            id=self.node.id,
            requirement=Requirement.Grad,
            properties=self.node.properties,
            step=ROOT_STEP,
            distributed_params=self.node.distributed_params,
        )
        return AutodiffTensor(self.primitive, node)

    def set_distributed_params(self, param_id: int) -> "AutodiffTensor":
        """The same Grad leaf (same id) on a new node marked with `param_id`, whose gradient
        backward reduces over the processes; the receiver is unchanged (burn's
        `grad_distributed`)."""
        node = self.node
        marked = new_node(
            parents=(),
            order=0,
            id=node.id,
            requirement=node.requirement,
            properties=node.properties,
            step=ROOT_STEP,
            distributed_params=param_id,
        )
        return AutodiffTensor(self.primitive, marked)

    def detach(self) -> "AutodiffTensor":
        """A new leaf (new id) on the same data; a Grad leaf stays a Grad leaf."""
        fresh = AutodiffTensor.new(self.primitive)
        return fresh.require_grad() if self.node.requirement is Requirement.Grad else fresh


_new = object.__new__


@slots_in_c(AutodiffTensor)
def autodiff_tensor(primitive, node: Node) -> AutodiffTensor:
    """`AutodiffTensor(primitive, node)` as every recorder makes its outputs: in C where the
    install built it, with no `__init__` frame."""
    tensor = _new(AutodiffTensor)
    tensor.primitive = primitive
    tensor.node = node
    return tensor
