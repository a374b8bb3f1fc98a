"""What the runtime is running, told to a recorder of kernel calls (burnpy.capture).

A recorder labels each kernel call it sees with the phase of the training step and the origin of
the call, and names the user's call in its errors. The runtime tells all three here, where each
begins, so a label never depends on how the code making the calls is named or laid out:

- `phase`: `Phase.BACKWARD` during a backward pass (runtime.autodiff.graph), `Phase.UPDATE`
  during an optimiser's step (burnpy.optim), else `Phase.FORWARD`;
- `origin`: what makes the calls when they are not an op's own kernel: a rule's step ("float_mul
  backward"), a checkpointed recomputation ("float_mul recomputed"), the gradient sums ("gradient
  accumulated"), the backward pass's seed ("backward seed: ones"); None while an op runs its
  own kernels (routing and recorders call an op's kernel by the op's name);
- `user_call`: the Tensor method the user called that reads values or selects by them
  ("item()", "bool(t)", "t[mask]"), the outermost one.

The state is per thread, and each setter restores the outer value when its block ends, raising
or not. Only a recorder reads it; setting it costs a few attribute stores per backward step.
"""

import threading
from enum import Enum


class Phase(Enum):
    FORWARD = "forward"
    BACKWARD = "backward"
    UPDATE = "update"


class _Activity(threading.local):
    phase = Phase.FORWARD
    origin: str | None = None
    user_call: str | None = None


ACTIVITY = _Activity()


class in_phase:
    """`with in_phase(Phase.UPDATE):` the kernel calls inside belong to that phase."""

    __slots__ = ("phase", "_outer")

    def __init__(self, phase: Phase):
        self.phase = phase

    def __enter__(self):
        self._outer = ACTIVITY.phase
        ACTIVITY.phase = self.phase

    def __exit__(self, *exc):
        ACTIVITY.phase = self._outer
        return False


class from_origin:
    """`with from_origin("backward seed: ones"):` the kernel calls inside come from there."""

    __slots__ = ("origin", "_outer")

    def __init__(self, origin: str | None):
        self.origin = origin

    def __enter__(self):
        self._outer = ACTIVITY.origin
        ACTIVITY.origin = self.origin

    def __exit__(self, *exc):
        ACTIVITY.origin = self._outer
        return False


class user_call:
    """`with user_call("item()"):` the user's call that reads values runs inside; an outer one
    already told stays (`bool(t)` runs `item()`)."""

    __slots__ = ("call", "_outer")

    def __init__(self, call: str):
        self.call = call

    def __enter__(self):
        self._outer = ACTIVITY.user_call
        if self._outer is None:
            ACTIVITY.user_call = self.call

    def __exit__(self, *exc):
        ACTIVITY.user_call = self._outer
        return False
