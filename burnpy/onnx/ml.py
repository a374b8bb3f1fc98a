"""The classical machine-learning operators of an imported model, computed on the host from
their inputs' values when the model runs (none differentiates: a lookup, a count, a tree's
leaf): ai.onnx.ml's LabelEncoder and TreeEnsemble, and TfIdfVectorizer. The generated
`forward` calls them with the node's attributes as literals or buffers of the model (their
sizes and ranges checked at import, burnpy/onnx/ml_nodes.py); a numeric output is a Tensor on
the model's device, a string output an array of str (burnpy/onnx/strings.py)."""

from __future__ import annotations

import math

import numpy as np

from burnpy.generated import Tensor
from burnpy.onnx import strings
from burnpy.onnx.exporter.trace import data_values


def _items(x) -> tuple:
    """(the elements of a Tensor or an array of str as Python values, its shape)."""
    array = x.to_numpy() if isinstance(x, Tensor) else np.asarray(x, dtype=object)
    return np.asarray(array).reshape(-1).tolist(), tuple(np.shape(array))


def _key(value):
    """A lookup key: NaN matches NaN (ONNX's LabelEncoder maps a NaN key)."""
    return "nan" if isinstance(value, float) and math.isnan(value) else value


def label_encode(x, keys: list, values: list, default, dtype: str, device):
    """LabelEncoder: each element of `x` (a Tensor or an array of str) replaced by the value of
    its key, `default` where it has none; a Tensor of `dtype` on `device`, or an array of str
    when `dtype` is "string"."""
    table = {_key(k): v for k, v in zip(keys, values)}
    items, shape = _items(x)
    found = [table.get(_key(item), default) for item in items]
    if dtype == "string":
        return strings.constant(found, list(shape))
    array = np.array(found, dtype=dtype).reshape(shape)
    return Tensor.from_data(array, device=device, dtype=dtype)


# TreeEnsemble's node modes, as ONNX numbers them.
LEQ, LT, GTE, GT, EQ, NEQ, MEMBER = range(7)


def tree_ensemble(
    x: Tensor,
    n_targets: int,
    aggregate: int,
    *,
    roots: Tensor,
    features: Tensor,
    modes: Tensor,
    splits: Tensor,
    true_ids: Tensor,
    false_ids: Tensor,
    true_leafs: Tensor,
    false_leafs: Tensor,
    missing: Tensor,
    leaf_targets: Tensor,
    leaf_weights: Tensor,
    membership: Tensor | None,
) -> Tensor:
    """TreeEnsemble (no post transform): each row of x [N, F] walks every tree from its root
    to a leaf, comparing the node's feature with its split by its mode (<=, <, >=, >, ==, !=,
    or membership of the node's set in `membership`, NaN-delimited, in the order of the
    nodes), NaN going the true way where `missing` says; the leaves' weights are added to
    their targets (`aggregate` 1), averaged over the trees (0), or their minimum (2) or
    maximum (3) taken. The arrays are the model's buffers, their ranges checked at import
    and the trees found free of cycles, so each walk ends. [N, n_targets] in x's dtype."""
    data = data_values(x)
    node_of = {
        "features": features, "modes": modes, "splits": splits, "true_ids": true_ids,
        "false_ids": false_ids, "true_leafs": true_leafs, "false_leafs": false_leafs,
        "missing": missing,
    }  # fmt: skip
    table = {k: np.asarray(v.to_numpy()) for k, v in node_of.items()}
    weights = np.asarray(leaf_weights.to_numpy()).astype(np.float64)
    targets = np.asarray(leaf_targets.to_numpy()).astype(np.int64)
    sets = _member_sets(table["modes"], membership)
    rows = np.arange(data.shape[0])
    found = []
    for root in np.asarray(roots.to_numpy()).tolist():
        if table["true_leafs"][root] and table["false_leafs"][root] and table["true_ids"][root] == table["false_ids"][root]:  # fmt: skip
            found.append(np.full(len(rows), table["true_ids"][root], dtype=np.int64))
            continue
        node = np.full(len(rows), root, dtype=np.int64)
        leaf = np.full(len(rows), -1, dtype=np.int64)
        walking = rows
        while walking.size:
            at = node[walking]
            value = data[walking, table["features"][at]].astype(np.float64)
            split = table["splits"][at].astype(np.float64)
            go_true = _compare(table["modes"][at], value, split, at, sets)
            go_true |= np.isnan(value) & (table["missing"][at] != 0)
            ends = np.where(go_true, table["true_leafs"][at], table["false_leafs"][at]) != 0
            nxt = np.where(go_true, table["true_ids"][at], table["false_ids"][at])
            leaf[walking[ends]] = nxt[ends]
            node[walking[~ends]] = nxt[~ends]
            walking = walking[~ends]
        found.append(leaf)
    out = _aggregate(data, found, weights, targets, n_targets, aggregate).astype(data.dtype)
    return Tensor.from_data(out, device=x.device().inner(), dtype=str(data.dtype))


