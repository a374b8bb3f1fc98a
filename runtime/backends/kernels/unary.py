"""Element-wise math and activations."""


class UnaryKernels:
    def float_exp(self, tensor):
        return self.xp.exp(tensor)

    def float_log(self, tensor):
        return self.xp.log(tensor)

    def float_sqrt(self, tensor):
        return self.xp.sqrt(tensor)

    def float_abs(self, tensor):
        return self.xp.abs(tensor)

    int_abs = float_abs

    def float_sign(self, tensor):
        return self.xp.sign(tensor)

    def float_tanh(self, tensor):
        return self.xp.tanh(tensor)

    def relu(self, tensor):
        return self.xp.maximum(tensor, 0)  # NaN stays NaN (array API 2024.12 takes the scalar)
