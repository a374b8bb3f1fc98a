"""Render the templates, bring them to black's style, and write only what changed.

The op reference, docs/ops.md, is rendered beside the package (in the output directory's
parent) and written as rendered: it is Markdown, with no hashes and no black.

Each Python file starts with a header that records a hash of the unformatted render and of the
formatted body. When both still match, black is skipped: `--check` and a no-change regenerate
cost a render, not a format.
"""

import ast
import dataclasses
import difflib
import gc
import hashlib
import os
import re
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import black
import jinja2

from burnpy.codegen import api, docs, layout
from burnpy.codegen.api.types import REFUSALS
from burnpy.codegen.model import Catalogue
from burnpy.codegen.recorders import Link, Outputs, Parents, Passing, Source
from burnpy.runtime.autodiff.rules import Needs

HEADER = (
    "# @generated from {source} by `python -m codegen`; do not edit. render={render} body={body}\n"
)
MODE = black.Mode(line_length=100, target_versions={black.TargetVersion.PY311})
TEMPLATES = Path(__file__).parent / "templates"
DOCS = Path("docs") / "ops.md"
PACKAGE = "burnpy.generated"  # the library's generated package (a user's: codegen/package.py)
# The docstring of each function module, generated/<module>.py (ops.yaml's `function`)
FUNCTION_MODULE_DOCS = {
    "module": """burn's ModuleOps as Python functions: `from burnpy.generated import module`.

Signatures as docs/design.md#module-functions describes them (burn's names; option structs as
keyword arguments named like their fields). Each function checks its arguments (an int or N ints,
a choice among burn's enum variants, non-zero strides, ...) and calls its dispatch function, which
routes and differentiates it like every other op.
""",
    "optim": """The optimisers' fused updates as Python functions: `from burnpy.generated import optim`.

burnpy.optim's rules call them on plain tensors (a parameter, its gradient, the rule's state);
each is one kernel per backend, where the same update written with tensor ops would be a dozen
ops and as many temporaries. No gradient flows through them: under autodiff their results are
new untracked leaves.
""",
}  # relative to the output package's parent


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.do"],
    )
    # the enums a template's macros tell values apart by (`x is sameas Passing.LIST`), and the
    # exceptions by which a kernel refuses its inputs
    env.globals.update(
        Link=Link, Needs=Needs, Outputs=Outputs, Parents=Parents, Passing=Passing, Source=Source
    )
    env.globals.update(REFUSALS=REFUSALS)
    return env


def render_all(catalogue: Catalogue) -> dict[str, str]:
    """Relative path -> unformatted source, for every generated file."""
    env = environment()
    groups = api.dispatch_groups(catalogue) + ["quantized"]
    modules = sorted({op.function for op in catalogue.ops if op.function})
    files = {
        "__init__.py": env.get_template("init.py.jinja").render(modules=modules),
        "backends.py": env.get_template("backends.py.jinja").render(
            registrations=api.backend_registrations(catalogue),
            classes=api.backend_classes(catalogue),
        ),
        "catalogue.py": env.get_template("catalogue.py.jinja").render(
            described=api.described_ops(catalogue)
        ),
        "autodiff.py": env.get_template("autodiff.py.jinja").render(
            package=PACKAGE, bindings=api.autodiff_bindings(catalogue)
        ),
        "inner.py": env.get_template("inner.py.jinja").render(
            kernels=api.inner_kernels(catalogue), data_dependent=api.data_dependent(catalogue)
        ),
        "loss.py": env.get_template("loss.py.jinja").render(),
        "onnx.py": env.get_template("onnx.py.jinja").render(lowerings=api.lowerings(catalogue)),
        "recorders.py": env.get_template("recorders.py.jinja").render(
            recorders=api.recorders(catalogue)
        ),
        "tensor.py": env.get_template("tensor.py.jinja").render(
            methods=api.tensor_methods(catalogue) + api.quantized_methods(catalogue)
        ),
        "dispatch/__init__.py": env.get_template("dispatch_init.py.jinja").render(
            kinds=groups, all_lists=", ".join(f"*{group}_ops.__all__" for group in groups)
        ),
    }
    files["dispatch/quantized_ops.py"] = env.get_template("quantized.py.jinja").render(
        functions=api.quantized_functions(catalogue)
    )
    template = env.get_template("dispatch.py.jinja")
    for group in groups[:-1]:
        files[f"dispatch/{group}_ops.py"] = template.render(
            package=PACKAGE,
            library=True,
            imports=[],
            kind=group,
            functions=api.dispatch_functions(catalogue, group),
        )
    for module in modules:
        files[f"{module}.py"] = env.get_template("functions.py.jinja").render(
            module=module,
            doc=FUNCTION_MODULE_DOCS[module],
            functions=api.functions(catalogue, module),
        )
    return files


