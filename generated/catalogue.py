# @generated from ops.yaml by `python -m codegen`; do not edit. render=e0a3df9046b21c45 body=45e4a15bbffd9986
"""What the Autodiff decorator needs to know of each float op, from ops.yaml: one constant per
op, which its line in generated/autodiff.py names. Each is typed with the signature of the
specialization's attribute (`AD.float_mul`), which its builder returns; a differentiable op's
names its backward rule, a row of a table in runtime/autodiff/rules/."""

from collections.abc import Callable
from typing import Any

from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole, FloatInput
from burnpy.runtime.autodiff.rules.activation import ActivationRules
from burnpy.runtime.autodiff.rules.conv import ConvRules
from burnpy.runtime.autodiff.rules.elementwise import ElementwiseRules
from burnpy.runtime.autodiff.rules.fft import FftRules
from burnpy.runtime.autodiff.rules.grid_sample import GridSampleRules
from burnpy.runtime.autodiff.rules.indexing import IndexingRules
from burnpy.runtime.autodiff.rules.linear import LinearRules
from burnpy.runtime.autodiff.rules.loss import LossRules
from burnpy.runtime.autodiff.rules.norm import NormRules
from burnpy.runtime.autodiff.rules.order import OrderRules
from burnpy.runtime.autodiff.rules.pool import PoolRules
from burnpy.runtime.autodiff.rules.reduce import ReduceRules
from burnpy.runtime.autodiff.rules.shape import ShapeRules
from burnpy.runtime.autodiff.tensor import AutodiffTensor

FLOAT_FROM_DATA: AutodiffOp[Callable[[Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_from_data", ("data", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_ZEROS: AutodiffOp[Callable[[Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_zeros", ("shape", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_ONES: AutodiffOp[Callable[[Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_ones", ("shape", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_FULL: AutodiffOp[Callable[[Any, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_full", ("shape", "fill_value", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_EMPTY: AutodiffOp[Callable[[Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_empty", ("shape", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_RANDOM: AutodiffOp[Callable[[Any, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_random", ("shape", "distribution", "device", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_ADD: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_add",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} + {rhs}",
    rule=ElementwiseRules.float_add,
)

FLOAT_ADD_SCALAR: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_add_scalar",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} + {rhs}",
    rule=ElementwiseRules.float_add_scalar,
)

FLOAT_SUB: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sub",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} - {rhs}",
    rule=ElementwiseRules.float_sub,
)

FLOAT_SUB_SCALAR: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_sub_scalar",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} - {rhs}",
    rule=ElementwiseRules.float_sub_scalar,
)

FLOAT_MUL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_mul",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} * {rhs}",
    rule=ElementwiseRules.float_mul,
)

FLOAT_MUL_SCALAR: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_mul_scalar",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} * {rhs}",
    rule=ElementwiseRules.float_mul_scalar,
)

FLOAT_DIV: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_div",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} / {rhs}",
    rule=ElementwiseRules.float_div,
)

FLOAT_DIV_SCALAR: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_div_scalar",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{lhs} / {rhs}",
    rule=ElementwiseRules.float_div_scalar,
)

FLOAT_NEG: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_neg",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="-{tensor}",
    rule=ElementwiseRules.float_neg,
)

FLOAT_MATMUL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_matmul",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    rule=ElementwiseRules.float_matmul,
)

FLOAT_DET: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_det",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ElementwiseRules.float_det,
)

FLOAT_REMAINDER: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = (
    AutodiffOp(
        "float_remainder",
        ("lhs", "rhs"),
        (FloatInput("lhs", 0), FloatInput("rhs", 1)),
        AutodiffRole.RECORD,
        memory_bound=True,
        rule=ElementwiseRules.float_remainder,
    )
)

FLOAT_REMAINDER_SCALAR: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_remainder_scalar",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_remainder_scalar,
)

FLOAT_CROSS: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor, Any], AutodiffTensor]] = (
    AutodiffOp(
        "float_cross",
        ("lhs", "rhs", "dim"),
        (FloatInput("lhs", 0), FloatInput("rhs", 1)),
        AutodiffRole.RECORD,
        rule=ElementwiseRules.float_cross,
    )
)

FLOAT_POWF: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_powf",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_powf,
)

FLOAT_POWF_SCALAR_IMPL: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_powf_scalar_impl",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_powf_scalar_impl,
)

FLOAT_POWI: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_powi",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_powi,
)

FLOAT_CLAMP: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_clamp",
    ("tensor", "min", "max"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="clamp_max(clamp_min({tensor}, {min}), {max})",
    rule=ElementwiseRules.float_clamp,
)

