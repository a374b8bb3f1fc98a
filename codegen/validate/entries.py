"""The catalogue's entries: backends and ops, each op's arguments, results, routing and dtypes.

`validate` reads them in file order, then runs the checks across entries (methods.py). Every
mistake is kept (report.py): a field that is wrong is left out of its op, and an op whose kind,
arguments, results or routing is wrong is left out of the checks that need it, so one mistake
is reported once, not again by every check that would trip on it.
"""

from burnpy.codegen.load import Items, Located, plain
from burnpy.codegen.model import (
    ARG_TYPES,
    AUTODIFF_CLASSES,
    BACKEND_KEYS,
    OP_KEYS,
    OPERATORS,
    OPTIONAL_TYPES,
    ROUTINGS,
    TENSOR_KINDS,
    Arg,
    ArgKind,
    Backend,
    Catalogue,
    Op,
    Routing,
)
from burnpy.codegen.kernels import table_keys
from burnpy.codegen.validate.autodiff import check_autodiff, check_rule
from burnpy.codegen.validate.elementwise import c_expression
from burnpy.codegen.validate.fields import check_keys, choice, identifier, name_problem, text
from burnpy.codegen.validate.methods import (
    check_composite,
    check_method_name,
    check_methods,
    check_operators,
    check_static,
)
from burnpy.codegen.validate.names import check_argument_names
from burnpy.codegen.validate.onnx import check_onnx
from burnpy.codegen.validate.options import function_options
from burnpy.codegen.validate.quantized import quantized_ops
from burnpy.codegen.validate.report import Problems, Where, suggest
from burnpy.codegen.validate.suite import check_test
from burnpy.runtime.dtypes import DTYPES, OP_DTYPES

TOP_KEYS = ("backends", "ops", "quantized")


def validate(
    path: str,
    root,
    problems: Problems | None = None,
    *,
    known=frozenset(),
    rules=None,
    package=False,
) -> Catalogue:
    """The catalogue of `root` (load's tree). Raises CatalogueErrors naming every mistake;
    given `problems`, adds them there instead and returns the valid part (for the checks that
    follow, codegen.validate.check). A package's catalogue (codegen/package.py) gives the
    library's op names its composites may call (`known`) and its own table of backward rules
    (`rules`); its methods name its functions, not Tensor methods."""
    own = problems is None
    problems = Problems(path) if own else problems
    top = Where(path, root if isinstance(root, Located) else None)
    if top.entry is None:
        raise top.error(1, "the catalogue must be a mapping", "write `backends:` and `ops:`")
    check_keys(problems, top, {key: key != "quantized" for key in TOP_KEYS})
    backends, ops, sound = (), (), ()
    entries = problems.check(_list, top, "backends") if "backends" in root.value else None
    if entries:
        found = [
            problems.check(_backend, path, b, entries.line_of(i)) for i, b in enumerate(entries)
        ]
        backends = tuple(b for b in found if b is not None)
        _unique(problems, path, [(b.name, b.line) for b in backends], "backend")
    entries = problems.check(_list, top, "ops") if "ops" in root.value else None
    if entries:
        read = [
            (
                _op(
                    problems,
                    path,
                    entry,
                    entries.line_of(i),
                    _section(root.sections, entry),
                    rules,
                    package,
                ),
                entry,
            )
            for i, entry in enumerate(entries)
        ]
        # a built op is kept for the kernel checks; only a sound one for the checks across ops
        ops = tuple(op for (op, _), _ in read if op is not None)
        sound = [(op, entry) for (op, ok), entry in read if ok]
        _unique(problems, path, [(op.name, op.line) for op in ops], "op")
    # every entry's name, even one left out for a mistake: a composite calling it is not wrong
    names = {e.value.get("name") for e in entries or () if isinstance(e, Located)} | set(known)
    for op, entry in sound:
        if op.composite:
            problems.check(check_composite, Where(path, entry, op.name), op, names)
    check_methods(problems, path, [op for op, _ in sound])
    check_operators(problems, path, [op for op, _ in sound])
    quantized = ()
    entries = problems.check(_list, top, "quantized") if "quantized" in root.value else None
    if entries:
        quantized = quantized_ops(problems, path, entries, ops)
    if own:
        problems.raise_all()
    return Catalogue(path, backends, ops, quantized)


