"""The lowering functions ops.yaml's `onnx: {function: NAME}` keys name: each takes the graph
and one kernel call (burnpy.onnx.exporter.lower.Call) and returns the names of the ONNX values
holding the call's results, in order. What a single expression says stays in ops.yaml; what
needs the call's shapes, a computed attribute or the opset is here. A lowering that cannot
express a call raises Refused, saying why."""

from __future__ import annotations

import math

import numpy as np

from burnpy.onnx.exporter.graph import Graph, Refused, numpy_dtype, tensor_type, to_numpy

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


# -- creation ---------------------------------------------------------------------------------
def constant(g: Graph, call) -> str:
    """A creation op's result is known when the call is recorded: a constant of the file (one
    value repeated is ConstantOfShape, which keeps the file small)."""
    result = to_numpy(call.results[0])
    flat = result.reshape(-1)
    if flat.size > 16 and (flat == flat[0]).all() and result.ndim > 0:
        return g.node(
            "ConstantOfShape",
            [g.ints(result.shape)],
            value=g.onnx.numpy_helper.from_array(flat[:1].copy()),
        )
    return g.constant(result)


def random(g: Graph, call) -> str:
    """A draw: ONNX's RandomUniform or RandomNormal, unseeded, so that every run of the file
    draws afresh, as every call of the model does (from another generator: the values differ
    from burnpy's, their distribution does not). Over a dynamic axis, the Like form of zeros
    of the shape computed when the file runs."""
    distribution, shape = call.values["distribution"], list(call.values["shape"])
    op, attributes = (
        ("RandomUniform", {"low": distribution.a, "high": distribution.b})
        if distribution.name == "uniform"
        else ("RandomNormal", {"mean": distribution.a, "scale": distribution.b})
    )
    element = tensor_type(call.dtype)
    if not any(g.dim(d) for d in shape):
        return g.node(op, [], shape=shape, dtype=element, **attributes)
    sizes = g.node("Concat", [g.dim(d) or g.ints([d]) for d in shape], axis=0)
    zeros = g.node("ConstantOfShape", [sizes])
    return g.node(f"{op}Like", [zeros], dtype=element, **attributes)


def same(g: Graph, call) -> str:
    """A move between devices: the file has one device, so the value itself."""
    return call.names["tensor"]


# -- quantized tensors -------------------------------------------------------------------------
def dequantize(g: Graph, call) -> str:
    """A quantized parameter is an int8 initializer and its scale (the QDQ form): this is its
    DequantizeLinear; a plain float tensor passes unchanged."""
    x = call.names["tensor"]
    scale = g.scales.get(x)
    if scale is None:
        if type(call.arrays["tensor"]).__name__ == "QuantizedTensor":
            raise Refused(
                "a tensor quantized while the model runs, or per block: only parameters "
                "quantized per tensor export (as QDQ)"
            )
        return g.node("Identity", [x])
    out = g.node("DequantizeLinear", [x, scale])
    result = numpy_dtype(call.results[0])
    return out if result == np.float32 else g.cast(out, result)


# -- casts ------------------------------------------------------------------------------------
def cast(g: Graph, call) -> str:
    """A cast or a conversion between kinds, to the recorded result's dtype."""
    (name,) = (n for n in call.names.values() if n is not None)
    return g.cast(name, numpy_dtype(call.results[0]))


_NARROW = {  # round_to's formats: ONNX's element type, the opset its Cast takes it from
    "float8_e4m3fn": ("FLOAT8E4M3FN", 19),
    "float8_e4m3fnuz": ("FLOAT8E4M3FNUZ", 19),
    "float8_e5m2": ("FLOAT8E5M2", 19),
    "float8_e5m2fnuz": ("FLOAT8E5M2FNUZ", 19),
    "float4_e2m1fn": ("FLOAT4E2M1", 23),
}


def round_to(g: Graph, call) -> str:
    """A Cast to the float8 type and back, from float32 as the kernel rounds, saturating by
    its attribute. float4e2m1 is rounded on its grid with arithmetic instead (onnxruntime has
    no Cast to it): the same values."""
    fmt, saturate = call.values["format"], bool(call.values["saturate"])
    name, since = _NARROW[fmt]
    if g.opset < since:
        raise Refused(f"a Cast to {name} needs opset {since} (exporting at {g.opset})")
    x = call.names["tensor"]
    if call.dtype != np.float32:
        x = g.cast(x, np.float32)
    if name.startswith("FLOAT8"):
        to = getattr(g.onnx.TensorProto, name)
        rounded = g.cast(g.node("Cast", [x], to=to, saturate=int(saturate)), np.float32)
    else:
        rounded = _float4_e2m1fn(g, x)
    return rounded if call.dtype == np.float32 else g.cast(rounded, call.dtype)


def _float4_e2m1fn(g: Graph, x: str) -> str:
    """x rounded to float4e2m1's values (0, 0.5, 1, 1.5, 2, 3, 4, 6), ties to even, as
    ml_dtypes casts: past 6 (infinities too) 6, whether saturating or not, and NaN -0 (the
    format has neither). A step of 0.5, 1 or 2 by the magnitude, Round (ties to even) of the
    multiple; the sign is x's, -0 included (1 / -0 is -inf), and -0 for NaN."""
    c = lambda v: g.constant(v, dtype=np.float32)  # noqa: E731
    size = g.node("Abs", [x])
    step = g.node(
        "Where",
        [
            g.node("Less", [size, c(2.0)]),
            c(0.5),
            g.node("Where", [g.node("Less", [size, c(4.0)]), c(1.0), c(2.0)]),
        ],
    )
    steps = g.node("Round", [g.node("Div", [size, step])])
    nan = g.node("IsNaN", [x])
    rounded = g.node("Min", [g.node("Mul", [steps, step]), c(6.0)])
    rounded = g.node("Where", [nan, c(0.0), rounded])
    negative = g.node(
        "Or",
        [
            g.node("Or", [g.node("Less", [x, c(0.0)]), nan]),
            g.node("Less", [g.node("Reciprocal", [x]), c(0.0)]),
        ],
    )
    # the sign by a product (0 · -1 is -0 at run time: a -0 constant may be merged with 0)
    return g.node("Mul", [rounded, g.node("Where", [negative, c(-1.0), c(1.0)])])


def bitcast(g: Graph, call) -> str:
    """The bits read as the other kind's type of the same width: ONNX's BitCast (opset 26)."""
    if g.opset < 26:
        raise Refused(f"BitCast needs opset 26 (exporting at {g.opset})")
    target = numpy_dtype(call.results[0])
    return g.node(
        "BitCast", [call.names["tensor"]], to=g.onnx.helper.np_dtype_to_tensor_dtype(target)
    )


