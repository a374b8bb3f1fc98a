# @generated from ops.yaml by `python -m codegen`; do not edit. render=afa1cc695d4a41ec body=5ac6eba13b334d53
"""The spec-driven tests of myops's ops, from the `test:` of each entry of its ops.yaml
(burnpy.opcheck): values against `ref`, gradients against float64 finite differences under both
checkpointing strategies, and the captured step, replayed and compiled, against the eager one,
on every backend installed. Run them with pytest, or `python -m codegen --package DIR test`.
"""

import pytest

from burnpy.opcheck import CHECKS, OpSpec
from myops.generated import ops

SPECS = (
    OpSpec(
        ops.logaddexp,
        "logaddexp",
        (("lhs", "float"), ("rhs", "float")),
        "np.logaddexp(lhs, rhs)",
        shapes=(((3, 4), (3, 4)), ((2, 3), (3,))),
        domain=None,
        arguments={},
        differentiable=True,
    ),
    OpSpec(
        ops.softplus,
        "softplus",
        (("x", "float"),),
        "np.logaddexp(x, 0.0)",
        shapes=(((3, 4),),),
        domain=None,
        arguments={},
        differentiable=True,
    ),
    OpSpec(
        ops.linear_gelu,
        "linear_gelu",
        (("x", "float"), ("weight", "float"), ("bias", "float")),
        "0.5 * (x @ weight + bias) * (1 + np.tanh(0.7978845608028654 * ((x @ weight + bias) + 0.044715 * (x @ weight + bias) ** 3)))",
        shapes=(((4, 3), (3, 5), (5,)), ((2, 4, 3), (3, 2), (2,))),
        domain=None,
        arguments={},
        differentiable=True,
    ),
)


@pytest.mark.parametrize("check", CHECKS, ids=str)
@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_op(spec, check):
    check.run(spec)
