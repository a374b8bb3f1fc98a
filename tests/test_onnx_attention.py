"""burnpy.onnx's fused sequence operators: LinearAttention, CausalConvWithState and
ai.onnx.preview's FlexAttention (its modifier subgraphs written in place): values against onnx's
reference evaluator on both backends, gradients against float64 finite differences."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device, Tensor  # noqa: E402
from burnpy.onnx import ops  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}
F, F16, F64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE
DTYPES = {F: np.float32, F16: np.float16, F64: np.float64}
OPSETS = [helper.make_opsetid("", 27)]
PREVIEW = OPSETS + [helper.make_opsetid("ai.onnx.preview", 1)]


def _model(node, inputs, outputs, opsets=OPSETS, initializers=()):
    graph = helper.make_graph([node], "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=opsets)


def _check(model, feeds, device, rtol=1e-5, atol=1e-6):
    expected = ReferenceEvaluator(model).run(None, feeds)
    loaded = importer.load(model, device=DEVICES[device]())
    got = loaded(*feeds.values())
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected):
        assert g.to_numpy().dtype == e.dtype
        np.testing.assert_allclose(
            g.to_numpy().astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol
        )


# -- LinearAttention -------------------------------------------------------------------------

# (update rule, q heads, kv heads, decay per key dim (else per head), beta per head (else one),
#  a past state, tokens, element type)
LINEAR = {
    "linear": ("linear", 2, 2, None, None, False, 3, F),
    "gated per key dim": ("gated", 2, 2, True, None, True, 3, F),
    "gated per head": ("gated", 2, 2, False, None, False, 3, F),
    "delta": ("delta", 2, 2, None, True, True, 3, F),
    "gated delta, grouped heads": ("gated_delta", 4, 2, True, True, True, 4, F),
    "gated delta, one kv head, one beta": ("gated_delta", 4, 1, False, False, False, 2, F),
    "gated delta float16": ("gated_delta", 2, 1, True, True, True, 3, F16),
}


def linear_case(rule, q_heads, kv_heads, per_key, per_head, past, tokens, elem, scale=None):
    dk, dv, b = 3, 2, 2
    rng = np.random.default_rng(0)
    dtype = DTYPES[elem]
    feeds = {
        "q": rng.standard_normal((b, tokens, q_heads * dk)),
        "k": rng.standard_normal((b, tokens, kv_heads * dk)) / np.sqrt(dk),
        "v": rng.standard_normal((b, tokens, kv_heads * dv)),
    }
    names = ["q", "k", "v", "", "", ""]
    if past:
        feeds["past"] = rng.standard_normal((b, kv_heads, dk, dv))
        names[3] = "past"
    if per_key is not None:
        width = kv_heads * dk if per_key else kv_heads
        feeds["decay"] = -np.abs(rng.standard_normal((b, tokens, width)))
        names[4] = "decay"
    if per_head is not None:
        feeds["beta"] = rng.uniform(0.2, 0.9, (b, tokens, kv_heads if per_head else 1))
        names[5] = "beta"
    feeds = {n: a.astype(dtype) for n, a in feeds.items()}
    while names[-1] == "":
        names.pop()
    options = {"scale": scale} if scale else {}
    node = helper.make_node(
        "LinearAttention", names, ["y", "state"], update_rule=rule,
        q_num_heads=q_heads, kv_num_heads=kv_heads, **options,
    )  # fmt: skip
    inputs = [helper.make_tensor_value_info(n, elem, a.shape) for n, a in feeds.items()]
    outputs = [helper.make_tensor_value_info(n, elem, None) for n in ("y", "state")]
    return _model(node, inputs, outputs), feeds


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", LINEAR)
def test_linear_attention_runs_as_onnx_reference_does(case, device):
    model, feeds = linear_case(*LINEAR[case])
    tolerance = {"rtol": 2e-3, "atol": 2e-3} if LINEAR[case][-1] == F16 else {}
    _check(model, feeds, device, **tolerance)


def test_linear_attention_takes_an_explicit_scale():
    model, feeds = linear_case("gated_delta", 2, 2, True, True, False, 3, F, scale=0.3)
    _check(model, feeds, "numpy")


def test_linear_attention_refuses_a_rule_without_its_inputs():
    model, _ = linear_case("linear", 2, 2, True, None, False, 3, F)  # a decay it forbids
    with pytest.raises(importer.UnsupportedError, match="update_rule 'linear' forbids decay"):
        importer.load(model)


def _finite_differences(f, arrays, eps=1e-6):
    grads = []
    for x in arrays:
        grad = np.zeros_like(x)
        for k in range(x.size):
            saved = x.flat[k]
            x.flat[k] = saved + eps
            up = f()
            x.flat[k] = saved - eps
            down = f()
            x.flat[k] = saved
            grad.flat[k] = (up - down) / (2 * eps)
        grads.append(grad)
    return grads


@pytest.mark.parametrize("device", DEVICES)
def test_linear_attention_gradients_match_finite_differences(device):
    """d (sum(y * wy) + sum(state * ws)) / d every input through the gated delta rule with
    grouped heads, in float64, against central differences of the forward pass."""
    rng = np.random.default_rng(1)
    b, t, hq, hkv, dk, dv = 1, 3, 2, 1, 2, 2
    arrays = [
        rng.standard_normal((b, t, hq * dk)),
        rng.standard_normal((b, t, hkv * dk)) / 2,
        rng.standard_normal((b, t, hkv * dv)),
        rng.standard_normal((b, hkv, dk, dv)),
        -np.abs(rng.standard_normal((b, t, hkv * dk))),
        rng.uniform(0.2, 0.9, (b, t, hkv)),
    ]
    wy, ws = rng.standard_normal((b, t, hq * dv)), rng.standard_normal((b, hkv, dk, dv))
    options = {"q_heads": hq, "kv_heads": hkv}

    def total(tensors):
        y, state = ops.linear_attention(*tensors, **options)
        return (y * Tensor.from_data(wy, device=y.device())).sum() + (
            state * Tensor.from_data(ws, device=y.device())
        ).sum()

    plain = DEVICES[device]()
    expected = _finite_differences(
        lambda: total([Tensor.from_data(a, device=plain) for a in arrays]).to_numpy().sum(),
        arrays,
    )
    autodiff = plain.autodiff()
    tensors = [Tensor.from_data(a, device=autodiff).require_grad() for a in arrays]
    grads = total(tensors).backward()
    for tensor, want in zip(tensors, expected):
        np.testing.assert_allclose(tensor.grad(grads).to_numpy(), want, rtol=1e-6, atol=1e-8)


# -- CausalConvWithState -----------------------------------------------------------------------

CONV = {
    "plain": (4, False, False, "none", F),
    "bias, past state, silu": (3, True, True, "silu", F),
    "swish, past state": (2, False, True, "swish", F),
    "kernel of one": (1, True, False, "none", F),
    "float16, silu": (4, True, True, "silu", F16),
}


def conv_case(k, bias, past, activation, elem, length=5):
    b, c = 2, 3
    rng = np.random.default_rng(2)
    dtype = DTYPES[elem]
    feeds = {"x": rng.standard_normal((b, c, length)), "w": rng.standard_normal((c, 1, k))}
    names = ["x", "w", "", ""]
    if bias:
        feeds["bias"], names[2] = rng.standard_normal(c), "bias"
    if past:
        feeds["past"], names[3] = rng.standard_normal((b, c, k - 1)), "past"
    feeds = {n: a.astype(dtype) for n, a in feeds.items()}
    while names[-1] == "":
        names.pop()
    node = helper.make_node("CausalConvWithState", names, ["y", "state"], activation=activation)
    inputs = [helper.make_tensor_value_info(n, elem, a.shape) for n, a in feeds.items()]
    outputs = [helper.make_tensor_value_info(n, elem, None) for n in ("y", "state")]
    return _model(node, inputs, outputs), feeds


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", CONV)
def test_causal_conv_with_state_runs_as_onnx_reference_does(case, device):
    model, feeds = conv_case(*CONV[case])
    tolerance = {"rtol": 2e-3, "atol": 2e-3} if CONV[case][-1] == F16 else {}
    _check(model, feeds, device, **tolerance)


def test_causal_conv_with_state_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s) for s in ((1, 2, 4), (2, 1, 3), (2,), (1, 2, 2))]
    wy, ws = rng.standard_normal((1, 2, 4)), rng.standard_normal((1, 2, 2))

    def total(tensors):
        y, state = ops.causal_conv_with_state(*tensors, silu=True)
        device = y.device()
        return (y * Tensor.from_data(wy, device=device)).sum() + (
            state * Tensor.from_data(ws, device=device)
        ).sum()

    expected = _finite_differences(
        lambda: total([Tensor.from_data(a, device=Device.numpy()) for a in arrays]).to_numpy().sum(),  # fmt: skip
        arrays,
    )
    autodiff = Device.numpy().autodiff()
    tensors = [Tensor.from_data(a, device=autodiff).require_grad() for a in arrays]
    grads = total(tensors).backward()
    for tensor, want in zip(tensors, expected):
        np.testing.assert_allclose(tensor.grad(grads).to_numpy(), want, rtol=1e-6, atol=1e-8)


# -- FlexAttention ---------------------------------------------------------------------------


def _modifier(name, elem, nodes, initializers=()):
    return helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info(f"{name}_in", elem, ["B", "H", "L", "S"])],
        [helper.make_tensor_value_info(f"{name}_out", elem, ["B", "H", "L", "S"])],
        list(initializers),
    )


def flex_case(elem=F, heads=(4, 2), score_mod=True, prob_mod=True, scale=None, precision=None, outer=False):  # fmt: skip
    """Q (1, hq, 3, 4) against K, V (1, hkv, 5, 4); score_mod: a soft cap then a bias (its
    own constant, or with `outer` the graph's input `bias`, a value of the enclosing graph);
    prob_mod: a scale."""
    hq, hkv = heads
    soft = elem if precision is None else precision
    if precision is None and elem != F64:
        soft = F
    rng = np.random.default_rng(4)
    dtype = DTYPES[elem]
    feeds = {
        "q": rng.standard_normal((1, hq, 3, 4)).astype(dtype),
        "k": rng.standard_normal((1, hkv, 5, 4)).astype(dtype),
        "v": rng.standard_normal((1, hkv, 5, 4)).astype(dtype),
    }
    attributes = {}
    if score_mod:
        cap = helper.make_tensor("cap", soft, [], [2.0])
        bias = rng.standard_normal((3, 5)).astype(DTYPES[soft])
        if outer:
            feeds["bias"] = bias
        constants = [cap] if outer else [cap, helper.make_tensor("bias", soft, [3, 5], bias)]
        attributes["score_mod"] = _modifier(
            "score",
            soft,
            [
                helper.make_node("Div", ["score_in", "cap"], ["capped"], name="score/Div"),
                helper.make_node("Tanh", ["capped"], ["bent"], name="score/Tanh"),
                helper.make_node("Mul", ["bent", "cap"], ["soft"], name="score/Mul"),
                helper.make_node("Add", ["soft", "bias"], ["score_out"], name="score/Add"),
            ],
            constants,
        )
    if prob_mod:
        half = helper.make_tensor("half", soft, [], [0.5])
        attributes["prob_mod"] = _modifier(
            "prob", soft, [helper.make_node("Mul", ["prob_in", "half"], ["prob_out"])], [half]
        )
    if scale is not None:
        attributes["scale"] = scale
    if precision is not None:
        attributes["softmax_precision"] = precision
    node = helper.make_node(
        "FlexAttention", ["q", "k", "v"], ["y"], domain="ai.onnx.preview", name="flex", **attributes
    )
    inputs = [helper.make_tensor_value_info(n, elem if n != "bias" else soft, a.shape) for n, a in feeds.items()]  # fmt: skip
    return _model(node, inputs, [helper.make_tensor_value_info("y", elem, None)], PREVIEW), feeds


FLEX = {
    "modifiers, grouped heads": {},
    "no modifiers": {"score_mod": False, "prob_mod": False, "heads": (2, 2)},
    "score_mod only, scaled": {"prob_mod": False, "scale": 0.2},
    "prob_mod only": {"score_mod": False},
    "float16": {"elem": F16},
    "float64": {"elem": F64},
    "softmax in float64": {"precision": F64},
}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("case", FLEX)
def test_flex_attention_runs_as_onnx_reference_does(case, device):
    model, feeds = flex_case(**FLEX[case])
    tolerance = {"rtol": 2e-3, "atol": 2e-3} if FLEX[case].get("elem") == F16 else {}
    _check(model, feeds, device, **tolerance)


@pytest.mark.parametrize("device", DEVICES)
def test_flex_attention_modifiers_read_the_enclosing_graph(device):
    """score_mod adds the graph's input `bias`: as the same model holding it as a constant of
    the modifier computes (onnx's reference evaluator runs only self-contained modifiers)."""
    model, feeds = flex_case(outer=True)
    alone, _ = flex_case()
    expected = ReferenceEvaluator(alone).run(None, {n: feeds[n] for n in ("q", "k", "v")})[0]
    got = importer.load(model, device=DEVICES[device]())(*feeds.values()).to_numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_flex_attention_writes_its_modifiers_in_place(tmp_path):
    model, _ = flex_case()
    text = importer.generate(model, tmp_path, name="flex").read_text()
    assert (
        "        # FlexAttention flex\n"
        "        # FlexAttention flex: scores\n"
        '        score_in = ops.flex_scores(q, k, None, "float32")\n'
        "        # Div score/Div\n"
        "        capped = score_in / 2.0\n"
        "        # Tanh score/Tanh\n"
        "        bent = capped.tanh()\n"
    ) in text
    assert (
        "        # FlexAttention flex: probabilities\n" "        prob_in = score_out.softmax(-1)\n"
    ) in text
    assert "        y = ops.flex_output(prob_out, v)\n        return y\n" in text


def test_flex_attention_refuses_a_modifier_of_another_type():
    model, _ = flex_case()
    mod = next(a for a in model.graph.node[0].attribute if a.name == "prob_mod")
    mod.g.input[0].type.tensor_type.elem_type = F64
    with pytest.raises(importer.UnsupportedError, match="prob_mod input.0. type mismatch"):
        importer.load(model)


@pytest.mark.parametrize("device", DEVICES)
def test_flex_attention_gradients_match_finite_differences(device):
    """d sum(y * w) / d q, k, v through both modifiers and grouped heads, in float64, against
    central differences of onnx's reference evaluator."""
    model, feeds = flex_case(elem=F64)
    session = ReferenceEvaluator(model)
    w = np.random.default_rng(5).standard_normal((1, 4, 3, 4))
    arrays = [feeds["q"], feeds["k"], feeds["v"]]
    expected = _finite_differences(lambda: float((session.run(None, feeds)[0] * w).sum()), arrays)
    autodiff = DEVICES[device]().autodiff()
    loaded = importer.load(model, device=autodiff)
    tensors = [Tensor.from_data(a, device=autodiff).require_grad() for a in arrays]
    y = loaded(*tensors)
    grads = (y * Tensor.from_data(w, device=autodiff)).sum().backward()
    for tensor, want in zip(tensors, expected):
        np.testing.assert_allclose(tensor.grad(grads).to_numpy(), want, rtol=1e-6, atol=1e-8)