FLOAT_CLAMP_MIN: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_clamp_min",
    ("tensor", "min"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="clamp_min({tensor}, {min})",
    rule=ElementwiseRules.float_clamp_min,
)

FLOAT_CLAMP_MAX: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_clamp_max",
    ("tensor", "max"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="clamp_max({tensor}, {max})",
    rule=ElementwiseRules.float_clamp_max,
)

FLOAT_EXP: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_exp",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_exp,
)

FLOAT_SQUARE: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_square",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="{tensor} * {tensor}",
    rule=ElementwiseRules.float_square,
)

FLOAT_LOG: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_log",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_log,
)

FLOAT_SQRT: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sqrt",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_sqrt,
)

FLOAT_ABS: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_abs",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_abs,
)

FLOAT_SIGN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sign",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_sign,
)

FLOAT_TANH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_tanh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="tanh({tensor})",
    rule=ElementwiseRules.float_tanh,
)

FLOAT_LOG1P: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_log1p",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_log1p,
)

FLOAT_RECIP: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_recip",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_recip,
)

FLOAT_SIN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sin",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_sin,
)

FLOAT_COS: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_cos",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_cos,
)

FLOAT_TAN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_tan",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_tan,
)

FLOAT_SINH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sinh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_sinh,
)

FLOAT_COSH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_cosh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_cosh,
)

FLOAT_ASIN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_asin",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_asin,
)

FLOAT_ACOS: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_acos",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_acos,
)

FLOAT_ATAN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_atan",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_atan,
)

FLOAT_ASINH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_asinh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_asinh,
)

FLOAT_ACOSH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_acosh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_acosh,
)

FLOAT_ATANH: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_atanh",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_atanh,
)

FLOAT_ATAN2: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_atan2",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_atan2,
)

FLOAT_HYPOT: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_hypot",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.RECORD,
    rule=ElementwiseRules.float_hypot,
)

FLOAT_ERF: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_erf",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="erf({tensor})",
    rule=ElementwiseRules.float_erf,
)

FLOAT_ROUND: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_round",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_round,
)

FLOAT_FLOOR: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_floor",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_floor,
)

FLOAT_CEIL: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_ceil",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_ceil,
)

FLOAT_TRUNC: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_trunc",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_trunc,
)

FLOAT_ROUND_TO: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_round_to",
    ("tensor", "format", "saturate"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ElementwiseRules.float_round_to,
)

RELU: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "relu",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="relu({tensor})",
    rule=ActivationRules.relu,
)

RELU_BACKWARD: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "relu_backward",
    ("output", "grad"),
    (FloatInput("output", 0), FloatInput("grad", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    c="({output} <= 0 ? 0 : {grad})",
    rule=ActivationRules.relu_backward,
)

LEAKY_RELU: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "leaky_relu",
    ("tensor", "negative_slope"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.leaky_relu,
)

PRELU: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "prelu",
    ("tensor", "alpha"),
    (FloatInput("tensor", 0), FloatInput("alpha", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.prelu,
)

GELU: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "gelu",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    keeps="slope",
    rule=ActivationRules.gelu,
)

GELU_BACKWARD: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "gelu_backward",
    ("x", "grad"),
    (FloatInput("x", 0), FloatInput("grad", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.gelu_backward,
)

GELU_APPROXIMATE: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "gelu_approximate",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    keeps="slope",
    rule=ActivationRules.gelu_approximate,
)

GELU_APPROXIMATE_BACKWARD: AutodiffOp[
    Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]
] = AutodiffOp(
    "gelu_approximate_backward",
    ("x", "grad"),
    (FloatInput("x", 0), FloatInput("grad", 1)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.gelu_approximate_backward,
)

SIGMOID: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "sigmoid",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.sigmoid,
)

SIGMOID_BACKWARD: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = (
    AutodiffOp(
        "sigmoid_backward",
        ("output", "grad"),
        (FloatInput("output", 0), FloatInput("grad", 1)),
        AutodiffRole.RECORD,
        memory_bound=True,
        rule=ActivationRules.sigmoid_backward,
    )
)

LOG_SIGMOID: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "log_sigmoid",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ActivationRules.log_sigmoid,
)

LOG_SIGMOID_BACKWARD: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], AutodiffTensor]] = (
    AutodiffOp(
        "log_sigmoid_backward",
        ("x", "grad"),
        (FloatInput("x", 0), FloatInput("grad", 1)),
        AutodiffRole.RECORD,
        memory_bound=True,
        rule=ActivationRules.log_sigmoid_backward,
    )
)

SOFTMAX: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "softmax",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ActivationRules.softmax,
)

LOG_SOFTMAX: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "log_softmax",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ActivationRules.log_softmax,
)

