"""Element-wise chains: consecutive element-wise kernel calls of a recording as one C loop.

A chain is a run of element-wise calls (the table below) in which each call after the first
reads the one before it, whose result nothing else reads: `float_mul_scalar` then `float_add`
then `relu` is one loop computing `relu(x * s + b)`, with no array between the three. A single
call is a chain too: its loop writes into a buffer the plan gives it, in place of a dying input
(a residual add into the activation it adds to, `relu` into the linear layer's output).

An operand is an array of the result's shape (C-contiguous), a row the result repeats over its
leading dims (a bias: `x[i % d]`), a value per block of its trailing dims (a convolution's bias
or a squeeze-and-excite scale over [batch, channels, h, w]: one per channel, `x[r % c]` in a
loop per block of h * w elements; one block size a chain), a single value (`x[0]`), or a number
(a parameter of the kernel). The kernels are written for the step (burnpy.capture.compiler
builds them with it), named chain_0, chain_1, ... in order (chains of the same loop share one),
each headed by the calls it fuses.
"""

import math
import re

import numpy as np

from burnpy.capture import csource
from burnpy.capture.fusion import FLOATS, Fused, Kernel, memory_dtype
from burnpy.capture.planning import Flow
from burnpy.capture.recorder import EntryKind, Integer, Number, Value
from burnpy.generated.catalogue import AUTODIFF_OPS


def table(ops) -> dict:
    """Recorded kernel -> (its parameters, its C expression) of the element-wise `ops`
    (AutodiffOps: a catalogue's)."""
    return {op.name: (op.args, _generic(op.c)) for op in ops if op.c is not None}


_TOKEN = re.compile(r"\{\w+\}|\d+(?:\.\d+)?(?:e[-+]?\d+)?|\w+|<=|>=|==|!=|\S")


def _generic(c: str) -> str:
    """A catalogue's C expression (checked token by token: codegen/validate/elementwise.py) as
    the kernels' C for every dtype: its math functions `real`'s (`EXP`), a literal with a
    point or an exponent `R(...)`, so that float32 math stays float32."""
    return _TOKEN.sub(lambda token: _generic_token(token.group(0)), c)


def _generic_token(token: str) -> str:
    if token in csource.MATH:
        return token.upper()
    if token[0].isdigit() and ("." in token or "e" in token):
        return f"R({token})"
    return token


# recorded kernel -> (its parameters, the C expression of one element): every op whose
# catalogue entry declares one (ops.yaml's `c:`, checked by the generator); `relu` is the
# prelude's
OPS = table(AUTODIFF_OPS)

KERNEL = """\
/* {ops}, element by element in one loop.
   Fuses: {names}. */
void {name}(long n, {parameters})
{{
#pragma omp simd
    for (long i = 0; i < n; i++)
        out[i] = {expression};
}}
"""

# A chain with an operand per block of {block} elements: the loop over one block's elements
# within a loop over the blocks (r), so that the inner loop stays a plain one.
BLOCKS_KERNEL = """\
/* {ops}, element by element in one loop per block of {block}.
   Fuses: {names}. */
void {name}(long n, {parameters})
{{
    for (long r = 0; r < n / {block}; r++) {{
        const long start = r * {block};
#pragma omp simd
        for (long i = start; i < start + {block}; i++)
            out[i] = {expression};
    }}
}}
"""


