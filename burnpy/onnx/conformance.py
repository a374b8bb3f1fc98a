"""`python -m burnpy.onnx.conformance`: ONNX's own node test suite, run by the importer and, with
the same judge, by onnxruntime and by onnx's reference evaluator; one row per op type.

A case passes when every output has the expected shape, ints and bools equal exactly after
casting to the expected dtype, floats are within the case's rtol/atol (NaN where NaN is
expected). `refused`: the importer raised UnsupportedError at load (onnxruntime: the session
could not be made); `mismatch`: it ran and a value differs; `error`: it raised while running."""

from __future__ import annotations

import argparse
import collections
import functools
import io
import json
import os
import sys
import warnings

import numpy as np

RESULTS = ("pass", "refused", "mismatch", "error")
# What the node suite's test keeps: at least this many cases and op types pass.
PASSING = 1884
PASSING_OPS = 197


def cases(cache: str | None = None) -> list:
    """The node suite's cases (onnx builds them in memory, which takes a while: a file in
    `cache`, keyed by onnx's version, keeps them; arrays and JSON, never a pickle)."""
    import onnx
    from onnx.backend.test import loader

    path = None
    if cache:
        path = os.path.join(cache, f"onnx-node-cases-{onnx.__version__}.npz")
        try:
            return _read_cases(path)
        except Exception:  # (none yet, or unreadable: built again and written over)
            pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = loader.load_model_tests(kind="node")
    found = [
        (c.name, c.model.SerializeToString(), _arrays(c.data_sets), c.rtol, c.atol) for c in loaded
    ]
    if path:
        os.makedirs(cache, exist_ok=True)
        _write_cases(path, found)
    return found


