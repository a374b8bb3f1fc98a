"""Translations of ai.onnx.ml's LabelEncoder and TreeEnsemble, and of TfIdfVectorizer: one call
each of burnpy/onnx/ml.py. Their attributes come from the model, so they are checked here,
before anything is written: lengths that go together, indices in range, output sizes within
FOLD_LIMIT, a tree free of cycles (every walk from a root ends at a leaf). Keys, values and
n-gram pools are literals (`repr`); a tree's arrays are buffers of the model."""

from __future__ import annotations

import numpy as np

from burnpy.onnx.emit import FOLD_LIMIT, ML, Site
from burnpy.onnx.expr import Lit, lift
from burnpy.onnx.ir import STRING, storage

# -- LabelEncoder --------------------------------------------------------------------------

DEFAULTS = {"string": ("default_string", "_Unused"), "int": ("default_int64", -1), "float": ("default_float", -0.0)}  # fmt: skip


def _family(dtype: str) -> str:
    return "string" if dtype == STRING else ("float" if "float" in dtype else "int")


def _listed(n: Site, prefix: str) -> list:
    """The keys or values: one of `prefix`_strings, _int64s, _floats, _tensor."""
    given = [s for s in ("strings", "int64s", "floats", "tensor") if n.attr(f"{prefix}_{s}") is not None]  # fmt: skip
    if len(given) != 1:
        n.refuse(f"exactly one of {prefix}_strings, {prefix}_int64s, {prefix}_floats, {prefix}_tensor must be given, not {given or 'none'}")  # fmt: skip
    value = n.attr(f"{prefix}_{given[0]}")
    return np.asarray(value).reshape(-1).tolist() if given[0] == "tensor" else list(value)


def label_encoder(n: Site):
    source, target = n.dtype(0), n.out_dtype(0)
    if n.opset < 2:  # classes_strings: strings to their positions, or positions to strings
        classes = list(n.attr("classes_strings", ()))
        positions = list(range(len(classes)))
        if source == STRING:
            keys, values, default = classes, positions, n.attr("default_int64", -1)
        else:
            keys, values, default = positions, classes, n.attr("default_string", "_Unused")
    else:
        keys, values = _listed(n, "keys"), _listed(n, "values")
        if len(keys) != len(values):
            n.refuse(f"it has {len(keys)} keys and {len(values)} values; each key needs one value")  # fmt: skip
        attribute, default = DEFAULTS[_family(target)]
        default = n.attr(attribute, default)
        if n.attr("default_tensor") is not None:
            default = np.asarray(n.attr("default_tensor")).reshape(-1)[0].item()
    for what, items, dtype in (("key", keys, source), ("value", values, target)):
        family = _family(dtype)
        kind = str if family == "string" else (float if family == "float" else int)
        if any(not isinstance(i, kind) and not (kind is float and isinstance(i, int)) for i in items):  # fmt: skip
            n.refuse(f"its {what}s do not all fit its {dtype} {'input' if what == 'key' else 'output'}")  # fmt: skip
    dtype = STRING if target == STRING else storage(target)
    return ML.label_encode(n.x(0), lift(keys), lift(values), lift(default), dtype, n.device())


# -- TreeEnsemble --------------------------------------------------------------------------

NODE_ARRAYS = {
    "features": "nodes_featureids",
    "modes": "nodes_modes",
    "splits": "nodes_splits",
    "true_ids": "nodes_truenodeids",
    "false_ids": "nodes_falsenodeids",
    "true_leafs": "nodes_trueleafs",
    "false_leafs": "nodes_falseleafs",
}


