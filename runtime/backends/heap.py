"""glibc's malloc told to keep freed memory for the next allocation instead of handing it back
to the kernel.

A training step frees and allocates the same large buffers step after step, and numpy keeps
no cache of its own for buffers over a kilobyte. By default glibc serves a buffer over 128 KiB
by its own mmap (a threshold it raises only as such buffers are freed) and trims the heap's
freed top back to the kernel: the next step then takes every page again, one page fault at a
time, each zeroed by the kernel. The eager GPT-2-like step of `benches/real_steps.py` spent a
quarter of its time so, where PyTorch's step loses nothing.

So where the C library is glibc and the environment sets none of its malloc variables, loading
the NumPy backend fixes the mmap threshold at 32 MiB (glibc's largest: larger buffers still get
their own mapping, and go back to the kernel when freed) and turns trimming off. Freed memory
then stays with the process, its resident size at its peak. Setting any of the variables in
`ENVIRONMENT` (`MALLOC_TRIM_THRESHOLD_=131072` is glibc's default) leaves malloc as the
environment configures it.
"""

import ctypes
import os
import sys

# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 1 << 25  # glibc's largest on 64-bit systems
NO_TRIM = 2**31 - 1  # mallopt takes an int: the most it can say
# the variables through which a user configures glibc's malloc; one set, burnpy changes nothing
ENVIRONMENT = (
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_TOP_PAD_",
    "MALLOC_MMAP_MAX_",
    "GLIBC_TUNABLES",
)


def keep_freed_memory() -> bool:
    """Tell glibc's malloc to keep freed memory (see above); whether it was told."""
    if sys.platform != "linux" or any(name in os.environ for name in ENVIRONMENT):
        return False
    libc = ctypes.CDLL(None)  # the C library the process runs on
    if not hasattr(libc, "gnu_get_libc_version") or not hasattr(libc, "mallopt"):
        return False  # another C library (musl): its malloc has other rules
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        libc.mallopt(M_TRIM_THRESHOLD, NO_TRIM)
    )
