"""Control flow: ONNX's If, Loop, Scan and SequenceMap as Python's own `if` and `while` in the generated
`forward`. Their subgraphs are written like the main graph (one statement per node under a
comment naming it, the same minted names), nested inside the `if` or the loop; a subgraph
reads the values of the graphs around it as the Python variables they already are. A model
differentiates through the path it takes, as any Python code does.

A branch taken or an iteration run depends on a tensor's value: `capture` refuses such a model
(it reads the condition, `ops.truth`), which runs eagerly."""

from __future__ import annotations

from dataclasses import dataclass

from burnpy.onnx.emit import OPS, Body, Statement
from burnpy.onnx.expr import Expr, Lit, Name
from burnpy.onnx.ir import Graph, Node


@dataclass(frozen=True)
class Branch:
    """If: `if truth(cond):` assigns the then-branch's outputs to the targets, `else:` the
    else-branch's. A condition known at import (`cond` None) leaves the branch taken, `then`,
    written in place."""

    node: Node
    targets: tuple
    cond: Expr | None
    then: Body
    orelse: Body | None
    known = None  # (a Branch is code; an If with all outputs known at import is its Body)


@dataclass(frozen=True)
class Repeat:
    """Loop and Scan: the carried values start as `initial`; each iteration binds the body's
    per-iteration inputs (`binds`: identifier = expression of the step number), runs the body,
    carries its outputs over and appends its per-iteration outputs to lists; afterwards the
    targets take the carried values and the lists stacked (`results`)."""

    node: Node
    targets: tuple  # identifiers of the node's outputs ("_" when unread)
    step: str  # the Python int counting iterations
    going: str | None  # the Python bool the body's condition sets (Loop), else None
    start: Expr  # the condition before the first iteration (Loop)
    limit: Expr | None  # the most iterations (an int expression), None for no bound
    bound: str  # the identifier holding `limit`
    binds: tuple  # (identifier, Expr) bound at the start of each iteration
    carried: tuple  # identifiers of the body's carried inputs
    initial: tuple  # their Exprs before the first iteration
    body: Body
    condition: Expr | None  # the body's condition output (Loop)
    next_values: tuple  # the body's outputs carried over, one per `carried`
    scanned: tuple  # (list identifier, the body's per-iteration output Expr)
    results: tuple  # the Exprs assigned to `targets`: carried identifiers, stacked lists
    known = None  # (never known at import)


def statements(all_statements):
    """Every plain Statement, those inside bodies included."""
    for statement in all_statements:
        if isinstance(statement, Statement):
            yield statement
        elif isinstance(statement, Branch):
            yield from statements(statement.then.statements)
            if statement.orelse is not None:
                yield from statements(statement.orelse.statements)
        else:
            yield from statements(statement.body.statements)


def _graph(site, name: str) -> Graph:
    body = site.attr(name)
    if not isinstance(body, Graph):
        site.refuse(f"its attribute '{name}' must be a graph")
    return body


def if_(site):
    """If: `if cond:` the then-branch, `else:` the else-branch."""
    then, orelse = _graph(site, "then_branch"), _graph(site, "else_branch")
    count = site.outputs()
    if len(then.outputs) != count or len(orelse.outputs) != count:
        site.refuse(
            f"its branches give {len(then.outputs)} and {len(orelse.outputs)} outputs; the node "
            f"has {count}"
        )
    emitter = site.emitter
    targets = tuple(emitter.name_of(o) if o else "_" for o in site.node.outputs)
    if site.is_const(0):  # (an exporter's test of a static shape): only the branch taken
        taken = "then_branch" if bool(site.const(0).reshape(-1)[0]) else "else_branch"
        code = emitter.body(then if taken == "then_branch" else orelse, taken, fold=True)
        return code if code.known is not None else Branch(site.node, targets, None, code, None)
    cond = site.x(0)
    then_body, else_body = emitter.body(then, "then_branch"), emitter.body(orelse, "else_branch")
    return Branch(site.node, targets, cond, then_body, else_body)


