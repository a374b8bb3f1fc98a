"""benchops' kernels: float_mul's own on each backend (a kernel that is one C function is that
function: the ufunc on NumPy, the operator on Torch)."""

import operator

import numpy as np


class Kernels:
    times = staticmethod(operator.mul)


class NumPyKernels:
    times = staticmethod(np.multiply)
