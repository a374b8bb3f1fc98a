"""The catalogue as frozen dataclasses: what `ops.yaml` means, once it has been validated."""

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from types import MappingProxyType

from burnpy.runtime.autodiff.ops import AutodiffOp, AutodiffRole, FloatInput
from burnpy.runtime.autodiff.rules import tables_of

# The enums are str-valued: each member equals its spelling in ops.yaml (`Kind.FLOAT ==
# "float"`), so messages and templates read the same as the catalogue. Codegen still compares
# them as enums and keys its tables by their members: a misspelt member fails at import, where
# a misspelt string would silently never match.


class Kind(StrEnum):
    """A tensor kind (burn's Float, Int, Bool): an op's kind and each of its results."""

    FLOAT = "float"
    INT = "int"
    BOOL = "bool"


class Routing(StrEnum):
    """How the dispatch layer picks the backend and wraps the result."""

    CREATION = "creation"  # no tensor input: the `device` argument picks the backend
    TENSOR = "tensor"  # the first tensor input picks it; the result keeps the merged context
    CONVERSION = "conversion"  # to another kind (int -> float: a new leaf under autodiff)
    MOVE = "move"  # to another device, maybe of another backend


class AutodiffClass(StrEnum):
    """A differentiable op's checkpoint class: under Balanced, recompute or keep its output."""

    MEMORY_BOUND = "memory_bound"
    COMPUTE_BOUND = "compute_bound"


class ArgKind(StrEnum):
    """What an argument is; with Arg's `optional` and `arity`, its whole type."""

    FLOAT = "float"
    INT = "int"
    BOOL = "bool"
    TENSORS = "tensors"  # a list of tensors of the op's kind (cat)
    INDICES = "indices"  # an int tensor (any int dtype) whose values index a dim (gather, ...)
    SCALAR = "scalar"  # a number, cast to the receiver's kind
    NUMBER = "number"  # a Python float
    INTEGER = "integer"  # a Python int
    FLAG = "flag"  # a Python bool, False unless given (sort's `descending`)
    DIM = "dim"
    DIMS = "dims"
    SHAPE = "shape"
    VIEW_SHAPE = "view_shape"  # a shape that may hold one -1
    SLICES = "slices"  # one (start, end, step) per dim, bounds resolved: 0 <= start <= end <= size
    UPDATE = "update"  # an IndexingUpdateOp (assign, add, mul, min, max)
    DEVICE = "device"
    DTYPE = "dtype"
    DISTRIBUTION = "distribution"
    DATA = "data"
    # module ops' options (docs/design.md#module-functions)
    INTS = "ints"  # `intsN`: an int (repeated) or N ints, taken as a tuple of N ints
    CHOICE = "choice"  # one of the strings the entry's `choices` lists (burn's enums, snake case)
    REAL = "real"  # a Python float (a real number; scale, epsilon)
    # the quantized ops' (`quantized:` entries)
    QFLOAT = "qfloat"  # a Float tensor whose primitive is quantized (burn's QuantizedTensor)
    PRIMITIVE = "primitive"  # a Float tensor, plain or quantized (burn's TensorPrimitive)
    QTENSORS = "qtensors"  # a list of quantized tensors (q_cat)
    SCHEME = "scheme"  # a QuantScheme


class Role(StrEnum):
    """An op's shape: what the dispatch layer and the Autodiff decorator do with it. The one
    place it is decided; dispatch, metadata, `explain`, `list` and the docs read it."""

    COMPOSITE = "composite"  # an expression of other ops, differentiated through them
    CREATION_FLOAT = "creation_float"  # a new float tensor: an untracked leaf under autodiff
    CREATION_PLAIN = "creation_plain"  # a new int or bool tensor, with the device's context
    MOVE = "move"  # to another device: within one backend, or across two
    LEAF = "leaf"  # a conversion to float: the result is a new untracked leaf under autodiff
    AUTODIFF = "autodiff"  # a float op: recorded if differentiable, else forward only
    PLAIN = "plain"  # an int or bool op: the inner kernel on the inner primitives


