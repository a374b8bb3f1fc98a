"""The translations of the pooling operators (MaxPool, AveragePool, LpPool, MaxUnpool) and of
Col2Im, and the window geometry they share with the convolutions of burnpy/onnx/table.py.

What the catalogue's 1-d and 2-d pools take stays a single call of `module.max_pool2d` (and
its kin); the rest (3-d windows, dilated averages, integer maxima, a divisor that leaves out
pads of one side, Indices with padding) is `ops.pool` and its kin (burnpy/onnx/pooling.py)."""

from __future__ import annotations

from burnpy.onnx.emit import MODULE, OPS, Outputs, Site
from burnpy.onnx.expr import Attr, Expr, Lit, ints
from burnpy.onnx.ir import FLOATS

ops, module = OPS, MODULE


def spatial_pads(n: Site, d: int, kernel, strides, dilations):
    """(begins, ends) of the padding of each spatial dim, auto_pad resolved."""
    auto_pad = n.attr("auto_pad", "NOTSET")
    if auto_pad in ("NOTSET", ""):
        pads = list(n.attr("pads", [0] * (2 * d)))
        return pads[:d], pads[d:]
    if auto_pad == "VALID":
        return [0] * d, [0] * d
    dims = n.static_shape(0, "auto_pad SAME needs the input's size")[2:]
    begins, ends = [], []
    for size, k, s, dil in zip(dims, kernel, strides, dilations):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * dil + 1 - size, 0)
        small = total // 2
        begin = small if auto_pad == "SAME_UPPER" else total - small
        begins.append(begin)
        ends.append(total - begin)
    return begins, ends


def ceil_mode(n: Site, kernel, strides, dilations, begins, ends) -> bool:
    """Whether ceil_mode changes the output size: ONNX drops a last window that would start
    in the end padding, so with a static input ceil_mode is kept only where it adds one."""
    if not n.attr("ceil_mode", 0):
        return False
    dims = n.shape(0)
    if dims is None or not all(isinstance(d, int) for d in dims[2:]):
        return True
    for size, k, s, dil, b, e in zip(dims[2:], kernel, strides, dilations, begins, ends):
        span = size + b + e - ((k - 1) * dil + 1)
        floor, ceil = span // s + 1, -(-span // s) + 1
        if (ceil - 1) * s >= size + b:
            ceil -= 1
        if ceil != floor:
            return True
    return False


def one_or_list(values) -> Expr:
    """One int when all are equal, else the list."""
    values = [int(v) for v in values]
    return Lit(values[0]) if len(set(values)) == 1 else ints(values)


def _window(n: Site):
    """(d, kernel, strides, dilations, begins, ends) of a pooling node."""
    d = n.known_rank(0) - 2
    if d < 1:
        n.refuse(f"a {n.op} needs an input of rank 3 or more, [n, c, *spatial]")
    kernel = list(n.attr("kernel_shape"))
    strides = list(n.attr("strides", [1] * d))
    dilations = list(n.attr("dilations", [1] * d))
    begins, ends = spatial_pads(n, d, kernel, strides, dilations)
    return d, kernel, strides, dilations, list(begins), list(ends)


def _composed(n: Site, how: str, kernel, strides, dilations, begins, ends, **options) -> Expr:
    """`ops.pool` of the node's window (burnpy/onnx/pooling.py)."""
    if n.attr("ceil_mode", 0):
        options["ceil_mode"] = True
    geometry = {"strides": ints(strides), "dilations": ints(dilations), "begins": ints(begins), "ends": ints(ends)}  # fmt: skip
    return ops.pool(n.x(0), how, ints(kernel), **geometry, **options)