def recorder_source(recorder) -> str:
    """One recorder factory as generated/recorders.py has it (for an op outside the catalogue:
    the tests' fixture ops)."""
    template = environment().from_string('{% import "recorder.jinja" as m %}{{ m.recorder(r) }}')
    return _black(Statement(0, template.render(r=recorder))) + "\n"


def render_docs(catalogue: Catalogue) -> str:
    """docs/ops.md: the op reference."""
    template = environment().get_template("ops.md.jinja")
    source, count = os.path.basename(catalogue.path), len(catalogue.ops)
    return template.render(
        source=source,
        count=count,
        sections=docs.sections(catalogue),
        quantized=docs.quantized_rows(catalogue),
        exports=[(op.name, api.onnx.exports(op)) for op in catalogue.ops],
    )


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _split(content: str) -> tuple[str | None, str | None, str]:
    """(render hash, body hash, body) of an existing generated file."""
    first, _, body = content.partition("\n")
    fields = dict(
        word.split("=", 1) for word in first.split() if word.startswith(("render=", "body="))
    )
    return fields.get("render"), fields.get("body"), body


def reusable(rendered: str, existing: str | None) -> bool:
    """True when the existing file came from this very render and nobody edited it since."""
    if existing is None:
        return False
    old_render, old_body_hash, old_body = _split(existing)
    return old_render == _render_hash(rendered) and old_body_hash == _digest(old_body)


def _render_hash(rendered: str) -> str:
    return _digest(rendered + black.__version__ + repr(MODE))


# The templates write black's style already; what they cannot know is where black breaks a line
# longer than the limit. So only the statements holding a long line go through black, each one
# by itself (taken out of its block at black's limit less its indent; a compound statement's
# header with `pass` for its body): black's output for a statement does not depend on its
# neighbours'. A file is cut between its top-level definitions first, and a definition whose
# long line is no such statement (an `elif`, say) goes through black whole; in parallel when
# there are many. (tests/test_codegen.py checks that the whole generated tree is black-stable:
# a template that strays is caught.)
TOP_LEVEL = re.compile(r"\n\n+(?=(?:def|class|@)\b)")
COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.While,
            ast.With, ast.Try, ast.Match)  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Statement:
    """Lines black formats by themselves: a statement, or a compound statement's header."""

    indent: int
    text: str
    header: bool = False


def _needs_black(chunk: str) -> bool:
    return any(len(line) > MODE.line_length for line in chunk.splitlines())


def _black(statement: Statement) -> str:
    """`statement` in black's style, at its indent."""

    def format_str(text: str, width: int) -> str:
        mode = dataclasses.replace(MODE, line_length=width)
        if not statement.header:
            return black.format_str(text, mode=mode).rstrip("\n")
        formatted = black.format_str(text + "\n    pass", mode=mode).rstrip("\n")
        return formatted.rpartition("\n")[0]  # (the header, without its `pass`)

    return _at_indent(statement, format_str)


def _laid_out(statement: Statement) -> str | None:
    """`statement` as black formats it, where burnpy.codegen.layout knows black's rules for
    it (most declarations of the catalogue, of the exporter's table and of the backends'
    methods); else None."""
    return _at_indent(statement, layout.header if statement.header else layout.statement)


