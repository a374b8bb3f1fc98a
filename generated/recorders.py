# @generated from ops.yaml by `python -m codegen`; do not edit. render=0ff125f9d7af35d4 body=ba3bf243e819089d
"""The Autodiff decorator's recorder of every differentiable op, one factory per op.

A recorder runs the op's forward on the inner backend, then gives the output (`autodiff_tensor`)
its Node (its fields named: runtime/autodiff/node.py's new_node) and the state its step needs:
which inputs are tracked, the values their VJPs need (the rule's `saved`, in order), and under
BalancedCheckpointing the recipe that recomputes a memory-bound output. With no input tracked,
or inside `no_grad` (GRAD_MODE.paused, per thread), it records nothing: the output is untracked.
The Autodiff specialization (generated/autodiff.py) binds each factory to the inner backend's
`forward`, the op's shared `BACKWARD` (its rule), the `inner` backend and `balanced` (whether it
is the BalancedCheckpointing specialization).
"""

from burnpy.runtime.autodiff.recording import (
    COMPUTE_BOUND,
    GRAD_MODE,
    MEMORY_BOUND,
    NONE,
    SELF,
    TRACKED,
    autodiff_tensor,
    new_node,
    next_id,
    output_node,
    untracked_node,
)


def record_float_add(forward, BACKWARD, inner, balanced):
    def float_add(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_add


def record_float_add_scalar(forward, BACKWARD, inner, balanced):
    def float_add_scalar(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_add_scalar


def record_float_sub(forward, BACKWARD, inner, balanced):
    def float_sub(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sub


def record_float_sub_scalar(forward, BACKWARD, inner, balanced):
    def float_sub_scalar(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sub_scalar


def record_float_mul(forward, BACKWARD, inner, balanced):
    def float_mul(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(rhs_held if lhs_tracked else None, lhs_held if rhs_tracked else None),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_mul


def record_float_mul_scalar(forward, BACKWARD, inner, balanced):
    def float_mul_scalar(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            saved=(rhs,),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_mul_scalar


def record_float_div(forward, BACKWARD, inner, balanced):
    def float_div(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(rhs_held, lhs_held if rhs_tracked else None),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_div


def record_float_div_scalar(forward, BACKWARD, inner, balanced):
    def float_div_scalar(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            saved=(rhs,),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_div_scalar


def record_float_neg(forward, BACKWARD, inner, balanced):
    def float_neg(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_neg


def record_float_matmul(forward, BACKWARD, inner, balanced):
    def float_matmul(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(
                rhs_held if lhs_tracked else None,
                lhs_held if rhs_tracked else None,
                rhs_value.shape if rhs_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return float_matmul


def record_float_det(forward, BACKWARD, inner, balanced):
    def float_det(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held, out),
        )
        return autodiff_tensor(out, out_node)

    return float_det


def record_float_remainder(forward, BACKWARD, inner, balanced):
    def float_remainder(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(lhs_held if rhs_tracked else None, rhs_held if rhs_tracked else None),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_remainder


def record_float_remainder_scalar(forward, BACKWARD, inner, balanced):
    def float_remainder_scalar(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_remainder_scalar


def record_float_cross(forward, BACKWARD, inner, balanced):
    def float_cross(lhs, rhs, dim):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value, dim)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(rhs_held if lhs_tracked else None, dim, lhs_held if rhs_tracked else None),
        )
        return autodiff_tensor(out, out_node)

    return float_cross


def record_float_powf(forward, BACKWARD, inner, balanced):
    def float_powf(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(
                lhs_held,
                rhs_held if lhs_tracked else None,
                (SELF if memory_bound else out) if rhs_tracked else None,
            ),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_powf


def record_float_powf_scalar_impl(forward, BACKWARD, inner, balanced):
    def float_powf_scalar_impl(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            saved=(lhs_held, rhs),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_powf_scalar_impl


def record_float_powi(forward, BACKWARD, inner, balanced):
    def float_powi(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        out = forward(lhs_value, rhs)
        order = lhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        if not lhs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        out_node = new_node(
            parents=(lhs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node,),
            shapes=(lhs_value.shape,),
            saved=(lhs_held, rhs, inner.dtype(lhs_value)),
            recipe=(lhs_held, rhs) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_powi


def record_float_clamp(forward, BACKWARD, inner, balanced):
    def float_clamp(tensor, min, max):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, min, max)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, min, max),
            recipe=(tensor_held, min, max) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_clamp


def record_float_clamp_min(forward, BACKWARD, inner, balanced):
    def float_clamp_min(tensor, min):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, min)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, min),
            recipe=(tensor_held, min) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_clamp_min


def record_float_clamp_max(forward, BACKWARD, inner, balanced):
    def float_clamp_max(tensor, max):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, max)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, max),
            recipe=(tensor_held, max) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_clamp_max


def record_float_exp(forward, BACKWARD, inner, balanced):
    def float_exp(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_exp


def record_float_square(forward, BACKWARD, inner, balanced):
    def float_square(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_square


def record_float_log(forward, BACKWARD, inner, balanced):
    def float_log(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_log


def record_float_sqrt(forward, BACKWARD, inner, balanced):
    def float_sqrt(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sqrt


def record_float_abs(forward, BACKWARD, inner, balanced):
    def float_abs(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_abs


def record_float_sign(forward, BACKWARD, inner, balanced):
    def float_sign(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sign


def record_float_tanh(forward, BACKWARD, inner, balanced):
    def float_tanh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_tanh


def record_float_log1p(forward, BACKWARD, inner, balanced):
    def float_log1p(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_log1p


def record_float_recip(forward, BACKWARD, inner, balanced):
    def float_recip(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_recip


def record_float_sin(forward, BACKWARD, inner, balanced):
    def float_sin(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sin


def record_float_cos(forward, BACKWARD, inner, balanced):
    def float_cos(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_cos


def record_float_tan(forward, BACKWARD, inner, balanced):
    def float_tan(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_tan


def record_float_sinh(forward, BACKWARD, inner, balanced):
    def float_sinh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_sinh


def record_float_cosh(forward, BACKWARD, inner, balanced):
    def float_cosh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_cosh


def record_float_asin(forward, BACKWARD, inner, balanced):
    def float_asin(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_asin


def record_float_acos(forward, BACKWARD, inner, balanced):
    def float_acos(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_acos


def record_float_atan(forward, BACKWARD, inner, balanced):
    def float_atan(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_atan


def record_float_asinh(forward, BACKWARD, inner, balanced):
    def float_asinh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_asinh


def record_float_acosh(forward, BACKWARD, inner, balanced):
    def float_acosh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_acosh


def record_float_atanh(forward, BACKWARD, inner, balanced):
    def float_atanh(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_atanh


def record_float_atan2(forward, BACKWARD, inner, balanced):
    def float_atan2(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and lhs_tracked and rhs_tracked
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(lhs_held, rhs_held),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_atan2


def record_float_hypot(forward, BACKWARD, inner, balanced):
    def float_hypot(lhs, rhs):
        lhs_node = lhs.node
        lhs_value = lhs.primitive
        rhs_node = rhs.node
        rhs_value = rhs.primitive
        out = forward(lhs_value, rhs_value)
        order = lhs_node.order
        if rhs_node.order > order:
            order = rhs_node.order
        lhs_tracked = lhs_node.requirement is not NONE
        rhs_tracked = rhs_node.requirement is not NONE
        if not (lhs_tracked or rhs_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        lhs_held = lhs_node if balanced and lhs_node.properties is MEMORY_BOUND else lhs_value
        rhs_held = rhs_node if balanced and rhs_node.properties is MEMORY_BOUND else rhs_value
        out_node = new_node(
            parents=(
                (lhs_node.id, rhs_node.id)
                if lhs_tracked and rhs_tracked
                else (lhs_node.id,) if lhs_tracked else (rhs_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(lhs_node if lhs_tracked else None, rhs_node if rhs_tracked else None),
            shapes=(lhs_value.shape, rhs_value.shape),
            saved=(lhs_held if lhs_tracked else None, out, rhs_held if rhs_tracked else None),
        )
        return autodiff_tensor(out, out_node)

    return float_hypot


def record_float_erf(forward, BACKWARD, inner, balanced):
    def float_erf(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_erf


def record_float_round(forward, BACKWARD, inner, balanced):
    def float_round(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape, inner.device_of(tensor_value), inner.dtype(tensor_value)),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_round


def record_float_floor(forward, BACKWARD, inner, balanced):
    def float_floor(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape, inner.device_of(tensor_value), inner.dtype(tensor_value)),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_floor


def record_float_ceil(forward, BACKWARD, inner, balanced):
    def float_ceil(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape, inner.device_of(tensor_value), inner.dtype(tensor_value)),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_ceil


def record_float_trunc(forward, BACKWARD, inner, balanced):
    def float_trunc(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape, inner.device_of(tensor_value), inner.dtype(tensor_value)),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_trunc


def record_float_round_to(forward, BACKWARD, inner, balanced):
    def float_round_to(tensor, format, saturate):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, format, saturate)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, inner.device_of(tensor_value), inner.dtype(tensor_value)),
            recipe=(tensor_held, format, saturate) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_round_to


def record_relu(forward, BACKWARD, inner, balanced):
    def relu(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return relu


def record_relu_backward(forward, BACKWARD, inner, balanced):
    def relu_backward(output, grad):
        output_node = output.node
        output_value = output.primitive
        grad_node = grad.node
        grad_value = grad.primitive
        out = forward(output_value, grad_value)
        order = output_node.order
        if grad_node.order > order:
            order = grad_node.order
        output_tracked = output_node.requirement is not NONE
        grad_tracked = grad_node.requirement is not NONE
        if not (output_tracked or grad_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and output_tracked and grad_tracked
        output_held = (
            output_node if balanced and output_node.properties is MEMORY_BOUND else output_value
        )
        grad_held = grad_node if balanced and grad_node.properties is MEMORY_BOUND else grad_value
        out_node = new_node(
            parents=(
                (output_node.id, grad_node.id)
                if output_tracked and grad_tracked
                else (output_node.id,) if output_tracked else (grad_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(output_node if output_tracked else None, grad_node if grad_tracked else None),
            shapes=(output_value.shape, grad_value.shape),
            saved=(output_held if grad_tracked else None,),
            recipe=(output_held, grad_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return relu_backward


def record_leaky_relu(forward, BACKWARD, inner, balanced):
    def leaky_relu(tensor, negative_slope):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, negative_slope)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, negative_slope),
            recipe=(tensor_held, negative_slope) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return leaky_relu


def record_prelu(forward, BACKWARD, inner, balanced):
    def prelu(tensor, alpha):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        alpha_node = alpha.node
        alpha_value = alpha.primitive
        out = forward(tensor_value, alpha_value)
        order = tensor_node.order
        if alpha_node.order > order:
            order = alpha_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        alpha_tracked = alpha_node.requirement is not NONE
        if not (tensor_tracked or alpha_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and tensor_tracked and alpha_tracked
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        alpha_held = (
            alpha_node if balanced and alpha_node.properties is MEMORY_BOUND else alpha_value
        )
        out_node = new_node(
            parents=(
                (tensor_node.id, alpha_node.id)
                if tensor_tracked and alpha_tracked
                else (tensor_node.id,) if tensor_tracked else (alpha_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, alpha_node if alpha_tracked else None),
            shapes=(tensor_value.shape, alpha_value.shape),
            saved=(tensor_held, alpha_held if tensor_tracked else None),
            recipe=(tensor_held, alpha_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return prelu


def record_gelu(forward, BACKWARD, inner, balanced):
    def gelu(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(forward(tensor_value), untracked_node(order))
        out, slope = (forward(tensor_value), None) if balanced else inner.gelu_keeping(tensor_value)
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held, slope),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return gelu


def record_gelu_backward(forward, BACKWARD, inner, balanced):
    def gelu_backward(x, grad):
        x_node = x.node
        x_value = x.primitive
        grad_node = grad.node
        grad_value = grad.primitive
        out = forward(x_value, grad_value)
        order = x_node.order
        if grad_node.order > order:
            order = grad_node.order
        x_tracked = x_node.requirement is not NONE
        grad_tracked = grad_node.requirement is not NONE
        if not (x_tracked or grad_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and x_tracked and grad_tracked
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        grad_held = grad_node if balanced and grad_node.properties is MEMORY_BOUND else grad_value
        out_node = new_node(
            parents=(
                (x_node.id, grad_node.id)
                if x_tracked and grad_tracked
                else (x_node.id,) if x_tracked else (grad_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node if x_tracked else None, grad_node if grad_tracked else None),
            shapes=(x_value.shape, grad_value.shape),
            saved=(x_held, grad_held if x_tracked else None),
            recipe=(x_held, grad_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return gelu_backward


def record_gelu_approximate(forward, BACKWARD, inner, balanced):
    def gelu_approximate(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(forward(tensor_value), untracked_node(order))
        out, slope = (
            (forward(tensor_value), None)
            if balanced
            else inner.gelu_approximate_keeping(tensor_value)
        )
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held, slope),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return gelu_approximate


def record_gelu_approximate_backward(forward, BACKWARD, inner, balanced):
    def gelu_approximate_backward(x, grad):
        x_node = x.node
        x_value = x.primitive
        grad_node = grad.node
        grad_value = grad.primitive
        out = forward(x_value, grad_value)
        order = x_node.order
        if grad_node.order > order:
            order = grad_node.order
        x_tracked = x_node.requirement is not NONE
        grad_tracked = grad_node.requirement is not NONE
        if not (x_tracked or grad_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and x_tracked and grad_tracked
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        grad_held = grad_node if balanced and grad_node.properties is MEMORY_BOUND else grad_value
        out_node = new_node(
            parents=(
                (x_node.id, grad_node.id)
                if x_tracked and grad_tracked
                else (x_node.id,) if x_tracked else (grad_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node if x_tracked else None, grad_node if grad_tracked else None),
            shapes=(x_value.shape, grad_value.shape),
            saved=(x_held, grad_held if x_tracked else None),
            recipe=(x_held, grad_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return gelu_approximate_backward


def record_sigmoid(forward, BACKWARD, inner, balanced):
    def sigmoid(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(SELF if memory_bound else out,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return sigmoid


def record_sigmoid_backward(forward, BACKWARD, inner, balanced):
    def sigmoid_backward(output, grad):
        output_node = output.node
        output_value = output.primitive
        grad_node = grad.node
        grad_value = grad.primitive
        out = forward(output_value, grad_value)
        order = output_node.order
        if grad_node.order > order:
            order = grad_node.order
        output_tracked = output_node.requirement is not NONE
        grad_tracked = grad_node.requirement is not NONE
        if not (output_tracked or grad_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and output_tracked and grad_tracked
        output_held = (
            output_node if balanced and output_node.properties is MEMORY_BOUND else output_value
        )
        grad_held = grad_node if balanced and grad_node.properties is MEMORY_BOUND else grad_value
        out_node = new_node(
            parents=(
                (output_node.id, grad_node.id)
                if output_tracked and grad_tracked
                else (output_node.id,) if output_tracked else (grad_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(output_node if output_tracked else None, grad_node if grad_tracked else None),
            shapes=(output_value.shape, grad_value.shape),
            saved=(output_held, grad_held if output_tracked else None),
            recipe=(output_held, grad_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return sigmoid_backward


def record_log_sigmoid(forward, BACKWARD, inner, balanced):
    def log_sigmoid(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
            recipe=(tensor_held,) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return log_sigmoid


def record_log_sigmoid_backward(forward, BACKWARD, inner, balanced):
    def log_sigmoid_backward(x, grad):
        x_node = x.node
        x_value = x.primitive
        grad_node = grad.node
        grad_value = grad.primitive
        out = forward(x_value, grad_value)
        order = x_node.order
        if grad_node.order > order:
            order = grad_node.order
        x_tracked = x_node.requirement is not NONE
        grad_tracked = grad_node.requirement is not NONE
        if not (x_tracked or grad_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and x_tracked and grad_tracked
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        grad_held = grad_node if balanced and grad_node.properties is MEMORY_BOUND else grad_value
        out_node = new_node(
            parents=(
                (x_node.id, grad_node.id)
                if x_tracked and grad_tracked
                else (x_node.id,) if x_tracked else (grad_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node if x_tracked else None, grad_node if grad_tracked else None),
            shapes=(x_value.shape, grad_value.shape),
            saved=(x_held, grad_held if x_tracked else None),
            recipe=(x_held, grad_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return log_sigmoid_backward


def record_softmax(forward, BACKWARD, inner, balanced):
    def softmax(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(out, dim),
        )
        return autodiff_tensor(out, out_node)

    return softmax


def record_log_softmax(forward, BACKWARD, inner, balanced):
    def log_softmax(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(out, dim),
        )
        return autodiff_tensor(out, out_node)

    return log_softmax


def record_float_sum(forward, BACKWARD, inner, balanced):
    def float_sum(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape,),
        )
        return autodiff_tensor(out, out_node)

    return float_sum


def record_float_sum_dim(forward, BACKWARD, inner, balanced):
    def float_sum_dim(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape,),
        )
        return autodiff_tensor(out, out_node)

    return float_sum_dim


def record_float_mean(forward, BACKWARD, inner, balanced):
    def float_mean(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_value.shape,),
        )
        return autodiff_tensor(out, out_node)

    return float_mean


def record_float_mean_dim(forward, BACKWARD, inner, balanced):
    def float_mean_dim(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, dim),
        )
        return autodiff_tensor(out, out_node)

    return float_mean_dim


def record_float_prod(forward, BACKWARD, inner, balanced):
    def float_prod(tensor):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            saved=(tensor_held,),
        )
        return autodiff_tensor(out, out_node)

    return float_prod


def record_float_prod_dim(forward, BACKWARD, inner, balanced):
    def float_prod_dim(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, dim),
        )
        return autodiff_tensor(out, out_node)

    return float_prod_dim


def record_float_max_dim_with_indices(forward, BACKWARD, inner, balanced):
    def float_max_dim_with_indices(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        result = forward(tensor_value, dim)
        out = result[0]
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, dim, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return float_max_dim_with_indices


def record_float_min_dim_with_indices(forward, BACKWARD, inner, balanced):
    def float_min_dim_with_indices(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        result = forward(tensor_value, dim)
        out = result[0]
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, dim, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return float_min_dim_with_indices


def record_float_cumsum(forward, BACKWARD, inner, balanced):
    def float_cumsum(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim,),
        )
        return autodiff_tensor(out, out_node)

    return float_cumsum


def record_float_cumprod(forward, BACKWARD, inner, balanced):
    def float_cumprod(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, out, dim),
        )
        return autodiff_tensor(out, out_node)

    return float_cumprod


def record_float_cummin(forward, BACKWARD, inner, balanced):
    def float_cummin(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, out, dim),
        )
        return autodiff_tensor(out, out_node)

    return float_cummin


def record_float_cummax(forward, BACKWARD, inner, balanced):
    def float_cummax(tensor, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_held, out, dim),
        )
        return autodiff_tensor(out, out_node)

    return float_cummax


def record_float_sort_with_indices(forward, BACKWARD, inner, balanced):
    def float_sort_with_indices(tensor, dim, descending):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        result = forward(tensor_value, dim, descending)
        out = result[0]
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, dim, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return float_sort_with_indices


def record_float_topk_with_indices(forward, BACKWARD, inner, balanced):
    def float_topk_with_indices(tensor, k, dim):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        result = forward(tensor_value, k, dim)
        out = result[0]
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape, dim, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return float_topk_with_indices


def record_float_reshape(forward, BACKWARD, inner, balanced):
    def float_reshape(tensor, shape):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, shape)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(tensor_value.shape,),
            recipe=(tensor_held, shape) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_reshape


def record_float_swap_dims(forward, BACKWARD, inner, balanced):
    def float_swap_dims(tensor, dim1, dim2):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim1, dim2)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim1, dim2),
            recipe=(tensor_held, dim1, dim2) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_swap_dims


def record_float_permute(forward, BACKWARD, inner, balanced):
    def float_permute(tensor, axes):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, axes)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(axes,),
            recipe=(tensor_held, axes) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_permute


def record_float_flip(forward, BACKWARD, inner, balanced):
    def float_flip(tensor, axes):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, axes)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(axes,),
            recipe=(tensor_held, axes) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_flip


def record_float_expand(forward, BACKWARD, inner, balanced):
    def float_expand(tensor, shape):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, shape)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            recipe=(tensor_held, shape) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_expand


def record_float_repeat_dim(forward, BACKWARD, inner, balanced):
    def float_repeat_dim(tensor, dim, times):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim, times)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim, times, tensor_value.shape),
            recipe=(tensor_held, dim, times) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_repeat_dim


def record_float_slice(forward, BACKWARD, inner, balanced):
    def float_slice(tensor, slices):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, slices)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(slices, tensor_value.shape),
            recipe=(tensor_held, slices) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_slice


def record_float_slice_assign(forward, BACKWARD, inner, balanced):
    def float_slice_assign(tensor, slices, value):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(tensor_value, slices, value_value)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and tensor_tracked and value_tracked
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        value_held = (
            value_node if balanced and value_node.properties is MEMORY_BOUND else value_value
        )
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(slices, value_value.shape if tensor_tracked else None),
            recipe=(tensor_held, slices, value_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_slice_assign


def record_float_cat(forward, BACKWARD, inner, balanced):
    def float_cat(tensors, dim):
        tensors_nodes = [t.node for t in tensors]
        tensors_value = [t.primitive for t in tensors]
        out = forward(tensors_value, dim)
        order = max([n.order for n in tensors_nodes])
        tensors_parents = tuple([m if m.requirement is not NONE else None for m in tensors_nodes])
        tensors_tracked = any(tensors_parents)
        if not tensors_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        inputs = (tensors_parents,)
        out_node = new_node(
            parents=tuple([m.id for m in tensors_parents if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(tuple([v.shape for v in tensors_value]),),
            saved=(dim, [v.shape for v in tensors_value]),
        )
        return autodiff_tensor(out, out_node)

    return float_cat


def record_float_unfold(forward, BACKWARD, inner, balanced):
    def float_unfold(tensor, dim, size, step):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim, size, step)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim, size, step, tensor_value.shape),
        )
        return autodiff_tensor(out, out_node)

    return float_unfold


def record_float_cast(forward, BACKWARD, inner, balanced):
    def float_cast(tensor, dtype):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dtype)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(inner.dtype(tensor_value),),
        )
        return autodiff_tensor(out, out_node)

    return float_cast


def record_float_gather(forward, BACKWARD, inner, balanced):
    def float_gather(dim, tensor, indices):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(dim, tensor_value, indices)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim, indices, tensor_value.shape),
        )
        return autodiff_tensor(out, out_node)

    return float_gather


def record_float_scatter(forward, BACKWARD, inner, balanced):
    def float_scatter(dim, tensor, indices, value, update):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(dim, tensor_value, indices, value_value, update)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(
                dim,
                indices,
                value_value.shape if tensor_tracked else None,
                update if tensor_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return float_scatter


def record_float_scatter_add(forward, BACKWARD, inner, balanced):
    def float_scatter_add(dim, tensor, indices, value):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(dim, tensor_value, indices, value_value)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(dim if value_tracked else None, indices if value_tracked else None),
        )
        return autodiff_tensor(out, out_node)

    return float_scatter_add


def record_float_select(forward, BACKWARD, inner, balanced):
    def float_select(tensor, dim, indices):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, dim, indices)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(dim, indices, tensor_value.shape),
            recipe=(tensor_held, dim, indices) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_select


def record_float_select_assign(forward, BACKWARD, inner, balanced):
    def float_select_assign(tensor, dim, indices, value, update):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(tensor_value, dim, indices, value_value, update)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and tensor_tracked and value_tracked
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        value_held = (
            value_node if balanced and value_node.properties is MEMORY_BOUND else value_value
        )
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(
                dim,
                indices,
                value_value.shape if tensor_tracked else None,
                update if tensor_tracked else None,
            ),
            recipe=(tensor_held, dim, indices, value_held, update) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_select_assign


def record_float_select_add(forward, BACKWARD, inner, balanced):
    def float_select_add(tensor, dim, indices, value):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(tensor_value, dim, indices, value_value)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced and tensor_tracked and value_tracked
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        value_held = (
            value_node if balanced and value_node.properties is MEMORY_BOUND else value_value
        )
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(dim if value_tracked else None, indices if value_tracked else None),
            recipe=(tensor_held, dim, indices, value_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_select_add


def record_float_mask_where(forward, BACKWARD, inner, balanced):
    def float_mask_where(tensor, mask, value):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        value_node = value.node
        value_value = value.primitive
        out = forward(tensor_value, mask, value_value)
        order = tensor_node.order
        if value_node.order > order:
            order = value_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        if not (tensor_tracked or value_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(
                (tensor_node.id, value_node.id)
                if tensor_tracked and value_tracked
                else (tensor_node.id,) if tensor_tracked else (value_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, value_node if value_tracked else None),
            shapes=(tensor_value.shape, value_value.shape),
            saved=(mask,),
        )
        return autodiff_tensor(out, out_node)

    return float_mask_where


def record_float_mask_fill(forward, BACKWARD, inner, balanced):
    def float_mask_fill(tensor, mask, value):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, mask, value)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(mask,),
        )
        return autodiff_tensor(out, out_node)

    return float_mask_fill


def record_float_mask_select(forward, BACKWARD, inner, balanced):
    def float_mask_select(tensor, mask):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, mask)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(mask, tensor_value.shape),
            recipe=(tensor_held, mask) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return float_mask_select


def record_float_gather_nd(forward, BACKWARD, inner, balanced):
    def float_gather_nd(data, indices):
        data_node = data.node
        data_value = data.primitive
        out = forward(data_value, indices)
        order = data_node.order
        data_tracked = data_node.requirement is not NONE
        if not data_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(data_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(data_node,),
            shapes=(data_value.shape,),
            saved=(indices, data_value.shape),
        )
        return autodiff_tensor(out, out_node)

    return float_gather_nd


def record_float_scatter_nd(forward, BACKWARD, inner, balanced):
    def float_scatter_nd(data, indices, values, reduction):
        data_node = data.node
        data_value = data.primitive
        values_node = values.node
        values_value = values.primitive
        out = forward(data_value, indices, values_value, reduction)
        order = data_node.order
        if values_node.order > order:
            order = values_node.order
        data_tracked = data_node.requirement is not NONE
        values_tracked = values_node.requirement is not NONE
        if not (data_tracked or values_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        data_held = data_node if balanced and data_node.properties is MEMORY_BOUND else data_value
        values_held = (
            values_node if balanced and values_node.properties is MEMORY_BOUND else values_value
        )
        out_node = new_node(
            parents=(
                (data_node.id, values_node.id)
                if data_tracked and values_tracked
                else (data_node.id,) if data_tracked else (values_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(data_node if data_tracked else None, values_node if values_tracked else None),
            shapes=(data_value.shape, values_value.shape),
            saved=(data_held, indices, values_held, reduction),
        )
        return autodiff_tensor(out, out_node)

    return float_scatter_nd


def record_float_grid_sample_2d(forward, BACKWARD, inner, balanced):
    def float_grid_sample_2d(tensor, grid, mode, padding_mode, align_corners):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        grid_node = grid.node
        grid_value = grid.primitive
        out = forward(tensor_value, grid_value, mode, padding_mode, align_corners)
        order = tensor_node.order
        if grid_node.order > order:
            order = grid_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        grid_tracked = grid_node.requirement is not NONE
        if not (tensor_tracked or grid_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        tensor_held = (
            tensor_node if balanced and tensor_node.properties is MEMORY_BOUND else tensor_value
        )
        grid_held = grid_node if balanced and grid_node.properties is MEMORY_BOUND else grid_value
        out_node = new_node(
            parents=(
                (tensor_node.id, grid_node.id)
                if tensor_tracked and grid_tracked
                else (tensor_node.id,) if tensor_tracked else (grid_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node if tensor_tracked else None, grid_node if grid_tracked else None),
            shapes=(tensor_value.shape, grid_value.shape),
            saved=(
                tensor_value.shape if tensor_tracked else None,
                grid_held,
                mode,
                padding_mode,
                align_corners,
                tensor_held if grid_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return float_grid_sample_2d


def record_float_to_device(forward, BACKWARD, inner, balanced):
    def float_to_device(tensor, device):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, device)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(inner.device_of(tensor_value),),
        )
        return autodiff_tensor(out, out_node)

    return float_to_device


def record_embedding(forward, BACKWARD, inner, balanced):
    def embedding(weights, indices):
        weights_node = weights.node
        weights_value = weights.primitive
        out = forward(weights_value, indices)
        order = weights_node.order
        weights_tracked = weights_node.requirement is not NONE
        if not weights_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        memory_bound = balanced
        weights_held = (
            weights_node if balanced and weights_node.properties is MEMORY_BOUND else weights_value
        )
        out_node = new_node(
            parents=(weights_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=MEMORY_BOUND if memory_bound else COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(weights_node,),
            shapes=(weights_value.shape,),
            saved=(weights_held, indices),
            recipe=(weights_held, indices) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return embedding


def record_linear(forward, BACKWARD, inner, balanced):
    def linear(input, weight, bias):
        input_node = input.node
        input_value = input.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(input_value, weight_value, bias_value)
        order = input_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        input_tracked = input_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (input_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        input_held = (
            input_node if balanced and input_node.properties is MEMORY_BOUND else input_value
        )
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            input_node if input_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(
                input_value.shape,
                weight_value.shape,
                None if bias is None else bias_value.shape,
            ),
            saved=(weight_held if input_tracked else None, input_held if weight_tracked else None),
        )
        return autodiff_tensor(out, out_node)

    return linear


def record_conv1d(forward, BACKWARD, inner, balanced):
    def conv1d(x, weight, bias, stride, padding, dilation, groups, padding_end):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, dilation, groups, padding_end
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                x_held if x_tracked or weight_tracked else None,
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                padding_end if x_tracked or weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv1d


def record_conv2d(forward, BACKWARD, inner, balanced):
    def conv2d(x, weight, bias, stride, padding, dilation, groups, padding_end):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, dilation, groups, padding_end
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                x_held if x_tracked or weight_tracked else None,
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                padding_end if x_tracked or weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv2d


def record_conv3d(forward, BACKWARD, inner, balanced):
    def conv3d(x, weight, bias, stride, padding, dilation, groups, padding_end):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, dilation, groups, padding_end
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                x_held if x_tracked or weight_tracked else None,
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                padding_end if x_tracked or weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv3d


def record_conv_transpose1d(forward, BACKWARD, inner, balanced):
    def conv_transpose1d(x, weight, bias, stride, padding, padding_out, dilation, groups):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, padding_out, dilation, groups
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                padding_out if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                x_held if weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv_transpose1d


def record_conv_transpose2d(forward, BACKWARD, inner, balanced):
    def conv_transpose2d(x, weight, bias, stride, padding, padding_out, dilation, groups):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, padding_out, dilation, groups
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                padding_out if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                x_held if weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv_transpose2d


def record_conv_transpose3d(forward, BACKWARD, inner, balanced):
    def conv_transpose3d(x, weight, bias, stride, padding, padding_out, dilation, groups):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value, weight_value, bias_value, stride, padding, padding_out, dilation, groups
        )
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or weight_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        inputs = (
            x_node if x_tracked else None,
            weight_node if weight_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(x_value.shape, weight_value.shape, None if bias is None else bias_value.shape),
            saved=(
                weight_held if x_tracked or weight_tracked else None,
                stride if x_tracked or weight_tracked else None,
                padding if x_tracked or weight_tracked else None,
                padding_out if x_tracked or weight_tracked else None,
                dilation if x_tracked or weight_tracked else None,
                groups if x_tracked or weight_tracked else None,
                x_held if weight_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return conv_transpose3d


def record_unfold4d(forward, BACKWARD, inner, balanced):
    def unfold4d(x, kernel_size, stride, padding, dilation):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, kernel_size, stride, padding, dilation)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_value.shape, kernel_size, stride, padding, dilation),
        )
        return autodiff_tensor(out, out_node)

    return unfold4d


def record_fold4d(forward, BACKWARD, inner, balanced):
    def fold4d(x, output_size, kernel_size, stride, padding, dilation):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, output_size, kernel_size, stride, padding, dilation)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(kernel_size, stride, padding, dilation),
        )
        return autodiff_tensor(out, out_node)

    return fold4d


def record_max_pool1d(forward, BACKWARD, inner, balanced):
    def max_pool1d(x, kernel_size, stride, padding, dilation, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(
                forward(x_value, kernel_size, stride, padding, dilation, ceil_mode),
                untracked_node(order),
            )
        out, argmax = inner.max_pool1d_keeping(
            x_value, kernel_size, stride, padding, dilation, ceil_mode
        )
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, dilation, ceil_mode, argmax),
        )
        return autodiff_tensor(out, out_node)

    return max_pool1d


def record_max_pool1d_with_indices(forward, BACKWARD, inner, balanced):
    def max_pool1d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        result = forward(x_value, kernel_size, stride, padding, dilation, ceil_mode)
        out = result[0]
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, dilation, ceil_mode, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return max_pool1d_with_indices


def record_max_pool2d(forward, BACKWARD, inner, balanced):
    def max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(
                forward(x_value, kernel_size, stride, padding, dilation, ceil_mode),
                untracked_node(order),
            )
        out, argmax = inner.max_pool2d_keeping(
            x_value, kernel_size, stride, padding, dilation, ceil_mode
        )
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, dilation, ceil_mode, argmax),
        )
        return autodiff_tensor(out, out_node)

    return max_pool2d


def record_max_pool2d_with_indices(forward, BACKWARD, inner, balanced):
    def max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        result = forward(x_value, kernel_size, stride, padding, dilation, ceil_mode)
        out = result[0]
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (autodiff_tensor(out, untracked_node(order)), result[1])
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, dilation, ceil_mode, result[1]),
        )
        return (autodiff_tensor(out, out_node), result[1])

    return max_pool2d_with_indices


def record_avg_pool1d(forward, BACKWARD, inner, balanced):
    def avg_pool1d(x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, kernel_size, stride, padding, count_include_pad, ceil_mode)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, count_include_pad, ceil_mode),
        )
        return autodiff_tensor(out, out_node)

    return avg_pool1d


def record_avg_pool2d(forward, BACKWARD, inner, balanced):
    def avg_pool2d(x, kernel_size, stride, padding, count_include_pad, ceil_mode):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, kernel_size, stride, padding, count_include_pad, ceil_mode)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, kernel_size, stride, padding, count_include_pad, ceil_mode),
        )
        return autodiff_tensor(out, out_node)

    return avg_pool2d


def record_adaptive_avg_pool1d(forward, BACKWARD, inner, balanced):
    def adaptive_avg_pool1d(x, output_size):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, output_size)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held,),
        )
        return autodiff_tensor(out, out_node)

    return adaptive_avg_pool1d


def record_adaptive_avg_pool2d(forward, BACKWARD, inner, balanced):
    def adaptive_avg_pool2d(x, output_size):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, output_size)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held,),
        )
        return autodiff_tensor(out, out_node)

    return adaptive_avg_pool2d


def record_adaptive_avg_pool3d(forward, BACKWARD, inner, balanced):
    def adaptive_avg_pool3d(x, output_size):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, output_size)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held,),
        )
        return autodiff_tensor(out, out_node)

    return adaptive_avg_pool3d


def record_interpolate(forward, BACKWARD, inner, balanced):
    def interpolate(x, output_size, mode, align_corners):
        x_node = x.node
        x_value = x.primitive
        out = forward(x_value, output_size, mode, align_corners)
        order = x_node.order
        x_tracked = x_node.requirement is not NONE
        if not x_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        out_node = new_node(
            parents=(x_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(x_node,),
            shapes=(x_value.shape,),
            saved=(x_held, output_size, mode, align_corners),
        )
        return autodiff_tensor(out, out_node)

    return interpolate


def record_attention(forward, BACKWARD, inner, balanced):
    def attention(query, key, value, mask, attn_bias, scale, softcap, is_causal):
        query_node = query.node
        query_value = query.primitive
        key_node = key.node
        key_value = key.primitive
        value_node = value.node
        value_value = value.primitive
        attn_bias_node = None if attn_bias is None else attn_bias.node
        attn_bias_value = None if attn_bias is None else attn_bias.primitive
        order = query_node.order
        if key_node.order > order:
            order = key_node.order
        if value_node.order > order:
            order = value_node.order
        if attn_bias is not None and attn_bias_node.order > order:
            order = attn_bias_node.order
        query_tracked = query_node.requirement is not NONE
        key_tracked = key_node.requirement is not NONE
        value_tracked = value_node.requirement is not NONE
        attn_bias_tracked = attn_bias is not None and attn_bias_node.requirement is not NONE
        if (
            not (query_tracked or key_tracked or value_tracked or attn_bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(
                forward(
                    query_value,
                    key_value,
                    value_value,
                    mask,
                    attn_bias_value,
                    scale,
                    softcap,
                    is_causal,
                ),
                untracked_node(order),
            )
        out, probabilities = inner.attention_keeping(
            query_value, key_value, value_value, mask, attn_bias_value, scale, softcap, is_causal
        )
        query_held = (
            query_node if balanced and query_node.properties is MEMORY_BOUND else query_value
        )
        key_held = key_node if balanced and key_node.properties is MEMORY_BOUND else key_value
        value_held = (
            value_node if balanced and value_node.properties is MEMORY_BOUND else value_value
        )
        attn_bias_held = (
            attn_bias_node
            if balanced and attn_bias is not None and attn_bias_node.properties is MEMORY_BOUND
            else attn_bias_value
        )
        inputs = (
            query_node if query_tracked else None,
            key_node if key_tracked else None,
            value_node if value_tracked else None,
            attn_bias_node if attn_bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(
                query_value.shape,
                key_value.shape,
                value_value.shape,
                None if attn_bias is None else attn_bias_value.shape,
            ),
            saved=(
                query_held,
                key_held,
                value_held,
                mask,
                attn_bias_held,
                scale,
                softcap,
                is_causal,
                probabilities,
            ),
        )
        return autodiff_tensor(out, out_node)

    return attention


def record_batch_norm(forward, BACKWARD, inner, balanced):
    def batch_norm(input, gamma, beta, mean, variance, epsilon):
        input_node = input.node
        input_value = input.primitive
        gamma_node = gamma.node
        gamma_value = gamma.primitive
        beta_node = beta.node
        beta_value = beta.primitive
        mean_node = mean.node
        mean_value = mean.primitive
        variance_node = variance.node
        variance_value = variance.primitive
        out = forward(input_value, gamma_value, beta_value, mean_value, variance_value, epsilon)
        order = input_node.order
        if gamma_node.order > order:
            order = gamma_node.order
        if beta_node.order > order:
            order = beta_node.order
        if mean_node.order > order:
            order = mean_node.order
        if variance_node.order > order:
            order = variance_node.order
        input_tracked = input_node.requirement is not NONE
        gamma_tracked = gamma_node.requirement is not NONE
        beta_tracked = beta_node.requirement is not NONE
        mean_tracked = mean_node.requirement is not NONE
        variance_tracked = variance_node.requirement is not NONE
        if (
            not (input_tracked or gamma_tracked or beta_tracked or mean_tracked or variance_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        input_held = (
            input_node if balanced and input_node.properties is MEMORY_BOUND else input_value
        )
        gamma_held = (
            gamma_node if balanced and gamma_node.properties is MEMORY_BOUND else gamma_value
        )
        mean_held = mean_node if balanced and mean_node.properties is MEMORY_BOUND else mean_value
        variance_held = (
            variance_node
            if balanced and variance_node.properties is MEMORY_BOUND
            else variance_value
        )
        inputs = (
            input_node if input_tracked else None,
            gamma_node if gamma_tracked else None,
            beta_node if beta_tracked else None,
            mean_node if mean_tracked else None,
            variance_node if variance_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(
                input_value.shape,
                gamma_value.shape,
                beta_value.shape,
                mean_value.shape,
                variance_value.shape,
            ),
            saved=(
                gamma_held if input_tracked or mean_tracked or variance_tracked else None,
                (
                    variance_held
                    if input_tracked or gamma_tracked or mean_tracked or variance_tracked
                    else None
                ),
                (
                    epsilon
                    if input_tracked or gamma_tracked or mean_tracked or variance_tracked
                    else None
                ),
                input_held if gamma_tracked or variance_tracked else None,
                mean_held if gamma_tracked or variance_tracked else None,
            ),
        )
        return autodiff_tensor(out, out_node)

    return batch_norm


def record_batch_norm_training(forward, BACKWARD, inner, balanced):
    def batch_norm_training(input, gamma, beta, epsilon):
        input_node = input.node
        input_value = input.primitive
        gamma_node = gamma.node
        gamma_value = gamma.primitive
        beta_node = beta.node
        beta_value = beta.primitive
        result = forward(input_value, gamma_value, beta_value, epsilon)
        out = (result[0], result[1], result[2])
        order = input_node.order
        if gamma_node.order > order:
            order = gamma_node.order
        if beta_node.order > order:
            order = beta_node.order
        input_tracked = input_node.requirement is not NONE
        gamma_tracked = gamma_node.requirement is not NONE
        beta_tracked = beta_node.requirement is not NONE
        if (
            not (input_tracked or gamma_tracked or beta_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return (
                autodiff_tensor(result[0], untracked_node(order)),
                autodiff_tensor(result[1], untracked_node(order)),
                autodiff_tensor(result[2], untracked_node(order)),
            )
        input_held = (
            input_node if balanced and input_node.properties is MEMORY_BOUND else input_value
        )
        gamma_held = (
            gamma_node if balanced and gamma_node.properties is MEMORY_BOUND else gamma_value
        )
        inputs = (
            input_node if input_tracked else None,
            gamma_node if gamma_tracked else None,
            beta_node if beta_tracked else None,
        )
        hub = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(input_value.shape, gamma_value.shape, beta_value.shape),
            saved=(input_held, gamma_held, out, epsilon),
        )
        return (
            autodiff_tensor(result[0], output_node(hub, 0, 3)),
            autodiff_tensor(result[1], output_node(hub, 1, 3)),
            autodiff_tensor(result[2], output_node(hub, 2, 3)),
        )

    return batch_norm_training


def record_layer_norm(forward, BACKWARD, inner, balanced):
    def layer_norm(input, gamma, beta, epsilon):
        input_node = input.node
        input_value = input.primitive
        gamma_node = gamma.node
        gamma_value = gamma.primitive
        beta_node = None if beta is None else beta.node
        beta_value = None if beta is None else beta.primitive
        order = input_node.order
        if gamma_node.order > order:
            order = gamma_node.order
        if beta is not None and beta_node.order > order:
            order = beta_node.order
        input_tracked = input_node.requirement is not NONE
        gamma_tracked = gamma_node.requirement is not NONE
        beta_tracked = beta is not None and beta_node.requirement is not NONE
        if (
            not (input_tracked or gamma_tracked or beta_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(
                forward(input_value, gamma_value, beta_value, epsilon), untracked_node(order)
            )
        out, statistics = inner.layer_norm_keeping(input_value, gamma_value, beta_value, epsilon)
        input_held = (
            input_node if balanced and input_node.properties is MEMORY_BOUND else input_value
        )
        gamma_held = (
            gamma_node if balanced and gamma_node.properties is MEMORY_BOUND else gamma_value
        )
        inputs = (
            input_node if input_tracked else None,
            gamma_node if gamma_tracked else None,
            beta_node if beta_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(
                input_value.shape,
                gamma_value.shape,
                None if beta is None else beta_value.shape,
            ),
            saved=(input_held, gamma_held, epsilon, statistics),
        )
        return autodiff_tensor(out, out_node)

    return layer_norm


def record_rms_norm(forward, BACKWARD, inner, balanced):
    def rms_norm(input, gamma, epsilon):
        input_node = input.node
        input_value = input.primitive
        gamma_node = gamma.node
        gamma_value = gamma.primitive
        order = input_node.order
        if gamma_node.order > order:
            order = gamma_node.order
        input_tracked = input_node.requirement is not NONE
        gamma_tracked = gamma_node.requirement is not NONE
        if not (input_tracked or gamma_tracked) or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(
                forward(input_value, gamma_value, epsilon), untracked_node(order)
            )
        out, inverse_rms = inner.rms_norm_keeping(input_value, gamma_value, epsilon)
        input_held = (
            input_node if balanced and input_node.properties is MEMORY_BOUND else input_value
        )
        gamma_held = (
            gamma_node if balanced and gamma_node.properties is MEMORY_BOUND else gamma_value
        )
        out_node = new_node(
            parents=(
                (input_node.id, gamma_node.id)
                if input_tracked and gamma_tracked
                else (input_node.id,) if input_tracked else (gamma_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(input_node if input_tracked else None, gamma_node if gamma_tracked else None),
            shapes=(input_value.shape, gamma_value.shape),
            saved=(input_held, gamma_held, epsilon, inverse_rms),
        )
        return autodiff_tensor(out, out_node)

    return rms_norm


def record_ctc_loss(forward, BACKWARD, inner, balanced):
    def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank):
        log_probs_node = log_probs.node
        log_probs_value = log_probs.primitive
        out = forward(log_probs_value, targets, input_lengths, target_lengths, blank)
        order = log_probs_node.order
        log_probs_tracked = log_probs_node.requirement is not NONE
        if not log_probs_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        log_probs_held = (
            log_probs_node
            if balanced and log_probs_node.properties is MEMORY_BOUND
            else log_probs_value
        )
        out_node = new_node(
            parents=(log_probs_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(log_probs_node,),
            shapes=(log_probs_value.shape,),
            saved=(log_probs_held, targets, input_lengths, target_lengths, blank),
        )
        return autodiff_tensor(out, out_node)

    return ctc_loss


def record_cross_entropy_class_targets(forward, BACKWARD, inner, balanced):
    def cross_entropy_class_targets(logits, targets):
        logits_node = logits.node
        logits_value = logits.primitive
        order = logits_node.order
        logits_tracked = logits_node.requirement is not NONE
        if not logits_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(forward(logits_value, targets), untracked_node(order))
        out, probabilities = inner.cross_entropy_class_targets_keeping(logits_value, targets)
        logits_held = (
            logits_node if balanced and logits_node.properties is MEMORY_BOUND else logits_value
        )
        out_node = new_node(
            parents=(logits_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(logits_node,),
            shapes=(logits_value.shape,),
            saved=(logits_held, targets, probabilities),
        )
        return autodiff_tensor(out, out_node)

    return cross_entropy_class_targets


def record_rfft(forward, BACKWARD, inner, balanced):
    def rfft(signal, dim, n):
        signal_node = signal.node
        signal_value = signal.primitive
        result = forward(signal_value, dim, n)
        out = (result[0], result[1])
        order = signal_node.order
        signal_tracked = signal_node.requirement is not NONE
        if not signal_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return (
                autodiff_tensor(result[0], untracked_node(order)),
                autodiff_tensor(result[1], untracked_node(order)),
            )
        hub = new_node(
            parents=(signal_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(signal_node,),
            shapes=(signal_value.shape,),
            saved=(signal_value.shape, dim, n),
        )
        return (
            autodiff_tensor(result[0], output_node(hub, 0, 2)),
            autodiff_tensor(result[1], output_node(hub, 1, 2)),
        )

    return rfft


def record_irfft(forward, BACKWARD, inner, balanced):
    def irfft(spectrum_re, spectrum_im, dim, n):
        spectrum_re_node = spectrum_re.node
        spectrum_re_value = spectrum_re.primitive
        spectrum_im_node = spectrum_im.node
        spectrum_im_value = spectrum_im.primitive
        out = forward(spectrum_re_value, spectrum_im_value, dim, n)
        order = spectrum_re_node.order
        if spectrum_im_node.order > order:
            order = spectrum_im_node.order
        spectrum_re_tracked = spectrum_re_node.requirement is not NONE
        spectrum_im_tracked = spectrum_im_node.requirement is not NONE
        if (
            not (spectrum_re_tracked or spectrum_im_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(
                (spectrum_re_node.id, spectrum_im_node.id)
                if spectrum_re_tracked and spectrum_im_tracked
                else (spectrum_re_node.id,) if spectrum_re_tracked else (spectrum_im_node.id,)
            ),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(
                spectrum_re_node if spectrum_re_tracked else None,
                spectrum_im_node if spectrum_im_tracked else None,
            ),
            shapes=(spectrum_re_value.shape, spectrum_im_value.shape),
            saved=(spectrum_re_value.shape, dim, n),
        )
        return autodiff_tensor(out, out_node)

    return irfft


def record_fft(forward, BACKWARD, inner, balanced):
    def fft(signal, dim, inverse):
        signal_node = signal.node
        signal_value = signal.primitive
        out = forward(signal_value, dim, inverse)
        order = signal_node.order
        signal_tracked = signal_node.requirement is not NONE
        if not signal_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(signal_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(signal_node,),
            shapes=(signal_value.shape,),
            saved=(signal_value.shape, dim, inverse),
        )
        return autodiff_tensor(out, out_node)

    return fft


def record_deform_conv2d(forward, BACKWARD, inner, balanced):
    def deform_conv2d(
        x, offset, weight, mask, bias, stride, padding, dilation, weight_groups, offset_groups
    ):
        x_node = x.node
        x_value = x.primitive
        offset_node = offset.node
        offset_value = offset.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        mask_node = None if mask is None else mask.node
        mask_value = None if mask is None else mask.primitive
        bias_node = None if bias is None else bias.node
        bias_value = None if bias is None else bias.primitive
        out = forward(
            x_value,
            offset_value,
            weight_value,
            mask_value,
            bias_value,
            stride,
            padding,
            dilation,
            weight_groups,
            offset_groups,
        )
        order = x_node.order
        if offset_node.order > order:
            order = offset_node.order
        if weight_node.order > order:
            order = weight_node.order
        if mask is not None and mask_node.order > order:
            order = mask_node.order
        if bias is not None and bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        offset_tracked = offset_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        mask_tracked = mask is not None and mask_node.requirement is not NONE
        bias_tracked = bias is not None and bias_node.requirement is not NONE
        if (
            not (x_tracked or offset_tracked or weight_tracked or mask_tracked or bias_tracked)
            or GRAD_MODE.blocks
            and GRAD_MODE.paused
        ):
            return autodiff_tensor(out, untracked_node(order))
        x_held = x_node if balanced and x_node.properties is MEMORY_BOUND else x_value
        offset_held = (
            offset_node if balanced and offset_node.properties is MEMORY_BOUND else offset_value
        )
        weight_held = (
            weight_node if balanced and weight_node.properties is MEMORY_BOUND else weight_value
        )
        mask_held = (
            mask_node
            if balanced and mask is not None and mask_node.properties is MEMORY_BOUND
            else mask_value
        )
        bias_held = (
            bias_node
            if balanced and bias is not None and bias_node.properties is MEMORY_BOUND
            else bias_value
        )
        inputs = (
            x_node if x_tracked else None,
            offset_node if offset_tracked else None,
            weight_node if weight_tracked else None,
            mask_node if mask_tracked else None,
            bias_node if bias_tracked else None,
        )
        out_node = new_node(
            parents=tuple([m.id for m in inputs if m is not None]),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=inputs,
            shapes=(
                x_value.shape,
                offset_value.shape,
                weight_value.shape,
                None if mask is None else mask_value.shape,
                None if bias is None else bias_value.shape,
            ),
            saved=(
                x_held,
                offset_held,
                weight_held,
                mask_held,
                bias_held,
                stride,
                padding,
                dilation,
                weight_groups,
                offset_groups,
            ),
        )
        return autodiff_tensor(out, out_node)

    return deform_conv2d


def record_move_across(forward, BACKWARD, inner, balanced):
    def move_across(tensor, target, device):
        tensor_node = tensor.node
        tensor_value = tensor.primitive
        out = forward(tensor_value, target, device)
        order = tensor_node.order
        tensor_tracked = tensor_node.requirement is not NONE
        if not tensor_tracked or GRAD_MODE.blocks and GRAD_MODE.paused:
            return autodiff_tensor(out, untracked_node(order))
        out_node = new_node(
            parents=(tensor_node.id,),
            order=order + 1,
            id=next_id(),
            requirement=TRACKED,
            properties=COMPUTE_BOUND,
            step=BACKWARD,
            inputs=(tensor_node,),
            shapes=(tensor_value.shape,),
            saved=(target, inner.device_of(tensor_value)),
        )
        return autodiff_tensor(out, out_node)

    return move_across
