"""The compiled kernels' cache as someone else would attack it, and as a crash would leave it:
a library planted in a shared cache, a cached library cut short or corrupted, a killed build,
a `$CC` that is not there. A library is code the process runs, so the cache trusts only what
is the user's own and unchanged since it was built (burnpy.capture.kernel_cache)."""

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from burnpy import capture
from burnpy.capture import binding, kernel_cache, toolchain
from burnpy.capture.kernel_cache import UnsafeCache
from burnpy.capture.toolchain import CompilerNotFound
from burnpy.generated import Device, Tensor

pytestmark = pytest.mark.skipif(
    shutil.which("gcc") is None and shutil.which("cc") is None, reason="needs a C compiler"
)
ROOT = Path(__file__).parent.parent
TEXT = "typedef double real;\nvoid twice(long n, real *x) { for (long i = 0; i < n; i++) x[i] *= 2; }\n"
# a library that, if ever loaded, leaves a marker: what a planted library would do instead
PLANTED = """\
#include <stdio.h>
__attribute__((constructor)) static void planted(void) { fclose(fopen(MARKER, "w")); }
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BURNPY_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CC", raising=False)
    return tmp_path / "cache" / "kernels"


def twice(values):
    x = np.array(values, dtype=np.float64)
    binding.load(TEXT, ["twice"])["twice"](len(x), x)
    return x.tolist()


@pytest.fixture(scope="module")
def prebuilt(tmp_path_factory) -> Path:
    """TEXT's library and its hash, built once for the tests that start from a filled cache."""
    folder = tmp_path_factory.mktemp("prebuilt")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BURNPY_CACHE", str(folder))
        patch.delenv("CC", raising=False)
        twice([1.0])
    return folder / "kernels"


@pytest.fixture
def filled(cache, prebuilt) -> Path:
    """The test's cache holding TEXT's library and its hash; the library's path."""
    cache.mkdir(mode=0o700, parents=True)
    for path in prebuilt.iterdir():
        shutil.copy2(path, cache / path.name)
    return built(cache)


def built(cache: Path) -> Path:
    """The one library in the cache (the test's build of TEXT)."""
    (library,) = cache.glob("*.so")
    return library


def plant(path: Path, marker: Path) -> None:
    source, made = path.with_name("planted.c"), path.with_name("planted.so")
    source.write_text(PLANTED)
    define = f'-DMARKER="{marker}"'
    command = [toolchain.compiler(), "-shared", "-fPIC", define, str(source), "-o", str(made)]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    source.unlink()
    # a new file under the name: the library this process may have loaded from it stays
    # mapped, whole (writing over it in place would crash this process)
    os.replace(made, path)


def as_another_user(path: Path, monkeypatch) -> None:
    """`path` belongs to another user: given to one (as root), or seen by a process of another."""
    if os.geteuid() == 0:
        os.chown(path, 65534, 65534)
    else:
        monkeypatch.setattr(os, "geteuid", lambda: os.stat(path).st_uid + 1)


def test_the_cache_is_the_users_alone_and_each_library_has_its_sha256(cache):
    assert twice([1.0, -2.5]) == [2.0, -5.0]
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    library = built(cache)
    assert stat.S_IMODE(library.stat().st_mode) & 0o077 == 0
    digest = hashlib.sha256(library.read_bytes()).hexdigest()
    assert library.with_name(library.name + ".sha256").read_text() == digest + "\n"
    assert [p.name for p in cache.iterdir() if p.name.startswith(".")] == []  # no scratch left


@pytest.mark.parametrize("how", ["another user's", "writable by others"])
def test_a_library_planted_in_a_shared_cache_never_runs(tmp_path, monkeypatch, prebuilt, how):
    """The attacker made `kernels` in a cache folder everyone may write, and put a library
    under the name a victim's build will look for; the victim's capture refuses the folder."""
    monkeypatch.delenv("CC", raising=False)
    name = built(prebuilt).name
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o1777)  # as /tmp is
    planted_folder = shared / "kernels"
    planted_folder.mkdir()
    marker = tmp_path / "planted-library-ran"
    plant(planted_folder / name, marker)
    library = planted_folder / name
    library.with_name(name + ".sha256").write_text(hashlib.sha256(library.read_bytes()).hexdigest())
    if how == "writable by others":
        os.chmod(planted_folder, 0o777)
        expected = r"is writable by group and others \(mode 777\)"
    else:
        as_another_user(planted_folder, monkeypatch)
        expected = r"belongs to user id \d+, not to you"
    monkeypatch.setenv("BURNPY_CACHE", str(shared))
    with pytest.raises(UnsafeCache, match=f"the kernel cache {planted_folder} {expected}"):
        twice([1.0])
    # and a captured step says so before it runs, rather than replaying around it
    x = Tensor.from_data(np.ones(4, dtype=np.float32), device=Device.numpy())
    step = capture(lambda x: (x * 2.0).relu(), compile=True)
    with pytest.raises(UnsafeCache, match="set BURNPY_CACHE to a folder of your own"):
        step(x)
    assert not marker.exists()


