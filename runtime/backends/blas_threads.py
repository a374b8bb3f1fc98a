"""The thread count of numpy's BLAS, as kernels that size their work by it read it: found once
(threadpoolctl), then kept current by burnpy.set_num_threads (burnpy.threads). A count set
another way (threadpoolctl's own limits) is not seen here: the kernels then size their work
for the count they last knew, and compute the same values."""

from threadpoolctl import threadpool_info

from burnpy.runtime.backends.numpy_norm import scipy_own

_count: int | None = None


def count() -> int:
    global _count
    if _count is None:
        counts = [
            library["num_threads"]
            for library in threadpool_info()
            if library["user_api"] == "blas" and not scipy_own(library["filepath"])
        ]
        _count = max(counts, default=1)
    return _count


def record(n: int) -> None:
    """numpy's BLAS now runs `n` threads."""
    global _count
    _count = n