# The cases' file: an .npz of plain arrays (read with allow_pickle=False), one of which holds
# the JSON that lays them out: per case its name, model (an array of bytes), tolerances and
# data sets, where each value is {"array": key} ("scalar": true for a numpy scalar), a list,
# null (an optional left empty) or {"strings": [...], "shape": [...]}; an array of an
# ml_dtypes type is kept as its bytes, {"array": key, "dtype": name}, and viewed back.
def _write_cases(path: str, found: list) -> None:
    from burnpy import files

    arrays: dict = {}

    def stored(array) -> str:
        key = f"a{len(arrays)}"
        arrays[key] = array
        return key

    def encode(value):
        if value is None:
            return None
        if isinstance(value, list):
            return [encode(v) for v in value]
        array = np.asarray(value)
        if array.dtype == object or array.dtype.kind in "SU":
            return {"strings": [str(v) for v in array.ravel().tolist()], "shape": array.shape}
        kept = {"scalar": True} if isinstance(value, np.generic) else {}
        if array.dtype.type.__module__.startswith("numpy"):
            return {"array": stored(array), **kept}
        raw = array.view(f"u{array.dtype.itemsize}")
        return {"array": stored(raw), "dtype": array.dtype.name, **kept}

    layout = [
        {
            "name": name,
            "model": stored(np.frombuffer(model, dtype=np.uint8)),
            "rtol": rtol,
            "atol": atol,
            "data_sets": [[encode(ins), encode(outs)] for ins, outs in data_sets],
        }
        for name, model, data_sets, rtol, atol in found
    ]
    arrays["layout"] = np.frombuffer(json.dumps(layout).encode(), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    files.write_bytes(path, buffer.getvalue())


def _read_cases(path: str) -> list:
    import ml_dtypes

    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    layout = json.loads(arrays["layout"].tobytes())

    def decode(value):
        if value is None:
            return None
        if isinstance(value, list):
            return [decode(v) for v in value]
        if "strings" in value:
            return np.array(value["strings"], dtype=object).reshape(value["shape"])
        array = arrays[value["array"]]
        if "dtype" in value:
            array = array.view(getattr(ml_dtypes, value["dtype"]))
        return array[()] if value.get("scalar") else array

    return [
        (
            case["name"],
            arrays[case["model"]].tobytes(),
            [(decode(ins), decode(outs)) for ins, outs in case["data_sets"]],
            case["rtol"],
            case["atol"],
        )
        for case in layout
    ]


def _arrays(data_sets) -> list:
    from onnx import numpy_helper

    def convert(value):
        if isinstance(value, np.ndarray):
            return value
        if isinstance(value, list):
            return [convert(v) for v in value]
        try:
            return numpy_helper.to_array(value)
        except Exception:
            return value

    return [([convert(v) for v in ins], [convert(v) for v in outs]) for ins, outs in data_sets]


def op_type(name: str, model) -> str:
    """The op type a case tests: its only node's, or the longest op name its name starts with."""
    nodes = [n.op_type for n in model.graph.node if n.op_type != "Constant"]
    if len(set(nodes)) == 1:
        return nodes[0]
    key = name[len("test_") :].replace("_", "").lower()
    best = ""
    for op in _op_names():
        if key.startswith(op.lower()) and len(op) > len(best):
            best = op
    return best or (nodes[0] if nodes else "?")


@functools.cache
def _op_names() -> tuple[str, ...]:
    """Every op name onnx defines, in its schemas' order (onnx makes its schemas anew at each
    call: once, not once per case)."""
    from onnx import defs

    return tuple(schema.name for schema in defs.get_all_schemas_with_history())


def judge(actual, expected, rtol: float, atol: float) -> bool:
    if isinstance(expected, list):  # a sequence (onnxruntime and the reference evaluator)
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(judge(a, e, rtol, atol) for a, e in zip(actual, expected))
        )
    if expected is None or actual is None:  # an optional left empty
        return expected is None and actual is None
    try:
        actual = np.asarray(actual)
        expected = np.asarray(expected)
    except ValueError:
        return False
    if actual.shape != expected.shape:
        return False
    if expected.dtype == object or expected.dtype.kind in "SU":  # strings
        return actual.tolist() == expected.tolist()
    name = str(expected.dtype)
    if expected.dtype.kind == "V" or name.startswith(
        ("float8", "float4", "int4", "uint4", "int2", "uint2")
    ):
        if "float" not in name:  # ml_dtypes' narrow ints
            return np.array_equal(actual.astype(np.int64), expected.astype(np.int64))
        expected = expected.astype(np.float32)  # ml_dtypes' narrow floats: compared as floats
        actual = actual.astype(np.float32)
    if expected.dtype.kind in "biu":
        return np.array_equal(actual.astype(expected.dtype), expected)
    if expected.dtype.kind == "f" or name == "bfloat16":
        a = actual.astype(np.float64)
        e = expected.astype(np.float64)
        return bool(np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True))
    return np.array_equal(actual, expected)


def _outcome(run, data_sets, rtol, atol, check=None) -> tuple:
    """`check`: a random case's (`random_check`), which replaces the judge."""
    for k, (inputs, expected) in enumerate(data_sets):
        try:
            outputs = run(inputs)
        except Exception as error:  # a crash while running: what this runner counts
            return "error", f"{type(error).__name__}: {error}"
        if len(outputs) < len(expected):
            return "mismatch", "too few outputs"
        if check is not None:
            detail = check(k, [np.asarray(out) for out in outputs])
            if detail:
                return "mismatch", detail
            continue
        for out, exp in zip(outputs, expected):
            if not judge(out, exp, rtol, atol):
                return "mismatch", _difference(out, exp)
    return "pass", ""


# The cases whose values are drawn at random: the suite's values are one draw, so such a case
# is judged by what every draw must hold (`random_check`).
RANDOM_OPS = {"RandomUniform", "RandomUniformLike", "RandomNormal", "RandomNormalLike", "Bernoulli", "Multinomial"}  # fmt: skip


