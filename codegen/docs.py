"""The op reference (docs/ops.md): one table row per catalogue entry, grouped by section.

Every cell is computed here, from the validated catalogue and the Tensor methods the generator
writes, so the template only lays out the tables and the page cannot disagree with the code.
"""

import ast
import re
from dataclasses import dataclass

from burnpy.codegen import api
from burnpy.codegen.model import AutodiffClass, Catalogue, Op, QRole

# How each operator reads in code; `t` is the receiver, `{x}` the method's other operand.
OPERATOR_FORMS = {
    "__add__": "t + {x}",
    "__sub__": "t - {x}",
    "__mul__": "t * {x}",
    "__truediv__": "t / {x}",
    "__floordiv__": "t // {x}",
    "__mod__": "t % {x}",
    "__pow__": "t ** {x}",
    "__matmul__": "t @ {x}",
    "__neg__": "-t",
    "__abs__": "abs(t)",
    "__invert__": "~t",
    "__and__": "t & {x}",
    "__or__": "t | {x}",
    "__xor__": "t ^ {x}",
    "__lshift__": "t << {x}",
    "__rshift__": "t >> {x}",
}
GRADIENTS = {
    AutodiffClass.MEMORY_BOUND: "memory-bound",
    AutodiffClass.COMPUTE_BOUND: "compute-bound",
}


@dataclass(frozen=True)
class Row:
    name: str
    tensor: str  # its Tensor method and operators, or a dash
    signature: str
    doc: str
    kind: str
    dtypes: str
    gradient: str
    backends: str


@dataclass(frozen=True)
class Section:
    title: str
    anchor: str  # GitHub's anchor of the `## title` heading
    rows: tuple[Row, ...]


def sections(catalogue: Catalogue) -> list[Section]:
    methods = {m.name: m for m in api.tensor_methods(catalogue)}
    for module in {op.function for op in catalogue.ops if op.function}:
        methods.update({f.name: f for f in api.functions(catalogue, module)})
    backends = ", ".join(b.name for b in catalogue.backends)
    titles = list(dict.fromkeys(op.category for op in catalogue.ops))
    return [
        Section(
            title,
            re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-"),
            tuple(_row(op, methods, backends) for op in catalogue.ops if op.category == title),
        )
        for title in titles
    ]


def _row(op: Op, methods: dict, backends: str) -> Row:
    returns = op.returns[0] if len(op.returns) == 1 else f"({', '.join(op.returns)})"
    arguments = ", ".join(f"{a.name}: {a.spelled}" for a in op.args)
    return Row(
        name=op.name,
        tensor=_cell(_tensor(op, methods)),
        signature=_cell(f"`{op.name}({arguments}) -> {returns}`"),
        doc=_cell(op.doc),
        kind=op.kind,
        dtypes=", ".join(op.dtypes),
        gradient=_cell(_gradient(op)),
        backends=backends,
    )


def _tensor(op: Op, methods: dict) -> str:
    if op.function:  # a public function: `module.conv2d(x, weight, bias=None, *, ...)`
        parameters = api.call_parameters(methods[op.name].signature)
        return f"`{op.function}.{op.name}({', '.join(parameters)})`"
    if not op.method:
        return "—"
    method = methods[op.method]
    parameters = api.call_parameters(method.signature)[1:]  # past `self` / `cls`
    owner = "Tensor" if method.static else "t"
    forms = [f"`{owner}.{op.method}({', '.join(parameters)})`"]
    operand = parameters[0] if parameters else ""
    forms += [f"`{OPERATOR_FORMS[o].format(x=operand)}`" for o in op.operators]
    return " ".join(forms)


def _gradient(op: Op) -> str:
    if op.autodiff:
        return GRADIENTS[op.autodiff]
    if op.untracked:
        return "none: its results are untracked"
    if not op.composite:
        return "—"
    calls = [
        node.func.id
        for node in ast.walk(ast.parse(op.composite, mode="eval"))
        if isinstance(node, ast.Call)
    ]
    parts = ", ".join(f"`{name}`" for name in dict.fromkeys(calls))
    return f"through {parts}" if op.differentiable else f"— (calls {parts})"


@dataclass(frozen=True)
class QuantizedRow:
    name: str
    doc: str
    reached: str  # the Tensor method whose operands' quantization selects it, or its own
    role: str
    signature: str
    returns: str


# What each role makes of the op, for the reference's `role` column
ROLE_CELLS = {
    QRole.REQUIRED: "kernel (required)",
    QRole.KERNEL: "kernel (shared default)",
    QRole.QUANT: "`dequant_op_quant!` of `{float}`",
    QRole.FLOW: "`dequant_op_flow!` of `{float}`",
    QRole.FLOAT: "dequantize, `{float}`",
    QRole.COMPOSITE: "`{composite}`",
}


def quantized_rows(catalogue: Catalogue) -> list[QuantizedRow]:
    """The op reference's table of quantized ops (burn's QTensorOps), in catalogue order."""
    methods = {m.name: m for m in api.tensor_methods(catalogue) + api.quantized_methods(catalogue)}
    rows = []
    for q in catalogue.quantized:
        if q.routes:
            method = catalogue.op(q.routes).method
            reached = f"`{q.routes}` (`t.{method}`)" if method else f"`{q.routes}`"
        elif q.method:
            owner = "Tensor" if methods[q.method].static else "t"
            reached = f"`{owner}.{q.method}`"
        else:
            reached = "—"
        arguments = ", ".join(f"{a.name}: {a.spelled}" for a in q.args)
        returns = ", ".join(r.value for r in q.returns)
        rows.append(
            QuantizedRow(
                q.name,
                _cell(q.doc),
                reached,
                _cell(ROLE_CELLS[q.role].format(float=q.float, composite=q.composite)),
                _cell(f"`{q.name}({arguments})`"),
                returns,
            )
        )
    return rows


def qtensorops_table(catalogue: Catalogue) -> str:
    """docs/coverage.md's QTensorOps table: burn's methods, each with its role, where it lives
    and what reaches it."""
    lines = [
        "| method | role | lives in | reached by |",
        "|---|---|---|---|",
    ]
    for q, row in zip(catalogue.quantized, quantized_rows(catalogue)):
        if q.role in (QRole.REQUIRED, QRole.KERNEL):
            lives = f"`QuantizationKernels.{q.name}` (runtime/backends/kernels/quantization.py)"
        else:
            lives = f"`{q.name}` (generated/dispatch/quantized_ops.py)"
        lines.append(f"| `{q.name}` | {row.role} | {lives} | {row.reached} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """A table cell: a `|` would end it, even inside a code span."""
    return text.replace("|", "\\|")
