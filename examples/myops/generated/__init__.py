# @generated from ops.yaml by `python -m codegen`; do not edit. render=032985973147163e body=5756b5089921b90e
"""myops's own ops, generated from its ops.yaml by `python -m codegen --package`: each a
function over burnpy's `Tensor`, routed on every backend and differentiated by burnpy's Autodiff
decorator as a built-in op is.
"""

from myops.generated.ops import logaddexp
from myops.generated.ops import softplus
from myops.generated.ops import linear_gelu

__all__ = [
    "linear_gelu",
    "logaddexp",
    "softplus",
]
