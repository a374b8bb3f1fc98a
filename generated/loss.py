# @generated from ops.yaml by `python -m codegen`; do not edit. render=863ed6e4850fb785 body=95e5c0b1ea1c836d
"""burn-tensor's loss functions: `from burnpy.generated import loss` (written in runtime/loss.py, as
Tensor methods composed, so they differentiate and run on every backend)."""

from burnpy.runtime.loss import *  # noqa: F401, F403
from burnpy.runtime.loss import __all__  # noqa: F401
