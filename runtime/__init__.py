"""Hand-written runtime: dispatch core types, inner backends and the Autodiff decorator.

Nothing here imports `generated` or `codegen` (docs/design.md#layers-and-what-each-may-import).
"""