def random_check(op: str, model, data_sets, rtol, atol):
    """None for a case of deterministic values; for a random one (a random op's, or Dropout's
    in training mode), `check(k, outputs)` -> "" when the outputs of data set k hold what every
    draw must, else what does not hold. Every output: the expected shape and dtype. Bernoulli:
    0 or 1, 0 where p is 0, 1 where p is 1; RandomUniform: within [low, high]; RandomNormal:
    finite; Multinomial: class indices; Dropout: each entry 0 or x / (1 - ratio) (within the
    case's tolerances), the mask True exactly where the entry is kept, and x itself, every
    mask entry True, at ratio 0 or outside training mode."""
    if op not in RANDOM_OPS | {"Dropout"}:
        return None
    node = next((n for n in model.graph.node if n.op_type in RANDOM_OPS | {"Dropout"}), None)
    if node is None or (op == "Dropout" and (len(node.input) < 3 or not node.input[2])):
        return None
    from onnx import helper

    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}

    def check(k: int, outputs: list) -> str:
        inputs, expected = data_sets[k]
        for out, exp in zip(outputs, expected):
            exp = np.asarray(exp)
            if out.shape != exp.shape or out.dtype != exp.dtype:
                return f"{out.dtype} {list(out.shape)} where {exp.dtype} {list(exp.shape)} is expected"  # fmt: skip
        y = outputs[0].astype(np.float64)
        if op == "Dropout":
            return _dropout_holds(inputs, outputs, rtol, atol)
        if op == "Bernoulli":
            p = np.asarray(inputs[0])
            if not np.isin(y, (0, 1)).all() or (y[p == 0] != 0).any() or (y[p == 1] != 1).any():
                return "a Bernoulli draw other than 0 and 1, or against a certain p"
        if op.startswith("RandomUniform"):
            low, high = attrs.get("low", 0.0), attrs.get("high", 1.0)
            if not ((y >= low) & (y <= high)).all():
                return f"a uniform draw outside [{low}, {high}]"
        if op.startswith("RandomNormal") and not np.isfinite(y).all():
            return "a normal draw that is not finite"
        if op == "Multinomial" and not ((y >= 0) & (y < np.shape(inputs[0])[1])).all():
            return "a class index outside the classes"
        return ""

    return check


def _dropout_holds(inputs, outputs, rtol, atol) -> str:
    x = np.asarray(inputs[0]).astype(np.float64)
    ratio = float(np.asarray(inputs[1])) if len(inputs) > 1 and inputs[1] is not None else 0.5
    training = bool(np.asarray(inputs[2])) if len(inputs) > 2 and inputs[2] is not None else False
    y = outputs[0].astype(np.float64)
    mask = outputs[1] if len(outputs) > 1 else None
    if mask is not None and mask.dtype != np.bool_:
        return f"a mask of {mask.dtype}"
    if not training or ratio == 0.0:
        if not np.array_equal(y, x) or (mask is not None and not mask.all()):
            return "Dropout changed its input at ratio 0 or outside training mode"
        return ""
    scaled = x / (1.0 - ratio) if ratio < 1.0 else np.zeros_like(x)
    kept = np.isclose(y, scaled, rtol=rtol, atol=atol)
    if not (kept | (y == 0)).all():
        return "an entry neither 0 nor x / (1 - ratio)"
    if mask is not None and not np.allclose(y, np.where(mask, scaled, 0.0), rtol=rtol, atol=atol):
        return "the output and the mask disagree"
    return ""


def _difference(actual, expected) -> str:
    if isinstance(expected, list) or isinstance(actual, list):
        return "the sequences differ"
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != {expected.shape}"
    try:
        return f"max |diff| {np.nanmax(np.abs(actual.astype(float) - expected.astype(float)))}"
    except (TypeError, ValueError):
        return "values differ"


def ours(model_bytes, data_sets, rtol, atol, device=None, check=None) -> tuple:
    return ours_loaded(model_bytes, data_sets, rtol, atol, device, check)[:2]


