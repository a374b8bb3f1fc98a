"""Backward rules: one flat table per category, each a class whose attributes are its rows,
named as their ops (`ElementwiseRules.float_mul`), so that an op's description in
generated/catalogue.py names its rule and an editor goes to it.

A row is a tuple with one VJP per float input, in the order ops.yaml lists the op's
arguments; the VJP of a `tensors` list returns a list, one gradient per element. An op whose
backward kernel computes every input's gradient at once (attention, the convolutions,
deform_conv2d) has a `Joint` rule instead: one function, called once per step. A VJP is a
function whose parameter names say what it needs:

- `g`: the gradient of the output; `B`: the inner backend (backward is never recorded);
- an argument's name (`lhs`, `tensor`, `dim`, `rhs`, ...): its value at forward time;
- `out`: the op's (float) output; `indices`: the int output of a (values, indices) op;
- `<input>_shape`, `_device`, `_dtype`: a float input's shape, device, dtype (a list of them for
  a `tensors` list);
- the name of what the op's forward keeps (ops.yaml's `keeps`: layer_norm's `statistics`), or None where
  the backend kept nothing.

Only what the VJPs of the *tracked* inputs name is saved (burn: `mul` keeps lhs only when rhs
needs a gradient). Broadcasting is undone once, by the step, not here.
"""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from burnpy.runtime.autodiff.rules.activation import ActivationRules
from burnpy.runtime.autodiff.rules.conv import ConvRules
from burnpy.runtime.autodiff.rules.elementwise import ElementwiseRules
from burnpy.runtime.autodiff.rules.fft import FftRules
from burnpy.runtime.autodiff.rules.grid_sample import GridSampleRules
from burnpy.runtime.autodiff.rules.indexing import IndexingRules
from burnpy.runtime.autodiff.rules.joint import Joint
from burnpy.runtime.autodiff.rules.linear import LinearRules
from burnpy.runtime.autodiff.rules.loss import LossRules
from burnpy.runtime.autodiff.rules.norm import NormRules
from burnpy.runtime.autodiff.rules.order import OrderRules
from burnpy.runtime.autodiff.rules.pool import PoolRules
from burnpy.runtime.autodiff.rules.reduce import ReduceRules
from burnpy.runtime.autodiff.rules.shape import ShapeRules

# A row of a table: one VJP per float input, or one Joint function for them all
Row = tuple[Callable[..., Any], ...] | Joint

TABLES: tuple[type, ...] = (
    ElementwiseRules, ActivationRules, ReduceRules, OrderRules, ShapeRules, IndexingRules,
    GridSampleRules, LinearRules, ConvRules, PoolRules, NormRules, LossRules, FftRules,
)  # fmt: skip


def tables_of(name: str) -> list[type]:
    """The tables with a row (a class attribute) for the op `name`: one, or none when it has
    no rule (two is a mistake the validator reports). Read when asked, not indexed once, so
    that a table changed since import (a test's) is read as it is."""
    return [table for table in TABLES if name in vars(table) and not name.startswith("__")]


_JOINT_LEAD = ("B", "g", "tracked")


class Needs(Enum):
    """What a name a VJP takes stands for (the list above): what its step saves for it."""

    OUTPUT = "the op's float output"
    INDICES = "the int output of a (values, indices) op"
    KEPT = "what the op's forward keeps"
    INPUT = "a float input's value"
    ARGUMENT = "an argument's value"
    SHAPE = "a float input's shape"
    DEVICE = "a float input's device"
    DTYPE = "a float input's dtype"


@dataclass(frozen=True)
class Needed:
    """A name a VJP may take: what it stands for, and of which argument (its own name for the
    outputs and what is kept)."""

    name: str
    needs: Needs
    of: str


_OF_INPUT = {"shape": Needs.SHAPE, "device": Needs.DEVICE, "dtype": Needs.DTYPE}


def vocabulary(args, float_inputs, multi_output=False, kept=None) -> dict[str, Needed]:
    """Every name a VJP of an op may take besides `B`, `g` (and a Joint rule's `tracked`), by
    name. A name that could stand for two things stands for the later of: an input's shape,
    device or dtype; an argument; a float input; the int output; what is kept; the output."""
    found = {
        f"{a}_{what}": Needed(f"{a}_{what}", needs, a)
        for a in float_inputs
        for what, needs in _OF_INPUT.items()
    }
    found |= {a: Needed(a, Needs.ARGUMENT, a) for a in args}
    found |= {a: Needed(a, Needs.INPUT, a) for a in float_inputs}
    if multi_output and "indices" not in args:
        found["indices"] = Needed("indices", Needs.INDICES, "indices")
    if kept:
        found[kept] = Needed(kept, Needs.KEPT, kept)
    found["out"] = Needed("out", Needs.OUTPUT, "out")
    return found


class RuleError(ValueError):
    """A rule that does not fit its op: what is wrong and what to do. `function`: the VJP (or
    Joint function) at fault, whose file and line locate the mistake; `unknown`: a parameter
    name it takes that the op does not have, and `allowed`: the names it may take."""

    def __init__(self, problem: str, fix: str, function, unknown=None, allowed=()):
        super().__init__(f"{problem}; {fix}")
        self.problem, self.fix, self.function = problem, fix, function
        self.unknown, self.allowed = unknown, tuple(allowed)


