"""The typed catalogue model: ops.yaml's spellings parsed into enums and structured argument
types, and each op's role (what dispatch, the Autodiff metadata and `explain` do with it)."""

from pathlib import Path

import pytest

from burnpy.codegen.__main__ import read_catalogue
from burnpy.codegen.model import Arg, ArgKind, AutodiffClass, Kind, Role, Routing

CATALOGUE = read_catalogue(str(Path(__file__).resolve().parent.parent / "ops.yaml"))


def test_an_ints_type_is_a_kind_and_an_arity_and_reads_back_as_written():
    conv2d = CATALOGUE.op("conv2d")
    stride = next(a for a in conv2d.args if a.name == "stride")
    end = next(a for a in conv2d.args if a.name == "padding_end")
    assert (stride.type, stride.arity, stride.optional) == (ArgKind.INTS, 2, False)
    assert (end.type, end.arity, end.optional) == (ArgKind.INTS, 2, True)
    assert (stride.spelled, end.spelled) == ("ints2", "ints2?")
    assert [a.spelled for a in CATALOGUE.op("conv1d").args][3:5] == ["ints1", "ints1"]


def test_the_fields_are_enums_equal_to_their_spelling():
    mul = CATALOGUE.op("float_mul")
    assert mul.kind is Kind.FLOAT and mul.kind == "float"
    assert mul.routing is Routing.TENSOR and mul.autodiff is AutodiffClass.MEMORY_BOUND
    assert mul.returns == (Kind.FLOAT,) and all(type(a.type) is ArgKind for a in mul.args)


def test_a_bad_type_or_arity_is_refused_when_the_model_is_built():
    with pytest.raises(ValueError, match="'ints9' is not a valid ArgKind"):
        Arg("k", "ints9")
    with pytest.raises(ValueError, match="an arity goes with `ints` only"):
        Arg("k", "float", arity=2)


@pytest.mark.parametrize(
    "name, role",
    [
        ("float_zeros", Role.CREATION_FLOAT),
        ("int_zeros", Role.CREATION_PLAIN),
        ("float_to_device", Role.MOVE),
        ("int_into_float", Role.LEAF),
        ("float_mul", Role.AUTODIFF),
        ("float_argmax", Role.AUTODIFF),
        ("int_add", Role.PLAIN),
        ("bool_not", Role.PLAIN),
    ],
)
def test_each_op_has_one_role(name, role):
    assert CATALOGUE.op(name).role is role


def test_a_composite_is_a_composite_whatever_its_routing():
    composites = [op for op in CATALOGUE.ops if op.composite]
    assert composites and all(op.role is Role.COMPOSITE for op in composites)
