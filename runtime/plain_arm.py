"""The plain arm of a Tensor method, run in C where the install built it (runtime/plain_arm.c).

A method's commonest call, over plain float tensors of one backend (the receiver's very kind),
untracked, of one dtype object, is the inner backend's kernel alone: the routing's Disabled arm,
which the generated method runs itself. At a small tensor the method's Python frame and its
few tests cost about what the kernel does. `plain_arm` wraps the method in a C callable that
runs the same tests and the same kernel with no frame, and hands every other call to the method
(`__wrapped__`), as it does a call whose kernel raises: results and errors are the method's own.

A call of tracked tensors of one Autodiff kind and one context runs the dispatch function's
autodiff arm in C (the op of the context's Autodiff specialization: its recorder), and a call of
Float tensors of one kind that is neither goes straight to the dispatch function the method would
call. Where the install built no extension (no C compiler), the methods stay as they are.
"""

from collections.abc import Callable
from typing import Any, TypeVar

try:
    from burnpy.runtime import _plain_arm
except ImportError:  # built without a C compiler: the Python methods run every call
    _plain_arm = None

Method = TypeVar("Method", bound=Callable[..., Any])

BUILT = _plain_arm is not None
PlainArm: type | None = _plain_arm.PlainArm if _plain_arm is not None else None  # the arms' type


def plain_arm(kernel: str, operands: int) -> Callable[[Method], Method]:
    """The decorator of a method whose plain arm runs the inner backend's `kernel` over its
    `operands` tensors (the receiver first; 1 or 2)."""

    def wrap(method: Method) -> Method:
        if _plain_arm is None:
            return method
        return _plain_arm.plain_arm(method, kernel, operands)

    return wrap


def bind(tensor: type, kind: type, disabled: object, float_kind: object, balanced: object) -> None:
    """The class whose exact instances the arms run (the Tensor), its kinds' class, the
    untracked context, the Float tensor kind and the Balanced checkpointing strategy; before
    this, every call is the method's."""
    if _plain_arm is not None:
        _plain_arm.bind(tensor, kind, disabled, float_kind, balanced)