def loop(site):
    """Loop: `while` the condition holds and fewer than M iterations ran, the body runs on the
    carried values; its scan outputs are stacked along a new first axis."""
    body = _graph(site, "body")
    emitter = site.emitter
    carried_count = site.count() - 2
    scan_count = len(body.outputs) - 1 - carried_count
    if len(body.inputs) != carried_count + 2 or scan_count < 0:
        site.refuse(
            f"its body takes {len(body.inputs)} inputs and gives {len(body.outputs)} outputs; "
            f"with {carried_count} carried values it must take {carried_count + 2} (the "
            f"iteration number, the condition, the carried values) and give at least "
            f"{carried_count + 1}"
        )
    if not site.has(0) and not site.has(1):
        site.refuse("it has neither a trip count nor a condition: it would never end")
    step, going, bound = (emitter.fresh(n) for n in ("step", "going", "trip_count"))
    device = site.device()
    binds = (
        (emitter.name_of(body.inputs[0].name), OPS.iteration(Name(step), device)),
        (emitter.name_of(body.inputs[1].name), OPS.condition(Name(going), device)),
    )
    carried = tuple(emitter.name_of(v.name) for v in body.inputs[2:])
    initial = tuple(site.x(i) for i in range(2, site.count()))
    start = OPS.truth(site.x(1)) if site.has(1) else Lit(True)
    limit = site.number_code(0) if site.has(0) else None
    code = emitter.body(body, "body")
    scanned, results = [], [Name(c) for c in carried]
    for k, value in enumerate(body.outputs[1 + carried_count :]):
        steps = emitter.fresh(f"{value.name}_steps")
        scanned.append((steps, code.outputs[1 + carried_count + k]))
        results.append(_stacked(Name(steps), value, 0, False, device))
    return _repeat(site, step, going, start, limit, bound, binds, carried, initial, code,
                   code.outputs[0], code.outputs[1 : 1 + carried_count], scanned, results)  # fmt: skip


def scan(site):
    """Scan: the body runs once per slice of the scanned inputs along their axes (reversed
    where a direction says so), carrying its states; its scan outputs are stacked along their
    axes."""
    return _scan(site, first=0, batch=False)


def scan_batched(site):
    """Scan before opset 9: input 0 is sequence_lens, and every state and scanned input has a
    leading batch dim, the scanned ones their sequence after it. A batch of one (a static dim
    of 1, all sequences full) is the later Scan over that one entry, its outputs given the
    batch dim back."""
    if site.has(0):
        site.refuse("Scan before opset 9 with sequence_lens is not supported")
    for i in range(1, site.count()):
        shape = site.shape(i)
        if shape is None or not shape or shape[0] != 1:
            site.refuse(
                "Scan before opset 9 is supported for a batch of one (a static leading dim of 1); "
                f"input {i} has shape {shape}"
            )
    return _scan(site, first=1, batch=True)


