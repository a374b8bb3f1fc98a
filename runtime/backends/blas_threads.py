"""The thread count of numpy's BLAS, as kernels that size their work by it read it: found once
(threadpoolctl), then kept current by burnpy.set_num_threads (burnpy.threads). A count set
another way (threadpoolctl's own limits) is not seen here: the kernels then size their work
for the count they last knew, and compute the same values."""

from threadpoolctl import threadpool_info

from burnpy.runtime.backends.numpy_norm import scipy_own

_count: int | None = None


def query() -> int | None:
    """The thread count numpy's BLAS runs now (threadpoolctl; scipy's own BLAS left out), or
    None where it is not found."""
    for library in threadpool_info():
        if library["user_api"] == "blas" and not scipy_own(library["filepath"]):
            return library["num_threads"]
    return None


def count() -> int:
    """The count as last known: queried once, then as `record` tells."""
    global _count
    if _count is None:
        _count = query() or 1
    return _count


def record(n: int) -> None:
    """numpy's BLAS now runs `n` threads."""
    global _count
    _count = n
