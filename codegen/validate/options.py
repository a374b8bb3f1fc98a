"""A module function's options: its module, defaults, keyword-only start, choices, nonzero."""

from types import MappingProxyType

from codegen.load import CatalogueError, plain

FUNCTION_MODULES = ("module",)  # generated/<name>.py: public functions


def function_options(path, entry, name, args):
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
