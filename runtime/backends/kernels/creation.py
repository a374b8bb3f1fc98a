"""Creation from a device."""


class CreationKernels:
    def float_zeros(self, shape, device, dtype):
        return self.xp.zeros(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_zeros = bool_zeros = float_zeros

    def float_ones(self, shape, device, dtype):
        return self.xp.ones(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_ones = bool_ones = float_ones

    def float_full(self, shape, fill_value, device, dtype):
        return self.xp.full(
            shape, fill_value, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_full = bool_full = float_full

    def float_empty(self, shape, device, dtype):
        return self.xp.empty(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_empty = bool_empty = float_empty

    def int_arange_step(self, start, end, step, device, dtype):
        if step < 1:  # burn's step is a usize, and Rust's step_by refuses 0
            raise ValueError(f"int_arange_step: step must be a positive int, got {step}")
        return self.xp.arange(
            start, end, step, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    def int_arange(self, start, end, device, dtype):
        return self.int_arange_step(start, end, 1, device, dtype)

    def float_ones_like(self, tensor):
        return self.xp.ones_like(tensor)
