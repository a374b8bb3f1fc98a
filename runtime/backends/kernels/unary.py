"""Element-wise math: unary functions, rounding, float classification, atan2 and hypot.

Each of these kernels is exactly one function of the array API namespace, so the table is the
whole of them: a backend class binds each name to its own `xp` function when it is defined
(ArrayBackend.__init_subclass__), with no Python frame between the dispatch layer and the
library. A backend that does one of them its own way defines the method, and the table leaves
it alone.
"""

NAMESPACE_KERNELS = {
    "float_exp": "exp",
    "float_log": "log",
    "float_log1p": "log1p",
    "float_sqrt": "sqrt",
    "float_abs": "abs",
    "int_abs": "abs",
    "float_sign": "sign",
    "int_sign": "sign",
    # trigonometric and hyperbolic
    "float_sin": "sin",
    "float_cos": "cos",
    "float_tan": "tan",
    "float_sinh": "sinh",
    "float_cosh": "cosh",
    "float_tanh": "tanh",
    "float_asin": "asin",
    "float_acos": "acos",
    "float_atan": "atan",
    "float_asinh": "asinh",
    "float_acosh": "acosh",
    "float_atanh": "atanh",
    "float_atan2": "atan2",
    "float_hypot": "hypot",
    # rounding (the array API's round is half to even, as burn's)
    "float_round": "round",
    "float_floor": "floor",
    "float_ceil": "ceil",
    "float_trunc": "trunc",
    # classification
    "float_is_nan": "isnan",
    "float_is_inf": "isinf",
}


class UnaryKernels:
    def float_recip(self, tensor):
        return 1 / tensor