def _at_indent(statement: Statement, format_str) -> str | None:
    """`format_str(text, width)` of the statement taken out of its block, put back at its
    indent: the line limit less the indent, as black gives a nested statement."""
    indent = statement.indent
    dedented = "\n".join(line[indent:] for line in statement.text.split("\n"))
    text = format_str(dedented, MODE.line_length - indent)
    if text is None:
        return None
    return "\n".join(" " * indent + line if line else line for line in text.split("\n"))


def _statements(chunk: str) -> list | None:
    """The chunk as its lines, with each statement holding a long line as a Statement in place
    of its own lines; None where a long line lies in no statement this can cut out (an
    `elif`'s or an `except`'s header)."""
    lines = chunk.split("\n")
    long = {n for n, line in enumerate(lines, 1) if len(line) > MODE.line_length}
    units = []  # (first line, last line, a header)

    def add(first, last, header):
        if long & set(range(first, last + 1)):
            units.append((first, last, header))

    def visit(body):
        for node in body:
            if isinstance(node, (ast.ExceptHandler, ast.match_case)):
                visit(node.body)
                continue
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            if not isinstance(node, COMPOUND) or node.body[0].lineno == node.lineno:
                add(first, node.end_lineno, False)
                continue
            if not lines[node.lineno - 1].lstrip().startswith("elif "):
                add(first, node.body[0].lineno - 1, True)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                visit(getattr(node, field, ()))

    visit(ast.parse(chunk).body)
    if not long <= {n for first, last, _ in units for n in range(first, last + 1)}:
        return None
    parts, at = [], 1
    for first, last, header in sorted(units):
        text = "\n".join(lines[first - 1 : last])
        indent = len(text) - len(text.lstrip(" "))
        if any(line and not line.startswith(" " * indent) for line in text.split("\n")):
            return None
        parts += [*lines[at - 1 : first - 1], Statement(indent, text, header)]
        at = last + 1
    return [*parts, *lines[at - 1 :]]


def format_all(rendered: dict[str, str]) -> dict[str, str]:
    """Every file in black's style; black joins top-level definitions with two blank lines,
    as this does."""
    chunks = {
        name: [c.rstrip("\n") for c in TOP_LEVEL.split(text)] for name, text in rendered.items()
    }
    parts = {}  # a chunk with a long line -> its lines, the Statements holding them in place
    for chunk in {c for cs in chunks.values() for c in cs if _needs_black(c)}:
        parts[chunk] = _statements(chunk) or [Statement(0, chunk)]
    statements = {p for ps in parts.values() for p in ps if type(p) is Statement}
    formatted = {statement: _laid_out(statement) for statement in statements}
    # the rest by black, the largest first, so no core is left with a big one at the end
    todo = sorted((s for s, text in formatted.items() if text is None), key=lambda s: len(s.text))
    todo.reverse()
    if len(todo) > 16 and (os.cpu_count() or 1) > 1:
        with ProcessPoolExecutor(initializer=start_worker, initargs=(os.getpid(),)) as pool:
            formatted.update(zip(todo, pool.map(_black, todo, chunksize=8)))
    else:
        formatted.update((statement, _black(statement)) for statement in todo)

    def chunk_formatted(chunk: str) -> str:
        if chunk not in parts:
            return chunk
        return "\n".join(formatted[p] if type(p) is Statement else p for p in parts[chunk])

    return {
        name: "\n\n\n".join(chunk_formatted(c) for c in cs) + "\n" for name, cs in chunks.items()
    }