class Rule:
    """A rule (`row`, from its table), compiled once for one op: positional VJPs and the names each one needs. A step
    saves its values as a tuple in the order of `saved` (every name some VJP needs, in the
    order first needed), None where no tracked input needs it; a VJP reads its by position.
    A Joint rule has no VJPs but `joint(B, g, values, tracked)`, returning every gradient."""

    __slots__ = ("name", "functions", "vjps", "joint", "g_only", "needs", "saved", "saved_values")

    def __init__(
        self,
        name: str,
        row: Row,
        args: tuple[str, ...],
        float_inputs: tuple[str, ...],
        multi_output=False,
        kept: str | None = None,
    ):
        joint = isinstance(row, Joint)
        fns = (row.fn,) if joint else row
        if not joint and len(fns) != len(float_inputs):
            raise RuleError(
                f"the rule of {name} has {_count(len(fns), 'VJP')} but the op has "
                f"{_count(len(float_inputs), 'float input')} {list(float_inputs)}",
                "write one VJP per float input, in order, or correct the entry's argument types",
                fns[0] if fns else None,
            )
        names = vocabulary(args, float_inputs, multi_output, kept)
        allowed = {"B", "g", *names} | ({"tracked"} if joint else set())
        self.name = name
        self.functions = fns  # as the rule's table writes them (one, for a Joint rule)
        self.g_only = row.g_only if joint else ()
        params_of = [tuple(inspect.signature(fn).parameters) for fn in fns]
        for fn, params in zip(fns, params_of):
            unknown = [p for p in params if p not in allowed]
            if unknown:
                raise RuleError(
                    f"a VJP of {name} takes `{unknown[0]}`, which the op does not have",
                    f"a VJP may name only {', '.join(sorted(allowed))}",
                    fn,
                    unknown[0],
                    sorted(allowed),
                )
        if joint:
            (params,) = params_of
            if params[:3] != _JOINT_LEAD:
                raise RuleError(
                    f"the Joint rule of {name} takes {', '.join(params[:3])} first",
                    f"take {', '.join(_JOINT_LEAD)} first, then the names it needs",
                    row.fn,
                )
            unknown = [n for n in row.g_only if n not in float_inputs]
            if unknown:
                raise RuleError(
                    f"the Joint rule of {name} says {unknown[0]} needs only g, but the op has "
                    f"no float input {unknown[0]}",
                    f"name in g_only only the op's float inputs {', '.join(float_inputs)}",
                    row.fn,
                    unknown[0],
                    float_inputs,
                )
            needs = params[3:]
            self.needs = tuple(() if n in row.g_only else needs for n in float_inputs)
            self.saved = needs
            self.saved_values = tuple(names[n] for n in needs)
            self.vjps = ()
            self.joint = _bind_joint(row.fn)
            return
        self.needs = tuple(tuple(p for p in params if p not in ("B", "g")) for params in params_of)
        self.saved = tuple(dict.fromkeys(n for needs in self.needs for n in needs))
        self.saved_values = tuple(names[n] for n in self.saved)  # what each saved name is
        position = {n: i for i, n in enumerate(self.saved)}
        self.vjps = tuple(_bind(fn, params, position) for fn, params in zip(fns, params_of))
        self.joint = None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _bind(fn, params, position):
    """Turn `fn(<named params>)` into `vjp(B, g, values)`, calling `fn` positionally with the
    saved values it names (`values` is a step's tuple, `position` a name's index in it): this
    runs once per input per backward step, so it builds no keyword dict."""
    keys = tuple(position[p] for p in params if p not in ("B", "g"))
    lead = tuple(p for p in params if p in ("B", "g"))
    if params[: len(lead)] != lead:  # B or g after a saved name: keywords, the rare way
        return lambda B, g, values: fn(
            **{p: B if p == "B" else g if p == "g" else values[position[p]] for p in params}
        )
    if lead == ("g",) and len(keys) == 0:
        return lambda B, g, values: fn(g)
    if lead == ("g",) and len(keys) == 1:
        (key,) = keys
        return lambda B, g, values: fn(g, values[key])
    if lead == ("B", "g") and len(keys) == 0:
        return lambda B, g, values: fn(B, g)
    if lead == ("B", "g") and len(keys) == 1:
        (key,) = keys
        return lambda B, g, values: fn(B, g, values[key])
    if lead == ("B", "g") and len(keys) == 2:
        first, second = keys
        return lambda B, g, values: fn(B, g, values[first], values[second])
    return lambda B, g, values: fn(
        *[B if p == "B" else g for p in lead], *[values[key] for key in keys]
    )


def _bind_joint(fn):
    """Turn `fn(B, g, tracked, <names>)` into `joint(B, g, values, tracked)`: its saved values
    are the whole of a step's tuple, in order."""
    return lambda B, g, values, tracked: fn(B, g, tracked, *values)
