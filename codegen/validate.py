"""Turn the loaded YAML into a Catalogue, rejecting anything that does not fit.

Every error names ops.yaml:LINE, the op, what is wrong and what to write instead. Nothing is
written by the generator unless this succeeds for the whole catalogue, and so do the two checks
that follow it (codegen.__main__.checked): the names in the rendered code (codegen/names.py),
then every op's kernel on every backend (check_kernels, below).
"""

import ast
import builtins
import functools
import keyword
import unicodedata
from types import MappingProxyType

from codegen.kernels import NoBackend, class_attributes, missing_libraries, read_backend
from codegen.load import CatalogueError, Items, Located, plain
from codegen.model import (
    ARG_TYPES,
    AUTODIFF_CLASSES,
    OPERATORS,
    OPTIONAL_TYPES,
    ROUTINGS,
    SCALAR_TYPES,
    TENSOR_KINDS,
    Arg,
    Backend,
    Catalogue,
    Op,
)
from runtime.autodiff.rules import Rule
from runtime.contracts import CONTRACTS

TOP_KEYS = ("backends", "ops")
BACKEND_KEYS = {"name": True, "variant": True, "module": True, "devices": True, "extra": False}
OP_KEYS = {
    "name": True,
    "kind": True,
    "args": True,
    "returns": True,
    "routing": True,
    "doc": True,
    "autodiff": False,
    "composite": False,
    "method": False,
    "static": False,
    "operator": False,
    "dtypes": False,
    "test": False,
    "function": False,
    "contract": False,
    "defaults": False,
    "keyword": False,
    "choices": False,
    "nonzero": False,
}
FUNCTION_MODULES = ("module",)  # generated/<name>.py: public functions
# `test:` keys besides the op's argument names (their values, or a tensor's data); see ops.yaml
TEST_KEYS = ("ref", "shapes", "domain", "signed", "integers", "compare")
# What a `ref` expression may name besides the op's arguments and Python's builtins: the
# spec-driven suite (tests/opinfo.py) evaluates it with these bound.
REFERENCE_NAMES = ("np", "special", "updated", "refs", "dtype")
DTYPES = {
    "float": ("float32", "float64", "float16"),
    "int": ("int64", "int32"),
    "bool": ("bool",),
}


def validate(path: str, root) -> Catalogue:
    if not isinstance(root, Located):
        raise CatalogueError(
            path, 1, None, "the catalogue must be a mapping", "write `backends:` and `ops:`"
        )
    _check_keys(path, root, dict.fromkeys(TOP_KEYS, True), None)
    entries = _list(path, root, "backends", None)
    backends = tuple(_backend(path, b, entries.line_of(i)) for i, b in enumerate(entries))
    _unique(path, [(b.name, b.line) for b in backends], "backend")
    entries = _list(path, root, "ops", None)
    ops = tuple(
        _op(path, entry, entries.line_of(i), _section(root.sections, entry))
        for i, entry in enumerate(entries)
    )
    _unique(path, [(op.name, op.line) for op in ops], "op")
    names = {op.name for op in ops}
    for op in ops:
        if op.composite:
            _check_composite(path, op, names)
    _check_methods(path, ops)
    _check_operators(path, ops)
    return Catalogue(path, backends, ops)


# -- entries -------------------------------------------------------------------------------------


def _backend(path, entry, line) -> Backend:
    if not isinstance(entry, Located):
        raise CatalogueError(
            path,
            line,
            None,
            f"a backend must be a mapping, not {plain(entry)!r}",
            "write `- {name: numpy, variant: NumPy, module: runtime.backends.numpy, devices: [cpu]}`",
        )
    _check_keys(path, entry, BACKEND_KEYS, None)
    v = entry.value
    devices = v["devices"]
    if not isinstance(devices, list) or not devices:
        raise CatalogueError(
            path,
            entry.line_of("devices"),
            v["name"],
            "`devices` must be a non-empty list",
            "e.g. `devices: [cpu]`",
        )
    return Backend(
        name=_identifier(path, entry, "name", None),
        variant=_identifier(path, entry, "variant", None),
        module=str(v["module"]),
        devices=tuple(str(d) for d in devices),
        extra=v.get("extra"),
        line=entry.line,
    )


def _section(sections, entry) -> str:
    """The title of the last section comment above the entry ("" before the first)."""
    line = entry.line if isinstance(entry, Located) else 0
    return next((title for at, title in reversed(sections) if at < line), "")


