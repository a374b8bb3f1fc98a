"""The C compiler behind `capture(fn, compile=True)`: found, run, and its libraries cached.

The compiler is `$CC` when set (a name on PATH or a path: one that is not there is an error,
never a quiet change of compiler), else the first of `cc`, `gcc`, `clang` on PATH. A library is
built once per source: its name holds the SHA-256 of the source, the flags, the compiler's
version line, this CPU's model and feature flags (the code is built for this CPU) and the
Python ABI, in the user's kernel cache (burnpy.capture.kernel_cache: whose rules say what is
trusted there, and how a build reaches it whole); it is a Python extension module (so Python's
C headers are needed too: burnpy.capture.binding).

The flags keep IEEE semantics: `-O3 -march=native` vectorise (`-fopenmp-simd`: the kernels' loops say
so with `#pragma omp simd`), `-fno-math-errno` only lets a math function skip setting `errno`
(so that the loops call glibc's vector math library, libmvec) and `-fno-trapping-math` only
lets a comparison be evaluated where it might raise a floating-point flag nobody reads (so that
a clamp's two comparisons become selects); neither changes a value. `-ffp-contract=off`: a
product and a sum stay two roundings, as numpy's two ufuncs make them (a fused multiply-add
would round once, and differ from numpy by more than an ulp where the sum cancels).
no `-ffast-math`, so NaN and ±inf go through every kernel as they go through numpy.
"""

import functools
import hashlib
import os
import platform
import shutil
import subprocess
import sysconfig
from pathlib import Path

from burnpy.capture import kernel_cache

FLAGS = (
    "-O3",
    "-march=native",
    "-fno-math-errno",
    "-fno-trapping-math",
    "-ffp-contract=off",
    "-fopenmp-simd",
    "-fPIC",
    "-shared",
    "-std=gnu11",
)
LIBRARIES = ("-lmvec", "-lm")
WHAT_TO_INSTALL = "a C compiler (gcc or clang: `apt install gcc`, or set CC)"


class CompilerMissing(RuntimeError):
    """No C compiler is on this machine: compiled captures replay without fused kernels."""


class BuildFailed(RuntimeError):
    """The compiler refused a kernel's source; the message holds its diagnostics."""


class CompilerNotFound(FileNotFoundError):
    """`$CC` names a compiler that is not there."""


def compiler() -> str:
    """The path of the C compiler to use: `$CC`'s (CompilerNotFound where it is not there), or
    the first found on PATH, or CompilerMissing naming what to install."""
    named = os.environ.get("CC")
    if named:
        path = shutil.which(named)
        if path is None:
            raise CompilerNotFound(
                f"CC={named!r} is not a compiler on PATH nor an executable file; set CC to "
                "a C compiler (gcc, clang or a path to one), or unset it to use cc, gcc or clang"
            )
        return path
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    raise CompilerMissing(
        f"no C compiler found (looked for cc, gcc and clang on PATH); install {WHAT_TO_INSTALL}"
    )


def check_setup() -> None:
    """What the user set up wrong, raised: a `$CC` that is not there (CompilerNotFound), a
    kernel cache that is not theirs alone (kernel_cache.UnsafeCache). Without any compiler,
    nothing: the step replays uncompiled, with a warning."""
    try:
        compiler()
    except CompilerMissing:
        return
    kernel_cache.folder()


@functools.cache
def _version(cc: str) -> str:
    run = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
    return run.stdout.splitlines()[0] if run.stdout else cc


@functools.cache
def _cpu() -> str:
    """What `-march=native` builds for: the CPU's model and feature flags."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return platform.processor() or platform.machine()
    wanted = [line for line in lines if line.startswith(("model name", "flags"))]
    return "\n".join(sorted(set(wanted)))


def key(source: str) -> str:
    """What names a library: its source, how it is built, for which CPU and Python."""
    abi = sysconfig.get_config_var("EXT_SUFFIX") or ""
    text = "\n".join([source, " ".join(FLAGS + LIBRARIES), _version(compiler()), _cpu(), abi])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def build(source: str, name: str, include: str) -> Path:
    """The path of the shared library `name` built from `source` (with `include` on the
    header path): from the cache where it is there and verified, else compiled into it."""
    cc = compiler()
    if not (Path(include) / "Python.h").exists():
        raise CompilerMissing(
            f"Python's C headers are not in {include}; install them (`apt install python3-dev`)"
        )
    directory = kernel_cache.folder()
    library = directory / f"{name}.so"
    if kernel_cache.verified(library):
        return library
    with kernel_cache.scratch(directory) as scratch:
        (scratch / "kernels.c").write_text(source)
        run = subprocess.run(
            # relative names, run in the scratch folder: the library's bytes name no folder
            [cc, *FLAGS, f"-I{include}", "kernels.c", "-o", "kernels.so", *LIBRARIES],
            cwd=scratch,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if run.returncode != 0:
            raise BuildFailed(f"{cc} failed (exit {run.returncode}):\n{run.stderr.strip()}")
        kernel_cache.store(scratch / "kernels.so", library)
    return library
