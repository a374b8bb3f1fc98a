# @generated from ops.yaml by `python -m codegen`; do not edit. render=e59adfb577c7c59f body=6dce1f88ff65a4d0
"""The spec-driven tests of benches.benchops's ops, from the `test:` of each entry of its ops.yaml
(burnpy.opcheck): values against `ref`, gradients against float64 finite differences under both
checkpointing strategies, and the captured step, replayed and compiled, against the eager one,
on every backend installed. Run them with pytest, or `python -m codegen --package DIR test`.
"""

import pytest

from burnpy.opcheck import CHECKS, OpSpec
from benches.benchops.generated import ops

SPECS = (
    OpSpec(
        ops.times,
        "times",
        (("lhs", "float"), ("rhs", "float")),
        "lhs * rhs",
        shapes=(((2, 3), (2, 3)),),
        domain=None,
        arguments={},
        differentiable=True,
    ),
)


@pytest.mark.parametrize("check", CHECKS, ids=str)
@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_op(spec, check):
    check.run(spec)