class _Chain:
    """A chain being built: its calls, their arrays and numbers, the expression so far."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype
        self.entries: list = []
        self.arrays: list = []  # (Value, its index expression)
        self.numbers: list = []
        self.expression = ""
        self.tail = None  # the last call's result
        self.block = None  # the elements of a block, where an operand holds one value a block

    def operand(self, value) -> str | None:
        """The C text of one operand, or None when it cannot be one."""
        if value is self.tail and self.tail is not None:
            return f"({self.expression})"
        if type(value) in (float, int, Number, Integer):
            self.numbers.append(value)
            return f"(real)s{len(self.numbers) - 1}"
        if type(value) is not Value or not _same_dtype(memory_dtype(value.data), self.dtype):
            return None
        data = value.data
        index = _index(data.shape, self.shape)
        if index is None:
            block = _block(data.shape, self.shape)
            if block is None or self.block not in (None, block):
                return None
            self.block = block
            index = f"r % {data.size}"
        for known, (array, _) in enumerate(self.arrays):
            if array is value:
                return f"a{known}[{index}]"
        self.arrays.append((value, index))
        return f"a{len(self.arrays) - 1}[{index}]"


def _same_dtype(dtype, wanted) -> bool:
    # (not `dtype == wanted`: numpy reads None as float64)
    return dtype is not None and dtype == wanted


def _index(shape, full) -> str | None:
    """How element i of a result of shape `full` reads an operand of `shape`."""
    if tuple(shape) == tuple(full):
        return "i"
    size = int(np.prod(shape, dtype=np.int64))
    if size == 1:
        return "0"
    if len(shape) <= len(full) and tuple(shape) == tuple(full[len(full) - len(shape) :]):
        return f"i % {size}"
    return None


def _block(shape, full) -> int | None:
    """The elements of a block of trailing dims of a result of shape `full` that an operand of
    `shape` holds one value for (its dims are the result's before those, then ones), or None."""
    shape = list(shape)
    while shape and shape[0] == 1:
        shape.pop(0)
    dims = list(shape)
    while dims and dims[-1] == 1:
        dims.pop()
    ones = len(shape) - len(dims)
    if not ones or not dims or len(shape) > len(full):
        return None
    end = len(full) - ones
    if list(full[end - len(dims) : end]) != dims:
        return None
    return math.prod(full[end:])


def _elementwise(entry):
    """(parameters, C expression) of a recorded call, or None: a catalogue op's kernel (a call
    of the backend), or a package's own (a call of its bound kernel: burnpy.runtime.extension
    gives the package's kernels its ops' `c:` as `elementwise`)."""
    if entry.kind is EntryKind.CALL:
        return OPS.get(entry.target)
    if entry.kind is EntryKind.FUNCTION:
        owner = getattr(entry.target, "__self__", None)
        found = getattr(owner, "elementwise", {}).get(getattr(entry.target, "__name__", None))
        return None if found is None else (found[0], _generic(found[1]))
    return None


def _name(entry) -> str:
    return entry.target if entry.kind is EntryKind.CALL else entry.target.__name__


def _bound(entry):
    parameters, _ = _elementwise(entry)
    if entry.kwargs or len(entry.args) != len(parameters):
        return None
    return dict(zip(parameters, entry.args))


def _extend(chain: _Chain, entry) -> bool:
    """Add `entry` to `chain` (its result the chain's new tail); False, chain unchanged, when
    one of its operands cannot be one."""
    saved = (len(chain.arrays), len(chain.numbers), chain.block)
    bound = _bound(entry)
    out = entry.out
    if bound is None or type(out) is not Value:
        return False
    if not _same_dtype(memory_dtype(out.data), chain.dtype):
        return False
    if out.data.shape != chain.shape:
        return False
    texts = {}
    for key, value in bound.items():
        text = chain.operand(value)
        if text is None:
            del chain.arrays[saved[0] :], chain.numbers[saved[1] :]
            chain.block = saved[2]
            return False
        texts[key] = text
    chain.expression = _elementwise(entry)[1].format(**texts)
    chain.entries.append(entry)
    chain.tail = out
    return True


def find(entries: list, flow: Flow, kept: set) -> dict:
    """The chains of `entries` (a recording's calls): index of a chain's last call -> its
    Fused call, for the calls of every chain; `flow`: the entries' planning.Flow,
    `kept`: values the step returns (never inside a chain)."""
    found: dict = {}
    chain = None
    for index, entry in enumerate(entries):
        if _elementwise(entry) is None or type(entry.out) is not Value:
            chain = _close(chain, found, index - 1)
            continue
        tail = chain.tail if chain else None
        continues = (
            chain is not None and flow.read_once(tail, kept) and any(v is tail for v in entry.args)
        )
        if continues and _extend(chain, entry):
            continue
        chain = _close(chain, found, index - 1)
        data = entry.out.data
        dtype = memory_dtype(data)
        if dtype in FLOATS and data.ndim and math.prod(data.shape):
            chain = _Chain(data.shape, dtype)
            if not _extend(chain, entry):
                chain = None
    _close(chain, found, len(entries) - 1)
    return found


def _close(chain, found: dict, last: int):
    if chain is not None and chain.entries:
        found[last] = chain
    return None


def fused(chain: _Chain, known: dict) -> Fused:
    """The Fused call of a chain: kernel `chain_<k>` of its dtype, the one already written for
    a chain of the same loop (`known`: (dtype, loop) -> its name), else a new one."""
    dtype = FLOATS[np.dtype(chain.dtype)]
    ops = ", ".join(_name(e) for e in chain.entries)
    parameters = [f"const real *a{k}" for k in range(len(chain.arrays))]
    parameters += [f"double s{k}" for k in range(len(chain.numbers))] + ["real *out"]
    loop = (dtype, ", ".join(parameters), chain.expression, chain.block)
    name = known.setdefault(loop, f"chain_{len(known)}")
    text = (KERNEL if chain.block is None else BLOCKS_KERNEL).format(
        ops=ops,
        names=ops,
        name=name + "_{suffix}",  # (the dtype's, as every kernel's)
        parameters=", ".join(parameters),
        expression=chain.expression,
        block=chain.block,
    )
    out = chain.tail
    args = [math.prod(out.data.shape), *(v for v, _ in chain.arrays), *chain.numbers, out]
    return Fused(Kernel(name, text, step=True), dtype, args, [out], f"{ops} (one loop)")
