# @generated from ops.yaml by `python -m codegen`; do not edit. render=964dddce3859c545 body=ce1b9112214a8438
"""The Autodiff decorator's specialization, `Autodiff[inner, strategy]`: one attribute per float
op of ops.yaml, bound by name when a specialization is built (runtime/routing.py builds two per
backend, NoCheckpointing and Balanced). A differentiable op's is its recorder
(generated/recorders.py); a creation's makes a new untracked leaf; an op with no float result
runs on the inner primitives (runtime/autodiff/backend.py's builders).
"""

from benches.benchops.generated import catalogue as ops
from benches.benchops.generated import recorders
from burnpy.runtime.autodiff.backend import AutodiffDecorator


class Autodiff(AutodiffDecorator):
    def __init__(self, inner, strategy) -> None:  # (annotated: a type checker reads its attributes)
        super().__init__(inner, strategy)
        self.times = self.recorded(ops.TIMES, recorders.record_times, ("rhs", "lhs"))
