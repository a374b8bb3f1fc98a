"""The thread count of the libraries that compute: numpy's BLAS and OpenMP (through
threadpoolctl, which finds them in the process) and torch's intra-op pool, set together.

Small matrices gain nothing from BLAS threads, and on a machine whose cores other work uses they
lose a great deal: every BLAS call then waits for a thread the OS has not scheduled. So the
Learner and the examples run at one thread (`use_default()`) unless the user chose a count,
with `set_num_threads` or the environment (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS,
MKL_NUM_THREADS).
"""

import os
import sys

from threadpoolctl import threadpool_limits

from burnpy.runtime.backends import blas_threads
from burnpy.runtime.backends.numpy_norm import single_thread_scipy_blas

DEFAULT = 1  # what the Learner and the examples use when nobody chose
_ENVIRONMENT = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
_chosen = None  # the count set_num_threads was given


def set_num_threads(n: int) -> None:
    """Run numpy's BLAS, OpenMP and torch with `n` threads from now on (torch too when it is
    imported later)."""
    global _chosen
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"set_num_threads: n must be an int >= 1, got {n!r}")
    threadpool_limits(limits=n)  # not used as a context: the limits stay
    blas_threads.record(n)
    single_thread_scipy_blas()  # (where scipy's own BLAS is loaded later, as it loads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)
    else:  # torch sizes its pool from this when it starts
        os.environ["OMP_NUM_THREADS"] = str(n)
    _chosen = n


def get_num_threads() -> int:
    """The thread count of numpy's BLAS (torch's when numpy's BLAS is not found)."""
    found = blas_threads.query()
    if found is not None:
        return found
    torch = sys.modules.get("torch")
    return torch.get_num_threads() if torch is not None else os.cpu_count() or 1


def chosen() -> bool:
    """Whether the user chose a count: `set_num_threads`, or one of the environment variables
    BLAS and OpenMP read."""
    return _chosen is not None or any(name in os.environ for name in _ENVIRONMENT)


def use_default() -> None:
    """One thread, unless the user chose a count (then theirs stays)."""
    if not chosen():
        set_num_threads(DEFAULT)
