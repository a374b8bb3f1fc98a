# @generated from ops.yaml by `python -m codegen`; do not edit. render=84e985e45394f940 body=26ff1e79b575ffac
"""The dispatch layer: every routing function of ops.yaml, by kind."""

from generated.dispatch import float_ops
from generated.dispatch import int_ops
from generated.dispatch import bool_ops
from generated.dispatch.float_ops import *  # noqa: F401, F403
from generated.dispatch.int_ops import *  # noqa: F401, F403
from generated.dispatch.bool_ops import *  # noqa: F401, F403

__all__ = [*float_ops.__all__, *int_ops.__all__, *bool_ops.__all__]
