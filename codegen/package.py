"""A package's own ops: `python -m codegen --package DIR` (docs/own-ops.md).

DIR (a folder of the user's Python package) holds an `ops.yaml` in the library's entry schema
under a header naming the package, its kernels' class and its table of backward rules:

    package: myops
    kernels: myops.kernels:Kernels      # or {default: ..., numpy: ..., torch: ...}
    rules: myops.rules:Rules
    ops:
      - name: logaddexp
        ...

The entries are validated by the library's validator (a composite may call the library's ops
too), the kernels and rules are imported from the package (its `__init__` is not run, so a stale
or missing `generated/` stops nothing), and DIR/generated/ is rendered by the library's own
templates: its dispatch functions (`ops.py`), recorders, the Autodiff descriptions of its ops
(`catalogue.py`) and specialization (`autodiff.py`), its routing table (`backends.py`), its
spec-driven tests (`test_<package>.py`) and `py.typed`. Nothing of the library is written.
"""

import ast
import contextlib
import difflib
import functools
import importlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path

from burnpy.codegen import api, render, review
from burnpy.codegen.kernels import NoBackend, kernels_called, read_backend
from burnpy.codegen.load import Items, Located, Where, load
from burnpy.codegen.model import ArgKind, Catalogue, Op
from burnpy.codegen.names import check_names
from burnpy.codegen.validate.entries import validate
from burnpy.codegen.validate.fields import check_keys, name_problem
from burnpy.codegen.validate.report import Problems, suggest
from burnpy.runtime.autodiff.ops import AutodiffRole, rule_for

# the library's catalogue: beside the generator in a checkout, inside burnpy in a wheel
LIBRARY = Path(__file__).resolve().parent.parent / "ops.yaml"
HEADER = {"package": True, "kernels": False, "rules": False, "ops": True}
# The names a kernel class may be given for: every backend, or one backend (ops.yaml's names)
DEFAULT = "default"
# The names a package's `ref` may use besides its arguments (burnpy.opcheck's environment)
REFERENCE = ("np", "special")


@dataclass(frozen=True)
class Package:
    """A validated package catalogue: its ops (its `backends` are the library's), where its
    kernels' classes and its rules' table are, and the library ops its composites call."""

    name: str  # its import name: myops, or company.myops
    directory: Path
    catalogue: Catalogue
    kernels: tuple[tuple[str, str], ...]  # (backend name or "default", "module:Class")
    rules: str | None  # "module:Class"
    library_calls: tuple[str, ...]  # library ops its composites call

    @property
    def generated(self) -> str:
        return f"{self.name}.generated"

    def function_name(self, op: Op) -> str:
        """What its function is called in `<package>.generated`: its method, else its name."""
        return op.method or op.name


def library_catalogue():
    """The library's catalogue as loaded (its backends, its op names), read once per version
    of the file."""
    return _loaded(LIBRARY.stat().st_mtime_ns)


@functools.lru_cache(maxsize=2)
def _loaded(mtime_ns: int):
    return load(str(LIBRARY))


def read(directory: str | Path) -> tuple[Package, dict[str, str]]:
    """The package of DIR and its rendered files, after every check; raises CatalogueErrors
    naming every mistake at once."""
    directory = Path(directory)
    path = str(directory / "ops.yaml")
    root = load(path)
    problems = Problems(path)
    top = Where(path, root if isinstance(root, Located) else None)
    if top.entry is None:
        raise top.error(
            1, "the catalogue must be a mapping", "write `package:`, `kernels:`, `ops:`"
        )
    check_keys(problems, top, HEADER)
    name = problems.check(_package_name, top, directory) if "package" in root.value else None
    kernels = problems.check(_kernel_specs, top) or () if "kernels" in root.value else ()
    rules_spec = problems.check(_spec, top, "rules") if "rules" in root.value else None
    library = library_catalogue()
    known = {e.value.get("name") for e in library.value.get("ops", ()) if isinstance(e, Located)}
    classes, rules = {}, None
    if name is not None:
        with _importable(name, directory):
            for backend, spec in kernels:
                found = problems.check(_import, top, "kernels", spec)
                if found is not None:
                    classes[backend] = found
            if rules_spec:
                rules = problems.check(_import, top, "rules", rules_spec)
    entries = Located(
        {"backends": library.value["backends"], "ops": root.value.get("ops")},
        root.line,
        {"backends": 0, "ops": root.line_of("ops")},
        root.sections,
    )
    if "ops" not in root.value:
        entries.value.pop("ops")
    catalogue = validate(path, entries, problems, known=known, rules=rules, package=True)
    for op in catalogue.ops:
        if op.autodiff and rules_spec is None and "rules" not in root.value:
            problems.add(
                Where(path, None, op.name).error(
                    op.line,
                    "is differentiable but the catalogue names no table of rules",
                    f"add `rules: {name or 'myops'}.rules:Rules` to the header, a class whose "
                    f"attribute `{op.name}` holds one VJP per float input",
                )
            )
    _check_kernels(problems, catalogue, top, classes, kernels)
    calls = tuple(sorted({c for op in catalogue.ops if op.composite for c in _calls(op)} & known))
    package = Package(name or "", directory, catalogue, kernels, rules_spec, calls)
    rendered = {}
    if not problems.found:
        rendered = render_package(package)
        problems.check(check_names, catalogue, rendered)
    problems.raise_all()
    return package, rendered