def _op(path, entry, line, section: str) -> Op:
    if not isinstance(entry, Located):
        raise CatalogueError(
            path,
            line,
            None,
            f"an op entry must be a mapping, not {plain(entry)!r}",
            "start it with `- name: ...`",
        )
    name = entry.value.get("name")
    _check_keys(path, entry, OP_KEYS, name)
    v = entry.value
    name = _identifier(path, entry, "name", name)
    kind = _choice(path, entry, "kind", TENSOR_KINDS, name)
    routing = _choice(path, entry, "routing", ROUTINGS, name)
    args = _args(path, entry, name)
    returns = _returns(path, entry, name)
    autodiff = v.get("autodiff")
    if autodiff is not None:
        autodiff = _choice(path, entry, "autodiff", AUTODIFF_CLASSES, name)
    composite = v.get("composite")
    operators = v.get("operator", [])
    if not isinstance(operators, list) or any(o not in OPERATORS for o in operators):
        raise CatalogueError(
            path,
            entry.line_of("operator"),
            name,
            f"unknown operator in {operators!r}",
            f"write a list of {', '.join(OPERATORS)}",
        )
    method = v.get("method")
    if method is not None:
        method = _identifier(path, entry, "method", name)
        _check_method_name(path, entry, name, method)
    if operators and not method:
        raise CatalogueError(
            path,
            entry.line_of("operator"),
            name,
            "an operator needs a method",
            "add `method: <name>`",
        )
    dtypes = _dtypes(path, entry, name, kind, returns, routing)
    test = v.get("test")
    if test is not None:
        _check_test(path, entry, name, test, args)
    static = v.get("static", False)
    if not isinstance(static, bool):
        raise CatalogueError(
            path,
            entry.line_of("static"),
            name,
            f"`static` is {static!r}, not a YAML boolean",
            "write true or false",
        )
    function, defaults, keyword_, choices, nonzero = _function(path, entry, name, args)
    contract = plain(v.get("contract"))
    if contract is not None and contract not in CONTRACTS:
        raise CatalogueError(
            path,
            entry.line_of("contract"),
            name,
            f"unknown shape contract {contract!r}",
            f"write one of {', '.join(CONTRACTS)} (runtime/contracts.py)",
        )
    op = Op(
        contract=contract,
        function=function,
        defaults=defaults,
        keyword=keyword_,
        choices=choices,
        nonzero=nonzero,
        name=name,
        kind=kind,
        args=args,
        returns=returns,
        routing=routing,
        doc=str(v["doc"]).strip(),
        line=entry.line,
        autodiff=autodiff,
        composite=composite,
        method=method,
        static=static,
        operators=tuple(operators),
        dtypes=dtypes,
        section=section,
        test=MappingProxyType(plain(test)) if test is not None else None,
    )
    _check_routing(path, entry, op)
    _check_autodiff(path, entry, op)
    _check_static(path, entry, op)
    if op.autodiff:
        _check_rule(path, entry, op)
    return op


def _dtypes(path, entry, name, kind, returns, routing) -> tuple[str, ...]:
    """Supported dtypes: of the result for creation/conversion ops, else of the receiver."""
    of = returns[0] if routing in ("creation", "conversion") else kind
    allowed = DTYPES[of]
    if "dtypes" not in entry.value:
        return allowed
    dtypes = entry.value["dtypes"]
    if not isinstance(dtypes, list) or not dtypes or any(d not in allowed for d in dtypes):
        raise CatalogueError(
            path,
            entry.line_of("dtypes"),
            name,
            f"dtypes {dtypes!r} are not {of} dtypes",
            f"list some of {', '.join(allowed)}",
        )
    return tuple(dtypes)


