# @generated from ops.yaml by `python -m codegen`; do not edit. render=973dde53d42cba45 body=5029c1d37a44affb
"""The dispatch layer: every routing function of ops.yaml, by kind."""

from generated.dispatch import float_ops
from generated.dispatch import int_ops
from generated.dispatch import bool_ops
from generated.dispatch import module_ops
from generated.dispatch import optim_ops
from generated.dispatch import quantized_ops
from generated.dispatch.float_ops import *  # noqa: F401, F403
from generated.dispatch.int_ops import *  # noqa: F401, F403
from generated.dispatch.bool_ops import *  # noqa: F401, F403
from generated.dispatch.module_ops import *  # noqa: F401, F403
from generated.dispatch.optim_ops import *  # noqa: F401, F403
from generated.dispatch.quantized_ops import *  # noqa: F401, F403

__all__ = [
    *float_ops.__all__,
    *int_ops.__all__,
    *bool_ops.__all__,
    *module_ops.__all__,
    *optim_ops.__all__,
    *quantized_ops.__all__,
]
