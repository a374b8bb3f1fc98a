"""Access to `burnpy.generated.module` (burn's ModuleOps), imported when a layer first runs."""


def module_ops():
    from burnpy.generated import module

    return module
