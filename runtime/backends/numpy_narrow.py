"""The NumPy backend's narrow floats: float16 and bfloat16.

bfloat16 is ml_dtypes', which takes about a second to import, so the backend never imports it
first: whoever first needs the dtype does (the name "bfloat16" parsed, an array the user made),
and a bfloat16 array exists only after that. Telling one apart therefore needs no import."""

import numpy as np

FLOAT32 = np.dtype(np.float32)


def is_bfloat16(dtype) -> bool:
    return dtype.name == "bfloat16"


_NARROW: dict = {}  # dtype -> is_narrow: a dtype's name is a Python property, slow per call


def is_narrow(dtype) -> bool:
    """float16 or bfloat16: the kernels that would lose precision in them compute in float32."""
    narrow = _NARROW.get(dtype)
    if narrow is None:
        narrow = _NARROW[dtype] = dtype == np.float16 or dtype.name == "bfloat16"
    return narrow


def finfo(dtype):
    """np.finfo, which does not know bfloat16: ml_dtypes' for that one."""
    if is_bfloat16(dtype):
        import ml_dtypes  # in the process already: a bfloat16 array exists

        return ml_dtypes.finfo(dtype)
    return np.finfo(dtype)
