"""burnpy.onnx's LabelEncoder and TreeEnsemble (ai.onnx.ml) and TfIdfVectorizer against
onnxruntime and onnx's reference evaluator, their numeric outputs on both backends; attributes
that would make the work unbounded (a tree with a cycle, an output of 10^12 columns) or read
out of range are refused at import, naming the node."""

import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
S, F, D, I64, I32 = TensorProto.STRING, TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT64, TensorProto.INT32  # fmt: skip


def model(node, inputs, outputs, ml=None, opset=20):
    graph = helper.make_graph([node], "ml", inputs, outputs)
    opsets = [helper.make_opsetid("", opset)]
    if ml is not None:
        opsets.append(helper.make_opsetid("ai.onnx.ml", ml))
    return helper.make_model(graph, opset_imports=opsets)


def run_ort(proto, feeds: dict) -> list:
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def ours(proto, device, *inputs):
    out = importer.load(proto, device=device)(*inputs)
    if isinstance(out, Tensor):
        assert out.device() == device
        return out.to_numpy()
    return out


def same(got, expected):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape
    if expected.dtype == object:
        assert got.tolist() == expected.tolist()
    else:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))


@pytest.mark.parametrize("device", DEVICES)
def test_label_encoder_against_onnxruntime_and_the_reference(device):
    x = np.array(["a", "中", "zz", "", "b"], dtype=object)
    cases = [
        (S, I64, x, {"keys_strings": ["a", "b", "中"], "values_int64s": [3, -4, 5], "default_int64": 7}),  # fmt: skip
        (I64, S, np.array([2, -1, 9, 2], np.int64), {"keys_int64s": [2, 9], "values_strings": ["two", "nine"], "default_string": "?"}),  # fmt: skip
        (F, F, np.array([0.5, np.nan, 1.25, -3.0], np.float32), {"keys_floats": [0.5, float("nan"), -3.0], "values_floats": [10.0, 20.0, 30.0]}),  # fmt: skip
        (S, TensorProto.INT16, x, {
            "keys_tensor": numpy_helper.from_array(np.array(["a", "b"], dtype=object)),
            "values_tensor": numpy_helper.from_array(np.array([1, 2], np.int16)),
            "default_tensor": numpy_helper.from_array(np.array([42], np.int16)),
        }),
    ]  # fmt: skip
    for source, target, data, attrs in cases:
        proto = model(
            helper.make_node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", **attrs),
            [helper.make_tensor_value_info("x", source, [len(data)])],
            [helper.make_tensor_value_info("y", target, [len(data)])],
            ml=4,
        )
        got = ours(proto, DEVICES[device](), data)
        # a NaN key matches a NaN input, as ONNX's description says (neither onnxruntime
        # nor the reference finds it: they are compared elsewhere)
        known = ~np.isnan(data) if source == F else slice(None)
        same(np.asarray(got)[known], ReferenceEvaluator(proto).run(None, {"x": data})[0][known])
        same(np.asarray(got)[known], run_ort(proto, {"x": data})[0][known])
        if source == F:
            assert got[1] == 20.0


def test_label_encoder_opset_1_maps_classes_both_ways():
    classes = ["x", "y", "z"]
    for source, target, data in ((S, I64, np.array(["y", "q", "z"], dtype=object)), (I64, S, np.array([2, 0, 5], np.int64))):  # fmt: skip
        proto = model(
            helper.make_node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", classes_strings=classes),  # fmt: skip
            [helper.make_tensor_value_info("x", source, [3])],
            [helper.make_tensor_value_info("y", target, [3])],
            ml=1,
            opset=9,
        )
        same(ours(proto, Device.numpy(), data), run_ort(proto, {"x": data})[0])


