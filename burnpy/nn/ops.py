"""Access to `generated.module` (burn's ModuleOps), imported when a layer first runs."""


def module_ops():
    from generated import module

    return module