def max_pool(n: Site):
    d, kernel, strides, dilations, begins, ends = _window(n)
    if n.has_output(1):
        if d == 2 and not n.attr("storage_order", 0) and not any(begins + ends):
            options = {"stride": one_or_list(strides)}
            if any(v != 1 for v in dilations):
                options["dilation"] = one_or_list(dilations)
            if ceil_mode(n, kernel, strides, dilations, begins, ends):
                options["ceil_mode"] = True
            return Outputs(ops.max_pool_indices(n.x(0), ints(kernel), **options), 2)
        geometry = {"strides": ints(strides), "dilations": ints(dilations), "begins": ints(begins), "ends": ints(ends)}  # fmt: skip
        if n.attr("ceil_mode", 0):
            geometry["ceil_mode"] = True
        if n.attr("storage_order", 0):
            geometry["column_major"] = True
        return Outputs(ops.pool_indices(n.x(0), ints(kernel), **geometry), 2)
    if d > 2 or n.dtype(0) not in FLOATS:
        return _composed(n, "max", kernel, strides, dilations, begins, ends)
    x = n.x(0)
    if begins != ends:
        pads = [0, 0] + list(begins) + [0, 0] + list(ends)
        x = ops.pad(x, ints(pads), "constant", float("-inf"))
        begins = ends = [0] * d
    options = {"stride": one_or_list(strides)}
    if any(begins):
        options["padding"] = one_or_list(begins)
    if any(v != 1 for v in dilations):
        options["dilation"] = one_or_list(dilations)
    if ceil_mode(n, kernel, strides, dilations, begins, begins):
        options["ceil_mode"] = True
    return Attr(module, f"max_pool{d}d")(x, one_or_list(kernel), **options)


def average_pool(n: Site):
    d, kernel, strides, dilations, begins, ends = _window(n)
    include = bool(n.attr("count_include_pad", 0))
    dilated = any(v != 1 for v in dilations)
    one_sided = begins != ends and not include and any(begins + ends)
    if d > 2 or dilated or one_sided:
        return _composed(n, "avg", kernel, strides, dilations, begins, ends, count_include_pad=include)  # fmt: skip
    x = n.x(0)
    if begins != ends:
        pads = [0, 0] + list(begins) + [0, 0] + list(ends)
        x = ops.pad(x, ints(pads), "constant", 0.0)
        begins = [0] * d
    options = {"stride": one_or_list(strides)}
    if any(begins):
        options["padding"] = one_or_list(begins)
    options["count_include_pad"] = include
    if ceil_mode(n, kernel, strides, dilations, begins, begins):
        options["ceil_mode"] = True
    return Attr(module, f"avg_pool{d}d")(x, one_or_list(kernel), **options)


def lp_pool(n: Site):
    d, kernel, strides, dilations, begins, ends = _window(n)
    p = n.attr("p", 2)
    if d > 2 or any(v != 1 for v in dilations) or n.attr("ceil_mode", 0):
        return _composed(n, "lp", kernel, strides, dilations, begins, ends, p=p)
    return ops.lp_pool(n.x(0), ints(kernel), p, stride=ints(strides), begins=ints(begins), ends=ints(ends))  # fmt: skip


def max_unpool(n: Site):
    d = n.known_rank(0) - 2
    kernel = list(n.attr("kernel_shape"))
    strides = list(n.attr("strides", [1] * d))
    pads = list(n.attr("pads", [0] * (2 * d)))
    dims = n.ints_code(2, "the output shape") if n.has(2) else None
    geometry = [ints(kernel), ints(strides), ints(pads[:d]), ints(pads[d:])]
    return ops.max_unpool(n.x(0), n.x(1), *geometry, dims)


def col2im(n: Site):
    d = n.static_shape(2, "the block shape's length is the image's rank")[0]
    strides = list(n.attr("strides", [1] * d))
    dilations = list(n.attr("dilations", [1] * d))
    pads = list(n.attr("pads", [0] * (2 * d)))
    if d == 2 and pads[:2] == pads[2:]:  # the catalogue's fold4d
        options = {}
        if n.attr("strides") is not None:
            options["stride"] = ints(strides)
        if any(pads):
            options["padding"] = ints(pads[:2])
        if n.attr("dilations") is not None:
            options["dilation"] = ints(dilations)
        return module.fold4d(n.x(0), n.ints_code(1), n.ints_code(2), **options)
    geometry = {"strides": ints(strides), "dilations": ints(dilations), "begins": ints(pads[:d]), "ends": ints(pads[d:])}  # fmt: skip
    return ops.col2im(n.x(0), n.ints_code(1), n.ints_code(2), **geometry)