def random_trees(rng, trees: int, depth: int, features: int, targets: int, member: bool):
    """A full binary tree per root, every mode but membership (or membership too)."""
    attrs = {k: [] for k in ("nodes_featureids", "nodes_modes", "nodes_splits", "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs", "nodes_missing_value_tracks_true", "leaf_targetids", "leaf_weights", "tree_roots")}  # fmt: skip
    membership = []

    def grow(level):
        index = len(attrs["nodes_featureids"])
        mode = int(rng.integers(0, 7 if member else 6))
        attrs["nodes_featureids"].append(int(rng.integers(features)))
        attrs["nodes_modes"].append(mode)
        attrs["nodes_splits"].append(float(rng.choice([-0.5, 0.0, 0.5, 1.0])))
        attrs["nodes_missing_value_tracks_true"].append(int(rng.integers(2)))
        if mode == 6:
            # (no 0.0: the reference ends a set at a member of 0.0; onnxruntime takes ints)
            membership.extend([*rng.choice([-1.0, 1.0, 2.0], 2).tolist(), float("nan")])
        for key in ("nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs"):  # fmt: skip
            attrs[key].append(0)
        for side in ("true", "false"):
            if level == depth or rng.random() < 0.2:
                attrs[f"nodes_{side}leafs"][index] = 1
                attrs[f"nodes_{side}nodeids"][index] = len(attrs["leaf_weights"])
                attrs["leaf_targetids"].append(int(rng.integers(targets)))
                attrs["leaf_weights"].append(float(rng.integers(-8, 9)) / 4)
            else:
                attrs[f"nodes_{side}nodeids"][index] = grow(level + 1)
        return index

    for _ in range(trees):
        attrs["tree_roots"].append(grow(1))
    modes = attrs.pop("nodes_modes")
    splits = attrs.pop("nodes_splits")
    weights = attrs.pop("leaf_weights")
    attrs["nodes_modes"] = numpy_helper.from_array(np.array(modes, np.uint8))
    attrs["nodes_splits"] = numpy_helper.from_array(np.array(splits, np.float32))
    attrs["leaf_weights"] = numpy_helper.from_array(np.array(weights, np.float32))
    if membership:
        attrs["membership_values"] = numpy_helper.from_array(np.array(membership, np.float32))
    return attrs


@pytest.mark.parametrize("aggregate", [0, 1, 2, 3])
@pytest.mark.parametrize("device", DEVICES)
def test_tree_ensemble_against_onnxruntime_and_the_reference(aggregate, device):
    rng = np.random.default_rng(aggregate)
    attrs = random_trees(rng, trees=4, depth=4, features=3, targets=3, member=False)
    proto = model(
        helper.make_node("TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", n_targets=3, aggregate_function=aggregate, **attrs),  # fmt: skip
        [helper.make_tensor_value_info("x", F, [None, 3])],
        [helper.make_tensor_value_info("y", F, [None, 3])],
        ml=5,
    )
    x = rng.choice([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, np.nan], (40, 3)).astype(np.float32)
    got = ours(proto, DEVICES[device](), x)
    expected = ReferenceEvaluator(proto).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    # a target no leaf reaches: the float's extreme for MIN and MAX, as the reference gives it
    # (onnxruntime gives 0)
    reached = np.abs(got) < np.finfo(np.float32).max
    from_ort = run_ort(proto, {"x": x})[0]
    np.testing.assert_allclose(got[reached], from_ort[reached], rtol=1e-6)
    assert (from_ort[~reached] == 0).all()


def test_tree_ensemble_membership_in_float64():
    rng = np.random.default_rng(7)
    attrs = random_trees(rng, trees=3, depth=3, features=2, targets=2, member=True)
    attrs["nodes_splits"] = numpy_helper.from_array(numpy_helper.to_array(attrs["nodes_splits"]).astype(np.float64))  # fmt: skip
    attrs["leaf_weights"] = numpy_helper.from_array(numpy_helper.to_array(attrs["leaf_weights"]).astype(np.float64))  # fmt: skip
    attrs["membership_values"] = numpy_helper.from_array(numpy_helper.to_array(attrs["membership_values"]).astype(np.float64))  # fmt: skip
    proto = model(
        helper.make_node("TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", n_targets=2, **attrs),
        [helper.make_tensor_value_info("x", D, [30, 2])],
        [helper.make_tensor_value_info("y", D, [30, 2])],
        ml=5,
    )
    x = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0, np.nan], (30, 2))
    got = ours(proto, Device.numpy(), x)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ReferenceEvaluator(proto).run(None, {"x": x})[0])
    np.testing.assert_allclose(got, run_ort(proto, {"x": x})[0])


