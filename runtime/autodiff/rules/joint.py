"""The marker of a rule that gives every input's gradient in one call (read by Rule)."""


class Joint:
    """A rule giving every float input's gradient in one call: `fn(B, g, tracked, <names>)`
    returns a tuple with one gradient per float input, in order; `tracked` holds, per input,
    whether its gradient is wanted, so `fn` may skip (and return None for) the others. Every
    input needs what `fn` names. Not for ops with a `tensors` list input."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn
