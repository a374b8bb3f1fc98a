"""The generated recorders (generated/recorders.py, decided by codegen/recorders.py) and the
routing's dtype check: what a reader is promised (the source is in generated/, tracebacks point
into it), what a recorder keeps for each set of tracked inputs, the shapes module ops need
(optional tensors, several float outputs), and that a bad entry or bad input fails clearly.
Gradients themselves are checked against finite differences for every op in test_ops.py."""

import dataclasses
import inspect
import traceback
from enum import Enum

import numpy as np
import pytest

from burnpy.generated import Device, Tensor
from burnpy.generated.backends import BACKENDS
from burnpy.generated.dispatch import float_mul
from burnpy.codegen import recorders
from burnpy.codegen.recorders import recorder
from burnpy.codegen.render import recorder_source
from burnpy.runtime.autodiff import recording
from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole, FloatInput, rule_for
from burnpy.runtime.autodiff.steps import SELF, Backward

AD = Device.numpy().autodiff()
CK = AD.gradient_checkpointing()


def tensor(values, device, grad=False, dtype=np.float64):
    t = Tensor.from_data(np.asarray(values, dtype=dtype), device=device)
    return t.require_grad() if grad else t


def node(t):
    return t.primitive.node


def test_a_recorder_is_generated_code():
    recorder = BACKENDS.NumPy.NoCheckpointing.float_mul
    assert inspect.getsourcefile(recorder).endswith("generated/recorders.py")
    source = inspect.getsource(recorder)
    assert source.lstrip().startswith("def float_mul(lhs, rhs):")
    assert "out = forward(lhs_value, rhs_value)" in source
    # one factory serves both strategies: Balanced is a flag of its recorder
    assert inspect.getsource(BACKENDS.NumPy.Balanced.float_mul) == source
    assert "memory_bound = balanced and lhs_tracked and rhs_tracked" in source
    assert "out_node = new_node(\n            parents=" in source  # the fields named


def test_a_traceback_points_into_the_generated_recorder():
    a = tensor([1.0, 2.0], AD, grad=True)
    b = tensor([1.0, 2.0, 3.0], AD, grad=True)
    with pytest.raises(Exception) as caught:
        BACKENDS.NumPy.NoCheckpointing.float_mul(a.primitive, b.primitive)
    frames = traceback.extract_tb(caught.value.__traceback__)
    assert any(
        f.filename.endswith("generated/recorders.py") and f.name == "float_mul" for f in frames
    )


def test_a_stale_recorder_is_refused_when_the_backend_is_built(monkeypatch):
    from burnpy.generated.autodiff import Autodiff
    from burnpy.runtime.autodiff.checkpoint import NoCheckpointing

    from burnpy.generated import catalogue

    lhs_vjp, _ = catalogue.FLOAT_MUL.rule  # the rule now also asks for the output
    changed = dataclasses.replace(catalogue.FLOAT_MUL, rule=(lhs_vjp, lambda g, lhs, out: g * lhs))
    monkeypatch.setattr(catalogue, "FLOAT_MUL", changed)
    with pytest.raises(
        RuntimeError, match=r"float_mul .* generated/ is stale; run `python -m codegen`"
    ):
        Autodiff(BACKENDS.NumPy.inner, NoCheckpointing())


def test_every_float_op_is_bound_by_name_in_the_specialization():
    """`AD.<op>` is found by reading generated/autodiff.py: one line per op binds it, naming
    the op's constant and, for a recorded op, its recorder."""
    from burnpy.generated.autodiff import Autodiff
    from burnpy.generated.catalogue import AUTODIFF_OPS

    source = inspect.getsource(Autodiff.__init__)
    for op in AUTODIFF_OPS:
        assert f"self.{op.name} = self." in source, op.name
        if op.role is AutodiffRole.RECORD:
            assert f"recorders.record_{op.name}," in source, op.name
    assert "setattr" not in source


def test_each_recorded_op_names_the_row_of_its_name_in_one_rule_table():
    """generated/catalogue.py names each differentiable op's rule (`rule=ElementwiseRules.
    float_mul`), which an editor goes to: the row named as the op, in exactly one table; and
    every row of the tables is some recorded op's."""
    from burnpy.generated.catalogue import AUTODIFF_OPS
    from burnpy.runtime.autodiff.ops import MOVE_ACROSS
    from burnpy.runtime.autodiff.rules import TABLES

    recorded = [op for op in AUTODIFF_OPS if op.role is AutodiffRole.RECORD] + [MOVE_ACROSS]
    written = [
        (table, name, row)
        for table in TABLES
        for name, row in vars(table).items()
        if not name.startswith("__")
    ]
    for op in recorded:
        (row,) = [row for _, name, row in written if name == op.name]
        assert op.rule is row, op.name
    assert sorted(name for _, name, _ in written) == sorted(op.name for op in recorded)


@pytest.mark.parametrize(
    "lhs_grad, rhs_grad, saved",
    [(True, True, ("rhs", "lhs")), (True, False, ("rhs",)), (False, True, ("lhs",))],
)
def test_mul_saves_only_what_the_tracked_inputs_need(lhs_grad, rhs_grad, saved):
    """burn: mul keeps lhs only when rhs needs a gradient, and rhs only when lhs does."""
    lhs = tensor([1.0, 2.0], AD, lhs_grad)
    rhs = tensor([3.0, 4.0], AD, rhs_grad)
    out = node(lhs * rhs)
    values = {"rhs": rhs.primitive.primitive, "lhs": lhs.primitive.primitive}
    kept = dict(zip(out.step.rule.saved, out.saved))
    assert {name for name, value in kept.items() if value is not None} == set(saved)
    for name in saved:
        assert kept[name] is values[name]
    assert out.parents == tuple(
        n.id for n, g in ((node(lhs), lhs_grad), (node(rhs), rhs_grad)) if g
    )


def test_balanced_keeps_a_memory_bound_input_as_its_node_and_the_output_as_self():
    w = tensor([0.5, 1.5], CK, grad=True)
    e = w.exp()  # memory-bound, every input tracked: recomputed, its recipe kept
    assert node(e).recipe == (w.primitive.primitive,)
    assert node(e).saved == (SELF,)
    y = e * w  # needs e: keeps its Node, to recompute it in backward
    kept = dict(zip(node(y).step.rule.saved, node(y).saved))
    assert kept["lhs"] is node(e)
    grads = y.sum().backward()
    x = np.array([0.5, 1.5])
    np.testing.assert_allclose(w.grad(grads).to_numpy(), np.exp(x) * x + np.exp(x))


