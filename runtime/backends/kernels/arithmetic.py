"""Element-wise arithmetic, comparisons and logic: Python operators work on both libraries."""


class ArithmeticKernels:
    def float_add(self, lhs, rhs):
        return lhs + rhs

    float_add_scalar = int_add = int_add_scalar = float_add

    def float_sub(self, lhs, rhs):
        return lhs - rhs

    float_sub_scalar = int_sub = int_sub_scalar = float_sub

    def float_mul(self, lhs, rhs):
        return lhs * rhs

    float_mul_scalar = int_mul = int_mul_scalar = float_mul

    def float_div(self, lhs, rhs):
        return lhs / rhs

    float_div_scalar = float_div

    def float_neg(self, tensor):
        return -tensor

    int_neg = float_neg

    def float_matmul(self, lhs, rhs):
        return self.xp.matmul(lhs, rhs)

    def float_powf_scalar(self, lhs, rhs):
        return lhs**rhs

    # comparisons
    def float_equal(self, lhs, rhs):
        return lhs == rhs

    float_equal_elem = int_equal = int_equal_elem = bool_equal = bool_equal_elem = float_equal

    def float_not_equal(self, lhs, rhs):
        return lhs != rhs

    float_not_equal_elem = int_not_equal = int_not_equal_elem = bool_not_equal = float_not_equal

    def float_greater(self, lhs, rhs):
        return lhs > rhs

    float_greater_elem = int_greater = int_greater_elem = float_greater

    def float_greater_equal(self, lhs, rhs):
        return lhs >= rhs

    float_greater_equal_elem = int_greater_equal = int_greater_equal_elem = float_greater_equal

    def float_lower(self, lhs, rhs):
        return lhs < rhs

    float_lower_elem = int_lower = int_lower_elem = float_lower

    def float_lower_equal(self, lhs, rhs):
        return lhs <= rhs

    float_lower_equal_elem = int_lower_equal = int_lower_equal_elem = float_lower_equal

    # logic
    def bool_not(self, tensor):
        return self.xp.logical_not(tensor)

    def bool_and(self, lhs, rhs):
        return self.xp.logical_and(lhs, rhs)

    def bool_or(self, lhs, rhs):
        return self.xp.logical_or(lhs, rhs)
