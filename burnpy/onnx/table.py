"""The translation table: one entry per ONNX operator (and per opset where its meaning
changed), each a function from the node (a `Site`: its inputs as expressions, its attributes,
what is known at import) to the expression of its value (burnpy/onnx/expr.py), written with the
Tensor API, `burnpy.generated.module` and the compositions of burnpy/onnx/ops.py.

`ops`, `module`, `Tensor`, `int` and `list` below are the generated code's names, as
expressions: `ops.where(x > 0, x, y)` builds the call the model will make, and a plain value
given to it (an attribute, a dtype's name) becomes a literal.

An entry raises `Refusal` (through `n.refuse`) for what it cannot take, naming the attribute
or input at fault; an operator without an entry is refused with the reason listed in
`REFUSED`, or as not implemented."""

from __future__ import annotations

import math

import numpy as np

from burnpy.onnx.emit import MODULE, OPS, Const, Outputs, Site
from burnpy.onnx import detection, flow, ml_nodes, pools, random_ops, sequences, tensor_ops, text
from burnpy.onnx import signal, vision
from burnpy.onnx.attention import causal_conv_with_state, flex_attention, linear_attention
from burnpy.onnx.pools import one_or_list, spatial_pads
from burnpy.onnx.errors import Refusal
from burnpy.onnx.expr import Attr, BinOp, Expr, Lit, Name, Operator, ints
from burnpy.onnx.ir import ELEMENT_TYPES, FLOATS, ML_DTYPES, storage
from burnpy.onnx.ops import QUANT_RANGES

ops, module = OPS, MODULE
Tensor, int_, list_ = Name("Tensor"), Name("int"), Name("list")


def _float(value) -> Lit:
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise Refusal(f"{str(value)[:60]!r} is not a number")
    return Lit(float(value))


def _is_float(dtype: str) -> bool:
    return dtype in FLOATS


def _method(x: Expr, name: str, *args) -> Expr:
    """`x.name(*args)`, the method named by one of this table's own dicts."""
    return Attr(x, name)(*args)


# -- element-wise ---------------------------------------------------------------------------

