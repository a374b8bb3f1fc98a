"""What a reviewer asks of the catalogue: list its ops, explain one, and say what a change does.

Everything here reads the validated catalogue, the rendered (not yet formatted) files and the
runtime's source; nothing is written.
"""

import ast
import dataclasses
import difflib
import inspect
import subprocess
import tempfile
import textwrap
from enum import StrEnum
from pathlib import Path

from burnpy.codegen import api, docs
from burnpy.codegen.kernels import class_attributes, read_backend
from burnpy.codegen.load import CatalogueError
from burnpy.codegen.model import (
    TEST_KEYS,
    Arg,
    AutodiffClass,
    Catalogue,
    Op,
    OpTest,
    QOp,
    QRole,
    Role,
)
from burnpy.codegen.validate.report import suggest
from burnpy.runtime.autodiff.ops import MOVE_ACROSS, AutodiffRole, rule_for


class ReviewError(Exception):
    """A request that cannot be answered (an unknown op, a git revision without the file)."""


CHECKPOINTS = {
    AutodiffClass.MEMORY_BOUND: "cheap to recompute: under Balanced checkpointing its output is "
    "recomputed from its inputs instead of kept",
    AutodiffClass.COMPUTE_BOUND: "costly to recompute: its output is always kept",
}


# -- list ----------------------------------------------------------------------------------


def listing(catalogue: Catalogue, kind=None, category=None, wanted=None, backend=None):
    ops = list(catalogue.ops)
    if kind:
        ops = [op for op in ops if op.kind == kind]
    if category:
        categories = list(dict.fromkeys(op.category for op in catalogue.ops))
        if category not in categories:
            raise ReviewError(
                f"no category {category!r}; "
                + suggest(category, categories, f"the catalogue has {', '.join(categories)}")
            )
        ops = [op for op in ops if op.category == category]
    if wanted:
        ops = [op for op in ops if op.differentiable == (wanted == "yes")]
    if backend:
        ops = [op for op in ops if op.name in own_kernels(catalogue, backend)]
    rows = [(op.name, op.kind, op.category, _gradient(op), _reached_by(op) or "—") for op in ops]
    header = ("op", "kind", "category", "gradient", "reached by")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *rows]
    ]
    return lines + [f"({len(rows)} of {len(catalogue.ops)} ops)"]


def own_kernels(catalogue: Catalogue, name: str) -> dict:
    """Op name -> Kernel, for the ops whose kernel on backend `name` is its own."""
    backend = next((b for b in catalogue.backends if b.name == name), None)
    if backend is None:
        names = [b.name for b in catalogue.backends]
        raise ReviewError(
            f"no backend {name!r}; " + suggest(name, names, f"the catalogue has {', '.join(names)}")
        )
    kernels = read_backend(backend.module).kernels
    shared = class_attributes("burnpy.runtime.backends.array", "ArrayBackend")
    return {
        op.name: kernels[op.name]
        for op in catalogue.ops
        if op.name in kernels and kernels[op.name] != shared.get(op.name)
    }


def _gradient(op: Op) -> str:
    if op.autodiff:
        return op.autodiff
    return "composite" if op.differentiable else "—"


def _reached_by(op: Op) -> str:
    forms = []
    if op.method:
        forms.append(f"Tensor.{op.method}" if op.static else f"t.{op.method}")
    forms += [docs.OPERATOR_FORMS[o].format(x="x") for o in op.operators]
    if op.function:
        forms.append(f"generated.{op.function}.{op.name}")
    return ", ".join(forms)


# -- explain -------------------------------------------------------------------------------