FLOAT_SUM: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_sum",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_sum,
)

FLOAT_SUM_DIM: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_sum_dim",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_sum_dim,
)

FLOAT_MEAN: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_mean",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_mean,
)

FLOAT_MEAN_DIM: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_mean_dim",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_mean_dim,
)

FLOAT_PROD: AutodiffOp[Callable[[AutodiffTensor], AutodiffTensor]] = AutodiffOp(
    "float_prod",
    ("tensor",),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_prod,
)

FLOAT_PROD_DIM: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_prod_dim",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ReduceRules.float_prod_dim,
)

FLOAT_MAX_DIM_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "float_max_dim_with_indices",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=OrderRules.float_max_dim_with_indices,
)

FLOAT_MIN_DIM_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "float_min_dim_with_indices",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=OrderRules.float_min_dim_with_indices,
)

FLOAT_ARGMAX: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_argmax",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_ARGMIN: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_argmin",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_ANY: AutodiffOp[Callable[[AutodiffTensor], Any]] = AutodiffOp(
    "float_any", ("tensor",), (FloatInput("tensor", 0),), AutodiffRole.FORWARD, float_outputs=()
)

FLOAT_ANY_DIM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_any_dim",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_ALL: AutodiffOp[Callable[[AutodiffTensor], Any]] = AutodiffOp(
    "float_all", ("tensor",), (FloatInput("tensor", 0),), AutodiffRole.FORWARD, float_outputs=()
)

FLOAT_ALL_DIM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_all_dim",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_CUMSUM: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_cumsum",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=OrderRules.float_cumsum,
)

FLOAT_CUMPROD: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_cumprod",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=OrderRules.float_cumprod,
)

FLOAT_CUMMIN: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_cummin",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=OrderRules.float_cummin,
)

FLOAT_CUMMAX: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_cummax",
    ("tensor", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=OrderRules.float_cummax,
)

FLOAT_SORT_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "float_sort_with_indices",
    ("tensor", "dim", "descending"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=OrderRules.float_sort_with_indices,
)

FLOAT_ARGSORT: AutodiffOp[Callable[[AutodiffTensor, Any, Any], Any]] = AutodiffOp(
    "float_argsort",
    ("tensor", "dim", "descending"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_TOPK_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "float_topk_with_indices",
    ("tensor", "k", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=OrderRules.float_topk_with_indices,
)

FLOAT_ARGTOPK: AutodiffOp[Callable[[AutodiffTensor, Any, Any], Any]] = AutodiffOp(
    "float_argtopk",
    ("tensor", "k", "dim"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_RESHAPE: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_reshape",
    ("tensor", "shape"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_reshape,
)

FLOAT_SWAP_DIMS: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_swap_dims",
    ("tensor", "dim1", "dim2"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_swap_dims,
)

FLOAT_PERMUTE: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_permute",
    ("tensor", "axes"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_permute,
)

FLOAT_FLIP: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_flip",
    ("tensor", "axes"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_flip,
)

FLOAT_EXPAND: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_expand",
    ("tensor", "shape"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_expand,
)

FLOAT_REPEAT_DIM: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_repeat_dim",
    ("tensor", "dim", "times"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_repeat_dim,
)

FLOAT_SLICE: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_slice",
    ("tensor", "slices"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=ShapeRules.float_slice,
)

FLOAT_SLICE_ASSIGN: AutodiffOp[Callable[[AutodiffTensor, Any, AutodiffTensor], AutodiffTensor]] = (
    AutodiffOp(
        "float_slice_assign",
        ("tensor", "slices", "value"),
        (FloatInput("tensor", 0), FloatInput("value", 2)),
        AutodiffRole.RECORD,
        memory_bound=True,
        rule=ShapeRules.float_slice_assign,
    )
)

FLOAT_CAT: AutodiffOp[Callable[[list[AutodiffTensor], Any], AutodiffTensor]] = AutodiffOp(
    "float_cat",
    ("tensors", "dim"),
    (FloatInput("tensors", 0, many=True),),
    AutodiffRole.RECORD,
    rule=ShapeRules.float_cat,
)

FLOAT_UNFOLD: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_unfold",
    ("tensor", "dim", "size", "step"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ShapeRules.float_unfold,
)

FLOAT_CAST: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_cast",
    ("tensor", "dtype"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ShapeRules.float_cast,
)

FLOAT_GATHER: AutodiffOp[Callable[[Any, AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_gather",
    ("dim", "tensor", "indices"),
    (FloatInput("tensor", 1),),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_gather,
)

FLOAT_SCATTER: AutodiffOp[
    Callable[[Any, AutodiffTensor, Any, AutodiffTensor, Any], AutodiffTensor]
] = AutodiffOp(
    "float_scatter",
    ("dim", "tensor", "indices", "value", "update"),
    (FloatInput("tensor", 1), FloatInput("value", 3)),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_scatter,
)

FLOAT_SCATTER_ADD: AutodiffOp[
    Callable[[Any, AutodiffTensor, Any, AutodiffTensor], AutodiffTensor]
] = AutodiffOp(
    "float_scatter_add",
    ("dim", "tensor", "indices", "value"),
    (FloatInput("tensor", 1), FloatInput("value", 3)),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_scatter_add,
)

FLOAT_SELECT: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_select",
    ("tensor", "dim", "indices"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=IndexingRules.float_select,
)

FLOAT_SELECT_ASSIGN: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any, AutodiffTensor, Any], AutodiffTensor]
] = AutodiffOp(
    "float_select_assign",
    ("tensor", "dim", "indices", "value", "update"),
    (FloatInput("tensor", 0), FloatInput("value", 3)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=IndexingRules.float_select_assign,
)

FLOAT_SELECT_ADD: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any, AutodiffTensor], AutodiffTensor]
] = AutodiffOp(
    "float_select_add",
    ("tensor", "dim", "indices", "value"),
    (FloatInput("tensor", 0), FloatInput("value", 3)),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=IndexingRules.float_select_add,
)

FLOAT_MASK_WHERE: AutodiffOp[Callable[[AutodiffTensor, Any, AutodiffTensor], AutodiffTensor]] = (
    AutodiffOp(
        "float_mask_where",
        ("tensor", "mask", "value"),
        (FloatInput("tensor", 0), FloatInput("value", 2)),
        AutodiffRole.RECORD,
        rule=IndexingRules.float_mask_where,
    )
)

FLOAT_MASK_FILL: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "float_mask_fill",
    ("tensor", "mask", "value"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_mask_fill,
)

FLOAT_MASK_SELECT: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_mask_select",
    ("tensor", "mask"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=IndexingRules.float_mask_select,
)

FLOAT_GATHER_ND: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_gather_nd",
    ("data", "indices"),
    (FloatInput("data", 0),),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_gather_nd,
)

