"""`capture(fn, compile=True)`: a recorded step's function, optimised after recording.

The recorded calls are rewritten in four passes, and written as a straight-line function again
(burnpy.capture.writer):

0. constants (burnpy.capture.constants), after the slice gradients' rewrite
   (burnpy.capture.slices): a call whose results are the same at every replay
   (computed from constants and guarded buffers alone) is dropped, its recorded arrays bound as
   globals of the function;
1. fusion: runs of element-wise calls become one loop written for the step
   (burnpy.capture.chains), two consecutive calls a pair rule knows (a masked fill and the
   softmax of what it filled) and each call a rule knows become a call of one C kernel
   (burnpy.capture.fusion, burnpy.capture.csource); each writes its results into arrays given
   to it; before them, a call whose checks and geometry the recording proved (a pointwise
   convolution) is made straight to the function computing it (burnpy.capture.direct);
2. memory planning (burnpy.capture.planning): each of those arrays is an input dying at that
   call (in place), a dead intermediate's buffer, or a new one;
3. the kernels it calls are bound as globals of the function under their C names, from one
   extension module per dtype holding every fused kernel (burnpy.capture.binding), built once
   per machine and cached (burnpy.capture.toolchain).

Before any kernel runs, the function checks that its inputs have the layouts (C-contiguous or
not) they had when recorded, which the fusion relied on; with another layout it runs the
uncompiled function instead.
"""

import functools
import operator
import sys

import numpy as np

from burnpy.capture import (
    binding,
    chains,
    constants,
    csource,
    direct,
    fusion,
    named,
    planning,
    slices,
    updates,
)
from burnpy.capture.fusion import Fusing
from burnpy.capture.planning import Flow, Place
from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.capture.writer import Source, _format, write
from burnpy.generated import catalogue
from burnpy.runtime.activity import Phase
from burnpy.runtime.autodiff.ops import AutodiffOp

# Every recorded kernel the passes name, resolved against the library's catalogue now: an op
# renamed or gone in ops.yaml stops the import, where it would silently turn a fusion off.
NAMED = (*fusion.named(), *slices.NAMED, *direct.NAMED)
named.check(
    NAMED,
    {op.name: op for op in vars(catalogue).values() if isinstance(op, AutodiffOp)},
    "ops.yaml",
)


class Compiled:
    """A compiled step: its Source (the straight-line function), the C source of each of its
    kernels by name, and its memory plan."""

    def __init__(self, source: Source, kernels: dict, plan, owned: list):
        self.source = source
        self.kernels = kernels
        self.plan = plan
        self.owned = owned  # the inputs an update may write over, in its `owned` parameter
        self.seconds = 0.0  # how long compiling it took (set by the captured step)


# (Kernel name, dtype) -> its functions by C name: each kernel is one library, built once per
# machine (the kernel cache) and loaded once per process.
LOADED: dict = {}


def library(dtype: str) -> dict:
    """Every fused kernel of `dtype`, by C name."""
    return functions([(k, dtype) for k in fusion.KERNELS if dtype in k.dtypes])


def functions(kernels, chains: dict | None = None) -> dict:
    """C name -> function, of `kernels` ((Kernel, dtype) pairs) and of `chains` (dtype -> a
    step's element-wise chains, fusion.Fused: one library per dtype). A kernel is a library of
    its own, so that a step waits only for the kernels it calls: those not yet built on this
    machine are built at once, in parallel with each other and with the chains."""
    missing = {(k.name, dtype): k for k, dtype in kernels if (k.name, dtype) not in LOADED}
    jobs = [
        (csource.c_source((kernel,), dtype), [f"{kernel.name}_{csource.SUFFIXES[dtype]}"])
        for (_, dtype), kernel in sorted(missing.items())
    ]
    for dtype, own in sorted((chains or {}).items()):
        texts = tuple(csource.typed(fused.kernel.c, dtype) for fused in own)
        jobs.append((csource.c_source((), dtype, extra=texts), [fused.name for fused in own]))
    built = binding.load_all(jobs)
    LOADED.update(zip(sorted(missing), built))
    found = {name: f for library in built[len(missing) :] for name, f in library.items()}
    for kernel, dtype in kernels:
        found.update(LOADED[kernel.name, dtype])
    return found