def test_a_library_others_may_write_or_a_link_in_ones_own_cache_is_refused(filled, tmp_path):
    library = filled
    os.chmod(library, 0o766)
    with pytest.raises(UnsafeCache, match=f"library {library} is writable by group and others"):
        twice([1.0])
    elsewhere = tmp_path / "elsewhere.so"
    library.rename(elsewhere)
    library.symlink_to(elsewhere)
    with pytest.raises(UnsafeCache, match=f"library {library} cannot be trusted"):
        twice([1.0])


def test_a_library_without_its_sha256_is_built_again_not_loaded(filled, tmp_path):
    library = filled
    marker = tmp_path / "planted-library-ran"
    plant(library, marker)
    library.with_name(library.name + ".sha256").unlink()
    with pytest.warns(RuntimeWarning, match="has no SHA-256 beside it.*built again"):
        assert twice([3.0]) == [6.0]
    assert not marker.exists()
    digest = hashlib.sha256(library.read_bytes()).hexdigest()
    assert library.with_name(library.name + ".sha256").read_text() == digest + "\n"


LOAD_IN_A_FRESH_PROCESS = f"""
import warnings
import numpy as np
from burnpy.capture import binding
x = np.array([1.0, 2.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    binding.load({TEXT!r}, ["twice"])["twice"](2, x)
print(x.tolist(), [str(w.message) for w in caught])
"""


@pytest.mark.parametrize("damage", ["cut in half", "corrupted"])
def test_a_damaged_cached_library_is_built_again_never_a_crash(filled, damage):
    """Loading a library cut short is SIGBUS, a corrupted one anything: each is checked
    against its SHA-256 before it is loaded, in a process that never loaded it."""
    library = filled
    data = bytearray(library.read_bytes())
    if damage == "cut in half":
        data = data[: len(data) // 2]
    else:
        rng = np.random.default_rng(0)
        for index in rng.integers(0, len(data), 64):
            data[index] ^= 0xFF
    damaged = library.with_name("damaged.so")
    damaged.write_bytes(bytes(data))
    os.replace(damaged, library)  # (as plant does)
    run = subprocess.run(
        [sys.executable, "-c", LOAD_IN_A_FRESH_PROCESS],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert run.stdout.startswith("[2.0, 4.0] ['the cached kernel library"), run.stdout
    assert "does not match its SHA-256" in run.stdout
    digest = hashlib.sha256(library.read_bytes()).hexdigest()
    assert library.with_name(library.name + ".sha256").read_text() == digest + "\n"


def test_a_named_compiler_that_is_not_there_is_an_error_before_the_step_runs(cache, monkeypatch):
    monkeypatch.setenv("CC", "no-such-cc")
    with pytest.raises(CompilerNotFound, match="CC='no-such-cc' is not a compiler on PATH"):
        toolchain.compiler()
    calls = []

    def step(x):
        calls.append(1)
        return x * 2.0

    x = Tensor.from_data(np.ones(4, dtype=np.float32), device=Device.numpy())
    with pytest.raises(CompilerNotFound, match="unset it to use cc, gcc or clang"):
        capture(step, compile=True)(x)
    assert calls == []


# a compiler that answers `--version`, then takes its time over a build
SLOW_COMPILER = '#!/bin/sh\n[ "$1" = --version ] && echo slow-cc 1 && exit 0\nsleep 60\n'
BUILD_IN_A_CHILD = f"""
from burnpy.capture import binding
binding.load({TEXT!r}, ["twice"])
"""


def test_a_killed_builds_leftovers_are_removed_by_the_next_build(cache, tmp_path):
    slow = tmp_path / "slow-cc"
    slow.write_text(SLOW_COMPILER)
    slow.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CC": str(slow)}
    child = subprocess.Popen(
        [sys.executable, "-c", BUILD_IN_A_CHILD], env=env, cwd=ROOT, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        while not list(cache.glob(".build-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        (leftover,) = cache.glob(".build-*")
    finally:
        os.killpg(child.pid, signal.SIGKILL)  # the build and its compiler, midway
        child.wait(timeout=30)
    assert leftover.exists()
    # one of a build still running (this process's) is not a leftover
    running = cache / f".build-{os.getpid()}-running"
    running.mkdir()
    assert twice([1.0]) == [2.0]
    assert not leftover.exists() and running.exists()


def test_a_library_is_fsynced_before_it_is_moved_to_its_name(cache, monkeypatch):
    events = []
    fsync, replace = os.fsync, os.replace

    def recorded_fsync(descriptor):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        fsync(descriptor)

    def recorded_replace(source, target):
        events.append(("replace", str(source)))
        replace(source, target)

    monkeypatch.setattr(kernel_cache.os, "fsync", recorded_fsync)
    monkeypatch.setattr(kernel_cache.os, "replace", recorded_replace)
    twice([1.0])
    synced = [path for kind, path in events if kind == "fsync"]
    moved = [path for kind, path in events if kind == "replace"]
    assert [Path(p).name for p in moved] == ["kernels.so.sha256", "kernels.so"]
    for path in moved:  # each written and fsynced before its move
        assert events.index(("fsync", path)) < events.index(("replace", path))
    assert synced[-1] == str(cache)  # and the folder after both moves