TENSOR_KINDS = tuple(Kind)
# The spellings ops.yaml accepts: `intsN` for N in 1..3 (`ints2`: kernel_size, stride, ...)
INTS = {f"ints{n}": n for n in (1, 2, 3)}
ARG_TYPES = tuple(t for k in ArgKind for t in (INTS if k is ArgKind.INTS else (k.value,)))
# Argument types that may be optional (`bias: float?`, `padding_end: ints2?`): None allowed.
OPTIONAL_TYPES = (*TENSOR_KINDS, "indices", *INTS, "real", "integer", "number")
# Argument types a method takes as a plain number: such an op is the method's `_scalar` variant.
SCALAR_TYPES = (ArgKind.SCALAR, ArgKind.NUMBER, ArgKind.INTEGER)
ROUTINGS = tuple(Routing)
AUTODIFF_CLASSES = tuple(AutodiffClass)
TENSOR_ARGS = (ArgKind.FLOAT, ArgKind.INT, ArgKind.BOOL, ArgKind.TENSORS, ArgKind.INDICES)
# The float ops' argument type each quantized one stands in for (a q-op mirrors its float op)
QUANTIZED_ARGS = {
    ArgKind.QFLOAT: ArgKind.FLOAT,
    ArgKind.PRIMITIVE: ArgKind.FLOAT,
    ArgKind.QTENSORS: ArgKind.TENSORS,
}
OPERATORS = (
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__matmul__",
    "__neg__",
    "__abs__",
    "__invert__",
    "__and__",
    "__or__",
    "__xor__",
    "__lshift__",
    "__rshift__",
)
# An operator is claimed by op entries. When every claimant shares one method the operator is an
# alias of it; when they span methods (`&`: bool_and on bool, bitwise_and on int) a generated
# dunder routes by kind. Comparison operators are hand-written in runtime/tensor.py: each routes
# a scalar to the `_elem` method and a tensor to the tensor one.


@dataclass(frozen=True)
class Arg:
    """`name: type` of an entry's `args`. `type` may be given as ops.yaml spells it (`ints2`):
    it is parsed into the kind and the arity."""

    name: str
    type: ArgKind
    optional: bool = False  # `float?`: may be None (a tensor: no parent, nothing saved)
    arity: int | None = None  # INTS: how many ints

    def __post_init__(self):
        if self.type in INTS:
            object.__setattr__(self, "arity", INTS[self.type])
            object.__setattr__(self, "type", ArgKind.INTS)
        else:
            object.__setattr__(self, "type", ArgKind(self.type))
        if (self.type is ArgKind.INTS) != (self.arity is not None):
            raise ValueError(f"argument {self.name}: an arity goes with `ints` only")

    @property
    def is_tensor(self) -> bool:
        return self.type in TENSOR_ARGS

    @property
    def spelled(self) -> str:
        """The type as ops.yaml writes it: `ints2?`."""
        base = f"ints{self.arity}" if self.type is ArgKind.INTS else self.type.value
        return base + ("?" if self.optional else "")


# A field's key in an ops.yaml entry (Backend, Op, OpTest), when it is not the field's name (None:
# not a key)
KEY = "key"


@dataclass(frozen=True)
class Backend:
    """An entry of ops.yaml's `backends:`. Its fields are the entry's keys (BACKEND_KEYS,
    derived below), required when the field has no default."""

    name: str  # as in `dispatch<numpy>`
    variant: str  # the DispatchDevice / DispatchTensorKind variant, e.g. NumPy
    module: str  # the runtime module that defines BACKEND
    devices: tuple[str, ...]
    line: int = field(metadata={KEY: None})  # of the entry in the catalogue's file
    extra: str | None = None  # the pip extra that installs its library, if optional


@dataclass(frozen=True)
class OpTest:
    """An entry's `test:`: what the spec-driven suite (tests/opinfo.py) needs. Its fields are
    the mapping's keys (TEST_KEYS, derived below) besides the op's argument names, whose values
    `arguments` holds."""

    ref: str  # a numpy expression over the argument names
    # the samples: in each, one shape per tensor argument (a tuple of shapes for `tensors`,
    # None for an optional tensor left out); None: one sample of the op's non-tensor arguments
    shapes: tuple[tuple, ...] | None = None
    domain: tuple[float, float] | None = None  # of the random inputs (None: the suite's own)
    signed: bool = False  # random signs
    integers: bool = False  # integer-valued floats
    compare: str | None = None  # "shape": only the result's shape is deterministic
    # a non-tensor argument's value, or a tensor argument's data, by the argument's name
    arguments: MappingProxyType = field(
        default_factory=lambda: MappingProxyType({}), metadata={KEY: None}
    )