def _backend(path, entry, line) -> Backend:
    where = Where(path, entry if isinstance(entry, Located) else None)
    if where.entry is None:
        raise where.error(
            line,
            f"a backend must be a mapping, not {plain(entry)!r}",
            "write `- {name: numpy, variant: NumPy, module: burnpy.runtime.backends.numpy, devices: [cpu]}`",
        )
    problems = Problems(path)
    check_keys(problems, where, BACKEND_KEYS)
    problems.raise_all()
    v = entry.value
    where = Where(path, entry, str(v["name"]))
    devices = v["devices"]
    if not isinstance(devices, list) or not devices or not all(isinstance(d, str) for d in devices):
        raise where.error(
            "devices", "`devices` must be a non-empty list of names", "e.g. `devices: [cpu]`"
        )
    extra = v.get("extra")
    if extra is not None and not isinstance(extra, str):
        raise where.error(
            "extra", f"`extra` must be a string, not {plain(extra)!r}", "e.g. `extra: torch`"
        )
    return Backend(
        name=identifier(where, "name"),
        variant=identifier(where, "variant"),
        module=text(where, "module", "burnpy.runtime.backends.numpy"),
        devices=tuple(devices),
        extra=extra,
        line=entry.line,
    )


def _section(sections, entry) -> str:
    """The title of the last section comment above the entry ("" before the first)."""
    line = entry.line if isinstance(entry, Located) else 0
    return next((title for at, title in reversed(sections) if at < line), "")


def _op(
    problems: Problems, path, entry, line, section: str, rules=None, package=False
) -> tuple[Op | None, bool]:
    """The op of one entry (None if its fields do not make one) and whether it is sound (no
    mistake in it); its mistakes go to `problems`."""
    if not isinstance(entry, Located):
        problems.add(
            Where(path).error(
                line,
                f"an op entry must be a mapping, not {plain(entry)!r}",
                "start it with `- name: ...`",
            )
        )
        return None, False
    v = entry.value
    where = Where(path, entry, v.get("name") if isinstance(v.get("name"), str) else None)
    before = len(problems.found)
    check_keys(problems, where, OP_KEYS)
    has = {key for key in OP_KEYS if key in v}
    check = problems.check
    name = check(identifier, where, "name") if "name" in has else None
    kind = check(choice, where, "kind", TENSOR_KINDS) if "kind" in has else None
    routing = check(choice, where, "routing", ROUTINGS) if "routing" in has else None
    args = _args(problems, where) if "args" in has else None
    returns = check(_returns, where) if "returns" in has else None
    doc = check(text, where, "doc", "One line saying what the op does.") if "doc" in has else None
    autodiff = check(choice, where, "autodiff", AUTODIFF_CLASSES) if "autodiff" in has else None
    composite = (
        check(text, where, "composite", "float_mul(lhs, rhs)") if "composite" in has else None
    )
    operators = check(_operators, where) or ()
    method = check(_method, where, not package) if "method" in has else None
    static = check(_flag, where, "static")
    untracked = check(_flag, where, "untracked")
    data_dependent = check(_flag, where, "data_dependent")
    keeps = check(identifier, where, "keeps") if "keeps" in has else None
    contract = check(_contract, where)
    c = check(c_expression, where, args, kind, returns, routing) if "c" in has and args else None
    dtypes = check(_dtypes, where, kind, returns, routing) if kind and returns and routing else None
    options = check(function_options, where, args) if args is not None else None
    test = check(check_test, where, v["test"], args) if args is not None and "test" in has else None
    onnx = check(check_onnx, where, args) if args is not None and "onnx" in has else None
    if operators and "method" not in has:
        problems.add(where.error("operator", "an operator needs a method", "add `method: <name>`"))
    # an entry whose shape is sound is built even with a mistake elsewhere (its test metadata,
    # its doc), so that its rule and kernels are still checked in the same run
    if None in (name, kind, routing, args, returns, dtypes, options):
        return None, False
    function, defaults, keyword_, choices, nonzero = options
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
        doc=doc.strip() if doc else "",
        line=entry.line,
        autodiff=autodiff,
        composite=composite,
        method=method,
        static=static,
        untracked=untracked,
        data_dependent=data_dependent,
        keeps=keeps,
        c=c,
        operators=tuple(operators),
        dtypes=dtypes,
        section=section,
        test=test,
        onnx=onnx,
        rules=rules,
    )
    # what follows judges a well-formed op (it stays in the catalogue for the kernel checks);
    # its rule is checked even when a field of the entry was wrong, unless one the rule reads
    if len(problems.found) == before:
        check(check_argument_names, where, op)
        if check(_check_routing, where, op):
            check(check_static, where, op)
        check(check_autodiff, where, op)
    if op.autodiff and not ("keeps" in has and keeps is None):
        check(check_rule, where, op)
    return op, len(problems.found) == before


