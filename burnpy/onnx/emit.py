"""From the IR to the statements of a model's `forward`: each node is looked up in the
translation table (burnpy/onnx/table.py) and becomes one statement; a node whose inputs are all
known at import (Constant, Shape of a static shape, the arithmetic on them) is folded into a
constant instead, by running its translation on the NumPy backend. Every node the table cannot
take is collected, so that one UnsupportedError names them all."""

from __future__ import annotations

import builtins
import keyword
import math
import re
import unicodedata
from dataclasses import dataclass, replace

import numpy as np

from burnpy.nn import record
from burnpy.onnx.errors import Refusal
from burnpy.onnx.expr import Attr, Expr, ListOf, Lit, Name, ints, lift
from burnpy.onnx.ops import WIDTHS
from burnpy.onnx.ir import (
    ML_DTYPES,
    NARROW_FLOATS,
    NARROW_INTS,
    STRING,
    SUPPORTED,
    Graph,
    Node,
    storage,
    subgraphs,
)
from burnpy.generated import QuantLevel, QuantParam, QuantScheme, QuantStore, QuantValue


def _reserved() -> frozenset:
    """Names a graph value never takes: Python's keywords and builtins, every method and
    attribute of a Module (a value may become `self.NAME`), and the generated file's own
    names and locals."""
    from burnpy import nn

    own = {"self", "ops", "strings", "ml", "images", "Tensor", "module", "math", "nn", "np", "Model", "device", "source"}  # fmt: skip
    module_names = set(dir(nn.Module)) | set(vars(nn.Module()))
    return frozenset(own | module_names | set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist))  # fmt: skip


RESERVED = _reserved()
# Ops that move values without computing new ones: a narrow int needs no wrap after them.
MOVES = {
    "Identity", "Reshape", "Transpose", "Concat", "Gather", "GatherElements", "GatherND",
    "Slice", "Squeeze", "Unsqueeze", "Expand", "Flatten", "Split", "Tile", "Pad", "Where",
    "Max", "Min", "ReduceMax", "ReduceMin", "Constant", "Compress", "TopK", "Trilu",
    "ScatterElements", "ScatterND", "DepthToSpace", "SpaceToDepth", "CastLike", "Cast",
}  # fmt: skip
# The ops that take 8- and 4-bit floats.
CASTS = {"Cast", "CastLike", "Identity", "Constant", "QuantizeLinear", "DequantizeLinear"}
# Ops whose constant input is a weight the model keeps as it is (a quantized weight stays
# quantized): never folded.
KEEPS_WEIGHTS = {"DequantizeLinear"}
# The most elements a value computed at import may hold: a node whose value would be larger
# stays a statement of `forward`, computed when the model runs (a 150-byte model may declare a
# ConstantOfShape of 10^10 elements).
FOLD_LIMIT = 10**7
# Control flow, and FlexAttention (its modifiers): a compound statement holding its
# subgraphs' statements, never folded.
FLOW = {"If", "Loop", "Scan", "SequenceMap", "FlexAttention"}
# The operators whose outputs have input 0's rank (what `Emitter.carry_rank` relies on).
KEEPS_RANK = {"Split", "Slice", "Transpose", "Identity", "Cast", "CastLike"}
# The operators of other domains the table translates, by (domain, op type).
OTHER_DOMAINS = {
    ("ai.onnx.preview", "FlexAttention"),
    ("ai.onnx.preview.training", "Momentum"),
    ("ai.onnx.preview.training", "Adagrad"),
    ("ai.onnx.preview.training", "Adam"),
    ("ai.onnx.ml", "Binarizer"),
    ("ai.onnx.ml", "ArrayFeatureExtractor"),
    ("ai.onnx.ml", "LabelEncoder"),
    ("ai.onnx.ml", "TreeEnsemble"),
}
# The ops of sequences (Python lists of Tensors, burnpy/onnx/sequences.py): never folded.
SEQUENCES = {
    "SequenceEmpty", "SequenceConstruct", "SequenceAt", "SequenceInsert", "SequenceErase",
    "SequenceLength", "SplitToSequence", "ConcatFromSequence",
}  # fmt: skip
# The ops of optionals (None or the value, burnpy/onnx/sequences.py): never folded.
OPTIONALS = {"Optional", "OptionalHasElement", "OptionalGetElement"}
# The ops that take strings (NumPy arrays of str, burnpy/onnx/strings.py): never folded.
TAKES_STRINGS = {
    "StringConcat", "StringSplit", "StringNormalizer", "RegexFullMatch", "Equal", "LabelEncoder",
    "TfIdfVectorizer", "Identity", "Constant",
}  # fmt: skip
# Ops that decode the model's bytes on the host (burnpy/onnx/images.py): never folded, so an
# image given as a constant is decoded when the model runs, under the pixel cap, not stored.
DECODES = {"ImageDecoder"}
# Ops whose value differs from run to run: never folded.
RANDOM = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Bernoulli", "Multinomial"}  # fmt: skip


