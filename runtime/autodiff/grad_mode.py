"""`no_grad`: a stretch of code whose ops on autodiff tensors record nothing.

Inside it, every recorder returns an untracked tensor (no Node parents, no step), whatever its
inputs require: evaluation and parameter updates build no graph and keep no activations alive.
The state is per thread (another thread keeps recording) and nests: leaving the innermost block
restores what the enclosing one set. Creating leaves (`require_grad()`) still works inside it.
"""

import functools
import threading


class _GradMode(threading.local):
    paused = False  # read by every generated recorder whose inputs are tracked


GRAD_MODE = _GradMode()


class no_grad:
    """`with no_grad(): ...`, or `@no_grad()` on a function: ops on autodiff tensors inside
    record no graph and return untracked tensors (PyTorch's `torch.no_grad`)."""

    def __enter__(self):
        self._outer = GRAD_MODE.paused
        GRAD_MODE.paused = True
        return self

    def __exit__(self, *exc):
        GRAD_MODE.paused = self._outer
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def without_grad(*args, **kwargs):
            with no_grad():
                return function(*args, **kwargs)

        return without_grad
