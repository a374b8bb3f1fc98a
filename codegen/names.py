"""No op or argument may take a name the generated code already uses.

The reserved names are not kept in a list: they are read from the rendered files themselves.
An op's name is a function beside what its module imports and defines (`Tensor`, `BACKENDS`,
`DISABLED`, the `float_ops` module); an argument's name is a parameter beside what the function
body assigns (`B`, `ctx`, `lhs_` for a tensor `lhs`) and the globals, builtins and enclosing
parameters it reads. A template that starts using a new name reserves it by that alone.
"""

import ast
import builtins
from collections import Counter

from burnpy.codegen.model import Catalogue
from burnpy.codegen.validate.report import Problems, Where

BUILTINS = frozenset(dir(builtins))


def check_names(catalogue: Catalogue, rendered: dict[str, str]) -> None:
    """Raise CatalogueErrors naming every op and argument whose name collides (rendered:
    relative path -> unformatted source, as render.render_all gives)."""
    ops = {op.name: op for op in catalogue.ops}
    problems = Problems(catalogue.path)
    for relative, source in rendered.items():
        tree = ast.parse(source, relative)
        top = list(_top_level(tree, catalogue))
        _check_top_level(problems, relative, top, ops)
        template_globals = {name for name, node in top if not _defines_op(name, node, ops)}
        for function, enclosing in _functions(tree):
            _check_parameters(problems, catalogue, relative, function, enclosing, template_globals)
    problems.raise_all()


def _defines_op(name, node, ops) -> bool:
    """Is this top-level binding one of the ops' own (its function, or its star import)?"""
    return name in ops and (isinstance(node, ast.FunctionDef) or _is_star(node))


def _is_star(node) -> bool:
    return isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)


def _top_level(tree: ast.Module, catalogue: Catalogue):
    """(name, node) of every module-level binding; a star import of the dispatch layer binds
    the names of the ops it exports."""
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0], node
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":  # generated.dispatch, or one group: <kind>_ops
                    group = node.module.rpartition(".")[2].removesuffix("_ops")
                    for op in catalogue.ops:
                        if group == "dispatch" or group == op.group:
                            yield op.name, node
                else:
                    yield alias.asname or alias.name, node
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name, node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        yield name.id, node


def _check_top_level(problems, relative, top, ops) -> None:
    counts = Counter(name for name, _ in top)
    for name, node in top:
        if counts[name] > 1 and name in ops and not _defines_op(name, node, ops):
            op = ops[name]
            problems.add(
                Where(problems.path, None, op.name).error(
                    op.line,
                    f"the name `{name}` is taken: generated/{relative}:{node.lineno} "
                    f"{_what(node)} it",
                    "rename the op",
                )
            )


def _what(node) -> str:
    return "imports" if isinstance(node, (ast.Import, ast.ImportFrom)) else "defines"


def _functions(tree):
    """(function, the function it is nested in or None) for every def of the module, found by
    statements (a def is never inside an expression)."""
    for statement in _statements(tree.body):
        if isinstance(statement, ast.FunctionDef):
            yield statement, None
            for inner in _statements(statement.body):
                if isinstance(inner, ast.FunctionDef):
                    yield inner, statement
        elif isinstance(statement, ast.ClassDef):
            for method in statement.body:
                if isinstance(method, ast.FunctionDef):
                    yield method, None


def _statements(body):
    """The statements of a body and of its blocks (if, for, with, try), not of nested defs."""
    for statement in body:
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(statement, field, ()))
        for handler in getattr(statement, "handlers", ()):
            yield from _statements(handler.body)


class _Scope:
    """A function's parameters, those its own body assigns a value that does not read them,
    and (when a parameter is a builtin's name) the names it calls."""

    def __init__(self, function: ast.FunctionDef):
        a = function.args
        every = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
        self.params = {arg.arg for arg in every if arg is not None}
        self.clobbers = {}  # parameter -> line
        for node in _statements(function.body):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                hit = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                hit &= self.params
                if hit:
                    value = node.iter if isinstance(node, ast.For) else node.value
                    read = (
                        {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} if value else ()
                    )
                    for name in hit - set(read):
                        self.clobbers.setdefault(name, node.lineno)
        self.called = set()
        if self.params & BUILTINS:
            self.called = {
                n.func.id
                for statement in function.body
                for n in ast.walk(statement)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }


def _check_parameters(problems, catalogue, relative, function, enclosing, template_globals):
    scope = _Scope(function)
    outer = _Scope(enclosing).params if enclosing is not None else set()
    for name in sorted(scope.params):
        if name in scope.clobbers:
            reason = f"its body assigns `{name}` (line {scope.clobbers[name]})"
        elif name in template_globals:
            reason = f"the module imports or defines `{name}`"
        elif name in outer:
            reason = f"`{name}` is a parameter of the enclosing {enclosing.name}"
        elif name in scope.called:  # an argument is a value: the body means a builtin
            reason = f"its body calls `{name}(...)`"
        else:
            continue
        op = _op_with_argument(catalogue, function, enclosing, name)
        if op is None:  # a parameter the template writes itself (self, cls, forward)
            continue
        problems.add(
            Where(catalogue.path, None, op.name).error(
                op.line,
                f"argument `{name}` collides with the generated code: in generated/{relative}, "
                f"{function.name} takes it as a parameter and {reason}",
                "rename the argument",
            )
        )


def _op_with_argument(catalogue, function, enclosing, name):
    """The op whose argument became this parameter: the function's own op (a dispatch or
    module function, a recorder), else an op with that argument sharing the Tensor method."""
    owner = (enclosing or function).name.removeprefix("record_")
    candidates = [op for op in catalogue.ops if op.name in (function.name, owner)]
    candidates += [op for op in catalogue.ops if op.method == function.name]
    return next((op for op in candidates if any(a.name == name for a in op.args)), None)