def compile_step(name, tape, inputs, outputs, backends, filename, uncompiled, owned=()) -> Compiled:
    """The compiled function of a recorded tape (what `write` takes, and the uncompiled
    function, which it runs for inputs of another layout, with `owned` the inputs its updates
    may write over). Raises toolchain.CompilerMissing without a C compiler, and whatever else
    fails; the caller replays uncompiled then."""
    calls = [e for e in tape.entries if e.kind not in (EntryKind.SCALAR, EntryKind.GUARD)]
    kept = {v.name for v in planning.values_in(outputs, [])}
    calls = slices.rewrite(calls, Flow(calls), kept)  # (before the zeros it reads are folded)
    calls, folded, checked = constants.fold(calls, tape.guarded, kept)
    for buffer in checked:  # (a guard on its values, as for a buffer a shape was read from)
        tape.read_value(buffer, "a constant of the compiled step")
    calls = direct.rewrite(calls, backends, tape)
    numbers = [e for e in tape.entries if e.kind in (EntryKind.SCALAR, EntryKind.GUARD)]
    # The kernels take numpy arrays, or a Torch-backend step's CPU tensors viewed as numpy
    # arrays at each call (one library of arrays per step: a step on both backends fuses only
    # its NumPy-backend calls)
    on_torch = all(Fusing.of(backend) is Fusing.TORCH for backend in backends.values())
    entries = [*numbers, *_fused(calls, kept, backends, tape, on_torch)]
    kernel_entries = [e for e in entries if e.kind not in (EntryKind.SCALAR, EntryKind.GUARD)]
    plan = planning.plan(kernel_entries, [*inputs, *folded], outputs)  # (never written over)
    # the uncompiled function's `owned` first, so that it is a prefix of this one's
    names = list(owned) + [n for n in plan.owned if n not in owned]
    entries = updates.in_place(
        _with_buffers(entries, plan, names), inputs, outputs, backends, names
    )
    namespace, kernels = _namespace(entries, folded, on_torch)
    preamble = _layout_check(inputs, len(owned)) if kernels else ()
    namespace["uncompiled"] = uncompiled
    namespace["contiguous"] = _contiguous
    extra = ("owned",) if names else ()  # which of `names` the replay found owned
    source = write(name, entries, inputs, outputs, backends, filename, namespace, preamble, extra)
    return Compiled(source, kernels, plan, names)


def _fused(calls: list, kept: set, backends: dict, tape, on_torch: bool) -> list:
    """Pass 1: `calls` with each run of element-wise calls, each pair and each call that a
    fused kernel computes replaced by the kernel's call (and the calls it needs around it)."""
    flow = Flow(calls)
    memory = Fusing.TORCH if on_torch else Fusing.NUMPY
    fusing = {v for v, b in backends.items() if Fusing.of(b) is memory}
    found = chains.find(calls, flow, kept)
    found = {i: chain for i, chain in found.items() if chain.entries[0].backend in fusing}
    in_chains = {id(e) for chain in found.values() for e in chain.entries}
    paired = _pairs(calls, flow, kept, backends, in_chains)
    training = any(e.phase == Phase.BACKWARD.value for e in calls)
    entries: list = []
    loops: dict = {}  # the chains' loops written so far -> their kernels' names
    copies: dict = {}  # name of a value a kernel reads C-contiguous -> its copy
    for index, entry in enumerate(calls):
        fused = None
        if index in found:
            fused = chains.fused(found[index], loops)
        elif id(entry) in in_chains or index + 1 in paired:
            continue
        elif index in paired:
            fused = paired[index]
        elif entry.kind is EntryKind.CALL and entry.backend in fusing:
            fused = fusion.fuse(entry, backends[entry.backend], training)
        if fused is None:
            entries.append(entry)
            continue
        entries += _contiguous_copies(fused, entry, copies, tape)
        entries += [_around(call, entry) for call in fused.before]
        fusion.check_arguments(fused)
        if fused.kernel.step:  # a chain: its label names its calls
            label = fused.label
        elif index in paired:
            label = f"{fused.label} (fused)"
        elif fused.label == entry.label:
            label = f"{entry.label} (fused)"
        else:
            label = f"{fused.label} (fused: {entry.label})"
        entries.append(
            Entry(EntryKind.FUSED, fused, fused.args, {}, None, label, entry.phase, entry.backend)
        )
        for alias, value in fused.aliases:
            entries.append(
                Entry(EntryKind.ALIAS, None, (value,), {}, alias, "the same array", entry.phase)
            )
        entries += [_around(call, entry) for call in fused.after]
    return entries


def _contiguous_copies(fused, entry, copies: dict, tape) -> list:
    """The calls making a C-contiguous copy of each argument of `fused` recorded as a view
    that is not (`Fused.copies`), each made once for every kernel reading it (`copies`: name ->
    its copy); `fused` then reads the copies."""
    made = []
    for value in fused.copies:
        if value.name not in copies:
            copy = copies[value.name] = tape.value(np.ascontiguousarray(value.data), "contiguous")
            what = "a C-contiguous copy for the fused kernels"
            args = ((value,), {}, copy, what, entry.phase, entry.backend)
            made.append(Entry(EntryKind.FUNCTION, np.ascontiguousarray, *args))
    fused.args = [copies[a.name] if any(a is v for v in fused.copies) else a for a in fused.args]
    return made