def _package_name(top: Where, directory: Path) -> str:
    value = top.entry.value["package"]
    parts = value.split(".") if isinstance(value, str) else [None]
    bad = next((p for p in parts if name_problem(p)), False)
    if bad is not False:
        raise top.error(
            "package",
            f"`package` {value!r} is not an import name",
            "write the package's import name, e.g. `package: myops`",
        )
    if parts[-1] != directory.resolve().name:
        raise top.error(
            "package",
            f"`package` {value!r} is not the folder's name, {directory.resolve().name!r}",
            f"write `package: {directory.resolve().name}` (the folder is the package)",
        )
    return value


def _spec(top: Where, key: str, value=None) -> str:
    value = top.entry.value[key] if value is None else value
    module, colon, attribute = value.partition(":") if isinstance(value, str) else ("", "", "")
    if not colon or any(name_problem(p) for p in module.split(".")) or name_problem(attribute):
        raise top.error(
            key,
            f"`{key}` {value!r} is not `module:Class`",
            f"write e.g. `{key}: myops.{key}:{key.capitalize()}`",
        )
    return value


def _kernel_specs(top: Where) -> tuple[tuple[str, str], ...]:
    value = top.entry.value["kernels"]
    if not isinstance(value, Located):
        return ((DEFAULT, _spec(top, "kernels")),)
    names = [DEFAULT] + [
        b.value.get("name") for b in library_catalogue().value["backends"] if isinstance(b, Located)
    ]
    specs = []
    for backend, spec in value.value.items():
        if backend not in names:
            raise top.error(
                value.line_of(backend),
                f"`kernels` names backend {backend!r}, which burnpy does not have",
                suggest(backend, names, f"write one of {', '.join(names)}"),
            )
        specs.append((backend, _spec(top, "kernels", spec)))
    return tuple(specs)


@contextlib.contextmanager
def _importable(name: str, directory: Path):
    """The package's modules importable by their names, from DIR, without running the
    package's `__init__` (it may import a `generated/` that is stale or not there yet): the
    package is a bare module meanwhile. What was loaded under its name before is put back."""
    parts = name.split(".")
    root = directory.resolve()
    for _ in parts:
        root = root.parent
    top = parts[0]
    before = {m: sys.modules.pop(m) for m in list(sys.modules) if m.split(".")[0] == top}
    sys.path.insert(0, str(root))
    try:
        for i in range(len(parts)):
            prefix = ".".join(parts[: i + 1])
            location = str(root.joinpath(*parts[: i + 1]))
            stub = types.ModuleType(prefix)
            stub.__path__ = [location]
            stub.__spec__ = importlib.machinery.ModuleSpec(prefix, None, is_package=True)
            stub.__spec__.submodule_search_locations = [location]
            sys.modules[prefix] = stub
        yield
    finally:
        sys.path.remove(str(root))
        for module in [m for m in sys.modules if m.split(".")[0] == top]:
            del sys.modules[module]
        sys.modules.update(before)


def _import(top: Where, key: str, spec: str) -> type:
    module, _, attribute = spec.partition(":")
    try:
        found = getattr(importlib.import_module(module), attribute)
    except ImportError as error:
        raise top.error(
            key, f"cannot import {module}: {error}", "check the module's name"
        ) from None
    except AttributeError:
        raise top.error(
            key, f"{module} defines no `{attribute}`", "name the class the module defines"
        ) from None
    except Exception as error:  # the user's module failed as it ran
        raise top.error(
            key, f"importing {module} raised {type(error).__name__}: {error}", "fix the module"
        ) from None
    if not isinstance(found, type):
        raise top.error(key, f"{spec} is not a class", "name a class")
    return found