# -- arithmetic -------------------------------------------------------------------------------
def remainder(g: Graph, call) -> str:
    """burn's remainder takes the divisor's sign (Python's %): fmod, plus the divisor where
    the two signs differ and fmod is not 0."""
    lhs = call.names["lhs"]
    rhs = call.names.get("rhs") or g.constant(call.values["rhs"], dtype=call.dtype)
    if call.dtype.kind in "iu":
        return g.node("Mod", [lhs, rhs], fmod=0)
    fmod = g.node("Mod", [lhs, rhs], fmod=1)
    zero = g.constant(0, dtype=call.dtype)
    differ = g.node(
        "And",
        [
            g.node("Not", [g.node("Equal", [fmod, zero])]),
            g.node("Xor", [g.node("Less", [fmod, zero]), g.node("Less", [rhs, zero])]),
        ],
    )
    return g.node("Where", [differ, g.node("Add", [fmod, rhs]), fmod])


def int_div(g: Graph, call) -> str:
    """burn's int division truncates toward zero, as ONNX's Div of ints does."""
    rhs = call.names.get("rhs") or g.constant(call.values["rhs"], dtype=call.dtype)
    return g.node("Div", [call.names["lhs"], rhs])


def clamp(g: Graph, call) -> str:
    low, high = call.values.get("min"), call.values.get("max")
    return g.node(
        "Clip",
        [
            call.names["tensor"],
            None if low is None else g.constant(low, dtype=call.dtype),
            None if high is None else g.constant(high, dtype=call.dtype),
        ],
    )


def powi(g: Graph, call) -> str:
    """A float base to int powers: the exponent as the base's dtype."""
    return g.node("Pow", [call.names["lhs"], g.cast(call.names["rhs"], call.dtype)])


def trunc(g: Graph, call) -> str:
    x = call.names["tensor"]
    return g.node("Mul", [g.node("Sign", [x]), g.node("Floor", [g.node("Abs", [x])])])


def _logical_shift(g: Graph, x: str, count: str, direction: str, dtype) -> str:
    """x shifted by `count` (both of the int `dtype`) as its unsigned bits are: 0 at a count of
    the width or more, or negative (a huge unsigned count), as the kernels give. ONNX's
    BitShift takes unsigned ints only, and leaves a shift past the width unsaid: the bits
    are shifted by the count's low bits, and cleared where the count is that large."""
    width = np.dtype(dtype).itemsize * 8
    unsigned = np.dtype(f"uint{width}")
    bits, count = g.cast(x, unsigned), g.cast(count, unsigned)
    large = g.node("GreaterOrEqual", [count, g.constant(width, dtype=unsigned)])
    low = g.node("BitwiseAnd", [count, g.constant(width - 1, dtype=unsigned)])
    shifted = g.node("BitShift", [bits, low], direction=direction)
    keep = g.node("Sub", [g.cast(large, unsigned), g.constant(1, dtype=unsigned)])  # 0 or ~0
    return g.cast(g.node("BitwiseAnd", [shifted, keep]), dtype)


def left_shift(g: Graph, call) -> str:
    rhs = call.names.get("rhs") or g.constant(call.values["rhs"], dtype=call.dtype)
    return _logical_shift(g, call.names["lhs"], rhs, "LEFT", call.dtype)


def right_shift(g: Graph, call) -> str:
    """Arithmetic for a signed int: a negative x is ~((~x) >> count), so the shift of the
    flipped bits is logical, and a count of the width or more gives -1 (or 0)."""
    x = call.names["lhs"]
    rhs = call.names.get("rhs") or g.constant(call.values["rhs"], dtype=call.dtype)
    if call.dtype.kind == "u":
        return _logical_shift(g, x, rhs, "RIGHT", call.dtype)
    zero = g.constant(0, dtype=call.dtype)
    sign = g.node("Sub", [zero, g.cast(g.node("Less", [x, zero]), call.dtype)])  # 0 or ~0
    flipped = g.node("BitwiseXor", [x, sign])
    return g.node("BitwiseXor", [_logical_shift(g, flipped, rhs, "RIGHT", call.dtype), sign])


# -- activations ------------------------------------------------------------------------------
def gelu(g: Graph, call) -> str:
    """The exact GELU: ONNX's Gelu from opset 20, x (1 + erf(x / sqrt 2)) / 2 before."""
    x = call.names["tensor"]
    if g.opset >= 20:
        return g.node("Gelu", [x])
    c = lambda v: g.constant(v, dtype=call.dtype)  # noqa: E731
    inner = g.node("Add", [c(1.0), g.node("Erf", [g.node("Div", [x, c(math.sqrt(2.0))])])])
    return g.node("Mul", [g.node("Mul", [x, c(0.5)]), inner])


def gelu_approximate(g: Graph, call) -> str:
    """The tanh GELU: x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) / 2."""
    x = call.names["tensor"]
    if g.opset >= 20:
        return g.node("Gelu", [x], approximate="tanh")
    c = lambda v: g.constant(v, dtype=call.dtype)  # noqa: E731
    cube = g.node("Mul", [g.node("Mul", [x, x]), x])
    inner = g.node("Add", [x, g.node("Mul", [cube, c(0.044715)])])
    tanh = g.node("Tanh", [g.node("Mul", [inner, c(math.sqrt(2.0 / math.pi))])])
    return g.node("Mul", [g.node("Mul", [x, c(0.5)]), g.node("Add", [c(1.0), tanh])])


def prelu(g: Graph, call) -> str:
    """burn's alpha holds one slope per channel (dim 1), or one for all."""
    alpha, rank = call.names["alpha"], call.rank("tensor")
    if call.shape("alpha") != (1,) and rank > 2:
        alpha = g.node("Unsqueeze", [alpha, g.ints(range(1, rank - 1))])
    return g.node("PRelu", [call.names["tensor"], alpha])


# -- reductions -------------------------------------------------------------------------------
def _reduce(g: Graph, op: str, x: str, axes, keepdims: int = 1) -> str:
    return g.node(op, [x, g.ints(axes)], keepdims=keepdims)


def _full(g: Graph, op: str, call) -> str:
    """A full reduction: burn's result has shape [1]."""
    x = call.names["tensor"]
    reduced = _reduce(g, op, x, range(call.rank("tensor")), keepdims=0)
    return g.node("Reshape", [reduced, g.ints([1])])


def sum_all(g, call):
    return _full(g, "ReduceSum", call)


def mean_all(g, call):
    if call.dtype.kind in "iu":
        raise Refused("an int mean truncates, which ReduceMean does not say")
    return _full(g, "ReduceMean", call)


def prod_all(g, call):
    return _full(g, "ReduceProd", call)


def max_all(g, call):
    return _full(g, "ReduceMax", call)


def min_all(g, call):
    return _full(g, "ReduceMin", call)


def sum_dim(g, call):
    return _reduce(g, "ReduceSum", call.names["tensor"], [call.values["dim"]])


