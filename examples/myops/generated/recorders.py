# @generated from ops.yaml by `python -m codegen`; do not edit. render=be72fb3c00a37675 body=993127bd3a64ad75
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


def record_logaddexp(forward, BACKWARD, inner, balanced):
    def logaddexp(lhs, rhs):
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
                lhs_held if lhs_tracked else None,
                SELF if memory_bound else out,
                rhs_held if rhs_tracked else None,
            ),
            recipe=(lhs_held, rhs_held) if memory_bound else None,
        )
        return autodiff_tensor(out, out_node)

    return logaddexp


def record_linear_gelu(forward, BACKWARD, inner, balanced):
    def linear_gelu(x, weight, bias):
        x_node = x.node
        x_value = x.primitive
        weight_node = weight.node
        weight_value = weight.primitive
        bias_node = bias.node
        bias_value = bias.primitive
        out = forward(x_value, weight_value, bias_value)
        order = x_node.order
        if weight_node.order > order:
            order = weight_node.order
        if bias_node.order > order:
            order = bias_node.order
        x_tracked = x_node.requirement is not NONE
        weight_tracked = weight_node.requirement is not NONE
        bias_tracked = bias_node.requirement is not NONE
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
        bias_held = bias_node if balanced and bias_node.properties is MEMORY_BOUND else bias_value
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
            shapes=(x_value.shape, weight_value.shape, bias_value.shape),
            saved=(x_held, weight_held, bias_held),
        )
        return autodiff_tensor(out, out_node)

    return linear_gelu
