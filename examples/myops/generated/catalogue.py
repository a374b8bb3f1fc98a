# @generated from ops.yaml by `python -m codegen`; do not edit. render=2e84cc7cc154ee0e body=e7d85438d24bacfe
"""What the Autodiff decorator needs to know of each float op, from ops.yaml: one constant per
op, which its line in generated/autodiff.py names. Each is typed with the signature of the
specialization's attribute (`AD.float_mul`), which its builder returns; a differentiable op's
names its backward rule, a row of a table in runtime/autodiff/rules/."""

from collections.abc import Callable
from typing import Any

from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole, FloatInput
from myops.rules import Rules
from burnpy.runtime.autodiff.tensor import AutodiffTensor

LOGADDEXP: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "logaddexp",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="({lhs} > {rhs} ? {lhs} + log(1 + exp({rhs} - {lhs})) : {rhs} + log(1 + exp({lhs} - {rhs})))",
    rule=Rules.logaddexp,
)

LINEAR_GELU: AutodiffOp[
    Callable[[AutodiffTensor, AutodiffTensor, AutodiffTensor], AutodiffTensor]
] = AutodiffOp(
    "linear_gelu",
    ("x", "weight", "bias"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2)),
    AutodiffRole.RECORD,
    rule=Rules.linear_gelu,
)

AUTODIFF_OPS = (
    LOGADDEXP,
    LINEAR_GELU,
)