def explain(catalogue: Catalogue, name: str, out: Path) -> str:
    names = [op.name for op in catalogue.ops]
    if name in {q.name for q in catalogue.quantized}:
        return _explain_quantized(catalogue, catalogue.qop(name), out)
    names += [q.name for q in catalogue.quantized]
    if name not in names:
        # the ops that contain the name (`mul`), else the nearest (a typo: `float_mull`)
        close = [n for n in names if name in n][:8] or difflib.get_close_matches(name, names, 3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ReviewError(f"no op {name!r} in {catalogue.path}{hint}")
    op = catalogue.op(name)
    root = Path(catalogue.path).resolve().parent
    sections = [
        ("entry", _entry(catalogue, op)),
        ("dispatch", _dispatch(catalogue, op, out, root)),
        ("kernels", _kernels(catalogue, op, out, root)),
        ("autodiff", _autodiff(op, out, root)),
        ("reached by", _reaching(catalogue, op)),
        ("onnx", api.onnx.exports(op)),
    ]
    if op.composite:
        sections.append(("calls", ", ".join(_calls(op))))
    if op.c:
        fused = f"one element is `{op.c}`: runs of such ops fuse into one C loop"
        sections.append(("compiled capture", fused + " (burnpy/capture/chains.py)"))
    if op.data_dependent:
        refused = "refused: its result's shape depends on the values (`data_dependent: true`)"
        sections.append(
            ("capture", refused + "; capture(fn, fallback=True) runs such a step eagerly")
        )
    selected = api.selections(catalogue).get(op.name)
    if selected:
        sections.append(("quantized operands", "\n".join(selected.lines)))
    return "\n\n".join(f"{title}:\n{_indent(text)}" for title, text in sections if text)


ROLE_WORDS = {
    QRole.REQUIRED: "required: a kernel every backend defines (one of burn's nine)",
    QRole.KERNEL: "kernel: burn's default, written once as a kernel every backend shares "
    "(runtime/backends/kernels/quantization.py); a backend's own kernel overrides it",
    QRole.QUANT: "quant (burn's dequant_op_quant!): dequantize, {float}, quantize the result "
    "again with the first operand's scheme",
    QRole.FLOW: "flow (burn's dequant_op_flow!): dequantize, {float}; the result is quantized "
    "again with the operand's scheme when its device propagates (QuantPropagation.PROPAGATE), "
    "else float",
    QRole.FLOAT: "float: dequantize, {float}: its result is not a float tensor",
    QRole.COMPOSITE: "composite: returns {composite}",
}


def _explain_quantized(catalogue: Catalogue, q: QOp, out: Path) -> str:
    """A q-op: its entry, role, dispatch function, what selects it, kernels and autodiff."""
    root = Path(catalogue.path).resolve().parent
    lines = Path(catalogue.path).read_text(encoding="utf-8").splitlines()
    path = out / "dispatch" / "quantized_ops.py"
    line = _def_line(path, q.name)
    function = next(f for f in api.quantized_functions(catalogue) if f.name == q.name)
    where = _where(path, line, root) if line else f"{path} (not generated yet)"
    sections = [
        ("entry", f"{Path(catalogue.path).name}:{q.line}\n{lines[q.line - 1]}"),
        ("role", ROLE_WORDS[q.role].format(float=q.float, composite=q.composite)),
        ("dispatch", f"{q.name}({function.params}) at {where}\n" + "\n".join(function.body)),
    ]
    if q.float:
        float_path = out / "dispatch" / "float_ops.py"
        made = _where(float_path, _def_line(float_path, q.float) or 0, root)
        sections.append(("made from", f"{q.float} at {made}"))
    if q.routes:
        float_path = out / "dispatch" / "float_ops.py"
        at = _where(float_path, _def_line(float_path, q.routes) or 0, root)
        test = api.selections(catalogue)[q.routes]
        method = catalogue.op(q.routes).method
        reached = f"; reached by t.{method}(...)" if method else ""
        sections.append(("selected by", f"{q.routes} at {at}{reached}\n" + "\n".join(test.lines)))
    elif q.method:
        sections.append(("selected by", f"its own Tensor method: {q.method}"))
    else:
        sections.append(
            ("selected by", f"no Tensor method routes to it: generated.dispatch.{q.name}")
        )
    if q.role in (QRole.REQUIRED, QRole.KERNEL):
        kernels = []
        for backend in catalogue.backends:
            source = _of(catalogue, backend.module, lambda: read_backend(backend.module))
            kernel = source.kernels[q.name]
            kernels.append(
                f"{backend.name}: {kernel.qualname} at {_where(kernel.path, kernel.line, root)}"
            )
        sections.append(("kernels", "\n".join(kernels)))
    sections.append(
        (
            "autodiff",
            "a quantized tensor passes through the Autodiff decorator unchanged (its primitive is "
            "the inner backend's: burn's Autodiff has QuantizedTensorPrimitive = B::QuantizedTensorPrimitive); "
            "dequantize gives a new untracked leaf, quantize drops the history, and a default's "
            "float op is dispatched like any other, recorded when a float operand is tracked",
        )
    )
    return "\n\n".join(f"{title}:\n{_indent(text)}" for title, text in sections)


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" if line else "" for line in text.splitlines())


def _entry(catalogue: Catalogue, op: Op) -> str:
    lines = Path(catalogue.path).read_text(encoding="utf-8").splitlines()
    later = [o.line for o in (*catalogue.ops, *catalogue.quantized) if o.line > op.line]
    text = lines[op.line - 1 : (min(later) - 1 if later else len(lines))]
    # up to the next entry, or to a top-level key (`quantized:` after the last op)
    text = next((text[:i] for i, row in enumerate(text[1:], 1) if row[:1].isalpha()), text)
    while text and (not text[-1].strip() or text[-1].lstrip().startswith("#")):
        text.pop()
    return f"{Path(catalogue.path).name}:{op.line}\n" + "\n".join(text)


def _where(path: Path, line: int, root: Path) -> str:
    try:
        shown = path.resolve().relative_to(root)
    except ValueError:
        shown = path
    return f"{shown}:{line}"


def _def_line(path: Path, name: str) -> int | None:
    if not path.exists():
        return None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(f"def {name}("):
            return number
    return None


def _line_containing(path: Path, start: str) -> int | None:
    if not path.exists():
        return None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(start):
            return number
    return None


def _dispatch(catalogue: Catalogue, op: Op, out: Path, root: Path) -> str:
    function = api.dispatch_function(op)
    path = out / "dispatch" / f"{op.group}_ops.py"
    line = _def_line(path, op.name)
    where = _where(path, line, root) if line else f"{path} (not generated yet)"
    tensors = ", ".join(f"`{a.name}`" for a in op.tensor_args)
    selector = function.selector
    words = {
        Role.COMPOSITE: f"a composite: returns {op.composite}, and differentiates through its ops",
        Role.CREATION_FLOAT: f"picks the backend of `{selector}`; on an autodiff device the "
        "result is a new leaf of the Autodiff backend, otherwise a plain float tensor",
        Role.CREATION_PLAIN: f"picks the backend of `{selector}` and makes a {op.kind} tensor "
        "there (its context: the device's)",
        Role.PLAIN: f"merges the autodiff contexts of {tensors}, picks the backend of "
        f"`{function.selector}`, and calls its kernel on the inner primitives",
        Role.AUTODIFF: f"merges the autodiff contexts of {tensors} and picks the backend of "
        f"`{function.selector}`; autodiff disabled: calls the inner kernel; enabled: calls the "
        "Autodiff specialization of the strategy (NoCheckpointing or Balanced), a plain float "
        "input entering as a constant",
        Role.LEAF: f"picks the backend of `{selector}`; a float result is a new untracked "
        "leaf when autodiff is enabled",
        Role.MOVE: f"picks the backends of `{function.selector}` and of the target device: on one "
        f"backend it calls the kernel, across backends it goes through the data "
        f"({MOVE_ACROSS.name} records the move of a tracked float tensor)",
    }[op.role]
    return f"{op.name}({function.params}) at {where}\n{words}"


def _kernels(catalogue: Catalogue, op: Op, out: Path, root: Path) -> str:
    if op.composite:
        return ""
    lines = []
    declared = _line_containing(out / "inner.py", f"    def {op.name}(")
    if declared:  # what `B.inner.<op>` resolves to in an editor
        lines.append(
            f"declared: InnerBackend.{op.name} at {_where(out / 'inner.py', declared, root)}"
        )
    for backend in catalogue.backends:
        kernel = _of(catalogue, backend.module, lambda: read_backend(backend.module))
        kernel = kernel.kernels[op.name]
        lines.append(
            f"{backend.name}: {kernel.qualname} at {_where(kernel.path, kernel.line, root)}"
        )
    return "\n".join(lines)


def _autodiff(op: Op, out: Path, root: Path) -> str:
    described = op.autodiff_op
    if described is None:
        return ""
    if described.role is not AutodiffRole.RECORD:
        return f"not recorded: {UNRECORDED[described.role]}"
    rule = rule_for(described)
    names = described.input_names
    lines = [f"checkpoint class: {op.autodiff} ({CHECKPOINTS[op.autodiff]})"]
    path = out / "recorders.py"
    line = _def_line(path, f"record_{op.name}")
    if line:
        lines.append(f"recorder: record_{op.name} at {_where(path, line, root)}")
    bound = _line_containing(out / "autodiff.py", f"        self.{op.name} = ")
    if bound:
        lines.append(f"bound as AD.{op.name} at {_where(out / 'autodiff.py', bound, root)}")
    table = op.rule_table
    if table is not None:  # (else rule_for above has refused it)
        path = Path(inspect.getsourcefile(table) or "")
        line = class_attributes(table.__module__, table.__name__)[op.name].line
        row = f"rule: {table.__name__}.{op.name} at {_where(path, line, root)}"
        named = _line_containing(out / "catalogue.py", f"{op.name.upper()}: AutodiffOp[")
        if named:
            row += f", named by {op.name.upper()} at {_where(out / 'catalogue.py', named, root)}"
        lines.append(row)
    if described.keeps:
        lines.append(
            f"kept: its recorded forward is the backend's `{op.name}_keeping`, which also returns "
            f"`{described.keeps}`, saved for the rule (None where the backend kept nothing)"
        )
    for input_, needs in zip(names, rule.needs):
        saved = ", ".join(needs) if needs else "nothing"
        lines.append(f"when `{input_}` is tracked, the step saves: {saved}")
    if rule.joint is not None:
        verb = "needs" if len(rule.g_only) == 1 else "need"
        only = f"; {', '.join(rule.g_only)} {verb} only g" if rule.g_only else ""
        lines.append(
            f"Joint rule: one call gives every input's gradient, told which are tracked{only}"
        )
        labels = ["Joint rule"]
    else:
        labels = [f"VJP for `{input_}`" for input_ in names]
    shown = set()
    for label, function in zip(labels, rule.functions):
        source, start = inspect.getsourcelines(function)
        where = _where(Path(inspect.getsourcefile(function)), start, root)
        if where in shown:  # lambdas of one rule on one line: their source once
            lines.append(f"{label}: the same lines")
            continue
        shown.add(where)
        lines.append(f"{label} ({where}):")
        lines += [f"  {text.rstrip()}" for text in textwrap.dedent("".join(source)).splitlines()]
    return "\n".join(lines)


UNRECORDED = {
    AutodiffRole.LEAF: "under autodiff its float result is a new untracked leaf",
    AutodiffRole.FORWARD: "it has no float result: the inner kernel runs on the primitives",
    AutodiffRole.UNTRACKED: "no gradient flows through it: each float result is a new "
    "untracked leaf",
}


def _reaching(catalogue: Catalogue, op: Op) -> str:
    lines = []
    methods = _of(catalogue, "methods", lambda: {m.name: m for m in api.tensor_methods(catalogue)})
    if op.method:
        method = methods[op.method]
        owner = "Tensor" if method.static else "t"
        params = ", ".join(api.call_parameters(method.signature)[1:])
        lines.append(f"{owner}.{op.method}({params})")
        lines += [docs.OPERATOR_FORMS[o].format(x=params.split(",")[0]) for o in op.operators]
    if op.function:
        lines.append(f"generated.{op.function}.{op.name}(...)")
    users = [o.name for o in catalogue.ops if o.composite and op.name in _calls(o)]
    if users:
        lines.append(f"the composites {', '.join(users)}")
    return "\n".join(lines) or "nothing but generated.dispatch." + op.name


_KNOWN: dict = {}


def _of(catalogue: Catalogue, what: str, make):
    """What `make()` gives for this catalogue, made once: a reviewer explaining op after op
    reads the backends' sources and builds the Tensor methods once."""
    known = _KNOWN.get(what)
    if known is None or known[0] is not catalogue:
        known = _KNOWN[what] = (catalogue, make())
    return known[1]


def _calls(op: Op) -> list[str]:
    tree = ast.parse(op.composite, mode="eval")
    calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call)]
    return list(dict.fromkeys(calls))