@dataclass(frozen=True)
class Op:
    """An entry of ops.yaml. Its fields are the entry's keys (OP_KEYS, derived below: the one
    list the validator checks an entry against), required when the field has no default."""

    name: str
    kind: Kind
    args: tuple[Arg, ...]
    returns: tuple[Kind, ...]
    routing: Routing
    doc: str
    line: int = field(metadata={KEY: None})  # of the entry in the catalogue's file
    autodiff: AutodiffClass | None = None
    composite: str | None = None
    method: str | None = None
    static: bool = False
    # no gradient flows through it (an optimiser's update): under autodiff it runs on the inner
    # primitives and its float results are new untracked leaves
    untracked: bool = False
    # its result's shape depends on its inputs' values (mask_select's length): a captured step
    # refuses it, since a replay could not reuse what follows
    data_dependent: bool = False
    # what its forward keeps for the backward beyond its inputs (layer_norm's statistics): when
    # it is recorded, the forward is the backend's `<name>_keeping`, returning (output, kept);
    # the rule's VJPs may name it
    keeps: str | None = None
    # an element-wise op's C expression of one element, `{arg}` for each argument
    # (codegen/validate/elementwise.py): a compiled capture fuses runs of such ops into one loop
    c: str | None = None
    operators: tuple[str, ...] = field(default=(), metadata={KEY: "operator"})
    dtypes: tuple[str, ...] = ()
    # the `# -- section` comment of ops.yaml the entry sits under
    section: str = field(default="", metadata={KEY: None})
    test: OpTest | None = field(default=None, compare=False)
    # a public function of generated/<function>.py (module: burn's ModuleOps), its defaults by
    # argument name, the first keyword-only argument, the strings a `choice` takes, and the
    # arguments that must be non-zero (burn's check_nonzero)
    contract: str | None = None  # its shape contract (runtime/contracts.py), checked on failure
    function: str | None = None
    defaults: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    keyword: str | None = None
    choices: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    nonzero: tuple[str, ...] = ()
    # how its kernel call exports to ONNX, parsed (codegen/onnx_spec.py: an expression
    # over ONNX operators, or a lowering function); None: it does not export
    onnx: object = None
    # a package's own table of backward rules (codegen/package.py), where its rows are; None:
    # the library's tables of runtime/autodiff/rules/
    rules: type | None = field(default=None, compare=False, metadata={KEY: None})

    def __post_init__(self):  # the validator passes the strings it read: made enums here
        object.__setattr__(self, "kind", Kind(self.kind))
        object.__setattr__(self, "returns", tuple(Kind(r) for r in self.returns))
        object.__setattr__(self, "routing", Routing(self.routing))
        if self.autodiff is not None:
            object.__setattr__(self, "autodiff", AutodiffClass(self.autodiff))

    @property
    def role(self) -> Role:
        if self.composite:
            return Role.COMPOSITE
        if self.routing is Routing.CREATION:
            return Role.CREATION_FLOAT if self.kind is Kind.FLOAT else Role.CREATION_PLAIN
        if self.routing is Routing.MOVE:
            return Role.MOVE
        if self.routing is Routing.CONVERSION and self.returns == (Kind.FLOAT,):
            return Role.LEAF
        return Role.AUTODIFF if self.kind is Kind.FLOAT else Role.PLAIN

    @property
    def differentiable(self) -> bool:
        """A gradient flows through it: it has a backward rule, or it is a float composite."""
        if self.autodiff:
            return True
        return (
            self.role is Role.COMPOSITE and self.kind is Kind.FLOAT and Kind.FLOAT in self.returns
        )

    @property
    def tensor_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.is_tensor)

    @property
    def float_args(self) -> tuple[Arg, ...]:
        """The float inputs: `float` args, and a `tensors` list of a float op."""
        return tuple(
            a
            for a in self.args
            if a.type is ArgKind.FLOAT or a.type is ArgKind.TENSORS and self.kind is Kind.FLOAT
        )

    @property
    def autodiff_op(self) -> AutodiffOp | None:
        """What the Autodiff decorator knows of this op (runtime/autodiff/ops.py), from which
        its recorder and its rule are made; None when the op passes through to the inner
        backend (an int or bool op, a composite)."""
        role = self.role
        if role in (Role.CREATION_FLOAT, Role.LEAF):
            autodiff = AutodiffRole.LEAF
        elif role is Role.AUTODIFF or role is Role.MOVE and self.kind is Kind.FLOAT:
            autodiff = (
                AutodiffRole.UNTRACKED
                if self.untracked
                else AutodiffRole.RECORD if self.autodiff else AutodiffRole.FORWARD
            )
        else:
            return None
        floats, table = self.float_args, self.rule_table
        inputs = tuple(
            FloatInput(a.name, i, a.optional, a.type is ArgKind.TENSORS)
            for i, a in enumerate(self.args)
            if a in floats and autodiff is not AutodiffRole.LEAF
        )
        return AutodiffOp(
            self.name,
            tuple(a.name for a in self.args),
            inputs,
            autodiff,
            memory_bound=self.autodiff is AutodiffClass.MEMORY_BOUND,
            float_outputs=tuple(i for i, kind in enumerate(self.returns) if kind is Kind.FLOAT),
            outputs=len(self.returns),
            keeps=self.keeps,
            c=self.c,
            rule=getattr(table, self.name) if table and autodiff is AutodiffRole.RECORD else None,
        )

    @property
    def rule_table(self) -> type | None:
        """The table of runtime/autodiff/rules/ holding this op's backward rule, the row named
        as the op (the first, where two have one: the validator reports it); None for an op
        that is not differentiable, or when no table has a row for it."""
        if self.rules is not None:
            return self.rules if self.autodiff and self.name in vars(self.rules) else None
        found = tables_of(self.name) if self.autodiff else []
        return found[0] if found else None

    @property
    def receiver(self) -> Arg | None:
        """The tensor a method is called on: the first tensor argument (burn puts `dim` before
        it in gather and scatter); None for constructors."""
        return None if self.static else self.tensor_args[0]

    @property
    def group(self) -> str:
        """Its dispatch module, generated/dispatch/<group>_ops.py: a module function's module
        (module ops grouped apart, as burn's ModuleOps trait is), else its kind."""
        return self.function or self.kind.value

    @property
    def category(self) -> str:
        """The report's grouping: the catalogue's own section, else what the routing does."""
        if self.section:
            return self.section
        if self.routing is not Routing.TENSOR:
            return self.routing.value
        return "unary" if len(self.tensor_args) == 1 else "n-ary"


