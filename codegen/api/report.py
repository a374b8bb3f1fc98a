"""`python -m codegen stats`: the catalogue counted by section and kind."""

from burnpy.codegen.model import AutodiffClass, Catalogue, Kind


def stats(catalogue: Catalogue) -> list[str]:
    """Entries per category (the ops.yaml sections, in file order) and kind, and how many of
    each are differentiable primitives (memory-bound / compute-bound) or composites."""
    ops = catalogue.ops
    lines = [
        f"{len(ops)} ops in {catalogue.path}, {len(catalogue.backends)} backend(s): "
        + ", ".join(b.name for b in catalogue.backends),
        "",
    ]
    kinds = [k for k in Kind if any(op.kind is k for op in ops)]
    columns = [*kinds, "total", "memory", "compute", "derived"]
    categories = list(dict.fromkeys(op.category for op in ops))
    width = max(len(c) for c in [*categories, "category"]) + 2

    def row(label, members):
        counts = [sum(op.kind == k for op in members) for k in kinds]
        counts += [
            len(members),
            sum(op.autodiff is AutodiffClass.MEMORY_BOUND for op in members),
            sum(op.autodiff is AutodiffClass.COMPUTE_BOUND for op in members),
            sum(bool(op.composite) for op in members),
        ]
        return label.ljust(width) + "".join(str(c).rjust(9) for c in counts)

    lines.append("category".ljust(width) + "".join(c.rjust(9) for c in columns))
    for category in categories:
        lines.append(row(category, [op for op in ops if op.category == category]))
    lines.append(row("total", ops))
    lines.append("")
    primitives = sum(op.autodiff is not None for op in ops)
    composites = sum(bool(op.composite) and Kind.FLOAT in op.returns for op in ops)
    memory = sum(op.autodiff is AutodiffClass.MEMORY_BOUND for op in ops)
    compute = sum(op.autodiff is AutodiffClass.COMPUTE_BOUND for op in ops)
    lines.append(
        f"differentiable: {primitives + composites} ({primitives} primitives with a backward "
        f"rule: memory-bound {memory}, compute-bound {compute}; {composites} derived float ops "
        "that differentiate through their parts)"
    )
    lines.append(f"with test metadata: {sum(op.test is not None for op in ops)} of {len(ops)}")
    lines.append(f"Tensor methods: {len({op.method for op in ops if op.method})}")
    return lines
