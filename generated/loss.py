# @generated from ops.yaml by `python -m codegen`; do not edit. render=05cd98087516b95f body=76e3f6abab8c20dc
"""burn-tensor's loss functions: `from generated import loss` (written in runtime/loss.py, as
Tensor methods composed, so they differentiate and run on every backend)."""

from runtime.loss import *  # noqa: F401, F403
from runtime.loss import __all__  # noqa: F401
