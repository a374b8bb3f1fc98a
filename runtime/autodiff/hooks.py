"""Backward hooks: code outside the runtime told, during a backward pass, the moment a Grad
leaf's gradient is complete, so that it can act on it while the rest of backward runs (the
distributed library reduces a replicated parameter's gradient across processes this way).

A hook is an object with two methods:

- `wants(node) -> bool`: whether this Grad leaf's gradient matters to the hook (asked once per
  leaf a pass reaches; a pass that reaches no wanted leaf costs the hook nothing more);
- `begin(backend) -> pass`: called when a backward pass reaching a wanted leaf starts, with the
  inner backend of its gradients. The pass object has `complete(node, grad)`, called as soon as
  no remaining step can add to the leaf's gradient `grad` (an inner primitive, possibly an alias
  of another value: never write to it) and returning the gradient to keep in its place, and
  `finish()`, called before `backward()` returns (it may block, and may raise).

`backward()` calls `finish()` also when a step fails part-way, so work already started is not
left in flight; the step's error is the one raised.
"""

HOOKS: list = []  # the registered hooks, in registration order


def register(hook) -> None:
    """Call `hook` in every backward pass from now on (until `unregister`)."""
    if hook not in HOOKS:
        HOOKS.append(hook)


def unregister(hook) -> None:
    """Stop calling `hook`; a hook that was not registered is ignored."""
    if hook in HOOKS:
        HOOKS.remove(hook)
