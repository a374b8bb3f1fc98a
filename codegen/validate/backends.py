"""Every backend defines a kernel for every primitive op: read from source, not imported."""

from codegen.kernels import NoBackend, missing_libraries, read_backend
from codegen.load import CatalogueError
from codegen.model import Catalogue


def check_kernels(catalogue: Catalogue) -> list[str]:
    """Every primitive op has a kernel on every backend: a shared kernel (runtime/backends/
    kernels/) or one of the backend's own. A backend whose library is not installed is
    checked all the same; the warnings say so."""
    path, ops = catalogue.path, catalogue.ops
    warnings = []
    for backend in catalogue.backends:
        try:
            source = read_backend(backend.module)
        except NoBackend as error:
            raise CatalogueError(
                path,
                backend.line,
                f"backend {backend.name}",
                str(error),
                "write the dotted name of a module that defines BACKEND, e.g. "
                "runtime.backends.numpy",
            ) from None
        missing = missing_libraries(source)
        if missing:
            install = f"pip install 'burnpy[{backend.extra}]'" if backend.extra else "install it"
            warnings.append(
                f"{path}:{backend.line}: backend {backend.name}: {', '.join(missing)} is not "
                f"installed; its kernels were checked from source, and its devices work after "
                f"`{install}`"
            )
        for op in ops:
            if not op.composite and op.name not in source.kernels:
                parameters = ", ".join(["self", *(a.name for a in op.args)])
                raise CatalogueError(
                    path,
                    op.line,
                    op.name,
                    f"no kernel on backend {backend.name}: neither the shared kernels nor "
                    f"{backend.module} define `{op.name}`",
                    f"define `def {op.name}({parameters})` in a mixin of runtime/backends/"
                    f"kernels/ (every backend) or in {backend.module}, or make it a `composite`",
                )
    return warnings