# -- diff ----------------------------------------------------------------------------------


def diff(ops_path: str, rev: str, checked) -> str:
    """What changes between the catalogue at `rev` and the one on disk, op by op. `checked`
    reads a catalogue path into (catalogue, rendered files)."""
    path = Path(ops_path).resolve()
    old_text = _git_show(path, rev)
    new, new_files = checked(ops_path)
    with tempfile.TemporaryDirectory() as directory:
        old_path = Path(directory) / path.name
        old_path.write_text(old_text, encoding="utf-8")
        try:
            old, old_files = checked(str(old_path))
        except CatalogueError as error:
            raise ReviewError(f"the catalogue at {rev} is not valid: {error}") from None
    definitions = _changed_definitions(old_files, new_files)
    old_ops = {op.name: op for op in old.ops}
    new_ops = {op.name: op for op in new.ops}
    added = [n for n in new_ops if n not in old_ops]
    removed = [n for n in old_ops if n not in new_ops]
    changed = [n for n in new_ops if n in old_ops and _fields(old_ops[n]) != _fields(new_ops[n])]
    lines = [
        f"{path.name} since {rev}: {len(added)} added, {len(removed)} removed, "
        f"{len(changed)} changed"
    ]
    claimed = set()
    for mark, names, source in (
        ("+", added, new_ops),
        ("-", removed, old_ops),
        ("~", changed, new_ops),
    ):
        for name in names:
            op = source[name]
            lines.append(f"{mark} {name} ({op.kind}, {op.routing}): {op.doc}")
            if mark == "~":
                before, after = _fields(old_ops[name]), _fields(op)
                for field in after:
                    if before[field] != after[field]:
                        lines.append(f"    {field}: {before[field]!r} -> {after[field]!r}")
            mine = [d for d in definitions if _belongs(d, old_ops.get(name), new_ops.get(name))]
            claimed |= set(mine)
            lines += [f"    generated/{file}: {name}" for file, name in mine]
    rest = [d for d in definitions if d not in claimed]
    if rest:
        lines.append("other generated changes:")
        lines += [f"    generated/{file}: {name}" for file, name in rest]
    return "\n".join(lines) + "\n"


def _git_show(path: Path, rev: str) -> str:
    def git(*args):
        return subprocess.run(
            ["git", "-C", str(path.parent), *args], capture_output=True, text=True
        )

    top = git("rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise ReviewError(f"{path.parent} is not in a git repository: {top.stderr.strip()}")
    relative = path.relative_to(Path(top.stdout.strip()).resolve()).as_posix()
    shown = git("show", f"{rev}:{relative}")
    if shown.returncode != 0:
        raise ReviewError(f"cannot read {relative} at {rev}: {shown.stderr.strip()}")
    return shown.stdout


def _fields(op: Op) -> dict:
    """An op's meaning: every field but where it stands in the file."""
    values = {
        f.name: _as_written(getattr(op, f.name)) for f in dataclasses.fields(op) if f.name != "line"
    }
    values["test"] = _test_as_written(op.test) if op.test is not None else None
    for key in ("defaults", "choices"):
        values[key] = dict(values[key])
    return values


def _test_as_written(test: OpTest) -> dict:
    """An op's `test:` as ops.yaml writes it: the keys given, then the arguments' values."""
    written = {
        f.name: getattr(test, f.name)
        for f in dataclasses.fields(test)
        if f.name in TEST_KEYS and getattr(test, f.name) != f.default
    }
    return written | dict(test.arguments)


def _as_written(value):
    """A field as ops.yaml writes it (enums as their strings, arguments as `name: type`)."""
    if isinstance(value, tuple):
        return tuple(_as_written(v) for v in value)
    if isinstance(value, Arg):
        return f"{value.name}: {value.spelled}"
    if isinstance(value, StrEnum):
        return value.value
    return value


def _changed_definitions(old: dict, new: dict) -> list:
    """(file, name) of every top-level definition (Tensor methods as Tensor.name) whose
    rendered text differs, appears or disappears."""
    result = []
    for relative in sorted(set(old) | set(new)):
        before = _definitions(old.get(relative, ""))
        after = _definitions(new.get(relative, ""))
        for name in dict.fromkeys([*after, *before]):
            if before.get(name) != after.get(name):
                result.append((relative, name))
    return result


def _definitions(source: str) -> dict:
    """Name -> source text of each top-level definition, and of each Tensor method."""
    lines = source.splitlines()

    def text(node):
        return "\n".join(lines[node.lineno - 1 : node.end_lineno])

    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    found[f"{node.name}.{member.name}"] = text(member)
                elif isinstance(member, ast.Assign):
                    for target in member.targets:
                        found[f"{node.name}.{ast.unparse(target)}"] = text(member)
        elif isinstance(node, ast.FunctionDef):
            found[node.name] = text(node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                found[ast.unparse(target)] = text(node)
    return found


def _belongs(definition, *ops) -> bool:
    """Is a generated definition one of these ops' own (its function, recorder or method)?"""
    _, name = definition
    for op in ops:
        if op is None:
            continue
        own = {op.name, f"record_{op.name}"}
        if op.method:
            own |= {f"Tensor.{op.method}", *(f"Tensor.{o}" for o in op.operators)}
        if name in own:
            return True
    return False