UNARY = {
    "Abs": "abs",
    "Neg": "neg",
    "Exp": "exp",
    "Log": "log",
    "Sqrt": "sqrt",
    "Tanh": "tanh",
    "Sin": "sin",
    "Cos": "cos",
    "Tan": "tan",
    "Sinh": "sinh",
    "Cosh": "cosh",
    "Asin": "asin",
    "Acos": "acos",
    "Atan": "atan",
    "Asinh": "asinh",
    "Acosh": "acosh",
    "Atanh": "atanh",
    "Erf": "erf",
    "Floor": "floor",
    "Ceil": "ceil",
    "Round": "round",
    "Reciprocal": "recip",
    "Sigmoid": "sigmoid",
    "Sign": "sign",
    "IsNaN": "is_nan",
    "Not": "bool_not",
    "BitwiseNot": "bitwise_not",
}
FLOAT_ONLY = {"Exp", "Log", "Sqrt", "Tanh", "Sin", "Cos", "Tan", "Sinh", "Cosh", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Erf", "Floor", "Ceil", "Round", "Reciprocal", "Sigmoid", "IsNaN"}  # fmt: skip


def unary(n: Site):
    if n.op in FLOAT_ONLY and not _is_float(n.dtype(0)):
        n.refuse(f"{n.op} of {n.dtype(0)} is not supported (float inputs only)")
    return _method(n.x(0), UNARY[n.op])


def relu(n: Site):
    return n.x(0).relu() if _is_float(n.dtype(0)) else n.x(0).clamp_min(0)


OPERATORS = {"Add": Operator.ADD, "Sub": Operator.SUB, "Mul": Operator.MUL, "Div": Operator.DIV}


def arithmetic(n: Site):
    if n.dtype(0) == "bool":
        n.refuse(f"{n.op} of bool is not supported")
    if n.dtype(0) == "uint64" and n.op == "Div":  # int64's bits, divided as unsigned
        return ops.unsigned_div(n.x(0), n.x(1))
    if n.scalar(0) is not None and n.scalar(1) is None:  # 2 * x: the number on the left
        return BinOp(OPERATORS[n.op], n.scalar(0), n.x(1))
    return BinOp(OPERATORS[n.op], n.x(0), n.operand(1))


def pow_(n: Site):
    base, exponent = n.dtype(0), n.dtype(1)
    x, y = n.x(0), n.operand(1)
    if _is_float(base):
        if not _is_float(exponent) and not isinstance(y, Lit):
            y = y.float(base)
        return x.powf(y)
    if _is_float(exponent):
        return x.float(exponent).powf(y).int(storage(base))
    return x.powi(y)


def mod(n: Site):
    if n.attr("fmod", 0):
        return ops.fmod(n.x(0), n.x(1))
    return n.x(0).remainder(n.x(1))


COMPARISONS = {
    "Equal": "equal",
    "Less": "lower",
    "LessOrEqual": "lower_equal",
    "Greater": "greater",
    "GreaterOrEqual": "greater_equal",
}


def comparison(n: Site):
    """The methods, which broadcast as numpy does (the operators refuse ranks that would
    broadcast into an outer product, a PyTorch idiom's mistake, which ONNX means)."""
    if n.dtype(0) == "string":
        return text.equal(n)
    if n.dtype(0) == "bool" and n.op != "Equal":
        n.refuse(f"{n.op} of bools is not supported")
    if n.dtype(0) == "bool":
        return n.x(0).bool_xor(n.x(1)).bool_not()
    method, number = COMPARISONS[n.op], n.scalar(1)
    if number is not None:
        return _method(n.x(0), f"{method}_elem", number)
    return _method(n.x(0), method, n.x(1))


LOGICAL = {"And": "bool_and", "Or": "bool_or", "Xor": "bool_xor"}


def logical(n: Site):
    return _method(n.x(0), LOGICAL[n.op], n.x(1))


BITWISE = {"BitwiseAnd": Operator.AND, "BitwiseOr": Operator.OR, "BitwiseXor": Operator.XOR}


def bitwise(n: Site):
    if n.dtype(0) == "bool":
        return _method(n.x(0), LOGICAL[n.op[7:]], n.x(1))
    return BinOp(BITWISE[n.op], n.x(0), n.x(1))


def bit_shift(n: Site):
    direction = n.attr("direction")
    method = "bitwise_left_shift" if direction == "LEFT" else "bitwise_right_shift"
    return _method(n.x(0), method, n.x(1))


def variadic(n: Site):
    """Max, Min, Sum and Mean over any number of inputs, broadcast together."""
    names = [n.x(i) for i in range(n.count()) if n.has(i)]
    if n.op in ("Max", "Min"):
        combine = ops.maximum if n.op == "Max" else ops.minimum
        expr = names[0]
        for name in names[1:]:
            expr = combine(expr, name)
        return expr
    total = names[0]
    for name in names[1:]:
        total = total + name
    if n.op == "Sum" or len(names) == 1:
        return total
    return total / len(names)


def where(n: Site):
    return ops.where(n.x(0), n.x(1), n.x(2))


def clip(n: Site):
    """Clip from opset 11: the bounds are optional inputs."""
    x = n.x(0)
    if any(n.has(i) and not n.is_const(i) for i in (1, 2)):
        if n.has(1):
            x = ops.maximum(x, n.x(1))
        return ops.minimum(x, n.x(2)) if n.has(2) else x
    low = n.const(1, "min").item() if n.has(1) else None
    high = n.const(2, "max").item() if n.has(2) else None
    return _clamped(n, x, low, high)


def clip_attributes(n: Site):
    """Clip before opset 11: the bounds are attributes."""
    return _clamped(n, n.x(0), n.attr("min"), n.attr("max"))


def _clamped(n: Site, x: Expr, low, high) -> Expr:
    if _is_float(n.dtype(0)):
        low = None if low is None else _float(low)
        high = None if high is None else _float(high)
    if low is not None and high is not None:
        return x.clamp(low, high)
    if low is not None:
        return x.clamp_min(low)
    if high is not None:
        return x.clamp_max(high)
    return x


def is_inf(n: Site):
    negative, positive = n.attr("detect_negative", 1), n.attr("detect_positive", 1)
    x = n.x(0)
    if negative and positive:
        return x.is_inf()
    if positive:
        return x.is_inf().bool_and(x > 0)
    if negative:
        return x.is_inf().bool_and(x < 0)
    return x.is_inf().bool_and(x.is_nan())


# -- activations ------------------------------------------------------------------------------


def leaky_relu(n: Site):
    return n.x(0).leaky_relu(_float(n.attr("alpha", 0.01)))


def hard_sigmoid(n: Site):
    return n.x(0).hard_sigmoid(_float(n.attr("alpha", 0.2)), _float(n.attr("beta", 0.5)))


def hard_swish(n: Site):
    x = n.x(0)
    return x * x.hard_sigmoid(1 / 6, 0.5)


def elu(n: Site):
    alpha = _float(n.attr("alpha", 1.0))
    return _rounded_once(n, lambda x: ops.where(x > 0, x, (x.exp() - 1) * alpha))


def selu(n: Site):
    x = n.x(0)
    alpha = _float(n.attr("alpha", 1.67326319217681884765625))
    gamma = _float(n.attr("gamma", 1.05070102214813232421875))
    return ops.where(x > 0, x, (x.exp() - 1) * alpha) * gamma


def celu(n: Site):
    alpha = _float(n.attr("alpha", 1.0))
    return _rounded_once(n, lambda x: x.clamp_min(0) + ((x / alpha).exp() - 1).clamp_max(0) * alpha)


def _rounded_once(n: Site, build) -> Expr:
    """An activation of several steps; a 16-bit input is computed in float32 and rounded
    once, as ONNX computes it (rounding every step drifts by a 16-bit step)."""
    x, dtype = n.x(0), n.dtype(0)
    if dtype in ("float16", "bfloat16"):
        return build(x.float("float32")).float(dtype)
    return build(x)


def softplus(n: Site):
    x = n.x(0)
    return x.relu() + (-x.abs()).exp().log1p()


def softsign(n: Site):
    x = n.x(0)
    return x / (x.abs() + 1)


def thresholded_relu(n: Site):
    x = n.x(0)
    return x.mask_fill(x <= _float(n.attr("alpha", 1.0)), 0)


def mish(n: Site):
    x = n.x(0)
    return x * (x.relu() + (-x.abs()).exp().log1p()).tanh()


def shrink(n: Site):
    x, bias, lambd = n.x(0), _float(n.attr("bias", 0.0)), _float(n.attr("lambd", 0.5))
    return ops.where(x < -lambd, x + bias, ops.where(x > lambd, x - bias, x * 0))


def gelu(n: Site):
    x = n.x(0)
    if n.attr("approximate", "none") == "tanh":
        return x * (((x + x * x * x * 0.044715) * math.sqrt(2 / math.pi)).tanh() + 1) * 0.5
    return x.gelu()


def swish(n: Site):
    x = n.x(0)
    return x * (x * _float(n.attr("alpha", 1.0))).sigmoid()


def prelu(n: Site):
    x = n.x(0)
    return ops.where(x < 0, x * n.x(1), x)


SOFTMAX = {"Softmax": "softmax", "LogSoftmax": "log_softmax"}


def softmax(n: Site):
    """Softmax, LogSoftmax and Hardmax from opset 13: along one axis (default the last)."""
    x, axis = n.x(0), n.attr("axis", -1)
    method = SOFTMAX.get(n.op)
    return _method(x, method, axis) if method else ops.hardmax(x, axis)


def softmax_2d(n: Site):
    """Softmax, LogSoftmax and Hardmax before opset 13: over the input flattened into a
    matrix at `axis` (default 1), every dim from `axis` on taken together."""
    x, rank = n.x(0), n.known_rank(0)
    axis = n.attr("axis", 1) % max(rank, 1)
    method = SOFTMAX.get(n.op)
    if axis == rank - 1:
        return _method(x, method, -1) if method else ops.hardmax(x, -1)
    inner = ops.flatten(x, axis)
    inner = _method(inner, method, 1) if method else ops.hardmax(inner, 1)
    return inner.reshape(list_(x.shape))


# -- shapes and data movement -------------------------------------------------------------------


def identity(n: Site):
    return n.x(0)


def constant(n: Site):
    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        value = n.attr(key)
        if value is None:
            continue
        if key == "value_float" or key == "value_floats":
            return Const(np.asarray(value, np.float32))
        if key == "value_int" or key == "value_ints":
            return Const(np.asarray(value, np.int64))
        if isinstance(value, np.ndarray):
            return Const(value)
    n.refuse("only tensor, float and int constants are supported (not strings or sparse)")


def shape(n: Site):
    dims = n.shape(0)
    start, end = n.attr("start", 0), n.attr("end")
    if dims is not None and all(isinstance(d, int) for d in dims[start:end]):
        return Const(np.array(dims[start:end], np.int64))
    if (start, end) == (0, None):
        return ops.shape(n.x(0))
    return ops.shape(n.x(0), start, end)


def size(n: Site):
    dims = n.shape(0)
    if dims is not None and all(isinstance(d, int) for d in dims):
        return Const(np.array(math.prod(dims), np.int64))
    return ops.size(n.x(0))


def _resolved(dims, target, allowzero: bool):
    """Reshape's target with its 0s copied from `dims` (when not allowzero) and -1 solved."""
    out = [dims[i] if (v == 0 and not allowzero) else v for i, v in enumerate(target)]
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        out[out.index(-1)] = math.prod(dims) // known if known else 0
    return out


def reshape(n: Site):
    x = n.x(0)
    allowzero = n.attr("allowzero", 0)
    if n.opset >= 5 and not n.is_const(1):
        return ops.reshape(x, n.ints_code(1), bool(allowzero))
    target = n.ints(1, "shape") if n.opset >= 5 else list(n.attr("shape"))
    dims = n.shape(0)
    if dims is not None and all(isinstance(d, int) for d in dims):
        return x.reshape(ints(_resolved(dims, target, allowzero)))
    return x.reshape([x.shape[i] if (v == 0 and not allowzero) else int(v) for i, v in enumerate(target)])  # fmt: skip


def flatten(n: Site):
    x = n.x(0)
    dims = n.shape(0)
    axis = n.attr("axis", 1)
    if dims is not None and all(isinstance(d, int) for d in dims):
        axis = axis + len(dims) if axis < 0 else axis
        return x.reshape(ints([math.prod(dims[:axis]), math.prod(dims[axis:])]))
    return ops.flatten(x, axis)


def transpose(n: Site):
    x = n.x(0)
    perm = n.attr("perm")
    if perm is None:
        perm = list(reversed(range(n.known_rank(0))))
    if list(perm) == sorted(perm):
        return x
    return x.permute(ints(perm))


def _static(dims) -> bool:
    return dims is not None and all(isinstance(d, int) for d in dims)


def squeeze(n: Site):
    """Squeeze from opset 13: the axes are an optional input."""
    if n.has(1) and not n.is_const(1):
        return ops.squeeze(n.x(0), n.ints_code(1))
    return _squeezed(n, n.ints(1, "axes") if n.has(1) else None)


def squeeze_attribute_axes(n: Site):
    """Squeeze before opset 13: the axes are an attribute."""
    axes = n.attr("axes")
    return _squeezed(n, None if axes is None else list(axes))


def _squeezed(n: Site, axes) -> Expr:
    x, dims = n.x(0), n.shape(0)
    if not _static(dims):
        return ops.squeeze(x, ints(axes) if axes is not None else None)
    if axes is None:
        drop = {i for i, d in enumerate(dims) if d == 1}
    else:
        drop = {a % len(dims) for a in axes}
    return x.reshape(ints(d for i, d in enumerate(dims) if i not in drop))


def unsqueeze(n: Site):
    """Unsqueeze from opset 13: the axes are an input."""
    if not n.is_const(1):
        return ops.unsqueeze(n.x(0), n.ints_code(1))
    return _unsqueezed(n, n.ints(1, "axes"))


def unsqueeze_attribute_axes(n: Site):
    """Unsqueeze before opset 13: the axes are an attribute."""
    return _unsqueezed(n, list(n.attr("axes")))


def _unsqueezed(n: Site, axes) -> Expr:
    x, dims = n.x(0), n.shape(0)
    if not _static(dims):
        return ops.unsqueeze(x, ints(axes))
    rank = len(dims) + len(axes)
    out = list(dims)
    for a in sorted(a % rank for a in axes):
        out.insert(a, 1)
    return x.reshape(ints(out))


def concat(n: Site):
    names = [n.x(i) for i in range(n.count()) if n.has(i)]
    if len(names) == 1:
        return names[0]
    return Tensor.cat(names, n.attr("axis"))


def split(n: Site):
    """Split from opset 13: the sizes are an optional input, else equal parts."""
    x, axis = n.x(0), n.attr("axis", 0)
    if n.has(1) and not n.is_const(1):
        return Outputs(ops.split(x, n.ints_code(1), axis), n.outputs())
    if n.has(1):
        return _split(n, n.ints(1, "split"))
    return _equal_split(n, n.outputs(), exact=True)


def split_num_outputs(n: Site):
    """Split from opset 18: without sizes, `num_outputs` parts, the last one smaller."""
    if n.has(1):
        return split(n)
    return _equal_split(n, n.attr("num_outputs", n.outputs()), exact=False)


def split_attribute(n: Site):
    """Split before opset 13: the sizes are an attribute."""
    sizes = n.attr("split")
    if sizes is None:
        return _equal_split(n, n.outputs(), exact=True)
    return _split(n, list(sizes))


def _split(n: Site, sizes) -> Outputs:
    return Outputs(ops.split(n.x(0), ints(sizes), n.attr("axis", 0)), len(sizes))


def _equal_split(n: Site, count: int, exact: bool) -> Outputs:
    x, axis, dims = n.x(0), n.attr("axis", 0), n.shape(0)
    if dims is None or not isinstance(dims[axis], int):
        sizes = ops.split_sizes(x.shape[axis], count)
        return Outputs(ops.split(x, sizes, axis), count)
    if exact and dims[axis] % count:
        n.refuse(f"an equal split of {dims[axis]} into {count} parts is not possible")
    from burnpy.onnx.ops import split_sizes

    return _split(n, split_sizes(dims[axis], count))


def _slice(start, end, step) -> slice:
    """Python's slice of ONNX's bounds (a bound beyond any size left out)."""
    big = 2**62
    start = None if (step > 0 and start <= -big) or (step < 0 and start >= big) else int(start)
    end = None if (step > 0 and end >= big) or (step < 0 and end <= -big) else int(end)
    return slice(start, end, None if step == 1 else int(step))


def slice_(n: Site):
    """Slice from opset 10: starts, ends, axes and steps are inputs (read when the model runs
    unless known at import)."""
    x = n.x(0)
    if n.rank(0) is None or not all(n.is_const(i) for i in range(1, 5) if n.has(i)):
        return ops.slice_(x, *(n.ints_code(i) if n.has(i) else None for i in range(1, 5)))
    starts, ends = n.ints(1, "starts"), n.ints(2, "ends")
    axes = n.ints(3, "axes") if n.has(3) else list(range(len(starts)))
    steps = n.ints(4, "steps") if n.has(4) else [1] * len(starts)
    return _sliced(n, starts, ends, axes, steps)


def slice_attributes(n: Site):
    """Slice before opset 10: starts, ends and axes are attributes, the step is 1."""
    starts, ends = list(n.attr("starts")), list(n.attr("ends"))
    axes = list(n.attr("axes", range(len(starts))))
    return _sliced(n, starts, ends, axes, [1] * len(starts))


def _sliced(n: Site, starts, ends, axes, steps) -> Expr:
    """Python's slicing, whose clamping is ONNX's."""
    x, rank, dims = n.x(0), n.known_rank(0), n.shape(0)
    parts = [slice(None)] * rank
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis %= rank
        if step == 0:
            n.refuse("a Slice step of 0")
        size = dims[axis] if dims is not None else None
        if step < 0 and isinstance(size, int) and end < 0 and end + size < 0:
            end = -(2**62)  # before the first entry
        parts[axis] = _slice(start, end, step)
    while parts and parts[-1] == slice(None):
        parts.pop()
    return x[tuple(parts)] if parts else x


def gather(n: Site):
    x, axis = n.x(0), n.attr("axis", 0)
    rank = n.known_rank(0)
    axis %= rank
    if n.is_const(1) and n.const(1).ndim == 0:
        index = int(n.const(1))
        return x[tuple([slice(None)] * axis + [index])]
    return ops.gather(x, n.x(1), axis)


def gather_elements(n: Site):
    return ops.gather_elements(n.x(0), n.x(1), n.attr("axis", 0))


def gather_nd(n: Site):
    if n.attr("batch_dims", 0):
        return ops.gather_nd_batched(n.x(0), n.x(1), n.attr("batch_dims"))
    return ops.gather_nd(n.x(0), n.x(1))


REDUCTIONS = {"none": "assign", "add": "add", "mul": "mul", "max": "max", "min": "min"}


def scatter_elements(n: Site):
    reduction, axis = n.attr("reduction", "none"), n.attr("axis", 0)
    if reduction not in ("none", "add"):  # through scatter_nd, which takes every reduction
        return ops.scatter_elements(n.x(0), n.x(1), n.x(2), axis, REDUCTIONS[reduction])
    indices = ops.gather_indices(n.x(0), n.x(1), axis)
    return n.x(0).scatter(axis, indices, n.x(2), REDUCTIONS[reduction])


def scatter_nd(n: Site):
    reduction = n.attr("reduction", "none")
    return n.x(0).scatter_nd(n.x(1), n.x(2), REDUCTIONS[reduction])


def expand(n: Site):
    x = n.x(0)
    if not n.is_const(1):
        return ops.expand(x, n.ints_code(1))
    target = n.ints(1, "shape")
    dims = n.shape(0)
    if dims is not None and all(isinstance(d, int) for d in dims):
        out = list(np.broadcast_shapes(tuple(dims), tuple(target)))
        n.bounded(math.prod(out))
        return x if out == list(dims) else x.expand(ints(out))
    return ops.expand(x, ints(target))


def tile(n: Site):
    x = n.x(0)
    if not n.is_const(1):
        return ops.tile(x, n.ints_code(1))
    repeats = n.ints(1, "repeats")
    dims = n.shape(0)
    if _static(dims):
        n.bounded(math.prod(dims) * math.prod(repeats))
    expr = x
    for dim, times in enumerate(repeats):
        if times != 1:
            expr = expr.repeat_dim(dim, times)
    return expr


def constant_of_shape(n: Site):
    value = n.attr("value")
    value = np.zeros(1, np.float32) if value is None else np.asarray(value)
    if n.is_const(0) and n.small(math.prod(n.ints(0, "shape"))):
        return Const(np.full(n.ints(0, "shape"), value.reshape(-1)[0], value.dtype))
    dtype = storage(str(value.dtype))
    dims = n.ints_code(0, "shape") if n.is_const(0) else n.x(0).tolist()
    return ops.full(dims, value.reshape(-1)[0].item(), dtype, n.device())


def range_(n: Site):
    if all(n.is_const(i) for i in range(3)):
        start, limit, delta = (n.const(i) for i in range(3))
        if float(delta) == 0:
            n.refuse("a Range with delta 0")
        count = max(int(math.ceil((float(limit) - float(start)) / float(delta))), 0)
        if n.small(count):
            values = start + np.arange(count).astype(start.dtype) * delta
            return Const(values.astype(start.dtype))
    dtype = storage(n.dtype(0))
    return ops.range_(n.x(0), n.x(1), n.x(2), dtype, n.device())


def cast(n: Site):
    x = n.x(0)
    target = ELEMENT_TYPES.get(n.attr("to")) if n.op == "Cast" else n.dtype(1)
    return _cast(n, x, n.dtype(0), target)


CAST_TARGETS = FLOATS + ("bool", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8")  # fmt: skip


def _cast(n: Site, x: Expr, source: str, target: str):
    """A value of ONNX type `source` as `target`; a narrow int's wrap follows the node."""
    if target == "float8e8m0":
        round_mode = n.attr("round_mode", "up")
        if round_mode not in ("up", "down", "nearest"):
            n.refuse(f"round_mode {round_mode!r} is not one of up, down, nearest")
        return ops.cast_e8m0(x, bool(n.attr("saturate", 1)), round_mode)
    if target in ML_DTYPES and target.startswith("float"):
        saturate = bool(n.attr("saturate", 1)) and target.startswith("float8")
        return ops.cast_narrow(x, ML_DTYPES[target], saturate)
    narrow_int = target in ML_DTYPES and not target.startswith("float")
    if narrow_int and storage(source) in FLOATS:
        # as ml_dtypes casts: truncated toward zero, 0 where that is outside the type (NaN too)
        low, high = QUANT_RANGES[target]
        return x.mask_fill(((x > low - 1) & (x < high + 1)).bool_not(), 0).int("int64")
    if target not in CAST_TARGETS and not narrow_int:
        n.refuse(f"a cast to {target} is not supported")
    if source == target:
        return x
    if target in FLOATS:
        if source == "uint64":
            n.refuse("a cast from uint64 to a float is not supported")
        return x.float(target)
    if target == "bool":
        return x.bool()
    held = storage(target)
    if storage(source) in FLOATS or source == "bool":
        return x.int(held)
    return x if storage(source) == held else x.cast(held)


def nonzero(n: Site):
    return ops.nonzero(n.x(0))


def lrn(n: Site):
    alpha, beta = _float(n.attr("alpha", 0.0001)), _float(n.attr("beta", 0.75))
    return ops.lrn(n.x(0), n.attr("size"), alpha, beta, _float(n.attr("bias", 1.0)))


def deform_conv(n: Site):
    if n.known_rank(0) != 4:
        n.refuse("DeformConv is supported for 2-d images")
    pads = list(n.attr("pads", [0, 0, 0, 0]))
    if pads[:2] != pads[2:]:
        n.refuse("DeformConv with asymmetric pads is not supported")
    options = {"padding": ints(pads[:2])}
    for attribute, option in (("strides", "stride"), ("dilations", "dilation")):
        if n.attr(attribute) is not None:
            options[option] = ints(n.attr(attribute))
    options["weight_groups"] = n.attr("group", 1)
    options["offset_groups"] = n.attr("offset_group", 1)
    return module.deform_conv2d(n.x(0), n.x(2), n.x(1), n.opt(4), n.opt(3), **options)


def trilu(n: Site):
    if n.has(1) and not n.is_const(1):
        k = int_(n.number_code(1))
    else:
        k = n.number_code(1) if n.has(1) else 0
    return ops.trilu(n.x(0), k, bool(n.attr("upper", 1)))


PAD_MODES = ("constant", "reflect", "edge", "wrap")


def pad(n: Site):
    """Pad from opset 11: pads, the constant value and (from 18) axes are inputs."""
    x, mode, rank = n.x(0), n.attr("mode", "constant"), n.known_rank(0)
    if mode not in PAD_MODES:
        n.refuse(f"Pad mode {mode!r}")
    value = n.number_code(2) if n.has(2) else 0
    if not n.is_const(1) or (n.has(3) and not n.is_const(3)):
        axes = n.ints_code(3) if n.has(3) else None
        return ops.pad(x, n.ints_code(1), mode, value, axes)
    pads = n.ints(1, "pads")
    if n.has(3):
        axes = [a % rank for a in n.ints(3, "axes")]
        full = [0] * (2 * rank)
        for i, a in enumerate(axes):
            full[a], full[rank + a] = pads[i], pads[len(axes) + i]
        pads = full
    return _padded(n, pads, mode, value)


def pad_attributes(n: Site):
    """Pad before opset 11: pads and the value are attributes."""
    mode = n.attr("mode", "constant")
    if mode not in PAD_MODES:
        n.refuse(f"Pad mode {mode!r}")
    return _padded(n, list(n.attr("pads")), mode, _float(n.attr("value", 0.0)))


def _padded(n: Site, pads, mode: str, value) -> Expr:
    if not any(pads):
        return n.x(0)
    dims = n.shape(0)
    if _static(dims) and len(pads) == 2 * len(dims):
        rank = len(dims)
        n.bounded(math.prod(d + pads[i] + pads[rank + i] for i, d in enumerate(dims)))
    return ops.pad(n.x(0), ints(pads), mode, value)


def eye_like(n: Site):
    """Built when the model runs (the identity of a declared size is never allocated at
    import)."""
    dims = n.static_shape(0)
    if len(dims) != 2:
        n.refuse(f"EyeLike of a rank-{len(dims)} input (rank 2 only)")
    dtype = ELEMENT_TYPES.get(n.attr("dtype")) if n.attr("dtype") is not None else n.dtype(0)
    n.bounded(dims[0] * dims[1])
    return ops.eye(dims[0], dims[1], n.attr("k", 0), storage(dtype), n.device())


def one_hot(n: Site):
    depth = int_(n.number_code(1))
    indices = n.x(0)
    if _is_float(n.dtype(0)):
        indices = indices.int("int64")
    elif n.dtype(0) != "int64":
        indices = indices.cast("int64")
    if n.is_const(1) and _static(n.shape(0)):
        n.bounded(math.prod(n.shape(0)) * abs(int(n.const(1).reshape(-1)[0])))
    return ops.one_hot(indices, depth, n.x(2), n.attr("axis", -1))


def top_k(n: Site):
    """TopK from opset 10: k is an input."""
    return _top(n, int_(n.number_code(1)))


def top_k_attribute(n: Site):
    """TopK before opset 10: k is an attribute."""
    return _top(n, n.attr("k"))


def _top(n: Site, k) -> Outputs:
    largest = bool(n.attr("largest", 1))
    return Outputs(ops.topk(n.x(0), k, n.attr("axis", -1), largest), 2)


def cumulative(n: Site):
    helper = ops.cumsum if n.op == "CumSum" else ops.cumprod
    axis = int_(n.number_code(1))
    return helper(n.x(0), axis, bool(n.attr("exclusive", 0)), bool(n.attr("reverse", 0)))


def depth_to_space(n: Site):
    if n.attr("mode", "DCR") not in ("DCR", "CRD"):
        n.refuse(f"DepthToSpace mode {n.attr('mode')!r} (DCR or CRD)")
    return ops.depth_to_space(n.x(0), n.attr("blocksize"), n.attr("mode", "DCR"))


def space_to_depth(n: Site):
    return ops.space_to_depth(n.x(0), n.attr("blocksize"), n.attr("mode", "DCR"))


def compress(n: Site):
    if not n.is_const(1):
        return ops.compress(n.x(0), n.x(1), n.attr("axis"))
    condition = np.asarray(n.const(1, "condition")).astype(bool)
    positions = np.nonzero(condition)[0].astype(np.int64)
    axis = n.attr("axis")
    x = n.x(0)
    if axis is None:
        return x.reshape([-1]).select(0, n.new_const(positions, "positions"))
    return x.select(axis, n.new_const(positions, "positions"))


RESIZE_CHOICES = {
    "mode": ("nearest", "linear", "cubic"),
    "coordinate_transformation_mode": ("half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),  # fmt: skip
    "nearest_mode": ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"),
    "keep_aspect_ratio_policy": ("stretch", "not_larger", "not_smaller"),
}


def resize(n: Site):
    for attribute, choices in RESIZE_CHOICES.items():
        if n.attr(attribute) is not None and n.attr(attribute) not in choices:
            n.refuse(f"{n.op} {attribute} {n.attr(attribute)!r} (one of {', '.join(choices)})")
    options = {}
    if n.op == "Upsample":
        scales = [_float(s) for s in n.attr("scales")] if n.opset < 9 else n.floats_code(1)
        _bounded_resize(n, scales, None)
        options["scales"] = scales
        options.update(mode=n.attr("mode", "nearest"), coordinate="asymmetric", nearest="floor")
        return ops.resize(n.x(0), **options)
    if n.opset < 11:
        n.refuse("Resize before opset 11 is not supported")
    if n.has(3):
        options["sizes"] = n.ints_code(3)
        _bounded_resize(n, None, n.ints(3) if n.is_const(3) else None)
    elif n.has(2):
        options["scales"] = n.floats_code(2)
        _bounded_resize(n, n.const(2).reshape(-1).tolist() if n.is_const(2) else None, None)
    coordinate = n.attr("coordinate_transformation_mode", "half_pixel")
    if coordinate == "tf_crop_and_resize":
        options["roi"] = n.floats_code(1)
    if n.attr("axes") is not None:
        options["axes"] = ints(n.attr("axes"))
    mode = n.attr("mode", "nearest")
    options.update(mode=mode, coordinate=coordinate)
    if mode == "nearest" and n.attr("nearest_mode", "round_prefer_floor") != "round_prefer_floor":
        options["nearest"] = n.attr("nearest_mode")
    if mode == "cubic" and n.attr("cubic_coeff_a", -0.75) != -0.75:
        options["cubic"] = _float(n.attr("cubic_coeff_a"))
    for attribute, option in (("exclude_outside", "exclude_outside"), ("antialias", "antialias")):
        if n.attr(attribute, 0):
            options[option] = True
    if n.attr("extrapolation_value", 0.0):
        options["extrapolation"] = _float(n.attr("extrapolation_value"))
    if n.attr("keep_aspect_ratio_policy", "stretch") != "stretch":
        options["policy"] = n.attr("keep_aspect_ratio_policy")
    if not _is_float(n.dtype(0)):
        n.refuse(f"Resize of {n.dtype(0)} is not supported")
    return ops.resize(n.x(0), **options)


def _bounded_resize(n: Site, scales, sizes):
    """A Resize whose output size is known at import stays within the folding cap when
    folded."""
    if sizes is not None and n.attr("axes") is None:
        n.bounded(math.prod(sizes))
    dims = n.shape(0)
    if isinstance(scales, list) and _static(dims) and len(scales) == len(dims):
        values = [s.value if isinstance(s, Lit) else s for s in scales]
        n.bounded(math.prod(math.floor(d * abs(s)) for d, s in zip(dims, values)))


def einsum(n: Site):
    return ops.einsum(n.attr("equation"), *(n.x(i) for i in range(n.count())))


def rotary_embedding(n: Site):
    options = {}
    if n.attr("interleaved", 0):
        options["interleaved"] = True
    if n.attr("num_heads", 0):
        options["heads"] = n.attr("num_heads")
    if n.attr("rotary_embedding_dim", 0):
        options["dim"] = n.attr("rotary_embedding_dim")
    args = [n.x(0), n.x(1), n.x(2)] + ([n.x(3)] if n.has(3) else [])
    return ops.rotary_embedding(*args, **options)


def center_crop_pad(n: Site):
    axes = n.attr("axes") or list(range(n.known_rank(0)))
    return ops.center_crop_pad(n.x(0), n.ints_code(1), ints(axes))


def swiglu(n: Site):
    return ops.swiglu(n.x(0), n.x(1), _float(n.attr("alpha", 1.0)))


WINDOWS = {"HannWindow": "hann", "HammingWindow": "hamming", "BlackmanWindow": "blackman"}


def window(n: Site):
    dtype = ELEMENT_TYPES.get(n.attr("output_datatype", 1))
    periodic = bool(n.attr("periodic", 1))
    if n.is_const(0):
        n.bounded(abs(int(n.const(0).reshape(-1)[0])))
    size = int_(n.number_code(0))
    return ops.window(WINDOWS[n.op], size, periodic, storage(dtype), n.device())


def reverse_sequence(n: Site):
    batch_axis, time_axis = n.attr("batch_axis", 1), n.attr("time_axis", 0)
    return ops.reverse_sequence(n.x(0), n.x(1), batch_axis, time_axis)


DEFAULT_ACTIVATIONS = {"RNN": ("Tanh",), "GRU": ("Sigmoid", "Tanh"), "LSTM": ("Sigmoid", "Tanh", "Tanh")}  # fmt: skip


def recurrent(n: Site):
    direction = n.attr("direction", "forward")
    activations = n.attr("activations")
    if activations is not None:
        directions = 2 if direction == "bidirectional" else 1
        if tuple(activations) != DEFAULT_ACTIVATIONS[n.op] * directions:
            n.refuse(f"{n.op} with activations {list(activations)} (the defaults only)")
    if n.op == "LSTM" and n.attr("input_forget", 0):
        n.refuse("LSTM with input_forget is not supported")
    if n.has(4) and direction != "forward":
        n.refuse(f"{n.op} with sequence_lens is supported in the forward direction only")
    count = {"RNN": 6, "GRU": 6, "LSTM": 8}[n.op]
    args = [n.op] + [n.opt(i) for i in range(count)]
    options = {"hidden": n.attr("hidden_size")}
    if direction != "forward":
        options["direction"] = direction
    if n.attr("layout", 0):
        options["layout"] = 1
    if n.attr("linear_before_reset", 0):
        options["linear_before_reset"] = True
    if n.attr("clip") is not None:
        options["clip"] = _float(n.attr("clip"))
    return Outputs(ops.recurrent(*args, **options), 3)


# -- reductions ---------------------------------------------------------------------------------

# (the method applied before, the reduction, the method applied after)
REDUCE = {
    "ReduceSum": (None, "sum", None),
    "ReduceMean": (None, "mean", None),
    "ReduceMax": (None, "max", None),
    "ReduceMin": (None, "min", None),
    "ReduceProd": (None, "prod", None),
    "ReduceL1": ("abs", "sum", None),
    "ReduceL2": ("square", "sum", "sqrt"),
    "ReduceSumSquare": ("square", "sum", None),
    "ReduceLogSum": (None, "sum", "log"),
}


def reduce(n: Site):
    """The reductions once their axes are an optional input (ReduceSum from opset 13, the
    others from 18)."""
    return _reduced(n, n.ints_code(1) if n.has(1) else None)


def reduce_attribute_axes(n: Site):
    """The reductions while their axes were an attribute."""
    axes = n.attr("axes")
    return _reduced(n, ints(axes) if axes else None)


def _reduced(n: Site, axes) -> Expr:
    keepdims = bool(n.attr("keepdims", 1))
    tail = {"noop": True} if n.attr("noop_with_empty_axes", 0) else {}
    x = n.x(0)
    if n.op == "ReduceLogSumExp":
        return ops.reduce_log_sum_exp(x, axes, keepdims, **tail)
    before, how, after = REDUCE[n.op]
    expr = ops.reduce(x if before is None else _method(x, before), how, axes, keepdims, **tail)
    return expr if after is None else _method(expr, after)


def arg_extreme(n: Site):
    how = "argmax" if n.op == "ArgMax" else "argmin"
    keep, last = bool(n.attr("keepdims", 1)), bool(n.attr("select_last_index", 0))
    return ops.arg(n.x(0), how, n.attr("axis", 0), keep, last)


# -- linear algebra ------------------------------------------------------------------------------


def matmul(n: Site):
    if (n.rank(0) or 0) >= 2 and (n.rank(1) or 0) >= 2:
        return n.x(0).matmul(n.x(1))
    return ops.matmul(n.x(0), n.x(1))


def gemm(n: Site):
    a, b = n.x(0), n.x(1)
    a = a.T if n.attr("transA", 0) else a
    b = b.T if n.attr("transB", 0) else b
    alpha, beta = n.attr("alpha", 1.0), n.attr("beta", 1.0)
    if alpha == 1.0 and beta == 1.0 and (not n.has(2) or n.rank(2) == 1):
        return module.linear(a, b, n.opt(2)) if n.has(2) else a.matmul(b)
    expr = a.matmul(b)
    if alpha != 1.0:
        expr = expr * _float(alpha)
    if n.has(2) and beta != 0.0:
        c = n.x(2) if beta == 1.0 else n.x(2) * _float(beta)
        expr = expr + c
    return expr


# -- convolution, pooling, normalisation --------------------------------------------------------


def conv(n: Site):
    if n.dtype(0) == "float16":  # no float16 kernel: computed in float32, rounded once
        bias = n.x(2).float("float32") if n.has(2) else None
        x, w = n.x(0).float("float32"), n.x(1).float("float32")
        return _conv_call(n, x, w, bias, 1).float("float16")
    if n.dtype(0) not in ("float32", "float64", "bfloat16"):
        n.refuse(f"Conv of {n.dtype(0)} is not supported (float32, float64, bfloat16)")
    return _conv_call(n, n.x(0), n.x(1), n.x(2) if n.has(2) else None, 1)


def _conv_call(n: Site, x: Expr, w: Expr, bias, weight_input: int) -> Expr:
    """The convolution of the node's attributes on the operands given as code (the weight's
    shape read from input `weight_input`)."""
    rank = n.known_rank(0)
    d = rank - 2
    if d not in (1, 2, 3):
        n.refuse(f"a {d}-d {n.op} is not supported (1-d to 3-d)")
    weight = n.shape(weight_input)
    kernel = n.attr("kernel_shape") or (weight[2:] if weight else None)
    if kernel is None:
        n.refuse("the kernel shape is unknown")
    strides = n.attr("strides", [1] * d)
    dilations = n.attr("dilations", [1] * d)
    begins, ends = spatial_pads(n, d, kernel, strides, dilations)
    args = [x, w] + ([bias] if bias is not None else [])
    options = {}
    if any(s != 1 for s in strides):
        options["stride"] = one_or_list(strides)
    if any(begins):
        options["padding"] = one_or_list(begins)
    if list(ends) != list(begins):
        options["padding_end"] = one_or_list(ends)
    if any(v != 1 for v in dilations):
        options["dilation"] = one_or_list(dilations)
    if n.attr("group", 1) != 1:
        options["groups"] = n.attr("group")
    return Attr(module, f"conv{d}d")(*args, **options)


def conv_transpose(n: Site):
    rank = n.known_rank(0)
    d = rank - 2
    if d not in (1, 2, 3):
        n.refuse(f"a {d}-d ConvTranspose is not supported (1-d to 3-d)")
    weight = n.shape(1)
    kernel = n.attr("kernel_shape") or (weight[2:] if weight else None)
    strides = list(n.attr("strides", [1] * d))
    dilations = list(n.attr("dilations", [1] * d))
    out_pad = list(n.attr("output_padding", [0] * d))
    output_shape = n.attr("output_shape")
    auto_pad = n.attr("auto_pad", "NOTSET")
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        dims = n.static_shape(0, "output_shape needs the input's size")[2:]
        target = (
            list(output_shape)[-d:]
            if output_shape is not None
            else [s * i for s, i in zip(strides, dims)]
        )
        begins, ends = [], []
        for i in range(d):
            full = strides[i] * (dims[i] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1
            total = full - target[i]
            if total < 0:
                out_pad[i] -= total
                total = 0
            small = total // 2
            begin = small if auto_pad != "SAME_UPPER" or output_shape is not None else total - small
            if auto_pad == "SAME_UPPER":
                begin = small
            elif auto_pad == "SAME_LOWER":
                begin = total - small
            else:
                begin = total - small
            begins.append(begin)
            ends.append(total - begin)
    elif auto_pad == "VALID":
        begins, ends = [0] * d, [0] * d
    else:
        pads = list(n.attr("pads", [0] * (2 * d)))
        begins, ends = pads[:d], pads[d:]
    args = [n.x(0), n.x(1)] + ([n.x(2)] if n.has(2) else [])
    options = {}
    if any(s != 1 for s in strides):
        options["stride"] = one_or_list(strides)
    symmetric = begins == ends
    if symmetric and any(begins):
        options["padding"] = one_or_list(begins)
    if any(out_pad):
        options["padding_out"] = one_or_list(out_pad)
    if any(v != 1 for v in dilations):
        options["dilation"] = one_or_list(dilations)
    if n.attr("group", 1) != 1:
        options["groups"] = n.attr("group")
    expr = Attr(module, f"conv_transpose{d}d")(*args, **options)
    if symmetric:
        return expr
    crop = [slice(None), slice(None)] + [slice(int(b), -int(e) if e else None) for b, e in zip(begins, ends)]  # fmt: skip
    return expr[tuple(crop)]


def global_pool(n: Site):
    rank = n.known_rank(0)
    how = "mean" if n.op == "GlobalAveragePool" else "max"
    return ops.reduce(n.x(0), how, ints(range(2, rank)), True)


def batch_norm(n: Site):
    if n.attr("training_mode", 0) or any(n.has_output(j) for j in range(1, n.outputs())):
        return tensor_ops.batch_norm_training(n)
    if n.opset < 7 and n.attr("spatial", 1) == 0:
        n.refuse("BatchNormalization with spatial=0 is not supported")
    args = [n.x(i) for i in range(5)]
    return module.batch_norm(*args, _float(n.attr("epsilon", 1e-5)))


def instance_norm(n: Site):
    return ops.instance_norm(n.x(0), n.x(1), n.x(2), _float(n.attr("epsilon", 1e-5)))


def group_norm(n: Site):
    epsilon = _float(n.attr("epsilon", 1e-5))
    helper = ops.group_norm if n.opset >= 21 else ops.group_norm_per_group  # scale per group
    return helper(n.x(0), n.x(1), n.x(2), n.attr("num_groups"), epsilon)


def layer_norm(n: Site):
    axis, epsilon = n.attr("axis", -1), _float(n.attr("epsilon", 1e-5))
    rank = n.known_rank(0)
    x, scale, bias = n.x(0), n.x(1), n.opt(2)
    if (
        axis % rank == rank - 1
        and n.outputs() == 1
        and n.rank(1) == 1
        and n.dtype(0) in ("float32", "float64")
    ):
        return module.layer_norm(x, scale, bias, epsilon)
    return Outputs(ops.layer_norm(x, scale, bias, axis, epsilon), 3)


def rms_norm(n: Site):
    return ops.rms_norm(n.x(0), n.x(1), n.attr("axis", -1), _float(n.attr("epsilon", 1e-5)))


def lp_norm(n: Site):
    p = n.attr("p", 2)
    if p not in (1, 2):
        n.refuse(f"LpNormalization with p={p}")
    return ops.lp_norm(n.x(0), n.attr("axis", -1), p)


def mean_variance_norm(n: Site):
    return ops.mean_variance_norm(n.x(0), ints(n.attr("axes", [0, 2, 3])))


# -- losses and attention -------------------------------------------------------------------------


def nll_loss(n: Site):
    reduction = n.attr("reduction", "mean")
    return ops.nll_loss(n.x(0), n.x(1), n.opt(2), reduction, n.attr("ignore_index"))


def softmax_cross_entropy(n: Site):
    reduction = n.attr("reduction", "mean")
    expr = ops.softmax_cross_entropy(n.x(0), n.x(1), n.opt(2), reduction, n.attr("ignore_index"))
    return Outputs(expr, 2) if n.has_output(1) else expr[0]


def attention(n: Site):
    options = {}
    if n.rank(0) == 3:
        options.update(q_heads=n.attr("q_num_heads"), kv_heads=n.attr("kv_num_heads"))
    if n.attr("scale") is not None:
        options["scale"] = _float(n.attr("scale"))
    if n.attr("softcap", 0.0):
        options["softcap"] = _float(n.attr("softcap"))
    if n.attr("is_causal", 0):
        options["is_causal"] = True
    for attribute, option in (
        ("left_window_size", "left_window"),
        ("right_window_size", "right_window"),
    ):
        if n.attr(attribute, -1) >= 0:
            options[option] = n.attr(attribute)
    if n.attr("qk_matmul_output_mode", 0):
        options["qk_mode"] = n.attr("qk_matmul_output_mode")
    present = [i for i in range(3, 7) if n.has(i)]
    args = [n.x(0), n.x(1), n.x(2)] + [
        n.opt(i) for i in range(3, (max(present) + 1) if present else 3)
    ]
    expr = ops.attention(*args, **options)
    if n.outputs() == 1:
        return expr[0]
    return Outputs(expr, 4)


# -- quantization ------------------------------------------------------------------------------------

QUANT_INTS = ("uint8", "int8", "uint16", "int16", "uint4", "int4", "uint2", "int2")
QUANT_FLOATS = ("float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float4e2m1")
# burn's value type holding each signed ONNX int: its full range (Q8F is [-128, 127]).
QUANT_VALUES = {"int8": "Q8F", "int4": "Q4F", "int2": "Q2F"}


def dynamic_quantize_linear(n: Site):
    return Outputs(ops.dynamic_quantize_linear(n.x(0)), 3)


def _quant_options(n: Site) -> list:
    return [n.attr("axis", 1), n.attr("block_size", 0)]


def quantize_linear(n: Site):
    target = n.out_dtype(0)
    if target not in QUANT_INTS + QUANT_FLOATS:
        n.refuse(f"QuantizeLinear to {target} is not supported")
    options = _quant_options(n) + [bool(n.attr("saturate", 1))]
    if n.attr("precision"):
        options.append(ELEMENT_TYPES[n.attr("precision")])
    return ops.quantize_linear(n.x(0), n.x(1), n.opt(2), target, *options)


def dequantize_linear(n: Site):
    """A quantized weight (a signed int8 / int4 / int2 constant, a float32 scale and no zero
    point, its blocks a grid of the tensor) becomes a quantized parameter of the model, which
    the model dequantizes where the graph does; other values are dequantized as ONNX says."""
    target = ELEMENT_TYPES[n.attr("output_dtype")] if n.attr("output_dtype") else n.dtype(1)
    weight = _quantized_weight(n, target)
    if weight is not None:
        return n.quantized_param(0, *weight).dequantize()
    source = n.dtype(0)
    if source not in QUANT_INTS + QUANT_FLOATS + ("int32",):
        n.refuse(f"DequantizeLinear of {source} is not supported")
    return ops.dequantize_linear(n.x(0), n.x(1), n.opt(2), *_quant_options(n), target)


def _quantized_weight(n: Site, target: str):
    """(values, scales, value type, block shape or None) when input 0 is a weight burn's
    symmetric quantization holds exactly, else None."""
    values, scale = n.initial(0), n.initial(1)
    zero = n.initial(2) if n.has(2) else np.zeros(1)
    value = QUANT_VALUES.get(n.dtype(0))
    if values is None or scale is None or zero is None or value is None or np.any(zero):
        return None
    if scale.dtype != np.float32 or target != "float32":
        return None
    if scale.size == 1 or values.ndim == 0:
        return values, scale.reshape([1]), value, None
    axis, block_size = n.attr("axis", 1) % values.ndim, n.attr("block_size", 0)
    block = [1] * values.ndim
    if block_size:
        if values.shape[axis] % block_size:
            return None  # a shorter last block: no grid of equal blocks
        block[axis] = block_size
        return values, scale, value, block
    block = list(values.shape)
    block[axis] = 1
    grid = [1] * values.ndim
    grid[axis] = scale.size
    return values, scale.reshape(grid), value, block


def matmul_integer(n: Site):
    return ops.matmul_integer(n.x(0), n.x(1), n.opt(2), n.opt(3))


def conv_integer(n: Site):
    x = ops.integer_operand(n.x(0), n.opt(2))
    w = ops.integer_operand(n.x(1), n.opt(3), 0)
    return _conv_call(n, x, w, None, 1).round().int("int32")


def qlinear_conv(n: Site):
    target = n.out_dtype(0)
    if target not in ("int8", "uint8"):
        n.refuse(f"QLinearConv to {target} is not supported")
    x = ops.integer_operand(n.x(0), n.opt(2))
    w = ops.integer_operand(n.x(3), n.opt(5), 0)
    bias = n.x(8).float("float64") if n.has(8) else None
    scale = ops.qlinear_conv_scale(n.x(1), n.x(4), n.x(6), n.known_rank(0))
    return ops.requantize(_conv_call(n, x, w, bias, 3), scale, n.opt(7), target)


def qlinear_matmul(n: Site):
    target = n.out_dtype(0)
    if target not in ("int8", "uint8"):
        n.refuse(f"QLinearMatMul to {target} is not supported")
    return ops.qlinear_matmul(*(n.opt(i) for i in range(8)), target)


# -- the table -------------------------------------------------------------------------------------

TABLE = {
    ("Abs", 1): unary,
    ("Adagrad", 1): tensor_ops.adagrad,
    ("Adam", 1): tensor_ops.adam,
    ("ArrayFeatureExtractor", 1): tensor_ops.array_feature_extractor,
    ("Acos", 7): unary,
    ("Acosh", 9): unary,
    ("Add", 1): arithmetic,
    ("And", 1): logical,
    ("ArgMax", 1): arg_extreme,
    ("ArgMin", 1): arg_extreme,
    ("Asin", 7): unary,
    ("Asinh", 9): unary,
    ("Bernoulli", 15): random_ops.bernoulli,
    ("BlackmanWindow", 17): window,
    ("Atan", 7): unary,
    ("Atanh", 9): unary,
    ("Attention", 23): attention,
    ("AveragePool", 1): pools.average_pool,
    ("BatchNormalization", 1): batch_norm,
    ("BitCast", 26): tensor_ops.bitcast,
    ("Binarizer", 1): tensor_ops.binarizer,
    ("BitShift", 11): bit_shift,
    ("BitwiseAnd", 18): bitwise,
    ("BitwiseNot", 18): unary,
    ("BitwiseOr", 18): bitwise,
    ("BitwiseXor", 18): bitwise,
    ("CausalConvWithState", 27): causal_conv_with_state,
    ("Cast", 1): cast,
    ("CastLike", 15): cast,
    ("Ceil", 1): unary,
    ("Celu", 12): celu,
    ("CenterCropPad", 18): center_crop_pad,
    ("Col2Im", 18): pools.col2im,
    ("Clip", 1): clip_attributes,
    ("Clip", 11): clip,
    ("Compress", 9): compress,
    ("Concat", 1): concat,
    ("Constant", 1): constant,
    ("ConstantOfShape", 9): constant_of_shape,
    ("Conv", 1): conv,
    ("ConvInteger", 10): conv_integer,
    ("ConvTranspose", 1): conv_transpose,
    ("Cos", 7): unary,
    ("Cosh", 9): unary,
    ("CumProd", 26): cumulative,
    ("CumSum", 11): cumulative,
    ("DeformConv", 19): deform_conv,
    ("DepthToSpace", 1): depth_to_space,
    ("Det", 11): tensor_ops.det,
    ("DequantizeLinear", 10): dequantize_linear,
    ("DynamicQuantizeLinear", 11): dynamic_quantize_linear,
    ("Div", 1): arithmetic,
    ("Dropout", 1): random_ops.dropout,
    ("Elu", 1): elu,
    ("Equal", 1): comparison,
    ("Einsum", 12): einsum,
    ("Erf", 9): unary,
    ("Exp", 1): unary,
    ("Expand", 8): expand,
    ("EyeLike", 9): eye_like,
    ("FlexAttention", 1): flex_attention,
    ("Flatten", 1): flatten,
    ("Floor", 1): unary,
    ("Gather", 1): gather,
    ("GRU", 7): recurrent,
    ("GridSample", 16): vision.grid_sample,
    ("GatherElements", 11): gather_elements,
    ("GatherND", 11): gather_nd,
    ("Gelu", 20): gelu,
    ("Gemm", 1): gemm,
    ("GlobalAveragePool", 1): global_pool,
    ("GlobalMaxPool", 1): global_pool,
    ("Greater", 1): comparison,
    ("GreaterOrEqual", 12): comparison,
    ("GroupNormalization", 18): group_norm,
    ("HammingWindow", 17): window,
    ("HannWindow", 17): window,
    ("HardSigmoid", 1): hard_sigmoid,
    ("HardSwish", 14): hard_swish,
    ("Hardmax", 1): softmax_2d,
    ("Hardmax", 13): softmax,
    ("Identity", 1): identity,
    ("InstanceNormalization", 1): instance_norm,
    ("IsInf", 10): is_inf,
    ("IsNaN", 9): unary,
    ("LRN", 1): lrn,
    ("LSTM", 7): recurrent,
    ("LayerNormalization", 17): layer_norm,
    ("LinearAttention", 27): linear_attention,
    ("LeakyRelu", 1): leaky_relu,
    ("Less", 1): comparison,
    ("LessOrEqual", 12): comparison,
    ("Log", 1): unary,
    ("LogSoftmax", 1): softmax_2d,
    ("LogSoftmax", 13): softmax,
    ("LpNormalization", 1): lp_norm,
    ("LpPool", 2): pools.lp_pool,
    ("MatMul", 1): matmul,
    ("MatMulInteger", 10): matmul_integer,
    ("Max", 1): variadic,
    ("MaxPool", 1): pools.max_pool,
    ("MaxUnpool", 9): pools.max_unpool,
    ("Mean", 1): variadic,
    ("MeanVarianceNormalization", 9): mean_variance_norm,
    ("Min", 1): variadic,
    ("Mish", 18): mish,
    ("Mod", 10): mod,
    ("Momentum", 1): tensor_ops.momentum,
    ("Mul", 1): arithmetic,
    ("Multinomial", 7): random_ops.multinomial,
    ("Neg", 1): unary,
    ("NegativeLogLikelihoodLoss", 12): nll_loss,
    ("NonZero", 9): nonzero,
    ("NonMaxSuppression", 10): detection.non_max_suppression,
    ("Not", 1): unary,
    ("OneHot", 9): one_hot,
    ("Or", 1): logical,
    ("PRelu", 1): prelu,
    ("Pad", 1): pad_attributes,
    ("Pad", 11): pad,
    ("Pow", 1): pow_,
    ("RMSNormalization", 23): rms_norm,
    ("RNN", 7): recurrent,
    ("QLinearConv", 10): qlinear_conv,
    ("QLinearMatMul", 10): qlinear_matmul,
    ("QuantizeLinear", 10): quantize_linear,
    ("RandomNormal", 1): random_ops.random_normal,
    ("RandomNormalLike", 1): random_ops.random_normal,
    ("RandomUniform", 1): random_ops.random_uniform,
    ("RandomUniformLike", 1): random_ops.random_uniform,
    ("Range", 11): range_,
    ("Reciprocal", 1): unary,
    ("ReduceL1", 1): reduce_attribute_axes,
    ("ReduceL1", 18): reduce,
    ("ReduceL2", 1): reduce_attribute_axes,
    ("ReduceL2", 18): reduce,
    ("ReduceLogSum", 1): reduce_attribute_axes,
    ("ReduceLogSum", 18): reduce,
    ("ReduceLogSumExp", 1): reduce_attribute_axes,
    ("ReduceLogSumExp", 18): reduce,
    ("ReduceMax", 1): reduce_attribute_axes,
    ("ReduceMax", 18): reduce,
    ("ReduceMean", 1): reduce_attribute_axes,
    ("ReduceMean", 18): reduce,
    ("ReduceMin", 1): reduce_attribute_axes,
    ("ReduceMin", 18): reduce,
    ("ReduceProd", 1): reduce_attribute_axes,
    ("ReduceProd", 18): reduce,
    ("ReduceSum", 1): reduce_attribute_axes,
    ("ReduceSum", 13): reduce,
    ("ReduceSumSquare", 1): reduce_attribute_axes,
    ("ReduceSumSquare", 18): reduce,
    ("Relu", 1): relu,
    ("Reshape", 1): reshape,
    ("Resize", 10): resize,
    ("ReverseSequence", 10): reverse_sequence,
    ("If", 1): flow.if_,
    ("Loop", 1): flow.loop,
    ("Scan", 8): flow.scan_batched,
    ("Scan", 9): flow.scan,
    ("SequenceMap", 17): flow.sequence_map,
    ("Optional", 15): sequences.optional,
    ("OptionalHasElement", 15): sequences.optional_has_element,
    ("OptionalGetElement", 15): sequences.optional_get_element,
    ("SequenceEmpty", 11): sequences.sequence_empty,
    ("SequenceConstruct", 11): sequences.sequence_construct,
    ("SequenceAt", 11): sequences.sequence_at,
    ("SequenceInsert", 11): sequences.sequence_insert,
    ("SequenceErase", 11): sequences.sequence_erase,
    ("SequenceLength", 11): sequences.sequence_length,
    ("SplitToSequence", 11): sequences.split_to_sequence,
    ("ConcatFromSequence", 11): sequences.concat_from_sequence,
    ("RotaryEmbedding", 23): rotary_embedding,
    ("Round", 11): unary,
    ("ScatterElements", 11): scatter_elements,
    ("ScatterND", 11): scatter_nd,
    ("Scatter", 9): scatter_elements,
    ("Selu", 1): selu,
    ("Shape", 1): shape,
    ("Shrink", 9): shrink,
    ("Sigmoid", 1): unary,
    ("Sign", 9): unary,
    ("Sin", 7): unary,
    ("Sinh", 9): unary,
    ("Size", 1): size,
    ("Slice", 1): slice_attributes,
    ("Slice", 10): slice_,
    ("Softmax", 1): softmax_2d,
    ("Softmax", 13): softmax,
    ("SoftmaxCrossEntropyLoss", 12): softmax_cross_entropy,
    ("Softplus", 1): softplus,
    ("Softsign", 1): softsign,
    ("SpaceToDepth", 1): space_to_depth,
    ("Split", 1): split_attribute,
    ("Split", 13): split,
    ("Split", 18): split_num_outputs,
    ("Sqrt", 1): unary,
    ("Squeeze", 1): squeeze_attribute_axes,
    ("Squeeze", 13): squeeze,
    ("Sub", 1): arithmetic,
    ("StringConcat", 20): text.string_concat,
    ("LabelEncoder", 1): ml_nodes.label_encoder,
    ("TreeEnsemble", 5): ml_nodes.tree_ensemble,
    ("TfIdfVectorizer", 9): ml_nodes.tfidf_vectorizer,
    ("StringNormalizer", 10): text.string_normalizer,
    ("StringSplit", 20): text.string_split,
    ("RegexFullMatch", 20): text.regex_full_match,
    ("Sum", 1): variadic,
    ("SwiGLU", 26): swiglu,
    ("Swish", 24): swish,
    ("Tan", 7): unary,
    ("Tanh", 1): unary,
    ("TensorScatter", 24): tensor_ops.tensor_scatter,
    ("ThresholdedRelu", 10): thresholded_relu,
    ("Tile", 6): tile,
    ("TopK", 1): top_k_attribute,
    ("TopK", 10): top_k,
    ("Transpose", 1): transpose,
    ("Trilu", 14): trilu,
    ("Unique", 11): detection.unique,
    ("Unsqueeze", 1): unsqueeze_attribute_axes,
    ("Unsqueeze", 13): unsqueeze,
    ("Upsample", 7): resize,
    ("Where", 9): where,
    ("Xor", 1): logical,
    ("DFT", 17): signal.dft,
    ("STFT", 17): signal.stft,
    ("MelWeightMatrix", 17): signal.mel_weight_matrix,
    ("AffineGrid", 20): vision.affine_grid,
    ("ImageDecoder", 20): vision.image_decoder,
    ("RoiAlign", 10): vision.roi_align,
}

# Operators refused on purpose, and why (the others without an entry are not implemented yet).
REFUSED: dict = {}


def _by_op(table: dict) -> dict:
    """op type -> its entries as (since, translation)."""
    entries = {}
    for (op, since), translate in table.items():
        entries.setdefault(op, []).append((since, translate))
    return entries


ENTRIES = _by_op(TABLE)


def lookup(node):
    """The entry for `node` at its opset: the one with the highest opset not above it."""
    entries = ENTRIES.get(node.op_type, [])
    best = None
    for since, translate in entries:
        if since <= node.opset and (best is None or since > best[0]):
            best = (since, translate)
    if best is None:
        reason = REFUSED.get(node.op_type)
        if reason is None:
            versions = [since for since, _ in entries]
            reason = f"supported from opset {min(versions)}" if versions else "not implemented"
        raise Refusal(f"{node.op_type} is not supported: {reason}")
    return best[1]
