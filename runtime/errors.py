"""Exception types and the seed's panic messages, written once.

A burn panic becomes a RuntimeError whose str() is the panic's exact text; advice for the user
goes into a note, never into the message (docs/design.md#errors-and-messages).

Any other error names the call the user made (`user_call`): the Tensor method, operator or
module function they typed, not the dispatch function or kernel it routed to.
"""

import sys

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


# The modules of the user-facing API: the outermost of their frames on the stack is the call the
# user made (a method that calls other API methods is the one the user typed).
_API_MODULES = frozenset(
    {
        "burnpy.generated.tensor",
        "burnpy.generated.module",
        "burnpy.generated.loss",
        "burnpy.runtime.tensor",
    }
)
_API_PACKAGES = ("burnpy.generated.dispatch.", "burnpy.runtime.composed.")
# The operators the Tensor API defines as functions, by the method they stand for.
_OPERATORS = {
    "__radd__": "add", "__rsub__": "sub", "__rmul__": "mul", "__rtruediv__": "div",
    "__pow__": "pow (**)", "__and__": "and (&)", "__or__": "or (|)", "__xor__": "xor (^)",
    "__invert__": "not (~)", "__eq__": "equal", "__ne__": "not_equal", "__gt__": "greater",
    "__ge__": "greater_equal", "__lt__": "lower", "__le__": "lower_equal",
    "__getitem__": "t[...]",
}  # fmt: skip


def user_call(default: str) -> str:
    """The name of the API call the user made that led here (`transpose`, `layer_norm`, `add`
    for `+`), or `default` outside any: the outermost API frame on the stack. It walks the
    stack, so it is for building an error message only."""
    found = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        api = module in _API_MODULES or module.startswith(_API_PACKAGES)
        if api and (name in _OPERATORS or not name.startswith(("<", "_"))):  # not a helper
            found = frame
        frame = frame.f_back
    if found is None:
        return default
    name = found.f_code.co_name
    return _OPERATORS.get(name) or _method_named(found) or name


def _method_named(frame) -> str | None:
    """The Tensor method a dispatch function is (`Tensor.sqrt = float_sqrt`), if the frame runs
    one on a tensor whose class has it under that name."""
    if not frame.f_code.co_varnames:
        return None
    receiver = frame.f_locals.get(frame.f_code.co_varnames[0])
    method = frame.f_code.co_name.removeprefix("float_").removeprefix("int_")
    function = getattr(type(receiver), method, None)
    return method if getattr(function, "__code__", None) is frame.f_code else None
