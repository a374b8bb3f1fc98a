"""Element-wise math: unary functions, rounding, float classification, atan2 and hypot."""


class UnaryKernels:
    def float_exp(self, tensor):
        return self.xp.exp(tensor)

    def float_log(self, tensor):
        return self.xp.log(tensor)

    def float_log1p(self, tensor):
        return self.xp.log1p(tensor)

    def float_sqrt(self, tensor):
        return self.xp.sqrt(tensor)

    def float_recip(self, tensor):
        return 1 / tensor

    def float_abs(self, tensor):
        return self.xp.abs(tensor)

    int_abs = float_abs

    def float_sign(self, tensor):
        return self.xp.sign(tensor)

    int_sign = float_sign

    # trigonometric and hyperbolic
    def float_sin(self, tensor):
        return self.xp.sin(tensor)

    def float_cos(self, tensor):
        return self.xp.cos(tensor)

    def float_tan(self, tensor):
        return self.xp.tan(tensor)

    def float_sinh(self, tensor):
        return self.xp.sinh(tensor)

    def float_cosh(self, tensor):
        return self.xp.cosh(tensor)

    def float_tanh(self, tensor):
        return self.xp.tanh(tensor)

    def float_asin(self, tensor):
        return self.xp.asin(tensor)

    def float_acos(self, tensor):
        return self.xp.acos(tensor)

    def float_atan(self, tensor):
        return self.xp.atan(tensor)

    def float_asinh(self, tensor):
        return self.xp.asinh(tensor)

    def float_acosh(self, tensor):
        return self.xp.acosh(tensor)

    def float_atanh(self, tensor):
        return self.xp.atanh(tensor)

    def float_atan2(self, lhs, rhs):
        return self.xp.atan2(lhs, rhs)

    def float_hypot(self, lhs, rhs):
        return self.xp.hypot(lhs, rhs)

    # rounding (the array API's round is half to even, as burn's)
    def float_round(self, tensor):
        return self.xp.round(tensor)

    def float_floor(self, tensor):
        return self.xp.floor(tensor)

    def float_ceil(self, tensor):
        return self.xp.ceil(tensor)

    def float_trunc(self, tensor):
        return self.xp.trunc(tensor)

    # classification
    def float_is_nan(self, tensor):
        return self.xp.isnan(tensor)

    def float_is_inf(self, tensor):
        return self.xp.isinf(tensor)