def ours_loaded(model_bytes, data_sets, rtol, atol, device=None, check=None) -> tuple:
    """(result, detail, the loaded model or None): `ours`, keeping the model for the suite in
    reverse, which exports it."""
    from burnpy import onnx as importer

    try:
        model = importer.load(model_bytes, device=device)
    except importer.UnsupportedError as error:
        return "refused", "; ".join(error.problems), None
    except Exception as error:
        return "error", f"at load: {type(error).__name__}: {error}", None

    def run(inputs):
        result = model(*inputs)
        return result if isinstance(result, tuple) else (result,)

    return (*_outcome(run, data_sets, rtol, atol, check), model)


def onnxruntime_(model_bytes, data_sets, rtol, atol, check=None) -> tuple:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 4
    try:
        session = onnxruntime.InferenceSession(
            model_bytes, options, providers=["CPUExecutionProvider"]
        )
    except Exception as error:
        return "refused", str(error).splitlines()[0]
    names = [i.name for i in session.get_inputs()]
    return _outcome(
        lambda ins: session.run(None, dict(zip(names, ins))), data_sets, rtol, atol, check
    )


def reference(model_bytes, data_sets, rtol, atol, check=None) -> tuple:
    import onnx
    from onnx.reference import ReferenceEvaluator

    try:
        evaluator = ReferenceEvaluator(onnx.load_from_string(model_bytes))
    except Exception as error:
        return "refused", str(error).splitlines()[0]
    names = list(evaluator.input_names)
    return _outcome(
        lambda ins: evaluator.run(None, dict(zip(names, ins))), data_sets, rtol, atol, check
    )


RUNNERS = {"ours": ours, "onnxruntime": onnxruntime_, "reference": reference}


def run(runners=("ours",), cache=None, select=None) -> dict:
    """{runner: {case name: (op type, result, detail)}}."""
    import onnx

    found = cases(cache)
    results = {r: {} for r in runners}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for name, model_bytes, data_sets, rtol, atol in found:
                if select and select not in name:
                    continue
                model = onnx.load_from_string(model_bytes)
                op = op_type(name, model)
                check = random_check(op, model, data_sets, rtol, atol)
                for runner in runners:
                    result, detail = RUNNERS[runner](
                        model_bytes, data_sets, rtol, atol, check=check
                    )
                    results[runner][name] = (op, result, detail)
    return results


def table(results: dict) -> str:
    """The per-op-type table: each runner's pass / refused / mismatch / error."""
    runners = list(results)
    per_op = collections.defaultdict(lambda: {r: collections.Counter() for r in runners})
    for runner, by_case in results.items():
        for op, result, _ in by_case.values():
            per_op[op][runner][result] += 1
    head = "| op type | cases | " + " | ".join(f"{r} p/r/m/e" for r in runners) + " |"
    lines = [head, "|" + "---|" * (2 + len(runners))]
    for op in sorted(per_op):
        counts = per_op[op]
        total = sum(counts[runners[0]].values())
        cells = ["/".join(str(counts[r][k]) for k in RESULTS) for r in runners]
        lines.append(f"| {op} | {total} | " + " | ".join(cells) + " |")
    totals = []
    for runner in runners:
        counter = collections.Counter(result for _, result, _ in results[runner].values())
        ops_passing = len({op for op, result, _ in results[runner].values() if result == "pass"})
        totals.append(
            f"{runner}: "
            + ", ".join(f"{k} {counter[k]}" for k in RESULTS)
            + f"; op types with a passing case {ops_passing}"
        )
    cases_total = len(next(iter(results.values())))
    return "\n".join(lines + ["", f"{cases_total} cases"] + totals)


BEGIN, END = "<!-- supported ops: begin -->", "<!-- supported ops: end -->"


