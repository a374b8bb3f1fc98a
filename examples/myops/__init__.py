"""myops: burnpy's example of a package with its own ops (docs/own-ops.md).

from burnpy import Device, Tensor
from myops import linear_gelu, logaddexp, softplus
"""

from myops.generated import linear_gelu, logaddexp, softplus

__all__ = ["linear_gelu", "logaddexp", "softplus"]
