"""Calls that a compiled step makes straight to the function that computes them, past the
backend method's argument checks and geometry: the recording proved them once for every
replay (the signature and the guards fix every shape).

A NumPy-backend convolution of a 1x1 kernel without padding (MobileNet's pointwise layers, a
few dozen a forward) calls numpy_conv.correlate_pointwise with its positions worked out.
"""

from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.runtime.backends import numpy_conv

_CONV = numpy_conv.NumPyConvKernels._conv


def direct(entry: Entry, backend) -> Entry | None:
    """The call of `entry` (a recorded backend call) made straight, or None."""
    if entry.kind is not EntryKind.CALL or entry.target != "conv2d" or entry.kwargs:
        return None
    if getattr(type(backend), "_conv", None) is not _CONV:
        return None
    x, weight, bias, stride, padding, _, groups, padding_end = entry.args
    if type(x) is not Value or type(weight) is not Value:
        return None
    picked = numpy_conv.pointwise_positions(x.shape, weight.shape, stride, padding, padding_end)
    if picked is None:
        return None
    args = (x, weight, picked, groups, bias)
    label = f"{entry.label} (1x1: the input's positions, checked when recorded)"
    return Entry(
        EntryKind.FUNCTION,
        numpy_conv.correlate_pointwise,
        args,
        {},
        entry.out,
        label,
        entry.phase,
        entry.backend,
    )
