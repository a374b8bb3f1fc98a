"""Every backend defines a kernel for every primitive op, and every kernel a backward rule
calls: read from source, not imported."""

import os

from burnpy.codegen.kernels import NoBackend, kernels_called, missing_libraries, read_backend
from burnpy.codegen.model import Catalogue, QRole
from burnpy.codegen.validate.report import Problems, Where, suggest
from burnpy.runtime.autodiff.ops import AutodiffRole, rule_for


def check_kernels(catalogue: Catalogue, problems: Problems) -> list[str]:
    """Every primitive op has a kernel on every backend: a shared kernel (runtime/backends/
    kernels/) or one of the backend's own; and every `B.<kernel>` its backward rule calls
    exists on every backend. A backend whose library is not installed is checked all the same;
    the warnings say so. Mistakes go to `problems`."""
    path = catalogue.path
    warnings = []
    sources = {}
    for backend in catalogue.backends:
        where = Where(path, None, f"backend {backend.name}")
        try:
            source = sources[backend.name] = read_backend(backend.module)
        except NoBackend as error:
            problems.add(
                where.error(
                    backend.line,
                    str(error),
                    "write the dotted name of a module that defines BACKEND, e.g. "
                    "burnpy.runtime.backends.numpy",
                )
            )
            continue
        missing = missing_libraries(source)
        if missing:
            install = f"pip install 'burnpy[{backend.extra}]'" if backend.extra else "install it"
            warnings.append(
                f"{path}:{backend.line}: backend {backend.name}: {', '.join(missing)} is not "
                f"installed; its kernels were checked from source, and its devices work after "
                f"`{install}`"
            )
        # an op that keeps something for its backward has its keeping forward too; of the
        # quantized ops, burn's required ones and the defaults written as kernels have one
        needed = [
            (op, kernel)
            for op in catalogue.ops
            for kernel in ([] if op.composite else [op.name])
            + ([f"{op.name}_keeping"] if op.keeps else [])
        ] + [(q, q.name) for q in catalogue.quantized if q.role in (QRole.REQUIRED, QRole.KERNEL)]
        for op, kernel in needed:
            if kernel in source.kernels:
                continue
            parameters = ", ".join(["self", *(a.name for a in op.args)])
            problems.add(
                Where(path, None, op.name).error(
                    op.line,
                    f"no kernel on backend {backend.name}: neither the shared kernels nor "
                    f"{backend.module} define `{kernel}`",
                    suggest(
                        kernel,
                        [k for k in source.kernels if not k.startswith("_")],
                        f"define `def {kernel}({parameters})` in a mixin of runtime/"
                        f"backends/kernels/ (every backend) or in {backend.module}, or make "
                        "it a `composite`",
                    ),
                )
            )
    _check_overrides(catalogue, sources, problems)
    _check_rule_kernels(catalogue, sources, problems)
    return warnings


def _check_overrides(catalogue: Catalogue, sources: dict, problems: Problems) -> None:
    """A backend's kernel named as a q-op whose default the dispatch layer makes (burn's macros)
    would never be called: overriding a default is declaring the entry's role `kernel` (the
    shared mixin's default, a backend's own kernel overriding it by inheritance)."""
    for q in catalogue.quantized:
        if q.role in (QRole.REQUIRED, QRole.KERNEL):
            continue
        defining = [name for name, source in sources.items() if q.name in source.kernels]
        if defining:
            problems.add(
                Where(catalogue.path, None, q.name).error(
                    q.line,
                    f"backend {', '.join(defining)} defines `{q.name}`, which its `{q.role}` role "
                    "never calls",
                    "to override burn's default, declare `role: kernel` and define the default "
                    "in runtime/backends/kernels/quantization.py (a backend's own kernel "
                    "overrides it), or remove the kernel",
                )
            )


def _check_rule_kernels(catalogue: Catalogue, sources: dict, problems: Problems) -> None:
    """Each `B.<kernel>` a differentiable op's rule calls, once per place in the source."""
    reported = set()
    for op in catalogue.ops:
        described = op.autodiff_op
        if described is None or described.role is not AutodiffRole.RECORD:
            continue
        try:
            rule = rule_for(described)
        except (LookupError, ValueError):  # check_rule reports it
            continue
        for fn in rule.functions:
            for call in kernels_called(fn):
                lacking = [name for name, s in sources.items() if call.kernel not in s.kernels]
                if not lacking or call in reported:
                    continue
                reported.add(call)
                known = set.intersection(*(set(s.kernels) for s in sources.values()))
                where = Where(_shown(call.path), None, f"the rule of {op.name}")
                problems.add(
                    where.error(
                        call.line,
                        f"calls `B.{call.kernel}`, which backend {', '.join(lacking)} does not "
                        "define",
                        suggest(
                            call.kernel,
                            known,
                            "call a kernel every backend has, or define it in a mixin of "
                            "runtime/backends/kernels/",
                        ),
                    )
                )


def _shown(path) -> str:
    """A source path as the user reads it: relative to the working directory when inside it."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative
