"""Hand-written runtime: dispatch core types, inner backends and the Autodiff decorator.

Nothing here imports `burnpy.generated` or `burnpy.codegen`
(docs/design.md#layers-and-what-each-may-import).
"""

if __name__ != "burnpy.runtime":  # a checkout's root on sys.path: one copy of every class, or none
    raise ImportError(
        f"import the runtime as burnpy.runtime, not {__name__}: write `from burnpy.runtime... import ...`"
    )
