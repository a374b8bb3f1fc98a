# @generated from ops.yaml by `python -m codegen`; do not edit. render=79c5b4c599158ea1 body=8b36d98bdc952aaf
"""benches.benchops's own ops, generated from its ops.yaml by `python -m codegen --package`: each a
function over burnpy's `Tensor`, routed on every backend and differentiated by burnpy's Autodiff
decorator as a built-in op is.
"""

from benches.benchops.generated.ops import times

__all__ = [
    "times",
]