FLOAT_SCATTER_ND: AutodiffOp[
    Callable[[AutodiffTensor, Any, AutodiffTensor, Any], AutodiffTensor]
] = AutodiffOp(
    "float_scatter_nd",
    ("data", "indices", "values", "reduction"),
    (FloatInput("data", 0), FloatInput("values", 2)),
    AutodiffRole.RECORD,
    rule=IndexingRules.float_scatter_nd,
)

FLOAT_GRID_SAMPLE_2D: AutodiffOp[
    Callable[[AutodiffTensor, AutodiffTensor, Any, Any, Any], AutodiffTensor]
] = AutodiffOp(
    "float_grid_sample_2d",
    ("tensor", "grid", "mode", "padding_mode", "align_corners"),
    (FloatInput("tensor", 0), FloatInput("grid", 1)),
    AutodiffRole.RECORD,
    rule=GridSampleRules.float_grid_sample_2d,
)

FLOAT_EQUAL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_equal",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_EQUAL_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_equal_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_NOT_EQUAL_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_not_equal_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_GREATER: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_greater",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_GREATER_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_greater_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_LOWER: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_lower",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_LOWER_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_lower_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_NOT_EQUAL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_not_equal",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_GREATER_EQUAL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_greater_equal",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_GREATER_EQUAL_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_greater_equal_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_LOWER_EQUAL: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor], Any]] = AutodiffOp(
    "float_lower_equal",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0), FloatInput("rhs", 1)),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_LOWER_EQUAL_ELEM: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_lower_equal_elem",
    ("lhs", "rhs"),
    (FloatInput("lhs", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_IS_NAN: AutodiffOp[Callable[[AutodiffTensor], Any]] = AutodiffOp(
    "float_is_nan", ("tensor",), (FloatInput("tensor", 0),), AutodiffRole.FORWARD, float_outputs=()
)

FLOAT_IS_INF: AutodiffOp[Callable[[AutodiffTensor], Any]] = AutodiffOp(
    "float_is_inf", ("tensor",), (FloatInput("tensor", 0),), AutodiffRole.FORWARD, float_outputs=()
)

FLOAT_INTO_INT: AutodiffOp[Callable[[AutodiffTensor, Any], Any]] = AutodiffOp(
    "float_into_int",
    ("tensor", "dtype"),
    (FloatInput("tensor", 0),),
    AutodiffRole.FORWARD,
    float_outputs=(),
)

FLOAT_BITCAST: AutodiffOp[Callable[[AutodiffTensor], Any]] = AutodiffOp(
    "float_bitcast", ("tensor",), (FloatInput("tensor", 0),), AutodiffRole.FORWARD, float_outputs=()
)

INT_INTO_FLOAT: AutodiffOp[Callable[[Any, Any], AutodiffTensor]] = AutodiffOp(
    "int_into_float", ("tensor", "dtype"), (), AutodiffRole.LEAF
)

BOOL_INTO_FLOAT: AutodiffOp[Callable[[Any, Any], AutodiffTensor]] = AutodiffOp(
    "bool_into_float", ("tensor", "dtype"), (), AutodiffRole.LEAF
)

FLOAT_TO_DEVICE: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "float_to_device",
    ("tensor", "device"),
    (FloatInput("tensor", 0),),
    AutodiffRole.RECORD,
    rule=ShapeRules.float_to_device,
)

EMBEDDING: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "embedding",
    ("weights", "indices"),
    (FloatInput("weights", 0),),
    AutodiffRole.RECORD,
    memory_bound=True,
    rule=LinearRules.embedding,
)