def _args(path, entry, name) -> tuple[Arg, ...]:
    raw = entry.value["args"]
    line = entry.line_of("args")
    if not isinstance(raw, list):
        raise CatalogueError(
            path, line, name, "`args` must be a list", "write `args: [lhs: float, rhs: float]`"
        )
    args = []
    for item in raw:
        if not isinstance(item, Located) or len(item.value) != 1:
            raise CatalogueError(
                path,
                line,
                name,
                f"argument {plain(item)!r} is not `name: type`",
                "write e.g. `tensor: float`",
            )
        ((arg_name, arg_type),) = item.value.items()
        problem = _name_problem(arg_name)
        if problem:
            raise CatalogueError(
                path,
                item.line,
                name,
                f"argument name {arg_name!r} {problem}",
                "write a name of ASCII letters, digits and _",
            )
        optional = isinstance(arg_type, str) and arg_type.endswith("?")
        if optional:
            arg_type = arg_type[:-1]
            if arg_type not in OPTIONAL_TYPES:
                raise CatalogueError(
                    path,
                    line,
                    name,
                    f"argument `{arg_name}`: only a tensor may be optional, not {arg_type!r}",
                    f"write one of {', '.join(f'{t}?' for t in OPTIONAL_TYPES)}",
                )
            if not args or not any(a.is_tensor and not a.optional for a in args):
                raise CatalogueError(
                    path,
                    line,
                    name,
                    f"optional argument `{arg_name}` comes before a required tensor",
                    "put the required tensor arguments first (the first one picks the backend)",
                )
        if arg_type not in ARG_TYPES:
            raise CatalogueError(
                path,
                line,
                name,
                f"argument `{arg_name}` has unknown type {arg_type!r}",
                f"write one of {', '.join(ARG_TYPES)}",
            )
        args.append(Arg(arg_name, arg_type, optional))
    if len({a.name for a in args}) != len(args):
        raise CatalogueError(path, line, name, "two arguments share a name", "rename one")
    return tuple(args)


def _returns(path, entry, name) -> tuple[str, ...]:
    raw = entry.value["returns"]
    returns = tuple(raw) if isinstance(raw, list) else (raw,)
    if not returns or any(r not in TENSOR_KINDS for r in returns):
        raise CatalogueError(
            path,
            entry.line_of("returns"),
            name,
            f"unknown result {raw!r}",
            "write float, int or bool, or a list of them",
        )
    return returns


def _check_routing(path, entry, op: Op) -> None:
    """The routing shape must fit the arguments: the generated body depends on it."""
    line = entry.line_of("routing")
    tensors = op.tensor_args
    has_device = any(a.type == "device" for a in op.args)
    problem = None
    if op.routing == "creation":
        if tensors or not has_device:
            problem = "a creation op takes a `device` argument and no tensors"
        elif op.returns != (op.kind,):
            problem = f"a creation op of kind {op.kind} returns {op.kind}"
    elif not tensors:
        problem = f"a {op.routing} op needs a tensor argument"
    elif tensors[0].type not in (op.kind, "tensors"):
        problem = f"its first tensor argument is {tensors[0].type} but the op's kind is {op.kind}"
    elif op.routing == "tensor" and has_device:
        problem = "a tensor op takes no `device`; moves use `routing: move`"
    elif op.routing == "conversion" and (
        len(tensors) != 1 or op.returns in ((op.kind,),) or len(op.returns) != 1
    ):
        problem = "a conversion takes one tensor and returns one tensor of another kind"
    elif op.routing == "move" and (len(tensors) != 1 or not has_device or op.returns != (op.kind,)):
        problem = "a move takes one tensor and a `device`, and returns the same kind"
    if problem:
        raise CatalogueError(
            path,
            line,
            op.name,
            f"routing `{op.routing}` does not fit: {problem}",
            "fix `args`/`returns`, or pick the routing that fits (creation, tensor, conversion, move)",
        )


