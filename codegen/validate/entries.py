"""The catalogue's entries: backends and ops, each op's arguments, results, routing and dtypes.

`validate` reads them in file order, then runs the checks across entries (methods.py)."""

from types import MappingProxyType

from codegen.load import CatalogueError, Items, Located, plain
from codegen.model import (
    ARG_TYPES,
    AUTODIFF_CLASSES,
    OPERATORS,
    OPTIONAL_TYPES,
    ROUTINGS,
    TENSOR_KINDS,
    Arg,
    Backend,
    Catalogue,
    Op,
)
from codegen.validate.autodiff import check_autodiff, check_rule
from codegen.validate.fields import check_keys, choice, identifier, name_problem
from codegen.validate.methods import (
    check_composite,
    check_method_name,
    check_methods,
    check_operators,
    check_static,
)
from codegen.validate.options import function_options
from codegen.validate.suite import check_test
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
DTYPES = {
    "float": ("float32", "float64", "float16", "bfloat16"),
    "int": ("int64", "int32"),
    "bool": ("bool",),
}


def validate(path: str, root) -> Catalogue:
    if not isinstance(root, Located):
        raise CatalogueError(
            path, 1, None, "the catalogue must be a mapping", "write `backends:` and `ops:`"
        )
    check_keys(path, root, dict.fromkeys(TOP_KEYS, True), None)
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
            check_composite(path, op, names)
    check_methods(path, ops)
    check_operators(path, ops)
    return Catalogue(path, backends, ops)


def _backend(path, entry, line) -> Backend:
    if not isinstance(entry, Located):
        raise CatalogueError(
            path,
            line,
            None,
            f"a backend must be a mapping, not {plain(entry)!r}",
            "write `- {name: numpy, variant: NumPy, module: runtime.backends.numpy, devices: [cpu]}`",
        )
    check_keys(path, entry, BACKEND_KEYS, None)
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
        name=identifier(path, entry, "name", None),
        variant=identifier(path, entry, "variant", None),
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
    check_keys(path, entry, OP_KEYS, name)
    v = entry.value
    name = identifier(path, entry, "name", name)
    kind = choice(path, entry, "kind", TENSOR_KINDS, name)
    routing = choice(path, entry, "routing", ROUTINGS, name)
    args = _args(path, entry, name)
    returns = _returns(path, entry, name)
    autodiff = v.get("autodiff")
    if autodiff is not None:
        autodiff = choice(path, entry, "autodiff", AUTODIFF_CLASSES, name)
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
        method = identifier(path, entry, "method", name)
        check_method_name(path, entry, name, method)
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
        check_test(path, entry, name, test, args)
    static = v.get("static", False)
    if not isinstance(static, bool):
        raise CatalogueError(
            path,
            entry.line_of("static"),
            name,
            f"`static` is {static!r}, not a YAML boolean",
            "write true or false",
        )
    function, defaults, keyword_, choices, nonzero = function_options(path, entry, name, args)
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
    check_autodiff(path, entry, op)
    check_static(path, entry, op)
    if op.autodiff:
        check_rule(path, entry, op)
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
        problem = name_problem(arg_name)
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
