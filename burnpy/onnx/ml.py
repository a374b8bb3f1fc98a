"""The classical machine-learning operators of an imported model (none differentiates: a
lookup, a count, a tree's leaf): ai.onnx.ml's LabelEncoder and TreeEnsemble, computed on the
host from their inputs' values when the model runs, and TfIdfVectorizer, with Tensor ops (its
strings mapped to ints on the host). The generated `forward` calls them with the node's
attributes as literals or buffers of the model (their sizes and ranges checked at import,
burnpy/onnx/ml_nodes.py); a numeric output is a Tensor on the model's device, a string output
an array of str (burnpy/onnx/strings.py)."""

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
    the count times the weight (`weights` parallel to the pool's n-grams, as ONNX says). A
    float32 Tensor [size] or [N, size] on `device`, computed with tensor ops from an int `x`'s
    values (none read on the host, so an export computes it for any input)."""
    size = max(indexes) + 1
    if isinstance(x, Tensor):
        tokens = x.cast("int64")  # a pool's int64 item must not wrap to match an int32 token
    else:  # strings become their position in the pool's vocabulary, -1 when not in it
        vocabulary = {item: i for i, item in enumerate(dict.fromkeys(pool))}
        items, shape = _items(x)
        ids = np.array([vocabulary.get(item, -1) for item in items], np.int64).reshape(shape)
        tokens = Tensor.from_data(ids, device=device, dtype="int64")
        pool = [vocabulary[item] for item in pool]
    one_d = len(tokens.shape) == 1
    rows = tokens.reshape([1, tokens.shape[0]]) if one_d else tokens
    counts, columns = [], []
    for n, (gram_items, gram_columns) in _pool_grams(pool, sizes, indexes, grams).items():
        windows = _windows(rows.shape[1], n, skip)
        if len(windows):
            counts.append(_count(rows, windows, gram_items, device))
            columns.extend(gram_columns)
    if counts:
        by_gram = Tensor.cat(counts, 1) if len(counts) > 1 else counts[0]
        out = by_gram.matmul(_one_hot(columns, size, device))
    else:  # no n-gram fits in a row
        out = Tensor.zeros([rows.shape[0], size], device=device, dtype="float32")
    scale = np.ones(size, np.float32)
    if weights:  # the weight of each n-gram of the pool, at its column
        scale[np.asarray(indexes)] = np.asarray(weights, np.float32)
    scale = Tensor.from_data(scale, device=device, dtype="float32")
    if mode == "IDF":
        out = out.greater_elem(0).into_float("float32").mul(scale)
    elif mode == "TFIDF":
        out = out.mul(scale)
    return out.reshape([size]) if one_d else out


def _pool_grams(pool: list, sizes: list, indexes: list, grams: tuple) -> dict:
    """{n: ([K, n] items, their K columns)} for the pool's n-grams of the lengths `grams`; an
    n-gram listed twice counts once, in the column of its last listing (as ONNX's reference)."""
    least, most = grams
    found = {}
    number = 0
    for n in range(1, len(sizes) + 1):
        end = sizes[n] if n < len(sizes) else len(pool)
        for start in range(sizes[n - 1], end - n + 1, n):
            if least <= n <= most:
                found.setdefault(n, {})[tuple(pool[start : start + n])] = indexes[number]
            number += 1
    return {n: (np.array(list(g), np.int64).reshape(-1, n), list(g.values())) for n, g in found.items()}  # fmt: skip


def _windows(length: int, n: int, skip: int) -> np.ndarray:
    """[W, n] positions of the items of every n-gram a row of `length` tokens holds: for each
    gap of 1 to `skip` + 1 (1 alone for a unigram, which a gap does not change), each start
    whose last item is in the row. Each (gap, start) is one occurrence, counted once. Gaps
    wider than the row allows are never tried, whatever `skip` says."""
    widest = 1 if n == 1 else min(skip + 1, (length - 1) // (n - 1))
    spans = [np.arange(length - (n - 1) * g)[:, None] + g * np.arange(n) for g in range(1, widest + 1)]  # fmt: skip
    return np.concatenate(spans) if spans else np.zeros((0, n), np.int64)


def _count(rows: Tensor, windows: np.ndarray, gram_items: np.ndarray, device) -> Tensor:
    """[R, K] float32: how many of `windows` [W, n] of each row of `rows` [R, C] hold each of
    the n-grams `gram_items` [K, n], as one comparison [R, W, K, n] (all n items equal)."""
    count, n = windows.shape
    where = Tensor.from_data(windows.reshape(-1), device=device, dtype="int64")
    taken = rows.select(1, where).reshape([rows.shape[0], count, 1, n])
    pool = Tensor.from_data(gram_items.reshape(1, 1, -1, n), device=device, dtype="int64")
    matched = taken.equal(pool).all_dim(3).into_float("float32")
    return matched.sum_dim(1).reshape([rows.shape[0], len(gram_items)])


def _one_hot(columns: list, size: int, device) -> Tensor:
    """[K, size] float32 placing each n-gram's count in its column (several may share one)."""
    table = np.zeros((len(columns), size), np.float32)
    table[np.arange(len(columns)), columns] = 1
    return Tensor.from_data(table, device=device, dtype="float32")