def test_a_tree_with_a_cycle_or_an_index_out_of_range_is_refused():
    base = {
        "nodes_featureids": [0, 0], "nodes_modes": numpy_helper.from_array(np.array([0, 0], np.uint8)),
        "nodes_splits": numpy_helper.from_array(np.array([0.0, 1.0], np.float32)),
        "nodes_truenodeids": [1, 0], "nodes_falsenodeids": [0, 1], "nodes_trueleafs": [0, 0],
        "nodes_falseleafs": [1, 1], "leaf_targetids": [0, 0],
        "leaf_weights": numpy_helper.from_array(np.array([1.0, 2.0], np.float32)), "tree_roots": [0],
    }  # fmt: skip
    for change, message in [
        ({"nodes_truenodeids": [1, 0]}, "a cycle through node 0"),
        ({"nodes_truenodeids": [1, 5], "nodes_trueleafs": [0, 1]}, "nodes_truenodeids entry names no node or leaf"),  # fmt: skip
        ({"nodes_truenodeids": [1, 1], "nodes_trueleafs": [0, 1], "nodes_featureids": [0, 3]}, "outside the input's 2 features"),  # fmt: skip
        ({"nodes_truenodeids": [1, 1], "nodes_trueleafs": [0, 1], "leaf_targetids": [0, 4]}, "leaf_targetids entry is outside"),  # fmt: skip
        ({"nodes_truenodeids": [1, 1], "nodes_trueleafs": [0, 1], "n_targets": 10**12}, "n_targets must be from 1"),  # fmt: skip
    ]:
        attrs = {"n_targets": 1, **base, **change}
        proto = model(
            helper.make_node("TreeEnsemble", ["x"], ["y"], domain="ai.onnx.ml", name="trees", **attrs),  # fmt: skip
            [helper.make_tensor_value_info("x", F, [None, 2])],
            [helper.make_tensor_value_info("y", F, [None, None])],
            ml=5,
        )
        with pytest.raises(importer.UnsupportedError, match=f"TreeEnsemble node 'trees'.*{message}"):  # fmt: skip
            importer.load(proto)


TFIDF_CASES = [
    ("TF", 1, 2, 3, None, False),
    ("IDF", 2, 3, 1, [0.5, 2.0, 1.5, 3.0, 0.25, 1.0, 2.5, 0.75, 4.0], False),
    ("TFIDF", 1, 3, 2, [0.5, 2.0, 1.5, 3.0, 0.25, 1.0, 2.5, 0.75, 4.0], True),
    ("IDF", 1, 1, 0, None, True),
]


@pytest.mark.parametrize("mode, least, most, skip, weights, two_d", TFIDF_CASES)
@pytest.mark.parametrize("device", DEVICES)
def test_tfidf_of_ints_against_onnxruntime_and_the_reference(mode, least, most, skip, weights, two_d, device):  # fmt: skip
    rng = np.random.default_rng(least * 10 + most)
    pool = [1, 2, 3, 4, 1, 2, 2, 3, 4, 1, 1, 2, 3, 2, 3, 4]  # 4 unigrams, 3 bigrams, 2 trigrams
    attrs = dict(mode=mode, min_gram_length=least, max_gram_length=most, max_skip_count=skip, ngram_counts=[0, 4, 10], ngram_indexes=[7, 0, 1, 2, 3, 4, 5, 6, 8], pool_int64s=pool)  # fmt: skip
    if weights:
        attrs["weights"] = weights
    shape = [3, 12] if two_d else [20]
    proto = model(
        helper.make_node("TfIdfVectorizer", ["x"], ["y"], **attrs),
        [helper.make_tensor_value_info("x", I32, shape)],
        [helper.make_tensor_value_info("y", F, None)],
        opset=9,
    )
    x = rng.integers(0, 6, shape).astype(np.int32)
    got = ours(proto, DEVICES[device](), x)
    if mode == "TF":  # (the reference's IDF and TFIDF need weights, and take them by column)
        np.testing.assert_allclose(got, ReferenceEvaluator(proto).run(None, {"x": x})[0])
    np.testing.assert_allclose(got, run_ort(proto, {"x": x})[0])