def mean_dim(g, call):
    if call.dtype.kind in "iu":
        raise Refused("an int mean truncates, which ReduceMean does not say")
    return _reduce(g, "ReduceMean", call.names["tensor"], [call.values["dim"]])


def prod_dim(g, call):
    return _reduce(g, "ReduceProd", call.names["tensor"], [call.values["dim"]])


def max_dim(g, call):
    return _reduce(g, "ReduceMax", call.names["tensor"], [call.values["dim"]])


def min_dim(g, call):
    return _reduce(g, "ReduceMin", call.names["tensor"], [call.values["dim"]])


def max_dim_with_indices(g, call):
    x, dim = call.names["tensor"], call.values["dim"]
    return (
        _reduce(g, "ReduceMax", x, [dim]),
        g.node("ArgMax", [x], axis=dim, keepdims=1, select_last_index=0),
    )


def min_dim_with_indices(g, call):
    x, dim = call.names["tensor"], call.values["dim"]
    return (
        _reduce(g, "ReduceMin", x, [dim]),
        g.node("ArgMin", [x], axis=dim, keepdims=1, select_last_index=0),
    )


def _truth(g: Graph, call, op: str, dims) -> str:
    """any / all: whether some / every value is non-zero, over `dims` (None: all, shape [1])."""
    x = call.names["tensor"]
    if call.dtype != np.bool_:
        x = g.node("Not", [g.node("Equal", [x, g.constant(0, dtype=call.dtype)])])
    as_int = g.cast(x, np.int32)
    if dims is None:
        reduced = g.node(
            "Reshape", [_reduce(g, op, as_int, range(call.rank("tensor")), 0), g.ints([1])]
        )
    else:
        reduced = _reduce(g, op, as_int, dims)
    return g.cast(reduced, np.bool_)


def any_all(g, call):
    return _truth(g, call, "ReduceMax", None)


def any_dim(g, call):
    return _truth(g, call, "ReduceMax", [call.values["dim"]])


def all_all(g, call):
    return _truth(g, call, "ReduceMin", None)


def all_dim(g, call):
    return _truth(g, call, "ReduceMin", [call.values["dim"]])


def argmax(g, call):
    return g.node("ArgMax", [call.names["tensor"]], axis=call.values["dim"], keepdims=1)


def argmin(g, call):
    return g.node("ArgMin", [call.names["tensor"]], axis=call.values["dim"], keepdims=1)


def cumsum(g, call):
    return g.node("CumSum", [call.names["tensor"], g.constant(call.values["dim"], np.int64)])


def cumprod(g, call):
    if g.opset < 26:
        raise Refused(f"CumProd needs opset 26 (exporting at {g.opset})")
    return g.node("CumProd", [call.names["tensor"], g.constant(call.values["dim"], np.int64)])


def _topk(g, call, k, largest):
    dim = call.values["dim"]
    return g.node(
        "TopK", [call.names["tensor"], g.ints([k])], outputs=2, axis=dim, largest=largest, sorted=1
    )


def sort_with_indices(g, call):
    dim = call.values["dim"]
    return _topk(g, call, call.shape("tensor")[dim], int(bool(call.values["descending"])))


def sort(g, call):
    return sort_with_indices(g, call)[0]


def argsort(g, call):
    return sort_with_indices(g, call)[1]


def topk_with_indices(g, call):
    return _topk(g, call, call.values["k"], 1)


def topk(g, call):
    return topk_with_indices(g, call)[0]


def argtopk(g, call):
    return topk_with_indices(g, call)[1]


# -- shape ------------------------------------------------------------------------------------
def reshape(g: Graph, call) -> str:
    """Reshape, written so that a dynamic dim carries through: each leading dim the input
    keeps is 0 (copied from the input), and the first other dim is -1 (inferred), so a batch
    dim of another size reshapes the same way."""
    before, after = call.shape("tensor"), tuple(call.out_shape)
    target, allowzero = list(after), 0
    kept = 0
    while kept < min(len(before), len(after)) and before[kept] == after[kept]:
        kept += 1
    for i in range(kept):
        target[i] = 0
    if kept < len(after) and math.prod(after) > 0:
        target[kept] = -1
    elif 0 in after[kept:]:
        target, allowzero = list(after), 1
    return g.node("Reshape", [call.names["tensor"], g.ints(target)], allowzero=allowzero)


def swap_dims(g, call):
    perm = list(range(call.rank("tensor")))
    a, b = call.values["dim1"], call.values["dim2"]
    perm[a], perm[b] = perm[b], perm[a]
    return g.node("Transpose", [call.names["tensor"]], perm=perm)


def permute(g, call):
    return g.node("Transpose", [call.names["tensor"]], perm=list(call.values["axes"]))


def flip(g, call):
    axes = list(call.values["axes"])
    if not axes:
        return g.node("Identity", [call.names["tensor"]])
    return g.node(
        "Slice",
        [
            call.names["tensor"],
            g.ints([-1] * len(axes)),
            g.ints([INT64_MIN] * len(axes)),
            g.ints(axes),
            g.ints([-1] * len(axes)),
        ],
    )


def expand(g, call):
    """Expand to the recorded shape; a dim the input already has is 1 in the target (ONNX's
    Expand broadcasts both ways), and a dim it creates at the recorded size of a dynamic axis
    is read from that input at run time, so a dynamic dim carries through."""
    before, after = call.shape("tensor"), list(call.values["shape"])
    offset = len(after) - len(before)
    target = [1 if i >= offset and before[i - offset] == d else d for i, d in enumerate(after)]
    dynamic = [g.dim(d) if d != 1 else None for d in target]
    if any(dynamic):
        pieces = [name or g.ints([d]) for name, d in zip(dynamic, target)]
        shape = g.node("Concat", pieces, axis=0)
    else:
        shape = g.ints(target)
    return g.node("Expand", [call.names["tensor"], shape])


def repeat_dim(g, call):
    reps = [1] * call.rank("tensor")
    reps[call.values["dim"]] = call.values["times"]
    return g.node("Tile", [call.names["tensor"], g.ints(reps)])


def _slices(g: Graph, x: str, shape, slices) -> str:
    """burn's resolved slices as one Slice (a dim read whole is left out; a slice to the end
    reads to INT64_MAX, so a dynamic dim carries through)."""
    starts, ends, axes, steps = [], [], [], []
    for dim, (start, end, step) in enumerate(slices):
        size = shape[dim]
        if (start, end, step) == (0, size, 1):
            continue
        if step < 0:  # burn walks a negative step down from the range's last element
            if end <= start:
                start, end, step = 0, 0, 1
            else:
                start, end = end - 1, (start - 1 if start > 0 else INT64_MIN)
        elif end == size:
            end = INT64_MAX
        starts.append(start)
        ends.append(end)
        axes.append(dim)
        steps.append(step)
    if not axes:
        return g.node("Identity", [x])
    return g.node("Slice", [x, g.ints(starts), g.ints(ends), g.ints(axes), g.ints(steps)])