def _operators(where: Where) -> tuple:
    operators = plain(where.entry.value.get("operator", []))
    if not isinstance(operators, list):
        raise where.error(
            "operator",
            f"`operator` must be a list, not {operators!r}",
            f"write e.g. `operator: [__mul__]`",
        )
    for operator in operators:
        if operator not in OPERATORS:
            raise where.error(
                "operator",
                f"unknown operator {operator!r}",
                suggest(operator, OPERATORS, f"write a list of {', '.join(OPERATORS)}"),
            )
    return tuple(operators)


def _method(where: Where, tensor_method: bool = True) -> str:
    method = identifier(where, "method")
    if tensor_method:
        check_method_name(where, method)
    return method


def _flag(where: Where, key: str) -> bool:
    value = where.entry.value.get(key, False)
    if not isinstance(value, bool):
        raise where.error(key, f"`{key}` is {value!r}, not a YAML boolean", "write true or false")
    return value


def _contract(where: Where) -> str | None:
    contract = plain(where.entry.value.get("contract"))
    contracts = table_keys("burnpy.runtime.contracts", "CONTRACTS")
    if contract is not None and (not isinstance(contract, str) or contract not in contracts):
        raise where.error(
            "contract",
            f"unknown shape contract {contract!r}",
            suggest(
                contract, contracts, f"write one of {', '.join(contracts)} (runtime/contracts.py)"
            ),
        )
    return contract


def _dtypes(where: Where, kind, returns, routing) -> tuple[str, ...]:
    """Supported dtypes: of the result for creation/conversion ops, else of the receiver."""
    of = returns[0] if routing in (Routing.CREATION, Routing.CONVERSION) else kind
    allowed = DTYPES[of]
    if "dtypes" not in where.entry.value:
        return OP_DTYPES[of]
    dtypes = plain(where.entry.value["dtypes"])
    if not isinstance(dtypes, list) or not dtypes:
        raise where.error(
            "dtypes",
            f"`dtypes` must be a non-empty list, not {dtypes!r}",
            f"list some of {', '.join(allowed)}",
        )
    for dtype in dtypes:
        if dtype not in allowed:
            raise where.error(
                "dtypes",
                f"{dtype!r} is not a {of} dtype",
                suggest(dtype, allowed, f"list some of {', '.join(allowed)}"),
            )
    return tuple(dtypes)


def _args(problems: Problems, where: Where) -> tuple[Arg, ...] | None:
    """The op's arguments, or None if any is wrong (each wrong one reported)."""
    raw = where.entry.value["args"]
    line = where.line("args")
    if not isinstance(raw, list):
        problems.add(
            where.error(line, "`args` must be a list", "write `args: [lhs: float, rhs: float]`")
        )
        return None
    args = []
    for item in raw:
        arg = problems.check(_arg, where, item, line, args)
        if arg is None:
            return None
        args.append(arg)
    if len({a.name for a in args}) != len(args):
        problems.add(where.error(line, "two arguments share a name", "rename one"))
        return None
    return tuple(args)