def _entry_keys(model) -> dict[str, bool]:
    """The keys of an entry of `model` (a dataclass), each True when required."""
    return {
        field_.metadata.get(KEY, field_.name): field_.default is MISSING
        and field_.default_factory is MISSING
        for field_ in fields(model)
        if field_.metadata.get(KEY, field_.name) is not None
    }


OP_KEYS = _entry_keys(Op)  # what ops.yaml's header documents under `ops:`
BACKEND_KEYS = _entry_keys(Backend)  # and under `backends:`
TEST_KEYS = _entry_keys(OpTest)  # and under an op's `test:`, besides its argument names


class QRole(StrEnum):
    """How a quantized op (burn's QTensorOps method) is made: the routing role its entry
    declares. burn's two macros are QUANT and FLOW."""

    REQUIRED = "required"  # a kernel every backend defines (burn's 9 required methods)
    KERNEL = "kernel"  # burn's default, written once as a kernel every backend shares
    QUANT = "quant"  # dequant_op_quant!: dequantize, the float op, quantize again
    FLOW = "flow"  # dequant_op_flow!: ... quantized again only if the device propagates
    FLOAT = "float"  # dequantize, the float op: its Int or Bool result (argmax, any, ...)
    COMPOSITE = "composite"  # an expression of other q-ops, as burn's default body


class QResult(StrEnum):
    """What a quantized op returns."""

    QFLOAT = "qfloat"  # a quantized tensor
    FLOAT = "float"
    FLOW = "flow"  # float, or quantized when the device propagates (burn's TensorPrimitive)
    INT = "int"
    BOOL = "bool"
    DATA = "data"  # numpy arrays: the values and the scales (q_into_data)
    FLAG = "flag"  # a Python bool (q_is_require_grad)


# What a q-op made from a float op returns for each kind of the float op's results
KIND_RESULTS = {Kind.FLOAT: QResult.FLOAT, Kind.INT: QResult.INT, Kind.BOOL: QResult.BOOL}


@dataclass(frozen=True)
class QOp:
    """An entry of ops.yaml's `quantized:`: one of burn's 80 QTensorOps methods. A q-op's
    arguments mirror its float op's (`float`), a float tensor argument becoming `qfloat`;
    `routes` names the float op whose dispatch function selects it when its operands are
    quantized (burn-tensor's routing), if one does."""

    name: str
    role: QRole
    args: tuple[Arg, ...]
    returns: tuple[QResult, ...]
    doc: str
    line: int
    float: str | None = None  # the float op a QUANT / FLOW / FLOAT default is made from
    routes: str | None = None
    composite: str | None = None
    method: str | None = None  # a Tensor method of its own (quantize_dynamic, dequantize, ...)
    static: bool = False
    defaults: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    onnx: object = None  # as Op's: how its kernel call exports to ONNX

    def __post_init__(self):
        object.__setattr__(self, "role", QRole(self.role))
        object.__setattr__(self, "returns", tuple(QResult(r) for r in self.returns))

    @property
    def quantized_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.type in QUANTIZED_ARGS)


@dataclass(frozen=True)
class Catalogue:
    path: str
    backends: tuple[Backend, ...]
    ops: tuple[Op, ...]
    quantized: tuple[QOp, ...] = ()

    def op(self, name: str) -> Op:
        return next(op for op in self.ops if op.name == name)

    def qop(self, name: str) -> QOp:
        return next(op for op in self.quantized if op.name == name)
