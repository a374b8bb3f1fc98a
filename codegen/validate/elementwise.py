"""An element-wise entry's `c:`: the C expression of one element of its result.

    - name: float_add
      ...
      c: "{lhs} + {rhs}"

A compiled capture (burnpy.capture.chains) fuses consecutive calls of such ops into one C loop,
each `{arg}` standing for one element of that argument (a float tensor) or for the number (a
scalar). The expression is C that the compiler builds, from a file that may come from
elsewhere (a user package's ops.yaml), so it is read as tokens, never as text: arguments in
braces, decimal literals, the arithmetic, comparison and conditional operators, parentheses,
and calls of the math functions the fused kernels' prelude declares. Nothing else (no
statements, strings, casts, identifiers or preprocessor) is C it may hold.
"""

import re

from burnpy.codegen.load import Where, plain
from burnpy.codegen.model import ArgKind, Kind, Routing

# the functions a kernel's prelude declares (burnpy/capture/csource.py), called with their
# double names: the float32 library calls their float versions
FUNCTIONS = ("relu", "exp", "log", "erf", "erfc", "tanh", "sqrt", "clamp_min", "clamp_max")
# argument kinds an expression may read: an element of a float tensor, or a number
OPERANDS = (ArgKind.FLOAT, ArgKind.SCALAR)
_TOKEN = re.compile(
    r"\s*(?:(?P<arg>\{[A-Za-z_]\w*\})|(?P<number>\d+(?:\.\d+)?(?:e[-+]?\d+)?)"
    r"|(?P<name>[A-Za-z_]\w*)|(?P<op><=|>=|==|!=|[-+*/<>?:(),]))"
)
EXAMPLE = 'write e.g. `c: "{lhs} + {rhs}"` or `c: "({output} <= 0 ? 0 : {grad})"`'


def c_expression(where: Where, args, kind, returns, routing) -> str:
    """The entry's `c:`, checked: an element-wise float op (one float result, routed by its
    tensor) whose arguments are float tensors and scalars, each read by the expression."""
    text = plain(where.entry.value["c"])
    if not isinstance(text, str) or not text.strip():
        raise where.error("c", f"`c` must be a C expression, not {text!r}", EXAMPLE)
    if kind != Kind.FLOAT or tuple(returns or ()) != (Kind.FLOAT,) or routing != Routing.TENSOR:
        raise where.error(
            "c",
            "`c` is the C expression of an element-wise float op: kind float, one float "
            "result, routing tensor",
            "remove `c`, or make the entry such an op",
        )
    names = {a.name: a for a in args}
    for arg in args:
        if arg.type not in OPERANDS or arg.optional:
            raise where.error(
                "c",
                f"argument {arg.name!r} is {arg.spelled}: an element-wise expression reads only "
                "float tensors and scalars",
                "remove `c` from this entry",
            )
    used, position, depth = set(), 0, 0
    while position < len(text):
        token = _TOKEN.match(text, position)
        if token is None or token.end() == position:
            if text[position:].strip() == "":
                break
            raise where.error(
                "c",
                f"`c` holds {text[position:].strip()[:20]!r}, which is not part of an "
                "element-wise expression",
                f"use `{{arg}}`, numbers, + - * / < > <= >= == != ?: ( ) and "
                f"{', '.join(FUNCTIONS)}",
            )
        position = token.end()
        if token["arg"]:
            name = token["arg"][1:-1]
            if name not in names:
                raise where.error(
                    "c",
                    f"`c` reads {{{name}}}, which is not an argument of the op",
                    f"write one of {', '.join('{' + n + '}' for n in names)}",
                )
            used.add(name)
        elif token["name"] and (
            token["name"] not in FUNCTIONS or not text[position:].lstrip().startswith("(")
        ):
            raise where.error(
                "c",
                f"`c` names {token['name']!r}: only calls of {', '.join(FUNCTIONS)} may appear",
                "write the argument as `{" + token["name"] + "}` if it is one",
            )
        elif token["op"] == "(":
            depth += 1
        elif token["op"] == ")":
            depth -= 1
            if depth < 0:
                break
    if depth != 0:
        raise where.error("c", "`c` has unbalanced parentheses", EXAMPLE)
    unread = [n for n in names if n not in used]
    if unread:
        raise where.error(
            "c",
            f"`c` does not read {', '.join(unread)}",
            "an element-wise op's expression reads each of its arguments",
        )
    return text.strip()
