"""Conversions between kinds and dtypes, and moves."""

import numpy as np

# bitcast's partner of each dtype: the dtype of the same width and the other kind
BITS = {np.dtype(a): np.dtype(b) for a, b in [("float32", "int32"), ("float64", "int64"), ("int32", "float32"), ("int64", "float64")]}  # fmt: skip


class ConvertKernels:
    def float_into_int(self, tensor, dtype):
        return self.xp.astype(tensor, self.native_dtype(dtype))

    int_into_float = bool_into_float = bool_into_int = float_cast = int_cast = float_into_int

    def float_bitcast(self, tensor):
        """The same bits read as an int of the same width (both libraries' `view`)."""
        return tensor.view(self.native_dtype(BITS[self.dtype(tensor)]))

    int_bitcast = float_bitcast

    def float_to_device(self, tensor, device):
        return self.xp.asarray(tensor, device=self.native_device(device))

    int_to_device = bool_to_device = float_to_device

    def move_across(self, tensor, target, device):
        """The tensor on a device of another backend, `target`, through the one format every
        backend reads and writes: a numpy array (burn reads the data and `from_data`s it)."""
        return target.from_numpy(self.to_numpy(tensor), device)