@dataclass(frozen=True)
class Const:
    """A translation's answer when the node's value is known at import."""

    array: np.ndarray


@dataclass(frozen=True)
class Outputs:
    """A translation's expression that gives a tuple of `count` values (TopK's values and
    indices), assigned to the node's outputs in order."""

    expr: Expr
    count: int


class Unfoldable(Exception):
    """A node whose value is known at import but too large to compute there."""


@dataclass(frozen=True)
class Statement:
    """`targets = expr`: one node of the graph in the model's `forward`."""

    node: Node
    targets: tuple  # minted identifiers, "_" for an output nobody reads
    expr: Expr


@dataclass(frozen=True)
class Body:
    """A subgraph as code: its statements and its outputs' expressions."""

    statements: tuple  # Statement, Branch, Repeat
    outputs: tuple  # Exprs
    known: tuple | None = None  # the outputs' arrays, when all are known at import


# The names of the generated code a translation's expressions use.
OPS, MODULE, SELF = Name("ops"), Name("module"), Name("self")
STRINGS, ML = Name("strings"), Name("ml")  # burnpy/onnx/strings.py, burnpy/onnx/ml.py
IMAGES = Name("images")  # burnpy/onnx/images.py


class Site:
    """What a translation sees of its node: its inputs as expressions (burnpy/onnx/expr.py),
    the ones known at import as arrays, its attributes, the inferred types and shapes;
    `refuse` says why it cannot."""

    def __init__(self, emitter: Emitter, node: Node, folding: bool):
        self.emitter, self.node, self.folding = emitter, node, folding
        self.opset = node.opset
        self.op = node.op_type

    # -- inputs ----------------------------------------------------------------------------
    def has(self, i: int) -> bool:
        return i < len(self.node.inputs) and self.node.inputs[i] != ""

    def count(self) -> int:
        return len(self.node.inputs)

    def x(self, i: int) -> Expr:
        """Input i as code: a local variable, a parameter or a constant of the model."""
        if not self.has(i):
            raise Refusal(f"input {i} is required")
        return self.emitter.use(self.node.inputs[i], self.folding)

    def opt(self, i: int) -> Expr:
        """Input i as code, or None when it is left out."""
        return self.x(i) if self.has(i) else Lit(None)

    def is_const(self, i: int) -> bool:
        return self.has(i) and self.emitter.const_of(self.node.inputs[i]) is not None

    def const(self, i: int, what: str = "") -> np.ndarray:
        """Input i's value, which must be known at import."""
        value = self.emitter.const_of(self.node.inputs[i]) if self.has(i) else None
        if value is None:
            name = self.node.inputs[i] if self.has(i) else "(absent)"
            raise Refusal(
                f"input {i} '{name}'{' (' + what + ')' if what else ''} must be known at "
                "import (a constant or an initializer); it is computed at run time"
            )
        return value

    def ints(self, i: int, what: str = "") -> list:
        return [int(v) for v in np.asarray(self.const(i, what)).reshape(-1)]

    def ints_code(self, i: int, what: str = "") -> Expr:
        """Input i's ints as code: a literal list when known at import, else read when the
        model runs."""
        if self.is_const(i):
            return ints(self.ints(i, what))
        return OPS.ints(self.x(i))

    def floats_code(self, i: int) -> Expr:
        """Input i's floats as code: a literal list when known at import, else read when the
        model runs."""
        if self.is_const(i):
            return lift([float(v) for v in np.asarray(self.const(i)).reshape(-1)])
        return OPS.floats(self.x(i))

    def number_code(self, i: int) -> Expr:
        """Input i's single number as code: a literal when known at import, else read when
        the model runs."""
        if self.is_const(i):
            return Lit(np.asarray(self.const(i)).reshape(-1)[0].item())
        return self.x(i).item()

    def scalar(self, i: int):
        """Input i as a Python number (a literal) when it is a constant scalar that broadcasts
        away (a scale, an epsilon, a threshold); else None."""
        value = self.emitter.const_of(self.node.inputs[i]) if self.has(i) else None
        other = self.rank(1 - i) if i < 2 and self.count() == 2 else None
        if value is None or value.size != 1 or value.dtype == np.bool_:
            return None
        if value.ndim > 0 and (other is None or value.ndim > other):
            return None
        return Lit(value.reshape(()).item())

    def operand(self, i: int) -> Expr:
        """Input i as a Python number when it is a constant scalar that broadcasts away, else
        as code."""
        number = self.scalar(i)
        return self.x(i) if number is None else number

    # -- attributes, types, shapes ---------------------------------------------------------
    def attr(self, name: str, default=None):
        return self.node.attr(name, default)

    def dtype(self, i: int) -> str:
        value = self.emitter.value(self.node.inputs[i]) if self.has(i) else None
        if value is None or value.dtype is None:
            raise Refusal(f"the element type of input {i} is unknown")
        return value.dtype

    def out_dtype(self, j: int = 0) -> str:
        value = self.emitter.value(self.node.outputs[j])
        if value is None or value.dtype is None:
            raise Refusal(f"the element type of output {j} is unknown")
        return value.dtype

    def shape(self, i: int):
        """Input i's shape as inferred (dims may be None or names), or None."""
        value = self.emitter.value(self.node.inputs[i]) if self.has(i) else None
        return None if value is None else value.shape

    def static_shape(self, i: int, what: str = "") -> tuple:
        shape = self.shape(i)
        if shape is None or not all(isinstance(d, int) for d in shape):
            raise Refusal(
                f"input {i}'s shape must be static{' (' + what + ')' if what else ''}; it is {shape}"
            )
        return shape

    def rank(self, i: int):
        shape = self.shape(i)
        return None if shape is None else len(shape)

    def known_rank(self, i: int) -> int:
        rank = self.rank(i)
        if rank is None:
            raise Refusal(f"the rank of input {i} is unknown")
        return rank

    def device(self) -> Expr:
        return Name("_device") if self.folding else OPS.device_of(SELF)

    def outputs(self) -> int:
        return len(self.node.outputs)

    def has_output(self, j: int) -> bool:
        return j < len(self.node.outputs) and self.node.outputs[j] != ""

    def new_const(self, array, hint: str) -> Expr:
        """A constant the translation computed at import (Compress's positions), as code."""
        name = f"{self.node.outputs[0]}_{hint}"
        self.emitter.consts[name] = _stored(array)
        return self.emitter.use(name, self.folding)

    def initial(self, i: int):
        """Input i's value when known at import: a constant, or an initializer (float ones, the
        model's parameters, included); else None."""
        if not self.has(i):
            return None
        name = self.node.inputs[i]
        value = self.emitter.const_of(name)
        return self.emitter.params.get(name) if value is None else value

    def quantized_param(self, i: int, values, scales, value: str, block) -> Expr:
        """Input i, a constant, as a quantized parameter of the model (burn's symmetric scheme
        of `value`, per tensor or per `block`), as code."""
        return self.emitter.quantized_param(self.node.inputs[i], values, scales, value, block)

    def refuse(self, why: str):
        raise Refusal(why)

    def small(self, count: int) -> bool:
        """Whether a value of `count` elements may be computed at import (FOLD_LIMIT)."""
        return count <= FOLD_LIMIT

    def bounded(self, count: int):
        """A translation's value will hold `count` elements: a node folded at import gives up
        folding beyond FOLD_LIMIT (the node is then computed when the model runs)."""
        if self.folding and not self.small(count):
            raise Unfoldable()


