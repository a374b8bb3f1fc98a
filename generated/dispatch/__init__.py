# @generated from ops.yaml by `python -m codegen`; do not edit. render=95d3096a43c708fa body=3921393013c7dbef
"""The dispatch layer: every routing function of ops.yaml, by kind."""

from generated.dispatch import float_ops
from generated.dispatch import int_ops
from generated.dispatch import bool_ops
from generated.dispatch import module_ops
from generated.dispatch import optim_ops
from generated.dispatch.float_ops import *  # noqa: F401, F403
from generated.dispatch.int_ops import *  # noqa: F401, F403
from generated.dispatch.bool_ops import *  # noqa: F401, F403
from generated.dispatch.module_ops import *  # noqa: F401, F403
from generated.dispatch.optim_ops import *  # noqa: F401, F403

__all__ = [
    *float_ops.__all__,
    *int_ops.__all__,
    *bool_ops.__all__,
    *module_ops.__all__,
    *optim_ops.__all__,
]
