"""burnpy.onnx's string values (NumPy arrays of str) and string operators against onnxruntime
and onnx's reference evaluator: StringConcat, StringSplit, StringNormalizer, RegexFullMatch,
Equal on strings, a string constant; their numeric outputs on both backends. A model's
strings reach the generated code only as literals; RegexFullMatch runs on RE2 (a pattern that
backtracks in Python's `re` stays linear); ONNX's float8e8m0 casts against onnx's rounding."""

import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
S, F, I64, B = TensorProto.STRING, TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def model(nodes, inputs, outputs, initializers=(), opset=20):
    graph = helper.make_graph(nodes, "strings", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def run_ort(proto, feeds: dict) -> list:
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def ours(proto, device, *inputs) -> list:
    out = importer.load(proto, device=device)(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    return [o.to_numpy() if isinstance(o, Tensor) else o for o in outs]


def strings(*items, shape=None) -> np.ndarray:
    array = np.array(items, dtype=object)
    return array if shape is None else array.reshape(shape)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape
    if b.dtype == object:
        assert a.dtype == object and a.tolist() == b.tolist()
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("device", DEVICES)
def test_concat_equal_and_a_constant_against_onnxruntime(device):
    suffix = numpy_helper.from_array(strings("-的", "\n\"'", shape=[1, 2]), "suffix")
    proto = model(
        [
            helper.make_node("StringConcat", ["x", "suffix"], ["joined"]),
            helper.make_node("Equal", ["joined", "y"], ["same"]),
        ],
        [helper.make_tensor_value_info("x", S, [3, 2]), helper.make_tensor_value_info("y", S, [3, 2])],  # fmt: skip
        [helper.make_tensor_value_info("joined", S, [3, 2]), helper.make_tensor_value_info("same", B, [3, 2])],  # fmt: skip
        [suffix],
    )
    x = strings("a", "", "中", "b c", "é", "x", shape=[3, 2])
    y = strings("a-的", "\n\"'", "中", "b c\n\"'", "é-的", "x", shape=[3, 2])
    expected = run_ort(proto, {"x": x, "y": y})
    got = ours(proto, DEVICES[device](), x, y)
    same(got[0], expected[0])
    same(got[1], expected[1])
    assert got[1].tolist() == [[True, True], [False, True], [True, False]]


@pytest.mark.parametrize(
    "attrs",
    [{}, {"delimiter": ","}, {"delimiter": ",", "maxsplit": 1}, {"maxsplit": 2}, {"delimiter": "ab"}],  # fmt: skip
)
@pytest.mark.parametrize("device", DEVICES)
def test_split_against_the_reference_and_onnxruntime(attrs, device):
    proto = model(
        [helper.make_node("StringSplit", ["x"], ["pieces", "count"], **attrs)],
        [helper.make_tensor_value_info("x", S, [2, 3])],
        [helper.make_tensor_value_info("pieces", S, None), helper.make_tensor_value_info("count", I64, [2, 3])],  # fmt: skip
    )
    x = strings("a,b,,c", "  one two  three", "q", "xabyabz", "中,文 字", ",", shape=[2, 3])
    got = ours(proto, DEVICES[device](), x)
    for expected in (run_ort(proto, {"x": x}), ReferenceEvaluator(proto).run(None, {"x": x})):
        same(got[0], expected[0])
        same(got[1], expected[1])


def test_split_where_onnxruntime_and_the_reference_differ():
    """An empty string split at a delimiter is one empty piece (the reference's Python split;
    onnxruntime counts none); whitespace after the last of `maxsplit` splits is removed, as
    ONNX's description says and onnxruntime does (the reference keeps it)."""
    x = strings("", "a b  c  ")
    for attrs, pieces, counts in [
        ({"delimiter": ","}, [[""], ["a b  c  "]], [1, 1]),
        ({"maxsplit": 1}, [["", ""], ["a", "b  c"]], [0, 2]),
    ]:
        proto = model(
            [helper.make_node("StringSplit", ["x"], ["pieces", "count"], **attrs)],
            [helper.make_tensor_value_info("x", S, [2])],
            [helper.make_tensor_value_info("pieces", S, None), helper.make_tensor_value_info("count", I64, [2])],  # fmt: skip
        )
        got = ours(proto, Device.numpy(), x)
        assert got[0].tolist() == pieces and got[1].tolist() == counts


@pytest.mark.parametrize(
    "attrs, x",
    [
        ({"stopwords": ["Monday", "x"], "case_change_action": "LOWER"}, strings("monday", "Tuesday", "MONDAY", "y")),  # fmt: skip
        ({"stopwords": ["Monday"], "is_case_sensitive": 1, "case_change_action": "LOWER"}, strings("monday", "Tuesday", "Monday")),  # fmt: skip
        ({"case_change_action": "UPPER"}, strings("straße", "abc", shape=[1, 2])),
        ({"stopwords": ["a"], "case_change_action": "UPPER"}, strings("a", "A", shape=[1, 2])),
    ],
)
def test_normalizer_against_the_reference(attrs, x):
    """(onnxruntime's StringNormalizer needs the en_US.UTF-8 locale installed.)"""
    proto = model(
        [helper.make_node("StringNormalizer", ["x"], ["y"], **attrs)],
        [helper.make_tensor_value_info("x", S, list(x.shape))],
        [helper.make_tensor_value_info("y", S, None)],
        opset=10,
    )
    same(ours(proto, Device.numpy(), x)[0], ReferenceEvaluator(proto).run(None, {"x": x})[0])


@pytest.mark.parametrize(
    "pattern",
    [r"www\.[\w.-]+\.\bcom\b", r"(\W|^)[\w.\-]{0,25}@(yahoo|gmail)\.com(\W|$)", r"[0-9]{2,3}", "", "中.*"],  # fmt: skip
)
@pytest.mark.parametrize("device", DEVICES)
def test_regex_full_match_against_onnxruntime_and_the_reference(pattern, device):
    pytest.importorskip("re2")
    proto = model(
        [helper.make_node("RegexFullMatch", ["x"], ["y"], pattern=pattern)],
        [helper.make_tensor_value_info("x", S, [6])],
        [helper.make_tensor_value_info("y", B, [6])],
    )
    x = strings("www.google.com", "a@gmail.com", "123", "", "中文", "www.bbc.co.uk")
    got = ours(proto, DEVICES[device](), x)[0]
    same(got, run_ort(proto, {"x": x})[0])
    same(got, ReferenceEvaluator(proto).run(None, {"x": x})[0])


def test_regex_is_linear_where_pythons_backtracking_is_not():
    """`(a+)+$` against 'a' * 40 + 'b' takes Python's `re` about 2^40 steps; RE2 answers at
    once, as onnxruntime (RE2 too) does."""
    pytest.importorskip("re2")
    proto = model(
        [helper.make_node("RegexFullMatch", ["x"], ["y"], pattern="(a+)+$")],
        [helper.make_tensor_value_info("x", S, [2])],
        [helper.make_tensor_value_info("y", B, [2])],
    )
    x = strings("a" * 40 + "b", "a" * 40)
    got = ours(proto, Device.numpy(), x)[0]
    same(got, run_ort(proto, {"x": x})[0])
    assert got.tolist() == [False, True]


def test_a_pattern_re2_does_not_take_is_refused_naming_it():
    pytest.importorskip("re2")
    proto = model(
        [helper.make_node("RegexFullMatch", ["x"], ["y"], pattern=r"(a)\1", name="backref")],
        [helper.make_tensor_value_info("x", S, [1])],
        [helper.make_tensor_value_info("y", B, [1])],
    )
    with pytest.raises(importer.UnsupportedError, match=r"backref.*RE2 does not take the pattern"):  # fmt: skip
        importer.load(proto)


def test_a_models_strings_are_literals_never_code(tmp_path):
    marker = tmp_path / "pwned"
    payload = f'"); open({str(marker)!r}, "w"); ("\n# x = """\\'
    init = numpy_helper.from_array(strings(payload, "b"), "c")
    proto = model(
        [
            helper.make_node("StringConcat", ["x", "c"], ["y"]),
            helper.make_node("StringSplit", ["y"], ["parts", "n"], delimiter=payload),
            helper.make_node("StringNormalizer", ["x"], ["z"], stopwords=[payload]),
        ],
        [helper.make_tensor_value_info("x", S, [2])],
        [
            helper.make_tensor_value_info("y", S, [2]),
            helper.make_tensor_value_info("parts", S, None),
            helper.make_tensor_value_info("z", S, None),
        ],
        [init],
    )
    x = strings(payload, "a")
    path = importer.generate(proto, tmp_path, name="m")
    got = ours(proto, Device.numpy(), x)
    expected = ReferenceEvaluator(proto).run(None, {"x": x})
    for g, e in zip(got, expected[:2]):
        same(g, e)
    same(got[2], strings("a"))
    assert not marker.exists()
    assert path.read_text().isascii()


def test_a_string_into_another_op_is_refused_naming_it():
    proto = model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="r")],
        [helper.make_tensor_value_info("x", S, [2])],
        [helper.make_tensor_value_info("y", S, [2, 1])],
        [numpy_helper.from_array(np.array([2, 1], np.int64), "shape")],
    )
    with pytest.raises(importer.UnsupportedError, match=r"Reshape node 'r'.*is a string: only the string operators"):  # fmt: skip
        importer.load(proto)


