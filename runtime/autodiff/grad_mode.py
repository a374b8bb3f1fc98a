"""`no_grad`: a stretch of code whose ops on autodiff tensors record nothing.

Inside it, every recorder returns an untracked tensor (no Node parents, no step), whatever its
inputs require: evaluation and parameter updates build no graph and keep no activations alive.
The state is per thread (another thread keeps recording) and nests: leaving the innermost block
restores what the enclosing one set. Creating leaves (`require_grad()`) still works inside it.
"""

import functools
import threading


class _ThreadState(threading.local):
    paused = False


class _GradMode:
    """`paused`: is this thread inside a no_grad block. `blocks` counts the blocks open in every
    thread: a recorder whose inputs are tracked reads `blocks` first, and the per-thread state
    (a threading.local, a dearer read on every tracked op) only while some block is open."""

    __slots__ = ("blocks", "_thread", "_lock")

    def __init__(self):
        self.blocks = 0
        self._thread = _ThreadState()
        self._lock = threading.Lock()

    @property
    def paused(self) -> bool:
        return self.blocks > 0 and self._thread.paused

    def enter(self) -> bool:
        """Pause this thread; returns what to restore on leaving."""
        outer = self._thread.paused
        self._thread.paused = True
        with self._lock:  # `+=` on an attribute is no atomic step between threads
            self.blocks += 1
        return outer

    def leave(self, outer: bool) -> None:
        self._thread.paused = outer
        with self._lock:
            self.blocks -= 1


GRAD_MODE = _GradMode()


class no_grad:
    """`with no_grad(): ...`, or `@no_grad()` on a function: ops on autodiff tensors inside
    record no graph and return untracked tensors (PyTorch's `torch.no_grad`)."""

    def __enter__(self):
        self._outer = GRAD_MODE.enter()
        return self

    def __exit__(self, *exc):
        GRAD_MODE.leave(self._outer)
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def without_grad(*args, **kwargs):
            with no_grad():
                return function(*args, **kwargs)

        return without_grad