def start_worker(parent: int) -> None:
    """A pool worker's initializer. The worker collects garbage, which `python -m codegen`
    turns off in its own process but black's syntax trees need (each holds cycles: its memory
    would grow with every statement). And it exits once the generator that started it is gone
    (a killed generator cannot shut its pool down, and idle workers wait forever)."""
    gc.enable()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def plan(catalogue: Catalogue, out_dir: Path, files=None, reference=True) -> dict[Path, str]:
    """Every generated file's final content, the op reference's too (nothing is written here).
    `files`: render_all's result, when the caller has it already; `reference`: False for a
    package's own catalogue, which has no docs of the library's to write."""
    source = os.path.basename(catalogue.path)
    result, stale_renders = {}, {}
    for relative, rendered in (files or render_all(catalogue)).items():
        path = out_dir / relative
        existing = path.read_text(encoding="utf-8") if path.exists() else None
        if reusable(rendered, existing):
            result[path] = existing
        else:
            stale_renders[path] = rendered
    for path, body in format_all(stale_renders).items():
        render_hash = _render_hash(stale_renders[path])
        header = HEADER.format(source=source, render=render_hash, body=_digest(body))
        result[path] = header + body
    if reference:
        result[out_dir.parent / DOCS] = render_docs(catalogue)
        for name in FILLED:  # the figures the project's own docs show, where they have them
            path = out_dir.parent / name
            if path.exists():
                result[path] = fill(path.read_text(encoding="utf-8"), catalogue)
    result[out_dir / "py.typed"] = ""  # PEP 561: the package's annotations are for type checkers
    return dict(sorted(result.items()))


# The hand-written docs that show the catalogue's figures, between markers the generator fills:
# `<!-- stats: begin -->` ... `<!-- stats: end -->` holds `python -m codegen stats`'s output,
# `<!-- op count -->N<!-- end -->` the number of ops, `<!-- qtensorops: begin -->` ...
# `<!-- qtensorops: end -->` the table of burn's QTensorOps methods.
FILLED = ("README.md", Path("docs") / "coverage.md")
_STATS = re.compile(r"(<!-- stats: begin -->\n```\n).*?(```\n<!-- stats: end -->)", re.S)
_COUNT = re.compile(r"(<!-- op count -->)\d+(<!-- end -->)")
_QTENSOROPS = re.compile(r"(<!-- qtensorops: begin -->\n).*?(<!-- qtensorops: end -->)", re.S)


def fill(text: str, catalogue: Catalogue) -> str:
    """`text` with its generated figures made current."""
    named = dataclasses.replace(catalogue, path=os.path.basename(catalogue.path))
    stats = "\n".join(api.stats(named)) + "\n"
    text = _STATS.sub(lambda m: m[1] + stats + m[2], text)
    table = docs.qtensorops_table(catalogue)
    text = _QTENSOROPS.sub(lambda m: m[1] + table + m[2], text)
    return _COUNT.sub(lambda m: f"{m[1]}{len(catalogue.ops)}{m[2]}", text)


def stale(out_dir: Path, planned: dict[Path, str]) -> list[Path]:
    """Generated files on disk that the catalogue no longer produces."""
    if not out_dir.exists():
        return []
    return [
        p
        for p in out_dir.rglob("*.py")
        if p not in planned and p.read_text(encoding="utf-8").startswith("# @generated")
    ]


def write(planned: dict[Path, str], obsolete: list[Path]) -> list[tuple[Path, str]]:
    """Write the files whose content changed, each atomically; report what happened."""
    report = []
    for path, content in planned.items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == content:
            report.append((path, "unchanged"))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8") as f:
            f.write(content)
        os.replace(f.name, path)
        report.append((path, "written" if old is not None else "created"))
    for path in obsolete:
        path.unlink()
        report.append((path, "removed"))
    return report


def diff(planned: dict[Path, str], obsolete: list[Path], root: Path) -> str:
    """A unified diff from the files on disk to the planned ones, its paths relative to `root`
    (the project root: the output package's parent)."""
    chunks = []
    for path, content in planned.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if old != content:
            name = _relative(path, root)
            chunks.append(
                "".join(
                    difflib.unified_diff(
                        old.splitlines(True), content.splitlines(True), f"a/{name}", f"b/{name}"
                    )
                )
            )
    for path in obsolete:
        chunks.append(f"--- a/{_relative(path, root)}\n+++ /dev/null (no longer generated)\n")
    return "".join(chunks)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)