def _member_sets(modes, membership) -> dict:
    """node index -> the set of values of each membership node, in the order of the nodes."""
    members = [] if membership is None else np.asarray(membership.to_numpy()).tolist()
    groups, current = [], []
    for value in members:
        if math.isnan(value):
            groups.append(current)
            current = []
        else:
            current.append(value)
    groups.append(current)
    nodes = [i for i, mode in enumerate(modes.tolist()) if mode == MEMBER]
    return {i: np.array(groups[k], dtype=np.float64) for k, i in enumerate(nodes)}


def _compare(modes, value, split, at, sets) -> np.ndarray:
    result = np.select(
        [modes == LEQ, modes == LT, modes == GTE, modes == GT, modes == EQ, modes == NEQ],
        [value <= split, value < split, value >= split, value > split, value == split, value != split],  # fmt: skip
        False,
    )
    for k in np.nonzero(modes == MEMBER)[0]:
        result[k] = bool(np.isin(value[k], sets[int(at[k])]))
    return result


def _aggregate(data, found, weights, targets, n_targets, aggregate) -> np.ndarray:
    count = data.shape[0]
    if aggregate in (2, 3):
        info = np.finfo(data.dtype)
        out = np.full((count, n_targets), info.max if aggregate == 2 else info.min, np.float64)
    else:
        out = np.zeros((count, n_targets), np.float64)
    rows = np.arange(count)
    for leaf in found:
        add = weights[leaf] / len(found) if aggregate == 0 else weights[leaf]
        where = (rows, targets[leaf])
        if aggregate == 2:
            np.minimum.at(out, where, add)
        elif aggregate == 3:
            np.maximum.at(out, where, add)
        else:
            np.add.at(out, where, add)
    return out


def tfidf(x, pool: list, sizes: list, indexes: list, weights: list, grams: tuple, skip: int, mode: str, device):  # fmt: skip
    """TfIdfVectorizer: the n-grams of `pool` (its n-grams of length n start at `sizes[n-1]`,
    each numbered in order, `indexes` giving its output column) counted in each row of `x` [C]
    or [N, C] (ints or strings), for the lengths `grams` = (least, most) and gaps of up to
    `skip` tokens between an n-gram's items (a unigram counted once); `mode` TF gives the
    counts, IDF the n-gram's weight where the count is positive (1 without `weights`), TFIDF
    the count times the weight (`weights` parallel to the pool's n-grams, as ONNX says). A float32 Tensor [size] or [N, size] on `device`.
    """
    items, shape = _items(x)
    least, most = grams
    lookup = {}
    number = 0
    for n in range(1, len(sizes) + 1):
        end = sizes[n] if n < len(sizes) else len(pool)
        for start in range(sizes[n - 1], end - n + 1, n):
            if least <= n <= most:
                lookup[tuple(pool[start : start + n])] = indexes[number]
            number += 1
    size = max(indexes) + 1
    if len(shape) == 1:
        rows = [items]
    else:
        width = shape[1]
        rows = [items[r * width : (r + 1) * width] for r in range(shape[0])]
    counts = np.zeros((len(rows), size), np.float32)
    longest = min(most, len(sizes))
    for r, row in enumerate(rows):
        for gap in range(1, min(skip + 1, max(len(row) - 1, 1)) + 1):
            for start in range(len(row)):
                for n in range(max(least, 1 if gap == 1 else 2), longest + 1):
                    last = start + (n - 1) * gap
                    if last >= len(row):
                        break
                    column = lookup.get(tuple(row[start : last + 1 : gap]))
                    if column is not None:
                        counts[r, column] += 1
    scale = np.ones(size, np.float32)
    if weights:  # the weight of each n-gram of the pool, at its column
        scale[np.asarray(indexes)] = np.asarray(weights, np.float32)
    if mode == "IDF":
        counts = (counts > 0) * scale
    elif mode == "TFIDF":
        counts = counts * scale
    out = counts.astype(np.float32).reshape((size,) if len(shape) == 1 else (len(rows), size))
    return Tensor.from_data(out, device=device, dtype="float32")
