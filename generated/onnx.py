# @generated from ops.yaml by `python -m codegen`; do not edit. render=57e1dbcb1bb4eb55 body=e8b2e073b0b946d4
"""How each catalogue op's kernel call exports to ONNX, from ops.yaml's `onnx:` keys: per op,
its arguments' names and its lowering as data (codegen/onnx_spec.py): a node is {"op",
"inputs", "attributes"}, an argument {"arg": name}, a string attribute {"value": text}, a
number a number; {"function": NAME} is a function of burnpy.onnx.exporter.lowerings. The
exporter, burnpy/onnx/exporter/lower.py, walks them."""

LOWERINGS = {
    "float_from_data": (("data", "device", "dtype"), {"function": "constant"}),
    "int_from_data": (("data", "device", "dtype"), {"function": "constant"}),
    "bool_from_data": (("data", "device", "dtype"), {"function": "constant"}),
    "float_zeros": (("shape", "device", "dtype"), {"function": "constant"}),
    "int_zeros": (("shape", "device", "dtype"), {"function": "constant"}),
    "float_ones": (("shape", "device", "dtype"), {"function": "constant"}),
    "int_ones": (("shape", "device", "dtype"), {"function": "constant"}),
    "float_full": (("shape", "fill_value", "device", "dtype"), {"function": "constant"}),
    "int_full": (("shape", "fill_value", "device", "dtype"), {"function": "constant"}),
    "int_arange": (("start", "end", "device", "dtype"), {"function": "constant"}),
    "int_arange_step": (("start", "end", "step", "device", "dtype"), {"function": "constant"}),
    "bool_zeros": (("shape", "device", "dtype"), {"function": "constant"}),
    "bool_ones": (("shape", "device", "dtype"), {"function": "constant"}),
    "float_add": (
        ("lhs", "rhs"),
        {"op": "Add", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_add_scalar": (
        ("lhs", "rhs"),
        {"op": "Add", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_sub": (
        ("lhs", "rhs"),
        {"op": "Sub", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_sub_scalar": (
        ("lhs", "rhs"),
        {"op": "Sub", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_mul": (
        ("lhs", "rhs"),
        {"op": "Mul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_mul_scalar": (
        ("lhs", "rhs"),
        {"op": "Mul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_div": (
        ("lhs", "rhs"),
        {"op": "Div", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_div_scalar": (
        ("lhs", "rhs"),
        {"op": "Div", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_neg": (("tensor",), {"op": "Neg", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_matmul": (
        ("lhs", "rhs"),
        {"op": "MatMul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_remainder": (("lhs", "rhs"), {"function": "remainder"}),
    "float_remainder_scalar": (("lhs", "rhs"), {"function": "remainder"}),
    "float_powf": (
        ("lhs", "rhs"),
        {"op": "Pow", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_powf_scalar_impl": (
        ("lhs", "rhs"),
        {"op": "Pow", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_powi": (("lhs", "rhs"), {"function": "powi"}),
    "float_clamp": (("tensor", "min", "max"), {"function": "clamp"}),
    "float_clamp_min": (("tensor", "min"), {"function": "clamp"}),
    "float_clamp_max": (("tensor", "max"), {"function": "clamp"}),
    "float_exp": (("tensor",), {"op": "Exp", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_square": (
        ("tensor",),
        {"op": "Mul", "inputs": [{"arg": "tensor"}, {"arg": "tensor"}], "attributes": {}},
    ),
    "float_log": (("tensor",), {"op": "Log", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_sqrt": (("tensor",), {"op": "Sqrt", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_abs": (("tensor",), {"op": "Abs", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_sign": (("tensor",), {"op": "Sign", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_tanh": (("tensor",), {"op": "Tanh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_log1p": (
        ("tensor",),
        {
            "op": "Log",
            "inputs": [{"op": "Add", "inputs": [{"arg": "tensor"}, 1], "attributes": {}}],
            "attributes": {},
        },
    ),
    "float_recip": (
        ("tensor",),
        {"op": "Reciprocal", "inputs": [{"arg": "tensor"}], "attributes": {}},
    ),
    "float_sin": (("tensor",), {"op": "Sin", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_cos": (("tensor",), {"op": "Cos", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_tan": (("tensor",), {"op": "Tan", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_sinh": (("tensor",), {"op": "Sinh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_cosh": (("tensor",), {"op": "Cosh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_asin": (("tensor",), {"op": "Asin", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_acos": (("tensor",), {"op": "Acos", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_atan": (("tensor",), {"op": "Atan", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_asinh": (("tensor",), {"op": "Asinh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_acosh": (("tensor",), {"op": "Acosh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_atanh": (("tensor",), {"op": "Atanh", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_hypot": (
        ("lhs", "rhs"),
        {
            "op": "Sqrt",
            "inputs": [
                {
                    "op": "Add",
                    "inputs": [
                        {"op": "Mul", "inputs": [{"arg": "lhs"}, {"arg": "lhs"}], "attributes": {}},
                        {"op": "Mul", "inputs": [{"arg": "rhs"}, {"arg": "rhs"}], "attributes": {}},
                    ],
                    "attributes": {},
                }
            ],
            "attributes": {},
        },
    ),
    "float_erf": (("tensor",), {"op": "Erf", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_round": (("tensor",), {"op": "Round", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_floor": (("tensor",), {"op": "Floor", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_ceil": (("tensor",), {"op": "Ceil", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_trunc": (("tensor",), {"function": "trunc"}),
    "relu": (("tensor",), {"op": "Relu", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "relu_backward": (
        ("output", "grad"),
        {
            "op": "Where",
            "inputs": [
                {"op": "Greater", "inputs": [{"arg": "output"}, 0], "attributes": {}},
                {"arg": "grad"},
                0,
            ],
            "attributes": {},
        },
    ),
    "leaky_relu": (
        ("tensor", "negative_slope"),
        {
            "op": "LeakyRelu",
            "inputs": [{"arg": "tensor"}],
            "attributes": {"alpha": {"arg": "negative_slope"}},
        },
    ),
    "prelu": (("tensor", "alpha"), {"function": "prelu"}),
    "gelu": (("tensor",), {"function": "gelu"}),
    "gelu_backward": (("x", "grad"), {"function": "gelu_backward"}),
    "gelu_approximate": (("tensor",), {"function": "gelu_approximate"}),
    "gelu_approximate_backward": (("x", "grad"), {"function": "gelu_approximate_backward"}),
    "sigmoid": (("tensor",), {"op": "Sigmoid", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "sigmoid_backward": (
        ("output", "grad"),
        {
            "op": "Mul",
            "inputs": [
                {"op": "Mul", "inputs": [{"arg": "grad"}, {"arg": "output"}], "attributes": {}},
                {"op": "Sub", "inputs": [1, {"arg": "output"}], "attributes": {}},
            ],
            "attributes": {},
        },
    ),
    "log_sigmoid": (
        ("tensor",),
        {
            "op": "Neg",
            "inputs": [
                {
                    "op": "Softplus",
                    "inputs": [{"op": "Neg", "inputs": [{"arg": "tensor"}], "attributes": {}}],
                    "attributes": {},
                }
            ],
            "attributes": {},
        },
    ),
    "softmax": (
        ("tensor", "dim"),
        {"op": "Softmax", "inputs": [{"arg": "tensor"}], "attributes": {"axis": {"arg": "dim"}}},
    ),
    "log_softmax": (
        ("tensor", "dim"),
        {"op": "LogSoftmax", "inputs": [{"arg": "tensor"}], "attributes": {"axis": {"arg": "dim"}}},
    ),
    "float_sum": (("tensor",), {"function": "sum_all"}),
    "float_sum_dim": (("tensor", "dim"), {"function": "sum_dim"}),
    "float_mean": (("tensor",), {"function": "mean_all"}),
    "float_mean_dim": (("tensor", "dim"), {"function": "mean_dim"}),
    "float_prod": (("tensor",), {"function": "prod_all"}),
    "float_prod_dim": (("tensor", "dim"), {"function": "prod_dim"}),
    "float_max": (("tensor",), {"function": "max_all"}),
    "float_max_dim": (("tensor", "dim"), {"function": "max_dim"}),
    "float_max_dim_with_indices": (("tensor", "dim"), {"function": "max_dim_with_indices"}),
    "float_min": (("tensor",), {"function": "min_all"}),
    "float_min_dim": (("tensor", "dim"), {"function": "min_dim"}),
    "float_min_dim_with_indices": (("tensor", "dim"), {"function": "min_dim_with_indices"}),
    "float_argmax": (("tensor", "dim"), {"function": "argmax"}),
    "float_argmin": (("tensor", "dim"), {"function": "argmin"}),
    "float_any": (("tensor",), {"function": "any_all"}),
    "float_any_dim": (("tensor", "dim"), {"function": "any_dim"}),
    "float_all": (("tensor",), {"function": "all_all"}),
    "float_all_dim": (("tensor", "dim"), {"function": "all_dim"}),
    "int_sum_dim": (("tensor", "dim"), {"function": "sum_dim"}),
    "int_prod": (("tensor",), {"function": "prod_all"}),
    "int_prod_dim": (("tensor", "dim"), {"function": "prod_dim"}),
    "int_max": (("tensor",), {"function": "max_all"}),
    "int_max_dim": (("tensor", "dim"), {"function": "max_dim"}),
    "int_max_dim_with_indices": (("tensor", "dim"), {"function": "max_dim_with_indices"}),
    "int_min": (("tensor",), {"function": "min_all"}),
    "int_min_dim": (("tensor", "dim"), {"function": "min_dim"}),
    "int_min_dim_with_indices": (("tensor", "dim"), {"function": "min_dim_with_indices"}),
    "int_argmax": (("tensor", "dim"), {"function": "argmax"}),
    "int_argmin": (("tensor", "dim"), {"function": "argmin"}),
    "int_any": (("tensor",), {"function": "any_all"}),
    "int_any_dim": (("tensor", "dim"), {"function": "any_dim"}),
    "int_all": (("tensor",), {"function": "all_all"}),
    "int_all_dim": (("tensor", "dim"), {"function": "all_dim"}),
    "bool_any": (("tensor",), {"function": "any_all"}),
    "bool_any_dim": (("tensor", "dim"), {"function": "any_dim"}),
    "bool_all": (("tensor",), {"function": "all_all"}),
    "bool_all_dim": (("tensor", "dim"), {"function": "all_dim"}),
    "float_cumsum": (("tensor", "dim"), {"function": "cumsum"}),
    "float_cumprod": (("tensor", "dim"), {"function": "cumprod"}),
    "float_sort_with_indices": (("tensor", "dim", "descending"), {"function": "sort_with_indices"}),
    "float_argsort": (("tensor", "dim", "descending"), {"function": "argsort"}),
    "float_topk_with_indices": (("tensor", "k", "dim"), {"function": "topk_with_indices"}),
    "float_argtopk": (("tensor", "k", "dim"), {"function": "argtopk"}),
    "int_cumsum": (("tensor", "dim"), {"function": "cumsum"}),
    "int_cumprod": (("tensor", "dim"), {"function": "cumprod"}),
    "int_sort": (("tensor", "dim", "descending"), {"function": "sort"}),
    "int_sort_with_indices": (("tensor", "dim", "descending"), {"function": "sort_with_indices"}),
    "int_argsort": (("tensor", "dim", "descending"), {"function": "argsort"}),
    "int_topk": (("tensor", "k", "dim"), {"function": "topk"}),
    "int_topk_with_indices": (("tensor", "k", "dim"), {"function": "topk_with_indices"}),
    "int_argtopk": (("tensor", "k", "dim"), {"function": "argtopk"}),
    "float_reshape": (("tensor", "shape"), {"function": "reshape"}),
    "int_reshape": (("tensor", "shape"), {"function": "reshape"}),
    "bool_reshape": (("tensor", "shape"), {"function": "reshape"}),
    "float_swap_dims": (("tensor", "dim1", "dim2"), {"function": "swap_dims"}),
    "int_swap_dims": (("tensor", "dim1", "dim2"), {"function": "swap_dims"}),
    "bool_swap_dims": (("tensor", "dim1", "dim2"), {"function": "swap_dims"}),
    "float_permute": (("tensor", "axes"), {"function": "permute"}),
    "int_permute": (("tensor", "axes"), {"function": "permute"}),
    "bool_permute": (("tensor", "axes"), {"function": "permute"}),
    "float_flip": (("tensor", "axes"), {"function": "flip"}),
    "int_flip": (("tensor", "axes"), {"function": "flip"}),
    "bool_flip": (("tensor", "axes"), {"function": "flip"}),
    "float_expand": (("tensor", "shape"), {"function": "expand"}),
    "int_expand": (("tensor", "shape"), {"function": "expand"}),
    "bool_expand": (("tensor", "shape"), {"function": "expand"}),
    "float_repeat_dim": (("tensor", "dim", "times"), {"function": "repeat_dim"}),
    "int_repeat_dim": (("tensor", "dim", "times"), {"function": "repeat_dim"}),
    "bool_repeat_dim": (("tensor", "dim", "times"), {"function": "repeat_dim"}),
    "float_slice": (("tensor", "slices"), {"function": "slice_"}),
    "int_slice": (("tensor", "slices"), {"function": "slice_"}),
    "bool_slice": (("tensor", "slices"), {"function": "slice_"}),
    "float_slice_assign": (("tensor", "slices", "value"), {"function": "slice_assign"}),
    "int_slice_assign": (("tensor", "slices", "value"), {"function": "slice_assign"}),
    "bool_slice_assign": (("tensor", "slices", "value"), {"function": "slice_assign"}),
    "float_cat": (("tensors", "dim"), {"function": "cat"}),
    "int_cat": (("tensors", "dim"), {"function": "cat"}),
    "bool_cat": (("tensors", "dim"), {"function": "cat"}),
    "float_cast": (("tensor", "dtype"), {"function": "cast"}),
    "int_cast": (("tensor", "dtype"), {"function": "cast"}),
    "float_gather": (("dim", "tensor", "indices"), {"function": "gather"}),
    "int_gather": (("dim", "tensor", "indices"), {"function": "gather"}),
    "bool_gather": (("dim", "tensor", "indices"), {"function": "gather"}),
    "float_scatter": (("dim", "tensor", "indices", "value", "update"), {"function": "scatter"}),
    "int_scatter": (("dim", "tensor", "indices", "value", "update"), {"function": "scatter"}),
    "float_scatter_add": (("dim", "tensor", "indices", "value"), {"function": "scatter_add"}),
    "int_scatter_add": (("dim", "tensor", "indices", "value"), {"function": "scatter_add"}),
    "float_select": (("tensor", "dim", "indices"), {"function": "select"}),
    "int_select": (("tensor", "dim", "indices"), {"function": "select"}),
    "bool_select": (("tensor", "dim", "indices"), {"function": "select"}),
    "float_mask_where": (
        ("tensor", "mask", "value"),
        {
            "op": "Where",
            "inputs": [{"arg": "mask"}, {"arg": "value"}, {"arg": "tensor"}],
            "attributes": {},
        },
    ),
    "int_mask_where": (
        ("tensor", "mask", "value"),
        {
            "op": "Where",
            "inputs": [{"arg": "mask"}, {"arg": "value"}, {"arg": "tensor"}],
            "attributes": {},
        },
    ),
    "bool_mask_where": (
        ("tensor", "mask", "value"),
        {
            "op": "Where",
            "inputs": [{"arg": "mask"}, {"arg": "value"}, {"arg": "tensor"}],
            "attributes": {},
        },
    ),
    "float_mask_fill": (("tensor", "mask", "value"), {"function": "mask_fill"}),
    "int_mask_fill": (("tensor", "mask", "value"), {"function": "mask_fill"}),
    "bool_mask_fill": (("tensor", "mask", "value"), {"function": "mask_fill"}),
    "float_gather_nd": (("data", "indices"), {"function": "gather_nd"}),
    "int_gather_nd": (("data", "indices"), {"function": "gather_nd"}),
    "float_scatter_nd": (("data", "indices", "values", "reduction"), {"function": "scatter_nd"}),
    "int_scatter_nd": (("data", "indices", "values", "reduction"), {"function": "scatter_nd"}),
    "float_grid_sample_2d": (
        ("tensor", "grid", "mode", "padding_mode", "align_corners"),
        {"function": "grid_sample"},
    ),
    "float_equal": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_equal_elem": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_not_equal_elem": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "float_greater": (
        ("lhs", "rhs"),
        {"op": "Greater", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_greater_elem": (
        ("lhs", "rhs"),
        {"op": "Greater", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_lower": (
        ("lhs", "rhs"),
        {"op": "Less", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_lower_elem": (
        ("lhs", "rhs"),
        {"op": "Less", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_not_equal": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "float_greater_equal": (
        ("lhs", "rhs"),
        {"op": "GreaterOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_greater_equal_elem": (
        ("lhs", "rhs"),
        {"op": "GreaterOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_lower_equal": (
        ("lhs", "rhs"),
        {"op": "LessOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_lower_equal_elem": (
        ("lhs", "rhs"),
        {"op": "LessOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "float_is_nan": (("tensor",), {"op": "IsNaN", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "float_is_inf": (("tensor",), {"op": "IsInf", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "int_add": (
        ("lhs", "rhs"),
        {"op": "Add", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_add_scalar": (
        ("lhs", "rhs"),
        {"op": "Add", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_mul": (
        ("lhs", "rhs"),
        {"op": "Mul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_mul_scalar": (
        ("lhs", "rhs"),
        {"op": "Mul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_sum": (("tensor",), {"function": "sum_all"}),
    "int_equal": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_not_equal_elem": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "int_greater_elem": (
        ("lhs", "rhs"),
        {"op": "Greater", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_sub": (
        ("lhs", "rhs"),
        {"op": "Sub", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_sub_scalar": (
        ("lhs", "rhs"),
        {"op": "Sub", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_div": (("lhs", "rhs"), {"function": "int_div"}),
    "int_div_scalar": (("lhs", "rhs"), {"function": "int_div"}),
    "int_remainder": (("lhs", "rhs"), {"function": "remainder"}),
    "int_remainder_scalar": (("lhs", "rhs"), {"function": "remainder"}),
    "int_neg": (("tensor",), {"op": "Neg", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "int_abs": (("tensor",), {"op": "Abs", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "int_sign": (("tensor",), {"op": "Sign", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "int_square": (
        ("tensor",),
        {"op": "Mul", "inputs": [{"arg": "tensor"}, {"arg": "tensor"}], "attributes": {}},
    ),
    "int_powi": (
        ("lhs", "rhs"),
        {"op": "Pow", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_powi_scalar_impl": (
        ("lhs", "rhs"),
        {"op": "Pow", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_clamp": (("tensor", "min", "max"), {"function": "clamp"}),
    "int_clamp_min": (("tensor", "min"), {"function": "clamp"}),
    "int_clamp_max": (("tensor", "max"), {"function": "clamp"}),
    "int_matmul": (
        ("lhs", "rhs"),
        {"op": "MatMul", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_and": (
        ("lhs", "rhs"),
        {"op": "BitwiseAnd", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_and_scalar": (
        ("lhs", "rhs"),
        {"op": "BitwiseAnd", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_or": (
        ("lhs", "rhs"),
        {"op": "BitwiseOr", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_or_scalar": (
        ("lhs", "rhs"),
        {"op": "BitwiseOr", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_xor": (
        ("lhs", "rhs"),
        {"op": "BitwiseXor", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_xor_scalar": (
        ("lhs", "rhs"),
        {"op": "BitwiseXor", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bitwise_not": (
        ("tensor",),
        {"op": "BitwiseNot", "inputs": [{"arg": "tensor"}], "attributes": {}},
    ),
    "int_equal_elem": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_not_equal": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "int_greater": (
        ("lhs", "rhs"),
        {"op": "Greater", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_greater_equal": (
        ("lhs", "rhs"),
        {"op": "GreaterOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_greater_equal_elem": (
        ("lhs", "rhs"),
        {"op": "GreaterOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_lower": (
        ("lhs", "rhs"),
        {"op": "Less", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_lower_elem": (
        ("lhs", "rhs"),
        {"op": "Less", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_lower_equal": (
        ("lhs", "rhs"),
        {"op": "LessOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "int_lower_equal_elem": (
        ("lhs", "rhs"),
        {"op": "LessOrEqual", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_not": (("tensor",), {"op": "Not", "inputs": [{"arg": "tensor"}], "attributes": {}}),
    "bool_and": (
        ("lhs", "rhs"),
        {"op": "And", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_or": (
        ("lhs", "rhs"),
        {"op": "Or", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_equal": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_xor": (
        ("lhs", "rhs"),
        {"op": "Xor", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_not_equal": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "bool_equal_elem": (
        ("lhs", "rhs"),
        {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}},
    ),
    "bool_not_equal_elem": (
        ("lhs", "rhs"),
        {
            "op": "Not",
            "inputs": [
                {"op": "Equal", "inputs": [{"arg": "lhs"}, {"arg": "rhs"}], "attributes": {}}
            ],
            "attributes": {},
        },
    ),
    "float_into_int": (("tensor", "dtype"), {"function": "cast"}),
    "bool_into_int": (("tensor", "dtype"), {"function": "cast"}),
    "int_into_float": (("tensor", "dtype"), {"function": "cast"}),
    "bool_into_float": (("tensor", "dtype"), {"function": "cast"}),
    "float_to_device": (("tensor", "device"), {"function": "same"}),
    "int_to_device": (("tensor", "device"), {"function": "same"}),
    "bool_to_device": (("tensor", "device"), {"function": "same"}),
    "embedding": (("weights", "indices"), {"function": "embedding"}),
    "linear": (("input", "weight", "bias"), {"function": "linear"}),
    "conv1d": (
        ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
        {"function": "conv"},
    ),
    "conv2d": (
        ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
        {"function": "conv"},
    ),
    "conv3d": (
        ("x", "weight", "bias", "stride", "padding", "dilation", "groups", "padding_end"),
        {"function": "conv"},
    ),
    "conv_transpose1d": (
        ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
        {"function": "conv_transpose"},
    ),
    "conv_transpose2d": (
        ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
        {"function": "conv_transpose"},
    ),
    "conv_transpose3d": (
        ("x", "weight", "bias", "stride", "padding", "padding_out", "dilation", "groups"),
        {"function": "conv_transpose"},
    ),
    "fold4d": (
        ("x", "output_size", "kernel_size", "stride", "padding", "dilation"),
        {"function": "fold"},
    ),
    "max_pool1d": (
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        {"function": "max_pool"},
    ),
    "max_pool2d": (
        ("x", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
        {"function": "max_pool"},
    ),
    "avg_pool1d": (
        ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        {"function": "avg_pool"},
    ),
    "avg_pool2d": (
        ("x", "kernel_size", "stride", "padding", "count_include_pad", "ceil_mode"),
        {"function": "avg_pool"},
    ),
    "adaptive_avg_pool1d": (("x", "output_size"), {"function": "adaptive_avg_pool"}),
    "adaptive_avg_pool2d": (("x", "output_size"), {"function": "adaptive_avg_pool"}),
    "adaptive_avg_pool3d": (("x", "output_size"), {"function": "adaptive_avg_pool"}),
    "attention": (
        ("query", "key", "value", "mask", "attn_bias", "scale", "softcap", "is_causal"),
        {"function": "attention"},
    ),
    "batch_norm": (
        ("input", "gamma", "beta", "mean", "variance", "epsilon"),
        {"function": "batch_norm"},
    ),
    "layer_norm": (("input", "gamma", "beta", "epsilon"), {"function": "layer_norm"}),
    "rms_norm": (("input", "gamma", "epsilon"), {"function": "rms_norm"}),
    "cross_entropy_class_targets": (("logits", "targets"), {"function": "cross_entropy"}),
    "deform_conv2d": (
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
        {"function": "deform_conv"},
    ),
    "adam_step": (
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
        {"function": "adam_step"},
    ),
    "clip_by_norm": (("grad", "threshold"), {"function": "clip_by_norm"}),
    "sgd_step": (
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
        {"function": "sgd_step"},
    ),
    "dequantize": (("tensor", "dtype"), {"function": "dequantize"}),
}
