"""A module function's options: its module, defaults, keyword-only start, choices, nonzero."""

from types import MappingProxyType

from burnpy.codegen.load import plain
from burnpy.codegen.model import ArgKind
from burnpy.codegen.validate.report import Where, suggest
from burnpy.runtime.values import ints_arg

FUNCTION_MODULES = ("module", "optim")  # generated/<name>.py: public functions


def function_options(where: Where, args):
    """A public function's signature: which module, defaults, keyword-only start, choices."""
    v = where.entry.value
    names = [a.name for a in args]
    function = plain(v.get("function"))
    if function is not None and function not in FUNCTION_MODULES:
        raise where.error(
            "function",
            f"unknown function module {function!r}",
            suggest(function, FUNCTION_MODULES, f"write one of {', '.join(FUNCTION_MODULES)}"),
        )
    mappings = {}
    for key in ("defaults", "choices"):
        value = plain(v.get(key, {}))
        wrong = [k for k in value if k not in names] if isinstance(value, dict) else [None]
        if wrong:
            raise where.error(
                key,
                f"`{key}` must map argument names to values, got {value!r}",
                suggest(wrong[0], names, f"name only arguments of {names}"),
            )
        mappings[key] = MappingProxyType(value)
    choices = mappings["choices"]
    for arg in args:
        has = arg.name in choices
        if (arg.type is ArgKind.CHOICE) != has or has and not _strings(choices[arg.name]):
            raise where.error(
                "choices",
                f"argument `{arg.name}`: a `choice` argument, and only one, lists its strings",
                f"write `choices: {{{arg.name}: [first, second]}}`",
            )
    defaults = mappings["defaults"]
    for arg in args:
        if arg.optional and arg.name in defaults and defaults[arg.name] is not None:
            raise where.error(
                "defaults",
                f"optional argument `{arg.name}` defaults to None",
                f"remove its default or make it `{arg.spelled.removesuffix('?')}`",
            )
    keyword_ = plain(v.get("keyword"))
    if keyword_ is not None and keyword_ not in names:
        raise where.error(
            "keyword",
            f"`keyword` names {keyword_!r}, not an argument",
            suggest(keyword_, names, f"name the first keyword-only argument, one of {names}"),
        )
    nonzero = plain(v.get("nonzero", []))
    wrong = [n for n in nonzero if n not in names] if isinstance(nonzero, list) else [None]
    if wrong:
        raise where.error(
            "nonzero",
            f"`nonzero` must list argument names, got {nonzero!r}",
            suggest(wrong[0], names, f"name only arguments of {names}"),
        )
    for arg in args:
        if arg.type is ArgKind.INTS and defaults.get(arg.name) is not None:
            check_ints(where, "defaults", "defaults", arg, defaults[arg.name], arg.name in nonzero)
    return function, defaults, keyword_, choices, tuple(nonzero)


def check_ints(where: Where, at, label: str, arg, value, nonzero: bool = False) -> None:
    """A value for an `intsN` argument (at key or line `at` of the entry `label` names), judged
    by the check the generated function runs: an int, or a list of `arity` ints."""
    try:
        ints_arg(f"`{label}`", arg.name, value, arg.arity, nonzero)
    except (TypeError, ValueError) as error:
        example = ", ".join("1" for _ in range(arg.arity))
        raise where.error(
            at, str(error), f"write an int or {arg.arity} ints, e.g. `{arg.name}: [{example}]`"
        ) from None


def _strings(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(s, str) for s in value)