def slice_(g, call):
    return _slices(g, call.names["tensor"], call.shape("tensor"), call.values["slices"])


def slice_assign(g, call):
    """The value written over the slice: ScatterND at the slice's element positions."""
    shape = call.shape("tensor")
    ranges = []
    for start, end, step in call.values["slices"]:
        if step < 0:
            ranges.append(range(end - 1, start - 1, step) if end > start else range(0))
        else:
            ranges.append(range(start, end, step))
    grid = np.stack(np.meshgrid(*[np.asarray(r, np.int64) for r in ranges], indexing="ij"), -1)
    if grid.size == 0:
        return g.node("Identity", [call.names["tensor"]])
    del shape
    return g.node("ScatterND", [call.names["tensor"], g.constant(grid), call.names["value"]])


def unfold(g, call):
    """Windows of `size` every `step` along dim, [pre, windows, post, size]: a Gather of the
    windows' positions ([windows, size]), its window axis then moved last."""
    dim, size, step = call.values["dim"], call.values["size"], call.values["step"]
    rank = call.rank("tensor")
    dim %= rank
    count = call.out_shape[dim]
    positions = (np.arange(count) * step)[:, None] + np.arange(size)[None, :]
    windows = g.node(
        "Gather", [call.names["tensor"], g.constant(positions.astype(np.int64))], axis=dim
    )
    perm = list(range(dim + 1)) + list(range(dim + 2, rank + 1)) + [dim + 1]
    return g.node("Transpose", [windows], perm=perm)


def cat(g, call):
    return g.node("Concat", list(call.names["tensors"]), axis=call.values["dim"])


# -- indexing ---------------------------------------------------------------------------------
_REDUCTIONS = {"assign": "none", "add": "add", "mul": "mul", "min": "min", "max": "max"}


def _reduction(update) -> str:
    name = getattr(update, "name", None) or getattr(update, "value", None) or str(update)
    return _REDUCTIONS[str(name).lower().rsplit(".", 1)[-1]]


def _indices(g, call, arg="indices"):
    return g.cast(call.names[arg], np.int64)


def gather(g, call):
    return g.node(
        "GatherElements", [call.names["tensor"], _indices(g, call)], axis=call.values["dim"]
    )


def scatter(g, call):
    return g.node(
        "ScatterElements",
        [call.names["tensor"], _indices(g, call), call.names["value"]],
        axis=call.values["dim"],
        reduction=_reduction(call.values["update"]),
    )


def scatter_add(g, call):
    return g.node(
        "ScatterElements",
        [call.names["tensor"], _indices(g, call), call.names["value"]],
        axis=call.values["dim"],
        reduction="add",
    )


def select(g, call):
    return g.node("Gather", [call.names["tensor"], _indices(g, call)], axis=call.values["dim"])


def gather_nd(g, call):
    return g.node("GatherND", [call.names["data"], _indices(g, call)])


def scatter_nd(g, call):
    return g.node(
        "ScatterND",
        [call.names["data"], _indices(g, call), call.names["values"]],
        reduction=_reduction(call.values["reduction"]),
    )


def mask_fill(g, call):
    mask, tensor = call.names["mask"], call.names["tensor"]
    if call.dtype == np.bool_:  # (logic, not Where: onnxruntime has no bool Where)
        if call.values["value"]:
            return g.node("Or", [mask, tensor])
        return g.node("And", [g.node("Not", [mask]), tensor])
    value = g.constant(call.values["value"], dtype=call.dtype)
    return g.node("Where", [mask, value, tensor])