def _check_kernels(problems: Problems, catalogue: Catalogue, top: Where, classes, specs) -> None:
    """Every primitive op has a kernel in every kernel class; every `B.<kernel>` a rule calls
    is one of the package's or the library's (on every backend)."""
    path = catalogue.path
    primitive = [op for op in catalogue.ops if not op.composite]
    if primitive and not specs and "kernels" not in top.entry.value:
        problems.add(
            top.error(
                None,
                f"{primitive[0].name} needs a kernel but the catalogue names no kernels' class",
                "add `kernels: <package>.kernels:Kernels` to the header",
            )
        )
        return
    for backend, kernels in classes.items():
        own = [n for n in dir(kernels) if not n.startswith("_")]
        for op in primitive:
            for kernel in [op.name] + ([f"{op.name}_keeping"] if op.keeps else []):
                if callable(getattr(kernels, kernel, None)):
                    continue
                parameters = ", ".join(["self", *(a.name for a in op.args)])
                problems.add(
                    Where(path, None, op.name).error(
                        op.line,
                        f"no kernel: {kernels.__module__}.{kernels.__qualname__} ("
                        f"{'every backend' if backend == DEFAULT else backend}) defines no "
                        f"`{kernel}`",
                        suggest(kernel, own, f"define `def {kernel}({parameters})` there"),
                    )
                )
    library = set.intersection(*map(set, _library_kernels(catalogue)))
    for op in primitive:
        described = op.autodiff_op
        if described is None or described.role is not AutodiffRole.RECORD:
            continue
        try:
            rule = rule_for(described)
        except (LookupError, ValueError):  # check_rule reports it
            continue
        for fn in rule.functions:
            for call in kernels_called(fn):
                lacking = [b for b, k in classes.items() if not hasattr(k, call.kernel)] * (
                    call.kernel not in library
                )
                if lacking:
                    problems.add(
                        Where(str(call.path), None, f"the rule of {op.name}").error(
                            call.line,
                            f"calls `B.{call.kernel}`, which neither the package's kernels "
                            "nor burnpy's backends define",
                            suggest(call.kernel, library, "define it in the kernels' class"),
                        )
                    )


def _library_kernels(catalogue: Catalogue):
    """The kernels' names of each of the library's backends that can be read."""
    for backend in catalogue.backends:
        try:
            yield read_backend(backend.module).kernels
        except NoBackend:  # (the library's own validation reports it)
            continue


def _calls(op: Op) -> set[str]:
    tree = ast.parse(op.composite, mode="eval")
    return {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }


# -- render --------------------------------------------------------------------------------


def render_package(package: Package) -> dict[str, str]:
    """Relative path (in DIR/generated) -> unformatted source, for every generated file."""
    env = render.environment()
    catalogue = package.catalogue
    generated = package.generated
    library_calls = package.library_calls
    imports = (
        [f"from burnpy.generated.dispatch import {', '.join(library_calls)}"]
        if library_calls
        else []
    )
    functions = [
        f
        for group in api.dispatch_groups(catalogue)
        for f in api.dispatch_functions(catalogue, group)
    ]
    kernels = _kernel_table(package)
    return {
        "__init__.py": env.get_template("package_init.py.jinja").render(
            package=package.name,
            exports=[(op.name, package.function_name(op)) for op in catalogue.ops],
        ),
        "backends.py": env.get_template("package_backends.py.jinja").render(
            package=package.name, kernels=kernels, data_dependent=api.data_dependent(catalogue)
        ),
        "catalogue.py": env.get_template("catalogue.py.jinja").render(
            described=api.described_ops(catalogue)
        ),
        "autodiff.py": env.get_template("autodiff.py.jinja").render(
            package=generated,
            bindings=[b for b in api.autodiff_bindings(catalogue) if b.name != "move_across"],
        ),
        "recorders.py": env.get_template("recorders.py.jinja").render(
            recorders=[r for r in api.recorders(catalogue) if r.name != "move_across"]
        ),
        "ops.py": env.get_template("dispatch.py.jinja").render(
            package=generated,
            library=False,
            imports=imports,
            kind=package.name,
            functions=functions,
        ),
        f"test_{package.name.rpartition('.')[2]}.py": env.get_template(
            "package_test.py.jinja"
        ).render(package=package.name, specs=_specs(package)),
    }


@dataclass(frozen=True)
class KernelClass:
    """A class of backends.py: one of the package's kernel classes joined with runtime's
    Extension."""

    name: str  # KernelsOver, TorchKernelsOver, ...
    module: str
    base: str
    backends: tuple[str, ...]  # "default" and backends' names


