# @generated from ops.yaml by `python -m codegen`; do not edit. render=493ced9fb77b25f4 body=539abf5daadf63a3
"""What the Autodiff decorator needs to know of each float op, from ops.yaml: one constant per
op, which its line in generated/autodiff.py names. Each is typed with the signature of the
specialization's attribute (`AD.float_mul`), which its builder returns; a differentiable op's
names its backward rule, a row of a table in runtime/autodiff/rules/."""

from collections.abc import Callable
from typing import Any

from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole, FloatInput
from benches.benchops.rules import Rules
from burnpy.runtime.autodiff.tensor import AutodiffTensor

TIMES: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "times",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=Rules.times,
)

AUTODIFF_OPS = (TIMES,)