def identifier(name: str) -> str:
    """A graph name as a Python identifier: `/conv1/Conv_output_0` -> `conv1_conv_output_0`;
    NFKC-normalised (as Python reads identifiers) and then ASCII, so two names that Python
    would read as one variable (`t` and a fullwidth `ｔ`) come out alike and the emitter
    tells them apart."""
    text = unicodedata.normalize("NFKC", name)
    text = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower() or "value"
    if text[0].isdigit():
        text = f"v_{text}"
    if text in RESERVED:
        text = f"{text}_"
    return text


class Emitter:
    def __init__(self, graph: Graph, table):
        self.graph, self.table = graph, table
        self.consts: dict = {}  # value name -> numpy array (in its storage dtype)
        self.params = {n: a for n, a in graph.initializers.items() if n in graph.parameters}
        # a float initializer read only as BatchNormalization's running mean or variance is a
        # statistic, not a weight: a buffer, which an optimiser leaves alone
        statistics = {n.inputs[i] for n in graph.nodes if n.op_type == "BatchNormalization" for i in (3, 4) if i < len(n.inputs)}  # fmt: skip
        others = {i for n in graph.nodes for k, i in enumerate(n.inputs) if not (n.op_type == "BatchNormalization" and k in (3, 4))}  # fmt: skip
        self.statistics = {n: self.params.pop(n) for n in statistics - others if n in self.params}
        for name, array in graph.initializers.items():
            if name not in self.params:
                self.consts[name] = _stored(array)
        self.names: dict = {}  # value name -> code name
        self.taken: set = set(RESERVED)
        self.counts: dict = {}  # identifier -> the last number given to a value of that name
        self.used_params: dict = {}  # code name -> array, or record.Quantized
        self.buffers: dict = {}  # code name -> array
        self.statements: list = []
        self.problems: list = []
        self.fold_env: dict = {}
        # every value's type, those of subgraphs included (names are unique across them)
        self.values = dict(graph.values)
        self.problems += _reused_names(graph)
        for body in subgraphs(graph):
            self.values.update(body.values)
            for name, array in body.initializers.items():
                self.consts[name] = _stored(array)

    # -- names -----------------------------------------------------------------------------
    def name_of(self, value: str) -> str:
        """The identifier of graph value `value`, minted on first use: its `identifier`, with
        a number when another value has it (each base counts on from its last number, so
        naming stays linear however many names come out alike)."""
        name = self.names.get(value)
        if name is None:
            base = identifier(value)
            name, count = base, self.counts.get(base, 0)
            while name in self.taken:
                count += 1
                name = f"{base}_{count}"
            self.counts[base] = count
            self.taken.add(name)
            self.names[value] = name
        return name

    def value(self, name: str):
        return self.values.get(name)

    def fresh(self, base: str) -> str:
        """A new identifier for a local of the generated code that is no graph value (a loop's
        counter): `base` minted as a value's name is, never given again."""
        base = identifier(base)
        name, count = base, self.counts.get(base, 0)
        while name in self.taken:
            count += 1
            name = f"{base}_{count}"
        self.counts[base] = count
        self.taken.add(name)
        return name

    def body(self, graph: Graph, attribute: str, fold: bool = False):
        """A subgraph's statements and outputs (burnpy/onnx/flow.py), translated like the main
        graph into statements of their own; its first refused node is refused naming it.
        `fold`: a body whose outputs are all known at import gives their arrays instead."""
        outer, self.statements = self.statements, []
        try:
            for value in graph.inputs:
                self.name_of(value.name)
            for node in graph.nodes:
                try:
                    self.node(node)
                except Refusal as refusal:
                    raise Refusal(f"in its subgraph '{attribute}': {node.where}: {refusal}") from None  # fmt: skip
            statements = tuple(self.statements)
            known = [self.const_of(v.name) for v in graph.outputs]
            if fold and not statements and all(k is not None for k in known):
                return Body((), (), tuple(known))  # every output known at import
            outputs = tuple(self.use(v.name, False) for v in graph.outputs)
            return Body(statements, outputs)
        finally:
            self.statements = outer

    def const_of(self, name: str):
        return self.consts.get(name)

    def use(self, value: str, folding: bool) -> Expr:
        if folding:
            key = f"_c{len(self.fold_env)}"
            self.fold_env[key] = self.consts[value]
            return Name(key)
        if value in self.params:
            name = self.name_of(value)
            self.used_params[name] = self.params[value]
            return Attr(SELF, name)
        if value in self.consts and self.consts[value].dtype == object:
            return _string_literal(self.consts[value])
        if value in self.consts or value in self.statistics:
            name = self.name_of(value)
            self.buffers[name] = self.consts.get(value, self.statistics.get(value))
            return Attr(SELF, name)
        return Name(self.name_of(value))

    def quantized_param(self, value: str, values, scales, kind: str, block) -> Expr:
        level = QuantLevel.tensor() if block is None else QuantLevel.block(list(block))
        scheme = (
            QuantScheme()
            .with_value(getattr(QuantValue, kind))
            .with_level(level)
            .with_store(QuantStore.NATIVE)
            .with_param(QuantParam.F32)
        )
        name = self.name_of(value)
        self.used_params[name] = record.Quantized(
            np.asarray(values).astype(np.int8),
            np.asarray(scales, dtype=np.float32),
            scheme,
        )
        return Attr(SELF, name)

    # -- the graph ---------------------------------------------------------------------------
    def run(self):
        for value in self.graph.inputs:
            if value.dtype not in SUPPORTED:
                self.problems.append(
                    f"graph input '{value.name}': element type {value.dtype} is not supported"
                )
            if value.dtype == STRING and (value.sequence or value.optional):
                self.problems.append(
                    f"graph input '{value.name}': a sequence or optional of strings is not supported"
                )
            self.name_of(value.name)
        for node in self.graph.nodes:
            try:
                self.node(node)
            except Refusal as refusal:
                self.problems.append(f"{node.where}: {refusal}")
        for value in self.graph.outputs:
            if value.dtype not in SUPPORTED and value.dtype is not None:
                self.problems.append(
                    f"graph output '{value.name}': element type {value.dtype} is not supported"
                )

    def node(self, node: Node):
        if node.domain not in ("",) and (node.domain, node.op_type) not in OTHER_DOMAINS:
            raise Refusal(
                f"the domain '{node.domain}' is not supported (only the default ai.onnx domain)"
            )
        translate = self.table.lookup(node)
        self.carry_rank(node)
        for name in list(node.inputs) + list(node.outputs):
            value = self.value(name) if name else None
            if value is not None and value.dtype is not None and value.dtype not in SUPPORTED:
                raise Refusal(
                    f"value '{name}' has element type {value.dtype}, which is not supported"
                )
            if value is not None and value.optional and node.op_type not in OPTIONALS | FLOW | {"Identity"}:  # fmt: skip
                raise Refusal(f"value '{name}' is optional: only the Optional ops, Identity and control flow take one")  # fmt: skip
            if value is not None and value.sequence and node.op_type not in SEQUENCES | FLOW | OPTIONALS | {"Identity"}:  # fmt: skip
                raise Refusal(f"value '{name}' is a sequence: only sequence ops, Identity and control flow take one")  # fmt: skip
            if value is not None and value.dtype == STRING and node.op_type not in TAKES_STRINGS:
                raise Refusal(
                    f"value '{name}' is a string: only the string operators take strings ("
                    + ", ".join(sorted(TAKES_STRINGS))
                    + ")"
                )
            if value is not None and value.dtype in NARROW_FLOATS and node.op_type not in CASTS:
                raise Refusal(
                    f"value '{name}' is {value.dtype}: only casts take 8- and 4-bit floats"
                )
        present = [i for i in node.inputs if i]
        foldable = (
            node.op_type not in RANDOM | KEEPS_WEIGHTS | FLOW | SEQUENCES | OPTIONALS | DECODES
            and all(i in self.consts and self.consts[i].dtype != object for i in present)
            and all(getattr(self.value(o), "dtype", None) != STRING for o in node.outputs if o)
            and all(self.small_enough(o) for o in node.outputs if o)
        )
        if foldable:
            self.fold_env = {}
            site = Site(self, node, folding=True)
            try:
                self.fold(node, site, translate(site))
                return
            except Unfoldable:
                pass  # too large to compute at import: computed when the model runs
        site = Site(self, node, folding=False)
        answer = translate(site)
        if isinstance(answer, Const):
            self.consts[node.outputs[0]] = _stored(answer.array)
            return
        if node.op_type in FLOW:  # an `if` or a loop, its bodies inside (burnpy/onnx/flow.py)
            if answer.known is not None:  # an If whose branch and outputs are known at import
                for name, array in zip(node.outputs, answer.known):
                    if name:
                        self.consts[name] = _stored(array)
                return
            self.statements.append(answer)
            return
        targets = [self.name_of(o) if o else "_" for o in node.outputs]
        if isinstance(answer, Outputs):
            targets = (targets + ["_"] * answer.count)[: answer.count]
            expr = answer.expr
        else:
            targets = targets[:1]
            expr = self.wrapped(node, site, answer)
        self.statements.append(Statement(node, tuple(targets), expr))

    def carry_rank(self, node: Node):
        """An output whose rank shape inference lost (a Split whose sizes the graph computes)
        takes input 0's rank where the op keeps it, so that the nodes reading it translate."""
        source = self.value(node.inputs[0]) if node.op_type in KEEPS_RANK and node.inputs else None
        if source is None or source.shape is None:
            return
        for name in node.outputs:
            value = self.value(name) if name else None
            if value is not None and value.shape is None:
                self.values[name] = replace(value, shape=(None,) * len(source.shape))

    def wrapped(self, node: Node, site: Site, expr: Expr) -> Expr:
        if node.op_type in MOVES or not node.outputs:
            return expr
        value = self.value(node.outputs[0])
        if value is not None and value.dtype in WIDTHS:
            return OPS.wrap(expr, value.dtype)
        return expr

    def small_enough(self, name: str) -> bool:
        """Whether value `name` may be computed at import: its inferred shape, when static,
        holds at most FOLD_LIMIT elements."""
        value = self.value(name)
        if value is None or not value.static:
            return True
        return math.prod(value.shape) <= FOLD_LIMIT

    def fold(self, node: Node, site: Site, answer):
        if isinstance(answer, Const):
            self.consts[node.outputs[0]] = _stored(answer.array)
            return
        from burnpy.onnx import fold as folding

        expr = answer.expr if isinstance(answer, Outputs) else self.wrapped(node, site, answer)
        try:
            value = folding.evaluate(expr, self.fold_env)
        except Exception as error:  # the node's inputs and attributes do not go together
            raise Refusal(f"its value cannot be computed ({type(error).__name__}: {error})") from None  # fmt: skip
        results = value if isinstance(answer, Outputs) else (value,)
        arrays = [result.to_numpy() for result in results]
        if any(array.size > FOLD_LIMIT for array in arrays):
            raise Unfoldable()
        for name, array in zip(node.outputs, arrays):
            if name:
                self.consts[name] = _stored(array)


