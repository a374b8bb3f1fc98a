"""The lowering functions ops.yaml's `onnx: {function: NAME}` keys name: each takes the graph
and one kernel call (burnpy.onnx.exporter.lower.Call) and returns the names of the ONNX values
holding the call's results, in order. What a single expression says stays in ops.yaml; what
needs the call's shapes, a computed attribute or the opset is here. A lowering that cannot
express a call raises Refused, saying why."""

from __future__ import annotations

import math

import numpy as np

from burnpy.onnx.exporter.graph import Graph, Refused, numpy_dtype, to_numpy

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
    value = g.constant(call.values["value"], dtype=call.dtype)
    return g.node("Where", [call.names["mask"], value, call.names["tensor"]])


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
    return g.node(
        "Conv",
        [call.names["x"], call.names["weight"], call.names.get("bias")],
        strides=list(v["stride"]),
        pads=_pads(v["padding"], v.get("padding_end")),
        dilations=list(v["dilation"]),
        group=v["groups"],
        kernel_shape=list(call.shape("weight")[2:]),
    )


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


def max_pool(g, call):
    v = call.values
    kernel = list(v["kernel_size"])
    return g.node(
        "MaxPool",
        [call.names["x"]],
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


def batch_norm(g, call):
    n = call.names
    return g.node(
        "BatchNormalization",
        [n["input"], n["gamma"], n["beta"], n["mean"], n["variance"]],
        epsilon=float(call.values["epsilon"]),
    )


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