def _leaves(value):
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from _leaves(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def test_a_recorder_is_typed_values_holding_names_never_code():
    """codegen/recorders.py decides what each statement is and the template spells it: every
    string of every op's Recorder is a name (an argument, a kernel), every choice an enum
    member; and each kind of value occurs in the catalogue, so generated/ runs every macro."""
    from burnpy.generated.catalogue import AUTODIFF_OPS
    from burnpy.runtime.autodiff.ops import MOVE_ACROSS

    ops = [op for op in AUTODIFF_OPS if op.role is AutodiffRole.RECORD] + [MOVE_ACROSS]
    seen = set()
    for op in ops:
        for leaf in _leaves(recorder(op)):
            assert isinstance(leaf, (Enum, bool, int, str, type(None))), (op.name, leaf)
            assert not isinstance(leaf, str) or leaf.isidentifier(), (op.name, leaf)
            seen.add(leaf)
    kinds = (
        recorders.Passing,
        recorders.Outputs,
        recorders.Link,
        recorders.Source,
        recorders.Parents,
    )
    assert {member for kind in kinds for member in kind} <= seen


def test_an_op_that_keeps_something_and_returns_several_results_is_refused():
    op = AutodiffOp(
        "layer_norm", ("input", "gamma", "beta", "epsilon"),
        (FloatInput("input", 0), FloatInput("gamma", 1), FloatInput("beta", 2, optional=True)),
        AutodiffRole.RECORD, float_outputs=(0,), outputs=2, keeps="statistics",
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"layer_norm: an op that keeps `statistics` returns"):
        recorder(op)


def test_a_catalogue_argument_named_like_a_recorder_local_is_refused():
    op = AutodiffOp(
        "float_exp", ("tensor", "order"), (FloatInput("tensor", 0),), AutodiffRole.RECORD
    )
    with pytest.raises(ValueError, match=r"float_exp: argument names \['order'\] clash"):
        recorder(op)


@pytest.mark.parametrize("device", [Device.numpy(), AD], ids=["plain", "autodiff"])
def test_the_routing_refuses_two_dtypes_and_accepts_equal_ones(device):
    f32 = tensor([1.0, 2.0], device, dtype=np.float32)
    f64 = tensor([1.0, 2.0], device, dtype=np.float64)
    with pytest.raises(TypeError, match=r"float_mul: dtypes differ \(float32 and float64\)"):
        float_mul(f32, f64)
    # an equal dtype that is another object (numpy dtypes with metadata) passes
    other = np.ones(2, dtype=np.dtype("float32", metadata={"unit": "m"}))
    same = Tensor.from_data(other, device=device)
    assert same.to_numpy().dtype is not f32.to_numpy().dtype  # (the slow path is taken)
    np.testing.assert_array_equal((f32 * same).to_numpy(), [1.0, 2.0])


# -- shapes no catalogue op had before module ops: fixture ops, generated like the real ones ---
#
# Each fixture op gets a rule and a kernel here, its recorder is generated by codegen's own
# writer, and they run under both strategies through the same Backward and graph as every op.


def _bind(op: AutodiffOp, forward, recomputes: bool):
    """The generated recorder of a fixture op, bound as the Autodiff specialization binds one."""
    text = recorder_source(recorder(op))
    namespace = dict(vars(recording))
    exec(compile(text, f"<fixture recorder {op.name}>", "exec"), namespace)
    factory = namespace[text.split("(", 1)[0].removeprefix("def ")]
    inner = BACKENDS.NumPy.inner
    rule = rule_for(op)
    return factory(forward, Backward(rule, inner, forward, op.positions), inner, recomputes)


def _split_vjp(g, k, x_shape):
    g_sin, g_cos = g  # one per float output, None where an output got no gradient
    return (0 if g_sin is None else g_sin * k) + (0 if g_cos is None else g_cos)


# fixture ops, each naming its rule as a generated description does
AFFINE = AutodiffOp(
    "fixture_affine", ("x", "w", "bias"),
    (FloatInput("x", 0), FloatInput("w", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=(lambda g, w: g @ w.T, lambda g, x: x.T @ g, lambda g: g.sum(0)),
)  # fmt: skip
SPLIT = AutodiffOp(
    "fixture_split", ("x", "k"), (FloatInput("x", 0),), AutodiffRole.RECORD,
    float_outputs=(0, 1), outputs=3, rule=(_split_vjp,),
)  # fmt: skip


def _affine(x, w, bias):
    out = x @ w
    return out if bias is None else out + bias


def _split(x, k):
    return x * k, x.copy(), np.argmax(x, axis=-1)


def _leaf(values, grad, device):
    t = tensor(values, device, grad)
    return t.primitive


@pytest.mark.parametrize("recomputes", [False, True], ids=["NoCheckpointing", "Balanced"])
@pytest.mark.parametrize("with_bias", [True, False])
def test_an_optional_tensor_is_a_parent_only_when_given(recomputes, with_bias):
    device = CK if recomputes else AD
    record = _bind(AFFINE, _affine, recomputes)
    x_data, w_data = np.arange(6.0).reshape(2, 3) / 7, np.arange(12.0).reshape(3, 4) / 5
    x, w = _leaf(x_data, True, device), _leaf(w_data, True, device)
    bias = _leaf(np.ones(4), True, device) if with_bias else None
    out = record(x, w, bias)
    expected_parents = (x.node.id, w.node.id) + ((bias.node.id,) if with_bias else ())
    assert out.node.parents == expected_parents
    assert out.node.inputs[2] is (bias.node if with_bias else None)
    grads = BACKENDS.NumPy.NoCheckpointing.backward(BACKENDS.NumPy.NoCheckpointing.float_sum(out))
    ones = np.ones((2, 4))
    np.testing.assert_allclose(grads.get(x.node), ones @ w_data.T)
    np.testing.assert_allclose(grads.get(w.node), x_data.T @ ones)
    if with_bias:
        np.testing.assert_allclose(grads.get(bias.node), np.full(4, 2.0))


def test_an_untracked_optional_tensor_saves_nothing_for_itself():
    record = _bind(AFFINE, _affine, False)
    x, w = _leaf(np.ones((1, 2)), False, AD), _leaf(np.ones((2, 2)), True, AD)
    bias = _leaf(np.ones(2), False, AD)
    out = record(x, w, bias)
    assert out.node.parents == (w.node.id,)
    assert out.node.inputs == (None, w.node, None)
    kept = dict(zip(rule_for(AFFINE).saved, out.node.saved))
    assert kept == {"w": None, "x": x.primitive}  # only w's VJP (which needs x) will run


def test_an_absent_optional_tensors_shape_and_dtype_are_saved_as_none():
    def x_vjp(g, w, bias_shape, bias_dtype):  # a VJP told of the bias, which may be absent
        return g @ w.T

    affine = dataclasses.replace(AFFINE, rule=(x_vjp, lambda g, x: x.T @ g, lambda g: g))
    record = _bind(affine, _affine, False)
    x, w = _leaf(np.ones((1, 2)), True, AD), _leaf(np.ones((2, 3)), False, AD)
    bias = _leaf(np.ones(3), False, AD)
    for given, expected in [(None, [None, None]), (bias, [(3,), np.dtype(np.float64)])]:
        kept = dict(zip(rule_for(affine).saved, record(x, w, given).node.saved))
        assert [kept["bias_shape"], kept["bias_dtype"]] == expected


@pytest.mark.parametrize("recomputes", [False, True], ids=["NoCheckpointing", "Balanced"])
@pytest.mark.parametrize("reached", [(0,), (1,), (0, 1)])
def test_several_float_outputs_each_have_a_node_and_any_subset_backpropagates(recomputes, reached):
    device = CK if recomputes else AD
    AD_ = BACKENDS.NumPy.Balanced if recomputes else BACKENDS.NumPy.NoCheckpointing
    record = _bind(SPLIT, _split, recomputes)
    x = _leaf(np.array([[1.0, 3.0, 2.0]]), True, device)
    first, second, indices = record(x, 3.0)
    np.testing.assert_array_equal(indices, [1])  # the int output stays a primitive
    assert first.node.id != second.node.id
    (hub_id,) = first.node.parents
    assert second.node.parents == (hub_id,) and first.node.inputs[0].parents == (x.node.id,)
    outputs = [first, second]
    total = AD_.float_sum(outputs[reached[0]])
    for i in reached[1:]:
        total = AD_.float_add(total, AD_.float_sum(outputs[i]))
    grads = AD_.backward(total)
    expected = sum(3.0 if i == 0 else 1.0 for i in reached)
    np.testing.assert_allclose(grads.get(x.node), np.full((1, 3), expected))


def test_untracked_inputs_give_each_float_output_an_untracked_node():
    record = _bind(SPLIT, _split, False)
    first, second, _ = record(_leaf(np.ones((1, 2)), False, AD), 2.0)
    assert first.node.requirement is second.node.requirement is recording.NONE
    assert first.node.id != second.node.id


@pytest.mark.parametrize("device", [AD, CK], ids=["plain", "balanced"])
def test_a_conv_whose_bias_alone_is_tracked_keeps_nothing_alive(device):
    """The bias gradient is the output gradient summed over all but the channel dim: it needs
    neither the input nor the weight, so nothing is saved for it."""
    from burnpy.generated import module

    rng = np.random.default_rng(0)
    x = tensor(rng.normal(size=(2, 3, 5, 5)), device)
    weight = tensor(rng.normal(size=(4, 3, 3, 3)), device)
    bias = tensor(rng.normal(size=(4,)), device, grad=True)
    out = module.conv2d(x, weight, bias, padding=1)
    assert all(value is None for value in node(out).saved)
    upstream = rng.normal(size=(2, 4, 5, 5))
    grads = (out * tensor(upstream, device)).sum().backward()
    np.testing.assert_allclose(bias.grad(grads).to_numpy(), upstream.sum(axis=(0, 2, 3)))


def test_a_joint_rule_may_name_only_inputs_as_needing_only_g():
    """Joint's `g_only` lists float inputs whose gradient comes from `g` alone; a name that is
    not one is refused, saying which are."""
    from burnpy.runtime.autodiff.rules import Joint, Rule
    from burnpy.runtime.autodiff.rules.conv import ConvRules

    row = Joint(ConvRules.conv2d.fn, g_only=("beta",))
    args = ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end")
    with pytest.raises(
        ValueError,
        match=r"conv2d says beta needs only g, but the op has no float input beta; name in "
        r"g_only only the op's float inputs x, weight, bias",
    ):
        Rule("conv2d", row, args, ("x", "weight", "bias"))


def test_every_node_has_every_field_set_on_every_path():
    """A Node is built one way (`new_node`, whose parameters are Node's slots): a leaf, a
    require_grad leaf, a marked parameter, a detached tensor, an untracked op, a recorded op,
    a Joint-rule op, an op's several float outputs each have every field."""
    from burnpy.runtime.autodiff.node import FIELDS, Node, new_node

    assert Node.__slots__ == (*FIELDS, "__weakref__")
    assert tuple(inspect.signature(new_node).parameters) == FIELDS
    assert "__init__" not in vars(Node)  # no second way
    x = tensor([[1.0, 2.0], [3.0, 4.0]], AD, grad=True)
    c = tensor([[1.0, 0.0], [0.0, 1.0]], AD)
    from burnpy.generated.module import conv2d

    image = tensor(np.ones((1, 1, 3, 3)), AD, grad=True)
    kernel = tensor(np.ones((1, 1, 2, 2)), AD)
    record = _bind(SPLIT, _split, False)
    outputs = record(_leaf([[0.5, 1.5]], True, AD), 2.0)
    nodes = {
        "leaf": node(c),
        "require_grad": node(x),
        "distributed": node(x.set_distributed_params(7)),
        "detached": node(x.detach()),
        "untracked op": node(c * c),
        "recorded op": node(x * x),
        "recorded, balanced": node(tensor([1.0], CK, grad=True) * 2.0),
        "joint rule": node(conv2d(image, kernel)),
        "output of several": outputs[0].node,
    }
    for path, n in nodes.items():
        missing = [f for f in FIELDS if not hasattr(n, f)]
        assert not missing, (path, missing)


def test_distributed_params_is_answered_on_every_tensor():
    x = tensor([1.0, 2.0], AD, grad=True)
    assert (x * x).distributed_params() is None
    assert tensor([1.0], Device.numpy()).distributed_params() is None
    marked = x.set_distributed_params(3)
    assert marked.distributed_params() == 3 and x.distributed_params() is None


def test_each_name_a_vjp_may_take_stands_for_one_kind_of_saved_value():
    """The rules' vocabulary, typed once (runtime/autodiff/rules: `vocabulary`, `Needs`): the
    recorders save by what a name stands for, never by the name itself."""
    from burnpy.runtime.autodiff.ops import rule_for
    from burnpy.runtime.autodiff.rules import Needs, vocabulary

    names = vocabulary(("x", "indices", "dim"), ("x",), multi_output=True, kept="statistics")
    assert {n: (v.needs, v.of) for n, v in names.items()} == {
        "x_shape": (Needs.SHAPE, "x"),
        "x_device": (Needs.DEVICE, "x"),
        "x_dtype": (Needs.DTYPE, "x"),
        "x": (Needs.INPUT, "x"),
        "indices": (Needs.ARGUMENT, "indices"),  # an argument named so is the argument
        "dim": (Needs.ARGUMENT, "dim"),
        "statistics": (Needs.KEPT, "statistics"),
        "out": (Needs.OUTPUT, "out"),
    }
    assert vocabulary(("x",), ("x",), multi_output=True)["indices"].needs is Needs.INDICES
    from burnpy.generated.catalogue import FLOAT_MUL, LAYER_NORM

    assert [(v.needs, v.of) for v in rule_for(FLOAT_MUL).saved_values] == [
        (Needs.INPUT, "rhs"),
        (Needs.INPUT, "lhs"),
    ]
    kinds = {v.needs for v in rule_for(LAYER_NORM).saved_values}
    assert Needs.KEPT in kinds


def test_the_slots_constructors_build_what_their_functions_build():
    """`new_node` and `autodiff_tensor` in C (runtime/autodiff/new_node.c) set the same slots as
    the Python functions they wrap, defaults included, and any call they cannot take is the
    function's, with its TypeError."""
    from burnpy.runtime.autodiff.node import FIELDS, new_node
    from burnpy.runtime.autodiff.tensor import AutodiffTensor, autodiff_tensor

    required = dict(parents=(3,), order=1, id=4, requirement=None, properties=None)
    for build in (new_node, getattr(new_node, "__wrapped__", new_node)):
        made = build(**required, shapes=((2,),))
        expected = {**dict.fromkeys(FIELDS), "inputs": (), "saved": (), **required}
        assert {f: getattr(made, f) for f in FIELDS} == {**expected, "shapes": ((2,),)}
    python = getattr(new_node, "__wrapped__", new_node)
    for call in (
        lambda f: f(parents=()),  # required ones missing
        lambda f: f(**required, colour=1),  # not a field
        lambda f: f(1, **required),  # positional
    ):
        with pytest.raises(TypeError) as ours:
            call(new_node)
        with pytest.raises(TypeError) as theirs:
            call(python)
        assert str(ours.value) == str(theirs.value)
    primitive, node_ = np.ones(2), new_node(**required)
    for made in (
        autodiff_tensor(primitive, node_),
        autodiff_tensor(node=node_, primitive=primitive),
    ):
        assert type(made) is AutodiffTensor and made.primitive is primitive and made.node is node_
        assert made.rc == 4
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'node'"):
        autodiff_tensor(primitive)
    with pytest.raises(TypeError, match="takes 2 positional arguments but 3 were given"):
        autodiff_tensor(primitive, node_, 1)