def supported_table(results: dict) -> str:
    """docs/onnx.md's table: each operator of the translation table, the opsets its entries
    start at, and its node-suite cases (how many pass), from `results` (ours)."""
    from burnpy.onnx.table import REFUSED, TABLE

    counts = collections.defaultdict(collections.Counter)
    for op, result, _ in results.values():
        counts[op][result] += 1
    since = collections.defaultdict(list)
    for op, version in TABLE:
        since[op].append(version)
    lines = ["| op | entries from opset | node-suite cases | pass |", "|---|---|---|---|"]
    for op in sorted(since):
        total = sum(counts[op].values())
        versions = ", ".join(str(v) for v in sorted(since[op]))
        lines.append(f"| {op} | {versions} | {total} | {counts[op]['pass']} |")
    if REFUSED:
        lines += ["", "Refused on purpose:", ""]
        lines += [f"- {op}: {why}" for op, why in sorted(REFUSED.items())]
    return "\n".join(lines)


def write_docs(path: str, results: dict) -> None:
    """Replace the table between docs/onnx.md's markers (atomically)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    text = f"{head}{BEGIN}\n{supported_table(results)}\n{END}{tail}"
    from burnpy import files

    files.write_text(path, text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m burnpy.onnx.conformance", description=__doc__)
    parser.add_argument("--runners", default="ours,onnxruntime,reference")
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/burnpy"))
    parser.add_argument("-k", dest="select", help="only the cases whose name holds this")
    parser.add_argument("--write-docs", metavar="PATH", help="rewrite PATH's supported-op table")
    parser.add_argument(
        "--show", default="", help="list the cases of these results: mismatch,error"
    )
    parser.add_argument(
        "--export",
        action="store_true",
        help="the suite in reverse: export each case the importer passes, run the file",
    )
    args = parser.parse_args(argv)
    if args.export:
        return _export(args)
    runners = [r for r in args.runners.split(",") if r]
    results = run(runners, args.cache, args.select)
    print(table(results))
    if args.write_docs:
        write_docs(args.write_docs, results["ours"])
    show = [s for s in args.show.split(",") if s]
    for runner in runners:
        for name, (op, result, detail) in sorted(results[runner].items()):
            if result in show:
                print(f"{runner} {result} {name} ({op}): {detail[:300]}")
    return 0


def run_export(cache=None, select=None, imported: dict | None = None) -> dict:
    """The suite in reverse (burnpy.onnx.exporter.suite): {runner: {case name: (op type,
    result, detail)}} over the cases the importer passes, each exported and run by onnxruntime
    and by the reference evaluator. `imported`, when given, receives the importer's own result
    of every case, as `run(["ours"])` gives them (the import runs once for both)."""
    import onnx

    from burnpy.onnx.exporter import suite

    runners = {"onnxruntime": onnxruntime_, "reference": reference}
    results = {r: {} for r in runners}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for name, model_bytes, data_sets, rtol, atol in cases(cache):
                if select and select not in name:
                    continue
                proto = onnx.load_from_string(model_bytes)
                op = op_type(name, proto)
                check = random_check(op, proto, data_sets, rtol, atol)
                result, detail, model = ours_loaded(model_bytes, data_sets, rtol, atol, check=check)
                if imported is not None:
                    imported[name] = (op, result, detail)
                if result != "pass":
                    continue
                checked = {r: functools.partial(run, check=check) for r, run in runners.items()}
                outcome = suite.reverse(model, data_sets, rtol, atol, checked)
                for runner, (result, detail) in outcome.items():
                    results[runner][name] = (op, result, detail)
    return results


def _export(args) -> int:
    from burnpy.onnx.exporter import suite

    results = run_export(args.cache, args.select)
    print(table(results))
    print()
    print(suite.summary(results))
    show = [s for s in args.show.split(",") if s]
    for runner, by_case in results.items():
        for name, (op, result, detail) in sorted(by_case.items()):
            if result in show:
                print(f"{runner} {result} {name} ({op}): {detail[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