def test_a_sequence_of_strings_is_refused_naming_it():
    seq = helper.make_tensor_sequence_value_info("names", S, None)
    graph = helper.make_graph([helper.make_node("Identity", ["names"], ["out"])], "g", [seq], [helper.make_tensor_sequence_value_info("out", S, None)])  # fmt: skip
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    with pytest.raises(importer.UnsupportedError, match="graph input 'names': a sequence or optional of strings"):  # fmt: skip
        importer.load(proto)


def test_a_string_input_of_the_wrong_shape_or_type_is_refused():
    proto = model(
        [helper.make_node("StringConcat", ["x", "x"], ["y"])],
        [helper.make_tensor_value_info("x", S, [2])],
        [helper.make_tensor_value_info("y", S, [2])],
    )
    loaded = importer.load(proto)
    same(loaded(np.array(["a", "b"])), strings("aa", "bb"))  # numpy's str_ arrays and bytes
    same(loaded([b"\xc3\xa9", "c"]), strings("éé", "cc"))
    with pytest.raises(ValueError, match="input 'x' has shape \\[3\\]"):
        loaded(strings("a", "b", "c"))
    with pytest.raises(TypeError, match="input 'x' is a string input"):
        loaded(np.array([1, 2]))


@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
@pytest.mark.parametrize("saturate", [0, 1])
@pytest.mark.parametrize("device", DEVICES)
def test_cast_to_float8e8m0_rounds_as_onnx(round_mode, saturate, device):
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64),
            [0.0, -0.0, 1.0, 1.5, 3.0, 0.75, np.inf, -np.inf, np.nan, 3e38, 1e-40, 2.0**127 * 1.5],  # fmt: skip
        ]
    ).astype(np.float32)
    proto = model(
        [
            helper.make_node("Cast", ["x"], ["e"], to=TensorProto.FLOAT8E8M0, round_mode=round_mode, saturate=saturate),  # fmt: skip
            helper.make_node("Cast", ["e"], ["y"], to=TensorProto.FLOAT),
        ],
        [helper.make_tensor_value_info("x", F, [x.size])],
        [helper.make_tensor_value_info("y", F, [x.size])],
        opset=25,
    )
    expected = ReferenceEvaluator(proto).run(None, {"x": x})[0]
    got = ours(proto, DEVICES[device](), x)[0]
    np.testing.assert_array_equal(got, expected)


def test_without_re2_regex_full_match_is_refused_saying_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "re2", None)  # as if google-re2 were not installed
    proto = model(
        [helper.make_node("RegexFullMatch", ["x"], ["y"], pattern="a+", name="match")],
        [helper.make_tensor_value_info("x", S, [1])],
        [helper.make_tensor_value_info("y", B, [1])],
    )
    with pytest.raises(importer.UnsupportedError, match=r"match.*pip install 'burnpy\[regex\]'"):
        importer.load(proto)
