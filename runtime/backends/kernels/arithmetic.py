"""Element-wise arithmetic, comparisons and logic: Python operators work on both libraries.

A kernel that is exactly one Python operator is that operator (a C function): no Python frame
between the dispatch layer and the library."""

import operator

from burnpy.runtime.errors import user_call


class ArithmeticKernels:
    float_add = float_add_scalar = int_add = int_add_scalar = staticmethod(operator.add)
    float_sub = float_sub_scalar = int_sub = int_sub_scalar = staticmethod(operator.sub)
    float_mul = float_mul_scalar = int_mul = int_mul_scalar = staticmethod(operator.mul)
    float_div = float_div_scalar = staticmethod(operator.truediv)

    def int_div(self, lhs, rhs):
        # burn's int division truncates toward zero; `//` floors, so a negative inexact
        # quotient is one too small.
        _no_zero_divisor("int_div", rhs)
        quotient = lhs // rhs
        return quotient + ((quotient < 0) & (quotient * rhs != lhs))

    int_div_scalar = int_div

    def float_remainder(self, lhs, rhs):
        # `%` takes the divisor's sign on both libraries, as burn's remainder does
        return lhs % rhs

    float_remainder_scalar = float_remainder

    def int_remainder(self, lhs, rhs):
        _no_zero_divisor("int_remainder", rhs)
        return lhs % rhs

    int_remainder_scalar = int_remainder

    float_neg = int_neg = staticmethod(operator.neg)

    def float_recip(self, tensor):
        return 1 / tensor

    def float_square(self, tensor):
        return tensor * tensor

    int_square = float_square

    def float_matmul(self, lhs, rhs):
        return self.xp.matmul(lhs, rhs)

    int_matmul = float_matmul

    def float_det(self, tensor):
        return self.xp.linalg.det(tensor)

    def det_backward(self, tensor, out, g):
        """det's gradient: g * det(A) * inverse(A) transposed, A's cofactors."""
        inverse = self.xp.linalg.inv(tensor)
        scale = self.xp.reshape(g * out, tuple(out.shape) + (1, 1))
        return self.xp.swapaxes(inverse, -1, -2) * scale

    def float_cross(self, lhs, rhs, dim):
        return self.xp.linalg.cross(lhs, rhs, axis=dim)

    # powers
    def float_powf(self, lhs, rhs):
        return lhs**rhs

    def float_powf_scalar_impl(self, lhs, rhs):
        """burn's generic case, which float_powf_scalar composes. Squares and cubes are
        products: numpy's generic pow costs some fifty multiplications an element."""
        if rhs == 2.0:
            return lhs * lhs
        if rhs == 3.0:
            cube = lhs * lhs
            cube *= lhs
            return cube
        return lhs**rhs

    def float_powi(self, lhs, rhs):
        # the exponent takes the base's dtype: an int64 exponent would promote float32 to float64
        return lhs ** self.xp.astype(rhs, lhs.dtype)

    def int_powi(self, lhs, rhs):
        # burn raises in floats and truncates, so a negative exponent gives 0 unless |lhs| == 1,
        # where lhs ** -k == lhs ** k. Integer powers keep large results exact.
        power = lhs ** abs(rhs)
        return self.xp.where((rhs >= 0) | (abs(lhs) == 1), power, 0)

    int_powi_scalar_impl = int_powi  # burn's generic case; int_powi_scalar composes it

    # clamps (burn clamps the max first: with min > max every element becomes min)
    def float_clamp(self, tensor, min, max):
        # burn: clamp_min, then clamp_max (so min > max gives max everywhere, as numpy and torch)
        return self.xp.clip(self.xp.clip(tensor, min=min), max=max)

    int_clamp = float_clamp

    def float_clamp_min(self, tensor, min):
        return self.xp.clip(tensor, min=min)

    int_clamp_min = float_clamp_min

    def float_clamp_max(self, tensor, max):
        return self.xp.clip(tensor, max=max)

    int_clamp_max = float_clamp_max

    # comparisons
    float_equal = float_equal_elem = int_equal = int_equal_elem = staticmethod(operator.eq)
    bool_equal = bool_equal_elem = float_equal
    float_not_equal = float_not_equal_elem = int_not_equal = staticmethod(operator.ne)
    int_not_equal_elem = bool_not_equal = bool_not_equal_elem = float_not_equal
    float_greater = float_greater_elem = int_greater = int_greater_elem = staticmethod(operator.gt)
    float_greater_equal = float_greater_equal_elem = staticmethod(operator.ge)
    int_greater_equal = int_greater_equal_elem = float_greater_equal
    float_lower = float_lower_elem = int_lower = int_lower_elem = staticmethod(operator.lt)
    float_lower_equal = float_lower_equal_elem = staticmethod(operator.le)
    int_lower_equal = int_lower_equal_elem = float_lower_equal

    # logic
    def bool_not(self, tensor):
        return self.xp.logical_not(tensor)

    def bool_and(self, lhs, rhs):
        return self.xp.logical_and(lhs, rhs)

    def bool_or(self, lhs, rhs):
        return self.xp.logical_or(lhs, rhs)

    def bool_xor(self, lhs, rhs):
        return self.xp.logical_xor(lhs, rhs)

    # bitwise (burn's names have no `int_` prefix); shifts of signed ints are arithmetic
    def bitwise_and(self, lhs, rhs):
        return lhs & rhs

    bitwise_and_scalar = bitwise_and

    def bitwise_or(self, lhs, rhs):
        return lhs | rhs

    bitwise_or_scalar = bitwise_or

    def bitwise_xor(self, lhs, rhs):
        return lhs ^ rhs

    bitwise_xor_scalar = bitwise_xor

    def bitwise_not(self, tensor):
        return ~tensor

    def bitwise_left_shift(self, lhs, rhs):
        return lhs << rhs

    bitwise_left_shift_scalar = bitwise_left_shift

    def bitwise_right_shift(self, lhs, rhs):
        return lhs >> rhs

    bitwise_right_shift_scalar = bitwise_right_shift


def _no_zero_divisor(op: str, rhs) -> None:
    """burn panics on an integer division by zero; numpy would give 0 with a warning and torch
    raise its own error: one ZeroDivisionError on every backend. (A tensor divisor is read
    back to check it: a device sync on a GPU, for integer division only.)"""
    zero = rhs == 0 if isinstance(rhs, int) else bool((rhs == 0).any())
    if zero:
        raise ZeroDivisionError(f"{user_call(op)}: integer division by zero (a divisor is 0)")