def tree_ensemble(n: Site):
    if n.attr("post_transform", 0) != 0:
        n.refuse(f"post_transform {n.attr('post_transform')} is not supported (0, none, only)")
    aggregate = n.attr("aggregate_function", 1)
    if aggregate not in (0, 1, 2, 3):
        n.refuse(f"aggregate_function {aggregate} is not one of 0 (average), 1 (sum), 2 (min), 3 (max)")  # fmt: skip
    if n.known_rank(0) != 2:
        n.refuse("its input must be a matrix [N, F]")
    arrays = {}
    for key, attribute in NODE_ARRAYS.items():
        if n.attr(attribute) is None:
            n.refuse(f"the attribute '{attribute}' is required")
        arrays[key] = np.asarray(n.attr(attribute)).reshape(-1)
    count = len(arrays["features"])
    missing = n.attr("nodes_missing_value_tracks_true")
    arrays["missing"] = np.zeros(count, np.int64) if missing is None else np.asarray(missing).reshape(-1)  # fmt: skip
    leaves = {k: np.asarray(n.attr(a, ())).reshape(-1) for k, a in (("leaf_targets", "leaf_targetids"), ("leaf_weights", "leaf_weights"))}  # fmt: skip
    roots = np.asarray(n.attr("tree_roots", ()), np.int64).reshape(-1)
    n_targets = n.attr("n_targets")
    membership = n.attr("membership_values")
    _check_trees(n, arrays, leaves, roots, n_targets, membership)
    ints = {k: v.astype(np.int64) for k, v in {**arrays, **leaves, "roots": roots}.items() if k not in ("splits", "leaf_weights")}  # fmt: skip
    held = {**arrays, **leaves, **ints}
    consts = {key: n.new_const(value, key) for key, value in held.items()}
    extra = Lit(None) if membership is None else n.new_const(np.asarray(membership).reshape(-1), "membership")  # fmt: skip
    return ML.tree_ensemble(n.x(0), n_targets, aggregate, membership=extra, **consts)


def _check_trees(n: Site, arrays: dict, leaves: dict, roots, n_targets, membership):
    count = len(arrays["features"])
    wrong = [n_ for n_, a in arrays.items() if len(a) != count]
    if wrong:
        n.refuse(f"the node attributes {wrong} do not all have the {count} entries of nodes_featureids")  # fmt: skip
    leaf_count = len(leaves["leaf_targets"])
    if len(leaves["leaf_weights"]) != leaf_count:
        n.refuse(f"leaf_weights has {len(leaves['leaf_weights'])} entries, leaf_targetids {leaf_count}")  # fmt: skip
    if not isinstance(n_targets, int) or not 1 <= n_targets <= FOLD_LIMIT:
        n.refuse(f"n_targets must be from 1 to {FOLD_LIMIT}, not {n_targets}")
    if leaf_count and not ((leaves["leaf_targets"] >= 0) & (leaves["leaf_targets"] < n_targets)).all():  # fmt: skip
        n.refuse(f"a leaf_targetids entry is outside 0 to n_targets - 1 ({n_targets - 1})")
    if len(roots) == 0 or (roots < 0).any() or (roots >= count).any():
        n.refuse(f"tree_roots must name nodes 0 to {count - 1}")
    modes = arrays["modes"]
    if ((modes < 0) | (modes > 6)).any():
        n.refuse("a nodes_modes entry is not one of 0 to 6")
    dim = n.shape(0)[1]
    features = dim if isinstance(dim, int) else None
    if (arrays["features"] < 0).any() or (features is not None and (arrays["features"] >= features).any()):  # fmt: skip
        n.refuse(f"a nodes_featureids entry is outside the input's {features} features")
    for side in ("true", "false"):
        ids, leaf = arrays[f"{side}_ids"], arrays[f"{side}_leafs"] != 0
        if (ids < 0).any() or (ids[leaf] >= leaf_count).any() or (ids[~leaf] >= count).any():
            n.refuse(f"a nodes_{side}nodeids entry names no node or leaf")
    groups = 1 + int(np.isnan(np.asarray(membership, np.float64)).sum()) if membership is not None else 0  # fmt: skip
    if int((modes == 6).sum()) > groups:
        n.refuse("membership_values holds fewer sets than there are membership nodes (mode 6)")
    _check_acyclic(n, arrays, roots)


