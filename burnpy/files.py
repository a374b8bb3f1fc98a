"""Files written so that a crash never leaves a torn one, and read with messages that say what
is wrong with them.

A write goes to a temporary file beside the target (`.NAME.PID.partial`, so a rename stays on
one file system), is flushed to disk and renamed over the target with `os.replace`: a reader
sees the old file or the new one, never a part. The temporary is removed if the write fails;
one a killed process left is removed by the next write to the same target. Files take the mode
the umask gives, as `open` would.
"""

import os
from pathlib import Path

from safetensors import SafetensorError, safe_open

_SUFFIX = ".partial"


def temporary(path) -> Path:
    """The temporary beside `path` this process writes first; stale ones of dead processes
    are removed."""
    path = Path(path)
    for stale in path.parent.glob(f".{path.name}.*{_SUFFIX}"):
        pid = stale.name[len(path.name) + 2 : -len(_SUFFIX)]
        if pid.isdigit() and not _alive(int(pid)):
            stale.unlink(missing_ok=True)
    return path.parent / f".{path.name}.{os.getpid()}{_SUFFIX}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def write_bytes(path, data: bytes) -> None:
    """Write `data` to `path` atomically: all of it or, after a crash, the old file."""
    path = Path(path)
    partial = temporary(path)
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    sync_directory(path.parent)


def write_text(path, text: str) -> None:
    write_bytes(path, text.encode())


def sync_directory(directory) -> None:
    """Flush a directory's entries (a rename into it) to disk, where the OS allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def open_safetensors(path, what: str):
    """`safe_open(path)` for numpy, or an error naming the path and the likely cause (a
    directory, no permission, a truncated file, a PyTorch pickle, not safetensors at all),
    chained to the library's own."""
    path = Path(path)
    try:
        return safe_open(str(path), framework="numpy")
    except (OSError, SafetensorError) as error:
        raise _unreadable(path, what, error) from error


def _unreadable(path: Path, what: str, error) -> Exception:
    head = f"cannot read {what} {path}"
    if path.is_dir():
        return IsADirectoryError(
            f"{head}: it is a directory; pass the .safetensors file inside it ({error})"
        )
    if not path.exists():
        return FileNotFoundError(f"{head}: no such file ({error})")
    if isinstance(error, PermissionError) or not os.access(path, os.R_OK):
        return PermissionError(f"{head}: no permission to read it ({error})")
    with open(path, "rb") as file:
        start = file.read(8)
    size = path.stat().st_size
    if start[:2] == b"PK" or start[:1] == b"\x80":
        return ValueError(
            f"{head}: it is a PyTorch pickle (torch.save), not safetensors; convert it once "
            "with `from safetensors.torch import save_file; save_file(torch.load(path), "
            f"'model.safetensors')` ({error})"
        )
    if size < 8:
        return ValueError(
            f"{head}: it holds {size} bytes, fewer than a safetensors header's 8; the file is "
            f"truncated or empty ({error})"
        )
    header = int.from_bytes(start, "little")
    if header > size - 8:
        if header < 100_000_000 and start[-1:] == b"\x00":
            cause = (
                f"truncated: its header says {header} bytes of metadata follow, but only "
                f"{size - 8} do"
            )
        else:
            cause = "not a safetensors file (its first 8 bytes are no header length)"
        return ValueError(f"{head}: {cause} ({error})")
    return ValueError(
        f"{head}: not a valid safetensors file (truncated, or written by something else) "
        f"({error})"
    )
