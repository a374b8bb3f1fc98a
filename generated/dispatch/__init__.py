# @generated from ops.yaml by `python -m codegen`; do not edit. render=b86ab6de6f678fcc body=08cce0e85ebd3bd5
"""The dispatch layer: every routing function of ops.yaml, by kind."""

from burnpy.generated.dispatch import float_ops
from burnpy.generated.dispatch import int_ops
from burnpy.generated.dispatch import bool_ops
from burnpy.generated.dispatch import module_ops
from burnpy.generated.dispatch import optim_ops
from burnpy.generated.dispatch import quantized_ops
from burnpy.generated.dispatch.float_ops import *  # noqa: F401, F403
from burnpy.generated.dispatch.int_ops import *  # noqa: F401, F403
from burnpy.generated.dispatch.bool_ops import *  # noqa: F401, F403
from burnpy.generated.dispatch.module_ops import *  # noqa: F401, F403
from burnpy.generated.dispatch.optim_ops import *  # noqa: F401, F403
from burnpy.generated.dispatch.quantized_ops import *  # noqa: F401, F403

__all__ = [
    *float_ops.__all__,
    *int_ops.__all__,
    *bool_ops.__all__,
    *module_ops.__all__,
    *optim_ops.__all__,
    *quantized_ops.__all__,
]