LINEAR: AutodiffOp[
    Callable[[AutodiffTensor, AutodiffTensor, AutodiffTensor | None], AutodiffTensor]
] = AutodiffOp(
    "linear",
    ("input", "weight", "bias"),
    (FloatInput("input", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=LinearRules.linear,
)

CONV1D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv1d",
    ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv1d,
)

CONV2D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv2d",
    ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv2d,
)

CONV3D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv3d",
    ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv3d,
)

CONV_TRANSPOSE1D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv_transpose1d",
    ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv_transpose1d,
)

CONV_TRANSPOSE2D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv_transpose2d",
    ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv_transpose2d,
)

CONV_TRANSPOSE3D: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "conv_transpose3d",
    ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
    (FloatInput("x", 0), FloatInput("weight", 1), FloatInput("bias", 2, optional=True)),
    AutodiffRole.RECORD,
    rule=ConvRules.conv_transpose3d,
)

UNFOLD4D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "unfold4d",
    ("x", "kernel_size", "stride", "padding", "dilation"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    rule=ConvRules.unfold4d,
)

FOLD4D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "fold4d",
        ("x", "output_size", "kernel_size", "stride", "padding", "dilation"),
        (FloatInput("x", 0),),
        AutodiffRole.RECORD,
        rule=ConvRules.fold4d,
    )
)

MAX_POOL1D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "max_pool1d",
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        (FloatInput("x", 0),),
        AutodiffRole.RECORD,
        keeps="argmax",
        rule=PoolRules.max_pool1d,
    )
)

MAX_POOL1D_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any, Any, Any, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "max_pool1d_with_indices",
    ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=PoolRules.max_pool1d_with_indices,
)

MAX_POOL2D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "max_pool2d",
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        (FloatInput("x", 0),),
        AutodiffRole.RECORD,
        keeps="argmax",
        rule=PoolRules.max_pool2d,
    )
)

MAX_POOL2D_WITH_INDICES: AutodiffOp[
    Callable[[AutodiffTensor, Any, Any, Any, Any, Any], tuple[AutodiffTensor, Any]]
] = AutodiffOp(
    "max_pool2d_with_indices",
    ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    outputs=2,
    rule=PoolRules.max_pool2d_with_indices,
)

AVG_POOL1D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "avg_pool1d",
        ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        (FloatInput("x", 0),),
        AutodiffRole.RECORD,
        rule=PoolRules.avg_pool1d,
    )
)

AVG_POOL2D: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "avg_pool2d",
        ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        (FloatInput("x", 0),),
        AutodiffRole.RECORD,
        rule=PoolRules.avg_pool2d,
    )
)

ADAPTIVE_AVG_POOL1D: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "adaptive_avg_pool1d",
    ("x", "output_size"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    rule=PoolRules.adaptive_avg_pool1d,
)

ADAPTIVE_AVG_POOL2D: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "adaptive_avg_pool2d",
    ("x", "output_size"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    rule=PoolRules.adaptive_avg_pool2d,
)

ADAPTIVE_AVG_POOL3D: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "adaptive_avg_pool3d",
    ("x", "output_size"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    rule=PoolRules.adaptive_avg_pool3d,
)

INTERPOLATE: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "interpolate",
    ("x", "output_size", "mode", "align_corners"),
    (FloatInput("x", 0),),
    AutodiffRole.RECORD,
    rule=PoolRules.interpolate,
)

ATTENTION: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor, Any, AutodiffTensor | None, Any, Any, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "attention",
    ("query", "key", "value", "mask", "attn_bias", "scale", "softcap", "is_causal"),
    (
        FloatInput("query", 0),
        FloatInput("key", 1),
        FloatInput("value", 2),
        FloatInput("attn_bias", 4, optional=True),
    ),
    AutodiffRole.RECORD,
    keeps="probabilities",
    rule=LinearRules.attention,
)

BATCH_NORM: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor, AutodiffTensor, AutodiffTensor, Any],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "batch_norm",
    ("input", "gamma", "beta", "mean", "variance", "epsilon"),
    (
        FloatInput("input", 0),
        FloatInput("gamma", 1),
        FloatInput("beta", 2),
        FloatInput("mean", 3),
        FloatInput("variance", 4),
    ),
    AutodiffRole.RECORD,
    rule=NormRules.batch_norm,
)

BATCH_NORM_TRAINING: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor, Any],
        tuple[AutodiffTensor, AutodiffTensor, AutodiffTensor],
    ]
] = AutodiffOp(
    "batch_norm_training",
    ("input", "gamma", "beta", "epsilon"),
    (FloatInput("input", 0), FloatInput("gamma", 1), FloatInput("beta", 2)),
    AutodiffRole.RECORD,
    float_outputs=(0, 1, 2),
    outputs=3,
    rule=NormRules.batch_norm_training,
)

LAYER_NORM: AutodiffOp[
    Callable[[AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any], AutodiffTensor]
] = AutodiffOp(
    "layer_norm",
    ("input", "gamma", "beta", "epsilon"),
    (FloatInput("input", 0), FloatInput("gamma", 1), FloatInput("beta", 2, optional=True)),
    AutodiffRole.RECORD,
    keeps="statistics",
    rule=NormRules.layer_norm,
)

RMS_NORM: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "rms_norm",
    ("input", "gamma", "epsilon"),
    (FloatInput("input", 0), FloatInput("gamma", 1)),
    AutodiffRole.RECORD,
    keeps="inverse_rms",
    rule=NormRules.rms_norm,
)

CTC_LOSS: AutodiffOp[Callable[[AutodiffTensor, Any, Any, Any, Any], AutodiffTensor]] = AutodiffOp(
    "ctc_loss",
    ("log_probs", "targets", "input_lengths", "target_lengths", "blank"),
    (FloatInput("log_probs", 0),),
    AutodiffRole.RECORD,
    rule=LossRules.ctc_loss,
)

CROSS_ENTROPY_CLASS_TARGETS: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = (
    AutodiffOp(
        "cross_entropy_class_targets",
        ("logits", "targets"),
        (FloatInput("logits", 0),),
        AutodiffRole.RECORD,
        keeps="probabilities",
        rule=LossRules.cross_entropy_class_targets,
    )
)

RFFT: AutodiffOp[Callable[[AutodiffTensor, Any, Any], tuple[AutodiffTensor, AutodiffTensor]]] = (
    AutodiffOp(
        "rfft",
        ("signal", "dim", "n"),
        (FloatInput("signal", 0),),
        AutodiffRole.RECORD,
        float_outputs=(0, 1),
        outputs=2,
        rule=FftRules.rfft,
    )
)

IRFFT: AutodiffOp[Callable[[AutodiffTensor, AutodiffTensor, Any, Any], AutodiffTensor]] = (
    AutodiffOp(
        "irfft",
        ("spectrum_re", "spectrum_im", "dim", "n"),
        (FloatInput("spectrum_re", 0), FloatInput("spectrum_im", 1)),
        AutodiffRole.RECORD,
        rule=FftRules.irfft,
    )
)

FFT: AutodiffOp[Callable[[AutodiffTensor, Any, Any], AutodiffTensor]] = AutodiffOp(
    "fft",
    ("signal", "dim", "inverse"),
    (FloatInput("signal", 0),),
    AutodiffRole.RECORD,
    rule=FftRules.fft,
)