def grid_sample(g, call):
    mode = call.values["mode"]
    if g.opset < 20:
        mode = {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic"}[mode]
    else:
        mode = {"bilinear": "linear", "nearest": "nearest", "bicubic": "cubic"}[mode]
    return g.node(
        "GridSample",
        [call.names["tensor"], call.names["grid"]],
        mode=mode,
        padding_mode=call.values["padding_mode"],
        align_corners=int(bool(call.values["align_corners"])),
    )


# -- module ops -------------------------------------------------------------------------------
def linear(g, call):
    """burn's weight is [d_input, d_output]: x w + b."""
    out = g.node("MatMul", [call.names["input"], call.names["weight"]])
    bias = call.names.get("bias")
    return out if bias is None else g.node("Add", [out, bias])


def _pads(padding, padding_end=None) -> list:
    return list(padding) + list(padding if padding_end is None else padding_end)


def conv(g, call):
    v = call.values
    if call.dtype == np.float64:
        return _conv_as_products(g, call)
    return g.node(
        "Conv",
        [call.names["x"], call.names["weight"], call.names.get("bias")],
        strides=list(v["stride"]),
        pads=_pads(v["padding"], v.get("padding_end")),
        dilations=list(v["dilation"]),
        group=v["groups"],
        kernel_shape=list(call.shape("weight")[2:]),
    )


def _conv_as_products(g, call):
    """A float64 convolution as gathered windows and one batched MatMul (im2col): onnxruntime
    has no float64 Conv, and every runtime has a float64 Gather and MatMul. Each spatial axis
    of the padded input becomes [outputs, kernel] by a Gather of the windows' positions; the
    windows, laid out [N, groups, outputs, C/groups * kernel], meet the weight's rows."""
    v, x_shape, w_shape = call.values, call.shape("x"), call.shape("weight")
    spatial, kernel, out = x_shape[2:], w_shape[2:], call.out_shape[2:]
    if any(size in g.dynamic for size in spatial):
        raise Refused("a float64 convolution along a dynamic spatial axis")
    groups, channels, filters = v["groups"], x_shape[1], w_shape[0]
    rank = len(spatial)
    end = v.get("padding_end") or v["padding"]
    padded = g.node("Pad", [call.names["x"], g.ints([0, 0, *v["padding"], 0, 0, *end])])
    windows = padded
    for i in range(rank):
        starts = np.arange(out[i]) * v["stride"][i]
        positions = starts[:, None] + np.arange(kernel[i])[None, :] * v["dilation"][i]
        windows = g.node(
            "Gather", [windows, g.constant(positions.astype(np.int64))], axis=2 + 2 * i
        )
    # [N, C, o1, k1, o2, k2, ...] -> [N, o1, o2, ..., C, k1, k2, ...]
    perm = [0, *range(2, 2 + 2 * rank, 2), 1, *range(3, 3 + 2 * rank, 2)]
    columns = g.node("Transpose", [windows], perm=perm)
    per_group = channels // groups * math.prod(kernel)
    columns = g.node("Reshape", [columns, g.ints([0, math.prod(out), groups, per_group])])
    columns = g.node("Transpose", [columns], perm=[0, 2, 1, 3])
    rows = g.node("Reshape", [call.names["weight"], g.ints([groups, filters // groups, per_group])])
    rows = g.node("Transpose", [rows], perm=[0, 2, 1])
    product = g.node("MatMul", [columns, rows])  # [N, groups, outputs, filters / groups]
    product = g.node("Transpose", [product], perm=[0, 1, 3, 2])
    result = g.node("Reshape", [product, g.ints([0, filters, *out])])
    bias = call.names.get("bias")
    if bias is None:
        return result
    return g.node("Add", [result, g.node("Reshape", [bias, g.ints([filters] + [1] * rank)])])


def conv_transpose(g, call):
    v = call.values
    return g.node(
        "ConvTranspose",
        [call.names["x"], call.names["weight"], call.names.get("bias")],
        strides=list(v["stride"]),
        pads=_pads(v["padding"]),
        output_padding=list(v["padding_out"]),
        dilations=list(v["dilation"]),
        group=v["groups"],
        kernel_shape=list(call.shape("weight")[2:]),
    )


def max_pool(g, call, outputs: int = 1):
    """MaxPool of the call's `x` (with `outputs=2`, its Indices too: flat over the tensor)."""
    v = call.values
    kernel = list(v["kernel_size"])
    return g.node(
        "MaxPool",
        [call.names["x"]],
        outputs=outputs,
        kernel_shape=kernel,
        strides=list(v["stride"] or kernel),
        pads=_pads(v["padding"]),
        dilations=list(v["dilation"]),
        ceil_mode=int(bool(v["ceil_mode"])),
    )


def avg_pool(g, call):
    v = call.values
    kernel = list(v["kernel_size"])
    return g.node(
        "AveragePool",
        [call.names["x"]],
        kernel_shape=kernel,
        strides=list(v["stride"] or kernel),
        pads=_pads(v["padding"]),
        count_include_pad=int(bool(v["count_include_pad"])),
        ceil_mode=int(bool(v["ceil_mode"])),
    )


def adaptive_avg_pool(g, call):
    """GlobalAveragePool for an output of ones; an AveragePool where each output size divides
    the input's; refused otherwise (ONNX has no adaptive pooling)."""
    sizes, spatial = list(call.values["output_size"]), call.shape("x")[2:]
    x = call.names["x"]
    if all(s == 1 for s in sizes):
        return g.node("GlobalAveragePool", [x])
    if any(d % s for d, s in zip(spatial, sizes)):
        raise Refused(f"adaptive pooling of {list(spatial)} to {sizes} has uneven windows")
    kernel = [d // s for d, s in zip(spatial, sizes)]
    return g.node("AveragePool", [x], kernel_shape=kernel, strides=kernel)


def deform_conv(g, call):
    """burn's deform_conv2d is ONNX's DeformConv (opset 19): the same offsets' layout."""
    if g.opset < 19:
        raise Refused(f"DeformConv needs opset 19 (exporting at {g.opset})")
    v, n = call.values, call.names
    return g.node(
        "DeformConv",
        [n["x"], n["weight"], n["offset"], n.get("bias"), n.get("mask")],
        strides=list(v["stride"]),
        pads=_pads(v["padding"]),
        dilations=list(v["dilation"]),
        group=v["weight_groups"],
        offset_group=v["offset_groups"],
        kernel_shape=list(call.shape("weight")[2:]),
    )


def fold(g, call):
    """burn's fold4d is ONNX's Col2Im: blocks [N, C·kh·kw, L] summed into [N, C, H, W]."""
    v = call.values
    return g.node(
        "Col2Im",
        [call.names["x"], g.ints(v["output_size"]), g.ints(v["kernel_size"])],
        strides=list(v["stride"]),
        pads=_pads(v["padding"]),
        dilations=list(v["dilation"]),
    )


def batch_norm(g, call):
    n = call.names
    return g.node(
        "BatchNormalization",
        [n["input"], n["gamma"], n["beta"], n["mean"], n["variance"]],
        epsilon=float(call.values["epsilon"]),
    )


def batch_norm_training(g, call):
    """(output, mean, variance) with the batch's own statistics: each channel's (dim 1) mean
    and biased variance over every other dim."""
    n = call.names
    x, rank = n["input"], call.rank("input")
    axes = [0] + list(range(2, rank))
    mean = _reduce(g, "ReduceMean", x, axes)
    centred = g.node("Sub", [x, mean])
    variance = _reduce(g, "ReduceMean", g.node("Mul", [centred, centred]), axes)
    eps = g.constant(float(call.values["epsilon"]), dtype=call.dtype)
    scaled = g.node("Div", [centred, g.node("Sqrt", [g.node("Add", [variance, eps])])])
    channel = g.ints([-1] + [1] * (rank - 2))
    gamma, beta = (g.node("Reshape", [n[k], channel]) for k in ("gamma", "beta"))
    out = g.node("Add", [g.node("Mul", [scaled, gamma]), beta])
    flat = g.ints([-1])
    return out, g.node("Reshape", [mean, flat]), g.node("Reshape", [variance, flat])


def layer_norm(g, call):
    n = call.names
    return g.node(
        "LayerNormalization",
        [n["input"], n["gamma"], n.get("beta")],
        axis=-1,
        epsilon=float(call.values["epsilon"]),
    )


def rms_norm(g, call):
    """x / sqrt(mean(x^2) + eps) * gamma over the last dim (RMSNormalization from opset 23)."""
    x, gamma, eps = call.names["input"], call.names["gamma"], float(call.values["epsilon"])
    if g.opset >= 23:
        return g.node("RMSNormalization", [x, gamma], axis=-1, epsilon=eps)
    mean = _reduce(g, "ReduceMean", g.node("Mul", [x, x]), [-1])
    rms = g.node("Sqrt", [g.node("Add", [mean, g.constant(eps, dtype=call.dtype)])])
    return g.node("Mul", [g.node("Div", [x, rms]), gamma])


def attention(g, call):
    """burn's order: q kᵀ · scale, softcap, the masks (-inf), the bias, a softmax whose fully
    masked rows give 0, then · v."""
    n, v = call.names, call.values
    c = lambda value: g.constant(value, dtype=call.dtype)  # noqa: E731
    q_shape, k_shape = call.shape("query"), call.shape("key")
    scale = v["scale"] if v["scale"] is not None else 1 / math.sqrt(q_shape[-1])
    rank = len(k_shape)
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    scores = g.node(
        "MatMul",
        [g.node("Mul", [n["query"], c(scale)]), g.node("Transpose", [n["key"]], perm=perm)],
    )
    if v["softcap"] is not None:
        cap = c(v["softcap"])
        scores = g.node("Mul", [g.node("Tanh", [g.node("Div", [scores, cap])]), cap])
    masked = n.get("mask")
    if v["is_causal"]:
        seq_q, seq_k = q_shape[-2], k_shape[-2]
        causal = np.arange(seq_k)[None, :] > np.arange(seq_q)[:, None] + (seq_k - seq_q)
        causal = g.constant(causal)
        masked = causal if masked is None else g.node("Or", [masked, causal])
    if masked is not None:
        scores = g.node("Where", [masked, c(-np.inf), scores])
    if n.get("attn_bias") is not None:
        scores = g.node("Add", [scores, n["attn_bias"]])
    top = _reduce(g, "ReduceMax", scores, [-1])
    top = g.node("Where", [g.node("IsInf", [top], detect_positive=0), c(0.0), top])
    exp = g.node("Exp", [g.node("Sub", [scores, top])])
    total = _reduce(g, "ReduceSum", exp, [-1])
    total = g.node("Where", [g.node("Equal", [total, c(0.0)]), c(1.0), total])
    return g.node("MatMul", [g.node("Div", [exp, total]), n["value"]])


def cross_entropy(g, call):
    """The mean over the batch of -log softmax(logits)[target], shape [1]."""
    loss = g.node(
        "SoftmaxCrossEntropyLoss",
        [call.names["logits"], g.cast(call.names["targets"], np.int64)],
        reduction="mean",
    )
    return g.node("Reshape", [loss, g.ints([1])])


def embedding(g, call):
    return g.node("Gather", [call.names["weights"], _indices(g, call)], axis=0)


# -- a training step's kernels ------------------------------------------------------------------
# The backward pass runs the rules' kernels, which are no catalogue ops (they have no entry to
# hold an `onnx:` key): their lowerings, by kernel, with their arguments' names.


def _number(g: Graph, call, arg: str) -> str:
    """A number argument as a scalar of the receiver's dtype: the step's input when it is one
    (a learning rate), else a constant."""
    name = call.names.get(arg)
    if name is not None:
        return g.cast(name, call.dtype)
    return g.constant(call.values[arg], dtype=call.dtype)


def cross_entropy_keeping(g: Graph, call):
    """The loss, and the softmax probabilities its backward reads."""
    probabilities = g.node("Softmax", [call.names["logits"]], axis=1)
    return cross_entropy(g, call), probabilities


def cross_entropy_backward(g: Graph, call):
    """(softmax(logits) - onehot(targets)) * grad / batch."""
    shape = call.shape("logits")
    probabilities = call.names.get("probabilities") or g.node(
        "Softmax", [call.names["logits"]], axis=1
    )
    onehot = g.node(
        "OneHot",
        [
            g.cast(call.names["targets"], np.int64),
            g.constant(shape[1], np.int64),
            g.constant([0, 1], dtype=np.float32),  # (onnxruntime's OneHot makes no float64)
        ],
        axis=-1,
    )
    if call.dtype != np.float32:
        onehot = g.cast(onehot, call.dtype)
    scale = g.node("Div", [call.names["grad"], g.constant(max(shape[0], 1), dtype=call.dtype)])
    return g.node("Mul", [g.node("Sub", [probabilities, onehot]), scale])


def _rows(g: Graph, x: str, n: int) -> str:
    return g.node("Reshape", [x, g.ints([-1, n])])


def linear_x_backward(g: Graph, call):
    weight, grad = call.names["weight"], call.names["output_grad"]
    out = g.node("MatMul", [grad, g.node("Transpose", [weight], perm=[1, 0])])
    return out


def linear_weight_backward(g: Graph, call):
    x, grad = call.names["x"], call.names["output_grad"]
    rows = _rows(g, x, call.shape("x")[-1])
    grads = _rows(g, grad, call.shape("output_grad")[-1])
    return g.node("MatMul", [g.node("Transpose", [rows], perm=[1, 0]), grads])


def linear_bias_backward(g: Graph, call):
    grad = call.names["output_grad"]
    rows = _rows(g, grad, call.shape("output_grad")[-1])
    return _reduce(g, "ReduceSum", rows, [0], keepdims=0)


def conv2d_backward(g: Graph, call):
    """(dx, dweight, dbias), None for one not wanted: dx a ConvTranspose of the gradient,
    dweight a convolution of the input by the gradient (batch and channels swapped), dbias the
    gradient summed over all but the channels."""
    v, n = call.values, call.names
    if v["groups"] != 1:
        raise Refused("a grouped convolution's backward does not export yet")
    x_shape, w_shape = call.shape("x"), call.shape("weight")
    stride, padding, dilation = list(v["stride"]), list(v["padding"]), list(v["dilation"])
    end = list(v["padding_end"] or padding)
    want_x, want_w, want_b = v["wanted"]
    grad = n["output_grad"]
    dx = dw = db = None
    if want_x:
        kernel = list(w_shape[2:])
        out = call.shape("output_grad")[2:]
        natural = [
            (o - 1) * s + (k - 1) * d + 1 - p - e
            for o, s, k, d, p, e in zip(out, stride, kernel, dilation, padding, end)
        ]
        extra = [size - got for size, got in zip(x_shape[2:], natural)]
        dx = g.node(
            "ConvTranspose",
            [grad, n["weight"]],
            strides=stride,
            pads=padding + end,
            dilations=dilation,
            output_padding=extra,
            kernel_shape=kernel,
        )
    if want_w:
        swapped_x = g.node("Transpose", [n["x"]], perm=[1, 0, 2, 3])
        swapped_g = g.node("Transpose", [grad], perm=[1, 0, 2, 3])
        full = g.node(
            "Conv",
            [swapped_x, swapped_g],
            strides=dilation,
            dilations=stride,
            pads=padding + end,
        )
        k = w_shape[2:]
        full = g.node("Slice", [full, g.ints([0, 0]), g.ints(list(k)), g.ints([2, 3])])
        dw = g.node("Transpose", [full], perm=[1, 0, 2, 3])
    if want_b:
        db = _reduce(g, "ReduceSum", grad, [0, 2, 3], keepdims=0)
    return dx, dw, db


def max_pool2d_with_indices(g: Graph, call):
    """MaxPool's values and burn's indices (each plane's flat position)."""
    out, indices = max_pool(g, call, outputs=2)
    plane = math.prod(call.shape("x")[2:])
    return out, g.node("Mod", [indices, g.constant(plane, np.int64)])


def max_pool2d_keeping(g: Graph, call):
    """max_pool2d, and the argmax a backend keeps for the backward (each plane's flat
    position, as max_pool2d_with_indices gives it); a backend that keeps nothing gets the
    output only."""
    if len(call.results) == 1:
        return max_pool(g, call)
    return max_pool2d_with_indices(g, call)


def max_pool2d_with_indices_backward(g: Graph, call):
    """Each output's gradient added at its input's position (the whole tensor's flat index
    MaxPool gives, recomputed from the input)."""
    _, indices = max_pool(g, call, outputs=2)
    shape = call.shape("x")
    zeros = g.constant(np.zeros(math.prod(shape), dtype=call.dtype))
    flat = g.node(
        "ScatterElements",
        [
            zeros,
            g.node("Reshape", [indices, g.ints([-1])]),
            g.node("Reshape", [call.names["output_grad"], g.ints([-1])]),
        ],
        axis=0,
        reduction="add",
    )
    return g.node("Reshape", [flat, g.ints(shape)])


def clip_by_norm(g: Graph, call) -> str:
    """grad · min(1, threshold / (‖grad‖ + the dtype's smallest normal))."""
    grad, dtype = call.names["grad"], call.dtype
    squares = g.node("Mul", [grad, grad])
    norm = g.node("Sqrt", [_reduce(g, "ReduceSum", squares, range(call.rank("grad")), 0)])
    norm = g.node("Add", [norm, g.constant(np.finfo(dtype).tiny, dtype=dtype)])
    scale = g.node("Div", [_number(g, call, "threshold"), norm])
    return g.node("Mul", [grad, g.node("Min", [scale, g.constant(1.0, dtype=dtype)])])


def sgd_step(g: Graph, call):
    """burn's SGD: g = grad + weight_decay·p; v = g first, then momentum·v + (1 - dampening)·g;
    nesterov steps g + momentum·v; p - lr·step. The numbers are the step's inputs."""
    v, n = call.values, call.names
    grad = n["grad"]
    if v["weight_decay"]:
        grad = g.node("Add", [g.node("Mul", [n["param"], _number(g, call, "weight_decay")]), grad])
    momentum = _number(g, call, "momentum") if v["momentum"] else None
    if momentum is None or n["velocity"] is None:
        velocity = grad
    else:
        keep = g.node("Sub", [g.constant(1.0, dtype=call.dtype), _number(g, call, "dampening")])
        velocity = g.node(
            "Add", [g.node("Mul", [n["velocity"], momentum]), g.node("Mul", [grad, keep])]
        )
    step = velocity
    if momentum is not None and v["nesterov"]:
        step = g.node("Add", [g.node("Mul", [velocity, momentum]), grad])
    param = g.node("Sub", [n["param"], g.node("Mul", [step, _number(g, call, "lr")])])
    return param, (velocity if velocity != grad else g.node("Identity", [grad]))


# -- a transformer's backward: gelu, layer_norm, softmax, embedding ------------------------------
def _gelu_slope(g: Graph, x: str, dtype) -> str:
    """gelu'(x) = Φ(x) + x φ(x), Φ(x) = (1 + erf(x / sqrt 2)) / 2, φ(x) = e^(-x²/2) / sqrt(2π)."""
    c = lambda v: g.constant(v, dtype=dtype)  # noqa: E731
    cdf = g.node(
        "Mul",
        [c(0.5), g.node("Add", [c(1.0), g.node("Erf", [g.node("Div", [x, c(math.sqrt(2.0))])])])],
    )
    square = g.node("Mul", [g.node("Mul", [x, x]), c(-0.5)])
    density = g.node("Mul", [g.node("Exp", [square]), c(1 / math.sqrt(2 * math.pi))])
    return g.node("Add", [cdf, g.node("Mul", [x, density])])


def _gelu_approximate_slope(g: Graph, x: str, dtype) -> str:
    """The tanh GELU's own derivative: (1 + t) / 2 + x (1 - t²) sqrt(2/π) (1 + 3·0.044715 x²) / 2,
    t = tanh(sqrt(2/π) (x + 0.044715 x³))."""
    c = lambda v: g.constant(v, dtype=dtype)  # noqa: E731
    root = math.sqrt(2.0 / math.pi)
    square = g.node("Mul", [x, x])
    inner = g.node("Add", [x, g.node("Mul", [g.node("Mul", [square, x]), c(0.044715)])])
    t = g.node("Tanh", [g.node("Mul", [inner, c(root)])])
    half = g.node("Mul", [g.node("Add", [c(1.0), t]), c(0.5)])
    rise = g.node("Add", [c(1.0), g.node("Mul", [square, c(3 * 0.044715)])])
    fall = g.node("Sub", [c(1.0), g.node("Mul", [t, t])])
    rest = g.node("Mul", [g.node("Mul", [g.node("Mul", [x, fall]), rise]), c(0.5 * root)])
    return g.node("Add", [half, rest])


def gelu_keeping(g: Graph, call):
    """gelu, and the slope its backward multiplies the gradient by."""
    return gelu(g, call), _gelu_slope(g, call.names["tensor"], call.dtype)


def gelu_approximate_keeping(g: Graph, call):
    return gelu_approximate(g, call), _gelu_approximate_slope(g, call.names["tensor"], call.dtype)


def gelu_backward(g: Graph, call) -> str:
    return g.node("Mul", [call.names["grad"], _gelu_slope(g, call.names["x"], call.dtype)])


def gelu_approximate_backward(g: Graph, call) -> str:
    slope = _gelu_approximate_slope(g, call.names["x"], call.dtype)
    return g.node("Mul", [call.names["grad"], slope])


def _leading_sum(g: Graph, x: str, rank: int) -> str:
    """x summed over all but its last dim."""
    if rank == 1:
        return g.node("Identity", [x])
    return _reduce(g, "ReduceSum", x, range(rank - 1), keepdims=0)


def _row_statistics(g: Graph, x: str, epsilon: float, dtype):
    """Each row's mean and r = 1 / sqrt(var + epsilon) over the last dim, as [..., 1] (in the
    input's dtype: LayerNormalization's own Mean output is float32 whatever the input)."""
    mean = _reduce(g, "ReduceMean", x, [-1])
    centred = g.node("Sub", [x, mean])
    variance = _reduce(g, "ReduceMean", g.node("Mul", [centred, centred]), [-1])
    shifted = g.node("Add", [variance, g.constant(epsilon, dtype=dtype)])
    return mean, g.node("Reciprocal", [g.node("Sqrt", [shifted])])


def layer_norm_keeping(g: Graph, call):
    """layer_norm, and each row's mean and r for the backward, shaped as the backend keeps
    them (NumPy's flat, torch's [..., 1]); a backend that keeps nothing gets the output only."""
    if len(call.results) == 1:
        return layer_norm(g, call)
    statistics = _row_statistics(g, call.names["input"], float(call.values["epsilon"]), call.dtype)
    if len(call.results[1].shape) == 1:
        statistics = [g.node("Reshape", [s, g.ints([-1])]) for s in statistics]
    return layer_norm(g, call), *statistics


def layer_norm_backward(g: Graph, call):
    """(dx, dgamma, dbeta), None for one not wanted. With x̂ = (x - μ) r and ĝ = g γ:
    dx = r (ĝ - mean(ĝ) - x̂ mean(ĝ x̂)), dγ = Σ g x̂, dβ = Σ g; μ and r those the forward
    kept, else computed again."""
    n, v = call.names, call.values
    want_x, want_gamma, want_beta = v["wanted"]
    shape, grad, x = call.shape("input"), n["grad"], n["input"]
    rank = len(shape)
    dbeta = _leading_sum(g, grad, rank) if want_beta else None
    if not (want_x or want_gamma):
        return None, None, dbeta
    kept = n.get("statistics")
    if kept is not None:
        rows = g.ints(list(shape[:-1]) + [1])
        mean, r = (g.node("Reshape", [s, rows]) for s in kept)
    else:
        mean, r = _row_statistics(g, x, float(v["epsilon"]), call.dtype)
    normalized = g.node("Mul", [g.node("Sub", [x, mean]), r])
    dgamma = None
    if want_gamma:
        dgamma = _leading_sum(g, g.node("Mul", [grad, normalized]), rank)
    dx = None
    if want_x:
        scaled = g.node("Mul", [grad, n["gamma"]])
        mean_g = _reduce(g, "ReduceMean", scaled, [-1])
        along = _reduce(g, "ReduceMean", g.node("Mul", [scaled, normalized]), [-1])
        centred = g.node(
            "Sub", [g.node("Sub", [scaled, mean_g]), g.node("Mul", [normalized, along])]
        )
        dx = g.node("Mul", [centred, r])
    return dx, dgamma, dbeta


def softmax_backward(g: Graph, call) -> str:
    """output (grad - Σ grad output) along dim."""
    output, grad = call.names["output"], call.names["grad"]
    total = _reduce(g, "ReduceSum", g.node("Mul", [grad, output]), [call.values["dim"]])
    return g.node("Mul", [output, g.node("Sub", [grad, total])])


def embedding_backward(g: Graph, call) -> str:
    """Each row of the gradient added into the row of the weights its index selected."""
    shape = call.shape("weights")
    zeros = g.node(
        "ConstantOfShape",
        [g.ints(shape)],
        value=g.onnx.numpy_helper.from_array(np.zeros(1, dtype=call.dtype)),
    )
    indices = g.node("Reshape", [_indices(g, call), g.ints([-1, 1])])
    rows = g.node("Reshape", [call.names["output_grad"], g.ints([-1, shape[1]])])
    return g.node("ScatterND", [zeros, indices, rows], reduction="add")


BACKWARD = {
    "gelu_keeping": (("tensor",), {"function": "gelu_keeping"}),
    "gelu_approximate_keeping": (("tensor",), {"function": "gelu_approximate_keeping"}),
    "layer_norm_keeping": (
        ("input", "gamma", "beta", "epsilon"),
        {"function": "layer_norm_keeping"},
    ),
    "layer_norm_backward": (
        ("input", "gamma", "grad", "epsilon", "wanted", "statistics"),
        {"function": "layer_norm_backward"},
    ),
    "softmax_backward": (("output", "grad", "dim"), {"function": "softmax_backward"}),
    "embedding_backward": (
        ("weights", "output_grad", "indices"),
        {"function": "embedding_backward"},
    ),
    "cross_entropy_class_targets_keeping": (
        ("logits", "targets"),
        {"function": "cross_entropy_keeping"},
    ),
    "cross_entropy_class_targets_backward": (
        ("logits", "targets", "grad", "probabilities"),
        {"function": "cross_entropy_backward"},
    ),
    "linear_x_backward": (("weight", "output_grad"), {"function": "linear_x_backward"}),
    "linear_weight_backward": (("x", "output_grad"), {"function": "linear_weight_backward"}),
    "linear_bias_backward": (("output_grad",), {"function": "linear_bias_backward"}),
    "conv2d_backward": (
        ("x", "weight", "output_grad", "stride", "padding", "dilation", "groups")
        + ("padding_end", "wanted"),
        {"function": "conv2d_backward"},
    ),
    "max_pool2d_keeping": (
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        {"function": "max_pool2d_keeping"},
    ),
    "max_pool2d_with_indices": (
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        {"function": "max_pool2d_with_indices"},
    ),
    "max_pool2d_with_indices_backward": (
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "output_grad")
        + ("indices",),
        {"function": "max_pool2d_with_indices_backward"},
    ),
}


def adam_step(g: Graph, call):
    """burn's Adam and AdamW (not AMSGrad, not cautious): the moments after `grad`, and the
    parameter moved by lr·sqrt(bc_2)/bc_1 · m / (sqrt(v) + epsilon·sqrt(bc_2)), decayed
    first by 1 - lr·weight_decay when decoupled. The numbers are the step's inputs."""
    v, n = call.values, call.names
    if v["amsgrad"] or v["cautious"]:
        raise Refused("AMSGrad and cautious Adam do not export yet")
    one = g.constant(1.0, dtype=np.float64)
    number = lambda arg: _wide(g, call, arg)  # noqa: E731
    narrow = lambda name: g.cast(name, call.dtype)  # noqa: E731
    grad = n["grad"]
    if v["weight_decay"] and not v["decoupled"]:
        grad = g.node("Add", [g.node("Mul", [n["param"], narrow(number("weight_decay"))]), grad])
    m = g.node("Mul", [grad, narrow(g.node("Sub", [one, number("beta_1")]))])
    if n["moment_1"] is not None:
        m = g.node("Add", [m, g.node("Mul", [n["moment_1"], narrow(number("beta_1"))])])
    second = g.node(
        "Mul", [g.node("Mul", [grad, grad]), narrow(g.node("Sub", [one, number("beta_2")]))]
    )
    if n["moment_2"] is not None:
        second = g.node("Add", [second, g.node("Mul", [n["moment_2"], narrow(number("beta_2"))])])
    root = g.node("Sqrt", [number("bias_correction_2")])
    delta = g.node(
        "Add", [g.node("Sqrt", [second]), narrow(g.node("Mul", [number("epsilon"), root]))]
    )
    scale = g.node("Div", [g.node("Mul", [number("lr"), root]), number("bias_correction_1")])
    delta = g.node("Mul", [g.node("Div", [m, delta]), narrow(scale)])
    param = n["param"]
    if v["decoupled"] and v["weight_decay"]:
        decay = g.node("Mul", [number("lr"), number("weight_decay")])
        param = g.node("Mul", [param, narrow(g.node("Sub", [one, decay]))])
    return g.node("Sub", [param, delta]), m, second, second


def _wide(g: Graph, call, arg: str) -> str:
    """A number argument as a float64 scalar (Python's arithmetic on it, before it meets an
    array of the receiver's dtype)."""
    name = call.names.get(arg)
    if name is not None:
        return g.cast(name, np.float64)
    return g.constant(float(call.values[arg]), dtype=np.float64)
