"""The marker of a rule that gives every input's gradient in one call (read by Rule)."""


class Joint:
    """A rule giving every float input's gradient in one call: `fn(B, g, tracked, <names>)`
    returns a tuple with one gradient per float input, in order; `tracked` holds, per input,
    whether its gradient is wanted, so `fn` may skip (and return None for) the others. Every
    input needs what `fn` names, but those in `g_only`, whose gradient `fn` computes from `g`
    alone: a step where only they are tracked saves nothing (`fn` then gets None for every
    name). Not for ops with a `tensors` list input."""

    __slots__ = ("fn", "g_only")

    def __init__(self, fn, g_only: tuple[str, ...] = ()):
        self.fn = fn
        self.g_only = g_only
