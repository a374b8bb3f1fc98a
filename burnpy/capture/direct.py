"""Calls that a compiled step makes straight to the function that computes them, past the
backend method's argument checks and geometry: the recording proved them once for every
replay (the signature and the guards fix every shape).

A NumPy-backend convolution of a 1x1 kernel without padding (MobileNet's pointwise layers, a
few dozen a forward) calls numpy_conv.correlate_pointwise with its positions worked out, and
adds its bias after, a value per channel, which the element-wise chain reading the product
takes into its loop (burnpy.capture.chains): one pass over the output fewer.
"""

from burnpy.capture.named import Recorded
from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.generated import catalogue as ops
from burnpy.runtime.backends import numpy_conv

_CONV = numpy_conv.NumPyConvKernels._conv
CONV2D, FLOAT_ADD = Recorded(ops.CONV2D), Recorded(ops.FLOAT_ADD)
# the recorded kernels this module names (checked against the catalogue: compiler.NAMED)
NAMED = (CONV2D, FLOAT_ADD)


def rewrite(calls: list, backends: dict, tape) -> list:
    """`calls` (a recording's) with each call that can be made straight made so; `tape` makes
    the values between the calls it becomes."""
    rewritten = []
    for entry in calls:
        made = _pointwise(entry, backends.get(entry.backend), tape)
        rewritten += [entry] if made is None else made
    return rewritten


def _pointwise(entry: Entry, backend, tape) -> list | None:
    """The entries of a pointwise convolution's product and bias, or None for another call."""
    if entry.kind is not EntryKind.CALL or entry.target != CONV2D.name or entry.kwargs:
        return None
    if backend is None or getattr(type(backend), "_conv", None) is not _CONV:
        return None
    x, weight, bias, stride, padding, _, groups, padding_end = entry.args
    if type(x) is not Value or type(weight) is not Value or type(entry.out) is not Value:
        return None
    picked = numpy_conv.pointwise_positions(x.shape, weight.shape, stride, padding, padding_end)
    if picked is None or (bias is not None and type(bias) is not Value):
        return None
    label = f"{entry.label} (1x1: the input's positions, checked when recorded)"
    context = (entry.phase, entry.backend)
    args = (x, weight, picked, groups, None)
    if bias is None:
        product = entry.out
    else:
        data = numpy_conv.correlate_pointwise(x.data, weight.data, picked, groups, None)
        product = tape.value(data, "conv2d")
    made = [
        Entry(
            EntryKind.FUNCTION, numpy_conv.correlate_pointwise, args, {}, product, label, *context
        )
    ]
    if bias is not None:
        channels = (bias.shape[0],) + (1,) * (x.data.ndim - 2)
        row = tape.value(bias.data.reshape(channels), "reshape")
        made += [
            Entry(  # (the array's method: the backend's float_reshape costs a call more)
                EntryKind.OP,
                ".reshape",
                (bias, (channels,), {}),
                {},
                row,
                "conv2d's bias, per channel",
                *context,
            ),
            Entry(
                EntryKind.CALL,
                FLOAT_ADD.name,
                (product, row),
                {},
                entry.out,
                "conv2d's bias",
                *context,
            ),
        ]
    return made
