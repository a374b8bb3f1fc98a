"""benchops' rule: float_mul's."""


class Rules:
    times = (lambda g, rhs: g * rhs, lambda g, lhs: g * lhs)