@dataclass(frozen=True)
class KernelTable:
    """What backends.py says of the package's kernels."""

    classes: tuple[KernelClass, ...]
    imports: tuple[tuple[str, str], ...]  # (module, its names, joined)
    by_backend: str  # the literal {backend name: class}
    default: str  # the class for every other backend, or None


def _kernel_table(package: Package) -> KernelTable:
    specs = {}
    for backend, spec in package.kernels:
        specs.setdefault(spec, []).append(backend)
    classes, taken = [], set()
    for spec, backends in specs.items():
        module, _, base = spec.partition(":")
        name = f"{base}Over"
        while name in taken:  # two modules' classes of one name
            name = "_" + name
        taken.add(name)
        classes.append(KernelClass(name, module, base, tuple(backends)))
    modules = {}
    for c in classes:
        modules.setdefault(c.module, set()).add(c.base)
    named = [(b, c.name) for c in classes for b in c.backends if b != DEFAULT]
    return KernelTable(
        tuple(classes),
        tuple((m, ", ".join(sorted(names))) for m, names in sorted(modules.items())),
        "{" + ", ".join(f'"{b}": {name}' for b, name in named) + "}",
        next((c.name for c in classes if DEFAULT in c.backends), "None"),
    )


@dataclass(frozen=True)
class Spec:
    """One op's test metadata as the generated test module writes it (burnpy.opcheck.OpSpec)."""

    name: str
    args: str  # ((name, type), ...)
    ref: str
    shapes: str
    domain: str
    arguments: str
    differentiable: bool


def _specs(package: Package) -> list[Spec]:
    specs = []
    for op in package.catalogue.ops:
        if op.test is None:
            continue
        args = tuple((a.name, _arg_type(a)) for a in op.args)
        specs.append(
            Spec(
                op.name,
                _literal(args),
                _literal(op.test.ref),
                _literal(op.test.shapes),
                _literal(op.test.domain),
                _literal(dict(op.test.arguments)),
                op.differentiable,
            )
        )
    return specs


def _literal(value) -> str:
    """A value of the catalogue as a Python literal in black's style (double quotes)."""
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (tuple, list)):
        items = ", ".join(_literal(v) for v in value)
        if isinstance(value, list):
            return f"[{items}]"
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _arg_type(arg) -> str:
    return arg.spelled if arg.type is not ArgKind.INTS else f"ints{arg.arity}"


# -- review and test -------------------------------------------------------------------------


def explain(package: Package, name: str) -> str:
    """`explain OP` for a package's op: its entry, function, kernel, recorder and rule."""
    catalogue = package.catalogue
    names = [op.name for op in catalogue.ops]
    if name not in names:
        close = [n for n in names if name in n][:8] or difflib.get_close_matches(name, names, 3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise review.ReviewError(f"no op {name!r} in {catalogue.path}{hint}")
    op = catalogue.op(name)
    out = package.directory / "generated"
    root = package.directory.resolve().parent
    function = api.dispatch_function(op)
    line = review._def_line(out / "ops.py", op.name)
    where = review._where(out / "ops.py", line, root) if line else "(not generated yet)"
    public = f"{package.generated}.{package.function_name(op)}"
    dispatch = f"{public}({function.params}) -> {function.returns}, at {where}"
    if op.composite:
        kernels = f"a composite: returns {op.composite}, and differentiates through its ops"
    else:
        kernels = "\n".join(
            f"{'every backend' if backend == DEFAULT else backend}: {spec}.{op.name}"
            for backend, spec in package.kernels
        )
    with _importable(package.name, package.directory):  # its rules' source, found
        if package.rules:
            importlib.import_module(package.rules.partition(":")[0])
        autodiff = review._autodiff(op, out, root)
    sections = [
        ("entry", review._entry(catalogue, op)),
        ("function", dispatch),
        ("kernels", kernels),
        ("autodiff", autodiff),
    ]
    return "\n\n".join(f"{title}:\n{review._indent(text)}" for title, text in sections if text)


def test(package: Package) -> int:
    """Run the package's generated tests with pytest; its exit status (1: a test failed)."""
    tests = package.directory / "generated" / f"test_{package.name.rpartition('.')[2]}.py"
    if not tests.is_file():
        print(f"error: {tests} is not generated yet: run generate first", file=sys.stderr)
        return 2
    if importlib.util.find_spec("pytest") is None:
        print("error: the tests run under pytest: pip install pytest", file=sys.stderr)
        return 2
    root = package.directory.resolve()
    for _ in package.name.split("."):
        root = root.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), *sys.path]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests.resolve())]
    return min(subprocess.call(command, env=env, cwd=root), 1)
