"""Element-wise fusion from the catalogue: an entry's `c:` (the C expression of one element) is
checked token by token when the catalogue is read, and a compiled capture fuses runs of such
ops into one loop with no change to the compiler, a scratch op the day it is added."""

from pathlib import Path

import numpy as np
import pytest

from burnpy import Device, Tensor, capture
from burnpy.capture import binding, chains, csource
from burnpy.capture.planning import Flow
from burnpy.capture.recorder import Entry, EntryKind, Value
from burnpy.codegen.__main__ import read_catalogue
from burnpy.codegen.validate.report import CatalogueErrors

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = """
  - name: scratch_cube_add
    kind: float
    args: [tensor: float, rhs: float]
    returns: float
    routing: tensor
    untracked: true
    c: "{tensor} * {tensor} * {tensor} + {rhs}"
    doc: A scratch element-wise op.
"""


def _catalogue(tmp_path, entry: str):
    text = (ROOT / "ops.yaml").read_text(encoding="utf-8")
    anchor = "  - name: float_square\n"
    path = tmp_path / "ops.yaml"
    path.write_text(text.replace(anchor, entry.lstrip("\n") + "\n" + anchor, 1), encoding="utf-8")
    return read_catalogue(str(path))


@pytest.mark.parametrize(
    "c, message",
    [
        ('"{tensor} * 2; system(0)"', r"holds '; system\(0\)'"),
        ('"{tensor} * {other}"', r"reads \{other\}, which is not an argument"),
        ('"puts({tensor})"', "names 'puts': only calls of relu, exp"),
        ('"{tensor} * 2"', "does not read rhs"),
        ('"({tensor} + {rhs}"', "unbalanced parentheses"),
        ('"{tensor.__class__} + {rhs}"', r"holds '\{tensor.__class__\}"),
    ],
)
def test_a_c_expression_is_checked_token_by_token(tmp_path, c, message):
    entry = SCRATCH.replace('"{tensor} * {tensor} * {tensor} + {rhs}"', c)
    with pytest.raises(CatalogueErrors, match=message):
        _catalogue(tmp_path, entry)


def test_only_an_element_wise_float_op_declares_one(tmp_path):
    entry = SCRATCH.replace("rhs: float]", "rhs: float, dim: dim]")
    with pytest.raises(CatalogueErrors, match="argument 'dim' is dim: an element-wise"):
        _catalogue(tmp_path, entry)
    entry = SCRATCH.replace("kind: float", "kind: int").replace("[tensor: float", "[tensor: int")
    with pytest.raises(CatalogueErrors, match="`c` is the C expression of an element-wise"):
        _catalogue(tmp_path, entry)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_scratch_element_wise_op_fuses_with_no_change_to_the_compiler(tmp_path, dtype):
    scratch = _catalogue(tmp_path, SCRATCH)
    ops = [op.autodiff_op for op in scratch.ops if op.autodiff_op is not None]
    table = chains.table(ops)
    assert table["scratch_cube_add"] == (
        ("tensor", "rhs"),
        "{tensor} * {tensor} * {tensor} + {rhs}",
    )
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, 3, 8)).astype(dtype)
    x[0, :3] = [np.nan, np.inf, -np.inf]
    cube = x * x * x + y
    x_, y_, cube_, out_ = (
        Value(a, None, n) for a, n in ((x, "x"), (y, "y"), (cube, "c"), (np.maximum(cube, 0), "o"))
    )
    entries = [
        Entry(
            EntryKind.CALL, "scratch_cube_add", (x_, y_), {}, cube_, "scratch", "forward", "NumPy"
        ),
        Entry(EntryKind.CALL, "relu", (cube_,), {}, out_, "relu", "forward", "NumPy"),
    ]
    saved = chains.OPS
    chains.OPS = table
    try:
        found = chains.find(entries, Flow(entries), set())
    finally:
        chains.OPS = saved
    assert list(found) == [1] and found[1].entries == entries
    fused = chains.fused(found[1], {})
    name = fused.name
    kind = np.dtype(dtype).name
    library = binding.load(
        csource.c_source((), kind, extra=(csource.typed(fused.kernel.c, kind),)), [name]
    )
    got = np.empty_like(cube)
    library[name](*[getattr(a, "data", a) if a is not out_ else got for a in fused.args])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got, np.maximum(cube, 0))
    assert "Fuses: scratch_cube_add, relu." in fused.kernel.c


def test_a_library_op_that_declares_its_expression_fuses():
    device = Device.numpy()
    x = Tensor.from_data(np.linspace(-2, 2, 24, dtype=np.float32).reshape(3, 8), device=device)
    b = Tensor.from_data(np.full(8, -1.0, np.float32), device=device)

    def step(x, b):
        return (x.square() + b).relu()

    compiled = capture(step, compile=True)
    for _ in range(2):
        got = compiled(x, b).to_numpy()
    np.testing.assert_array_equal(got, np.maximum(x.to_numpy() ** 2 - 1, 0))
    assert "Fuses: float_square, float_add, relu." in compiled.kernels()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_an_operand_per_channel_joins_the_chain_in_a_loop_per_block(dtype):
    """A value per channel of [batch, channels, h, w] (a bias, a squeeze-and-excite scale), one
    per image, one per row: each read as one value a block of trailing elements (20, 60, 5);
    an operand of another block size than the chain's ends the chain there. Against numpy, in
    float64."""
    rng = np.random.default_rng(0)
    shapes = {"x": (2, 3, 4, 5), "s": (1, 3, 1, 1), "b": (3, 1, 1), "p": (2, 1, 1, 1)}
    shapes["t"] = (3, 4, 1)  # a value per row: blocks of 5, where the others' are of 20
    arrays = {k: rng.standard_normal(shape) for k, shape in shapes.items()}
    device = Device.numpy()

    def step(x, s, b, p, t):
        scaled = ((x * s + b).relu() * p).exp()
        return scaled * t + 1.0

    compiled = capture(step, compile=True)
    tensors = [Tensor.from_data(arrays[k].astype(dtype), device=device) for k in shapes]
    x, s, b, p, t = (arrays[k] for k in shapes)
    expected = np.exp(np.maximum(x * s + b, 0) * p) * t + 1.0
    tolerance = dict(rtol=1e-5) if dtype == np.float32 else dict(rtol=1e-12)
    for _ in range(2):  # the recording, then the compiled replay
        np.testing.assert_allclose(compiled(*tensors).to_numpy(), expected, **tolerance)
    kernels = compiled.kernels()
    assert "float_mul, float_add, relu, element by element in one loop per block of 20" in kernels
    assert "one loop per block of 60" in kernels and "one loop per block of 5" in kernels
