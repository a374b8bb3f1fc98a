"""Creation from a device."""

import math
import os

import numpy as np

from burnpy.runtime.errors import user_call

# An allocation larger than the machine's memory is refused before any library tries it: numpy
# would raise MemoryError or succeed lazily (overcommit), torch raise its own RuntimeError.
PHYSICAL_MEMORY = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def check_allocation(op: str, shape, dtype) -> None:
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    if nbytes > PHYSICAL_MEMORY:
        raise MemoryError(
            f"{user_call(op)}: a tensor of shape {list(shape)} and dtype {np.dtype(dtype)} needs "
            f"{nbytes:,} bytes, more than this machine's {PHYSICAL_MEMORY:,}"
        )


class CreationKernels:
    def float_zeros(self, shape, device, dtype):
        check_allocation("zeros", shape, dtype)
        return self.xp.zeros(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_zeros = bool_zeros = float_zeros

    def float_ones(self, shape, device, dtype):
        check_allocation("ones", shape, dtype)
        return self.xp.ones(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_ones = bool_ones = float_ones

    def float_full(self, shape, fill_value, device, dtype):
        check_allocation("full", shape, dtype)
        return self.xp.full(
            shape, fill_value, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_full = bool_full = float_full

    def float_empty(self, shape, device, dtype):
        check_allocation("empty", shape, dtype)
        return self.xp.empty(
            shape, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    int_empty = bool_empty = float_empty

    def int_arange_step(self, start, end, step, device, dtype):
        if step < 1:  # burn's step is a usize, and Rust's step_by refuses 0
            raise ValueError(
                f"{user_call('int_arange_step')}: step must be a positive int, got {step}"
            )
        check_allocation("arange", [max(0, -(-(end - start) // step))], dtype)
        return self.xp.arange(
            start, end, step, dtype=self.native_dtype(dtype), device=self.native_device(device)
        )

    def int_arange(self, start, end, device, dtype):
        return self.int_arange_step(start, end, 1, device, dtype)

    def float_ones_like(self, tensor):
        return self.xp.ones_like(tensor)