def _check_autodiff(path, entry, op: Op) -> None:
    differentiable_shape = (
        op.kind == "float" and "float" in op.returns and op.routing in ("tensor", "move")
    )
    line = entry.line_of("autodiff")
    if op.composite and op.autodiff:
        raise CatalogueError(
            path,
            line,
            op.name,
            "a composite op differentiates through its parts",
            "remove `autodiff`",
        )
    if op.autodiff and not differentiable_shape:
        raise CatalogueError(
            path,
            line,
            op.name,
            "only a float op with a float result can be differentiable",
            "remove `autodiff`",
        )
    if differentiable_shape and not op.autodiff and not op.composite:
        raise CatalogueError(
            path,
            entry.line,
            op.name,
            "a float op with a float result must say how it checkpoints",
            "add `autodiff: memory_bound` (cheap to recompute) or `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and any(a.optional for a in op.args):
        raise CatalogueError(
            path,
            line,
            op.name,
            "an op with an optional tensor cannot be recomputed",
            "write `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and len(op.returns) > 1:
        raise CatalogueError(
            path,
            line,
            op.name,
            "a multi-output op cannot be recomputed for one of its outputs",
            "write `autodiff: compute_bound`",
        )
    if op.autodiff == "memory_bound" and any(a.type == "tensors" for a in op.args):
        # burn's cat has a custom step that checkpoints nothing; a recipe over a list of inputs
        # is not supported by the Checkpointer
        raise CatalogueError(
            path,
            line,
            op.name,
            "an op over a `tensors` list cannot be recomputed",
            "write `autodiff: compute_bound`",
        )


def _function(path, entry, name, args):
    """A public function's signature: which module, defaults, keyword-only start, choices."""
    v = entry.value
    names = [a.name for a in args]
    function = plain(v.get("function"))
    if function is not None and function not in FUNCTION_MODULES:
        raise CatalogueError(
            path,
            entry.line_of("function"),
            name,
            f"unknown function module {function!r}",
            f"write one of {', '.join(FUNCTION_MODULES)}",
        )
    mappings = {}
    for key in ("defaults", "choices"):
        value = plain(v.get(key, {}))
        if not isinstance(value, dict) or any(k not in names for k in value):
            raise CatalogueError(
                path,
                entry.line_of(key),
                name,
                f"`{key}` must map argument names to values, got {plain(value)!r}",
                f"name only arguments of {names}",
            )
        mappings[key] = MappingProxyType(value)
    choices = mappings["choices"]
    for arg in args:
        has = arg.name in choices
        if (arg.type == "choice") != has or has and not _strings(choices[arg.name]):
            raise CatalogueError(
                path,
                entry.line_of("choices"),
                name,
                f"argument `{arg.name}`: a `choice` argument, and only one, lists its strings",
                f"write `choices: {{{arg.name}: [first, second]}}`",
            )
    defaults = mappings["defaults"]
    for arg in args:
        if arg.optional and arg.name in defaults and defaults[arg.name] is not None:
            raise CatalogueError(
                path,
                entry.line_of("defaults"),
                name,
                f"optional argument `{arg.name}` defaults to None",
                f"remove its default or make it `{arg.type}`",
            )
    keyword_ = plain(v.get("keyword"))
    if keyword_ is not None and keyword_ not in names:
        raise CatalogueError(
            path,
            entry.line_of("keyword"),
            name,
            f"`keyword` names {keyword_!r}, not an argument",
            f"name the first keyword-only argument, one of {names}",
        )
    nonzero = plain(v.get("nonzero", []))
    if not isinstance(nonzero, list) or any(n not in names for n in nonzero):
        raise CatalogueError(
            path,
            entry.line_of("nonzero"),
            name,
            f"`nonzero` must list argument names, got {plain(nonzero)!r}",
            f"name only arguments of {names}",
        )
    return function, defaults, keyword_, choices, tuple(nonzero)


def _strings(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(s, str) for s in value)


def _check_rule(path, entry, op: Op) -> None:
    """A differentiable primitive has a backward rule whose VJPs fit its arguments."""
    names = tuple(a.name for a in op.float_args)
    try:
        Rule(op.name, tuple(a.name for a in op.args), names, multi_output=len(op.returns) > 1)
    except LookupError:
        raise CatalogueError(
            path,
            entry.line_of("autodiff"),
            op.name,
            "is differentiable but has no backward rule",
            f"add `{op.name}: (one VJP per float input {list(names)},)` to a table in "
            "runtime/autodiff/rules/, or make it a `composite`",
        ) from None
    except ValueError as error:
        raise CatalogueError(
            path, entry.line_of("autodiff"), op.name, str(error), "fix the rule or the entry"
        ) from None


def _check_composite(path, op: Op, names: set) -> None:
    try:
        tree = ast.parse(op.composite, mode="eval")
    except SyntaxError as error:
        raise CatalogueError(
            path, op.line, op.name, f"composite is not a Python expression: {error.msg}"
        ) from None
    args = {a.name for a in op.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (
            not isinstance(node.func, ast.Name) or node.func.id not in names
        ):
            raise CatalogueError(
                path,
                op.line,
                op.name,
                f"composite calls {ast.unparse(node.func)}, which is not a catalogue op",
                "call ops of this catalogue by their names",
            )
        if isinstance(node, ast.Name) and node.id not in names and node.id not in args:
            raise CatalogueError(
                path,
                op.line,
                op.name,
                f"composite uses `{node.id}`, which is neither an argument nor an op",
                f"use the op's arguments ({', '.join(sorted(args))})",
            )


def _check_methods(path, ops) -> None:
    """Ops sharing a Tensor method must agree on its parameters and be told apart by kind."""
    groups: dict[str, list[Op]] = {}
    for op in ops:
        if op.method:
            groups.setdefault(op.method, []).append(op)

    def shape(op):
        return op.static, tuple(a.name for a in op.args if a is not op.receiver)

    for method, members in groups.items():
        # the shape most of the members have is the method's: the odd one out is to blame
        shapes = [shape(op) for op in members]
        usual = max(shapes, key=shapes.count)
        first = members[shapes.index(usual)]
        seen = set()
        for op in members:
            if shape(op) != usual:
                raise CatalogueError(
                    path,
                    op.line,
                    op.name,
                    f"method `{method}` is also {first.name}'s, with other parameters",
                    f"give it the same parameters ({', '.join(usual[1])}) or another method name",
                )
            rest = [a for a in op.args if a is not op.receiver]
            second = rest[0].type if rest and not op.static else None
            variant = (op.kind, second in SCALAR_TYPES)
            if variant in seen:
                raise CatalogueError(
                    path,
                    op.line,
                    op.name,
                    f"method `{method}` already has a {op.kind} variant of this shape",
                    "give one of them another method name",
                )
            seen.add(variant)


def _check_operators(path, ops) -> None:
    """An operator claimed by several methods routes by kind: one method per kind, one arity."""
    claims: dict[str, list[Op]] = {}
    for op in ops:
        for operator in op.operators:
            claims.setdefault(operator, []).append(op)
    for operator, claimants in claims.items():
        first = claimants[0]
        method_of_kind = {}
        for op in claimants:
            if len(op.args) != len(first.args):
                raise CatalogueError(
                    path,
                    op.line,
                    op.name,
                    f"operator {operator} is also {first.name}'s, which takes "
                    f"{len(first.args)} arguments",
                    "claim it only from ops of the same arity",
                )
            method = method_of_kind.setdefault(op.kind, op.method)
            if method != op.method:
                raise CatalogueError(
                    path,
                    op.line,
                    op.name,
                    f"operator {operator} already routes {op.kind} tensors to method `{method}`",
                    f"claim {operator} from one method per kind",
                )


def _check_method_name(path, entry, name, method) -> None:
    line = entry.line_of("method")
    if method.startswith("__") and method.endswith("__"):
        raise CatalogueError(
            path,
            line,
            name,
            f"method `{method}` is a special name",
            "Python operators come from `operator: [__add__, ...]`; pick a plain method name",
        )
    defined = tensor_base_attributes().get(method)
    if defined is not None:
        raise CatalogueError(
            path,
            line,
            name,
            f"method `{method}` would replace Tensor.{method}, which the runtime defines "
            f"({defined.qualname}, {defined.path.name}:{defined.line})",
            "pick another method name",
        )


@functools.cache
def tensor_base_attributes() -> dict:
    """What runtime/tensor.py's TensorBase (the generated Tensor's base) defines, by name."""
    return class_attributes("runtime.tensor", "TensorBase")


def _check_static(path, entry, op: Op) -> None:
    """`static: true`: the method is a constructor, called on the class (Tensor.zeros, and
    Tensor.cat over a list); every other method is called on its first tensor argument."""
    line = entry.line_of("static")
    tensors = op.tensor_args
    constructor = op.routing == "creation" or bool(tensors) and tensors[0].type == "tensors"
    if op.static and not op.method:
        raise CatalogueError(
            path, line, op.name, "`static` without a `method`", "add `method:` or remove `static`"
        )
    if op.static and not constructor:
        raise CatalogueError(
            path,
            line,
            op.name,
            "`static: true` on an op with a receiver: its method is called on its first tensor",
            "remove `static` (it is for creation ops and ops over a `tensors` list)",
        )
    if op.method and constructor and not op.static:
        raise CatalogueError(
            path,
            entry.line_of("method"),
            op.name,
            f"method `{op.method}` has no tensor to be called on: it is a constructor",
            "add `static: true` (Tensor.<method>(...))",
        )


def _check_test(path, entry, name, test, args) -> None:
    """The spec-driven suite's metadata: known keys, and a `ref` naming only what it gets."""
    if not isinstance(test, Located):
        raise CatalogueError(
            path,
            entry.line_of("test"),
            name,
            "`test` must be a mapping",
            'e.g. `test: {ref: "np.exp(tensor)", shapes: [[[2, 3]]]}`',
        )
    names = [a.name for a in args]
    for key, line in test.key_lines.items():
        if key not in TEST_KEYS and key not in names:
            raise CatalogueError(
                path,
                line,
                name,
                f"unknown `test` key `{key}`",
                f"write one of {', '.join(TEST_KEYS)}, or an argument's name ({', '.join(names)})",
            )
    ref = test.value.get("ref")
    if not isinstance(ref, str):
        raise CatalogueError(
            path,
            test.line_of("ref"),
            name,
            "`test` needs `ref`, a numpy expression as a string",
            f'e.g. `ref: "np.exp({names[0] if names else "x"})"`',
        )
    try:
        tree = ast.parse(ref, mode="eval")
    except SyntaxError as error:
        raise CatalogueError(
            path,
            test.line_of("ref"),
            name,
            f"`test.ref` is not a Python expression: {error.msg}",
            "quote it as a string holding one expression",
        ) from None
    bound = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args}
    allowed = {*names, *REFERENCE_NAMES, *dir(builtins), *bound}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in allowed:
            raise CatalogueError(
                path,
                test.line_of("ref"),
                name,
                f"`test.ref` names `{node.id}`, which is not an argument of the op",
                f"name the arguments ({', '.join(names)}) or {', '.join(REFERENCE_NAMES)}",
            )
    compare = test.value.get("compare", "shape")
    if compare != "shape":
        raise CatalogueError(
            path,
            test.line_of("compare"),
            name,
            f"unknown `test.compare` {compare!r}",
            "write `compare: shape` (only the shape is deterministic) or leave it out",
        )
    if "shapes" in test.value and not isinstance(test.value["shapes"], list):
        raise CatalogueError(
            path,
            test.line_of("shapes"),
            name,
            "`test.shapes` must be a list of samples",
            "write one shape per tensor argument in each sample: `shapes: [[[2, 3], [2, 3]]]`",
        )


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


# -- small checks ----------------------------------------------------------------------------


def _check_keys(path, entry: Located, keys: dict, op) -> None:
    for key, line in entry.key_lines.items():
        if key not in keys:
            raise CatalogueError(
                path, line, op, f"unknown key `{key}`", f"write one of {', '.join(keys)}"
            )
    for key, required in keys.items():
        if required and key not in entry.value:
            raise CatalogueError(path, entry.line, op, f"missing `{key}`", f"add `{key}: ...`")


def _list(path, root: Located, key, op) -> list:
    value = root.value[key]
    if not isinstance(value, Items) or not value:
        raise CatalogueError(
            path,
            root.line_of(key),
            op,
            f"`{key}` must be a non-empty list",
            f"write `{key}:` then `- ...` items",
        )
    return value


def _identifier(path, entry: Located, key, op) -> str:
    value = entry.value[key]
    problem = _name_problem(value)
    if problem:
        raise CatalogueError(
            path,
            entry.line_of(key),
            op,
            f"`{key}` {value!r} {problem}",
            "write a name of ASCII letters, digits and _",
        )
    return value


def _name_problem(value) -> str | None:
    """Why `value` cannot be a name in the generated code, or None. Names are ASCII: Python
    reads identifiers NFKC-normalised, so `float_ｅxp` (a full-width letter) would be float_exp
    and `ﬁ` would be fi, overwriting another op or argument."""
    if not isinstance(value, str) or not value.isidentifier():
        return "is not a Python name"
    if keyword.iskeyword(value):
        return "is a Python keyword"
    if not value.isascii():
        normalised = unicodedata.normalize("NFKC", value)
        return f"is not ASCII (Python reads it as {normalised!r})"
    return None


def _choice(path, entry: Located, key, choices, op) -> str:
    value = entry.value[key]
    if value not in choices:
        raise CatalogueError(
            path,
            entry.line_of(key),
            op,
            f"unknown {key} {value!r}",
            f"write one of {', '.join(choices)}",
        )
    return value


def _unique(path, named, what) -> None:
    seen = {}
    for name, line in named:
        if name in seen:
            raise CatalogueError(
                path,
                line,
                name,
                f"duplicate {what}: already defined at line {seen[name]}",
                "remove or rename one",
            )
        seen[name] = line