def _arg(where: Where, item, line, before) -> Arg:
    """One `name: type` item; `before` are the arguments ahead of it."""
    if not isinstance(item, Located) or len(item.value) != 1:
        raise where.error(
            line, f"argument {plain(item)!r} is not `name: type`", "write e.g. `tensor: float`"
        )
    ((arg_name, arg_type),) = item.value.items()
    problem = name_problem(arg_name)
    if problem:
        raise where.error(
            item.line,
            f"argument name {arg_name!r} {problem}",
            "write a name of ASCII letters, digits and _",
        )
    optional = isinstance(arg_type, str) and arg_type.endswith("?")
    if optional:
        arg_type = arg_type[:-1]
        if arg_type not in OPTIONAL_TYPES:
            raise where.error(
                line,
                f"argument `{arg_name}`: only a tensor may be optional, not {arg_type!r}",
                f"write one of {', '.join(f'{t}?' for t in OPTIONAL_TYPES)}",
            )
        if not any(a.is_tensor and not a.optional for a in before):
            raise where.error(
                line,
                f"optional argument `{arg_name}` comes before a required tensor",
                "put the required tensor arguments first (the first one picks the backend)",
            )
    if arg_type not in ARG_TYPES:
        raise where.error(
            line,
            f"argument `{arg_name}` has unknown type {plain(arg_type)!r}",
            suggest(arg_type, ARG_TYPES, f"write one of {', '.join(ARG_TYPES)}"),
        )
    return Arg(arg_name, arg_type, optional)


def _returns(where: Where) -> tuple[str, ...]:
    raw = plain(where.entry.value["returns"])
    returns = tuple(raw) if isinstance(raw, list) else (raw,)
    wrong = next((r for r in returns if r not in TENSOR_KINDS), None) if returns else raw
    if not returns or wrong is not None:
        raise where.error(
            "returns",
            f"unknown result {raw!r}",
            suggest(wrong, TENSOR_KINDS, "write float, int or bool, or a list of them"),
        )
    return returns


def _check_routing(where: Where, op: Op) -> bool:
    """The routing shape must fit the arguments: the generated body depends on it."""
    tensors = op.tensor_args
    has_device = any(a.type is ArgKind.DEVICE for a in op.args)
    problem = None
    if op.routing is Routing.CREATION:
        if tensors or not has_device:
            problem = "a creation op takes a `device` argument and no tensors"
        elif op.returns != (op.kind,):
            problem = f"a creation op of kind {op.kind} returns {op.kind}"
    elif not tensors:
        problem = f"a {op.routing} op needs a tensor argument"
    elif tensors[0].type not in (op.kind, ArgKind.TENSORS):
        problem = f"its first tensor argument is {tensors[0].type} but the op's kind is {op.kind}"
    elif op.routing is Routing.TENSOR and has_device:
        problem = "a tensor op takes no `device`; moves use `routing: move`"
    elif op.routing is Routing.CONVERSION and (
        len(tensors) != 1 or op.returns in ((op.kind,),) or len(op.returns) != 1
    ):
        problem = "a conversion takes one tensor and returns one tensor of another kind"
    elif op.routing is Routing.MOVE and (
        len(tensors) != 1 or not has_device or op.returns != (op.kind,)
    ):
        problem = "a move takes one tensor and a `device`, and returns the same kind"
    if problem:
        raise where.error(
            "routing",
            f"routing `{op.routing}` does not fit: {problem}",
            "fix `args`/`returns`, or pick the routing that fits (creation, tensor, conversion, move)",
        )
    return True


def _list(where: Where, key) -> list:
    value = where.entry.value.get(key)
    if not isinstance(value, Items) or not value:
        raise where.error(
            key, f"`{key}` must be a non-empty list", f"write `{key}:` then `- ...` items"
        )
    return value


def _unique(problems: Problems, path, named, what) -> None:
    seen = {}
    for name, line in named:
        if name in seen:
            problems.add(
                Where(path, None, name).error(
                    line,
                    f"duplicate {what}: already defined at line {seen[name]}",
                    "remove or rename one",
                )
            )
        else:
            seen[name] = line