@pytest.mark.parametrize("two_d", [False, True])
@pytest.mark.parametrize("device", DEVICES)
def test_an_exported_tfidf_counts_the_input_it_is_given(two_d, device):
    """The export computes the counts from its input, not from the example it was made with."""
    pool = [1, 2, 3, 4, 1, 2, 2, 3, 4, 1, 1, 2, 3, 2, 3, 4]  # 4 unigrams, 3 bigrams, 2 trigrams
    attrs = dict(mode="TF", min_gram_length=1, max_gram_length=3, max_skip_count=2, ngram_counts=[0, 4, 10], ngram_indexes=[7, 0, 1, 2, 3, 4, 5, 6, 8], pool_int64s=pool)  # fmt: skip
    shape = [3, 12] if two_d else [20]
    proto = model(
        helper.make_node("TfIdfVectorizer", ["x"], ["y"], **attrs),
        [helper.make_tensor_value_info("x", I64, shape)],
        [helper.make_tensor_value_info("y", F, None)],
        opset=9,
    )
    rng = np.random.default_rng(3)
    example, other = (rng.integers(0, 6, shape).astype(np.int64) for _ in range(2))
    imported = importer.load(proto, device=DEVICES[device]())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no input fixed to the example's values
        exported = importer.export(imported, (example,), input_names=["x"])
    want = ReferenceEvaluator(proto).run(None, {"x": other})[0]
    assert not np.array_equal(want, ReferenceEvaluator(proto).run(None, {"x": example})[0])
    np.testing.assert_array_equal(run_ort(exported, {"x": other})[0], want)


def test_tfidf_of_strings_against_onnxruntime():
    attrs = dict(mode="TF", min_gram_length=1, max_gram_length=2, max_skip_count=1, ngram_counts=[0, 3], ngram_indexes=[0, 1, 2, 3, 4], pool_strings=["a", "中", "c", "a", "中", "c", "a"])  # fmt: skip
    proto = model(
        helper.make_node("TfIdfVectorizer", ["x"], ["y"], **attrs),
        [helper.make_tensor_value_info("x", S, [2, 5])],
        [helper.make_tensor_value_info("y", F, [2, 5])],
        opset=9,
    )
    x = np.array([["a", "中", "x", "c", "a"], ["c", "b", "a", "a", "中"]], dtype=object)
    np.testing.assert_array_equal(ours(proto, Device.numpy(), x), run_ort(proto, {"x": x})[0])


def test_tfidf_attributes_out_of_range_are_refused():
    base = dict(mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0, ngram_counts=[0], ngram_indexes=[0, 1], pool_int64s=[5, 6])  # fmt: skip
    for change, message in [
        ({"ngram_indexes": [0, 10**12]}, "columns is over"),
        ({"ngram_indexes": [0]}, "ngram_indexes must give each"),
        ({"ngram_counts": [0, 3]}, "does not split the pool"),
        ({"mode": "BM25"}, "mode 'BM25' is not one of"),
    ]:
        proto = model(
            helper.make_node("TfIdfVectorizer", ["x"], ["y"], name="tfidf", **{**base, **change}),
            [helper.make_tensor_value_info("x", I64, [4])],
            [helper.make_tensor_value_info("y", F, None)],
            opset=9,
        )
        with pytest.raises(importer.UnsupportedError, match=f"TfIdfVectorizer node 'tfidf'.*{message}"):  # fmt: skip
            importer.load(proto)


def test_a_models_keys_and_pools_are_literals_never_code(tmp_path):
    marker = tmp_path / "pwned"
    payload = f'"]); open({str(marker)!r}, "w"); (["\n# \\'
    nodes = [
        helper.make_node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", keys_strings=[payload, "b"], values_strings=["b", payload], default_string=payload),  # fmt: skip
        helper.make_node("TfIdfVectorizer", ["x"], ["z"], mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0, ngram_counts=[0], ngram_indexes=[0, 1], pool_strings=[payload, "b"]),  # fmt: skip
    ]
    graph = helper.make_graph(
        nodes,
        "literals",
        [helper.make_tensor_value_info("x", S, [3])],
        [helper.make_tensor_value_info("y", S, [3]), helper.make_tensor_value_info("z", F, [2])],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20), helper.make_opsetid("ai.onnx.ml", 4)])  # fmt: skip
    path = importer.generate(proto, tmp_path, name="m")
    x = np.array([payload, "b", "c"], dtype=object)
    got = importer.load(proto)(x)
    expected = run_ort(proto, {"x": x})
    same(got[0], expected[0])
    np.testing.assert_array_equal(got[1].to_numpy(), expected[1])
    assert not marker.exists() and path.read_text().isascii()
