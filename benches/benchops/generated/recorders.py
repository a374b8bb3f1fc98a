# @generated from ops.yaml by `python -m codegen`; do not edit. render=cd639861150c3841 body=f9fa9a4ca00b5a31
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


def record_times(forward, BACKWARD, inner, balanced):
    def times(lhs, rhs):
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

    return times
