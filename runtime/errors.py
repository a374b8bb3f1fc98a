"""Exception types and the seed's panic messages, written once.

A burn panic becomes a RuntimeError whose str() is the panic's exact text; advice for the user
goes into a note, never into the message (docs/design.md#errors-and-messages).
"""

NON_LEAF_REQUIRE_GRAD = "Can't convert a non leaf tensor into a tracked tensor"
REQUIRE_GRAD_NEEDS_AUTODIFF = "Tensor::require_grad requires autodiff; call Tensor::autodiff first"
BACKWARD_NEEDS_TRACKED = (
    "Tensor::backward requires a tracked autodiff tensor; call Tensor::autodiff().require_grad() "
    "on the source leaf before computing the output"
)
AUTODIFF_PRIMITIVE_NEEDS_CONTEXT = (
    "an autodiff float primitive must have an enabled autodiff context"
)
AUTODIFF_NOT_ENABLED = "Autodiff is not enabled on this device"


class BurnPanic(RuntimeError):
    """A burn panic: str() is burn's exact message."""

    def __init__(self, message: str, advice: str | None = None):
        super().__init__(message)
        if advice:
            self.add_note(advice)


class StrategyMismatch(AssertionError):
    """burn's `assert_eq!` on two different checkpointing strategies, in its full form."""

    def __init__(self, left, right):
        super().__init__(
            "assertion `left == right` failed: Gradient checkpointing strategy mismatch: "
            f"{left} vs {right}. Tensors in the same operation must share a strategy.\n"
            f"  left: {left}\n"
            f" right: {right}"
        )


class GraphConsumed(RuntimeError):
    """A backward pass needs a step that an earlier backward already consumed."""

    def __init__(self, node_id: int):
        super().__init__(
            f"The autodiff graph behind NodeId {{ value: {node_id} }} was consumed by an earlier backward(): "
            "backward frees the steps of every non-leaf node it visits, so no second backward "
            "can go through them. For another backward, run the forward pass again; for the "
            "gradients of several outputs, call backward() once on their sum; to keep computing "
            "from a value of the consumed graph, cut it loose with `t.detach()` (then "
            "`.require_grad()` if you want its gradient)."
        )


class IndexOutOfRange(ValueError, IndexError):
    """An index outside its dim: a ValueError (a bad argument,
    docs/design.md#errors-and-messages) that is also the IndexError Python's sequence protocol
    expects from `t[i]`."""
