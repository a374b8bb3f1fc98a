"""The catalogue's quantized ops: validation names a wrong entry, explain shows one."""

from burnpy.codegen.__main__ import main
from tests.test_codegen import ROOT

OPS = (ROOT / "ops.yaml").read_text()
BAD = {
    "an unknown float op": (
        "float: float_abs, routes: float_abs",
        "float: float_abz, routes: float_abs",
        "q_abs: 'float_abz' is not a float op; did you mean `float_abs`?",
    ),
    "arguments that do not mirror the float op's": (
        "args: [lhs: primitive, rhs: primitive]",
        "args: [lhs: primitive, other: primitive]",
        "q_matmul: the arguments do not mirror float_matmul's; write `args: [lhs: qfloat, rhs: qfloat]`",
    ),
    "a composite calling no q-op": (
        'composite: "q_swap_dims(tensor, -2, -1)"',
        'composite: "q_swap_dimz(tensor, -2, -1)"',
        "q_transpose: composite calls 'q_swap_dimz', not a q-op; did you mean `q_swap_dims`?",
    ),
    "a default without its float op": (
        "role: quant, float: float_expand,",
        "role: quant,",
        "q_expand: a `quant` q-op is made from a float op; add `float: <op>`",
    ),
}


def test_wrong_quantized_entries_are_named_with_their_lines_in_one_run(tmp_path, capsys):
    text = OPS
    for old, new, _ in BAD.values():
        assert old in text
        text = text.replace(old, new, 1)
    bad = tmp_path / "ops.yaml"
    bad.write_text(text)
    assert main(["validate", "--ops", str(bad)]) == 2
    err = capsys.readouterr().err
    for case, (_, _, message) in BAD.items():
        assert message in err, case
    assert "4 mistakes; nothing was written" in err


def test_explain_shows_a_quantized_ops_role_routing_and_function(capsys):
    assert main(["explain", "q_matmul", "--ops", str(ROOT / "ops.yaml")]) == 0
    text = capsys.readouterr().out
    assert "flow (burn's dequant_op_flow!): dequantize, float_matmul" in text
    assert "q_matmul(lhs: Tensor, rhs: Tensor) at generated/dispatch/quantized_ops.py:" in text
    assert "if lhs.kind is B.QFloat or rhs.kind is B.QFloat:" in text
    assert "reached by t.matmul(...)" in text