def _namespace(entries: list, folded: list, on_torch: bool) -> tuple[dict, dict]:
    """Pass 3: the generated function's globals (the folded constants, `empty` for the plan's
    new buffers, each fused kernel it calls under its C name, built or loaded), and the C
    source of each of those kernels by name."""
    namespace: dict = {
        "empty": np.empty,
        **{name: np.dtype(name).type for name in ("float32", "float64", "int64")},
    }
    namespace.update((value.name, value.data) for value in folded)
    bind = binding.on_tensors if on_torch else _as_it_is
    if on_torch:  # (the plan's new buffers: `empty(shape, torch.float32)`)
        torch = sys.modules["torch"]
        namespace.update(empty=functools.partial(_empty_tensor, torch.empty), torch=torch)
    kernels: dict = {}
    library: set = set()  # (Kernel, dtype) of the library kernels this step calls
    written: dict = {}  # dtype -> this step's own kernels (its chains)
    for entry in entries:
        if entry.kind is EntryKind.FUSED and entry.target.name not in kernels:
            fused = entry.target
            kernels[fused.name] = csource.typed(fused.kernel.c, fused.dtype)
            if fused.kernel.step:
                written.setdefault(fused.dtype, []).append(fused)
            else:
                library.add((fused.kernel, fused.dtype))
    built = functions(sorted(library, key=lambda k: (k[0].name, k[1])), written)
    namespace.update((name, bind(kernel)) for name, kernel in built.items())
    return namespace, kernels


def _around(call, entry) -> Entry:
    """The tape entry of a call before or after a fused call of `entry` (`Fused.before`,
    `Fused.after`)."""
    label = f"{call.label} (fused: {entry.label})"
    if type(call) is fusion.Library:
        args = (call.args, {}, call.out, label, entry.phase, entry.backend)
        return Entry(EntryKind.FUNCTION, call.function, *args)
    fusion.check_arguments(call)
    return Entry(EntryKind.FUSED, call, call.args, {}, None, label, entry.phase, entry.backend)


def _pairs(calls: list, flow: Flow, kept: set, backends: dict, taken: set) -> dict:
    """Two consecutive calls that one kernel computes (fusion.PAIRS), the first's result read
    by the second alone: index of the second -> its fused call. `taken`: calls in chains."""
    found: dict = {}
    for index in range(1, len(calls)):
        first, second = calls[index - 1], calls[index]
        if index - 1 in found or id(first) in taken or id(second) in taken:
            continue
        if (
            first.kind is not EntryKind.CALL
            or second.kind is not EntryKind.CALL
            or first.backend != second.backend
        ):
            continue
        made = first.out
        if type(made) is not Value or not flow.read_once(made, kept):
            continue
        fused = fusion.fuse_pair(first, second, backends[second.backend])
        if fused is not None:
            found[index] = fused
    return found


def _with_buffers(entries: list, plan, owned: list) -> list:
    """`entries` with, before each fused call, the lines that give its outputs their arrays
    (`owned`: the names of the inputs the replay passes in `owned`)."""
    named: dict = {}
    for entry in entries:
        found = planning.values_in((entry.args, entry.kwargs, entry.out), [])
        if entry.kind is EntryKind.FUSED:
            found += entry.target.outputs
        named.update((value.name, value) for value in found)
    planned = []
    for entry in entries:
        if entry.kind is EntryKind.FUSED:
            reads = {v.name for v in entry.args if type(v) is Value}
            for output in entry.target.outputs:
                where = plan.buffers[output.name]
                if where.place is Place.NEW:
                    args, label = (), None
                elif where.place is Place.OWNED:
                    args = (named[where.holder], owned.index(where.holder))
                    label = "in place when the module or optimiser owns it"
                else:
                    holder = named[where.holder]
                    args, label = (holder,), "in place" if holder.name in reads else "reused"
                buffer = Entry(EntryKind.BUFFER, where.place, args, {}, output, label, entry.phase)
                planned.append(buffer)
        planned.append(entry)
    return planned


def _as_it_is(kernel):
    return kernel


def _empty_tensor(empty, shape, dtype):
    return empty(shape, dtype=dtype)


def _is_contiguous(array) -> bool:
    """Whether a numpy array is C-contiguous, or a torch tensor contiguous (row-major)."""
    if type(array) is np.ndarray:
        return bool(array.flags.c_contiguous)
    return array.is_contiguous()


_C_CONTIGUOUS = operator.attrgetter("flags.c_contiguous")


def _contiguous(*arrays) -> tuple:
    try:  # numpy arrays, read in one C loop (a replay checks every input)
        return tuple(map(_C_CONTIGUOUS, arrays))
    except AttributeError:  # a torch tensor among them
        return tuple(_is_contiguous(a) for a in arrays)


def _layout_check(inputs: list, owned: int) -> tuple[str, ...]:
    """The lines that run the uncompiled function when an input's layout is not the recorded
    one (a numpy input's or torch input's: C-contiguous or not); it takes the first `owned`
    of `owned`."""
    torch = sys.modules.get("torch")
    kinds = (np.ndarray,) if torch is None else (np.ndarray, torch.Tensor)
    arrays = [v for v in inputs if type(v) is Value and type(v.data) in kinds]
    if not arrays:
        return ()
    layouts = tuple(_is_contiguous(v.data) for v in arrays)
    names = ", ".join(v.name for v in arrays)
    every = ", ".join([*(v.name for v in inputs), *(["owned[:%d]" % owned] if owned else [])])
    text = (
        "# the fused kernels were planned for the inputs' recorded layouts\n"
        f"if contiguous({names}) != {layouts!r}:\n"
        f"    return uncompiled({every})\n"
    )
    return tuple(_format(text, 96))
