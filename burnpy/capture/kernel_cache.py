"""The folder of built kernel libraries, `$BURNPY_CACHE/kernels` or `~/.cache/burnpy/kernels`,
trusted only as far as it is the user's own: a library in it is code this process runs.

- The folder is created 0700 (owner only). A folder or a library that belongs to another user,
  or that group or others may write, is refused (UnsafeCache, saying which and why): whoever
  can write there chooses the code that runs.
- Each library `NAME.so` has the SHA-256 of its bytes beside it, `NAME.so.sha256`, written
  when it was built, and is loaded only after its bytes match it: one that does not (cut short
  by a full disk, corrupted) or has none is removed and built again, where loading it would
  crash the process (a library cut short is SIGBUS when mapped).
- A build works in a scratch folder `.build-PID-*` of the cache; its library is fsynced, then
  moved to its name after its hash, so a reader finds a whole library or none. A build killed
  midway leaves its scratch folder: the next build removes those whose process has ended.
"""

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import time
import warnings
from pathlib import Path

SCRATCH = ".build-"
# a scratch folder this old is a leftover even where its process id is alive again (reused)
STALE_S = 3600


class UnsafeCache(PermissionError):
    """The kernel cache, or a library in it, could hold another user's code."""


def folder() -> Path:
    """The cache's folder, created 0700 where missing, after checking it is the user's own."""
    root = os.environ.get("BURNPY_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "burnpy"
    directory = base / "kernels"
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    _check_owner(os.stat(directory), f"the kernel cache {directory}")
    return directory


def _check_owner(status: os.stat_result, what: str) -> None:
    advice = "set BURNPY_CACHE to a folder of your own (it is created 0700)"
    if status.st_uid != os.geteuid():
        raise UnsafeCache(
            f"{what} belongs to user id {status.st_uid}, not to you ({os.geteuid()}): its "
            f"libraries would run as your code; {advice}"
        )
    writers = [
        who
        for who, bit in (("group", stat.S_IWGRP), ("others", stat.S_IWOTH))
        if status.st_mode & bit
    ]
    if writers:
        mode = stat.S_IMODE(status.st_mode)
        raise UnsafeCache(
            f"{what} is writable by {' and '.join(writers)} (mode {mode:o}): they could put "
            f"code there that runs as yours; remove their write access (chmod go-w) or {advice}"
        )


def _hash_file(library: Path) -> Path:
    return library.with_name(f"{library.name}.sha256")


def verified(library: Path) -> bool:
    """Whether `library` is there, the user's own and unchanged since it was built. A damaged
    one, or one without its hash, is removed (with a warning) for the caller to build again."""
    try:
        descriptor = os.open(library, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return False
    except OSError as error:  # (ELOOP: a symbolic link)
        raise UnsafeCache(
            f"the cached kernel library {library} cannot be trusted: {error}"
        ) from None
    with os.fdopen(descriptor, "rb") as file:
        _check_owner(os.fstat(file.fileno()), f"the cached kernel library {library}")
        digest = hashlib.sha256(file.read()).hexdigest()
    try:
        expected = _hash_file(library).read_text().strip()
    except FileNotFoundError:
        expected = None
    if digest == expected:
        return True
    reason = "has no SHA-256 beside it" if expected is None else "does not match its SHA-256"
    warnings.warn(
        f"the cached kernel library {library} {reason} (damaged, or from an interrupted "
        "build): it is removed and built again",
        RuntimeWarning,
        stacklevel=3,
    )
    discard(library)
    return False


def discard(library: Path) -> None:
    """Remove a library and its hash (one that failed to load, or to verify)."""
    for path in (library, _hash_file(library)):
        path.unlink(missing_ok=True)


@contextlib.contextmanager
def scratch(directory: Path):
    """A fresh scratch folder in the cache for one build, removed after it; the leftovers of
    builds that were killed are removed first."""
    _remove_leftovers(directory)
    path = Path(tempfile.mkdtemp(dir=directory, prefix=f"{SCRATCH}{os.getpid()}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _remove_leftovers(directory: Path) -> None:
    for path in directory.glob(f"{SCRATCH}*"):
        pid = path.name[len(SCRATCH) :].partition("-")[0]
        try:
            old = time.time() - path.lstat().st_mtime > STALE_S
        except FileNotFoundError:
            continue
        if old or not pid.isdigit() or not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (a process of another user's)
        pass
    return True


def store(built: Path, library: Path) -> None:
    """Move the library `built` (in a scratch folder) to its name `library`, fsynced, its
    SHA-256 beside it first, both readable and writable by the user alone."""
    with open(built, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
        os.fsync(file.fileno())
    os.chmod(built, 0o700)
    written = built.with_name(f"{built.name}.sha256")
    with open(written, "w") as file:
        file.write(f"{digest}\n")
        file.flush()
        os.fsync(file.fileno())
    os.chmod(written, 0o600)
    os.replace(written, _hash_file(library))
    os.replace(built, library)
    descriptor = os.open(library.parent, os.O_RDONLY)  # the renames themselves, durable
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