def _defined(graph: Graph) -> list:
    """The names `graph` itself defines: its inputs, initializers and nodes' outputs."""
    names = [v.name for v in graph.inputs] + list(graph.initializers)
    return names + [o for node in graph.nodes for o in node.outputs if o]


def _reused_names(graph: Graph) -> list:
    """A value name defined in more than one of the model's graphs (two branches may each
    define an `out`): the generated code holds every graph's values in one function, so each
    is refused, naming it."""
    seen, problems = set(), []
    for names in [_defined(graph)] + [_defined(body) for body in subgraphs(graph)]:
        for name in sorted(set(names) & seen):
            problems.append(
                f"value '{name}' is defined in more than one graph (the main graph and its "
                "subgraphs); each value of a model imported here has a name of its own"
            )
        seen |= set(names)
    return problems


def _string_literal(array: np.ndarray) -> Expr:
    """A string constant as code: its elements as literals (repr, never code)."""
    items = ListOf(tuple(Lit(str(s)) for s in array.reshape(-1).tolist()))
    return STRINGS.constant(items, ints(array.shape))


def _stored(array) -> np.ndarray:
    """An array in the dtype the model holds it in (narrow ints as int64, 8- and 4-bit floats
    as float32)."""
    array = np.asarray(array)
    if array.dtype == np.uint64:
        return array.view(np.int64)
    narrow = {ml: onnx for onnx, ml in ML_DTYPES.items()}.get(str(array.dtype))
    if narrow is not None:
        return array.astype(storage(narrow))
    dtype = storage(str(array.dtype)) if str(array.dtype) in NARROW_INTS else array.dtype
    return array.astype(dtype, copy=False)
