"""`from burnpy import capture`: a training step recorded once, replayed as generated code.

    @capture
    def step(model, opt, images, labels, lr):
        grads = cross_entropy(model(images), labels).backward()
        opt.step(model, grads, lr=lr)

The first call for a signature (the arguments' structure; each tensor's kind, dtype, shape,
device and requirement; the module's parameters) runs the step eagerly while recording every
kernel it runs, and writes them as one straight-line function (`step.source()`); later calls
with that signature run that function only. `capture.CaptureError` is what a step that cannot
be recorded raises (it reads a value, or its shapes depend on the data); `fallback=True` runs
such a step eagerly instead. docs/capture.md says what is recorded and what is not.
"""

import sys
import types

from burnpy.capture.recorder import CaptureError
from burnpy.capture.replay import MAX_SIGNATURES, CapturedStep, capture
from burnpy.capture.signature import Signature

__all__ = ["MAX_SIGNATURES", "CaptureError", "CapturedStep", "Signature", "capture"]


class _CallableModule(types.ModuleType):
    """`from burnpy import capture` gives this package; calling it is `capture.capture`."""

    def __call__(
        self,
        fn=None,
        *,
        fallback: bool = False,
        compile: bool = False,
        max_signatures: int = MAX_SIGNATURES,
    ):
        return capture(fn, fallback=fallback, compile=compile, max_signatures=max_signatures)


sys.modules[__name__].__class__ = _CallableModule
