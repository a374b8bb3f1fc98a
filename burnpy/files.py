"""Files written so that a crash never leaves a torn one, and read with messages that say what
is wrong with them.

A write goes to a temporary file beside the target (so that the rename stays on one file
system), made by `tempfile.mkstemp`: a random name `.NAME.PID.RANDOM.partial`, created with
O_EXCL, so a file or symbolic link someone planted under a name this process might pick is
never opened, let alone written through. It is given the mode the umask gives (as `open`
would), flushed to disk and renamed over the target with `os.replace`: a reader sees the old
file or the new one, never a part. The temporary is removed if the write fails; one that a
killed process of this user left is removed by the next write to the same target, and
anything else by that pattern (another user's, a link) is left alone.
"""

import os
import tempfile
from pathlib import Path

from safetensors import SafetensorError, safe_open

_SUFFIX = ".partial"


def temporary(path) -> tuple[int, Path]:
    """A new temporary beside `path`, open for writing (its descriptor and path), with the
    mode the umask gives; the stale ones of this user's dead processes are removed first."""
    path = Path(path)
    _remove_stale(path)
    handle, name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=_SUFFIX
    )
    os.fchmod(handle, 0o666 & ~_umask())
    return handle, Path(name)


def temporary_folder(path, suffix: str) -> Path:
    """A new empty folder beside `path` (`.NAME.PID.RANDOM<suffix>`, made by
    `tempfile.mkdtemp`), with the mode the umask gives: a folder written whole, then renamed."""
    path = Path(path)
    made = tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=suffix)
    os.chmod(made, 0o777 & ~_umask())
    return Path(made)


def _remove_stale(path: Path) -> None:
    for stale in path.parent.glob(f".{path.name}.*{_SUFFIX}"):
        pid = stale.name[len(path.name) + 2 : -len(_SUFFIX)].partition(".")[0]
        try:
            status = stale.lstat()
        except FileNotFoundError:
            continue
        mine = status.st_uid == os.geteuid() and stale.is_file() and not stale.is_symlink()
        if mine and pid.isdigit() and not _alive(int(pid)):
            stale.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (a process of another user's)
        pass
    return True


def _umask() -> int:
    """The process's umask, read without changing it (where /proc says it: setting it to read
    it would give a file another thread creates meanwhile the wrong mode)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_bytes(path, data: bytes) -> None:
    """Write `data` to `path` atomically: all of it or, after a crash, the old file."""
    path = Path(path)
    handle, partial = temporary(path)
    try:
        with os.fdopen(handle, "wb") as file:
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
