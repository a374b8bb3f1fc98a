"""Which kernels a backend defines (and what a runtime class defines), read from the source.

A backend module defines `BACKEND = SomeBackend()`; its kernels are the methods of that class
and of its bases in the `runtime` package, found by following the modules' imports. Reading the
source, not importing it, keeps `python -m codegen` free of the backends' libraries (torch): a
backend whose library is missing is still checked, and only warned about.
"""

import ast
import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Kernel:
    qualname: str  # Class.method
    path: Path
    line: int


@dataclass(frozen=True)
class BackendSource:
    module: str
    class_name: str  # of its BACKEND
    path: Path
    kernels: dict  # name -> Kernel, in method-resolution order (the first definition wins)
    libraries: tuple[str, ...]  # the top-level packages outside `runtime` it imports


class NoBackend(Exception):
    """The module does not exist, or defines no BACKEND."""


def _source(module: str) -> tuple[Path, ast.Module]:
    path = _module_path(module)
    if path is None:
        raise NoBackend(f"module {module!r} does not exist")
    return path, _parse(path, path.stat().st_mtime_ns)


def _module_path(module: str) -> Path | None:
    """A module's file, found without importing it or its packages (finding a submodule the
    import system's way runs its packages' `__init__`, which would load the runtime)."""
    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if not rest:
        return Path(spec.origin) if spec.origin and spec.origin.endswith(".py") else None
    if not spec.submodule_search_locations:  # (a namespace package has locations, no origin)
        return None
    for location in spec.submodule_search_locations:
        for path in (
            Path(location, *rest).with_suffix(".py"),
            Path(location, *rest, "__init__.py"),
        ):
            if path.is_file():
                return path
    return None


@functools.lru_cache(maxsize=256)
def _parse(path: Path, mtime_ns: int) -> ast.Module:
    """A module's tree, parsed once per version of the file (a class's bases are read from
    the modules it imports: the same few modules for every backend and `explain`)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def read_backend(module: str) -> BackendSource:
    path, tree = _source(module)
    class_name = next(
        (
            node.value.func.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "BACKEND" for t in node.targets)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
        ),
        None,
    )
    if class_name is None:
        raise NoBackend(f"module {module!r} defines no `BACKEND = SomeBackend()`")
    kernels: dict = {}
    libraries: dict = {}
    _collect(module, path, tree, class_name, kernels, libraries, set())
    return BackendSource(module, class_name, path, kernels, tuple(libraries))


def table_keys(module: str, name: str) -> tuple[str, ...]:
    """The string keys of a module's dict `name = {"key": ..., ...}`, read from its source (a
    runtime table whose values need numpy, the shape contracts: the generator needs its keys)."""
    path, tree = _source(module)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.Dict)
        ):
            return tuple(k.value for k in node.value.keys if isinstance(k, ast.Constant))
    raise LookupError(f"{path} defines no dict `{name} = {{...}}`")


def function_names(module: str) -> tuple[str, ...]:
    """The public functions a module defines at its top level, read from its source (the
    exporter's lowerings, which the catalogue's `onnx:` keys name)."""
    _, tree = _source(module)
    return tuple(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    )


def class_attributes(module: str, class_name: str) -> dict:
    """Name -> Kernel (where it is defined) of every attribute a runtime class and its runtime
    bases define, plus `object`'s."""
    path, tree = _source(module)
    names: dict = {}
    _collect(module, path, tree, class_name, names, {}, set())
    implicit = [*dir(object), "__module__", "__qualname__", "__dict__", "__weakref__"]
    return names | {n: Kernel(f"object.{n}", path, 0) for n in implicit if n not in names}


def _collect(module, path, tree, class_name, kernels, libraries, seen) -> None:
    """Add the kernels of `class_name` (defined in or imported by `module`), then its bases'."""
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                _library(alias.name, libraries)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            _library(node.module, libraries)
    if (module, class_name) in seen:
        return
    seen.add((module, class_name))
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if cls is None:
        origin = _imported_from(tree, class_name)
        if origin is not None:
            other_path, other_tree = _source(origin)
            _collect(origin, other_path, other_tree, class_name, kernels, libraries, seen)
        return
    for statement in cls.body:
        for name, line in _bound(statement):
            kernels.setdefault(name, Kernel(f"{class_name}.{name}", path, line))
    for base in cls.bases:
        if isinstance(base, ast.Name):
            _collect(module, path, tree, base.id, kernels, libraries, seen)


def _bound(statement):
    if isinstance(statement, ast.FunctionDef):
        yield statement.name, statement.lineno
    elif isinstance(statement, ast.Assign):
        for target in statement.targets:
            if isinstance(target, ast.Name):
                yield target.id, statement.lineno
                if target.id == "__slots__" and isinstance(statement.value, (ast.Tuple, ast.List)):
                    for slot in statement.value.elts:
                        if isinstance(slot, ast.Constant) and isinstance(slot.value, str):
                            yield slot.value, statement.lineno


def _imported_from(tree, name: str) -> str | None:
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and _in_runtime(node.module):
            if any((alias.asname or alias.name) == name for alias in node.names):
                return node.module
    return None


def _library(module: str, libraries: dict) -> None:
    if not _in_runtime(module):
        libraries[module.split(".")[0]] = None


def _in_runtime(module: str) -> bool:
    return module == "burnpy.runtime" or module.startswith("burnpy.runtime.")


def missing_libraries(source: BackendSource) -> list[str]:
    return [name for name in source.libraries if importlib.util.find_spec(name) is None]


@dataclass(frozen=True)
class Call:
    """A `B.<kernel>` a backward rule calls, and where."""

    kernel: str
    path: Path
    line: int


def kernels_called(fn) -> tuple[Call, ...]:
    """Every `B.<name>` that a rule's function reads, from its source: its own body, the
    module-level helpers it calls, and the functions it closes over (a rule built by a
    factory from selectors such as `lambda B: B.conv2d_x_backward`)."""
    found: dict = {}
    _calls(fn, found, set())
    return tuple(found)


def _calls(fn, found: dict, seen: set) -> None:
    code = getattr(fn, "__code__", None)
    if code is None or code in seen:
        return
    seen.add(code)
    path = Path(code.co_filename)
    params = code.co_varnames[: code.co_argcount]
    for node in _defined_at(path, code.co_firstlineno, params):
        for inner in ast.walk(node):
            if isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name):
                if inner.value.id == "B":
                    found.setdefault(Call(inner.attr, path, inner.lineno))
            elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                helper = fn.__globals__.get(inner.func.id)
                if _in_runtime(getattr(helper, "__module__", "")):
                    _calls(helper, found, seen)
    for cell in fn.__closure__ or ():
        contents = cell.cell_contents
        if callable(contents):
            _calls(contents, found, seen)


def _defined_at(path: Path, line: int, params) -> list:
    """The defs and lambdas of a file that start at `line` and take `params`."""
    return _definitions(path).get((line, params), [])


@functools.cache
def _definitions(path: Path) -> dict:
    """(first line, parameter names) -> the defs and lambdas of a file, parsed once."""
    found: dict = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            key = (node.lineno, tuple(a.arg for a in node.args.args))
            found.setdefault(key, []).append(node)
    return found