def _scan(site, first: int, batch: bool):
    """Scan over inputs `first` on; with `batch`, each input's entry 0 of its leading dim (the
    time axis after it, opset 8's `directions`), each output given a leading dim of 1."""
    body = _graph(site, "body")
    emitter = site.emitter
    scans = site.attr("num_scan_inputs")
    states = site.count() - first - scans
    outputs = len(body.outputs) - states
    if len(body.inputs) != site.count() - first or states < 0 or outputs < 0:
        site.refuse(f"its body takes {len(body.inputs)} inputs for {site.count() - first} given")
    if batch:
        in_axes, out_axes = [0] * scans, [0] * outputs
        in_dirs = list(site.attr("directions", [0] * scans))
        out_dirs = [0] * outputs
    else:
        in_axes = list(site.attr("scan_input_axes", [0] * scans))
        in_dirs = list(site.attr("scan_input_directions", [0] * scans))
        out_axes = list(site.attr("scan_output_axes", [0] * outputs))
        out_dirs = list(site.attr("scan_output_directions", [0] * outputs))
    if not (len(in_axes) == len(in_dirs) == scans and len(out_axes) == len(out_dirs) == outputs):
        site.refuse("its axes and directions must name one per scanned input and output")
    for i in range(scans):
        in_axes[i] += site.known_rank(first + states + i) if in_axes[i] < 0 else 0

    def given(i: int) -> Expr:
        return site.x(i)[0] if batch else site.x(i)

    def returned(expr: Expr) -> Expr:
        return expr.unsqueeze_dim(0) if batch else expr

    step, bound = emitter.fresh("step"), emitter.fresh("scan_length")
    device = site.device()
    binds = tuple(
        (emitter.name_of(body.inputs[states + i].name),
         OPS.step_slice(given(first + states + i), Name(step), in_axes[i], bool(in_dirs[i])))
        for i in range(scans)
    )  # fmt: skip
    carried = tuple(emitter.name_of(v.name) for v in body.inputs[:states])
    initial = tuple(given(first + i) for i in range(states))
    limit = OPS.length(given(first + states), in_axes[0]) if scans else Lit(0)
    code = emitter.body(body, "body")
    scanned, results = [], [returned(Name(c)) for c in carried]
    for k, value in enumerate(body.outputs[states:]):
        steps = emitter.fresh(f"{value.name}_steps")
        scanned.append((steps, code.outputs[states + k]))
        axis = out_axes[k]
        if axis < 0:
            rank = None if value.shape is None else len(value.shape)
            if rank is None:
                site.refuse(f"the rank of scan output {k} is unknown (a negative axis needs it)")
            axis += rank + 1
        results.append(returned(_stacked(Name(steps), value, axis, bool(out_dirs[k]), device)))
    return _repeat(site, step, None, Lit(True), limit, bound, binds, carried, initial, code,
                   None, code.outputs[:states], scanned, results)  # fmt: skip


def sequence_map(site):
    """SequenceMap: the body runs once per position of the input sequences (a tensor input is
    given whole each time); each output collects one tensor per position, a list."""
    body = _graph(site, "body")
    emitter = site.emitter
    if len(body.inputs) != site.count() or len(body.outputs) != site.outputs():
        site.refuse(
            f"its body takes {len(body.inputs)} inputs and gives {len(body.outputs)} outputs; "
            f"the node has {site.count()} and {site.outputs()}"
        )
    step, bound = emitter.fresh("step"), emitter.fresh("sequence_length")
    binds = []
    for i, value in enumerate(body.inputs):
        given = emitter.value(site.node.inputs[i])
        whole = site.x(i)
        each = whole[Name(step)] if given is not None and given.sequence else whole
        binds.append((emitter.name_of(value.name), each))
    code = emitter.body(body, "body")
    scanned = [
        (emitter.fresh(f"{value.name}_steps"), code.outputs[k])
        for k, value in enumerate(body.outputs)
    ]
    results = [Name(steps) for steps, _ in scanned]
    return _repeat(site, step, None, Lit(True), Name("len")(site.x(0)), bound, tuple(binds), (),
                   (), code, None, (), scanned, results)  # fmt: skip


def _stacked(steps: Expr, value, axis: int, reverse: bool, device) -> Expr:
    shape = None if value.shape is None else [d if isinstance(d, int) else None for d in value.shape]  # fmt: skip
    dtype = value.dtype or "float32"
    from burnpy.onnx.ir import storage

    return OPS.stacked(steps, axis, reverse, storage(dtype), shape, device)


def _repeat(site, step, going, start, limit, bound, binds, carried, initial, code, condition, next_values, scanned, results):  # fmt: skip
    targets = tuple(site.emitter.name_of(o) if o else "_" for o in site.node.outputs)
    return Repeat(
        node=site.node,
        targets=targets[: len(results)],
        step=step,
        going=going,
        start=start,
        limit=limit,
        bound=bound,
        binds=binds,
        carried=carried,
        initial=initial,
        body=code,
        condition=condition,
        next_values=tuple(next_values),
        scanned=tuple(scanned),
        results=tuple(results[: len(targets)]),
    )
