"""Hand-written runtime: dispatch core types, inner backends and the Autodiff decorator.

Nothing here imports `generated` or `codegen` (DESIGN §2).
"""
