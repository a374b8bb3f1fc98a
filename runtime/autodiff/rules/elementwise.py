"""Element-wise rules: arithmetic, scalar forms, unary math, activations."""

RULES = {
    # binary (broadcasting is undone by the step)
    "float_add": (lambda g: g, lambda g: g),
    "float_sub": (lambda g: g, lambda g: -g),
    "float_mul": (lambda g, rhs: g * rhs, lambda g, lhs: g * lhs),
    "float_div": (lambda g, rhs: g / rhs, lambda g, lhs, rhs: -g * lhs / (rhs * rhs)),
    "float_matmul": (
        lambda B, g, rhs: B.float_matmul(g, B.float_swap_dims(rhs, -1, -2)),
        lambda B, g, lhs: B.float_matmul(B.float_swap_dims(lhs, -1, -2), g),
    ),
    # tensor-scalar
    "float_add_scalar": (lambda g: g,),
    "float_sub_scalar": (lambda g: g,),
    "float_mul_scalar": (lambda g, rhs: g * rhs,),
    "float_div_scalar": (lambda g, rhs: g / rhs,),
    "float_powf_scalar": (lambda g, lhs, rhs: g * rhs * lhs ** (rhs - 1),),
    # unary
    "float_neg": (lambda g: -g,),
    "float_exp": (lambda g, out: g * out,),
    "float_log": (lambda g, tensor: g / tensor,),
    "float_sqrt": (lambda g, out: g * 0.5 / out,),
    "float_abs": (lambda B, g, tensor: g * B.float_sign(tensor),),
    "float_sign": (lambda g: g * 0,),  # zero almost everywhere; NaN stays NaN
    "float_tanh": (lambda g, out: g * (1 - out * out),),
    # activations
    "sigmoid": (lambda g, out: g * out * (1 - out),),
    "relu": (lambda g, out: g * (out > 0),),
}