def _check_acyclic(n: Site, arrays: dict, roots):
    """Every walk from a root ends: no node is reached again below itself (linear: each node
    is finished once)."""
    true_ids, false_ids = arrays["true_ids"].tolist(), arrays["false_ids"].tolist()
    true_leafs, false_leafs = arrays["true_leafs"].tolist(), arrays["false_leafs"].tolist()
    state = [0] * len(true_ids)  # 0 unseen, 1 on the path, 2 finished
    for root in roots.tolist():
        stack = [(root, 0)]
        while stack:
            node, side = stack.pop()
            if side == 0:
                if state[node] == 2:
                    continue
                state[node] = 1
            if side == 2:
                state[node] = 2
                continue
            stack.append((node, side + 1))
            child = (true_ids if side == 0 else false_ids)[node]
            if (true_leafs if side == 0 else false_leafs)[node]:
                continue
            if state[child] == 1:
                n.refuse(f"its trees have a cycle through node {child}: a walk would not end")
            if state[child] == 0:
                stack.append((child, 0))


# -- TfIdfVectorizer -----------------------------------------------------------------------

MODES = ("TF", "IDF", "TFIDF")


def tfidf_vectorizer(n: Site):
    mode = n.attr("mode")
    if mode not in MODES:
        n.refuse(f"mode {mode!r} is not one of {', '.join(MODES)}")
    rank = n.rank(0)
    if rank is not None and rank not in (1, 2):
        n.refuse(f"its input must be [C] or [N, C], not of rank {rank}")
    ints_pool, strings_pool = n.attr("pool_int64s"), n.attr("pool_strings")
    if (ints_pool is None) == (strings_pool is None):
        n.refuse("exactly one of pool_int64s and pool_strings must be given")
    pool = list(ints_pool if ints_pool is not None else strings_pool)
    if (strings_pool is not None) != (n.dtype(0) == STRING):
        n.refuse(f"its pool's items and its {n.dtype(0)} input do not match")
    sizes, indexes = list(n.attr("ngram_counts", ())), list(n.attr("ngram_indexes", ()))
    weights = [float(w) for w in n.attr("weights", ())]
    least, most, skip = (n.attr(k) for k in ("min_gram_length", "max_gram_length", "max_skip_count"))  # fmt: skip
    if not (isinstance(least, int) and isinstance(most, int) and 1 <= least <= most):
        n.refuse(f"min_gram_length ({least}) and max_gram_length ({most}) must be 1 <= min <= max")
    if not isinstance(skip, int) or skip < 0:
        n.refuse(f"max_skip_count must be 0 or more, not {skip}")
    ends = sizes[1:] + [len(pool)]
    grams = 0
    for length, (start, end) in enumerate(zip(sizes, ends), 1):
        if not 0 <= start <= end <= len(pool) or (end - start) % length:
            n.refuse(f"ngram_counts {sizes} does not split the pool of {len(pool)} items into n-grams of 1, 2, ... items")  # fmt: skip
        grams += (end - start) // length
    if len(indexes) != grams or any(i < 0 for i in indexes):
        n.refuse(f"ngram_indexes must give each of the pool's {grams} n-grams a column (0 or more)")
    if indexes and max(indexes) >= FOLD_LIMIT:
        n.refuse(f"its output of {max(indexes) + 1} columns is over {FOLD_LIMIT}")
    if not indexes:
        n.refuse("the pool holds no n-gram")
    if weights and len(weights) != len(indexes):
        n.refuse(f"weights has {len(weights)} entries; it needs one per n-gram of the pool ({len(indexes)})")  # fmt: skip
    return ML.tfidf(n.x(0), lift(pool), lift(sizes), lift(indexes), lift(weights), (least, most), skip, mode, n.device())  # fmt: skip
