"""Shape rules: move the gradient back through the view."""

RULES = {
    "float_cast": (lambda B, g, tensor_dtype: B.float_cast(g, tensor_dtype),),
    "float_to_device": (lambda B, g, tensor_device: B.float_to_device(g, tensor_device),),
    # to_device across backends: `g` lives on the target backend, B is the source's
    "move_across": (lambda B, g, target, tensor_device: target.move_across(g, B, tensor_device),),
    "float_reshape": (lambda B, g, tensor_shape: B.float_reshape(g, tensor_shape),),
    "float_swap_dims": (lambda B, g, dim1, dim2: B.float_swap_dims(g, dim1, dim2),),
}
