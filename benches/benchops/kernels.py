"""benchops' kernel: float_mul's own (a kernel that is one Python operator is that operator)."""

import operator


class Kernels:
    times = staticmethod(operator.mul)
