"""The inner backend's kernels as one typing Protocol (generated/inner.py): what a dispatch
function's `B.inner.<op>` calls, by name and signature, so an editor goes from the call to the
declaration, whose docstring names where each backend defines the kernel."""

from dataclasses import dataclass
from pathlib import Path

from burnpy.codegen.api.types import DISPATCH_TYPES, annotated
from burnpy.codegen.kernels import NoBackend, read_backend
from burnpy.codegen.model import ArgKind, Catalogue, QResult, QRole, Role

# What each argument is as the inner kernel takes it: a tensor is the backend's primitive, a
# device the backend's own device; the rest as the dispatch function takes it.
INNER_TYPES = {
    **DISPATCH_TYPES,
    ArgKind.FLOAT: "Primitive",
    ArgKind.INT: "Primitive",
    ArgKind.BOOL: "Primitive",
    ArgKind.INDICES: "Primitive",
    ArgKind.TENSORS: "list[Primitive]",
    ArgKind.DEVICE: "Any",
    ArgKind.QFLOAT: "QuantizedTensor",
    ArgKind.PRIMITIVE: "QuantizedTensor",
    ArgKind.SCHEME: "QuantScheme",
    ArgKind.DATA: "np.ndarray",
}
Q_RESULTS = {QResult.QFLOAT: "QuantizedTensor", QResult.DATA: "tuple[np.ndarray, np.ndarray]"}
ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class InnerKernel:
    name: str
    params: str  # annotated, after `self`
    returns: str
    doc: str  # the op's doc
    defined: tuple[str, ...]  # per backend: `NumPy: Class.kernel in path`


def inner_kernels(catalogue: Catalogue) -> list[InnerKernel]:
    """Every kernel a dispatch function calls on the inner backend, in catalogue order."""
    sources = {}
    for backend in catalogue.backends:
        try:
            sources[backend.variant] = read_backend(backend.module).kernels
        except NoBackend:  # the validator reports it
            sources[backend.variant] = {}
    kernels = [
        InnerKernel(
            op.name,
            ", ".join(annotated(a, INNER_TYPES) for a in op.args),
            _returns(len(op.returns)),
            op.doc,
            _defined(op.name, sources),
        )
        for op in catalogue.ops
        if op.role is not Role.COMPOSITE
    ]
    kernels += [
        InnerKernel(
            q.name,
            ", ".join(annotated(a, INNER_TYPES) for a in q.args),
            Q_RESULTS.get(q.returns[0], "Primitive"),
            q.doc,
            _defined(q.name, sources),
        )
        for q in catalogue.quantized
        if q.role in (QRole.REQUIRED, QRole.KERNEL)
    ]
    move = "tensor: Primitive, target: Any, device: Any"  # a move between two backends
    doc = "Moves `tensor` to `device` of the backend `target` (a move between backends)."
    return kernels + [
        InnerKernel("move_across", move, "Primitive", doc, _defined("move_across", sources))
    ]


def data_dependent(catalogue: Catalogue) -> list[str]:
    """The kernels whose result's shape depends on their inputs' values (`data_dependent:
    true`), in catalogue order: what a captured step refuses to record."""
    return [op.name for op in catalogue.ops if op.data_dependent]


def _returns(count: int) -> str:
    return "Primitive" if count == 1 else f"tuple[{', '.join(['Primitive'] * count)}]"


def _defined(name: str, sources: dict) -> tuple[str, ...]:
    lines = []
    for variant, kernels in sources.items():
        kernel = kernels.get(name)
        if kernel is None:
            lines.append(f"{variant}: not defined")
            continue
        path = Path(kernel.path).resolve()
        shown = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
        lines.append(f"{variant}: {kernel.qualname} in {shown}")
    return tuple(lines)
