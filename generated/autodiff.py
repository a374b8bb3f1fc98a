# @generated from ops.yaml by `python -m codegen`; do not edit. render=2467a4afd4396e0a body=274ed76ace356b11
"""The Autodiff decorator's specialization, `Autodiff[inner, strategy]`: one attribute per float
op of ops.yaml, bound by name when a specialization is built (runtime/routing.py builds two per
backend, NoCheckpointing and Balanced). A differentiable op's is its recorder
(generated/recorders.py); a creation's makes a new untracked leaf; an op with no float result
runs on the inner primitives (runtime/autodiff/backend.py's builders).
"""

from burnpy.generated import catalogue as ops
from burnpy.generated import recorders
from burnpy.runtime.autodiff.backend import AutodiffDecorator
from burnpy.runtime.autodiff.ops import MOVE_ACROSS


class Autodiff(AutodiffDecorator):
    def __init__(self, inner, strategy) -> None:  # (annotated: a type checker reads its attributes)
        super().__init__(inner, strategy)
        self.float_from_data = self.leaf(ops.FLOAT_FROM_DATA)
        self.float_zeros = self.leaf(ops.FLOAT_ZEROS)
        self.float_ones = self.leaf(ops.FLOAT_ONES)
        self.float_full = self.leaf(ops.FLOAT_FULL)
        self.float_empty = self.leaf(ops.FLOAT_EMPTY)
        self.float_random = self.leaf(ops.FLOAT_RANDOM)
        self.float_add = self.recorded(ops.FLOAT_ADD, recorders.record_float_add, ())
        self.float_add_scalar = self.recorded(
            ops.FLOAT_ADD_SCALAR, recorders.record_float_add_scalar, ()
        )
        self.float_sub = self.recorded(ops.FLOAT_SUB, recorders.record_float_sub, ())
        self.float_sub_scalar = self.recorded(
            ops.FLOAT_SUB_SCALAR, recorders.record_float_sub_scalar, ()
        )
        self.float_mul = self.recorded(ops.FLOAT_MUL, recorders.record_float_mul, ("rhs", "lhs"))
        self.float_mul_scalar = self.recorded(
            ops.FLOAT_MUL_SCALAR, recorders.record_float_mul_scalar, ("rhs",)
        )
        self.float_div = self.recorded(ops.FLOAT_DIV, recorders.record_float_div, ("rhs", "lhs"))
        self.float_div_scalar = self.recorded(
            ops.FLOAT_DIV_SCALAR, recorders.record_float_div_scalar, ("rhs",)
        )
        self.float_neg = self.recorded(ops.FLOAT_NEG, recorders.record_float_neg, ())
        self.float_matmul = self.recorded(
            ops.FLOAT_MATMUL, recorders.record_float_matmul, ("rhs", "lhs", "rhs_shape")
        )
        self.float_det = self.recorded(ops.FLOAT_DET, recorders.record_float_det, ("tensor", "out"))
        self.float_remainder = self.recorded(
            ops.FLOAT_REMAINDER, recorders.record_float_remainder, ("lhs", "rhs")
        )
        self.float_remainder_scalar = self.recorded(
            ops.FLOAT_REMAINDER_SCALAR, recorders.record_float_remainder_scalar, ()
        )
        self.float_cross = self.recorded(
            ops.FLOAT_CROSS, recorders.record_float_cross, ("rhs", "dim", "lhs")
        )
        self.float_powf = self.recorded(
            ops.FLOAT_POWF, recorders.record_float_powf, ("lhs", "rhs", "out")
        )
        self.float_powf_scalar_impl = self.recorded(
            ops.FLOAT_POWF_SCALAR_IMPL, recorders.record_float_powf_scalar_impl, ("lhs", "rhs")
        )
        self.float_powi = self.recorded(
            ops.FLOAT_POWI, recorders.record_float_powi, ("lhs", "rhs", "lhs_dtype")
        )
        self.float_clamp = self.recorded(
            ops.FLOAT_CLAMP, recorders.record_float_clamp, ("tensor", "min", "max")
        )
        self.float_clamp_min = self.recorded(
            ops.FLOAT_CLAMP_MIN, recorders.record_float_clamp_min, ("tensor", "min")
        )
        self.float_clamp_max = self.recorded(
            ops.FLOAT_CLAMP_MAX, recorders.record_float_clamp_max, ("tensor", "max")
        )
        self.float_exp = self.recorded(ops.FLOAT_EXP, recorders.record_float_exp, ("out",))
        self.float_square = self.recorded(
            ops.FLOAT_SQUARE, recorders.record_float_square, ("tensor",)
        )
        self.float_log = self.recorded(ops.FLOAT_LOG, recorders.record_float_log, ("tensor",))
        self.float_sqrt = self.recorded(ops.FLOAT_SQRT, recorders.record_float_sqrt, ("out",))
        self.float_abs = self.recorded(ops.FLOAT_ABS, recorders.record_float_abs, ("tensor",))
        self.float_sign = self.recorded(ops.FLOAT_SIGN, recorders.record_float_sign, ())
        self.float_tanh = self.recorded(ops.FLOAT_TANH, recorders.record_float_tanh, ("out",))
        self.float_log1p = self.recorded(ops.FLOAT_LOG1P, recorders.record_float_log1p, ("tensor",))
        self.float_recip = self.recorded(ops.FLOAT_RECIP, recorders.record_float_recip, ("out",))
        self.float_sin = self.recorded(ops.FLOAT_SIN, recorders.record_float_sin, ("tensor",))
        self.float_cos = self.recorded(ops.FLOAT_COS, recorders.record_float_cos, ("tensor",))
        self.float_tan = self.recorded(ops.FLOAT_TAN, recorders.record_float_tan, ("out",))
        self.float_sinh = self.recorded(ops.FLOAT_SINH, recorders.record_float_sinh, ("tensor",))
        self.float_cosh = self.recorded(ops.FLOAT_COSH, recorders.record_float_cosh, ("tensor",))
        self.float_asin = self.recorded(ops.FLOAT_ASIN, recorders.record_float_asin, ("tensor",))
        self.float_acos = self.recorded(ops.FLOAT_ACOS, recorders.record_float_acos, ("tensor",))
        self.float_atan = self.recorded(ops.FLOAT_ATAN, recorders.record_float_atan, ("tensor",))
        self.float_asinh = self.recorded(ops.FLOAT_ASINH, recorders.record_float_asinh, ("tensor",))
        self.float_acosh = self.recorded(ops.FLOAT_ACOSH, recorders.record_float_acosh, ("tensor",))
        self.float_atanh = self.recorded(ops.FLOAT_ATANH, recorders.record_float_atanh, ("tensor",))
        self.float_atan2 = self.recorded(
            ops.FLOAT_ATAN2, recorders.record_float_atan2, ("lhs", "rhs")
        )
        self.float_hypot = self.recorded(
            ops.FLOAT_HYPOT, recorders.record_float_hypot, ("lhs", "out", "rhs")
        )
        self.float_erf = self.recorded(ops.FLOAT_ERF, recorders.record_float_erf, ("tensor",))
        self.float_round = self.recorded(
            ops.FLOAT_ROUND,
            recorders.record_float_round,
            ("tensor_shape", "tensor_device", "tensor_dtype"),
        )
        self.float_floor = self.recorded(
            ops.FLOAT_FLOOR,
            recorders.record_float_floor,
            ("tensor_shape", "tensor_device", "tensor_dtype"),
        )
        self.float_ceil = self.recorded(
            ops.FLOAT_CEIL,
            recorders.record_float_ceil,
            ("tensor_shape", "tensor_device", "tensor_dtype"),
        )
        self.float_trunc = self.recorded(
            ops.FLOAT_TRUNC,
            recorders.record_float_trunc,
            ("tensor_shape", "tensor_device", "tensor_dtype"),
        )
        self.float_round_to = self.recorded(
            ops.FLOAT_ROUND_TO,
            recorders.record_float_round_to,
            ("tensor_shape", "tensor_device", "tensor_dtype"),
        )
        self.relu = self.recorded(ops.RELU, recorders.record_relu, ("out",))
        self.relu_backward = self.recorded(
            ops.RELU_BACKWARD, recorders.record_relu_backward, ("output",)
        )
        self.leaky_relu = self.recorded(
            ops.LEAKY_RELU, recorders.record_leaky_relu, ("tensor", "negative_slope")
        )
        self.prelu = self.recorded(ops.PRELU, recorders.record_prelu, ("tensor", "alpha"))
        self.gelu = self.recorded(ops.GELU, recorders.record_gelu, ("tensor", "slope"))
        self.gelu_backward = self.recorded(
            ops.GELU_BACKWARD, recorders.record_gelu_backward, ("x", "grad")
        )
        self.gelu_approximate = self.recorded(
            ops.GELU_APPROXIMATE, recorders.record_gelu_approximate, ("tensor", "slope")
        )
        self.gelu_approximate_backward = self.recorded(
            ops.GELU_APPROXIMATE_BACKWARD, recorders.record_gelu_approximate_backward, ("x", "grad")
        )
        self.sigmoid = self.recorded(ops.SIGMOID, recorders.record_sigmoid, ("out",))
        self.sigmoid_backward = self.recorded(
            ops.SIGMOID_BACKWARD, recorders.record_sigmoid_backward, ("output", "grad")
        )
        self.log_sigmoid = self.recorded(ops.LOG_SIGMOID, recorders.record_log_sigmoid, ("tensor",))
        self.log_sigmoid_backward = self.recorded(
            ops.LOG_SIGMOID_BACKWARD, recorders.record_log_sigmoid_backward, ("x", "grad")
        )
        self.softmax = self.recorded(ops.SOFTMAX, recorders.record_softmax, ("out", "dim"))
        self.log_softmax = self.recorded(
            ops.LOG_SOFTMAX, recorders.record_log_softmax, ("out", "dim")
        )
        self.float_sum = self.recorded(ops.FLOAT_SUM, recorders.record_float_sum, ("tensor_shape",))
        self.float_sum_dim = self.recorded(
            ops.FLOAT_SUM_DIM, recorders.record_float_sum_dim, ("tensor_shape",)
        )
        self.float_mean = self.recorded(
            ops.FLOAT_MEAN, recorders.record_float_mean, ("tensor_shape",)
        )
        self.float_mean_dim = self.recorded(
            ops.FLOAT_MEAN_DIM, recorders.record_float_mean_dim, ("tensor_shape", "dim")
        )
        self.float_prod = self.recorded(ops.FLOAT_PROD, recorders.record_float_prod, ("tensor",))
        self.float_prod_dim = self.recorded(
            ops.FLOAT_PROD_DIM, recorders.record_float_prod_dim, ("tensor", "dim")
        )
        self.float_max_dim_with_indices = self.recorded(
            ops.FLOAT_MAX_DIM_WITH_INDICES,
            recorders.record_float_max_dim_with_indices,
            ("tensor_shape", "dim", "indices"),
        )
        self.float_min_dim_with_indices = self.recorded(
            ops.FLOAT_MIN_DIM_WITH_INDICES,
            recorders.record_float_min_dim_with_indices,
            ("tensor_shape", "dim", "indices"),
        )
        self.float_argmax = self.forward_only(ops.FLOAT_ARGMAX)
        self.float_argmin = self.forward_only(ops.FLOAT_ARGMIN)
        self.float_any = self.forward_only(ops.FLOAT_ANY)
        self.float_any_dim = self.forward_only(ops.FLOAT_ANY_DIM)
        self.float_all = self.forward_only(ops.FLOAT_ALL)
        self.float_all_dim = self.forward_only(ops.FLOAT_ALL_DIM)
        self.float_cumsum = self.recorded(ops.FLOAT_CUMSUM, recorders.record_float_cumsum, ("dim",))
        self.float_cumprod = self.recorded(
            ops.FLOAT_CUMPROD, recorders.record_float_cumprod, ("tensor", "out", "dim")
        )
        self.float_cummin = self.recorded(
            ops.FLOAT_CUMMIN, recorders.record_float_cummin, ("tensor", "out", "dim")
        )
        self.float_cummax = self.recorded(
            ops.FLOAT_CUMMAX, recorders.record_float_cummax, ("tensor", "out", "dim")
        )
        self.float_sort_with_indices = self.recorded(
            ops.FLOAT_SORT_WITH_INDICES,
            recorders.record_float_sort_with_indices,
            ("tensor_shape", "dim", "indices"),
        )
        self.float_argsort = self.forward_only(ops.FLOAT_ARGSORT)
        self.float_topk_with_indices = self.recorded(
            ops.FLOAT_TOPK_WITH_INDICES,
            recorders.record_float_topk_with_indices,
            ("tensor_shape", "dim", "indices"),
        )
        self.float_argtopk = self.forward_only(ops.FLOAT_ARGTOPK)
        self.float_reshape = self.recorded(
            ops.FLOAT_RESHAPE, recorders.record_float_reshape, ("tensor_shape",)
        )
        self.float_swap_dims = self.recorded(
            ops.FLOAT_SWAP_DIMS, recorders.record_float_swap_dims, ("dim1", "dim2")
        )
        self.float_permute = self.recorded(
            ops.FLOAT_PERMUTE, recorders.record_float_permute, ("axes",)
        )
        self.float_flip = self.recorded(ops.FLOAT_FLIP, recorders.record_float_flip, ("axes",))
        self.float_expand = self.recorded(ops.FLOAT_EXPAND, recorders.record_float_expand, ())
        self.float_repeat_dim = self.recorded(
            ops.FLOAT_REPEAT_DIM,
            recorders.record_float_repeat_dim,
            ("dim", "times", "tensor_shape"),
        )
        self.float_slice = self.recorded(
            ops.FLOAT_SLICE, recorders.record_float_slice, ("slices", "tensor_shape")
        )
        self.float_slice_assign = self.recorded(
            ops.FLOAT_SLICE_ASSIGN, recorders.record_float_slice_assign, ("slices", "value_shape")
        )
        self.float_cat = self.recorded(
            ops.FLOAT_CAT, recorders.record_float_cat, ("dim", "tensors_shape")
        )
        self.float_unfold = self.recorded(
            ops.FLOAT_UNFOLD, recorders.record_float_unfold, ("dim", "size", "step", "tensor_shape")
        )
        self.float_cast = self.recorded(
            ops.FLOAT_CAST, recorders.record_float_cast, ("tensor_dtype",)
        )
        self.float_gather = self.recorded(
            ops.FLOAT_GATHER, recorders.record_float_gather, ("dim", "indices", "tensor_shape")
        )
        self.float_scatter = self.recorded(
            ops.FLOAT_SCATTER,
            recorders.record_float_scatter,
            ("dim", "indices", "value_shape", "update"),
        )
        self.float_scatter_add = self.recorded(
            ops.FLOAT_SCATTER_ADD, recorders.record_float_scatter_add, ("dim", "indices")
        )
        self.float_select = self.recorded(
            ops.FLOAT_SELECT, recorders.record_float_select, ("dim", "indices", "tensor_shape")
        )
        self.float_select_assign = self.recorded(
            ops.FLOAT_SELECT_ASSIGN,
            recorders.record_float_select_assign,
            ("dim", "indices", "value_shape", "update"),
        )
        self.float_select_add = self.recorded(
            ops.FLOAT_SELECT_ADD, recorders.record_float_select_add, ("dim", "indices")
        )
        self.float_mask_where = self.recorded(
            ops.FLOAT_MASK_WHERE, recorders.record_float_mask_where, ("mask",)
        )
        self.float_mask_fill = self.recorded(
            ops.FLOAT_MASK_FILL, recorders.record_float_mask_fill, ("mask",)
        )
        self.float_mask_select = self.recorded(
            ops.FLOAT_MASK_SELECT, recorders.record_float_mask_select, ("mask", "tensor_shape")
        )
        self.float_gather_nd = self.recorded(
            ops.FLOAT_GATHER_ND, recorders.record_float_gather_nd, ("indices", "data_shape")
        )
        self.float_scatter_nd = self.recorded(
            ops.FLOAT_SCATTER_ND,
            recorders.record_float_scatter_nd,
            ("data", "indices", "values", "reduction"),
        )
        self.float_grid_sample_2d = self.recorded(
            ops.FLOAT_GRID_SAMPLE_2D,
            recorders.record_float_grid_sample_2d,
            ("tensor_shape", "grid", "mode", "padding_mode", "align_corners", "tensor"),
        )
        self.float_equal = self.forward_only(ops.FLOAT_EQUAL)
        self.float_equal_elem = self.forward_only(ops.FLOAT_EQUAL_ELEM)
        self.float_not_equal_elem = self.forward_only(ops.FLOAT_NOT_EQUAL_ELEM)
        self.float_greater = self.forward_only(ops.FLOAT_GREATER)
        self.float_greater_elem = self.forward_only(ops.FLOAT_GREATER_ELEM)
        self.float_lower = self.forward_only(ops.FLOAT_LOWER)
        self.float_lower_elem = self.forward_only(ops.FLOAT_LOWER_ELEM)
        self.float_not_equal = self.forward_only(ops.FLOAT_NOT_EQUAL)
        self.float_greater_equal = self.forward_only(ops.FLOAT_GREATER_EQUAL)
        self.float_greater_equal_elem = self.forward_only(ops.FLOAT_GREATER_EQUAL_ELEM)
        self.float_lower_equal = self.forward_only(ops.FLOAT_LOWER_EQUAL)
        self.float_lower_equal_elem = self.forward_only(ops.FLOAT_LOWER_EQUAL_ELEM)
        self.float_is_nan = self.forward_only(ops.FLOAT_IS_NAN)
        self.float_is_inf = self.forward_only(ops.FLOAT_IS_INF)
        self.float_into_int = self.forward_only(ops.FLOAT_INTO_INT)
        self.float_bitcast = self.forward_only(ops.FLOAT_BITCAST)
        self.int_into_float = self.leaf(ops.INT_INTO_FLOAT)
        self.bool_into_float = self.leaf(ops.BOOL_INTO_FLOAT)
        self.float_to_device = self.recorded(
            ops.FLOAT_TO_DEVICE, recorders.record_float_to_device, ("tensor_device",)
        )
        self.embedding = self.recorded(
            ops.EMBEDDING, recorders.record_embedding, ("weights", "indices")
        )
        self.linear = self.recorded(ops.LINEAR, recorders.record_linear, ("weight", "input"))
        self.conv1d = self.recorded(
            ops.CONV1D,
            recorders.record_conv1d,
            ("x", "weight", "stride", "padding", "dilation", "groups", "padding_end"),
        )
        self.conv2d = self.recorded(
            ops.CONV2D,
            recorders.record_conv2d,
            ("x", "weight", "stride", "padding", "dilation", "groups", "padding_end"),
        )
        self.conv3d = self.recorded(
            ops.CONV3D,
            recorders.record_conv3d,
            ("x", "weight", "stride", "padding", "dilation", "groups", "padding_end"),
        )
        self.conv_transpose1d = self.recorded(
            ops.CONV_TRANSPOSE1D,
            recorders.record_conv_transpose1d,
            ("weight", "stride", "padding", "padding_out", "dilation", "groups", "x"),
        )
        self.conv_transpose2d = self.recorded(
            ops.CONV_TRANSPOSE2D,
            recorders.record_conv_transpose2d,
            ("weight", "stride", "padding", "padding_out", "dilation", "groups", "x"),
        )
        self.conv_transpose3d = self.recorded(
            ops.CONV_TRANSPOSE3D,
            recorders.record_conv_transpose3d,
            ("weight", "stride", "padding", "padding_out", "dilation", "groups", "x"),
        )
        self.unfold4d = self.recorded(
            ops.UNFOLD4D,
            recorders.record_unfold4d,
            ("x_shape", "kernel_size", "stride", "padding", "dilation"),
        )
        self.fold4d = self.recorded(
            ops.FOLD4D, recorders.record_fold4d, ("kernel_size", "stride", "padding", "dilation")
        )
        self.max_pool1d = self.recorded(
            ops.MAX_POOL1D,
            recorders.record_max_pool1d,
            ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "argmax"),
        )
        self.max_pool1d_with_indices = self.recorded(
            ops.MAX_POOL1D_WITH_INDICES,
            recorders.record_max_pool1d_with_indices,
            ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "indices"),
        )
        self.max_pool2d = self.recorded(
            ops.MAX_POOL2D,
            recorders.record_max_pool2d,
            ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "argmax"),
        )
        self.max_pool2d_with_indices = self.recorded(
            ops.MAX_POOL2D_WITH_INDICES,
            recorders.record_max_pool2d_with_indices,
            ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "indices"),
        )
        self.avg_pool1d = self.recorded(
            ops.AVG_POOL1D,
            recorders.record_avg_pool1d,
            ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        )
        self.avg_pool2d = self.recorded(
            ops.AVG_POOL2D,
            recorders.record_avg_pool2d,
            ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        )
        self.adaptive_avg_pool1d = self.recorded(
            ops.ADAPTIVE_AVG_POOL1D, recorders.record_adaptive_avg_pool1d, ("x",)
        )
        self.adaptive_avg_pool2d = self.recorded(
            ops.ADAPTIVE_AVG_POOL2D, recorders.record_adaptive_avg_pool2d, ("x",)
        )
        self.adaptive_avg_pool3d = self.recorded(
            ops.ADAPTIVE_AVG_POOL3D, recorders.record_adaptive_avg_pool3d, ("x",)
        )
        self.interpolate = self.recorded(
            ops.INTERPOLATE,
            recorders.record_interpolate,
            ("x", "output_size", "mode", "align_corners"),
        )
        self.attention = self.recorded(
            ops.ATTENTION,
            recorders.record_attention,
            (
                "query",
                "key",
                "value",
                "mask",
                "attn_bias",
                "scale",
                "softcap",
                "is_causal",
                "probabilities",
            ),
        )
        self.batch_norm = self.recorded(
            ops.BATCH_NORM,
            recorders.record_batch_norm,
            ("gamma", "variance", "epsilon", "input", "mean"),
        )
        self.batch_norm_training = self.recorded(
            ops.BATCH_NORM_TRAINING,
            recorders.record_batch_norm_training,
            ("input", "gamma", "out", "epsilon"),
        )
        self.layer_norm = self.recorded(
            ops.LAYER_NORM, recorders.record_layer_norm, ("input", "gamma", "epsilon", "statistics")
        )
        self.rms_norm = self.recorded(
            ops.RMS_NORM, recorders.record_rms_norm, ("input", "gamma", "epsilon", "inverse_rms")
        )
        self.ctc_loss = self.recorded(
            ops.CTC_LOSS,
            recorders.record_ctc_loss,
            ("log_probs", "targets", "input_lengths", "target_lengths", "blank"),
        )
        self.cross_entropy_class_targets = self.recorded(
            ops.CROSS_ENTROPY_CLASS_TARGETS,
            recorders.record_cross_entropy_class_targets,
            ("logits", "targets", "probabilities"),
        )
        self.rfft = self.recorded(ops.RFFT, recorders.record_rfft, ("signal_shape", "dim", "n"))
        self.irfft = self.recorded(
            ops.IRFFT, recorders.record_irfft, ("spectrum_re_shape", "dim", "n")
        )
        self.fft = self.recorded(ops.FFT, recorders.record_fft, ("signal_shape", "dim", "inverse"))
        self.deform_conv2d = self.recorded(
            ops.DEFORM_CONV2D,
            recorders.record_deform_conv2d,
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
        )
        self.adam_step = self.untracked(ops.ADAM_STEP)
        self.clip_by_norm = self.untracked(ops.CLIP_BY_NORM)
        self.sgd_step = self.untracked(ops.SGD_STEP)
        self.rmsprop_step = self.untracked(ops.RMSPROP_STEP)
        self.move_across = self.recorded(
            MOVE_ACROSS, recorders.record_move_across, ("target", "tensor_device")
        )
