# @generated from ops.yaml by `python -m codegen`; do not edit. render=a00db6a3be640da9 body=e20f5e8d68a776cf
"""The Autodiff decorator's specialization, `Autodiff[inner, strategy]`: one attribute per float
op of ops.yaml, bound by name when a specialization is built (runtime/routing.py builds two per
backend, NoCheckpointing and Balanced). A differentiable op's is its recorder
(generated/recorders.py); a creation's makes a new untracked leaf; an op with no float result
runs on the inner primitives (runtime/autodiff/backend.py's builders).
"""

from myops.generated import catalogue as ops
from myops.generated import recorders
from burnpy.runtime.autodiff.backend import AutodiffDecorator


class Autodiff(AutodiffDecorator):
    def __init__(self, inner, strategy) -> None:  # (annotated: a type checker reads its attributes)
        super().__init__(inner, strategy)
        self.logaddexp = self.recorded(
            ops.LOGADDEXP, recorders.record_logaddexp, ("lhs", "out", "rhs")
        )
        self.linear_gelu = self.recorded(
            ops.LINEAR_GELU, recorders.record_linear_gelu, ("x", "weight", "bias")
        )