DEFORM_CONV2D: AutodiffOp[
    Callable[
        [
            AutodiffTensor,
            AutodiffTensor,
            AutodiffTensor,
            AutodiffTensor | None,
            AutodiffTensor | None,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        AutodiffTensor,
    ]
] = AutodiffOp(
    "deform_conv2d",
    (
        "x",
        "offset",
        "weight",
        "mask",
        "bias",
        "stride",
        "padding",
        "dilation",
        "weight_groups",
        "offset_groups",
    ),
    (
        FloatInput("x", 0),
        FloatInput("offset", 1),
        FloatInput("weight", 2),
        FloatInput("mask", 3, optional=True),
        FloatInput("bias", 4, optional=True),
    ),
    AutodiffRole.RECORD,
    rule=ConvRules.deform_conv2d,
)

ADAM_STEP: AutodiffOp[
    Callable[
        [
            AutodiffTensor,
            AutodiffTensor,
            AutodiffTensor | None,
            AutodiffTensor | None,
            AutodiffTensor | None,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        tuple[AutodiffTensor, AutodiffTensor, AutodiffTensor, AutodiffTensor],
    ]
] = AutodiffOp(
    "adam_step",
    (
        "param",
        "grad",
        "moment_1",
        "moment_2",
        "max_moment_2",
        "lr",
        "beta_1",
        "beta_2",
        "epsilon",
        "weight_decay",
        "bias_correction_1",
        "bias_correction_2",
        "decoupled",
        "cautious",
        "amsgrad",
        "in_place",
    ),
    (
        FloatInput("param", 0),
        FloatInput("grad", 1),
        FloatInput("moment_1", 2, optional=True),
        FloatInput("moment_2", 3, optional=True),
        FloatInput("max_moment_2", 4, optional=True),
    ),
    AutodiffRole.UNTRACKED,
    float_outputs=(0, 1, 2, 3),
    outputs=4,
)

CLIP_BY_NORM: AutodiffOp[Callable[[AutodiffTensor, Any], AutodiffTensor]] = AutodiffOp(
    "clip_by_norm", ("grad", "threshold"), (FloatInput("grad", 0),), AutodiffRole.UNTRACKED
)

SGD_STEP: AutodiffOp[
    Callable[
        [AutodiffTensor, AutodiffTensor, AutodiffTensor | None, Any, Any, Any, Any, Any, Any],
        tuple[AutodiffTensor, AutodiffTensor],
    ]
] = AutodiffOp(
    "sgd_step",
    (
        "param",
        "grad",
        "velocity",
        "lr",
        "momentum",
        "dampening",
        "weight_decay",
        "nesterov",
        "in_place",
    ),
    (FloatInput("param", 0), FloatInput("grad", 1), FloatInput("velocity", 2, optional=True)),
    AutodiffRole.UNTRACKED,
    float_outputs=(0, 1),
    outputs=2,
)

RMSPROP_STEP: AutodiffOp[
    Callable[
        [
            AutodiffTensor,
            AutodiffTensor,
            AutodiffTensor | None,
            AutodiffTensor | None,
            AutodiffTensor | None,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
            Any,
        ],
        tuple[AutodiffTensor, AutodiffTensor, AutodiffTensor, AutodiffTensor],
    ]
] = AutodiffOp(
    "rmsprop_step",
    (
        "param",
        "grad",
        "square_avg",
        "grad_avg",
        "buffer",
        "lr",
        "alpha",
        "epsilon",
        "weight_decay",
        "momentum",
        "centered",
        "in_place",
    ),
    (
        FloatInput("param", 0),
        FloatInput("grad", 1),
        FloatInput("square_avg", 2, optional=True),
        FloatInput("grad_avg", 3, optional=True),
        FloatInput("buffer", 4, optional=True),
    ),
    AutodiffRole.UNTRACKED,
    float_outputs=(0, 1, 2, 3),
    outputs=4,
)

AUTODIFF_OPS = (
    FLOAT_FROM_DATA,
    FLOAT_ZEROS,
    FLOAT_ONES,
    FLOAT_FULL,
    FLOAT_EMPTY,
    FLOAT_RANDOM,
    FLOAT_ADD,
    FLOAT_ADD_SCALAR,
    FLOAT_SUB,
    FLOAT_SUB_SCALAR,
    FLOAT_MUL,
    FLOAT_MUL_SCALAR,
    FLOAT_DIV,
    FLOAT_DIV_SCALAR,
    FLOAT_NEG,
    FLOAT_MATMUL,
    FLOAT_DET,
    FLOAT_REMAINDER,
    FLOAT_REMAINDER_SCALAR,
    FLOAT_CROSS,
    FLOAT_POWF,
    FLOAT_POWF_SCALAR_IMPL,
    FLOAT_POWI,
    FLOAT_CLAMP,
    FLOAT_CLAMP_MIN,
    FLOAT_CLAMP_MAX,
    FLOAT_EXP,
    FLOAT_SQUARE,
    FLOAT_LOG,
    FLOAT_SQRT,
    FLOAT_ABS,
    FLOAT_SIGN,
    FLOAT_TANH,
    FLOAT_LOG1P,
    FLOAT_RECIP,
    FLOAT_SIN,
    FLOAT_COS,
    FLOAT_TAN,
    FLOAT_SINH,
    FLOAT_COSH,
    FLOAT_ASIN,
    FLOAT_ACOS,
    FLOAT_ATAN,
    FLOAT_ASINH,
    FLOAT_ACOSH,
    FLOAT_ATANH,
    FLOAT_ATAN2,
    FLOAT_HYPOT,
    FLOAT_ERF,
    FLOAT_ROUND,
    FLOAT_FLOOR,
    FLOAT_CEIL,
    FLOAT_TRUNC,
    FLOAT_ROUND_TO,
    RELU,
    RELU_BACKWARD,
    LEAKY_RELU,
    PRELU,
    GELU,
    GELU_BACKWARD,
    GELU_APPROXIMATE,
    GELU_APPROXIMATE_BACKWARD,
    SIGMOID,
    SIGMOID_BACKWARD,
    LOG_SIGMOID,
    LOG_SIGMOID_BACKWARD,
    SOFTMAX,
    LOG_SOFTMAX,
    FLOAT_SUM,
    FLOAT_SUM_DIM,
    FLOAT_MEAN,
    FLOAT_MEAN_DIM,
    FLOAT_PROD,
    FLOAT_PROD_DIM,
    FLOAT_MAX_DIM_WITH_INDICES,
    FLOAT_MIN_DIM_WITH_INDICES,
    FLOAT_ARGMAX,
    FLOAT_ARGMIN,
    FLOAT_ANY,
    FLOAT_ANY_DIM,
    FLOAT_ALL,
    FLOAT_ALL_DIM,
    FLOAT_CUMSUM,
    FLOAT_CUMPROD,
    FLOAT_CUMMIN,
    FLOAT_CUMMAX,
    FLOAT_SORT_WITH_INDICES,
    FLOAT_ARGSORT,
    FLOAT_TOPK_WITH_INDICES,
    FLOAT_ARGTOPK,
    FLOAT_RESHAPE,
    FLOAT_SWAP_DIMS,
    FLOAT_PERMUTE,
    FLOAT_FLIP,
    FLOAT_EXPAND,
    FLOAT_REPEAT_DIM,
    FLOAT_SLICE,
    FLOAT_SLICE_ASSIGN,
    FLOAT_CAT,
    FLOAT_UNFOLD,
    FLOAT_CAST,
    FLOAT_GATHER,
    FLOAT_SCATTER,
    FLOAT_SCATTER_ADD,
    FLOAT_SELECT,
    FLOAT_SELECT_ASSIGN,
    FLOAT_SELECT_ADD,
    FLOAT_MASK_WHERE,
    FLOAT_MASK_FILL,
    FLOAT_MASK_SELECT,
    FLOAT_GATHER_ND,
    FLOAT_SCATTER_ND,
    FLOAT_GRID_SAMPLE_2D,
    FLOAT_EQUAL,
    FLOAT_EQUAL_ELEM,
    FLOAT_NOT_EQUAL_ELEM,
    FLOAT_GREATER,
    FLOAT_GREATER_ELEM,
    FLOAT_LOWER,
    FLOAT_LOWER_ELEM,
    FLOAT_NOT_EQUAL,
    FLOAT_GREATER_EQUAL,
    FLOAT_GREATER_EQUAL_ELEM,
    FLOAT_LOWER_EQUAL,
    FLOAT_LOWER_EQUAL_ELEM,
    FLOAT_IS_NAN,
    FLOAT_IS_INF,
    FLOAT_INTO_INT,
    FLOAT_BITCAST,
    INT_INTO_FLOAT,
    BOOL_INTO_FLOAT,
    FLOAT_TO_DEVICE,
    EMBEDDING,
    LINEAR,
    CONV1D,
    CONV2D,
    CONV3D,
    CONV_TRANSPOSE1D,
    CONV_TRANSPOSE2D,
    CONV_TRANSPOSE3D,
    UNFOLD4D,
    FOLD4D,
    MAX_POOL1D,
    MAX_POOL1D_WITH_INDICES,
    MAX_POOL2D,
    MAX_POOL2D_WITH_INDICES,
    AVG_POOL1D,
    AVG_POOL2D,
    ADAPTIVE_AVG_POOL1D,
    ADAPTIVE_AVG_POOL2D,
    ADAPTIVE_AVG_POOL3D,
    INTERPOLATE,
    ATTENTION,
    BATCH_NORM,
    BATCH_NORM_TRAINING,
    LAYER_NORM,
    RMS_NORM,
    CTC_LOSS,
    CROSS_ENTROPY_CLASS_TARGETS,
    RFFT,
    IRFFT,
    FFT,
    DEFORM_CONV2D,
    ADAM_STEP,
    CLIP_BY_NORM,
    SGD_STEP,
    RMSPROP_STEP,
)
